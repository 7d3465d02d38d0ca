"""``riichi-env selfplay``: whole games of a compiled policy (random legal play by default)."""

from __future__ import annotations

import argparse
import json

from riichi_env.batch.play import COMPILED_POLICIES, POLICY_ALIASES, POLICY_NAMES
from riichi_env.cli.arguments import (
    add_backend_arguments,
    add_progress_argument,
    add_rules_argument,
    add_seed_argument,
    int_arg,
)
from riichi_env.progress import ProgressLine


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the subcommand."""
    parser.add_argument("--games", type=int_arg, default=10, help="number of games (default 10)")
    add_seed_argument(parser)
    add_rules_argument(parser)
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
    add_progress_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Play and report; exit status 1 if a checked game broke an invariant."""
    from engine.rules import PRESETS, PRESETS_3P, Rules
    from riichi_env.core.compiling import ensure_compiled

    if args.games < 0:
        raise ValueError(f"--games must be >= 0, got {args.games}")
    if args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    if args.tables is not None and args.tables < 1:
        raise ValueError(f"--tables must be >= 1, got {args.tables}")
    if args.rules not in PRESETS and args.rules not in PRESETS_3P:
        raise ValueError(
            f"unknown rules preset {args.rules!r}; choose from {[*PRESETS, *PRESETS_3P]}"
        )
    rules = Rules.preset(args.rules)
    if args.backend == "ray" and args.check:
        raise ValueError("--check runs in this process only; drop --backend ray")
    actors = None
    if args.check:
        ensure_compiled("checked")  # after the checks: a cold cache says so, then compiles
        policy = COMPILED_POLICIES[args.policy]
        out = _checked(args.games, args.seed, rules, args.workers, policy, args.progress)
    else:
        policy = args.policy
        play = {"games": args.games, "seed": args.seed, "rules": rules, "progress": args.progress}
        if args.tables is not None:
            play["num_tables"] = args.tables
        if args.backend == "ray":
            from riichi_env.integrations.ray import selfplay as ray_selfplay

            out = ray_selfplay(policy, workers=args.workers, address=args.ray_address, **play)
            actors = out["actors"]
        else:
            from riichi_env.batch.play import selfplay

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


CHECKED_CALL_SECONDS = 0.5
"""Seconds each call of the checked loop aims at: Ctrl-C is seen between calls."""


def _checked(
    games: int, seed: int, rules, workers: int, policy: int, progress: bool | None
) -> dict:
    """``engine.selfplay`` with ``check=1``, in calls of about ``CHECKED_CALL_SECONDS`` (one
    compiled call plays all of a thread's games, and Ctrl-C waits for it): the same games, each
    by its seed, merged; ``progress`` as ``riichi_env.selfplay``'s."""
    import sys

    from engine.harness.selfplay import selfplay as checked_selfplay

    out = {"games": 0, "hands": 0, "decisions": 0, "seconds": 0.0, "results": [], "errors": []}
    show = sys.stderr.isatty() if progress is None else progress
    line = ProgressLine("selfplay", games) if show and games else None
    done, size = 0, workers  # the first call times one game per thread
    try:
        while done < games:
            n = min(size, games - done)
            part = checked_selfplay(n, seed + done, rules, threads=workers, check=1, policy=policy)
            for key in ("games", "hands", "decisions", "seconds"):
                out[key] += part[key]
            out["results"] += part["results"]
            out["errors"] += part["errors"]
            done += n
            if line is not None:
                line(done)
            per_game = part["seconds"] / n
            size = max(
                workers, min(4096, int(CHECKED_CALL_SECONDS * workers / max(per_game, 1e-9)))
            )
    finally:
        if line is not None:
            line.close()
    return out
