"""External bots seated over mjai: a subprocess per table and seat, speaking one of two dialects.

```python
from riichi_env import selfplay
from riichi_env.mjai.seat import MjaiBot

bot = MjaiBot("python -m riichi_env.mjai.bot")  # Mortal's dialect: "python mortal.py {seat}", ...
app = MjaiBot("python bot.py {seat}", dialect="mjaiapp")  # a bot written for mjai.app
out = selfplay([bot, app, "random", "random"], games=4, records=True, bot_errors="substitute")
```

Dialect ``"mjai"`` is Mortal's (``riichi_env.mjai.protocol``): the bot's stdin gets every event of
the game as its seat sees it, one JSON object per line (``start_game`` with its seat as ``id``,
``start_kyoku``, ``tsumo``, ``dahai``, calls, ``dora``, ``reach``, ``reach_accepted``, ``hora``,
``ryukyoku``, ``end_kyoku``, ``end_game``); whenever the seat has a decision, the bot answers on
stdout with one JSON object on one line, and is never read at any other time.

Dialect ``"mjaiapp"`` is mjai.app's (a bot written on the ``mjai`` package's ``Bot``, run by its
``start()`` loop): each line is a JSON *array* of the events since the seat's previous line, sent
at each decision of the seat and after ``start_game``, each ``end_kyoku`` and ``end_game``
(``riichi_env.mjai.protocol.app_lines``), and the bot answers *every* line with one JSON object:
its move at a decision, ``{"type":"none"}`` on the other lines.

Three-player games (``rules="mahjongsoul-3p"`` / ``"tenhou-3p"``) are sent in one of
the two kita dialects of the records (``sanma_dialect``, ``riichi_env.records.mjai``):
``"nukidora"`` (the default, the Mortal-3p forks: four-entry ``scores`` / ``tehais`` / ``deltas``
with seat 3 empty, kita as ``{"type":"nukidora","actor":0,"pai":"N"}``) or ``"kita"``
(RiichiEnv: three-entry lists, ``{"type":"kita",...}``). The bot's kita answer (either type,
``pai`` ``"N"``) is action ``KITA`` (85); a kita where it is not legal is a bad answer.

One process plays all the games of its table and seat (a new game starts with ``start_game``
again). ``{seat}`` in the command becomes the seat the process plays (0-3; 0-2 with three
players), so a bot that takes
its seat from its command line (``mortal.py 0``, ``mjai.Bot(player_id)``) is started once per
seat index with the right one, wherever duplicate play seats it. Lines on stderr are kept (the
last few show in errors).

A bad answer is one that is not JSON, not a legal move (``riichi_env.mjai.protocol.answer_to_action`` says
why), no answer within ``timeout`` seconds (``startup_timeout`` for its first), output written
when it had no decision (a rules mismatch: the bot thought it could act; in mjai.app's dialect,
anything but ``{"type":"none"}`` on a line without a decision). With ``bot_errors="stop"`` (the
default of ``selfplay`` and the arena) it ends the run with :class:`MjaiBotError`, which names the
bot, its seat and table, the last event it was sent and its answer; every bot process is killed
and the game being played is lost. With ``bot_errors="substitute"`` the engine plays
``riichi_env.mjai.protocol.default_action`` instead (pass on an offer, else tsumogiri, else the first legal
discard), the game goes on, and the error is counted for the seat (``selfplay``'s per-game
``bot_errors``); an answer that comes after its timeout is read and dropped later, so the next
answers stay in step. The first error of each process is logged as a warning (logger
``riichi_env.mjai.seat``), the others at INFO. A bot process that exits, stops reading its
input, or times out ``max_timeouts`` times in a row (declared dead) ends the run in both modes.
A bot that exits after ``ModuleNotFoundError`` gets a hint: its command runs with the
interpreter it names.

``python`` or ``python3`` as the command's first word means this interpreter (``sys.executable``),
so a bot from this environment runs with its packages. Unix only (``select`` on pipes).
"""

from __future__ import annotations

import collections
import contextlib
import json
import logging
import os
import select
import shlex
import subprocess
import sys
import threading
import time
from typing import Any, NamedTuple

import numpy as np

from engine.actions import action_name
from engine.arguments import describe
from engine.rules import Rules
from engine.state import State
from riichi_env.mjai.protocol import (
    answer_to_action,
    app_lines,
    default_action,
    dumps,
    seat_events,
)
from riichi_env.records.mjai import SANMA_DIALECTS

DEFAULT_TIMEOUT = 10.0
"""Seconds a bot may take to answer one decision."""
DEFAULT_STARTUP_TIMEOUT = 30.0
"""Seconds for its first answer, which includes starting up (loading a model, say)."""
DEFAULT_MAX_TIMEOUTS = 3
"""Timeouts in a row after which a bot process is declared dead and the run ends (with
``bot_errors="substitute"``; ``"stop"`` ends it at the first): a bot that never answers ends a
run after ``DEFAULT_STARTUP_TIMEOUT + (DEFAULT_MAX_TIMEOUTS - 1) * DEFAULT_TIMEOUT`` = 50 s."""
STDERR_LINES = 20
"""Last stderr lines kept per bot process for error messages."""
DIALECTS = ("mjai", "mjaiapp")
"""Protocols a bot may speak: Mortal's (``"mjai"``) and mjai.app's (``"mjaiapp"``)."""
BOT_ERRORS = ("stop", "substitute")
"""What a bad answer does: end the run, or play the default move and count it."""
SEAT_FIELD = "{seat}"
"""Replaced in the command by the seat (0-3) the process plays."""
CLOSE_GRACE = 1.0
"""Seconds bot processes get to exit once their stdin is closed, before they are killed."""
MAX_ANSWER_BYTES = 1 << 20
"""The longest line a bot may write (1 MiB; a real answer is well under 1 KiB): a longer one is a
malformed answer, and the bytes past the limit are dropped as they come, never kept."""
STDERR_LINE_BYTES = 4096
"""A bot's stderr is kept in pieces of at most this many bytes (``STDERR_LINES`` of them)."""

log = logging.getLogger(__name__)


class MjaiBotError(ValueError):
    """An external bot failed: bad JSON, an illegal answer, a timeout or an exit."""


class AnswerTooLongError(ValueError):
    """A bot wrote a line longer than ``MAX_ANSWER_BYTES`` (a malformed answer)."""


def json_error(exc: BaseException) -> str:
    """What ``json.loads`` refused in an mjai line, in a few words: a syntax error, nesting deeper
    than Python's recursion limit, or a number too long to read (``records.model.json_problem``).
    """
    from riichi_env.records.model import json_problem

    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON ({exc.msg})"
    if isinstance(exc, RecursionError):
        return "JSON nested deeper than Python's recursion limit"
    return f"invalid JSON ({json_problem(exc).removeprefix('not valid JSON: ')})"


def loads(line: str) -> Any:
    """``json.loads(line)``, with every refusal a ``ValueError`` worded by ``json_error`` (deep
    nesting raises ``RecursionError`` there, a 5,000-digit number a bare ``ValueError``)."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ValueError(json_error(exc)) from None


class LogDecision(NamedTuple):
    """A decision for a policy that reads the event log (``act_log``), as ``selfplay`` passes it."""

    rows: np.ndarray
    """The game's engine event log so far, ``int32 (rows, 8)``."""
    state: State
    t: int
    """The table in ``state``."""
    seat: int
    mask: np.ndarray
    """``int8[85]`` legal actions of ``seat`` (``int8[86]`` with three players: ``KITA``)."""
    game: int
    """Index of the game in the run (a new game on the table has a new index)."""
    rules: Rules
    bot_errors: str = "stop"
    """``"stop"`` (a bad answer raises) or ``"substitute"`` (the default move, counted)."""
    errors: np.ndarray | None = None
    """``int64[4]``: the game's substituted bot errors by seat; a substitution adds one."""


def check_bot_errors(value: Any) -> str:
    """``value`` if it is one of ``BOT_ERRORS``, else ``ValueError``."""
    if value not in BOT_ERRORS:
        raise ValueError(f"bot_errors must be 'stop' or 'substitute', got {describe(value)}")
    return value


def game_events(
    rows: np.ndarray, rules: Rules, cache: dict | None = None, sanma_dialect: str = "nukidora"
) -> list[dict]:
    """All mjai events of an engine event log so far, in log order (they only grow at the end).

    With ``cache`` (a dict kept per game), the finished hands are converted once: each call then
    converts only the hand being played. A three-player game is written in ``sanma_dialect``
    (``"nukidora"`` or ``"kita"``, ``riichi_env.records.mjai.write_mjai``).
    """
    from engine.events import EV_HAND_START
    from riichi_env.records.export import game_from_events
    from riichi_env.records.mjai import write_mjai

    starts = np.flatnonzero(rows[:, 0] == EV_HAND_START)
    opts = {"log_order": True, "sanma_dialect": sanma_dialect}
    if cache is None or not starts.size:
        return write_mjai(game_from_events(rows, rules), **opts)
    h = int(starts[-1])
    if cache.get("h") != h:
        cache["h"] = h
        cache["head"] = write_mjai(game_from_events(rows[:h], rules), **opts)
    tail = write_mjai(game_from_events(rows[h:], rules), **opts)
    return cache["head"] + tail[1:]  # the hand's own start_game is the game's


class _Process:
    """One bot process: non-blocking line I/O with deadlines, stderr drained in a thread."""

    def __init__(self, argv: list[str], label: str):
        self.label = label
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
            )
        except OSError as exc:
            raise MjaiBotError(f"{label}: cannot start {shlex.join(argv)!r}: {exc}") from None
        self.stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()
        self.buffer = b""
        self.lines_taken = 0
        """Lines taken out of the buffer so far."""
        self.too_long: set[int] = set()
        """Lines (numbered as ``lines_taken`` counts) past ``MAX_ANSWER_BYTES``, not taken yet:
        their bytes are dropped as they come, their newline kept."""
        self.game = -1
        self.sent = 0
        """Events of the game sent so far."""
        self.cache: dict = {}
        self.answered = 0
        """Lines read from the bot (its first line has ``startup_timeout``)."""
        self.owed = 0
        """Lines still to come that answer nothing now (late answers): dropped when they come."""
        self.errors = 0
        """Bad answers substituted."""
        self.timeouts = 0
        """Timeouts in a row (an answer in time sets it back to 0)."""
        self.last_event = ""
        os.set_blocking(self.proc.stdout.fileno(), False)

    def _read_stderr(self) -> None:
        for raw in iter(lambda: self.proc.stderr.readline(STDERR_LINE_BYTES), b""):
            self.stderr.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def stderr_tail(self) -> str:
        if self.proc.poll() is not None:
            self._drain.join(0.2)  # the last lines of a bot that exited
        lines = list(self.stderr)[-5:]
        return ("; its stderr ended: " + " | ".join(lines)) if lines else ""

    def exited(self) -> str:
        code = self.proc.poll()
        return f"exited with code {code}" if code is not None else ""

    def send(self, lines: list[str], timeout: float) -> None:
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        fd = self.proc.stdin.fileno()
        deadline = time.monotonic() + timeout
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EOFError(f"did not read its input within {timeout:g} s")
            _, ready, _ = select.select([], [fd], [], left)
            if ready:
                try:
                    n = os.write(fd, data)
                except (BrokenPipeError, OSError):
                    raise EOFError(self.exited() or "closed its stdin") from None
                data = data[n:]

    def unrequested(self) -> str:
        """What the bot wrote that answers nothing (late answers it owed are dropped), or ''.

        A line it is still writing counts too (and its rest is dropped when it comes). Reads what
        is there now, up to about ``MAX_ANSWER_BYTES`` (a bot that writes on and on is not
        waited for)."""
        got = 0
        while got <= MAX_ANSWER_BYTES:
            n = self._fill(0.0)
            if n <= 0:
                break
            got += n
        extra = []
        while b"\n" in self.buffer:
            line = self._line()
            self.answered += 1
            if self.owed:
                self.owed -= 1
            else:
                extra.append(line)
        if (self.buffer or self._skipping()) and not self.owed:
            extra.append(None if self._skipping() else self.buffer)
            self.owed += 1
        return " | ".join(_shown(x) for x in extra)

    def _line(self) -> bytes | None:
        """The first whole line of the buffer, taken out; None for a line past the limit."""
        line, _, self.buffer = self.buffer.partition(b"\n")
        number, self.lines_taken = self.lines_taken, self.lines_taken + 1
        if number in self.too_long:
            self.too_long.discard(number)
            return None
        return None if len(line) > MAX_ANSWER_BYTES else line

    def _fill(self, wait: float) -> int:
        """Read what is available (waiting up to ``wait`` s for something): bytes read, -1 at EOF."""
        fd = self.proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], max(wait, 0.0))
        if not ready:
            return 0
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return 0
        if not chunk:
            return -1
        n = len(chunk)
        if self._skipping():  # the rest of a line past the limit: dropped up to its newline
            end = chunk.find(b"\n")
            if end < 0:
                return n
            chunk = chunk[end:]
        self.buffer += chunk
        start = self.buffer.rfind(b"\n") + 1
        if len(self.buffer) - start > MAX_ANSWER_BYTES:  # the line being written is too long
            self.buffer = self.buffer[:start]
            self.too_long.add(self._writing())
        return n

    def _writing(self) -> int:
        """The number of the line the bot is writing (after the whole lines in the buffer)."""
        return self.lines_taken + self.buffer.count(b"\n")

    def _skipping(self) -> bool:
        """True while the line being written is past the limit (its bytes are dropped)."""
        return bool(self.too_long) and self._writing() in self.too_long

    def read_answer(self, timeout: float) -> str:
        """The bot's next line that answers the last one sent (owed late answers dropped);
        ``AnswerTooLongError`` for a line past ``MAX_ANSWER_BYTES``."""
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    first = (
                        "" if self.answered or self.timeouts else " (its first, start-up included)"
                    )
                    raise TimeoutError(f"no answer within {timeout:g} s{first}")
                if self._fill(left) < 0:
                    self.proc.wait(timeout=1.0)
                    raise EOFError(self.exited() or "closed its stdout")
            line = self._line()
            self.answered += 1
            if self.owed:
                self.owed -= 1
                continue
            self.timeouts = 0  # an answer in time
            if line is None:
                raise AnswerTooLongError(
                    f"answered with a line longer than {MAX_ANSWER_BYTES:,} bytes"
                )
            return line.decode("utf-8", "replace").strip()

    def close_input(self) -> None:
        """Close the bot's stdin: a bot reading it sees the end and exits."""
        with contextlib.suppress(OSError):
            self.proc.stdin.close()

    def end(self, deadline: float) -> None:
        """Wait until ``deadline`` (``time.monotonic()``) for the process to exit, then kill it."""
        try:
            self.proc.wait(timeout=max(deadline - time.monotonic(), 0.0))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


class MjaiBot:
    """An external mjai bot as a seat policy (module docstring): one process per table and seat.

    Args:
        command: The bot's command line (a string, split like a shell does, or a list);
            ``{seat}`` in it becomes the seat the process plays.
        name: Label in errors and the arena's table (default ``dialect + ":" + command``).
        timeout: Seconds per answer.
        startup_timeout: Seconds for a process's first answer.
        dialect: ``"mjai"`` (Mortal's: one event per line, answers at decisions only) or
            ``"mjaiapp"`` (mjai.app's: a JSON array of events per line, every line answered).
        sanma_dialect: How three-player games are sent: ``"nukidora"`` (the Mortal-3p forks:
            four-entry lists, seat 3 empty) or ``"kita"`` (RiichiEnv: three-entry lists).
        max_timeouts: Timeouts in a row after which a process is declared dead (the run ends).
    """

    def __init__(
        self,
        command: str | list[str],
        *,
        name: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
        dialect: str = "mjai",
        sanma_dialect: str = "nukidora",
        max_timeouts: int = DEFAULT_MAX_TIMEOUTS,
    ):
        if isinstance(command, str):
            argv = shlex.split(command)
        elif isinstance(command, (list, tuple)) and all(isinstance(a, str) for a in command):
            argv = list(command)
        else:
            raise TypeError(
                f"command must be a string or a list of strings, got {describe(command)}"
            )
        if not argv:
            raise ValueError("command is empty; give the bot's command line")
        for label, value in (("timeout", timeout), ("startup_timeout", startup_timeout)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"{label} must be a number of seconds > 0, got {describe(value)}")
        if isinstance(max_timeouts, bool) or not isinstance(max_timeouts, int) or max_timeouts < 1:
            raise ValueError(f"max_timeouts must be an int >= 1, got {describe(max_timeouts)}")
        if dialect not in DIALECTS:
            raise ValueError(
                f"dialect must be 'mjai' (Mortal's) or 'mjaiapp' (mjai.app's), got "
                f"{describe(dialect)}"
            )
        if sanma_dialect not in SANMA_DIALECTS:
            raise ValueError(
                f"sanma_dialect must be 'nukidora' (the Mortal-3p forks) or 'kita' (RiichiEnv), "
                f"got {describe(sanma_dialect)}"
            )
        self.command = command.strip() if isinstance(command, str) else shlex.join(argv)
        self.argv = [sys.executable, *argv[1:]] if argv[0] in ("python", "python3") else argv
        self.dialect = dialect
        self.sanma_dialect = sanma_dialect
        self.name = name if name is not None else f"{dialect}:{self.command}"
        self.__name__ = self.name
        self.timeout = float(timeout)
        self.startup_timeout = float(startup_timeout)
        self.max_timeouts = max_timeouts
        self._procs: dict[tuple[int, int], _Process] = {}

    def argv_for(self, seat: int) -> list[str]:
        """The command line of the process playing ``seat`` (``{seat}`` replaced)."""
        return [a.replace(SEAT_FIELD, str(seat)) for a in self.argv]

    def __deepcopy__(self, memo) -> MjaiBot:
        """A copy with the same command and no processes (each worker starts its own)."""
        return MjaiBot(
            self.argv,
            name=self.name,
            timeout=self.timeout,
            startup_timeout=self.startup_timeout,
            dialect=self.dialect,
            sanma_dialect=self.sanma_dialect,
            max_timeouts=self.max_timeouts,
        )

    def __getstate__(self) -> dict:
        """Pickled (sent to a Ray actor) without its processes: the copy starts its own."""
        return {k: v for k, v in self.__dict__.items() if k != "_procs"}

    def __setstate__(self, state: dict) -> None:
        state.setdefault("sanma_dialect", "nukidora")
        state.setdefault("max_timeouts", DEFAULT_MAX_TIMEOUTS)
        self.__dict__.update(state)
        self._procs = {}

    def _describe(self, proc: _Process | None, seat: int, t: int, what: str, answer: str) -> str:
        where = f"mjai bot {self.name!r} (seat {seat}, table {t})"
        parts = [f"{where}: {what}"]
        if proc is not None and proc.last_event:
            parts.append(f"last event sent: {proc.last_event}")
        if answer:
            parts.append(f"its answer: {answer[:300]}")
        return "; ".join(parts)

    def _error(
        self, proc: _Process | None, seat: int, t: int, what: str, answer: str = ""
    ) -> MjaiBotError:
        """The error naming bot, seat, table, last event and answer; every process is ended."""
        text = self._describe(proc, seat, t, what, answer)
        tail = proc.stderr_tail() if proc is not None else ""
        self.close()
        return MjaiBotError(text + tail + self._hint(tail))

    def _hint(self, tail: str) -> str:
        """A hint for a bot that died for want of a module: which interpreter ran it."""
        if "ModuleNotFoundError" not in tail and "No module named" not in tail:
            return ""
        ours = self.argv[0] == sys.executable
        who = (
            f"'python' in a bot command is riichi_env's own interpreter ({sys.executable}), "
            "which does not have the bot's packages"
            if ours
            else f"its interpreter ({self.argv[0]}) does not have the bot's packages"
        )
        return (
            f". Hint: a bot command runs with whatever interpreter it names; {who}. Name the "
            "bot's own interpreter, such as 'mjaiapp:/path/to/bot-venv/bin/python bot.py "
            "{seat}', or install the missing package there"
        )

    def _timed_out(self, proc: _Process, seat: int, t: int, mode: str, exc: TimeoutError) -> None:
        """A timeout: the answer is owed (dropped when it comes); at ``max_timeouts`` in a row
        the process is declared dead and the run ends (``"substitute"``; ``"stop"`` ends it at
        the first anyway)."""
        proc.owed += 1
        proc.timeouts += 1
        if mode == "substitute" and proc.timeouts >= self.max_timeouts:
            raise self._error(
                proc,
                seat,
                t,
                f"declared dead after {proc.timeouts} timeouts in a row (the last: {exc}); the "
                f"run ends (a bot is dead after {self.max_timeouts} timeouts in a row: "
                "max_timeouts, --bot-max-timeouts)",
            )

    def _bad(
        self,
        proc: _Process,
        seat: int,
        t: int,
        mode: str,
        errors: np.ndarray | None,
        what: str,
        answer: str = "",
        instead: str = "ignored",
    ) -> None:
        """A bad answer: raise (``"stop"``), or count it and log what was played instead."""
        if mode != "substitute":
            raise self._error(proc, seat, t, what, answer)
        if errors is not None:
            errors[seat] += 1
        proc.errors += 1
        level = logging.WARNING if proc.errors == 1 else logging.INFO
        if log.isEnabledFor(level):
            text = self._describe(proc, seat, t, what, answer)
            more = " (its further errors are logged at INFO)" if proc.errors == 1 else ""
            log.log(level, "%s; %s%s%s", text, instead, more, proc.stderr_tail())

    def _process(self, t: int, seat: int, game: int) -> _Process:
        key = (t, seat)
        proc = self._procs.get(key)
        if proc is None:
            label = f"mjai bot {self.name!r} (seat {seat}, table {t})"
            proc = _Process(self.argv_for(seat), label)
            self._procs[key] = proc
        if proc.game != game:
            proc.game, proc.sent, proc.cache = game, 0, {}
        return proc

    def _timeout(self, proc: _Process) -> float:
        """``startup_timeout`` for the process's first line, ``timeout`` after it (answered or
        not: a bot that never answers waits the start-up once)."""
        return self.timeout if proc.answered or proc.timeouts else self.startup_timeout

    def _check_quiet(self, proc, seat, t, mode, errors) -> None:
        """Output the bot wrote since its last answer: a bad answer (it had no decision)."""
        extra = proc.unrequested()
        if extra:
            self._bad(proc, seat, t, mode, errors, "wrote output when it had no decision", extra)

    def _send(self, proc: _Process, seat: int, t: int, lines: list[str], what: str) -> None:
        try:
            proc.send(lines, self._timeout(proc))
        except EOFError as exc:
            raise self._error(proc, seat, t, f"{exc} {what}") from None

    def _app_line(self, proc, seat, t, events, mode, errors) -> None:
        """One line of mjai.app's dialect where the seat has no decision: its answer is none."""
        proc.last_event = dumps(events[-1])
        self._send(proc, seat, t, [dumps(events)], "at a line without a decision")
        proc.sent += len(events)
        try:
            line = proc.read_answer(self._timeout(proc))
        except TimeoutError as exc:
            self._timed_out(proc, seat, t, mode, exc)
            self._bad(proc, seat, t, mode, errors, f"{exc} to a line without a decision")
            return
        except EOFError as exc:
            raise self._error(proc, seat, t, f"{exc} before answering") from None
        except AnswerTooLongError as exc:
            self._bad(proc, seat, t, mode, errors, f"{exc} to a line without a decision")
            return
        try:
            answer = loads(line)
        except ValueError:
            answer = None
        if not (isinstance(answer, dict) and answer.get("type") == "none"):
            self._bad(
                proc,
                seat,
                t,
                mode,
                errors,
                'answered a line without a decision with something else than {"type":"none"}',
                line,
            )

    def act_log(self, d: LogDecision) -> int:
        """Send the events the seat has not seen yet, read its answer, return its action id."""
        mode = check_bot_errors(d.bot_errors)
        seat, t, errors = d.seat, d.t, d.errors
        proc = self._process(t, seat, d.game)
        events = seat_events(game_events(d.rows, d.rules, proc.cache, self.sanma_dialect), seat)
        new = events[proc.sent :]
        if not new:
            raise self._error(proc, seat, t, "internal error: a decision with no new event")
        self._check_quiet(proc, seat, t, mode, errors)
        if self.dialect == "mjaiapp":
            *quiet, last = app_lines(new)
            for line_events in quiet:
                self._app_line(proc, seat, t, line_events, mode, errors)
            payload = [dumps(last)]
        else:
            payload = [dumps(ev) for ev in new]
        proc.last_event = dumps(new[-1])
        self._send(proc, seat, t, payload, "before answering")
        proc.sent = len(events)

        def substitute(what: str, answer: str = "") -> int:
            action = default_action(d.state, t, seat, d.mask)
            played = f"played {action_name(action)} instead"
            self._bad(proc, seat, t, mode, errors, what, answer, played)
            return action

        try:
            line = proc.read_answer(self._timeout(proc))
        except TimeoutError as exc:
            self._timed_out(proc, seat, t, mode, exc)
            return substitute(str(exc))
        except EOFError as exc:
            raise self._error(proc, seat, t, f"{exc} before answering") from None
        except AnswerTooLongError as exc:
            return substitute(str(exc))
        try:
            answer = loads(line)
        except ValueError as exc:
            return substitute(f"answered with {exc}", line)
        try:
            return answer_to_action(answer, d.state, t, seat, d.mask)
        except RecursionError:
            return substitute("answered with JSON nested too deep to read as a move", line)
        except ValueError as exc:
            return substitute(f"answered with an illegal move: {exc}", line)

    def game_over(
        self,
        rows: np.ndarray,
        t: int,
        game: int,
        rules: Rules,
        bot_errors: str = "stop",
        errors: np.ndarray | None = None,
    ) -> None:
        """Send the rest of a finished game (the last hand's end and ``end_game``) to its bots."""
        mode = check_bot_errors(bot_errors)
        for (table, seat), proc in list(self._procs.items()):
            if table != t or proc.game != game:
                continue
            events = seat_events(game_events(rows, rules, proc.cache, self.sanma_dialect), seat)
            new = events[proc.sent :]
            if not new:
                continue
            self._check_quiet(proc, seat, t, mode, errors)
            if self.dialect == "mjaiapp":
                for line_events in app_lines(new):
                    self._app_line(proc, seat, t, line_events, mode, errors)
            else:
                proc.last_event = dumps(new[-1])
                self._send(proc, seat, t, [dumps(ev) for ev in new], "at the end of the game")
            proc.sent = len(events)

    def close(self, grace: float = CLOSE_GRACE) -> None:
        """End every bot process: close their stdin, then kill those that have not exited within
        ``grace`` seconds (one wait for all; 0 kills them at once, as after Ctrl-C)."""
        procs, self._procs = list(self._procs.values()), {}
        for proc in procs:
            proc.close_input()
        deadline = time.monotonic() + grace
        for proc in procs:
            proc.end(deadline)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter shutdown
            self.close()

    def __repr__(self) -> str:
        sanma = (
            "" if self.sanma_dialect == "nukidora" else f", sanma_dialect={self.sanma_dialect!r}"
        )
        return f"MjaiBot({self.command!r}, dialect={self.dialect!r}{sanma})"


def _shown(line: bytes | None) -> str:
    """A line the bot wrote, as an error shows it (None: one past the limit)."""
    if line is None:
        return f"(a line longer than {MAX_ANSWER_BYTES:,} bytes)"
    return line.decode("utf-8", "replace").strip()


def is_log_policy(policy: Any) -> bool:
    """True for a policy that reads the event log (``act_log``), such as :class:`MjaiBot`."""
    return hasattr(policy, "act_log")


__all__ = [
    "BOT_ERRORS",
    "DEFAULT_MAX_TIMEOUTS",
    "MAX_ANSWER_BYTES",
    "DIALECTS",
    "LogDecision",
    "MjaiBot",
    "MjaiBotError",
    "check_bot_errors",
    "game_events",
    "is_log_policy",
]
