"""Reading any record format, and converting between mjlog XML, tenhou.net/6, mjai and Mahjong
Soul's own records."""

from __future__ import annotations

import json
import re
from codecs import BOM_UTF8
from pathlib import Path

from riichi_env.records.files import MAX_LINE_BYTES, MAX_RECORD_BYTES, read_record_bytes
from riichi_env.records.mahjongsoul import dumps_mahjongsoul, read_mahjongsoul
from riichi_env.records.mjai import dumps_mjai, read_mjai, read_mjai_utf8
from riichi_env.records.mjlog import read_mjlog
from riichi_env.records.model import Game, NotARecordError, RecordError, find_log_id, strip_bom
from riichi_env.records.tenhou6 import read_tenhou6, write_tenhou6

FORMATS = ("mjlog", "tenhou6", "mjai", "mahjongsoul")
WRITE_FORMATS = ("tenhou6", "mjai", "mahjongsoul")
_MAHJONGSOUL_START = re.compile(r'\{\s*"(head|data|data_url|error)"\s*:')


_MJX_KEYS = re.compile(r'"(?:publicObservation|hiddenState|privateObservations?|roundTerminal)"')
"""Keys of mjx's JSON (mjxproto ``State`` and ``Observation`` messages)."""
_LOG_ADDRESS = re.compile(r"tenhou\.net/[0-9]/[?#](?:log|json)=")
SUPPORTED = "riichi-env reads mjlog XML, tenhou.net/6 JSON, mjai events and Mahjong Soul records"


def detect_format(text: str) -> str:
    """``"mjlog"``, ``"tenhou6"``, ``"mjai"`` or ``"mahjongsoul"`` from a record's text;
    ``"walls"`` for a ``walls.jsonl`` wall file (not a record); ``"unknown"`` otherwise
    (:func:`describe_text` says what it looks like)."""
    head = strip_bom(text).lstrip()[:4096]
    if head.startswith("<") and "<mjloggm" in head:
        return "mjlog"
    if head.startswith("{") and (_MAHJONGSOUL_START.match(head) or '".lq.' in head):
        return "mahjongsoul"
    if head.startswith("{"):
        first = head.split("\n", 1)[0]
        if _MJX_KEYS.search(first):
            return "unknown"
        if '"type"' in first and '"log"' not in first:
            return "mjai"
        if '"wall"' in first and '"kyoku_index"' in first and '"log"' not in first:
            return "walls"
        return "tenhou6"
    return "unknown"


def describe_text(text: str, *, whole: bool = True) -> tuple[str, str]:
    """``(format, why)``: :func:`detect_format` of a record's text, and, when it is not a
    supported record, why not in a phrase (``""`` when it is): a format this project does not
    read is named (``not a supported record format (this looks like mjx JSON ...)``).
    ``whole=False``: ``text`` is only the start of a file (a folder scan's look), and a JSON
    object counts as tenhou.net/6 only when a ``"log"`` key shows in it."""
    fmt = detect_format(text)
    head = strip_bom(text).lstrip()[:4096]
    if fmt == "walls":
        return fmt, "a wall file (walls.jsonl), not a record"
    if fmt in FORMATS and (fmt != "tenhou6" or whole or '"log"' in head):
        return fmt, ""
    looks = _looks_like(head)
    if looks:
        return "unknown", f"not a supported record format (this looks like {looks})"
    if fmt == "tenhou6" or head.startswith("{"):
        return "unknown", (
            'not a record: JSON, but neither tenhou.net/6 (no "log" at its start) nor mjai events'
        )
    return "unknown", "not a record: no mjlog XML, tenhou.net/6 JSON or mjai events at its start"


def _looks_like(head: str) -> str:
    """What a text that is no supported record looks like, when it is something known."""
    lower = head[:1024].lower()
    if _MJX_KEYS.search(head):
        return (
            "mjx JSON: mjxproto states, a hand a line; mjx's converter writes them as mjlog "
            "(--to-mjlog), which riichi-env reads"
        )
    if lower.startswith(("<!doctype html", "<html")) or "<html" in lower:
        return "an HTML page, not the record: save the record itself (mjlog XML or tenhou.net/6)"
    if head.startswith("<") and "<mjloggm" not in head:
        return "XML, but not Tenhou's mjlog (no <mjloggm> root)"
    if _LOG_ADDRESS.search(head):
        return "a Tenhou log address, not the record: download the record it names"
    if head.startswith("["):
        first = head[1:].lstrip()
        if first.startswith("{") and '"type"' in first.split("}", 1)[0]:
            return "mjai events in one JSON array: mjai is one event object a line (JSON lines)"
        return "a JSON array"
    return ""


def read_text(text: str, *, source: str = "", fmt: str = "auto", walls=None) -> Game:
    """Parse a record of any supported format (``fmt="auto"`` detects it)."""
    return _read(text, source, fmt, walls)


def _read(text: str, source: str, fmt: str, walls, utf8: bytes | None = None) -> Game:
    """:func:`read_text`; ``utf8``: the text as UTF-8 when the caller has it (mjai reads it)."""
    try:
        return _read_text(text, source, fmt, walls, utf8)
    except RecursionError:  # the readers catch deep JSON; this is the backstop
        raise RecordError("nested too deeply to read", file=source) from None


def _read_text(text: str, source: str, fmt: str, walls, utf8: bytes | None) -> Game:
    if fmt == "auto":
        fmt = detect_format(text)
    if fmt == "mjlog":
        return read_mjlog(text, source=source, walls=walls)
    if fmt == "tenhou6":
        return read_tenhou6(text, source=source)
    if fmt == "mjai":
        return (
            read_mjai(text, source=source) if utf8 is None else read_mjai_utf8(text, utf8, source)
        )
    if fmt == "mahjongsoul":
        return read_mahjongsoul(text, source=source)
    if fmt == "walls":
        raise NotARecordError(
            "a wall file (walls.jsonl: the full walls of the mjlog records beside it), "
            "not a game record",
            file=source,
        )
    _, why = describe_text(text)
    if why.startswith("not a supported record format"):
        raise NotARecordError(f"{why}; {SUPPORTED}", file=source)
    raise NotARecordError(
        "not a game record: unknown record format (expected mjlog XML, tenhou.net/6 JSON, mjai "
        "or a Mahjong Soul record)",
        file=source,
    )


def read_file(
    path: str | Path,
    *,
    fmt: str = "auto",
    walls=None,
    max_bytes: int = MAX_RECORD_BYTES,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> Game:
    """Read a record file (gzip-compressed or not); ``RecordError`` names the file on any problem.

    ``max_bytes`` (default 64 MiB, after decompression) and ``max_line_bytes`` (default 16 MiB)
    bound what is read (see :mod:`riichi_env.records.files`); a real game is about 1 MB at most.
    """
    path = Path(path)
    data = read_record_bytes(path, max_bytes=max_bytes, max_line_bytes=max_line_bytes)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise RecordError(
            "UTF-16 text (it starts with a UTF-16 byte-order mark); save the record as UTF-8",
            file=str(path),
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"not UTF-8 text ({exc.reason})", file=str(path), position=f"byte {exc.start}"
        ) from None
    if fmt == "auto":
        fmt = detect_format(text)
    # the mjai reader reads the bytes as well (a copy without the byte-order mark)
    utf8 = bytes(memoryview(data)[3:] if data[:3] == BOM_UTF8 else data) if fmt == "mjai" else None
    del data
    game = _read(text, str(path), fmt, walls, utf8)
    if not game.log_id:
        game.log_id = find_log_id(path.name)
    return game


def write_text(game: Game, fmt: str, *, sanma_dialect: str = "nukidora") -> str:
    """A game as text in ``fmt`` (``"tenhou6"``, ``"mjai"`` or ``"mahjongsoul"``;
    ``sanma_dialect``: how mjai writes a three-player game, :func:`riichi_env.records.mjai.write_mjai`)."""
    if fmt == "mahjongsoul":
        return dumps_mahjongsoul(game)
    if fmt == "tenhou6":
        return json.dumps(write_tenhou6(game), ensure_ascii=False, separators=(",", ":")) + "\n"
    if fmt == "mjai":
        return dumps_mjai(game, sanma_dialect=sanma_dialect)
    raise ValueError(f"cannot write format {fmt!r}; choose from {WRITE_FORMATS}")


def convert_text(text: str, to: str, *, source: str = "", fmt: str = "auto") -> str:
    """Convert a record's text to another format."""
    return write_text(read_text(text, source=source, fmt=fmt), to)
