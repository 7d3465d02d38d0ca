"""Scoring a hand from Python: ``score_hand`` (the hand-score format, validated input) and
``HandResult``. The kernel is ``engine/scoring/kernel.py``; limits and payments are
``engine/scoring/payment.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from engine.arguments import (
    InputError,
    InputTypeError,
    describe,
    is_int,
)
from engine.melds import MELD_ANKAN, MELD_CHI, MELD_DAIMINKAN, MELD_KAKAN, MELD_PON, MELD_TYPES
from engine.rules import (
    MAHJONGSOUL,
    PRESETS,
    PRESETS_3P,
    Rules,
    as_rules,
)
from engine.scoring import layout
from engine.scoring.kernel import (
    N_WORK,
    _score_hand,
    _score_hands_batch,
    new_work,
)
from engine.scoring.layout import *  # noqa: F403 (re-exported: the kernel's vectors, ``layout.__all__``)
from engine.scoring.payment import (
    _ceil100,
    _limit_base,
    _limit_name,
    _payments,
    _payments_3p,
    _payments_dict,
    payment,
)
from engine.scoring.yaku import (
    N_YAKU,
    Y_DORA,
    Y_URA_DORA,
    YAKU_KEYS,
    YAKU_YAKUMAN,
)
from engine.tiles import FIVES, N_KINDS, _parse_groups, tile34_to_str

# ---------------------------------------------------------------------------------------------
# Public API

WINDS = "ESWN"
SITUATIONAL_FLAGS = (
    "riichi",
    "double_riichi",
    "open_riichi",
    "ippatsu",
    "rinshan",
    "chankan",
    "haitei",
    "houtei",
    "tenhou",
    "chiihou",
)
"""The hand-score format's boolean situational fields, all default false."""
_BOOL_FLAGS = (*SITUATIONAL_FLAGS, "yakuman_pay")


@dataclass(frozen=True)
class HandResult:
    """The score of one hand, field for field the hand-score format's result object.

    Attributes:
        valid: True for a scoring win.
        han: Total han, dora included; 13 x the yakuman multiplier for yakuman hands.
        fu: Rounded fu (25 for chiitoitsu); meaningless for yakuman hands.
        yaku: ``{"key", "han"}`` dicts in table order (yakuman entries add ``"yakuman": n`` and
            carry ``"han": 13 * n``); ``dora``, ``aka_dora``, ``ura_dora`` appear when non-zero.
        yakuman_multiplier: 0, or the sum of the yakuman (double ones count 2).
        limit: ``""``, ``"mangan"`` ... ``"sanbaiman"``, ``"kazoe yakuman"``, ``"yakuman"``,
            ``"2x yakuman"`` ...
        payments: ``{"ron": X}``, ``{"tsumo_all": X}`` (dealer tsumo) or
            ``{"tsumo_dealer": X, "tsumo_nondealer": Y}``; honba included, sticks excluded.
        winner_gain: Payments plus 1000 x kyotaku.
        error: ``""`` when valid, else ``"no_yaku"`` or ``"not_agari"``.
    """

    valid: bool
    han: int = 0
    fu: int = 0
    yaku: tuple = ()
    yakuman_multiplier: int = 0
    limit: str = ""
    payments: Mapping[str, int] = field(default_factory=dict)
    winner_gain: int = 0
    error: str = ""

    def to_dict(self) -> dict:
        """The hand-score format's result object."""
        if not self.valid:
            return {"valid": False, "error": self.error}
        return {
            "valid": True,
            "han": self.han,
            "fu": self.fu,
            "yaku": [dict(y) for y in self.yaku],
            "yakuman_multiplier": self.yakuman_multiplier,
            "limit": self.limit,
            "payments": dict(self.payments),
            "winner_gain": self.winner_gain,
        }


MAX_KITA = 4
"""At most four Norths can be set aside (there are four)."""
_NORTH = 30
_WEST = 29
_SANMA_REMOVED_KINDS = range(1, 8)
"""2m-8m: not in the three-player tile set."""


def _players_rules(rules: Rules, players) -> Rules:
    """The rules for ``players`` seats: ``rules`` itself, or a preset's three-player (or
    four-player) version when ``rules`` is that preset (``"mahjongsoul"`` + 3 = ``mahjongsoul-3p``)."""
    if players is None:
        return rules
    if not is_int(players) or players not in (3, 4):
        raise InputError("players", f"must be 3 or 4, got {describe(players)}")
    if players == rules.players:
        return rules
    name = rules.name
    other = f"{name}-3p" if players == 3 else name.removesuffix("-3p")
    known = PRESETS_3P if players == 3 else PRESETS
    preset = PRESETS.get(name) or PRESETS_3P.get(name)
    if other in known and rules == preset:
        return known[other]
    choices = ", ".join(sorted(PRESETS_3P if players == 3 else PRESETS))
    raise InputError(
        "players",
        f"is {players}, but rules {name!r} are {rules.players}-player rules without a "
        f"{players}-player preset (choose from {choices})",
    )


def _tiles(name: str, text) -> list[tuple[int, bool]]:
    """(tile34, is_red) of an mpsz string argument."""
    if not isinstance(text, str):
        raise InputTypeError(name, f"must be an mpsz string, got {describe(text)}")
    if not text.strip():
        raise InputError(name, "is empty")
    try:
        return _parse_groups(text)
    except (ValueError, TypeError) as exc:
        raise InputError(name, str(exc)) from None


def _one_tile(name: str, text) -> tuple[int, bool]:
    tiles = _tiles(name, text)
    if len(tiles) != 1:
        raise InputError(name, f"must be exactly one tile, got {text!r}")
    return tiles[0]


def _tile_text(tile: tuple[int, bool]) -> str:
    t, red = tile
    return f"0{'mps'[t // 9]}" if red else tile34_to_str(t)


def _parse_wind(name: str, wind) -> int:
    if isinstance(wind, str) and wind in WINDS and len(wind) == 1:
        return WINDS.index(wind)
    if is_int(wind) and 0 <= wind <= 3:
        return int(wind)
    raise InputError(name, f"must be one of E, S, W, N (or 0-3), got {describe(wind)}")


def _parse_melds(melds) -> list[tuple[int, int, str, str, list[tuple[int, bool]]]]:
    """(meld type, lowest kind, type name, tiles text, parsed tiles) of each meld."""
    if isinstance(melds, (str, bytes, Mapping)) or not isinstance(melds, Iterable):
        raise InputTypeError("melds", f"must be a list of melds, got {describe(melds)}")
    melds = list(melds)
    if len(melds) > 4:
        raise InputError("melds", f"has {len(melds)} melds, at most 4")
    parsed = []
    for i, meld in enumerate(melds):
        name = f"melds[{i}]"
        if isinstance(meld, Mapping):
            if "type" not in meld:
                raise InputError(f"{name}.type", "is required")
            if "tiles" not in meld:
                raise InputError(f"{name}.tiles", "is required")
            kind, text = meld["type"], meld["tiles"]
        elif isinstance(meld, Sequence) and not isinstance(meld, str) and len(meld) == 2:
            kind, text = meld
        else:
            raise InputTypeError(
                name, f"must be (type, tiles) or {{'type', 'tiles'}}, got {describe(meld)}"
            )
        if not isinstance(kind, str) or kind not in MELD_TYPES:
            raise InputError(
                f"{name}.type", f"must be one of {', '.join(MELD_TYPES)}, got {describe(kind)}"
            )
        mt = MELD_TYPES[kind]
        tiles = _tiles(f"{name}.tiles", text)
        kinds = sorted(t for t, _ in tiles)
        if mt == MELD_CHI:
            ok = (
                len(kinds) == 3
                and kinds[0] < 27
                and kinds[0] // 9 == kinds[2] // 9
                and kinds[1] == kinds[0] + 1
                and kinds[2] == kinds[0] + 2
            )
            what = "three consecutive tiles of one suit"
        elif mt == MELD_PON:
            ok = len(kinds) == 3 and kinds[0] == kinds[2]
            what = "three identical tiles"
        else:
            ok = len(kinds) == 4 and kinds[0] == kinds[3]
            what = "four identical tiles"
        if not ok:
            raise InputError(f"{name}.tiles", f"{text!r} is not a {kind}: needs {what}")
        parsed.append((mt, kinds[0], kind, text, tiles))
    return parsed


def _check_count(name: str, value) -> int:
    if not is_int(value):
        raise InputTypeError(name, f"must be a whole number, got {describe(value)}")
    if not 0 <= value <= layout.MAX_COUNTER:
        raise InputError(name, f"must be 0-{layout.MAX_COUNTER}, got {value}")
    return int(value)


def _indicators(name: str, values) -> list[tuple[int, bool]]:
    if isinstance(values, str):
        out = _tiles(name, values) if values.strip() else []
    elif isinstance(values, (bytes, Mapping)) or not isinstance(values, Iterable):
        raise InputTypeError(name, f"must be a list of tiles, got {describe(values)}")
    else:
        out = [_one_tile(f"{name}[{i}]", v) for i, v in enumerate(values)]
    if len(out) > layout.MAX_INDICATORS:
        raise InputError(name, f"has {len(out)} indicators, at most {layout.MAX_INDICATORS}")
    return out


def _check_physical(closed, melds, dora, ura, rules: Rules, kita: int = 0) -> None:
    """At most four of a kind and no more red (or plain) fives than the ruleset has, the dora
    indicators (and the kita Norths) included: the hand, the melds and the indicators are all
    tiles of one set; with three players that set has no 2m-8m."""
    counts = [0] * N_KINDS
    reds = [0, 0, 0]
    plain = [0, 0, 0]
    sources = [("closed", closed)] + [(f"melds[{i}].tiles", m[4]) for i, m in enumerate(melds)]
    sources += [("dora_indicators", dora), ("ura_dora_indicators", ura)]
    sources += [("kita", [(_NORTH, False)] * kita)]
    for name, tiles in sources:
        for t, red in tiles:
            if rules.players == 3 and t in _SANMA_REMOVED_KINDS:
                raise InputError(
                    name,
                    f"has {tile34_to_str(t)}, which is not in the three-player set (2m-8m "
                    f"removed; ruleset {rules.name})",
                )
            counts[t] += 1
            if counts[t] > 4:
                where = "hand, melds, indicators and kita" if kita else "hand, melds and indicators"
                raise InputError(name, f"makes a fifth copy of {tile34_to_str(t)} ({where})")
            if t not in FIVES:
                continue
            suit = t // 9
            n_red = rules.red_fives[suit]
            if red:
                reds[suit] += 1
                if reds[suit] > n_red:
                    raise InputError(
                        name,
                        f"has red 0{'mps'[suit]} number {reds[suit]}; ruleset {rules.name} has "
                        f"{n_red}",
                    )
            else:
                plain[suit] += 1
                if plain[suit] > 4 - n_red:
                    raise InputError(
                        name,
                        f"has plain {tile34_to_str(t)} number {plain[suit]}, but ruleset "
                        f"{rules.name} makes {n_red} of the four red; write it as 0{'mps'[suit]}",
                    )


def _check_situation(
    flags, melds, tsumo: bool, dealer: bool, kyotaku, rules: Rules, kita: int = 0
) -> int:
    """Situational yaku that cannot happen together (docs/rules.md, Mahjong Soul rules); the kyotaku to use."""
    open_meld = next((kind for mt, _, kind, _, _ in melds if mt != MELD_ANKAN), None)
    has_kan = any(mt in (MELD_DAIMINKAN, MELD_KAKAN, MELD_ANKAN) for mt, *_ in melds)
    riichi = _any_riichi(flags)
    for f in ("riichi", "double_riichi", "open_riichi"):
        if flags[f] and open_meld:
            raise InputError(f, f"needs a closed hand, but melds has a {open_meld}")
    if flags["open_riichi"] and not rules.open_riichi:
        raise InputError("open_riichi", f"is not played in ruleset {rules.name}")
    if kyotaku is None:
        kyotaku = 1 if riichi else 0
    elif riichi and kyotaku < 1:
        raise InputError(
            "kyotaku",
            f"must be >= 1 with riichi (the winner's own stick is on the table), got {kyotaku}; "
            "leave it out for the default 1",
        )
    if flags["ippatsu"] and not riichi:
        raise InputError("ippatsu", "needs riichi")
    if flags["ippatsu"] and flags["rinshan"]:
        raise InputError("ippatsu", "is broken by the kan (or kita) that rinshan follows")
    if flags["rinshan"] and not (tsumo and (has_kan or kita)):
        raise InputError("rinshan", "needs win_type tsumo and a kan in melds (or a kita)")
    if flags["chankan"] and tsumo:
        raise InputError("chankan", "needs win_type ron")
    if flags["haitei"] and (not tsumo or flags["rinshan"]):
        raise InputError("haitei", "needs win_type tsumo on the last live-wall tile (not rinshan)")
    if flags["houtei"] and (tsumo or flags["chankan"]):
        raise InputError("houtei", "needs win_type ron on the last discard (not chankan)")
    for f, need_dealer in (("tenhou", True), ("chiihou", False)):
        if not flags[f]:
            continue
        if dealer != need_dealer:
            raise InputError(
                f, "needs seat_wind E" if need_dealer else "needs a seat_wind other than E"
            )
        if not tsumo:
            raise InputError(f, "needs win_type tsumo")
        if melds:
            raise InputError(f, "is broken by any call, a closed kan included (melds not empty)")
        if kita:
            raise InputError(f, "is broken by a kita (kita not 0)")
        if riichi:
            raise InputError(f, "cannot follow a riichi")
    if flags["yakuman_pay"] and (tsumo or not flags["open_riichi"]):
        raise InputError(
            "yakuman_pay", "only a ron (by a player not in riichi) into the winner's open riichi"
        )
    return kyotaku


class _HandArgs(NamedTuple):
    """The arguments of ``score_hand`` and ``check_hand_input`` (one hand's), as given."""

    closed: Any
    win_tile: Any
    melds: Any
    win_type: Any
    seat_wind: Any
    round_wind: Any
    riichi: Any
    double_riichi: Any
    open_riichi: Any
    ippatsu: Any
    rinshan: Any
    chankan: Any
    haitei: Any
    houtei: Any
    tenhou: Any
    chiihou: Any
    dora_indicators: Any
    ura_dora_indicators: Any
    honba: Any
    kyotaku: Any
    kita: Any
    players: Any
    rules: Any
    yakuman_pay: Any


class _Hand(NamedTuple):
    """A checked hand: the parsed pieces ``score_hand`` scores."""

    rules: Rules
    closed: list[tuple[int, bool]]
    """(tile34, is_red) of the closed tiles, the winning tile included."""
    win: tuple[int, bool]
    melds: list[tuple[int, int, str, str, list[tuple[int, bool]]]]
    """``_parse_melds``'s."""
    tsumo: bool
    seat_wind: int
    round_wind: int
    flags: dict[str, bool]
    """``_BOOL_FLAGS`` by name."""
    dora: list[tuple[int, bool]]
    ura: list[tuple[int, bool]]
    honba: int
    kyotaku: int
    """Resolved (``_check_situation``)."""
    kita: int


def _parse_input(a: _HandArgs) -> _Hand:
    """Every check of ``score_hand``'s arguments, in the order the hand-score format names them;
    the parsed hand."""
    rules = _parse_rules(a.rules, a.players)
    closed = _tiles("closed", a.closed)
    win = _one_tile("win_tile", a.win_tile)
    melds = _parse_melds(a.melds)
    if a.win_type not in ("ron", "tsumo") or not isinstance(a.win_type, str):
        raise InputError("win_type", f"must be 'ron' or 'tsumo', got {describe(a.win_type)}")
    tsumo = a.win_type == "tsumo"
    seat = _parse_wind("seat_wind", a.seat_wind)
    round_ = _parse_wind("round_wind", a.round_wind)
    if rules.players == 3:
        _check_three_player(seat, round_, melds)
    kita = _check_kita(a.kita, rules)
    flags = _check_flags(a)
    dora = _indicators("dora_indicators", a.dora_indicators)
    ura = _indicators("ura_dora_indicators", a.ura_dora_indicators)
    honba = _check_count("honba", a.honba)
    kyotaku = None if a.kyotaku is None else _check_count("kyotaku", a.kyotaku)
    _check_closed(closed, win, melds, a.closed)
    _check_physical(closed, melds, dora, ura, rules, kita)
    kyotaku = _check_situation(flags, melds, tsumo, seat == 0, kyotaku, rules, kita)
    return _Hand(
        rules, closed, win, melds, tsumo, seat, round_, flags, dora, ura, honba, kyotaku, kita
    )


def _parse_rules(rules, players) -> Rules:
    """The ``rules`` argument (a preset name or a ``Rules``) for ``players`` seats."""
    if not isinstance(rules, (str, Rules)):
        raise InputTypeError(
            "rules", f"must be a preset name or an engine.rules.Rules, got {describe(rules)}"
        )
    try:
        rules_obj = as_rules(rules)
    except ValueError as exc:
        raise InputError("rules", str(exc)) from None
    return _players_rules(rules_obj, players)


def _check_three_player(seat: int, round_: int, melds) -> None:
    """No North seat or round and no chi with three players."""
    for name, wind in (("seat_wind", seat), ("round_wind", round_)):
        if wind == 3:
            raise InputError(
                name, "is N, but with three players no seat and no round is North (E, S, W)"
            )
    for i, (mt, *_rest) in enumerate(melds):
        if mt == MELD_CHI:
            raise InputError(f"melds[{i}].type", "is chi, which three players do not play")


def _check_kita(kita, rules: Rules) -> int:
    """The Norths set aside: 0-4, and none where the ruleset has no kita."""
    if not is_int(kita):
        raise InputTypeError("kita", f"must be a whole number, got {describe(kita)}")
    if not 0 <= kita <= MAX_KITA:
        raise InputError("kita", f"must be 0-{MAX_KITA}, got {kita}")
    kita = int(kita)
    if kita and not rules.kita:
        raise InputError(
            "kita",
            f"is {kita}, but ruleset {rules.name} has no kita (a three-player rule)",
        )
    return kita


def _check_flags(a: _HandArgs) -> dict[str, bool]:
    """The boolean arguments (``_BOOL_FLAGS``) by name, each True or False."""
    flags = {name: getattr(a, name) for name in _BOOL_FLAGS}
    for name in _BOOL_FLAGS:
        if not isinstance(flags[name], (bool, np.bool_)):
            raise InputTypeError(name, f"must be True or False, got {describe(flags[name])}")
        flags[name] = bool(flags[name])
    return flags


def _check_closed(closed_tiles, win, melds, closed) -> None:
    """The closed tiles number 14 less 3 a meld and hold the winning tile."""
    want = 14 - 3 * len(melds)
    if len(closed_tiles) != want:
        raise InputError(
            "closed",
            f"{len(closed_tiles)} tiles; with {len(melds)} meld(s) it must have {want} "
            "(the winning tile included)",
        )
    if win not in closed_tiles:
        raise InputError("win_tile", f"{_tile_text(win)} is not among the closed tiles {closed!r}")


def _any_riichi(flags: dict[str, bool]) -> bool:
    """Whether the hand is in riichi (double and open riichi included)."""
    return flags["riichi"] or flags["double_riichi"] or flags["open_riichi"]


def check_hand_input(
    closed: str,
    win_tile: str,
    *,
    melds=(),
    win_type: str = "ron",
    seat_wind: str | int = "E",
    round_wind: str | int = "E",
    riichi: bool = False,
    double_riichi: bool = False,
    open_riichi: bool = False,
    ippatsu: bool = False,
    rinshan: bool = False,
    chankan: bool = False,
    haitei: bool = False,
    houtei: bool = False,
    tenhou: bool = False,
    chiihou: bool = False,
    dora_indicators=(),
    ura_dora_indicators=(),
    honba: int = 0,
    kyotaku: int | None = None,
    kita: int = 0,
    players: int | None = None,
    rules: Rules | str = MAHJONGSOUL,
    yakuman_pay: bool = False,
) -> dict:
    """Check ``score_hand``'s arguments without scoring; the same arguments, normalized.

    The one validation path of hand scoring: ``score_hand``, the hand-score JSON reader and the
    ``riichi-env score`` command all go through it. The result has the same keys as
    ``score_hand``'s parameters: ``riichi`` is True when any riichi flag is, ``kyotaku`` is
    resolved (1 with riichi when not given), ``melds`` are ``(type, tiles)`` pairs, indicators are
    tuples of one-tile strings, ``rules`` is a ``Rules`` (the three-player preset when
    ``players=3`` named a four-player one) and ``players`` is its number of players.

    Raises:
        engine.arguments.InputError: a ``ValueError`` (``InputTypeError``, also a ``TypeError``,
            for a value of the wrong type) whose ``field`` names the argument; the message starts
            with it.
    """
    h = _parse_input(_HandArgs(**locals()))  # first: locals() holds exactly the arguments
    return {
        "closed": closed,
        "win_tile": win_tile,
        "melds": tuple((kind, text) for _, _, kind, text, _ in h.melds),
        "win_type": "tsumo" if h.tsumo else "ron",
        "seat_wind": WINDS[h.seat_wind],
        "round_wind": WINDS[h.round_wind],
        **{name: h.flags[name] for name in SITUATIONAL_FLAGS},
        "riichi": _any_riichi(h.flags),
        "dora_indicators": tuple(_tile_text(t) for t in h.dora),
        "ura_dora_indicators": tuple(_tile_text(t) for t in h.ura),
        "honba": h.honba,
        "kyotaku": h.kyotaku,
        "kita": h.kita,
        "players": h.rules.players,
        "rules": h.rules,
        "yakuman_pay": h.flags["yakuman_pay"],
    }


def score_hand(
    closed: str,
    win_tile: str,
    *,
    melds=(),
    win_type: str = "ron",
    seat_wind: str | int = "E",
    round_wind: str | int = "E",
    riichi: bool = False,
    double_riichi: bool = False,
    open_riichi: bool = False,
    ippatsu: bool = False,
    rinshan: bool = False,
    chankan: bool = False,
    haitei: bool = False,
    houtei: bool = False,
    tenhou: bool = False,
    chiihou: bool = False,
    dora_indicators=(),
    ura_dora_indicators=(),
    honba: int = 0,
    kyotaku: int | None = None,
    kita: int = 0,
    players: int | None = None,
    rules: Rules | str = MAHJONGSOUL,
    yakuman_pay: bool = False,
) -> HandResult:
    """Score a winning hand (hand-score format semantics).

    Args:
        closed: Concealed tiles including the winning tile, mpsz (``0`` = red five).
        win_tile: The winning tile (one of ``closed``).
        melds: Called melds as ``(type, mpsz)`` pairs or ``{"type", "tiles"}`` dicts; types
            ``chi``, ``pon``, ``daiminkan``, ``kakan``, ``ankan``.
        win_type: ``"ron"`` or ``"tsumo"``.
        seat_wind: ``E S W N`` (or 0-3); the winner is the dealer when it is ``E``.
        round_wind: ``E S W N`` (or 0-3).
        riichi, double_riichi, open_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou,
            chiihou: Situational yaku (double and open riichi imply riichi).
        dora_indicators, ura_dora_indicators: Indicator tiles (lists of tiles or one mpsz
            string); ura counts only with riichi. They are tiles of the same set as the hand:
            a fifth copy of a kind, or a red five the ruleset lacks, is refused.
        honba: Repeat counters (+300 a ron, +100 per payer a tsumo; three players: +200 a ron).
        kyotaku: Riichi sticks on the table, the winner's own included, added to
            ``winner_gain``. ``None`` (not given): 1 with riichi, else 0; 0 with riichi is
            refused.
        kita: Norths the winner set aside (three players, ``rules.kita``): one han of nuki dora
            each, one more per West indicator (and per West ura indicator with riichi); counted
            in ``dora`` / ``ura_dora``, not for yakuman hands.
        players: 3 or 4; ``None``: the rules'. 3 with a four-player preset scores its
            three-player preset (``"mahjongsoul"`` → ``mahjongsoul-3p``). Three players: no
            2m-8m, no chi, no North seat or round, indicator 1m makes 9m the dora, and a tsumo is
            paid by two seats (tsumo loss; north bisection with ``tsumo_loss`` off) with honba
            100 per payer (a ron 200 per honba).
        rules: A ``Rules`` object or preset name.
        yakuman_pay: The winner is in open riichi and the discarder was not in riichi: the ron
            pays at least a yakuman (needs ``open_riichi`` and ``win_type="ron"``).

    Returns:
        A ``HandResult`` (``valid=False`` with ``error`` ``"not_agari"`` or ``"no_yaku"``).

    Raises:
        ValueError, TypeError: malformed input (``engine.arguments.InputError``); the message
            starts with the field's name. The checks are ``check_hand_input``'s.
    """
    h = _parse_input(_HandArgs(**locals()))  # first: locals() holds exactly the arguments
    return _score(h)


def _score(h: _Hand) -> HandResult:
    """Score a checked hand with the kernel; with three players, the nuki dora and the two
    payers' payments after it."""
    rules_arr = h.rules.to_array()
    three = h.rules.players == 3
    dora, ura = _dora_kinds(h.dora, three), _dora_kinds(h.ura, three)
    closed34, melds_arr, n_aka = _hand_arrays(h)
    ctx = _context(h, n_aka, len(dora), len(ura))
    out = np.zeros(layout.N_RES, dtype=np.int32)
    yaku_out = np.zeros(N_YAKU, dtype=np.int32)
    _score_hand(
        closed34,
        melds_arr,
        len(h.melds),
        h.win[0],
        ctx,
        _indicator_array(dora),
        _indicator_array(ura),
        rules_arr,
        new_work(),
        out,
        yaku_out,
    )
    if three and out[layout.RES_STATUS] == layout.STATUS_OK:
        ura_counted = ura if _any_riichi(h.flags) else []
        _three_player_result(out, yaku_out, h.kita, dora, ura_counted, rules_arr)
        gain = _payments_3p(
            int(out[layout.RES_BASE]),
            h.seat_wind == 0,
            bool(h.tsumo),
            int(h.honba),
            h.rules.tsumo_loss,
            out,
        )
        out[layout.RES_WINNER_GAIN] = gain + 1000 * h.kyotaku
    return result_from_arrays(out, yaku_out)


def _dora_kinds(indicators: list[tuple[int, bool]], three: bool) -> list[int]:
    """The kinds of the indicators; with three players (no 2m-8m) indicator 1m reads as 8m, so
    that 9m is the dora."""
    kinds = [t for t, _ in indicators]
    return [7 if t == 0 else t for t in kinds] if three else kinds


def _indicator_array(kinds: list[int]) -> np.ndarray:
    """The kernel's ``int32[MAX_INDICATORS]`` of indicator kinds."""
    arr = np.zeros(layout.MAX_INDICATORS, dtype=np.int32)
    arr[: len(kinds)] = kinds
    return arr


def _hand_arrays(h: _Hand) -> tuple[np.ndarray, np.ndarray, int]:
    """The kernel's closed counts (``uint8[34]``) and melds (``int32[4, 2]``: type, lowest kind),
    and the red fives of the hand and the melds."""
    closed34 = np.zeros(N_KINDS, dtype=np.uint8)
    red = [0, 0, 0]
    for t, is_red in h.closed:
        closed34[t] += 1
        if is_red:
            red[t // 9] += 1
    melds_arr = np.zeros((4, 2), dtype=np.int32)
    for i, (mt, low, _, _, tiles) in enumerate(h.melds):
        melds_arr[i] = mt, low
        for t, is_red in tiles:
            if is_red:
                red[t // 9] += 1
    return closed34, melds_arr, sum(red)


def _context(h: _Hand, n_aka: int, n_dora: int, n_ura: int) -> np.ndarray:
    """The kernel's situation vector (``int32[N_CTX]``, ``CTX_*``) of a checked hand."""
    flags = h.flags
    ctx = np.zeros(layout.N_CTX, dtype=np.int32)
    ctx[layout.CTX_TSUMO] = h.tsumo
    ctx[layout.CTX_SEAT_WIND] = h.seat_wind
    ctx[layout.CTX_ROUND_WIND] = h.round_wind
    ctx[layout.CTX_RIICHI] = 2 if flags["double_riichi"] else (1 if _any_riichi(flags) else 0)
    ctx[layout.CTX_OPEN_RIICHI] = flags["open_riichi"]
    ctx[layout.CTX_IPPATSU] = flags["ippatsu"]
    ctx[layout.CTX_RINSHAN] = flags["rinshan"]
    ctx[layout.CTX_CHANKAN] = flags["chankan"]
    ctx[layout.CTX_HAITEI] = flags["haitei"]
    ctx[layout.CTX_HOUTEI] = flags["houtei"]
    ctx[layout.CTX_TENHOU] = flags["tenhou"]
    ctx[layout.CTX_CHIIHOU] = flags["chiihou"]
    ctx[layout.CTX_HONBA] = h.honba
    ctx[layout.CTX_KYOTAKU] = h.kyotaku
    ctx[layout.CTX_N_AKA] = n_aka
    ctx[layout.CTX_N_DORA] = n_dora
    ctx[layout.CTX_N_URA] = n_ura
    ctx[layout.CTX_YAKUMAN_PAY] = flags["yakuman_pay"]
    return ctx


def _three_player_result(out, yaku_out, kita: int, dora, ura, rules_arr) -> None:
    """Add the nuki dora of ``kita`` Norths set aside to a scored hand, as the game does
    (``engine.settlement._score_win``): one han each, one more per West dora indicator and per
    West ura indicator (``ura`` empty without riichi); none for a yakuman hand."""
    if kita == 0 or out[layout.RES_YAKUMAN] > 0:
        return
    extra = kita * (1 + sum(t == _WEST for t in dora))
    extra_ura = kita * sum(t == _WEST for t in ura)
    yaku_out[Y_DORA] += extra
    yaku_out[Y_URA_DORA] += extra_ura
    han = int(out[layout.RES_HAN]) + extra + extra_ura
    out[layout.RES_HAN] = han
    if out[layout.RES_BASE] < 8000:  # not an open-riichi yakuman payment
        limit, base = _limit_base(han, int(out[layout.RES_FU]), 0, rules_arr)
        out[layout.RES_LIMIT] = limit
        out[layout.RES_BASE] = base


def result_from_arrays(out: np.ndarray, yaku_out: np.ndarray) -> HandResult:
    """A ``HandResult`` from a kernel's ``out`` and ``yaku_out`` vectors."""
    status = int(out[layout.RES_STATUS])
    if status == layout.STATUS_NOT_AGARI:
        return HandResult(valid=False, error="not_agari")
    if status == layout.STATUS_NO_YAKU:
        return HandResult(valid=False, error="no_yaku")
    yaku = []
    for y in range(N_YAKU):
        v = int(yaku_out[y])
        if v == 0:
            continue
        if YAKU_YAKUMAN[y]:
            yaku.append({"key": YAKU_KEYS[y], "han": 13 * v, "yakuman": v})
        else:
            yaku.append({"key": YAKU_KEYS[y], "han": v})
    mult = int(out[layout.RES_YAKUMAN])
    limit = _limit_name(int(out[layout.RES_LIMIT]), mult)
    payments = _payments_dict(out)
    return HandResult(
        valid=True,
        han=int(out[layout.RES_HAN]),
        fu=int(out[layout.RES_FU]),
        yaku=tuple(yaku),
        yakuman_multiplier=mult,
        limit=limit,
        payments=payments,
        winner_gain=int(out[layout.RES_WINNER_GAIN]),
    )


__all__ = [
    *layout.__all__,
    "HandResult",
    "N_WORK",
    "SITUATIONAL_FLAGS",
    "_ceil100",
    "_limit_base",
    "_payments",
    "_score_hand",
    "_score_hands_batch",
    "check_hand_input",
    "new_work",
    "payment",
    "result_from_arrays",
    "score_hand",
]
