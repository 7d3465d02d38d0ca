"""Rules engine: tiles, shanten, agari, yaku, fu, scoring and the game state machine (Numba)."""

from engine.rules import MAHJONGSOUL, PRESETS, TENHOU, Rules
from engine.scoring import HandResult, score_hand
from engine.shanten import shanten, ukeire, waits
from engine.tables import Tables, load_tables
from engine.tiles import (
    count_red,
    dora_from_indicator,
    hand34_to_str,
    parse_hand34,
    parse_tile,
    parse_tile34,
    parse_tile136,
    tile34_to_str,
    tile136_to_str,
    tiles136_to_str,
)

__all__ = [
    "HandResult",
    "MAHJONGSOUL",
    "PRESETS",
    "TENHOU",
    "Rules",
    "Tables",
    "count_red",
    "dora_from_indicator",
    "hand34_to_str",
    "load_tables",
    "parse_hand34",
    "parse_tile",
    "parse_tile34",
    "parse_tile136",
    "score_hand",
    "shanten",
    "tile34_to_str",
    "tile136_to_str",
    "tiles136_to_str",
    "ukeire",
    "waits",
]
