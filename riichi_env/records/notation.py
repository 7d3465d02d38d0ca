"""Tile names of the record formats: tenhou.net/6 numbers and mjai strings."""

from __future__ import annotations

_MJAI_HONORS = "ESWNPFC"


def tenhou6_code(tile34: int, is_red: bool) -> int:
    """tenhou.net/6 number: 11–19 man, 21–29 pin, 31–39 sou, 41–47 honors, 51–53 red fives."""
    if is_red:
        return 51 + tile34 // 9
    return (tile34 // 9 + 1) * 10 + tile34 % 9 + 1


def from_tenhou6_code(code: int) -> tuple[int, bool]:
    """(tile34, is_red) of a tenhou.net/6 number; ``ValueError`` if it names no tile."""
    if isinstance(code, bool) or not isinstance(code, int):
        raise ValueError(f"tile code must be an int, got {code!r}")
    if code in (51, 52, 53):
        return (code - 51) * 9 + 4, True
    suit, rank = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= rank <= 9:
        return (suit - 1) * 9 + rank - 1, False
    if suit == 4 and 1 <= rank <= 7:
        return 27 + rank - 1, False
    raise ValueError(f"{code} is not a tenhou.net/6 tile code")


def mjai_name(tile34: int, is_red: bool) -> str:
    """mjai tile name: ``1m``…``9s``, ``5mr`` for red, ``E S W N P F C`` for honors."""
    if tile34 >= 27:
        return _MJAI_HONORS[tile34 - 27]
    return f"{tile34 % 9 + 1}{'mps'[tile34 // 9]}{'r' if is_red else ''}"


def from_mjai_name(name: str) -> tuple[int, bool]:
    """(tile34, is_red) of an mjai tile name; ``ValueError`` if it names no tile."""
    if not isinstance(name, str):
        raise ValueError(f"mjai tile must be a string, got {name!r}")
    if len(name) == 1 and name in _MJAI_HONORS:
        return 27 + _MJAI_HONORS.index(name), False
    red = name.endswith("r") and len(name) == 3
    core = name[:2] if red else name
    if len(core) == 2 and core[0] in "123456789" and core[1] in "mps":
        t = "mps".index(core[1]) * 9 + int(core[0]) - 1
        if red and core[0] != "5":
            raise ValueError(f"mjai tile {name!r}: only fives can be red")
        return t, red
    raise ValueError(f"{name!r} is not an mjai tile name")
