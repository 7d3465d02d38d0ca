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

Each seat plays a simple randomized policy so that games have wins, riichi, calls, kans and kita:
win whenever allowed; kita, riichi, kans and kyuushu kyuuhai with high probability; pon
sometimes; otherwise discard a tile that keeps shanten lowest (ties broken at random).
"""

import json
import random
import sys
from pathlib import Path

from riichienv import ActionType, GameRule, RiichiEnv, calculate_shanten_3p

TAKE = {
    ActionType.TSUMO: 1.0,
    ActionType.RON: 1.0,
    ActionType.KITA: 0.9,
    ActionType.RIICHI: 0.9,
    ActionType.ANKAN: 0.8,
    ActionType.KAKAN: 0.8,
    ActionType.DAIMINKAN: 0.6,
    ActionType.KYUSHU_KYUHAI: 0.7,
    ActionType.PON: 0.35,
}


def _key(a):
    return (int(a.action_type), a.tile if a.tile is not None else -1, list(a.consume_tiles))


def choose(obs, rng: random.Random):
    # Sorted, and seats taken in order below: RiichiEnv returns both in no fixed order.
    legal = sorted(obs.legal_actions(), key=_key)
    for kind, p in TAKE.items():
        options = [a for a in legal if a.action_type == kind]
        if options and rng.random() < p:
            return rng.choice(options)
    discards = [a for a in legal if a.action_type == ActionType.DISCARD]
    if discards:
        hand = list(obs.hand)
        best, score = [], None
        for a in discards:
            rest = list(hand)
            rest.remove(a.tile)
            s = calculate_shanten_3p(rest)
            if score is None or s < score:
                best, score = [a], s
            elif s == score:
                best.append(a)
        return rng.choice(best)
    passes = [a for a in legal if a.action_type == ActionType.PASS]
    return passes[0] if passes else rng.choice(legal)


def play(seed: int, rule: str) -> list[dict]:
    base, _, east = rule.partition("-")
    game_rule = GameRule.default_tenhou() if base == "tenhou" else GameRule.default_mjsoul()
    mode = "3p-red-east" if east else "3p-red-half"
    env = RiichiEnv(game_mode=mode, seed=seed, rule=game_rule)
    rng = random.Random(seed)
    obs = env.reset()
    while not env.done():
        obs = env.step({pid: choose(o, rng) for pid, o in sorted(obs.items())})
    return list(env.mjai_log)


def main() -> None:
    out = Path(sys.argv[1])
    rule = sys.argv[2]
    out.mkdir(parents=True, exist_ok=True)
    for seed in map(int, sys.argv[3:]):
        log = play(seed, rule)
        base, _, east = rule.partition("-")
        path = out / f"{base}3p{'E' if east else ''}_seed{seed}.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for ev in log:
                f.write(json.dumps(ev, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
