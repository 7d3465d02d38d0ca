"""Argument checks shared by the engine, the env, the Gymnasium wrapper and the CLI.

One function per kind of argument, so every entry point accepts the same values and words its
errors the same way: a ``TypeError`` for a value of the wrong type and a ``ValueError`` for one out
of range, each naming the argument, the value given and what is expected. Nothing is coerced: an
integer argument takes a Python ``int`` or a NumPy integer scalar, never a ``bool``, a float or a
string (``"25000"`` is refused, not converted).
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any

import numpy as np

SEED_MAX = 2**63 - 1
"""Largest game seed: seeds are ``0 <= seed <= 2**63 - 1`` everywhere (the engine keeps an int64)."""
SEED_RANGE = "0 <= seed <= 2**63 - 1"
"""The documented seed range, as error messages and help texts write it."""
N_SEATS = 4
MAX_EVENTS_LIMIT = 2**24
"""Largest event-log capacity in rows (512 MiB per table); a hanchan logs about 4,000 rows."""


def describe(value: Any) -> str:
    """``repr`` of a value with its type, for error messages: ``'25000' (str)``."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def is_int(value: Any) -> bool:
    """True for a Python ``int`` or a NumPy integer scalar, False for ``bool`` and all else."""
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, np.integer)


def check_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a Python int if it is an integer in ``[low, high]``.

    Raises:
        TypeError: not a Python int or NumPy integer (``bool`` is refused).
        ValueError: out of range; the message names ``name`` and the range.
    """
    if not is_int(value):
        raise TypeError(f"{name} must be an int, got {describe(value)}")
    v = int(value)
    if (low is not None and v < low) or (high is not None and v > high):
        if low is not None and high is not None:
            want = f"{low}-{high}" if high < 10**7 else f"{low} <= {name} <= {high}"
        elif low is not None:
            want = f">= {low}"
        else:
            want = f"<= {high}"
        raise ValueError(f"{name} must be {want}, got {v}")
    return v


def check_bool(name: str, value: Any) -> bool:
    """``value`` if it is a ``bool`` (or NumPy bool); ``TypeError`` otherwise (``1`` is refused)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {describe(value)}")
    return bool(value)


def check_number(name: str, value: Any) -> float:
    """``value`` as a float if it is a finite real number (int or float, not bool or str)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise TypeError(f"{name} must be a number, got {describe(value)}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {v}")
    return v


def check_choice(name: str, value: Any, choices) -> Any:
    """``value`` if it is one of ``choices`` (strings compared exactly)."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            f"{name} must be one of {', '.join(repr(c) for c in choices)}, got {describe(value)}"
        )
    return value


def check_seed(seed: Any, name: str = "seed") -> int:
    """A game seed: an int with ``0 <= seed <= 2**63 - 1`` (the one range of every entry point)."""
    if not is_int(seed):
        raise TypeError(f"{name} must be an int with {SEED_RANGE}, got {describe(seed)}")
    v = int(seed)
    if not 0 <= v <= SEED_MAX:
        raise ValueError(f"{name} must be an int with {SEED_RANGE}, got {v}")
    return v


def check_seed_run(games: Any, seed: Any) -> tuple[int, int]:
    """``(games, seed)`` of a run that plays seeds ``seed .. seed + games - 1``: all of them must
    lie in the one seed range."""
    games = check_int("games", games, 0)
    seed = check_seed(seed)
    if games and seed + games - 1 > SEED_MAX:
        raise ValueError(
            f"seed {seed} with {games} games: the last game's seed would pass 2**63 - 1 "
            f"(seeds are {SEED_RANGE})"
        )
    return games, seed


def check_seat(seat: Any, name: str = "seat") -> int:
    """A seat index 0-3 (absolute seat; 0 is the starting dealer)."""
    return check_int(name, seat, 0, N_SEATS - 1)


def check_max_events(max_events: Any) -> int:
    """An event-log capacity: an int from 1 to ``MAX_EVENTS_LIMIT`` rows."""
    return check_int("max_events", max_events, 1, MAX_EVENTS_LIMIT)


def check_action(action: Any, n_actions: int, who: str = "") -> int:
    """An action id: an int ``0 <= action < n_actions``; ``who`` (e.g. an agent) goes in the message.

    Raises:
        TypeError: not a Python int or NumPy integer (``bool``, floats, strings and ``None`` are
            refused: ``1.7`` is not action 1).
        ValueError: out of range.
    """
    of = f" of {who}" if who else ""
    if not is_int(action):
        raise TypeError(f"action{of} must be an int 0-{n_actions - 1}, got {describe(action)}")
    a = int(action)
    if not 0 <= a < n_actions:
        raise ValueError(f"action{of} must be 0-{n_actions - 1}, got {a}")
    return a


def ascii_digit_error(text: str, ch: str, pos: int) -> str:
    """The message for a non-ASCII digit in tile text: names the character and its code point."""
    name = unicodedata.name(ch, "unnamed character")
    return (
        f"malformed tile string {text!r}: {ch!r} at {pos} (U+{ord(ch):04X} {name}) is not an "
        "ASCII digit 0-9"
    )


class InputError(ValueError):
    """A malformed argument of a named field (hand scoring); the message starts with the field.

    Attributes:
        field: The argument's name, e.g. ``"dora_indicators"`` or ``"melds[1].tiles"``.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field

    def __reduce__(self):
        return (type(self), (self.field, str(self).removeprefix(f"{self.field}: ")))


class InputTypeError(InputError, TypeError):
    """An ``InputError`` for a value of the wrong type (also a ``TypeError``)."""
