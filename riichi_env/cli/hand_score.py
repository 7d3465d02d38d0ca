"""The hand-score calculator's I/O: JSON input objects in, result objects out.

Implements the hand-score format (``riichi-env score --jsonl``). Every field of an input object
is checked; a bad one gives ``{"valid": false, "error": "invalid_input", "message": ...}`` whose
message starts with the field's name. Unknown fields are rejected (a misspelt flag would
otherwise be silently false). A good object is scored by ``engine.scoring.score_hand``.
``score_lines`` streams JSON lines: a line that cannot be read yields an error result and the
following lines are still scored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.arguments import InputError
from engine.rules import PRESETS, PRESETS_3P, Rules
from engine.scoring.hand_score import SITUATIONAL_FLAGS, check_hand_input

WINDS = ("E", "S", "W", "N")
"""Wind letters of the format, seat order."""
RULESETS = (*PRESETS, *PRESETS_3P)
"""The format's ``ruleset`` names: the four-player presets, then the three-player ones."""
WIN_TYPES = ("tsumo", "ron")
FLAGS = SITUATIONAL_FLAGS
"""Boolean situational fields, all default false."""
REQUIRED = ("closed", "win_tile", "win_type", "seat_wind", "round_wind")
OPTIONAL = (
    "melds",
    *FLAGS,
    "dora_indicators",
    "ura_dora_indicators",
    "honba",
    "kyotaku",
    "kita",
    "players",
    "ruleset",
)
FIELDS = REQUIRED + OPTIONAL
"""Every field an input object may have."""


def invalid_input(message: str) -> dict[str, Any]:
    """The result object for input that could not be scored."""
    return {"valid": False, "error": "invalid_input", "message": message}


def _list(obj: Mapping[str, Any], field: str) -> list:
    value = obj.get(field, [])
    if not isinstance(value, list):
        raise InputError(field, f"must be a list, got {json.dumps(value)}")
    return value


def _melds(value: Any) -> list[dict[str, Any]]:
    """The format's meld objects (``{"type", "tiles"}``, other keys ignored) as score_hand melds."""
    if not isinstance(value, list):
        raise InputError("melds", f"must be a list, got {json.dumps(value)}")
    out = []
    for i, meld in enumerate(value):
        where = f"melds[{i}]"
        if not isinstance(meld, dict):
            raise InputError(
                where, f'must be an object {{"type", "tiles"}}, got {json.dumps(meld)}'
            )
        for key in ("type", "tiles"):
            if key not in meld:
                raise InputError(f"{where}.{key}", "is required")
        out.append({"type": meld["type"], "tiles": meld["tiles"]})
    return out


def parse_input(obj: Any) -> dict[str, Any]:
    """Check an input object (or a sample line holding one) and return ``score_hand`` kwargs.

    This layer checks only the JSON shape (an object, known and required fields, a preset name,
    lists of tiles and meld objects, wind letters); every other check is
    ``engine.scoring.check_hand_input``'s, the one validation path shared with ``score_hand``.
    ``kyotaku`` is resolved there (1 with riichi when not given).

    Raises:
        InputError: a field is missing, has the wrong type, or contradicts another field.
    """
    if isinstance(obj, Mapping) and isinstance(obj.get("input"), Mapping):
        obj = obj["input"]
    if not isinstance(obj, Mapping):
        raise InputError("input", f"must be a JSON object, got {json.dumps(obj)[:60]}")
    unknown = [k for k in obj if k not in FIELDS]
    if unknown:
        raise InputError(unknown[0], f"unknown field (known: {', '.join(FIELDS)})")
    for field in REQUIRED:
        if field not in obj:
            raise InputError(field, "is required")
    ruleset = obj.get("ruleset", "mahjongsoul")
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        raise InputError(
            "ruleset", f"must be one of {', '.join(RULESETS)}, got {json.dumps(ruleset)}"
        )
    for field in ("seat_wind", "round_wind"):
        if obj[field] not in WINDS or not isinstance(obj[field], str):
            raise InputError(
                field, f"must be one of {', '.join(WINDS)}, got {json.dumps(obj[field])}"
            )
    for field in ("kyotaku", "players"):
        if field in obj and obj[field] is None:
            raise InputError(
                field, "must be a whole number, got null (leave it out for the default)"
            )
    kwargs = {
        "melds": _melds(obj.get("melds", [])),
        "win_type": obj["win_type"],
        "seat_wind": obj["seat_wind"],
        "round_wind": obj["round_wind"],
        **{f: obj.get(f, False) for f in FLAGS},
        "dora_indicators": _list(obj, "dora_indicators"),
        "ura_dora_indicators": _list(obj, "ura_dora_indicators"),
        "honba": obj.get("honba", 0),
        "kyotaku": obj.get("kyotaku"),
        "kita": obj.get("kita", 0),
        "players": obj.get("players"),
        "rules": Rules.preset(ruleset),
    }
    kwargs = check_hand_input(obj["closed"], obj["win_tile"], **kwargs)
    kwargs.pop("yakuman_pay")
    return kwargs


def score_input(obj: Any) -> dict[str, Any]:
    """The result object for one input object (or sample line)."""
    try:
        kwargs = parse_input(obj)
    except InputError as exc:
        return invalid_input(str(exc))
    from engine.scoring.hand_score import score_hand

    closed = kwargs.pop("closed")
    win_tile = kwargs.pop("win_tile")
    try:
        result = score_hand(closed, win_tile, **kwargs)
    except (ValueError, TypeError) as exc:
        return invalid_input(str(exc))
    return result.to_dict()


def score_line(line: str) -> dict[str, Any]:
    """The result object for one JSON line."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return invalid_input(f"line: not valid JSON ({exc})")
    except RecursionError:
        return invalid_input("line: JSON nested deeper than Python's recursion limit")
    except ValueError as exc:  # a number of more than 4300 digits
        return invalid_input(f"line: not valid JSON ({str(exc).split(';')[0]})")
    return score_input(obj)


def score_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """One result per line, in order, so output line N answers input line N: a bad line (a blank
    one included) gives an error result and the stream goes on."""
    for line in lines:
        if line.strip():
            yield score_line(line)
        else:
            yield invalid_input("line: blank line (expected one JSON input object per line)")
