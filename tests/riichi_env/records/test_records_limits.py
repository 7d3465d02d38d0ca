"""Hostile record files: a one-line ``RecordError`` naming the file, no traceback, bounded memory.

Gzip bombs, files that never end and over-long lines stop at the read limits; corrupt or
truncated gzip data, JSON nested past the recursion limit, numbers over Python's 4300 digits and
XML declarations are refused; the CLI prints one line per bad file.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import tracemalloc
import zlib
from pathlib import Path

import pytest
from test_records_helpers import LOGS

from riichi_env.cli.main import main
from riichi_env.records.convert import read_file, read_text
from riichi_env.records.files import (
    MAX_LINE_BYTES,
    MAX_RECORD_BYTES,
    MIB,
    parse_size,
    read_record_bytes,
)
from riichi_env.records.mjlog import load_walls
from riichi_env.records.model import MAX_MESSAGE, RecordError

T6 = LOGS / "tenhou6" / "rinshan.json"
MJAI = LOGS / "mjai" / "126_204_0_mjai.jsonl"
MJLOG = (LOGS / "tenhou-mjlog" / "pao.xml").read_text()
DEEP = 200_000


def _gzip_stream(path: Path, block: bytes, total: int) -> None:
    """A gzip file of ``total`` bytes of ``block`` repeated, compressed without holding it."""
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    with open(path, "wb") as fh:
        left = total
        while left:
            piece = block * (min(left, MIB) // len(block))
            fh.write(comp.compress(piece))
            left -= len(piece)
        fh.write(comp.flush())


def _one_line(text: str) -> str:
    """The one line of ``text`` besides the compile notes of a first replay."""
    assert "Traceback" not in text
    lines = [x for x in text.strip().splitlines() if not x.startswith("riichi_env: compil")]
    assert len(lines) == 1, lines
    return lines[0]


# --------------------------------------------------------------------------- size limits


def test_gzip_bomb_is_refused_without_inflating_it(tmp_path):
    """20 MB of zeros in 20 KB of gzip, read with a 1 MiB limit: refused after about 1 MiB."""
    bomb = tmp_path / "bomb.jsonl.gz"
    _gzip_stream(bomb, b"\0", 20 * MIB)
    assert bomb.stat().st_size < 100_000
    tracemalloc.start()
    try:
        with pytest.raises(RecordError) as info:
            read_file(bomb, max_bytes=MIB)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(info.value) == (
        f"{bomb}: more than 1 MiB of record text once decompressed (the limit: raise it with "
        "--max-record-bytes, or max_bytes= in Python)"
    )
    assert peak < 4 * MIB, peak  # the whole expansion would be 20 MiB


def test_default_limit_is_64_mib(tmp_path):
    assert MAX_RECORD_BYTES == 64 * MIB and MAX_LINE_BYTES == 16 * MIB
    bomb = tmp_path / "lines.gz"
    _gzip_stream(bomb, b"\n", MAX_RECORD_BYTES + MIB)
    with pytest.raises(RecordError, match=r"more than 64 MiB of record text once decompressed"):
        read_file(bomb)


def test_limits_are_exact(tmp_path):
    path = tmp_path / "rec.txt"
    path.write_bytes(b"ab\n" * 100)
    assert len(read_record_bytes(path, max_bytes=300)) == 300
    with pytest.raises(RecordError, match="more than 299 bytes of record text \\("):
        read_record_bytes(path, max_bytes=299)
    assert read_record_bytes(path, max_line_bytes=2) == b"ab\n" * 100
    with pytest.raises(RecordError, match="line 1 is longer than 1 bytes"):
        read_record_bytes(path, max_line_bytes=1)
    with pytest.raises(TypeError, match="max_bytes must be a positive int"):
        read_record_bytes(path, max_bytes=1.5)
    with pytest.raises(ValueError, match="max_line_bytes must be a positive number"):
        read_record_bytes(path, max_line_bytes=0)


@pytest.mark.parametrize("compressed", [False, True])
def test_long_line_is_refused_where_it_starts(tmp_path, compressed):
    """The line limit holds across read chunks, plain or gzip; the error gives the line."""
    data = b"{}\n" * 3 + b"x" * (MIB + 1) + b"\n{}\n"
    path = tmp_path / ("long.jsonl.gz" if compressed else "long.jsonl")
    path.write_bytes(gzip.compress(data) if compressed else data)
    with pytest.raises(RecordError) as info:
        read_file(path, max_line_bytes=MIB)
    assert str(info.value) == (
        f"{path}: line 4 is longer than 1 MiB (the limit: raise it with --max-line-bytes, or "
        "max_line_bytes= in Python)"
    )
    assert read_record_bytes(path, max_line_bytes=MIB + 1) == data
    walls = tmp_path / "walls.jsonl"
    walls.write_bytes(data)
    with pytest.raises(RecordError, match="line 4 is longer than 1 MiB"):
        load_walls(walls, max_line_bytes=MIB)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_file_that_never_ends_stops_at_the_limit():
    with pytest.raises(RecordError, match="^/dev/zero: line 1 is longer than 16 MiB"):
        read_file("/dev/zero")


def test_cli_gzip_bomb_one_line_each(tmp_path, capsys):
    bomb = tmp_path / "bomb.json.gz"
    _gzip_stream(bomb, b"\0", 4 * MIB)
    assert main(["replay", "--max-record-bytes", "1M", str(bomb), str(T6)]) == 1
    out = capsys.readouterr()
    lines = out.out.strip().splitlines()
    assert lines[0] == (
        f"{bomb}: more than 1 MiB of record text once decompressed (the limit: raise it with "
        "--max-record-bytes, or max_bytes= in Python)"
    )
    assert lines[1].startswith(f"{T6}: 1 hands, 0 mismatched")
    assert _one_line(out.err) == "exit status 1: 1 file could not be read"
    assert main(["convert", "--max-record-bytes", "1M", str(bomb)]) == 1
    assert _one_line(capsys.readouterr().err).startswith(f"riichi-env convert: {bomb}: more than")
    assert main(["convert", "--max-record-bytes", "5M", str(bomb)]) == 1  # now: not a record
    assert "not a game record" in _one_line(capsys.readouterr().err)
    assert main(["convert", "--max-line-bytes", "64K", str(T6)]) == 0
    assert main(["convert", "--max-line-bytes", "100", str(T6)]) == 1
    assert "is longer than 100 bytes" in _one_line(capsys.readouterr().err)


def test_size_option_values(capsys):
    assert parse_size("64M") == parse_size("64 MiB") == 64 * MIB
    assert parse_size("512k") == 512 * 1024 and parse_size("1000") == 1000
    assert parse_size("2G") == 2048 * MIB
    for bad in ("0", "-1", "1.5M", "64T", "", "M"):
        with pytest.raises(ValueError, match="expected a positive size in bytes"):
            parse_size(bad)
    with pytest.raises(SystemExit) as info:
        main(["replay", "--max-record-bytes", "lots", str(T6)])
    assert info.value.code == 2
    assert "--max-record-bytes: expected a positive size" in capsys.readouterr().err


# --------------------------------------------------------------------------- corrupt gzip


def _gz_record(tmp_path: Path) -> tuple[Path, bytes]:
    data = gzip.compress(T6.read_bytes())
    return tmp_path / "game.json.gz", data


def test_corrupt_deflate_stream_is_a_record_error(tmp_path, capsys):
    path, data = _gz_record(tmp_path)
    path.write_bytes(data[:10] + b"\xff" + data[11:])  # block type 3: invalid
    with pytest.raises(RecordError) as info:
        read_file(path)
    assert str(info.value).startswith(f"{path}: bad gzip data: corrupt deflate stream (")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr()
    assert _one_line(out.out.split("\n0 games")[0]).startswith(f"{path}: bad gzip data")
    assert _one_line(out.err) == "exit status 1: 1 file could not be read"
    assert main(["convert", str(path)]) == 1
    assert _one_line(capsys.readouterr().err).startswith(f"riichi-env convert: {path}: bad gzip")


def test_bad_crc_and_truncated_gzip(tmp_path):
    path, data = _gz_record(tmp_path)
    path.write_bytes(data[:-8] + bytes(8))
    with pytest.raises(RecordError, match="bad gzip data: CRC check failed"):
        read_file(path)
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(RecordError, match="bad gzip data: the compressed stream ends early"):
        read_file(path)
    path.write_bytes(data)
    assert read_file(path).hands


# --------------------------------------------------------------------------- hostile content


def _deep(kind: str) -> str:
    nest = "[" * DEEP + "]" * DEEP
    if kind == "tenhou6":
        return '{"log": ' + nest + "}"
    if kind == "mjai":
        return '{"type": "start_game", "names": ' + nest + "}\n"
    return '{"file": "a.xml", "kyoku_index": 0, "wall": ' + nest + "}\n"


@pytest.mark.parametrize("kind", ["tenhou6", "mjai"])
def test_deeply_nested_json_is_a_record_error(kind, tmp_path, capsys):
    path = tmp_path / f"deep.{'json' if kind == 'tenhou6' else 'jsonl'}"
    path.write_text(_deep(kind))
    with pytest.raises(RecordError) as info:
        read_file(path)
    where = f"{path}, line 1" if kind == "mjai" else f"{path}"
    assert str(info.value) == (
        f"{where}: JSON nested deeper than Python's recursion limit (a record needs a few levels)"
    )
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines()[0] == str(info.value)
    assert _one_line(out.err) == "exit status 1: 1 file could not be read"
    assert main(["convert", str(path)]) == 1
    assert _one_line(capsys.readouterr().err) == f"riichi-env convert: {info.value}"


def test_deeply_nested_wall_file(tmp_path):
    walls = tmp_path / "walls.jsonl"
    walls.write_text(_deep("walls"))
    with pytest.raises(RecordError, match=r"walls.jsonl, line 1: JSON nested deeper"):
        load_walls(walls)


def test_numbers_past_the_digit_limit():
    """``json.loads`` and ``int`` raise a plain ValueError past 4300 digits: a RecordError here."""
    with pytest.raises(RecordError, match="line 1: not valid JSON: Exceeds the limit"):
        read_text('{"type": "start_game", "x": ' + "1" * 5000 + "}\n", fmt="mjai")
    with pytest.raises(RecordError, match="not valid JSON: Exceeds the limit"):
        read_text('{"log": [], "x": ' + "1" * 5000 + "}", fmt="tenhou6")
    draw = re.search(r"<T([0-9]+)/>", MJLOG)
    text = MJLOG[: draw.start(1)] + "1" * 5000 + MJLOG[draw.end(1) :]
    with pytest.raises(RecordError, match=r"tile id 111111… is not 0-135"):
        read_text(text, source="x.xml")


def test_mjlog_doctype_and_entities_are_refused():
    """The mjlog reader is no XML parser (entities are never expanded); a DOCTYPE is refused."""
    lol = '<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
    head = f'<?xml version="1.0"?><!DOCTYPE mjloggm [{lol}]>'
    text = head + MJLOG.replace('n0="A"', 'n0="&b;"')
    with pytest.raises(RecordError) as info:
        read_text(text, source="lol.xml")
    assert str(info.value) == (
        "lol.xml, tag 0 <mjloggm>: a DOCTYPE, ENTITY or comment: mjlog records have none "
        "(entities are never expanded)"
    )
    assert read_text('<?xml version="1.0" encoding="UTF-8"?>' + MJLOG).hands


def test_unclosed_tag_is_read_in_linear_time():
    """``<INIT`` and 300,000 spaces: the old tag pattern took minutes (quadratic backtracking).

    Not a speed test: the alarm only turns a hang into a failure.
    """
    if not hasattr(signal, "SIGALRM"):
        pytest.skip("needs SIGALRM")
    text = MJLOG[: MJLOG.index("<INIT")] + "<INIT" + " " * 300_000

    def hang(signum, frame):
        raise TimeoutError("the mjlog reader did not finish in 30 s")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(30)
    try:
        with pytest.raises(RecordError, match="no hands in the file .the file is cut short"):
            read_text(text, source="x.xml")  # an element cut short at the end: nothing after
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_record_error_is_one_short_line():
    """Values quoted from a hostile record are cut: the message stays one line."""
    obj = json.loads(T6.read_text())
    obj["sc"] = ["x\ny"] * 200_000
    with pytest.raises(RecordError) as info:
        read_text(json.dumps(obj), source="big.json")
    message = str(info.value)
    assert message.startswith("big.json: bad \"sc\" ['x\\ny', ")
    assert len(message) <= len("big.json: ") + MAX_MESSAGE and message.endswith("…")
    err = RecordError("two\nlines", file="f", position="line\r1")
    assert str(err) == "f, line\\r1: two\\nlines"
