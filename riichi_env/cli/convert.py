"""``riichi-env convert``: convert game records between mjlog XML, tenhou.net/6 JSON and mjai."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from riichi_env.records.convert import FORMATS, WRITE_FORMATS, read_file, write_text
from riichi_env.records.files import MAX_LINE_BYTES, MAX_RECORD_BYTES, parse_size, size_text
from riichi_env.records.mjai import SANMA_DIALECTS
from riichi_env.records.model import RecordError
from riichi_env.records.scan import RECORD_SUFFIXES
from riichi_env.records.tenhou6 import viewer_url, write_tenhou6

_SUFFIX = {"tenhou6": ".json", "mjai": ".jsonl", "mahjongsoul": ".json"}


def output_stem(name: str) -> str:
    """A converted record's name in the output folder, without its suffix: the input's name
    without ``.gz`` and a record suffix (``game.json.gz`` -> ``game``, ``log.mjson`` -> ``log``,
    ``g.txt`` -> ``g``)."""
    stem = Path(name).name
    if stem.lower().endswith(".gz"):
        stem = stem[:-3]
    base, dot, suffix = stem.rpartition(".")
    if dot and base and f".{suffix.lower()}" in (*RECORD_SUFFIXES, ".txt"):
        stem = base
    return stem


def size_arg(text: str) -> int:
    """An ``argparse`` type: a positive byte count (``1000000``, ``512K``, ``64M``, ``2G``)."""
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """``--max-record-bytes`` and ``--max-line-bytes`` (shared by replay and convert)."""
    parser.add_argument(
        "--max-record-bytes",
        type=size_arg,
        default=MAX_RECORD_BYTES,
        metavar="SIZE",
        help="refuse a file holding more than SIZE bytes of record text, counted after gzip "
        f"decompression (1000000, 512K, 64M, 1G; default {size_text(MAX_RECORD_BYTES)}: a real "
        "game is about 1 MB at most)",
    )
    parser.add_argument(
        "--max-line-bytes",
        type=size_arg,
        default=MAX_LINE_BYTES,
        metavar="SIZE",
        help=f"refuse a file with a line longer than SIZE bytes (default "
        f"{size_text(MAX_LINE_BYTES)}; mjlog and tenhou.net/6 may hold a game on one line)",
    )


def read_limits(args: argparse.Namespace) -> dict[str, int]:
    """``read_file`` / ``load_walls`` keywords from the options of :func:`add_limit_arguments`."""
    return {"max_bytes": args.max_record_bytes, "max_line_bytes": args.max_line_bytes}


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
        "--sanma-dialect",
        choices=SANMA_DIALECTS,
        default="nukidora",
        help="mjai output of three-player games: nukidora (default; the Mortal-3p forks and "
        "mjai-reviewer3p: four-seat lists) or kita (RiichiEnv: three-seat lists)",
    )
    parser.add_argument(
        "--url",
        action="store_true",
        help="print the tenhou.net/6 viewer address of each game instead (a tenhou6 output: "
        "not with --to mjai)",
    )
    add_limit_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Convert every file; returns 1 if any could not be read."""
    from riichi_env.core.compiling import ensure_compiled
    from riichi_env.records.scan import sniff

    if args.url and args.to not in (None, "tenhou6"):
        raise ValueError(
            f"--url prints the tenhou.net/6 viewer address; it cannot be combined with "
            f"--to {args.to} (leave --to out or use --to tenhou6)"
        )
    to = args.to or ("tenhou6" if args.url else "mjai")
    status = 0
    out_dir = targets = None
    if args.output and len(args.files) > 1:
        out_dir = Path(args.output)
        suffix = ".url" if args.url else _SUFFIX[to]
        targets = {name: out_dir / (output_stem(name) + suffix) for name in args.files}
        seen: dict[Path, str] = {}
        for name, target in targets.items():
            if target in seen:
                raise ValueError(
                    f"{seen[target]} and {name} would both be written to {target}; convert "
                    "them into different folders or rename one"
                )
            seen[target] = name
        out_dir.mkdir(parents=True, exist_ok=True)
    for name in args.files:
        fmt = args.fmt if args.fmt != "auto" else sniff(name)[0]
        if fmt == "mjai":  # its reader is compiled: say so before compiling
            ensure_compiled("records")
        try:
            game = read_file(name, fmt=args.fmt, **read_limits(args))
        except RecordError as exc:
            print(f"riichi-env convert: {exc}", file=sys.stderr)
            status = 1
            continue
        if game.truncated:
            unfinished = [h.label for h in game.hands if not h.finished]
            left = (
                f"; tenhou.net/6 writes whole hands: hand {unfinished[0]} is left out"
                if unfinished and (args.url or to == "tenhou6")
                else ""
            )
            print(f"riichi-env convert: note: {name}: {game.truncated}{left}", file=sys.stderr)
        text = (
            viewer_url(write_tenhou6(game)) + "\n"
            if args.url
            else write_text(game, to, sanma_dialect=args.sanma_dialect)
        )
        if out_dir is not None:
            targets[name].write_text(text, encoding="utf-8")
        elif args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    return status
