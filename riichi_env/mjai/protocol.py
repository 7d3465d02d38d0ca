"""The mjai bot protocol, both ends: what a seat is shown, and mjai answers <-> action ids.

A bot seat is sent the game's mjai events as its seat sees them (:func:`seat_events`: the other
seats' starting hands and draws are ``"?"``; ``start_game`` carries the bot's seat as ``id``),
one JSON object per line, and answers one JSON object per line whenever it has a decision, as
Mortal's bots do: ``dahai``, ``reach``, ``hora``, ``chi`` / ``pon`` / ``daiminkan`` / ``ankan`` /
``kakan``, ``ryukyoku`` (kyuushu kyuuhai) or ``none`` (no claim). :func:`answer_to_action` reads
an answer into an action id of ``engine/actions.py`` against the table's state and legal mask
(``riichi_env.mjai.seat``, the server end); :func:`action_to_answer` writes an action id as that
answer (``riichi_env.mjai.bot``, the bot end). Both name tiles as ``riichi_env.records`` does.
Three-player games (86-entry masks, action table "v2") add the kita answer, in the dialect of the
records (``riichi_env.records.mjai``): ``{"type":"nukidora","actor":0,"pai":"N"}`` (the Mortal-3p
forks) or ``{"type":"kita",...}`` (RiichiEnv); either is read as ``KITA`` (85).
mjai.app's dialect sends the same events grouped in JSON arrays (:func:`app_lines`) and reads an
answer to every line; :func:`default_action` is the move played for a bot whose answer is bad.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from engine.actions import (
    CHI_HIGH,
    CHI_LOW,
    CHI_MID,
    DISCARD_RED,
    KAN,
    KITA,
    KYUUSHU,
    N_DISCARD_ACTIONS,
    PASS,
    PLAIN_OFFSET,
    PON,
    RIICHI,
    RON,
    TSUMO,
    action_name,
)
from engine.melds import MELD_PON
from engine.rules import RULE_RED_M
from engine.state import PHASE_CLAIM, State
from riichi_env.records.mjai import KITA_EVENTS, SANMA_DIALECTS
from riichi_env.records.notation import from_mjai_name, mjai_name

HIDDEN = "?"
"""What a seat is shown for a tile it cannot see."""
ANSWER_TYPES = ("dahai", "reach", "hora", "chi", "pon", "daiminkan", "ankan", "kakan", "ryukyoku")
"""Answer ``type``s besides ``none`` (and, in a three-player game, the kita ``KITA_EVENTS``)."""
NORTH = 30
"""Kind (tile34) of the North wind, the tile a kita sets aside."""


def seat_events(events: list[dict], seat: int) -> list[dict]:
    """The events as ``seat`` sees them: others' ``tehais`` and ``tsumo`` tiles are ``"?"``."""
    out = []
    for ev in events:
        typ = ev["type"]
        if typ == "start_game":
            ev = {**ev, "id": seat}
        elif typ == "start_kyoku":
            ev = {
                **ev,
                "tehais": [
                    list(h) if s == seat else [HIDDEN] * len(h) for s, h in enumerate(ev["tehais"])
                ],
            }
        elif typ == "tsumo" and ev["actor"] != seat:
            ev = {**ev, "pai": HIDDEN}
        out.append(ev)
    return out


APP_LINE_ENDS = ("start_game", "end_kyoku", "end_game")
"""Events after which mjai.app's dialect ends a line even when the seat has no decision."""


def app_lines(events: list[dict]) -> list[list[dict]]:
    """Events cut into the lines of mjai.app's dialect: a line ends after each ``start_game``,
    ``end_kyoku`` and ``end_game``, and at the end of ``events`` (the seat's decision)."""
    lines: list[list[dict]] = [[]]
    for ev in events:
        lines[-1].append(ev)
        if ev["type"] in APP_LINE_ENDS:
            lines.append([])
    return [line for line in lines if line]


def dumps(ev: Any) -> str:
    """One event as a compact JSON line (without the newline)."""
    return json.dumps(ev, ensure_ascii=False, separators=(",", ":"))


def _red_of(kind: int, rules_row: np.ndarray) -> int:
    """The tile136 of kind ``kind``'s first red copy, -1 if the kind has none."""
    if kind in (4, 13, 22) and int(rules_row[RULE_RED_M + kind // 9]) > 0:
        return 4 * kind
    return -1


def _holds_red(rec, seat: int, kind: int) -> bool:
    red = _red_of(kind, rec["rules"])
    return red >= 0 and bool(rec["closed"][seat, red])


def _is_red(rec, tile: int) -> bool:
    k = tile // 4
    return k in (4, 13, 22) and tile % 4 < int(rec["rules"][RULE_RED_M + k // 9])


def tile_name(rec, tile: int) -> str:
    """mjai name of a tile136 under the table's red fives."""
    return mjai_name(tile // 4, _is_red(rec, tile))


def _legal_names(mask: np.ndarray) -> str:
    return ", ".join(action_name(a) for a in np.flatnonzero(mask))


def _tile_arg(answer: dict, key: str) -> tuple[int, bool]:
    if key not in answer:
        raise ValueError(f'a {answer["type"]} answer needs "{key}"')
    try:
        return from_mjai_name(answer[key])
    except ValueError as exc:
        raise ValueError(f'"{key}": {exc}') from None


def _consumed(answer: dict, n: int) -> list[tuple[int, bool]]:
    tiles = answer.get("consumed")
    if not isinstance(tiles, list) or len(tiles) != n:
        raise ValueError(f'a {answer["type"]} answer needs "consumed": a list of {n} tiles')
    try:
        return [from_mjai_name(x) for x in tiles]
    except ValueError as exc:
        raise ValueError(f'"consumed": {exc}') from None


def chi_shape(kind: int, consumed: list[int]) -> int:
    """``CHI_LOW`` / ``CHI_MID`` / ``CHI_HIGH`` of a chi on ``kind`` taking the two ``consumed``
    kinds from hand, -1 if they make no run with it in one suit."""
    a, b = sorted(consumed)
    if kind >= 27 or b >= 27 or a // 9 != kind // 9 or b // 9 != kind // 9:
        return -1
    return {
        (kind + 1, kind + 2): CHI_LOW,
        (kind - 1, kind + 1): CHI_MID,
        (kind - 2, kind - 1): CHI_HIGH,
    }.get((a, b), -1)


def answer_to_action(answer: Any, state: State, t: int, seat: int, mask: np.ndarray) -> int:
    """The action id of a bot's ``answer`` at table ``t``, where ``seat`` is to act.

    Raises ``ValueError`` saying what is wrong: not an object, an unknown ``type``, a missing or
    malformed field, another seat's ``actor``, a red five it does not hold, a kita of another
    tile than ``N``, or a move that is illegal here (with the legal ones). A kita answer
    (``nukidora`` or ``kita``) is read only in a three-player game (``mask`` of 86 entries).
    """
    if not isinstance(answer, dict) or not isinstance(answer.get("type"), str):
        raise ValueError('an answer must be a JSON object with a "type"')
    typ = answer["type"]
    if "actor" in answer and answer["actor"] != seat:
        raise ValueError(f'"actor" is {answer["actor"]!r}, but the bot plays seat {seat}')
    rec = state.records[t]
    claim = int(rec["phase"]) == PHASE_CLAIM
    three = mask.shape[0] > KITA
    if typ == "none":
        action = PASS
    elif typ == "dahai":
        kind, red = _tile_arg(answer, "pai")
        action = DISCARD_RED + kind // 9 if red else kind
        if red and not _holds_red(rec, seat, kind):
            raise ValueError(f"discards {mjai_name(kind, True)}, which it does not hold")
    elif typ == "reach":
        action = RIICHI
    elif typ == "hora":
        action = RON if claim else TSUMO
    elif typ == "ryukyoku":
        action = KYUUSHU
    elif typ in ("chi", "pon"):
        kind, _ = _tile_arg(answer, "pai")
        used = _consumed(answer, 2)
        kinds = sorted(k for k, _ in used)
        if typ == "pon":
            if kinds != [kind, kind]:
                raise ValueError(f"a pon of {mjai_name(kind, False)} consumes two of that kind")
            base = PON
        else:
            base = chi_shape(kind, kinds)
            if base < 0:
                raise ValueError("chi consumes two tiles that make a run with the called tile")
        red_used = [k for k, r in used if r]
        for k in red_used:
            if not _holds_red(rec, seat, k):
                raise ValueError(f"consumes {mjai_name(k, True)}, which it does not hold")
        plain = base + PLAIN_OFFSET
        action = plain if not red_used and mask[plain] else base
    elif typ in ("daiminkan", "kakan"):
        kind, _ = _tile_arg(answer, "pai")
        action = KAN + kind
    elif typ == "ankan":
        used = _consumed(answer, 4)
        kinds = {k for k, _ in used}
        if len(kinds) != 1:
            raise ValueError("an ankan consumes four tiles of one kind")
        action = KAN + kinds.pop()
    elif three and typ in KITA_EVENTS:
        if "pai" in answer:
            kind, red = _tile_arg(answer, "pai")
            if kind != NORTH or red:
                raise ValueError(
                    f'a {typ} sets a North aside: "pai" must be "N", got {answer["pai"]!r}'
                )
        action = KITA
    else:
        types = (*ANSWER_TYPES, *KITA_EVENTS) if three else ANSWER_TYPES
        raise ValueError(f"unknown answer type {typ!r}; expected none or one of {', '.join(types)}")
    if not 0 <= action < mask.shape[0] or not mask[action]:
        raise ValueError(f"{action_name(action)} is illegal here; legal: {_legal_names(mask)}")
    return int(action)


def default_action(state: State, t: int, seat: int, mask: np.ndarray) -> int:
    """The move played for a bot whose answer is unusable (``bot_errors="substitute"``).

    Pass on an offer; on its own turn the drawn tile (tsumogiri) when that is legal, else the
    first legal discard (lowest action id: 1m .. 7z, then the red fives), else the first legal
    action.
    """
    if mask[PASS]:
        return PASS
    drawn = int(state.records[t]["drawn"])
    if drawn >= 0 and int(state.records[t]["actor"]) == seat:
        kind = drawn // 4
        a = DISCARD_RED + kind // 9 if _is_red(state.records[t], drawn) else kind
        if mask[a]:
            return int(a)
    legal = np.flatnonzero(mask)
    discards = legal[legal < N_DISCARD_ACTIONS]
    return int(discards[0] if discards.size else legal[0])


def _call_tiles(rec, seat: int, kinds: list[int], plain: bool, avoid: int = -1) -> list[int]:
    """The held tile136 ids a call takes: a red five first unless ``plain`` (as the engine does)."""
    taken: list[int] = []
    for k in kinds:
        held = [4 * k + j for j in range(4) if rec["closed"][seat, 4 * k + j]]
        held = [x for x in held if x not in taken and x != avoid]
        reds = [x for x in held if _is_red(rec, x)]
        plains = [x for x in held if not _is_red(rec, x)]
        pick = (plains or reds) if plain else (reds or plains)
        taken.append(pick[0])
    return taken


def action_to_answer(
    action: int, state: State, t: int, seat: int, sanma_dialect: str = "nukidora"
) -> dict:
    """The mjai answer of ``seat`` playing legal ``action`` at table ``t``; a kita (three
    players) is written in ``sanma_dialect`` (``"nukidora"`` or ``"kita"``, its event type)."""
    if sanma_dialect not in SANMA_DIALECTS:
        raise ValueError(f"sanma_dialect must be one of {SANMA_DIALECTS}, got {sanma_dialect!r}")
    rec = state.records[t]
    a = int(action)
    if a == PASS:
        return {"type": "none"}
    if a == KITA:
        return {"type": sanma_dialect, "actor": seat, "pai": mjai_name(NORTH, False)}
    if a < RIICHI:
        kind = a if a < DISCARD_RED else 9 * (a - DISCARD_RED) + 4
        red = a >= DISCARD_RED
        d = int(rec["drawn"])
        tsumogiri = d >= 0 and d // 4 == kind and _is_red(rec, d) == red
        return {"type": "dahai", "actor": seat, "pai": mjai_name(kind, red), "tsumogiri": tsumogiri}
    if a == RIICHI:
        return {"type": "reach", "actor": seat}
    if a in (TSUMO, RON):
        tile = int(rec["drawn"]) if a == TSUMO else int(rec["claim_tile"])
        target = seat if a == TSUMO else int(rec["claim_from"])
        return {"type": "hora", "actor": seat, "target": target, "pai": tile_name(rec, tile)}
    if a == KYUUSHU:
        return {"type": "ryukyoku", "actor": seat}
    claim_tile = int(rec["claim_tile"])
    plain = CHI_LOW + PLAIN_OFFSET <= a <= PON + PLAIN_OFFSET
    base = a - PLAIN_OFFSET if plain else a
    if CHI_LOW <= base <= PON:
        k = claim_tile // 4
        kinds = {
            PON: [k, k],
            CHI_LOW: [k + 1, k + 2],
            CHI_MID: [k - 1, k + 1],
            CHI_HIGH: [k - 2, k - 1],
        }[base]
        tiles = _call_tiles(rec, seat, kinds, plain)
        return {
            "type": "pon" if base == PON else "chi",
            "actor": seat,
            "target": int(rec["claim_from"]),
            "pai": tile_name(rec, claim_tile),
            "consumed": [tile_name(rec, x) for x in tiles],
        }
    k = a - KAN
    held = [4 * k + j for j in range(4) if rec["closed"][seat, 4 * k + j]]
    if int(rec["phase"]) == PHASE_CLAIM:
        return {
            "type": "daiminkan",
            "actor": seat,
            "target": int(rec["claim_from"]),
            "pai": tile_name(rec, claim_tile),
            "consumed": [tile_name(rec, x) for x in held],
        }
    for m in range(int(rec["n_melds"][seat])):
        if int(rec["meld_type"][seat, m]) == MELD_PON and int(rec["meld_tile34"][seat, m]) == k:
            pon = [int(x) for x in rec["meld_tiles"][seat, m] if x >= 0]
            return {
                "type": "kakan",
                "actor": seat,
                "pai": tile_name(rec, held[0]),
                "consumed": [tile_name(rec, x) for x in pon],
            }
    return {"type": "ankan", "actor": seat, "consumed": [tile_name(rec, x) for x in held]}


__all__ = [
    "APP_LINE_ENDS",
    "HIDDEN",
    "NORTH",
    "app_lines",
    "action_to_answer",
    "answer_to_action",
    "chi_shape",
    "default_action",
    "dumps",
    "seat_events",
    "tile_name",
]
