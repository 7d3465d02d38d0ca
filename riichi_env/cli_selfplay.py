"""``riichi-env selfplay``: random legal play of whole games in compiled code."""

from __future__ import annotations

import argparse
import json

from engine.validation import SEED_RANGE
from riichi_env.cli import int_arg, seed_arg

HELP = "play N games with random legal actions entirely in compiled code and print rates"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the subcommand."""
    parser.add_argument("--games", type=int_arg, default=10, help="number of games (default 10)")
    parser.add_argument(
        "--seed",
        type=seed_arg,
        default=0,
        help=f"seed of the first game, {SEED_RANGE} (default 0)",
    )
    parser.add_argument(
        "--rules", default="mahjongsoul", help="rules preset: mahjongsoul (default) or tenhou"
    )
    parser.add_argument("--threads", type=int_arg, default=1, help="tables played in parallel")
    parser.add_argument(
        "--policy",
        choices=("uniform", "greedy"),
        default="uniform",
        help="uniform random legal actions (default) or greedy random play that wins more often",
    )
    parser.add_argument(
        "--check", action="store_true", help="validate the state after every step (slower)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Play and report; exit status 1 if a checked game broke an invariant."""
    from engine.rules import Rules
    from engine.selfplay import selfplay
    from riichi_env.warmup import ensure_compiled

    if args.games < 0:
        raise ValueError(f"--games must be >= 0, got {args.games}")
    rules = Rules.preset(args.rules)
    policy = 1 if args.policy == "greedy" else 0
    check = 1 if args.check else 0
    ensure_compiled("selfplay")  # after the checks: a cold cache says so, then compiles
    out = selfplay(args.games, args.seed, rules, threads=args.threads, check=check, policy=policy)
    if args.json:
        doc = {k: out[k] for k in ("games", "hands", "decisions", "seconds")}
        doc["results"] = [
            {k: r[k] for k in ("seed", "points", "final_scores", "hands")} for r in out["results"]
        ]
        if out["errors"]:
            doc["errors"] = out["errors"]
        print(json.dumps(doc))
    else:
        secs = max(out["seconds"], 1e-9)
        print(f"rules      {rules.name}")
        print(f"games      {out['games']}")
        print(f"hands      {out['hands']}")
        print(f"decisions  {out['decisions']}")
        print(f"seconds    {out['seconds']:.3f}")
        print(f"games/s    {out['games'] / secs:.1f}")
        print(f"hands/s    {out['hands'] / secs:.1f}")
        print(f"decisions/s {out['decisions'] / secs:.0f}")
        for e in out["errors"]:
            print(f"error: seed {e['seed']}: {e['message']}")
    return 1 if out["errors"] else 0
