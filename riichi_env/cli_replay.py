"""``riichi-env replay``: replay recorded games in the engine and report every difference."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from riichi_env.records.model import NotARecordError, RecordError

HELP = "replay game records (mjlog XML, tenhou.net/6, mjai) in the engine and compare the results"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of the subcommand."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files (format detected)")
    parser.add_argument(
        "--rules",
        choices=("auto", "tenhou", "tenhou-2009", "mahjongsoul"),
        default="auto",
        help="rules preset (default: from the record: Tenhou games (mjlog, Tenhou rule text such "
        "as 鳳南喰赤 in mjai rule_disp or tenhou.net/6 rule) tenhou, or tenhou-2009 (no "
        "tenpai-yame) when a log id dates them before June 2010 or an mjlog record has no "
        "SHUFFLE element; others mahjongsoul); game length, red fives and uma always come from "
        "the record",
    )
    parser.add_argument(
        "--walls",
        help="walls.jsonl with the full walls of mjlog records (default: walls.jsonl next to each file)",
    )


def _walls_for(path: Path, explicit: str | None, cache: dict):
    from riichi_env.records.mjlog import load_walls

    source = Path(explicit) if explicit else path.parent / "walls.jsonl"
    if not source.exists():
        return None
    if source not in cache:
        cache[source] = load_walls(source)
    return {k: v for (name, k), v in cache[source].items() if name == path.name}


def run(args: argparse.Namespace) -> int:
    """Replay every file; 0 when all match, 1 on any mismatch, unreadable file or no record.

    Prints each mismatch, then one line per file with its hands and the rules used, then a
    summary. Files that are not game records (a ``walls.jsonl``, a README) are skipped with a
    line saying so.
    """
    from riichi_env.records.convert import read_file
    from riichi_env.records.replay import explain_rules, replay_game
    from riichi_env.warmup import ensure_compiled

    if args.walls is not None and not Path(args.walls).is_file():
        raise ValueError(f"--walls {args.walls}: no such file (expected a walls.jsonl)")
    games = hands = 0
    mismatched = skipped = 0
    bad = False
    cache: dict = {}
    for name in args.files:
        path = Path(name)
        try:
            walls = _walls_for(path, args.walls, cache) if path.suffix.lower() == ".xml" else None
            game = read_file(path, walls=walls)
        except NotARecordError as exc:
            print(f"{path}: skipped: {exc.detail}", flush=True)
            skipped += 1
            continue
        except RecordError as exc:
            print(f"{exc}", flush=True)
            bad = True
            continue
        rules, which = explain_rules(game, args.rules)
        ensure_compiled("replay")  # once, after the first readable record
        result = replay_game(game, rules)
        games += 1
        hands += result.hands
        n_bad = len(result.mismatched_hands) or (1 if result.mismatches else 0)
        mismatched += n_bad
        for m in result.mismatches:
            print(str(m), flush=True)
        print(f"{path}: {result.hands} hands, {n_bad} mismatched; rules {which}", flush=True)
    summary = f"{games} games, {hands} hands, {mismatched} mismatched"
    if skipped:
        summary += f", {skipped} {'file' if skipped == 1 else 'files'} skipped (not game records)"
    print(summary)
    if bad:
        print("some files could not be read", file=sys.stderr)
    if not games and not bad:
        print("no game records among the files", file=sys.stderr)
    return 1 if bad or mismatched or not games else 0
