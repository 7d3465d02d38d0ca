"""Game records: mjlog XML, tenhou.net/6 JSON, mjai events and Mahjong Soul's own records;
conversion, export and replay."""

from riichi_env.records.convert import detect_format, read_file, read_text, write_text
from riichi_env.records.mahjongsoul import read_mahjongsoul, write_mahjongsoul
from riichi_env.records.mjai import read_mjai, write_mjai
from riichi_env.records.mjlog import load_walls, read_mjlog
from riichi_env.records.model import Draw, Event, Game, Hand, NotARecordError, RecordError, Win
from riichi_env.records.tenhou6 import read_tenhou6, viewer_url, write_tenhou6

__all__ = [
    "Draw",
    "Event",
    "Game",
    "Hand",
    "NotARecordError",
    "RecordError",
    "Win",
    "detect_format",
    "load_walls",
    "read_file",
    "read_mahjongsoul",
    "read_mjai",
    "read_mjlog",
    "read_tenhou6",
    "read_text",
    "viewer_url",
    "write_mahjongsoul",
    "write_mjai",
    "write_tenhou6",
    "write_text",
]
