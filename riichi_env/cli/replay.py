"""``riichi-env replay``: replay recorded games in the engine and report every difference."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from riichi_env.cli.convert import add_limit_arguments, read_limits
from riichi_env.records.model import NotARecordError, RecordError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of the subcommand."""
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="record files (format detected) or folders: every record file under a folder, "
        "sorted by path (by name, or by content whatever the name), the other files listed as "
        "skipped",
    )
    parser.add_argument(
        "--rules",
        choices=("auto", "tenhou", "tenhou-2009", "mahjongsoul", "tenhou-3p", "mahjongsoul-3p"),
        default="auto",
        help="rules preset (default: from the record: Tenhou games (mjlog, Tenhou rule text such "
        "as 鳳南喰赤 in mjai rule_disp or tenhou.net/6 rule) tenhou, or tenhou-2009 (no "
        "tenpai-yame) when a log id dates them before June 2010 or an mjlog record has no "
        "SHUFFLE element; others (Mahjong Soul's own records too) mahjongsoul; three-player games tenhou-3p or mahjongsoul-3p "
        "alike); game length, red fives and uma always come from the record",
    )
    parser.add_argument(
        "--walls",
        help="walls.jsonl with the full walls of mjlog records (default: walls.jsonl next to each file)",
    )
    add_limit_arguments(parser)


def _walls_for(path: Path, explicit: str | None, cache: dict, limits: dict | None = None):
    from riichi_env.records.mjlog import load_walls

    source = Path(explicit) if explicit else path.parent / "walls.jsonl"
    if not source.exists():
        return None
    if source not in cache:
        cache[source] = load_walls(source, **(limits or {}))
    return {k: v for (name, k), v in cache[source].items() if name == path.name}


def run(args: argparse.Namespace) -> int:
    """Replay every file; 0 when all match, 1 on any mismatch, unreadable file or no record.

    Prints each mismatch, then one line per file with its hands and the rules used, then a
    summary. A folder stands for the files under it (``riichi_env.records.scan``). Files that
    are not game records (a ``walls.jsonl``, a README) are skipped with a line saying so. A
    run that exits 1 ends with a line on stderr saying why (:func:`why_failed`).
    """
    from riichi_env.core.compiling import ensure_compiled
    from riichi_env.records.convert import read_file
    from riichi_env.records.replay import explain_rules, replay_game
    from riichi_env.records.scan import sniff

    if args.walls is not None and not Path(args.walls).is_file():
        raise ValueError(f"--walls {args.walls}: no such file (expected a walls.jsonl)")
    games = hands = 0
    mismatched = skipped = 0
    bad = 0
    differ: list[tuple[Path, int]] = []
    cache: dict = {}
    for path, ignored in _expand(args.files):
        if ignored:
            print(f"{path}: skipped: {ignored}", flush=True)
            skipped += 1
            continue
        try:
            limits = read_limits(args)
            walls = (
                _walls_for(path, args.walls, cache, limits)
                if path.suffix.lower() == ".xml"
                else None
            )
            if sniff(path)[0] == "mjai":  # its reader is compiled: say so before compiling
                ensure_compiled("records")
            game = read_file(path, walls=walls, **limits)
            rules, which = explain_rules(game, args.rules)
        except NotARecordError as exc:
            print(f"{path}: skipped: {exc.detail}", flush=True)
            skipped += 1
            continue
        except RecordError as exc:
            print(f"{exc}", flush=True)
            bad += 1
            continue
        ensure_compiled("replay")  # once, after the first readable record
        result = replay_game(game, rules)
        games += 1
        hands += result.hands
        n_bad = len(result.mismatched_hands) or (1 if result.mismatches else 0)
        mismatched += n_bad
        if n_bad:
            differ.append((path, n_bad))
        for m in result.mismatches:
            print(str(m), flush=True)
        if game.truncated:
            print(f"{path}: note: {game.truncated} (replayed up to there)", flush=True)
        print(f"{path}: {result.hands} hands, {n_bad} mismatched; rules {which}", flush=True)
    summary = f"{games} games, {hands} hands, {mismatched} mismatched"
    if skipped:
        summary += f", {skipped} {'file' if skipped == 1 else 'files'} skipped (not game records)"
    print(summary, flush=True)
    if bad or mismatched or not games:
        print(why_failed(bad, differ, games), file=sys.stderr)
        return 1
    return 0


def _expand(names: list[str]):
    """``(path, "")`` for each record file of ``names`` (a folder: its record files, sorted), and
    ``(path, why)`` for each file of a folder that is not a record (or an empty folder)."""
    from riichi_env.records.scan import scan_folder

    for name in names:
        path = Path(name)
        if not path.is_dir():
            yield path, ""
            continue
        scan = scan_folder(path)
        if not scan.files and not scan.ignored:
            yield path, "a folder with no files (or only hidden ones)"
        found = [(p, "") for p in scan.files] + [(p, why) for p, why in scan.ignored]
        yield from sorted(found)


def why_failed(unreadable: int, differ: list[tuple[Path, int]], games: int) -> str:
    """The last line of a replay that exits 1: files that could not be read, and the records that
    differ from the engine by name (up to 10), so a run over a collection shows at a glance
    whether only the records expected to differ did (``docs/records.md``)."""
    reasons = []
    if unreadable:
        reasons.append(f"{unreadable} {'file' if unreadable == 1 else 'files'} could not be read")
    if differ:
        names = [p.name for p, _ in differ]
        if len(set(names)) < len(names):
            names = [str(p) for p, _ in differ]
        listed = ", ".join(f"{n} ({k})" for n, (_, k) in zip(names[:10], differ, strict=False))
        more = f" and {len(differ) - 10} more" if len(differ) > 10 else ""
        hands = sum(k for _, k in differ)
        reasons.append(
            f"{hands} mismatched {'hand' if hands == 1 else 'hands'} in {len(differ)} of {games} "
            f"{'game' if games == 1 else 'games'}: {listed}{more}"
        )
    if not games and not unreadable:
        reasons.append("no game records among the files")
    return "exit status 1: " + "; ".join(reasons)
