"""Scoring a winning hand: agari readings (``agari``), yaku (``yaku``), fu (``fu``), limits and
payments (``payment``), the scoring kernel (``kernel``) and its vectors (``layout``), and the
Python entry ``score_hand`` with its input checks (``hand_score``).

Nothing is re-exported here (``engine`` re-exports ``score_hand``, ``HandResult`` and
``payment``); import from the module that defines a name.
"""
