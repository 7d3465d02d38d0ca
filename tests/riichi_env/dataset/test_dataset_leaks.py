"""No hidden information in the dataset's columns.

A seat's row may show only what that seat saw. The audit: in a real record, swap a concealed
tile of one seat with one of another (tiles neither ever shows: never discarded, called, won
with, revealed), so that every public event stays the same; then every non-oracle column of
every row of the two *other* seats must be equal. The two seats' own rows change (their hands
and the offers they get), and the rows of the others must not show it: the ``step`` column once
counted every seat's decisions, so the offers the swapped seats declined moved the others' steps.
"""

from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest
from test_records_helpers import LOGS

from riichi_env.core.encoders import ENCODERS
from riichi_env.dataset.convert import COLUMNS, Converter
from riichi_env.records.convert import read_file

RECORDS = ["bug1.xml", "bug2.xml", "bug4.xml", "bug6.xml", "bug9.xml", "example.xml", "pao.xml"]
"""Four-player Tenhou records the engine replays without a difference (tests/data/logs)."""


def _shown(hand) -> set[int]:
    """The tile ids a hand ever shows: moves, calls, wins, indicators."""
    seen = set(hand.dora_indicators) | set(hand.ura_indicators)
    for ev in hand.events:
        seen.add(ev.tile)
        seen.update(ev.consumed)
    for w in hand.wins:
        seen.update(w.hand or ())
        seen.add(w.win_tile)
    return seen


def _swaps(game, per_hand: int = 1):
    """``(hand index, seat b, tile x, seat c, tile y)``: concealed tiles of two seats that neither
    shows, of other kinds, in hands won by a third seat (a draw would show tenpai hands) where
    neither declares riichi (a swap may break its tenpai)."""
    for h, hand in enumerate(game.hands):
        if not hand.wins:
            continue
        winners = {w.seat for w in hand.wins}
        riichi = {ev.seat for ev in hand.events if ev.type == "riichi"}
        shown = _shown(hand)
        found = 0
        for b, c in itertools.combinations(range(4), 2):
            if {b, c} & (winners | riichi):
                continue
            xs = [t for t in hand.haipai[b] if t not in shown]
            ys = [t for t in hand.haipai[c] if t not in shown]
            for x, y in itertools.product(xs, ys):
                if x // 4 != y // 4 and found < per_hand:
                    found += 1
                    yield h, b, x, c, y


def _swapped(game, h, b, x, c, y):
    out = copy.deepcopy(game)
    hand = out.hands[h]
    hand.haipai[b] = [y if t == x else t for t in hand.haipai[b]]
    hand.haipai[c] = [x if t == y else t for t in hand.haipai[c]]
    out.shuffle_seed = ""  # the seed's walls no longer fit that hand (the oracle is not compared)
    for other in out.hands:
        other.wall = None
    return out


def _of(rows, seats):
    pick = np.isin(rows["seat"], list(seats))
    return {k: v[pick] for k, v in rows.items()}


@pytest.mark.parametrize("encoder", [e for e in ENCODERS if not e.startswith("oracle")])
def test_other_seats_concealed_tiles_never_show_in_a_seats_rows(encoder):
    conv = Converter(encoder)
    pairs = changed = 0
    for name in RECORDS:
        game = read_file(LOGS / "tenhou-mjlog" / name)
        game.shuffle_seed = ""
        base = conv.convert_game(game, name)
        skips = len(conv.stats.skipped)
        for h, b, x, c, y in _swaps(game):
            rows = conv.convert_game(_swapped(game, h, b, x, c, y), name)
            if len(conv.stats.skipped) != skips:  # the swap broke the hand: not a pair
                skips = len(conv.stats.skipped)
                continue
            pairs += 1
            others = set(range(4)) - {b, c}
            mine, theirs = _of(base, others), _of(rows, others)
            where = f"{name} hand {h}: seats {b} and {c} swap tiles {x} and {y}"
            assert len(mine["action"]) == len(theirs["action"]), where
            for k in COLUMNS:
                assert np.array_equal(mine[k], theirs[k], equal_nan=k == "final_score"), (
                    f"{where}: column {k} of seats {sorted(others)} changed"
                )
            swapped_seats = _of(base, {b, c}), _of(rows, {b, c})
            changed += len(swapped_seats[0]["action"]) != len(swapped_seats[1]["action"])
    assert pairs >= 40
    assert changed >= 5  # the swaps change the swapped seats' offers (their pass rows)
