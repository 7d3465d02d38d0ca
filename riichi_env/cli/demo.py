"""``riichi-env demo``: a short self-play game through the PettingZoo env with the baseline agents."""

from __future__ import annotations

import argparse
import time

from engine.arguments import SEED_MAX, SEED_RANGE
from riichi_env.cli.arguments import add_rules_argument, add_seed_argument, int_arg


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int_arg, default=1, help="games to play (default 1)")
    add_seed_argument(parser)
    parser.add_argument(
        "--agents",
        choices=("mixed", "efficiency", "random"),
        default="mixed",
        help="mixed: player_0 efficiency, the others random (default); or all of one kind",
    )
    add_rules_argument(parser)
    parser.add_argument(
        "--length", choices=("hanchan", "tonpuusen"), default="hanchan", help="game length"
    )
    parser.add_argument(
        "--render", action="store_true", help="print the table before each decision of player_0"
    )


def _make_agents(kind: str, seed: int, players: int = 4) -> list:
    from agents.efficiency_agent import EfficiencyAgent
    from agents.random_agent import RandomAgent

    if kind == "efficiency":
        return [EfficiencyAgent() for _ in range(players)]
    if kind == "random":
        return [RandomAgent(seed * 4 + i) for i in range(players)]
    return [EfficiencyAgent()] + [RandomAgent(seed * 4 + i) for i in range(1, players)]


def _hand_lines(st, start: int, stop: int, reds) -> list[str]:
    """Readable result lines (hand header, wins, yaku, draws, deltas) of event rows start..stop."""
    from engine import events as ev

    keep = (ev.EV_HAND_START, ev.EV_WIN, ev.EV_YAKU, ev.EV_URA, ev.EV_DELTA, ev.EV_RYUUKYOKU)
    rows = st.events[0, start:stop]
    rows = rows[[int(r[0]) in keep for r in rows]]
    return ev.render(rows, reds)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise ValueError(f"--games must be at least 1, got {args.games}")
    if args.seed + args.games - 1 > SEED_MAX:
        raise ValueError(
            f"--seed {args.seed} with --games {args.games}: the last game's seed would pass "
            f"2**63 - 1 (seeds are {SEED_RANGE})"
        )
    from engine.events import EV_HAND_START
    from riichi_env.aec.raw_env import raw_env
    from riichi_env.core.compiling import ensure_compiled

    compile_seconds = ensure_compiled("env")  # a cold cache says so on stderr, then compiles
    t0 = time.perf_counter()
    env = raw_env(rules=args.rules, game_length=args.length, render_mode="ansi")
    players = env.players
    names = [
        "efficiency" if type(a).__name__ == "EfficiencyAgent" else "random"
        for a in _make_agents(args.agents, 0, players)
    ]
    print(f"riichi_v0 demo: {args.games} game(s), rules {args.rules}, {args.length}")
    print("seats: " + ", ".join(f"player_{i} {n}" for i, n in enumerate(names)))
    totals = [0.0] * players
    decisions = 0
    for g in range(args.games):
        seed = args.seed + g
        agents = _make_agents(args.agents, seed, players)
        env.reset(seed=seed)
        st = env.state_arrays
        reds = env.rules.red_fives
        print(f"\n=== game {g + 1} (seed {seed}) ===")
        shown = 0
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last(observe=False)
            if term or trunc:
                env.step(None)
                continue
            seat = int(agent[-1])
            if args.render and seat == 0:
                print(env.render() + "\n")
            hand = int(st.hand_index[0])
            # the baseline agents read the mask and the seat view, not the encoded observation
            action = agents[seat].act(None, env.action_mask(), env.view(agent))
            env.step(action)
            decisions += 1
            if int(st.hand_index[0]) != hand or bool(st.game_over[0]):
                n = int(st.n_events[0])
                stop = n
                if not st.game_over[0]:
                    starts = [i for i in range(shown, n) if st.events[0, i, 0] == EV_HAND_START]
                    stop = starts[-1]
                for line in _hand_lines(st, shown, stop, reds):
                    print(line)
                shown = stop
        points = [int(p) for p in st.points[0, :players]]
        scores = [float(x) for x in st.final_scores[0, :players]]
        ranks = [int(r) + 1 for r in st.final_ranks[0, :players]]
        print(
            "final: "
            + "  ".join(
                f"player_{i} {points[i]} ({scores[i]:+.1f}, place {ranks[i]})"
                for i in range(players)
            )
        )
        totals = [a + b for a, b in zip(totals, scores, strict=True)]
    if args.games > 1:
        print("\ntotal scores: " + "  ".join(f"player_{i} {x:+.1f}" for i, x in enumerate(totals)))
    dt = time.perf_counter() - t0
    compiled = f" (after {compile_seconds:.0f} s compiling, once)" if compile_seconds else ""
    print(f"\n{decisions} decisions in {dt:.1f} s{compiled}")
    return 0
