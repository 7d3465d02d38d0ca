"""``riichi-env dataset``: game records to training shards (``shard-*.npz`` + ``manifest.json``)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from riichi_env.cli.arguments import add_progress_argument, int_arg


def _names(text: str) -> list[str]:
    """An ``argparse`` type: comma-separated non-empty names."""
    names = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not n for n in names):
        raise argparse.ArgumentTypeError(f"expected comma-separated names, got {text!r}")
    return names


def _seats(text: str) -> list[int]:
    """An ``argparse`` type: comma-separated seats 0-3."""
    seats = []
    for part in text.split(","):
        if part.strip() not in ("0", "1", "2", "3"):
            raise argparse.ArgumentTypeError(
                f"expected comma-separated seats 0-3 (such as 0,2), got {text!r}"
            )
        seats.append(int(part))
    return seats


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of the subcommand."""
    _add_input_arguments(parser)
    _add_row_arguments(parser)
    _add_output_arguments(parser)


def _add_input_arguments(parser: argparse.ArgumentParser) -> None:
    """The records, ``--out``, the encoder and rules they are read with, and ``--workers``."""
    from engine.rules import PRESETS_3P
    from riichi_env.core.encoders import ALL_ENCODERS

    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="record files (mjlog XML, tenhou.net/6 JSON, mjai, Mahjong Soul JSON; .gz too) or directories: every "
        "record file under a directory, sorted by path (.xml, .mjlog, .json, .jsonl, .mjson, "
        "optionally .gz, and any other file whose content is a record, such as mjlog saved as "
        ".txt; the other files are listed as ignored)",
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="directory for the shards")
    parser.add_argument(
        "--encoder",
        choices=ALL_ENCODERS,
        default="basic_v0",
        help="observation encoder (default basic_v0); it fixes the players: a four-player encoder "
        "converts four-player records, a three-seat one (basic3_v0, rich3_v0, oracle3_v0) "
        "three-player records, and records of the other count are skipped with their reason",
    )
    parser.add_argument(
        "--rules",
        choices=("auto", "mahjongsoul", "tenhou", "tenhou-2009", *PRESETS_3P),
        default="auto",
        help="rules preset (default auto: from each record, as riichi-env replay reads them); "
        "the -3p presets with a three-seat encoder",
    )
    parser.add_argument(
        "--workers",
        type=int_arg,
        default=1,
        help="processes converting files, this one included (default 1); the shards are the same for any number",
    )


def _add_row_arguments(parser: argparse.ArgumentParser) -> None:
    """Which decisions become rows, and what a row holds."""
    parser.add_argument(
        "--players", type=_names, default=None, metavar="A,B", help="only the seats of these names"
    )
    parser.add_argument(
        "--seats", type=_seats, default=None, metavar="0,1", help="only these seats (0-3)"
    )
    parser.add_argument(
        "--kinds",
        type=_names,
        default=None,
        metavar="discard,riichi",
        help="only decisions of these kinds (discard, riichi, tsumo, ron, chi, pon, daiminkan, "
        "ankan, kakan, kyushu, pass, kita)",
    )
    parser.add_argument(
        "--skip-forced",
        action="store_true",
        help="leave out decisions with exactly one legal action",
    )
    parser.add_argument(
        "--augment",
        choices=("mp", "ps", "suits"),
        default=None,
        help="also the suit-swapped copies of each row: mp (man<->pin), ps (pin<->sou: the one "
        "three players allow) or suits (all 6 suit permutations)",
    )
    parser.add_argument(
        "--oracle",
        action="store_true",
        help="also an oracle column (oracle_v0 observations; oracle3_v0 with three players)",
    )
    parser.add_argument(
        "--dtype",
        choices=("float32", "uint8"),
        default="float32",
        help="observation dtype (default float32; uint8: quantized as vector_env(dtype=uint8), 4 "
        "times smaller)",
    )


def _add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """How the shards are laid out and written, and what is printed."""
    parser.add_argument(
        "--layout",
        choices=("games", "rows"),
        default="games",
        help="what the shards hold (default games: the records packed, about 10 KB a hanchan, "
        "rows made as they are read, with these options or others; rows: the rows themselves, "
        "about 21 KB a row in float32)",
    )
    parser.add_argument(
        "--shard-games",
        type=int_arg,
        default=None,
        metavar="N",
        help="games per shard of the games layout (default 1024; the last shard has fewer)",
    )
    parser.add_argument(
        "--shard-rows",
        type=int_arg,
        default=None,
        metavar="N",
        help="rows per shard of the rows layout (default 65536; the last shard has fewer)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="stop at the first record that cannot be converted (exit status 1) instead of "
        "skipping it",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="write into a non-empty --out directory, replacing its shards and manifest",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_progress_argument(parser)


def run(args: argparse.Namespace) -> int:
    """Write the shards and report; exit status 1 if ``--strict`` stopped at a bad record or no
    row was written (a line on stderr says why)."""
    from riichi_env._worker import start_early, stop_early
    from riichi_env.dataset.convert import DatasetError
    from riichi_env.dataset.io import write_shards

    if args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    for flag, value in (("--shard-rows", args.shard_rows), ("--shard-games", args.shard_games)):
        if value is not None and value < 1:
            raise ValueError(f"{flag} must be >= 1, got {value}")
    if args.layout == "games" and args.shard_rows is not None:
        raise ValueError("--shard-rows is an option of --layout rows (games: --shard-games)")
    if args.layout == "rows" and args.shard_games is not None:
        raise ValueError("--shard-games is an option of --layout games (rows: --shard-rows)")
    options: dict[str, Any] = {
        "encoder": args.encoder,
        "rules": args.rules,
        "seats": args.seats,
        "players": args.players,
        "kinds": args.kinds,
        "skip_forced": args.skip_forced,
        "augment": args.augment,
        "oracle": args.oracle,
        "dtype": args.dtype,
        "strict": args.strict,
    }
    start = time.perf_counter()
    try:
        if args.workers > 1:  # their start overlaps this process's kernel loads
            start_early(args.workers - 1, args.layout, options)  # or they have started
        manifest = write_shards(
            args.files,
            args.out,
            layout=args.layout,
            shard_games=args.shard_games,
            shard_rows=args.shard_rows,
            workers=args.workers,
            progress=args.progress,
            overwrite=args.overwrite,
            **options,
        )
    except DatasetError as exc:
        print(f"riichi-env dataset: {exc}", file=sys.stderr)
        return 1
    finally:
        stop_early()  # those no run took (too few files, a bad option)
    seconds = time.perf_counter() - start
    doc = summary(manifest, seconds)
    if args.json:
        print(json.dumps(doc, ensure_ascii=False))
    else:
        print_summary(doc, args.out, seconds)
    if doc["rows"] == 0:
        print(f"riichi-env dataset: no rows written: {why_no_rows(doc, args)}", file=sys.stderr)
        return 1
    return 0


def print_summary(doc: dict[str, Any], out: str, seconds: float) -> None:
    """The summary without ``--json``: the counts, then one line per skipped record or hand,
    per record cut short and per file ignored."""
    skipped, ignored = doc["skipped"], doc["ignored"]
    whole = len({s["file"] for s in skipped if not _is_hand(s)})
    hands = sum(_is_hand(s) for s in skipped)
    notes = [f"{whole} skipped"] * bool(whole) + [f"{len(ignored)} ignored"] * bool(ignored)
    print(f"files      {doc['files']}" + (f" ({', '.join(notes)})" if notes else ""))
    print(f"games      {doc['games']}")
    print(f"hands      {doc['hands']}" + (f" ({hands} skipped)" if hands else ""))
    print(f"decisions  {doc['decisions']}")
    shards = f"{doc['shards']} shard" + ("" if doc["shards"] == 1 else "s")
    print(f"rows       {doc['rows']} in {shards} in {out}")
    print(f"disk       {_size(out)}")
    print(f"seconds    {seconds:.2f} ({doc['decisions_per_s']:.0f} decisions/s)")
    print(f"illegal    {doc['illegal']}")
    for s in skipped:
        print(f"skipped    {s['file']}: {s['reason']}")
    for s in doc["truncated"]:
        print(f"cut short  {s['file']}: {s['reason']}")
    for s in ignored:
        print(f"ignored    {s['file']}: {s['reason']}")


def _size(out: str) -> str:
    """The shard set's size on disk, as a person reads it."""
    from riichi_env.dataset.shards import shard_bytes

    try:
        n = shard_bytes(out)
    except (OSError, ValueError):
        return "size unknown"
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.1f} kB"


def _is_hand(skip: dict[str, str]) -> bool:
    """Whether a skip is one hand of a record (``hand E2-0: ...``), not the whole record."""
    return skip["reason"].startswith("hand ")


def why_no_rows(doc: dict[str, Any], args: argparse.Namespace) -> str:
    """Why a run wrote no row: every record skipped, every hand skipped, or filters that no
    decision passed."""
    files, games = doc["files"], doc["games"]
    if games == 0:
        whole = len({s["file"] for s in doc["skipped"] if not _is_hand(s)})
        return (
            f"every record was skipped ({whole} of {files} "
            f"{'file' if files == 1 else 'files'}; the skipped lines say why)"
        )
    given = [
        f"--{name.replace('_', '-')} {','.join(map(str, value))}"
        for name in ("players", "seats", "kinds")
        if (value := getattr(args, name, None))
    ] + ["--skip-forced"] * bool(getattr(args, "skip_forced", False))
    hands = sum(_is_hand(s) for s in doc["skipped"])
    if given:
        names = (
            " (player names must be the records' own, exactly: mjlog UN, mjai names, "
            "tenhou.net/6 name)"
            if getattr(args, "players", None)
            else ""
        )
        return (
            f"no decision of the {games} {'game' if games == 1 else 'games'} read passed "
            f"{' '.join(given)}{names}"
        )
    return (
        f"the {games} {'game' if games == 1 else 'games'} read gave no decision ({hands} "
        f"{'hand' if hands == 1 else 'hands'} skipped; the skipped lines say why)"
    )


def summary(manifest: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The ``--json`` object of a run that wrote ``manifest`` in ``seconds``."""
    return {
        "files": len(manifest["files"]),
        "games": manifest["games"],
        "hands": manifest["hands"],
        "decisions": manifest["decisions"],
        "rows": manifest["rows"],
        "seconds": round(seconds, 3),
        "decisions_per_s": round(manifest["decisions"] / max(seconds, 1e-9), 1),
        "illegal": manifest["illegal"],
        "skipped": manifest["skipped"],
        "truncated": manifest.get("truncated", []),
        "ignored": manifest.get("ignored", []),
        "shards": len(manifest["shards"]),
    }
