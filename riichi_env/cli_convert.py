"""``riichi-env convert``: convert game records between mjlog XML, tenhou.net/6 JSON and mjai."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from riichi_env.records.convert import FORMATS, WRITE_FORMATS, read_file, write_text
from riichi_env.records.model import RecordError
from riichi_env.records.tenhou6 import viewer_url, write_tenhou6

HELP = "convert game records between mjlog XML, tenhou.net/6 JSON and mjai events"
_SUFFIX = {"tenhou6": ".json", "mjai": ".jsonl"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of the subcommand."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files to convert")
    parser.add_argument(
        "--to",
        choices=WRITE_FORMATS,
        default=None,
        help="output format (default: mjai; with --url only tenhou6)",
    )
    parser.add_argument(
        "--from",
        dest="fmt",
        choices=("auto", *FORMATS),
        default="auto",
        help="input format (default: detect)",
    )
    parser.add_argument(
        "-o",
        "--output",
        help="output file (one input) or folder (several inputs); default: standard output",
    )
    parser.add_argument(
        "--url",
        action="store_true",
        help="print the tenhou.net/6 viewer address of each game instead (a tenhou6 output: "
        "not with --to mjai)",
    )


def run(args: argparse.Namespace) -> int:
    """Convert every file; returns 1 if any could not be read."""
    if args.url and args.to not in (None, "tenhou6"):
        raise ValueError(
            f"--url prints the tenhou.net/6 viewer address; it cannot be combined with "
            f"--to {args.to} (leave --to out or use --to tenhou6)"
        )
    to = args.to or ("tenhou6" if args.url else "mjai")
    status = 0
    out_dir = None
    if args.output and len(args.files) > 1:
        out_dir = Path(args.output)
        out_dir.mkdir(parents=True, exist_ok=True)
    for name in args.files:
        try:
            game = read_file(name, fmt=args.fmt)
        except RecordError as exc:
            print(f"riichi-env convert: {exc}", file=sys.stderr)
            status = 1
            continue
        text = viewer_url(write_tenhou6(game)) + "\n" if args.url else write_text(game, to)
        if out_dir is not None:
            target = out_dir / (Path(name).stem + (".url" if args.url else _SUFFIX[to]))
            target.write_text(text, encoding="utf-8")
        elif args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    return status
