"""Helpers for the engine's rule scenario tests (``tests/engine/test_scenario_*.py``, the
three-player ``test_sanma_*.py`` and others in this folder).

Scenarios start a hand with ``engine.harness.scenario.start_hand`` on a constructed wall and drive it one
decision at a time. Every helper that steps checks whose decision it is and fails with a message
that reads like the table: each seat's concealed hand and river in mpsz, the phase, the legal
actions and the tail of the event log.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine import actions as A  # noqa: N812
from engine.actions import action_name
from engine.events import (
    EV_DELTA,
    EV_DORA,
    EV_HAND_END,
    EV_HAND_START,
    EV_RYUUKYOKU,
    EV_WIN,
    EV_YAKU,
)
from engine.game import Game
from engine.harness.invariants import validate
from engine.harness.scenario import start_hand
from engine.rules import MAHJONGSOUL_3P, TENHOU_3P
from engine.scoring.yaku import YAKU_KEYS
from engine.state import LIVE_END, LIVE_END_3P
from engine.tiles import _parse_groups, tile136_to_str

__all__ = [
    "A",
    "act",
    "advance_to",
    "assert_legal",
    "assert_not_legal",
    "describe",
    "discard",
    "discard_id",
    "hand_events",
    "last_draw_kind",
    "last_wins",
    "pass_claims",
    "pon_three",
    "play_out",
    "random_game",
    "river",
    "start_hand",
    "t34",
    "tsumogiri",
    "tsumogiri_each",
    "tsumogiri_pass",
    "table",
    "kyoku_honba",
    "live_left",
    "yaku_of",
    "QUIET",
    "PINLESS",
    "by_rules",
    "by_seat",
    "four_kans_by_two",
    "sanma_haku_tsumo",
    "sanma_nagashi",
    "sanma_presets",
    "sanma_ron",
    "sanma_pao_daisangen",
]


def t34(tile: str) -> int:
    """tile34 of one mpsz tile (``"5m"``, ``"0p"`` = red 5p, ``"7z"``)."""
    groups = _parse_groups(tile)
    if len(groups) != 1:
        raise ValueError(f"one tile expected, got {tile!r}")
    return groups[0][0]


def discard_id(tile: str) -> int:
    """Action id discarding ``tile`` (``"0m"`` = the red five)."""
    kind, red = _parse_groups(tile)[0]
    return A.DISCARD_RED + kind // 9 if red else A.DISCARD + kind


def _name(action: int) -> str:
    return action_name(action)


def river(g, seat: int) -> str:
    """Seat's discards in order, mpsz per tile; ``*`` marks a riichi tile, ``^`` a called one."""
    st = g.state
    out = []
    for i in range(int(st.n_river[0, seat])):
        s = tile136_to_str(int(st.river[0, seat, i]), g.rules.red_fives)
        flags = int(st.river_flags[0, seat, i])
        out.append(s + ("*" if flags & 2 else "") + ("^" if flags & 4 else ""))
    return " ".join(out) or "-"


def _melds(g, seat: int) -> str:
    st = g.state
    from engine.melds import MELD_NAMES

    parts = []
    for i in range(int(st.n_melds[0, seat])):
        ids = [int(x) for x in st.meld_tiles[0, seat, i] if x >= 0]
        tiles = "".join(tile136_to_str(x, g.rules.red_fives) for x in ids)
        parts.append(f"{MELD_NAMES[int(st.meld_type[0, seat, i])]}[{tiles}]")
    return " ".join(parts)


def describe(g, note: str = "") -> str:
    """The table as text: every seat's hand, melds, river and status, then the last log lines."""
    st = g.state
    lines = [note] if note else []
    lines.append(
        f"phase {g.phase}, actor S{g.actor}, turn S{g.turn}, points {g.points}, "
        f"kyoku {int(st.kyoku[0])} honba {int(st.honba[0])} sticks {int(st.kyotaku[0])}, "
        f"live wall left {live_left(g)}"
    )
    for s in range(4):
        melds = _melds(g, s)
        flags = []
        if st.riichi[0, s]:
            flags.append("riichi" if st.riichi[0, s] == 1 else "double riichi")
        if st.furiten_temp[0, s]:
            flags.append("temp furiten")
        if st.furiten_riichi[0, s]:
            flags.append("riichi furiten")
        lines.append(
            f"  S{s}: {g.hand(s)}{' + ' + melds if melds else ''}  river: {river(g, s)}"
            f"{'  (' + ', '.join(flags) + ')' if flags else ''}"
        )
    if not g.done:
        lines.append("  legal: " + ", ".join(_name(a) for a in g.legal_actions()))
    lines.append("  log tail:")
    lines.extend("    " + line for line in g.render()[-12:])
    return "\n".join(lines)


def act(g, seat: int, action: int, note: str = "") -> None:
    """Seat ``seat`` takes ``action``; fails with the table if it is not that seat's legal move."""
    if g.done:
        raise AssertionError(describe(g, f"game over; S{seat} wanted to {_name(action)} {note}"))
    if g.actor != seat:
        raise AssertionError(
            describe(g, f"expected S{seat} to act ({_name(action)}), but S{g.actor} acts {note}")
        )
    legal = g.legal_mask()
    if not legal[action]:
        raise AssertionError(
            describe(g, f"S{seat} cannot {_name(action)}: {g.explain(action)} {note}")
        )
    g.step(action)


def discard(g, seat: int, tile: str) -> None:
    """Seat discards ``tile`` (mpsz)."""
    act(g, seat, discard_id(tile), f"(discard {tile})")


def tsumogiri(g, seat: int | None = None) -> None:
    """The turn seat discards the tile it just drew."""
    s = g.actor if seat is None else seat
    drawn = int(g.state.drawn[0])
    if drawn < 0:
        raise AssertionError(describe(g, f"S{s} has no drawn tile to discard"))
    tile = tile136_to_str(drawn, g.rules.red_fives)
    act(g, s, discard_id(tile), f"(tsumogiri {tile})")


def tsumogiri_each(g, seats) -> None:
    """Each of ``seats`` in turn discards the tile it just drew."""
    for s in seats:
        tsumogiri(g, s)


def tsumogiri_pass(g, seats) -> None:
    """Each of ``seats`` in turn discards the tile it just drew; every claim on it is passed."""
    for s in seats:
        tsumogiri(g, s)
        pass_claims(g)


def pass_claims(g) -> None:
    """Every seat asked about the offered tile passes."""
    while not g.done and g.phase == "claim":
        act(g, g.actor, A.PASS)


def pon_three(g, offered: tuple[str, str, str], drops: tuple[str, str, str]) -> None:
    """Seat 1 pons seat 0's ``offered[0]``, then seat 2's ``offered[1]`` and ``offered[2]``,
    discarding ``drops[i]`` after the i-th pon."""
    for seat, tile, drop in zip((0, 2, 2), offered, drops, strict=True):
        discard(g, seat, tile)
        act(g, 1, A.PON)
        discard(g, 1, drop)


def play_out(g, max_steps: int = 400) -> None:
    """Everyone tsumogiris and passes until the hand ends."""
    start = int(g.state.hand_index[0])
    for _ in range(max_steps):
        if g.done or int(g.state.hand_index[0]) != start:
            return
        if g.phase == "claim":
            pass_claims(g)
        else:
            tsumogiri(g)
    raise AssertionError(describe(g, "the hand did not end"))


def random_game(rules, seed: int, prefer: int | None = None):
    """A whole game of random legal actions (``prefer`` whenever it is legal), every state
    validated: the finished ``Game`` and how many times ``prefer`` was taken."""
    g = Game(rules, seed=seed)
    rng = np.random.default_rng(seed)
    taken = 0
    while not g.done:
        legal = g.legal_actions()
        a = prefer if prefer in legal else int(rng.choice(legal))
        taken += a == prefer
        g.step(a)
        assert not validate(g.state), describe(g)
    return g, taken


def advance_to(g, seat: int, max_discards: int = 200) -> None:
    """Tsumogiri and pass every claim until ``seat`` is at its turn decision."""
    for _ in range(max_discards):
        pass_claims(g)
        if g.done or (g.phase == "turn" and g.actor == seat):
            return
        if g.phase == "riichi discard":
            raise AssertionError(describe(g, "advance_to reached a riichi discard"))
        tsumogiri(g)
    raise AssertionError(describe(g, f"S{seat} never got a turn"))


def assert_legal(g, seat: int, action: int, note: str = "") -> None:
    """``action`` is legal for ``seat``, who acts now."""
    if g.actor != seat or not g.legal_mask()[action]:
        raise AssertionError(describe(g, f"expected S{seat} may {_name(action)} {note}"))


def assert_not_legal(g, seat: int, action: int, note: str = "") -> None:
    """``action`` is not offered to ``seat`` now (it may not be ``seat``'s decision at all)."""
    if g.actor == seat and g.legal_mask()[action]:
        raise AssertionError(describe(g, f"S{seat} must not be offered {_name(action)} {note}"))


def hand_events(g, back: int = 1) -> np.ndarray:
    """Event rows of a finished hand: ``back=1`` is the last hand that ended."""
    rows = g.events()
    starts = [i for i, r in enumerate(rows) if r[0] == EV_HAND_START]
    ends = [i for i, r in enumerate(rows) if r[0] == EV_HAND_END]
    if len(ends) < back:
        raise AssertionError(describe(g, "no finished hand in the log"))
    end = ends[-back]
    start = max(i for i in starts if i < end)
    return rows[start : end + 1]


def last_wins(g) -> list[dict]:
    """The wins of the last finished hand: winner, from seat, tile, han, fu, yakuman, pao, delta."""
    out = []
    rows = hand_events(g)
    for i, r in enumerate(rows):
        if r[0] == EV_WIN:
            win = {
                "winner": int(r[1]),
                "from": int(r[2]),
                "tile": tile136_to_str(int(r[3])),
                "han": int(r[4]),
                "fu": int(r[5]),
                "yakuman": int(r[6]),
                "pao": int(r[7]),
                "yaku": {},
            }
            for r2 in rows[i + 1 :]:
                if r2[0] == EV_YAKU:
                    for y, v in ((r2[2], r2[3]), (r2[4], r2[5]), (r2[6], r2[7])):
                        if y >= 0:
                            win["yaku"][YAKU_KEYS[int(y)]] = int(v)
                elif r2[0] == EV_DELTA:
                    win["delta"] = [int(x) for x in r2[2:6]]
                    win["sticks"] = int(r2[6])
                    break
                elif r2[0] == EV_WIN:
                    break
            out.append(win)
    return out


def last_draw_kind(g) -> int | None:
    """``DRAW_*`` of the last finished hand, or None if it ended in a win."""
    for r in hand_events(g):
        if r[0] == EV_RYUUKYOKU:
            return int(r[2])
    return None


def ryuukyoku_row(g) -> np.ndarray | None:
    """The RYUUKYOKU row of the last finished hand."""
    for r in hand_events(g):
        if r[0] == EV_RYUUKYOKU:
            return r
    return None


def dora_indicators(g) -> list[str]:
    """Dora indicators revealed so far in the current hand (mpsz)."""
    rows = g.events()
    start = max(i for i, r in enumerate(rows) if r[0] == EV_HAND_START)
    return [tile136_to_str(int(r[2])) for r in rows[start:] if r[0] == EV_DORA]


def kyoku_honba(g) -> tuple[int, int]:
    """The current hand's kyoku and honba."""
    return int(g.state.kyoku[0]), int(g.state.honba[0])


def hand_deltas(g) -> list[int]:
    """Point change of each seat in the last finished hand (``last_delta``)."""
    return [int(x) for x in g.state.last_delta[0]]


QUIET = ("147m258p369s1234z", "258m369p147s1567z", "369m147p258s2347z")
"""Hands that can never call (no pairs, no two tiles within two steps) and are far from tenpai.
Together they hold one copy of every suited kind and 1z 2z 3z 4z 7z twice, 5z 6z once."""


def table(hands: dict[int, str], **kwargs):
    """``start_hand`` with the given seats' hands; the other seats get ``QUIET`` hands in order."""
    quiet = iter(QUIET)
    full = [hands[s] if s in hands else next(quiet) for s in range(4)]
    return start_hand(hands=full, **kwargs)


def live_left(g) -> int:
    """Tiles left to draw from the live wall: every kan and every kita (three players) moves one
    into the dead wall."""
    st = g.state
    end = LIVE_END if g.rules.players == 4 else LIVE_END_3P
    n = int(st.n_kans[0]) + int(st.n_kita[0].sum())
    return int(end - n - int(st.wall_pos[0]))


def yaku_of(g, winner: int) -> dict[str, int]:
    """Yaku (key → han or yakuman multiplier) of ``winner`` in the last finished hand."""
    for w in last_wins(g):
        if w["winner"] == winner:
            return w["yaku"]
    raise AssertionError(describe(g, f"S{winner} did not win the last hand"))


PINLESS = ("147m147s1234567z", "258m258s1234567z", "369m369s1234567z")
"""Quiet hands without pin tiles (no pairs, no chi shapes): every pin kind is free for the test
hand; they hold one of each m/s kind and three of each honor (one honor of each kind is left)."""


def four_kans_by_two(hand3: str = PINLESS[2]):
    """S0 ankans 1p, 2p and 3p (drawing 6p and rinshan 7p 8p 9p) and discards 9p; S1 then ankans
    4p on its draw: four kans by two seats (S3 holds ``hand3``)."""
    hands = ["1111p2222p3333p5p", "444p258m258s1234z", PINLESS[0], hand3]
    g = start_hand(hands=hands, draws="6p 4p", rinshan="7p 8p 9p 9m", dora="5z")
    for k in ("1p", "2p", "3p"):
        act(g, 0, A.KAN + t34(k))
    act(g, 0, A.DISCARD + t34("9p"))
    pass_claims(g)
    act(g, 1, A.KAN + t34("4p"))
    return g


# -- three players ------------------------------------------------------------------------------


def by_rules(*rules) -> pytest.MarkDecorator:
    """``pytest.mark.parametrize`` over ``rules`` (``Rules`` presets), each named by its name."""
    return pytest.mark.parametrize("rules", rules, ids=lambda r: r.name)


def sanma_presets(suffix: str, **changes) -> tuple:
    """``mahjongsoul-3p`` and ``tenhou-3p`` with ``changes``, named ``{preset}-{suffix}``."""
    return tuple(
        r.replace(**changes, name=f"{r.name}-{suffix}") for r in (MAHJONGSOUL_3P, TENHOU_3P)
    )


def by_seat(dealer: int, hands: list[str]) -> list[str]:
    """Four hands by absolute seat from three by offset from the dealer (seat 3 absent)."""
    return [hands[(s - dealer) % 3] for s in range(3)] + [""]


SANMA_PAO_WINNER = "55z66z77z234s5p1p9p9m"  # pons 5z, 6z, 7z; then waits on 5p (tanki)


def sanma_pao_daisangen(rules, honba: int = 0, last: str = "7p"):
    """Seat 1 pons seat 0's 5z, then seat 2's 6z and 7z: seat 2 is liable for daisangen. Then
    seat 2 tsumogiris, seat 0 draws ``last`` and seat 1 waits on 5p."""
    hands = ["5z19m147p258s1237z", SANMA_PAO_WINNER, "6z7z19m369p147s123z", ""]
    g = start_hand(hands=hands, draws=f"1s 8p 8s 9s {last}", dora="8p", honba=honba,
                   rules=rules)  # fmt: skip
    pon_three(g, ("5z", "6z", "7z"), ("9m", "1p", "9p"))
    assert int(g.state.pao_seat[0, 1]) == 2, describe(g, "seat 2 is liable")
    tsumogiri(g, 2)
    pass_claims(g)
    return g


SANMA_HAKU = "45p789p123s99s555z"  # waits 3p-6p; haku: tsumo 2 han 30 fu
SANMA_DEALER = "39p19m147s123467z"  # discards 3p
SANMA_THIRD = "1m258p369s123467z"


def sanma_haku_tsumo(rules, dealer: bool):
    """Seat 1 holds ``SANMA_HAKU`` and wins by tsumo on 3p (2 han 30 fu): a non-dealer in East 1,
    or the dealer in East 2 with one honba."""
    if dealer:
        g = start_hand(hands=[SANMA_THIRD, SANMA_HAKU, SANMA_DEALER, ""], draws="9m 1z 2z 3p",
                       dora="4z", kyoku=1, honba=1, rules=rules)  # fmt: skip
    else:
        g = start_hand(hands=[SANMA_DEALER, SANMA_HAKU, SANMA_THIRD, ""], draws="9m 1z 2z 9m 3p",
                       dora="4z", rules=rules)  # fmt: skip
    for _ in range(3 if dealer else 4):
        tsumogiri(g)
        pass_claims(g)
    act(g, 1, A.TSUMO)
    return g


SANMA_TERMINALS = ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"] * 2
"""Terminals and honors in the order a nagashi hand draws them (the first 19: the dealer's)."""


def sanma_nagashi(seat: int, hands: list[str], dora: str, rules):
    """A three-player hand in which ``seat`` draws only ``SANMA_TERMINALS`` and tsumogiris to the
    exhaustive draw (``seed=11``)."""
    draws = ["?"] * 55
    for j in range(19 if seat == 0 else 18):
        draws[seat + 3 * j] = SANMA_TERMINALS[j]
    g = start_hand(hands=hands, draws=draws, dora=dora, rules=rules, seed=11)
    play_out(g)
    return g


def sanma_ron(
    kyoku: int,
    rules,
    dealer_wins: bool = False,
    discarder: str = SANMA_DEALER,
    third: str = SANMA_THIRD,
    dora: str = "4z",
    **kwargs,
):
    """The first 3p discarded is ronned with ``SANMA_HAKU``: the dealer (holding ``discarder``)
    deals it in to the next seat (1,300), or with ``dealer_wins`` the next seat (holding
    ``discarder``) to the dealer (2,000). ``kwargs`` go to ``start_hand``."""
    d = kyoku % 4
    winner, loser = (d, (d + 1) % 3) if dealer_wins else ((d + 1) % 3, d)
    hands = [SANMA_HAKU, discarder, third] if dealer_wins else [discarder, SANMA_HAKU, third]
    g = start_hand(hands=by_seat(d, hands), draws="9m 9p" if dealer_wins else "9m", dora=dora,
                   kyoku=kyoku, rules=rules, **kwargs)  # fmt: skip
    if dealer_wins:  # the dealer draws and discards first
        tsumogiri(g, d)
        pass_claims(g)
    discard(g, loser, "3p")
    act(g, winner, A.RON)
    return g
