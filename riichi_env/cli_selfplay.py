"""``riichi-env selfplay``: whole games of a compiled policy (random legal play by default)."""

from __future__ import annotations

import argparse
import json

from engine.validation import SEED_RANGE
from riichi_env.cli import add_backend_arguments, int_arg, seed_arg
from riichi_env.play import COMPILED_POLICIES, POLICY_ALIASES, POLICY_NAMES

HELP = "play N games with a compiled policy entirely in compiled code and print rates"


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
    parser.add_argument(
        "--workers",
        "--threads",
        dest="workers",
        type=int_arg,
        default=1,
        help="threads playing in parallel, each with its share of the games (default 1; "
        "--threads is an alias)",
    )
    parser.add_argument(
        "--tables",
        type=int_arg,
        default=None,
        help="tables in play at once (default: one per worker)",
    )
    parser.add_argument(
        "--policy",
        choices=(*POLICY_NAMES, *POLICY_ALIASES),
        default="random",
        help="random: uniform random legal actions (the default; uniform is another name for "
        "it), greedy: random play that wins more often, or simple / efficiency: the baseline "
        "agents compiled (the names riichi_env.selfplay and the arena take)",
    )
    parser.add_argument(
        "--check", action="store_true", help="validate the state after every step (slower)"
    )
    add_backend_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress line on stderr (default: when stderr is a terminal)",
    )


def run(args: argparse.Namespace) -> int:
    """Play and report; exit status 1 if a checked game broke an invariant."""
    from engine.rules import Rules
    from riichi_env.warmup import ensure_compiled

    if args.games < 0:
        raise ValueError(f"--games must be >= 0, got {args.games}")
    if args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    if args.tables is not None and args.tables < 1:
        raise ValueError(f"--tables must be >= 1, got {args.tables}")
    rules = Rules.preset(args.rules)
    if args.backend == "ray" and args.check:
        raise ValueError("--check runs in this process only; drop --backend ray")
    actors = None
    if args.check:
        from engine.selfplay import selfplay as checked_selfplay

        ensure_compiled("checked")  # after the checks: a cold cache says so, then compiles
        policy = int(COMPILED_POLICIES[args.policy])
        out = checked_selfplay(
            args.games, args.seed, rules, threads=args.workers, check=1, policy=policy
        )
    else:
        policy = args.policy
        play = {"games": args.games, "seed": args.seed, "rules": rules, "progress": args.progress}
        if args.tables is not None:
            play["num_tables"] = args.tables
        if args.backend == "ray":
            from riichi_env.distributed import selfplay as ray_selfplay

            out = ray_selfplay(policy, workers=args.workers, address=args.ray_address, **play)
            actors = out["actors"]
        else:
            from riichi_env.play import selfplay

            ensure_compiled("selfplay")  # after the checks: a cold cache says so, then compiles
            out = selfplay(policy, workers=args.workers, **play)
        out["errors"] = []
    if args.json:
        doc = {k: out[k] for k in ("games", "hands", "decisions", "seconds")}
        doc["results"] = [
            {k: r[k] for k in ("seed", "points", "final_scores", "hands", "decisions")}
            for r in out["results"]
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
        for i, a in enumerate(actors or []):
            print(
                f"actor {i}    {a['node']}: {a['games']} games in {a['seconds']:.2f} s of play, "
                f"{a['games_per_s']:.1f} games/s"
            )
        for e in out["errors"]:
            print(f"error: seed {e['seed']}: {e['message']}")
    return 1 if out["errors"] else 0
