"""``riichi-env replay``: replay recorded games in the engine and report every difference."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from riichi_env.records.model import RecordError

HELP = "replay game records (mjlog XML, tenhou.net/6, mjai) in the engine and compare the results"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of the subcommand."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files (format detected)")
    parser.add_argument(
        "--rules",
        choices=("auto", "tenhou", "mahjongsoul"),
        default="auto",
        help="rules preset (default: from the record: Tenhou records tenhou, others mahjongsoul); "
        "game length and red fives always come from the record",
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
    """Replay every file; 0 when all match, 1 on any mismatch or unreadable file."""
    from riichi_env.records.convert import read_file
    from riichi_env.records.replay import replay_game

    games = hands = 0
    mismatched = 0
    bad = False
    cache: dict = {}
    for name in args.files:
        path = Path(name)
        try:
            walls = _walls_for(path, args.walls, cache) if path.suffix.lower() == ".xml" else None
            game = read_file(path, walls=walls)
        except RecordError as exc:
            print(f"{exc}", flush=True)
            bad = True
            continue
        result = replay_game(game, args.rules)
        games += 1
        hands += result.hands
        mismatched += len(result.mismatched_hands) or (1 if result.mismatches else 0)
        for m in result.mismatches:
            print(str(m), flush=True)
    print(f"{games} games, {hands} hands, {mismatched} mismatched")
    if bad:
        print("some files could not be read", file=sys.stderr)
    return 1 if bad or mismatched else 0
