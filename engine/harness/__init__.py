"""What drives and checks the rules from outside them: compiled self-play with its optional
checks (``selfplay``) and the baseline policies compiled into it (``policies``), hands started
from given tiles (``scenario``), and the state invariants the checks run (``invariants``).

The rules (the modules directly under ``engine``) never import from here. Nothing is
re-exported here (``engine`` re-exports ``selfplay``, ``start_hand`` and ``validate``).
"""
