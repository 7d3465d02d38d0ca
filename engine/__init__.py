"""Rules engine: tiles, shanten, agari, yaku, fu, scoring and the game state machine (Numba)."""

from engine.actions import N_ACTIONS, action_name
from engine.deal import deal_hand
from engine.game import Game
from engine.harness.invariants import validate
from engine.harness.scenario import start_hand
from engine.harness.selfplay import selfplay
from engine.rules import MAHJONGSOUL, MAHJONGSOUL_3P, PRESETS, TENHOU, TENHOU_3P, TENHOU_2009, Rules
from engine.scoring.hand_score import HandResult, payment, score_hand
from engine.shanten import shanten, ukeire, waits
from engine.state import State, copy_state, new_state
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
from engine.visibility import SeatView, seat_view

__all__ = [
    "payment",
    "SeatView",
    "deal_hand",
    "seat_view",
    "Game",
    "HandResult",
    "MAHJONGSOUL",
    "MAHJONGSOUL_3P",
    "N_ACTIONS",
    "PRESETS",
    "TENHOU",
    "TENHOU_2009",
    "TENHOU_3P",
    "Rules",
    "State",
    "Tables",
    "action_name",
    "copy_state",
    "count_red",
    "dora_from_indicator",
    "hand34_to_str",
    "load_tables",
    "new_state",
    "parse_hand34",
    "parse_tile",
    "parse_tile34",
    "parse_tile136",
    "score_hand",
    "selfplay",
    "shanten",
    "start_hand",
    "tile34_to_str",
    "tile136_to_str",
    "tiles136_to_str",
    "ukeire",
    "validate",
    "waits",
]
