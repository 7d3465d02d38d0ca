"""How the games in this folder were made: full RiichiEnv games written as mjai JSON lines.

Documentation only: the test suite does not run it, and it imports nothing from this project.
Run it in a throwaway environment with ``pip install riichienv==0.4.11 numpy``:

    python generate.py OUT_DIR RULE SEED [SEED ...]     # RULE: tenhou or mjsoul

It writes ``OUT_DIR/{RULE}_seed{SEED}.jsonl``, the ``mjai_log`` of ``RiichiEnv(game_mode=
"4p-red-half", seed=SEED, rule=GameRule.default_tenhou() or default_mjsoul())`` (hanchan, one red
five per suit), one event per line exactly as RiichiEnv produced it. The files here came from
``generate.py . tenhou 7 101 220 288`` and ``generate.py . mjsoul 186 202 214 250 3241``
(``generate.py`` then ``cmp`` against them is a check that RiichiEnv still plays the same).
``generate_3p.py`` writes the three-player games with the same code (``main(players=3)``).

Each seat plays a simple randomized policy so that games have wins, riichi, calls and kans:
win whenever allowed; riichi, kans, kita (three players) and kyuushu kyuuhai with high
probability; chi and pon sometimes; otherwise discard a tile that keeps shanten lowest (ties
broken at random).
"""

import json
import random
import sys
from pathlib import Path

from riichienv import ActionType, GameRule, RiichiEnv, calculate_shanten, calculate_shanten_3p

TAKE = {
    ActionType.TSUMO: 1.0,
    ActionType.RON: 1.0,
    ActionType.KITA: 0.9,  # never legal with four players, chi never with three: no draw is made
    ActionType.RIICHI: 0.9,
    ActionType.ANKAN: 0.8,
    ActionType.KAKAN: 0.8,
    ActionType.DAIMINKAN: 0.6,
    ActionType.KYUSHU_KYUHAI: 0.7,
    ActionType.PON: 0.35,
    ActionType.CHI: 0.2,
}


def _key(a):
    return (int(a.action_type), a.tile if a.tile is not None else -1, list(a.consume_tiles))


def choose(obs, rng: random.Random, shanten=calculate_shanten):
    """The seat's action: a listed call or win at its rate, else a discard keeping shanten lowest."""
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
            s = shanten(rest)
            if score is None or s < score:
                best, score = [a], s
            elif s == score:
                best.append(a)
        return rng.choice(best)
    passes = [a for a in legal if a.action_type == ActionType.PASS]
    return passes[0] if passes else rng.choice(legal)


def _split(rule: str, players: int) -> tuple[str, bool]:
    """RULE's base rule and whether it asks for East games (``-east``, three players only)."""
    if players == 4:
        return rule, False
    base, _, east = rule.partition("-")
    return base, bool(east)


def play(seed: int, rule: str, players: int = 4) -> list[dict]:
    """The mjai log of one game: ``players`` seats, RULE as on the command line."""
    base, east = _split(rule, players)
    game_rule = GameRule.default_tenhou() if base == "tenhou" else GameRule.default_mjsoul()
    if players == 4:
        mode, shanten = "4p-red-half", calculate_shanten
    else:
        mode, shanten = ("3p-red-east" if east else "3p-red-half"), calculate_shanten_3p
    env = RiichiEnv(game_mode=mode, seed=seed, rule=game_rule)
    rng = random.Random(seed)
    obs = env.reset()
    while not env.done():
        obs = env.step({pid: choose(o, rng, shanten) for pid, o in sorted(obs.items())})
    return list(env.mjai_log)


def main(players: int = 4) -> None:
    """``OUT_DIR RULE SEED...`` from the command line: one file per seed."""
    out = Path(sys.argv[1])
    rule = sys.argv[2]
    out.mkdir(parents=True, exist_ok=True)
    for seed in map(int, sys.argv[3:]):
        log = play(seed, rule, players)
        base, east = _split(rule, players)
        name = rule if players == 4 else f"{base}3p{'E' if east else ''}"
        path = out / f"{name}_seed{seed}.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for ev in log:
                f.write(json.dumps(ev, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
