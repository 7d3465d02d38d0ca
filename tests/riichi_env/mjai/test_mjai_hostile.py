"""Hostile lines over mjai: JSON nested 200,000 deep, a 5,000-digit number, a line past 1 MiB.

A bot's answer of that kind is a malformed answer (``MjaiBotError`` with ``bot_errors="stop"``,
the default move counted with ``"substitute"``), never an uncaught ``RecursionError`` or
``ValueError``, and a bot's line is never read past ``MAX_ANSWER_BYTES``; the reference bot refuses
such an input line with one line on stderr.
"""

import io
import sys
import time

import numpy as np
import pytest
from mjai_helpers import app_bot, check_answer_without_decision

from riichi_env import selfplay
from riichi_env.mjai.seat import (
    MAX_ANSWER_BYTES,
    AnswerTooLongError,
    MjaiBot,
    MjaiBotError,
    _Process,
    game_events,
)

DEEP = "[" * 200_000 + "]" * 200_000
DIGITS = '{"type":"none","n":' + "9" * 5000 + "}"


def _app(mode: str) -> MjaiBot:
    return app_bot(mode, timeout=5.0, startup_timeout=60.0, name=mode)


def _own_draws(rows, seat: int) -> int:
    from engine.rules import MAHJONGSOUL

    return sum(
        ev["type"] == "tsumo" and ev["actor"] == seat for ev in game_events(rows, MAHJONGSOUL)
    )


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("long3", f"answered with a line longer than {MAX_ANSWER_BYTES:,} bytes"),
        ("deep3", "answered with JSON nested deeper than Python's recursion limit"),
        ("digits3", "answered with invalid JSON (Exceeds the limit (4300 digits)"),
    ],
)
def test_a_hostile_answer_is_a_malformed_answer(mode, message):
    """Stop: one ``MjaiBotError`` naming it; substitute: the default move (tsumogiri, what the
    ``ok`` bot plays), counted at every third draw, and every later answer stays in step."""
    with pytest.raises(MjaiBotError) as info:
        selfplay([_app(mode), "random", "random", "random"], games=1, seed=9)
    text = str(info.value)
    assert text.startswith(f"mjai bot '{mode}' (seat 0, table 0): {message}"), text[:500]
    assert len(text) < 2000  # the answer is shown cut short
    seats = ["random", None, "greedy", "random"]
    ok = selfplay(
        [_app("ok") if s is None else s for s in seats], games=2, seed=9, records="events"
    )
    out = selfplay(
        [_app(mode) if s is None else s for s in seats],
        games=2,
        seed=9,
        records="events",
        bot_errors="substitute",
    )
    for a, b in zip(ok["records"], out["records"], strict=True):
        np.testing.assert_array_equal(a, b)
    for res, rows in zip(out["results"], out["records"], strict=True):
        assert res["bot_errors"] == [0, _own_draws(rows, 1) // 3, 0, 0]


def test_a_long_line_where_the_seat_has_no_decision():
    """mjai.app's dialect answers every line: a too-long ``none`` to ``start_game`` is an error
    (stop) or one counted per game (substitute), the games the ``ok`` bot's."""
    check_answer_without_decision(
        _app, "longnone", "line longer than 1,048,576 bytes to a line without"
    )


WRITER = """
import sys
for command in sys.stdin:
    what, _, arg = command.strip().partition(" ")
    if what == "bytes":  # arg bytes of "x", no newline
        sys.stdout.write("x" * int(arg))
    elif what == "line":
        sys.stdout.write(arg + "\\n")
    sys.stdout.flush()
"""


class Writer:
    """A process that writes on command: ``bytes N`` (N times ``x``, no newline), ``line TEXT``."""

    def __init__(self) -> None:
        self.proc = _Process([sys.executable, "-c", WRITER], "writer")

    def __call__(self, *commands: str) -> None:
        self.proc.send(list(commands), 5.0)

    def drain(self, nbytes: int) -> None:
        """Read ``nbytes`` the writer wrote, never keeping more than the limit of a line."""
        deadline = time.monotonic() + 10
        while nbytes > 0:
            assert time.monotonic() < deadline
            nbytes -= max(self.proc._fill(0.1), 0)
            assert len(self.proc.buffer) <= MAX_ANSWER_BYTES + 65536


def test_lines_past_the_limit_are_dropped_as_they_come_and_reading_stays_in_step():
    w = Writer()
    proc = w.proc
    try:
        # an answer of 3 MiB, written in pieces, then a good one
        w(*["bytes 65536"] * 48, "line ", 'line {"ok":1}')
        w.drain(48 * 65536)
        with pytest.raises(AnswerTooLongError, match="longer than 1,048,576 bytes"):
            proc.read_answer(10.0)
        assert proc.read_answer(10.0) == '{"ok":1}'
        # exactly at the limit is an answer; one byte more is not
        w(f"bytes {MAX_ANSWER_BYTES}", "line ", f"bytes {MAX_ANSWER_BYTES + 1}", "line ")
        assert len(proc.read_answer(10.0)) == MAX_ANSWER_BYTES
        with pytest.raises(AnswerTooLongError):
            proc.read_answer(10.0)
        # out of turn: a long line being written is unrequested output, its rest dropped later
        w(*["bytes 65536"] * 20)
        w.drain(20 * 65536)
        assert proc.unrequested() == "(a line longer than 1,048,576 bytes)"
        w(*["bytes 65536"] * 20, "line ", 'line {"ok":2}')
        assert proc.read_answer(10.0) == '{"ok":2}'
        # two long lines in a row, then a good one
        w(*["bytes 65536"] * 17, "line ", *["bytes 65536"] * 17, "line ", 'line {"ok":3}')
        w.drain(34 * 65536 + 2)
        for _ in range(2):
            with pytest.raises(AnswerTooLongError):
                proc.read_answer(10.0)
        assert proc.read_answer(10.0) == '{"ok":3}'
        assert proc.unrequested() == ""
    finally:
        proc.close_input()
        proc.end(time.monotonic() + 1.0)


# ---------------------------------------------------------------------- the reference bot


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (DEEP, "mjai_bot: JSON nested deeper than Python's recursion limit: [[[["),
        (DIGITS, "mjai_bot: invalid JSON (Exceeds the limit (4300 digits)"),
        ("{nope", "mjai_bot: invalid JSON (Expecting property name enclosed in double quotes)"),
        ("[" * 900 + "]" * 900, "mjai_bot: "),
    ],
)
def test_reference_bot_refuses_hostile_json_in_one_line(monkeypatch, capsys, line, message):
    from riichi_env.mjai import bot as mjai_bot

    start = '{"type":"start_game","id":0}\n'
    monkeypatch.setattr(sys, "stdin", io.StringIO(start + line + "\n"))
    capsys.readouterr()
    code = mjai_bot.main([])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(message) and len(err) < 400, err[:500]


def test_reference_bot_refuses_a_line_past_its_limit(monkeypatch, capsys):
    from riichi_env.mjai import bot as mjai_bot

    line = '{"type":"start_game","id":0}' + " " * mjai_bot.MAX_LINE_CHARS
    monkeypatch.setattr(sys, "stdin", io.StringIO(line + "\n"))
    capsys.readouterr()
    assert mjai_bot.main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(
        f"mjai_bot: a line longer than {mjai_bot.MAX_LINE_CHARS:,} characters: {{"
    )


@pytest.mark.parametrize("depth", [990, 500])
def test_reference_bot_names_a_deeply_nested_event_in_one_short_line(monkeypatch, capsys, depth):
    """JSON with a tile nested ``depth`` lists deep (near Python's recursion limit, or well under
    it): one line naming the event, cut short, never a ``RecursionError`` from writing it back."""
    import json

    from engine.rules import MAHJONGSOUL
    from riichi_env.mjai import bot as mjai_bot
    from riichi_env.mjai.protocol import seat_events

    rows = selfplay("random", games=1, seed=8, records="events")["records"][0]
    head = seat_events(game_events(rows, MAHJONGSOUL), 0)[:2]  # start_game, start_kyoku
    bad = '{"type":"dahai","actor":3,"pai":' + "[" * depth + "]" * depth + "}"
    text = "".join(json.dumps(ev) + "\n" for ev in head) + bad + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    capsys.readouterr()
    assert mjai_bot.main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and len(err) < 500, err[:600]
    # how deep JSON may nest depends on the stack in use: read, the tile is refused; else the line
    assert err.startswith("mjai_bot: ")
    assert "mjai tile must be a string" in err or "nested deeper than Python's recursion" in err
