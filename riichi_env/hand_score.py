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

from engine.melds import MELD_TYPES
from engine.rules import PRESETS, Rules
from engine.scoring import SITUATIONAL_FLAGS
from engine.tiles import FIVES, SUITS, _parse_groups, tile34_to_str

WINDS = ("E", "S", "W", "N")
"""Wind letters of the format, seat order."""
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
    "ruleset",
)
FIELDS = REQUIRED + OPTIONAL
"""Every field an input object may have."""
MAX_INDICATORS = 5
"""One dora indicator at the start plus one per kan (at most four)."""
MAX_COUNTER = 1000
"""Largest honba or kyotaku accepted (far beyond any game; keeps payments in int32)."""


class InputError(ValueError):
    """An input object broke the format; ``field`` names the offending field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def invalid_input(message: str) -> dict[str, Any]:
    """The result object for input that could not be scored."""
    return {"valid": False, "error": "invalid_input", "message": message}


def _tiles(field: str, value: Any) -> list[tuple[int, bool]]:
    """(tile34, is_red) of an mpsz string field."""
    if not isinstance(value, str):
        raise InputError(field, f"must be an mpsz string, got {json.dumps(value)}")
    if not value.strip():
        raise InputError(field, "is empty")
    try:
        return _parse_groups(value)
    except (ValueError, TypeError) as exc:
        raise InputError(field, str(exc)) from None


def _one_tile(field: str, value: Any) -> tuple[int, bool]:
    tiles = _tiles(field, value)
    if len(tiles) != 1:
        raise InputError(field, f"must be exactly one tile, got {value!r}")
    return tiles[0]


def _bool(obj: Mapping[str, Any], field: str) -> bool:
    value = obj.get(field, False)
    if not isinstance(value, bool):
        raise InputError(field, f"must be true or false, got {json.dumps(value)}")
    return value


def _count(obj: Mapping[str, Any], field: str) -> int:
    value = obj.get(field, 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(field, f"must be a whole number, got {json.dumps(value)}")
    if not 0 <= value <= MAX_COUNTER:
        raise InputError(field, f"must be 0-{MAX_COUNTER}, got {value}")
    return value


def _choice(obj: Mapping[str, Any], field: str, choices: tuple[str, ...], default=None) -> str:
    value = obj.get(field, default)
    if value is None:
        raise InputError(field, "is required")
    if value not in choices:
        raise InputError(field, f"must be one of {', '.join(choices)}, got {json.dumps(value)}")
    return value


def _indicators(obj: Mapping[str, Any], field: str) -> list[tuple[int, bool]]:
    value = obj.get(field, [])
    if not isinstance(value, list):
        raise InputError(field, f"must be a list of tiles, got {json.dumps(value)}")
    if len(value) > MAX_INDICATORS:
        raise InputError(field, f"has {len(value)} indicators, at most {MAX_INDICATORS}")
    return [_one_tile(f"{field}[{i}]", tile) for i, tile in enumerate(value)]


def _melds(value: Any) -> list[tuple[str, str, list[tuple[int, bool]]]]:
    """(type, tiles, parsed tiles) of each meld; checks each is a real chi, pon or kan."""
    if not isinstance(value, list):
        raise InputError("melds", f"must be a list, got {json.dumps(value)}")
    if len(value) > 4:
        raise InputError("melds", f"has {len(value)} melds, at most 4")
    out = []
    for i, meld in enumerate(value):
        where = f"melds[{i}]"
        if not isinstance(meld, dict):
            raise InputError(
                where, f'must be an object {{"type", "tiles"}}, got {json.dumps(meld)}'
            )
        kind = meld.get("type")
        if kind not in MELD_TYPES:
            raise InputError(
                f"{where}.type", f"must be one of {', '.join(MELD_TYPES)}, got {json.dumps(kind)}"
            )
        if "tiles" not in meld:
            raise InputError(f"{where}.tiles", "is required")
        tiles = _tiles(f"{where}.tiles", meld["tiles"])
        kinds = sorted(t for t, _ in tiles)
        text = meld["tiles"]
        if kind == "chi":
            ok = (
                len(kinds) == 3
                and kinds[0] < 27
                and kinds[0] // 9 == kinds[2] // 9
                and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]
            )
            if not ok:
                raise InputError(f"{where}.tiles", f"{text!r} is not a chi (three in a row)")
        else:
            size = 3 if kind == "pon" else 4
            if len(kinds) != size or len(set(kinds)) != 1:
                raise InputError(
                    f"{where}.tiles", f"{text!r} is not a {kind} ({size} identical tiles)"
                )
        out.append((kind, text, tiles))
    return out


def parse_input(obj: Any) -> dict[str, Any]:
    """Check an input object (or a sample line holding one) and return ``score_hand`` kwargs.

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

    ruleset = _choice(obj, "ruleset", tuple(PRESETS), "mahjongsoul")
    rules = Rules.preset(ruleset)
    closed = _tiles("closed", obj["closed"])
    win34, win_red = _one_tile("win_tile", obj["win_tile"])
    melds = _melds(obj.get("melds", []))
    win_type = _choice(obj, "win_type", WIN_TYPES)
    seat_wind = _choice(obj, "seat_wind", WINDS)
    round_wind = _choice(obj, "round_wind", WINDS)
    flags = {f: _bool(obj, f) for f in FLAGS}
    dora = _indicators(obj, "dora_indicators")
    ura = _indicators(obj, "ura_dora_indicators")
    honba = _count(obj, "honba")
    kyotaku = _count(obj, "kyotaku")

    want = 14 - 3 * len(melds)
    if len(closed) != want:
        raise InputError(
            "closed",
            f"has {len(closed)} tiles; with {len(melds)} meld(s) it must have {want} "
            "(the winning tile included)",
        )
    if (win34, win_red) not in closed:
        shown = f"0{SUITS[win34 // 9]}" if win_red else tile34_to_str(win34)
        raise InputError("win_tile", f"{shown} is not among the closed tiles {obj['closed']!r}")

    _check_physical(closed, melds, dora, ura, rules)
    _check_situation(flags, melds, win_type, seat_wind, kyotaku, rules)

    riichi = flags["riichi"] or flags["double_riichi"] or flags["open_riichi"]
    return {
        "closed": obj["closed"],
        "win_tile": obj["win_tile"],
        "melds": tuple((kind, text) for kind, text, _ in melds),
        "win_type": win_type,
        "seat_wind": seat_wind,
        "round_wind": round_wind,
        **flags,
        "riichi": riichi,
        "dora_indicators": tuple(obj.get("dora_indicators", [])),
        "ura_dora_indicators": tuple(obj.get("ura_dora_indicators", [])),
        "honba": honba,
        "kyotaku": kyotaku,
        "rules": rules,
    }


def _check_physical(closed, melds, dora, ura, rules: Rules) -> None:
    """At most four of a kind and no more red fives than the ruleset has, indicators included."""
    counts = [0] * 34
    reds = [0, 0, 0]
    plain = dict.fromkeys(FIVES, 0)
    sources = [("closed", closed)] + [(f"melds[{i}].tiles", m[2]) for i, m in enumerate(melds)]
    sources += [("dora_indicators", dora), ("ura_dora_indicators", ura)]
    for field, tiles in sources:
        for t, red in tiles:
            counts[t] += 1
            if counts[t] > 4:
                raise InputError(field, f"makes a fifth copy of {tile34_to_str(t)}")
            if t in FIVES and not red:
                plain[t] += 1
                n_red = rules.red_fives[t // 9]
                if plain[t] > 4 - n_red:
                    raise InputError(
                        field,
                        f"has plain {tile34_to_str(t)} number {plain[t]}, but ruleset {rules.name}"
                        f" makes {n_red} of the four red; write it as 0{SUITS[t // 9]}",
                    )
            if red:
                suit = t // 9
                reds[suit] += 1
                if reds[suit] > rules.red_fives[suit]:
                    raise InputError(
                        field,
                        f"has red 0{SUITS[suit]} number {reds[suit]}; ruleset {rules.name} has "
                        f"{rules.red_fives[suit]}",
                    )


def _check_situation(flags, melds, win_type, seat_wind, kyotaku, rules: Rules) -> None:
    """Situational yaku that cannot happen together (RULES.md, spec 003)."""
    tsumo = win_type == "tsumo"
    open_meld = next((kind for kind, _, _ in melds if kind != "ankan"), None)
    has_kan = any(kind in ("daiminkan", "kakan", "ankan") for kind, _, _ in melds)
    riichi = flags["riichi"] or flags["double_riichi"] or flags["open_riichi"]
    for f in ("riichi", "double_riichi", "open_riichi"):
        if flags[f] and open_meld:
            raise InputError(f, f"needs a closed hand, but melds has a {open_meld}")
    if flags["open_riichi"] and not rules.open_riichi:
        raise InputError("open_riichi", f"is not played in ruleset {rules.name}")
    if riichi and kyotaku < 1:
        raise InputError("kyotaku", "must be >= 1 with riichi (the winner's own stick counts)")
    if flags["ippatsu"] and not riichi:
        raise InputError("ippatsu", "needs riichi")
    if flags["ippatsu"] and flags["rinshan"]:
        raise InputError("ippatsu", "is broken by the kan that rinshan follows")
    if flags["rinshan"] and not (tsumo and has_kan):
        raise InputError("rinshan", "needs win_type tsumo and a kan in melds")
    if flags["chankan"] and tsumo:
        raise InputError("chankan", "needs win_type ron")
    if flags["haitei"] and (not tsumo or flags["rinshan"]):
        raise InputError("haitei", "needs win_type tsumo on the last live-wall tile (not rinshan)")
    if flags["houtei"] and (tsumo or flags["chankan"]):
        raise InputError("houtei", "needs win_type ron on the last discard (not chankan)")
    for f, dealer in (("tenhou", True), ("chiihou", False)):
        if not flags[f]:
            continue
        if (seat_wind == "E") != dealer:
            raise InputError(f, "needs seat_wind E" if dealer else "needs a seat_wind other than E")
        if not tsumo:
            raise InputError(f, "needs win_type tsumo")
        if melds:
            raise InputError(f, "is broken by any call, a closed kan included (melds not empty)")
        if riichi:
            raise InputError(f, "cannot follow a riichi")


def score_input(obj: Any) -> dict[str, Any]:
    """The result object for one input object (or sample line)."""
    try:
        kwargs = parse_input(obj)
    except InputError as exc:
        return invalid_input(str(exc))
    from engine.scoring import score_hand

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
    return score_input(obj)


def score_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """One result per non-blank line, in order; bad lines give error results and do not stop."""
    for line in lines:
        if line.strip():
            yield score_line(line)
