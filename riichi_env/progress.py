"""The live progress line of long runs (self-play, the arena, the dataset's conversion): standard
library only, so that every room can draw it."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any


class ProgressLine:
    """One live progress line on stderr, ``label: done/total games, s, games/s``: each call with
    the games finished redraws it in place (``\r``), :meth:`close` ends it with one newline.
    With ``errors`` (a run with an external bot) the line also shows the bot errors substituted
    so far, as :meth:`bot_errors` sets them.

    Thread-safe; a command draws one for its whole run (the arena over its four rotations).
    """

    def __init__(self, label: str, total: int, stream: Any = None, errors: bool = False) -> None:
        self.label = label
        self.total = total
        self.stream = sys.stderr if stream is None else stream
        self.start = time.perf_counter()
        self.done = 0
        self.errors = 0 if errors else None
        self._width = 0
        self._closed = False
        self._lock = threading.Lock()

    def bot_errors(self, n: int) -> None:
        """Set the bot errors shown (shown from the next redraw; only with ``errors``)."""
        with self._lock:
            if self.errors is not None:
                self.errors = int(n)

    def __call__(self, done: int) -> None:
        """Redraw the line with ``done`` games finished."""
        with self._lock:
            if not self._closed:
                self.done = done
                elapsed = time.perf_counter() - self.start
                self._draw(f"{elapsed:.0f} s, {done / max(elapsed, 1e-9):.1f} games/s", "")

    def close(self) -> None:
        """Draw the final figures and end the line (once; later calls do nothing)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                elapsed = time.perf_counter() - self.start
                self._draw(f"{elapsed:.1f} s", "\n")

    def _draw(self, figures: str, end: str) -> None:
        text = f"{self.label}: {self.done}/{self.total} games, "
        if self.errors is not None:
            text += f"{self.errors} bot error{'' if self.errors == 1 else 's'}, "
        text += figures
        pad = " " * max(self._width - len(text), 0)  # over the end of a longer line before
        self._width = len(text)
        self.stream.write(f"\r{text}{pad}{end}")
        self.stream.flush()


__all__ = ["ProgressLine"]
