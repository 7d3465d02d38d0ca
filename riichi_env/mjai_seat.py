"""External bots seated over mjai: a subprocess per table and seat, one JSON event per line.

```python
from riichi_env import selfplay
from riichi_env.mjai_seat import MjaiBot

bot = MjaiBot("python -m riichi_env.mjai_bot")  # or Mortal's "python mortal.py 0", ...
out = selfplay([bot, "random", "random", "random"], games=4, records=True)
```

The protocol is Mortal's (``riichi_env.mjai_protocol``): the bot's stdin gets every event of the
game as its seat sees it, one JSON object per line (``start_game`` with its seat as ``id``,
``start_kyoku``, ``tsumo``, ``dahai``, calls, ``dora``, ``reach``, ``reach_accepted``, ``hora``,
``ryukyoku``, ``end_kyoku``, ``end_game``); whenever the seat has a decision, the bot answers on
stdout with one JSON object on one line, and is never read at any other time. A new game on the
same table starts with ``start_game`` again (Mortal's bots reset there), so one process plays
all the games of its table and seat. Lines on stderr are kept (the last few show in errors).

A bot that fails ends the run with :class:`MjaiBotError`, which names the bot, its seat and table,
the last event it was sent and its answer: an answer that is not JSON, not a legal move
(``riichi_env.mjai_protocol.answer_to_action`` says why), no answer within ``timeout`` seconds
(``startup_timeout`` for its first), an exit, or output written when it had no decision (a rules
mismatch: the bot thought it could act). Every bot process is then killed; the game being played
is lost and no result of it is returned (``riichi_env.arena`` stops with that error).

``python`` or ``python3`` as the command's first word means this interpreter (``sys.executable``),
so a bot from this environment runs with its packages. Unix only (``select`` on pipes).
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import select
import shlex
import subprocess
import sys
import threading
import time
from typing import Any, NamedTuple

import numpy as np

from engine.rules import Rules
from engine.state import State
from engine.validation import describe
from riichi_env.mjai_protocol import answer_to_action, dumps, seat_events

DEFAULT_TIMEOUT = 10.0
"""Seconds a bot may take to answer one decision."""
DEFAULT_STARTUP_TIMEOUT = 120.0
"""Seconds for its first answer, which includes starting up (loading a model, say)."""
STDERR_LINES = 20
"""Last stderr lines kept per bot process for error messages."""


class MjaiBotError(ValueError):
    """An external bot failed: bad JSON, an illegal answer, a timeout or an exit."""


class LogDecision(NamedTuple):
    """A decision for a policy that reads the event log (``act_log``), as ``selfplay`` passes it."""

    rows: np.ndarray
    """The game's engine event log so far, ``int32 (rows, 8)``."""
    state: State
    t: int
    """The table in ``state``."""
    seat: int
    mask: np.ndarray
    """``int8[85]`` legal actions of ``seat``."""
    game: int
    """Index of the game in the run (a new game on the table has a new index)."""
    rules: Rules


def game_events(rows: np.ndarray, rules: Rules, cache: dict | None = None) -> list[dict]:
    """All mjai events of an engine event log so far, in log order (they only grow at the end).

    With ``cache`` (a dict kept per game), the finished hands are converted once: each call then
    converts only the hand being played.
    """
    from engine.events import EV_HAND_START
    from riichi_env.records.export import game_from_events
    from riichi_env.records.mjai import write_mjai

    starts = np.flatnonzero(rows[:, 0] == EV_HAND_START)
    if cache is None or not starts.size:
        return write_mjai(game_from_events(rows, rules), log_order=True)
    h = int(starts[-1])
    if cache.get("h") != h:
        cache["h"] = h
        cache["head"] = write_mjai(game_from_events(rows[:h], rules), log_order=True)
    tail = write_mjai(game_from_events(rows[h:], rules), log_order=True)
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
        self.game = -1
        self.sent = 0
        self.cache: dict = {}
        self.answered = 0
        self.last_event = ""
        os.set_blocking(self.proc.stdout.fileno(), False)

    def _read_stderr(self) -> None:
        for raw in iter(self.proc.stderr.readline, b""):
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
                raise TimeoutError(f"did not read its input within {timeout:g} s")
            _, ready, _ = select.select([], [fd], [], left)
            if ready:
                try:
                    n = os.write(fd, data)
                except (BrokenPipeError, OSError):
                    raise EOFError(self.exited() or "closed its stdin") from None
                data = data[n:]

    def pending_output(self) -> bytes:
        """Whatever the bot wrote that nobody asked for (non-blocking)."""
        self._fill(0.0)
        out, self.buffer = self.buffer, b""
        return out

    def _fill(self, wait: float) -> bool:
        """Read what is available (waiting up to ``wait`` s for something); False at EOF."""
        fd = self.proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], max(wait, 0.0))
        if not ready:
            return True
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        self.buffer += chunk
        return True

    def read_line(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer within {timeout:g} s")
            if not self._fill(left):
                self.proc.wait(timeout=1.0)
                raise EOFError(self.exited() or "closed its stdout")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace").strip()

    def close(self, grace: float = 1.0) -> None:
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


class MjaiBot:
    """An external mjai bot as a seat policy (module docstring): one process per table and seat.

    Args:
        command: The bot's command line (a string, split like a shell does, or a list).
        name: Label in errors and the arena's table (default ``"mjai:" + command``).
        timeout: Seconds per answer.
        startup_timeout: Seconds for a process's first answer.
    """

    def __init__(
        self,
        command: str | list[str],
        *,
        name: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
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
        self.command = shlex.join(argv)
        self.argv = [sys.executable, *argv[1:]] if argv[0] in ("python", "python3") else argv
        self.name = name if name is not None else f"mjai:{self.command}"
        self.__name__ = self.name
        self.timeout = float(timeout)
        self.startup_timeout = float(startup_timeout)
        self._procs: dict[tuple[int, int], _Process] = {}

    def __deepcopy__(self, memo) -> MjaiBot:
        """A copy with the same command and no processes (each worker starts its own)."""
        return MjaiBot(
            self.argv,
            name=self.name,
            timeout=self.timeout,
            startup_timeout=self.startup_timeout,
        )

    def __getstate__(self) -> dict:
        """Pickled (sent to a Ray actor) without its processes: the copy starts its own."""
        return {k: v for k, v in self.__dict__.items() if k != "_procs"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._procs = {}

    def _error(
        self, proc: _Process | None, seat: int, t: int, what: str, answer: str = ""
    ) -> MjaiBotError:
        """The error naming bot, seat, table, last event and answer; every process is ended."""
        where = f"mjai bot {self.name!r} (seat {seat}, table {t})"
        parts = [f"{where}: {what}"]
        if proc is not None and proc.last_event:
            parts.append(f"last event sent: {proc.last_event}")
        if answer:
            parts.append(f"its answer: {answer[:300]}")
        tail = proc.stderr_tail() if proc is not None else ""
        self.close()
        return MjaiBotError("; ".join(parts) + tail)

    def act_log(self, d: LogDecision) -> int:
        """Send the events the seat has not seen yet, read its answer, return its action id."""
        key = (d.t, d.seat)
        proc = self._procs.get(key)
        if proc is None:
            proc = _Process(self.argv, f"mjai bot {self.name!r} (seat {d.seat}, table {d.t})")
            self._procs[key] = proc
        if proc.game != d.game:
            proc.game, proc.sent, proc.cache = d.game, 0, {}
        events = seat_events(game_events(d.rows, d.rules, proc.cache), d.seat)
        new = [dumps(ev) for ev in events[proc.sent :]]
        if not new:
            raise self._error(
                proc, d.seat, d.t, "internal error: a decision with no new event"
            ) from None
        stray = proc.pending_output()
        if stray:
            text = stray.decode("utf-8", "replace").strip()
            raise self._error(
                proc, d.seat, d.t, "wrote output when it had no decision", text
            ) from None
        proc.last_event = new[-1]
        timeout = self.timeout if proc.answered else self.startup_timeout
        try:
            proc.send(new, timeout)
            proc.sent = len(events)
            line = proc.read_line(timeout)
        except TimeoutError as exc:
            raise self._error(proc, d.seat, d.t, str(exc)) from None
        except EOFError as exc:
            raise self._error(proc, d.seat, d.t, f"{exc} before answering") from None
        proc.answered += 1
        try:
            answer = json.loads(line)
        except json.JSONDecodeError as exc:
            raise self._error(
                proc, d.seat, d.t, f"answered with invalid JSON ({exc.msg})", line
            ) from None
        try:
            return answer_to_action(answer, d.state, d.t, d.seat, d.mask)
        except ValueError as exc:
            raise self._error(
                proc, d.seat, d.t, f"answered with an illegal move: {exc}", line
            ) from None

    def game_over(self, rows: np.ndarray, t: int, game: int, rules: Rules) -> None:
        """Send the rest of a finished game (the last hand's end and ``end_game``) to its bots."""
        for (table, seat), proc in list(self._procs.items()):
            if table != t or proc.game != game:
                continue
            events = seat_events(game_events(rows, rules, proc.cache), seat)
            new = [dumps(ev) for ev in events[proc.sent :]]
            if new:
                proc.last_event = new[-1]
                try:
                    proc.send(new, self.timeout)
                except (TimeoutError, EOFError) as exc:
                    raise self._error(proc, seat, t, f"{exc} at the end of the game") from None
            proc.sent = len(events)

    def close(self) -> None:
        """End every bot process (closing stdin, then killing one that does not exit)."""
        procs, self._procs = list(self._procs.values()), {}
        for proc in procs:
            proc.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter shutdown
            self.close()

    def __repr__(self) -> str:
        return f"MjaiBot({self.command!r})"


def is_log_policy(policy: Any) -> bool:
    """True for a policy that reads the event log (``act_log``), such as :class:`MjaiBot`."""
    return hasattr(policy, "act_log")


__all__ = ["LogDecision", "MjaiBot", "MjaiBotError", "game_events", "is_log_policy"]
