"""How the games in this folder were made: full three-player RiichiEnv games as mjai JSON lines.

Documentation only: the test suite does not run it, and it imports nothing from this project.
Run it in a throwaway environment with ``pip install riichienv==0.4.11 numpy``:

    python generate_3p.py OUT_DIR RULE SEED [SEED ...]  # RULE: tenhou, mjsoul, tenhou-east, mjsoul-east

It writes ``OUT_DIR/{RULE}3p_seed{SEED}.jsonl`` (``{tenhou,mjsoul}3pE_seed…`` for the East
games), the ``mjai_log`` of ``RiichiEnv(game_mode="3p-red-half", seed=SEED,
rule=GameRule.default_tenhou() or default_mjsoul())`` (three-player hanchan, red 5p and 5s;
``game_mode="3p-red-east"`` for ``-east``: tonpuusen), one event per line exactly as RiichiEnv
produced it (its kita event is
``{"type": "kita", "actor": …, "pai": "N"}``; ``scores``, ``tehais`` and ``deltas`` have three
entries).

Each seat plays the policy of ``generate.py`` (beside this file, which does the work) so that games
have wins, riichi, calls, kans and kita: win whenever allowed; kita, riichi, kans and kyuushu
kyuuhai with high probability; pon sometimes; otherwise discard a tile that keeps shanten lowest
(ties broken at random).
"""

from generate import main

if __name__ == "__main__":
    main(players=3)
