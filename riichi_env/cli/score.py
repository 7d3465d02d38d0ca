"""``riichi-env score``: score one hand from the command line, or a JSON-lines stream."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.kernels import _parse_groups
from engine.melds import MELD_TYPES
from engine.rules import PRESETS, PRESETS_3P, Rules
from engine.tiles import hand34_to_str
from riichi_env.cli.arguments import int_arg
from riichi_env.cli.hand_score import FLAGS, WINDS, score_input, score_lines
from riichi_env.core.compiling import ensure_compiled

EPILOG = """examples:
  riichi-env score 123m456p789s1122z --win 2z --tsumo --riichi --dora 1m
  riichi-env score 234m66p11z --pon 777z --chi 456s --win 1z --seat S
  riichi-env score 45p789p123s99s555z --win 3p --tsumo --kita 1 --players 3
  riichi-env score --jsonl < hands.jsonl > results.jsonl
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``score`` subcommand's options."""
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "closed",
        nargs="?",
        help="concealed tiles in mpsz (e.g. 123m406p789s1122z); the winning tile may be left "
        "out when --win names it",
    )
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="read one JSON input object (or sample line) per line on stdin, write one result "
        "per line on stdout",
    )
    parser.add_argument(
        "--win", metavar="TILE", help="winning tile (default: the last tile of a complete hand)"
    )
    parser.add_argument("--tsumo", action="store_true", help="won by self-draw (default: ron)")
    parser.add_argument("--seat", choices=WINDS, default="E", help="seat wind; E is the dealer")
    parser.add_argument("--round", choices=WINDS, default="E", help="round wind")
    for meld in MELD_TYPES:
        parser.add_argument(
            f"--{meld}",
            action="append",
            default=[],
            metavar="TILES",
            help=f"a called {meld} (repeatable), e.g. --{meld} "
            + {"chi": "345p", "pon": "777z"}.get(meld, "5555m"),
        )
    for flag in FLAGS:
        parser.add_argument(
            f"--{flag.replace('_', '-')}", action="store_true", help=flag.replace("_", " ")
        )
    parser.add_argument(
        "--dora", action="append", default=[], metavar="TILES", help="dora indicator(s), repeatable"
    )
    parser.add_argument(
        "--ura", action="append", default=[], metavar="TILES", help="ura dora indicator(s)"
    )
    parser.add_argument("--honba", type=int_arg, default=0, help="honba counters (default 0)")
    parser.add_argument(
        "--kyotaku",
        type=int_arg,
        default=None,
        help="riichi sticks on the table, the winner's own included (default 1 with riichi, else 0)",
    )
    parser.add_argument(
        "--kita",
        type=int_arg,
        default=0,
        help="Norths the winner set aside (three players; nuki dora, default 0)",
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=(3, 4),
        default=None,
        help="3: score the three-player version of --rules (tsumo loss, no 2m-8m); "
        "default: the preset's",
    )
    parser.add_argument(
        "--rules", choices=sorted({*PRESETS, *PRESETS_3P}), default="mahjongsoul", help="preset"
    )
    parser.add_argument("--json", action="store_true", help="print the result object as JSON")


def _split_tiles(groups: list[str], field: str) -> list[str]:
    """Each indicator argument may hold several tiles (``1m2p``); one mpsz tile per entry."""
    out = []
    for text in groups:
        try:
            tiles = _parse_groups(text)
        except ValueError as exc:
            raise ValueError(f"{field}: {exc}") from None
        for t34, red in tiles:
            digit = "0" if red else str(t34 % 9 + 1)
            out.append(digit + "mpsz"[t34 // 9])
    return out


def _sorted_mpsz(tiles: list[str]) -> str:
    counts = [0] * 34
    n_red = [0, 0, 0]
    for t34, red in _parse_groups("".join(tiles)):
        counts[t34] += 1
        n_red[t34 // 9 % 3] += red
    return hand34_to_str(counts, n_red)


def input_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The hand-score input object described by the command-line options."""
    melds = [{"type": m, "tiles": t} for m in MELD_TYPES for t in getattr(args, m)]
    closed, win = args.closed, args.win
    tiles = _split_tiles([closed], "closed")
    if len(tiles) == 13 - 3 * len(melds):
        if win is None:
            raise ValueError("win: the hand is one tile short; name the winning tile with --win")
        closed = _sorted_mpsz(tiles + _split_tiles([win], "win"))
    elif win is None and tiles:
        win = tiles[-1]
    riichi = args.riichi or args.double_riichi or args.open_riichi
    obj = {
        "closed": closed,
        "win_tile": win,
        "melds": melds,
        "win_type": "tsumo" if args.tsumo else "ron",
        "seat_wind": args.seat,
        "round_wind": args.round,
        "riichi": riichi,
        "double_riichi": args.double_riichi,
        "open_riichi": args.open_riichi,
        "ippatsu": args.ippatsu,
        "rinshan": args.rinshan,
        "chankan": args.chankan,
        "haitei": args.haitei,
        "houtei": args.houtei,
        "tenhou": args.tenhou,
        "chiihou": args.chiihou,
        "dora_indicators": _split_tiles(args.dora, "dora_indicators"),
        "ura_dora_indicators": _split_tiles(args.ura, "ura_dora_indicators"),
        "honba": args.honba,
        "ruleset": args.rules,
    }
    if args.kyotaku is not None:  # else the one default: 1 with riichi, 0 without
        obj["kyotaku"] = args.kyotaku
    if args.kita:
        obj["kita"] = args.kita
    if args.players is not None:
        obj["players"] = args.players
    return obj


def format_result(result: dict[str, Any], players: int = 4) -> str:
    """A readable summary: yaku with han, then han/fu/limit, payments and the winner's gain
    (``players`` only words the payers: with three a tsumo has one non-dealer payer)."""
    if not result.get("valid"):
        if result.get("error") == "invalid_input":
            return f"invalid input: {result.get('message', '')}"
        return {"no_yaku": "no yaku: complete hand, but nothing to win with"}.get(
            result.get("error"), "not a winning hand"
        )
    lines = []
    for y in result["yaku"]:
        if "yakuman" in y:
            value = "double yakuman" if y["yakuman"] == 2 else "yakuman"
        else:
            value = f"{y['han']} han"
        lines.append(f"  {y['key']:<24} {value}")
    if result.get("yakuman_multiplier"):
        total = result["limit"]
    else:
        total = f"{result['han']} han {result['fu']} fu"
        if result["limit"]:
            total += f"  {result['limit']}"
    lines.append(total)
    pay = result["payments"]
    if "ron" in pay:
        lines.append(f"ron: discarder pays {pay['ron']:,}")
    elif "tsumo_all" in pay:
        lines.append(f"tsumo: {pay['tsumo_all']:,} all")
    else:
        other = "the other non-dealer" if players == 3 else "each non-dealer"
        lines.append(
            f"tsumo: dealer pays {pay['tsumo_dealer']:,}, {other} {pay['tsumo_nondealer']:,}"
        )
    lines.append(f"winner gains {result['winner_gain']:,}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Score; exit 0 for a scoring win (or a finished stream), 1 for no win, 2 for bad input."""
    if args.jsonl:
        if args.closed is not None:
            raise ValueError("closed: give tiles or --jsonl, not both")
        ensure_compiled("score")
        for result in score_lines(sys.stdin):
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
        return 0
    if args.closed is None:
        raise ValueError("closed: give the concealed tiles (or --jsonl to read stdin)")
    ensure_compiled("score")
    obj = input_from_args(args)
    result = score_input(obj)
    players = obj.get("players") or Rules.preset(args.rules).players
    print(json.dumps(result) if args.json else format_result(result, players))
    if result.get("valid"):
        return 0
    return 2 if result.get("error") == "invalid_input" else 1
