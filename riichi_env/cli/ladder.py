"""``riichi-env ladder``: each spec and the anchors against one fixed field, ranked, with a manifest."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from riichi_env.batch.ladder import ANCHORS, BY, DEFAULT_SEED_KEY, FIELD
from riichi_env.cli.arena import (
    add_bot_arguments,
    add_log_arguments,
    check_common,
    points_arg,
    pool_runner,
    resolver,
)
from riichi_env.cli.arguments import add_backend_arguments, add_progress_argument, int_arg


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the subcommand."""
    parser.add_argument(
        "specs",
        nargs="*",
        metavar="SPEC",
        help="seat specs to rank, as the arena takes them (random, greedy, simple, efficiency, "
        "efficiency-py, simple-py, module:Class, mjai:COMMAND, mjaiapp:COMMAND, ppo:PATH); one "
        "argument each, so a command may hold commas",
    )
    parser.add_argument(
        "--games",
        type=int_arg,
        default=400,
        help="games per entrant, rounded up to whole deal sets (default 400)",
    )
    parser.add_argument(
        "--anchors",
        default=",".join(ANCHORS),
        help="entrants every ladder has, so that ladders run apart read alike (default "
        f"{','.join(ANCHORS)}; '' for none)",
    )
    parser.add_argument(
        "--field",
        default=None,
        help="the opponents every entrant meets, one per other seat (default "
        f"{','.join(FIELD[4])}; with three players {','.join(FIELD[3])})",
    )
    parser.add_argument(
        "--seed-key",
        default=DEFAULT_SEED_KEY,
        help=f"the walls: any string; the default {DEFAULT_SEED_KEY!r} is the published one, so "
        "everyone's ladder plays the same games",
    )
    parser.add_argument(
        "--rules",
        default="mahjongsoul",
        help="rules preset: mahjongsoul (default), tenhou, tenhou-2009, mahjongsoul-3p, tenhou-3p",
    )
    parser.add_argument(
        "--points",
        type=points_arg,
        metavar="P1,P2,...",
        help="a placement-points table (such as 90,45,0,-135); ranks by it unless --by says",
    )
    parser.add_argument(
        "--by",
        choices=tuple(BY),
        default=None,
        help="rank by the final score under the preset's uma and oka (score, the default), the "
        "--points table (points, the default with --points) or average rank (rank)",
    )
    parser.add_argument("--workers", type=int_arg, default=1, help="threads (default 1)")
    add_backend_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--manifest",
        metavar="FILE",
        help="write what was run as JSON: specs, command, versions, seeds, rules, and the "
        "SHA-256 of every game's event log",
    )
    parser.add_argument(
        "--plot", metavar="FILE", help="draw the ladder into a PNG (matplotlib: the plot extra)"
    )
    add_log_arguments(parser, "write every game's record into DIR")
    add_bot_arguments(parser)
    add_progress_argument(parser)


def _specs(text: str, option: str) -> list[str]:
    specs = [s.strip() for s in text.split(",")] if text.strip() else []
    if not all(specs):
        raise ValueError(f"{option} takes comma-separated seat specs, got {text!r}")
    return specs


def run(args: argparse.Namespace) -> int:
    """Play the ladder and print its table (or ``--json``); write the manifest and the plot."""
    from riichi_env.batch.ladder import (
        format_ladder,
        import_pyplot,
        ladder,
        ladder_json,
        manifest,
        plot_ladder,
    )

    rules = check_common(args)
    n = rules.players
    anchors = _specs(args.anchors, "--anchors")
    field = _specs(args.field, "--field") if args.field is not None else list(FIELD[n])
    if len(field) != n - 1:
        word = {2: "two", 3: "three"}[n - 1]
        raise ValueError(
            f"--field needs {word} seat specs (one per seat besides the entrant's), got "
            f"{args.field!r}"
        )
    specs = [s.strip() for s in args.specs]
    if not all(specs):
        raise ValueError("a SPEC is empty; give seat specs such as greedy or mjai:COMMAND")
    entrants = list(dict.fromkeys([*anchors, *specs]))
    if len(entrants) < 2:
        raise ValueError(
            f"a ladder needs two entrants or more (the anchors and the SPECs), got {entrants}"
        )
    by = args.by or ("points" if args.points is not None else "score")
    for path, what in ((args.manifest, "--manifest"), (args.plot, "--plot")):
        if path is not None and Path(path).is_dir():
            raise ValueError(f"{what} {path}: a directory is there; give a file name")
    if args.plot is not None:
        import_pyplot()  # before the games: without matplotlib, fail now
    seat = resolver(args)
    policies = [seat(s) for s in entrants]
    opponents = [seat(s) for s in field]
    with pool_runner(args) as runner:
        out = ladder(
            policies,
            names=entrants,
            field=opponents,
            field_names=field,
            games=args.games,
            seed_key=args.seed_key,
            rules=rules,
            points=args.points,
            by=by,
            workers=args.workers,
            runner=runner,
            bot_errors=args.bot_errors,
            progress=args.progress,
            log_dir=args.log,
            log_format=args.format,
            overwrite=args.overwrite,
        )
    if args.manifest is not None:
        command = ["riichi-env", *getattr(args, "_argv", sys.argv[1:])]
        doc = manifest(out, specs=specs, command=command, rules=rules)
        Path(args.manifest).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"manifest: {args.manifest}", file=sys.stderr)
    if args.plot is not None:
        plot_ladder(out, args.plot, anchors=anchors)
        print(f"plot: {args.plot}", file=sys.stderr)
    if args.json:
        print(json.dumps(ladder_json(out)))
    else:
        print(format_ladder(out))
    return 0
