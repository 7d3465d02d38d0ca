"""riichi_env.dataset.pack: a record packed from a reader's compact events is the record packed
from its events, and a wall that cannot be is named as the reason."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import numpy as np
import pytest
from test_records_fast import record_texts

from riichi_env.batch.arena import arena
from riichi_env.dataset.pack import _engine_wall, pack_game
from riichi_env.records.convert import read_file
from riichi_env.records.mjai import _read_checked, _read_fast
from riichi_env.records.model import Event, compact_events
from riichi_env.records.replay import rules_for

SEATS = ["random", "greedy", "efficiency", "simple"]


def _same(a, b) -> None:
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), f.name
        else:
            assert x == y, f.name


@pytest.fixture(scope="module")
def texts(tmp_path_factory) -> list[str]:
    """Stored records as mjai, and fresh four- and three-player arena games."""
    out = tmp_path_factory.mktemp("arena")
    arena(SEATS, games=12, seed=21, log_dir=out / "4", progress=False)
    arena(SEATS[:3], games=6, seed=22, rules="mahjongsoul-3p", log_dir=out / "3", progress=False)
    games = [p.read_text(encoding="utf-8") for p in sorted(out.rglob("*.mjson"))]
    assert len(games) == 18
    return [*record_texts(), *games]


@pytest.mark.parametrize("players", [4, 3])
def test_compact_events_pack_as_their_events(texts, players):
    packed = 0
    for text in texts:
        game = _read_fast(text, "x.mjson", (1, 1, 1))
        if game is None or game.players != players:
            continue
        want = _read_checked(text, "x.mjson", (1, 1, 1))
        compact = [compact_events(h) is not None for h in game.hands]
        assert sum(compact) >= len(compact) // 2
        _same(pack_game(game, rules_for(game)), pack_game(want, rules_for(want)))
        if players == 4:  # packing four players builds no Event of a draw or discard
            assert [compact_events(h) is not None for h in game.hands] == compact
        packed += 1
    assert packed >= (30 if players == 4 else 10)


def _hand():
    """A game read from a stored record, and its first hand's events as a list."""
    log = Path(__file__).resolve().parents[2] / "data" / "logs" / "tenhou6" / "ranked_game.json"
    game = read_file(log)
    return game, game.hands[0]


def test_a_wall_that_cannot_be_names_why():
    game, hand = _hand()
    draws = [e.tile for e in hand.events if e.type == "draw" and not e.rinshan]
    wall, known = _engine_wall(hand, draws, [])
    assert sorted(wall.tolist()) == list(range(136)) and known.sum() >= 52 + len(draws)
    cases = {
        "seat 1 is dealt 12 tiles, not 13": lambda h: h.haipai[1].pop(),
        f"tile id {hand.haipai[0][0]} appears 2 times": lambda h: h.haipai[1].__setitem__(
            0, h.haipai[0][0]
        ),
        "a tile id outside 0-135": lambda h: h.haipai[2].__setitem__(0, 140),
        "71 draws and 0 replacement draws: more than a wall has": lambda h: h.events.extend(
            [Event("draw", 0, -1)] * (71 - len(draws))
        ),
    }
    for message, damage in cases.items():
        bad = copy.deepcopy(game)
        damage(bad.hands[0])
        packed = pack_game(bad, rules_for(bad))
        assert packed.errors[0] == (0, hand.label, f"wall: {message}")
        assert packed.hand_ids[0] == 1  # the other hands are packed


def _fast_game():
    """A stored four-player record read by the fast reader, every hand's events compact."""
    for text in record_texts():
        game = _read_fast(text, "x.mjson", (1, 1, 1))
        compact = game is not None and all(compact_events(h) is not None for h in game.hands)
        if compact and game.players == 4 and len(game.hands) > 2:
            return game
    raise AssertionError("no stored record reads compactly")


def test_a_compact_record_packs_in_one_compiled_call(monkeypatch):
    """A record the fast reader holds compactly has every hand's script and wall made by one
    ``pack_hands`` call, the same arrays as its events packed hand by hand."""
    import riichi_env.dataset.pack as pack

    game = _fast_game()
    calls = []
    real = pack.pack_hands
    monkeypatch.setattr(pack, "pack_hands", lambda *a: calls.append(1) or real(*a))
    packed = pack_game(game, rules_for(game))
    assert calls == [1]
    events = copy.deepcopy(game)
    for h in events.hands:
        h.events = list(h.events)  # built: the hand-by-hand path
    _same(packed, pack_game(events, rules_for(events)))


def test_a_compact_record_whose_wall_cannot_be_names_why():
    """In a compact record, a hand whose wall cannot be is named as in any other record (the
    hand-by-hand path takes over), the other hands packed."""
    game = _fast_game()
    hand = game.hands[0]
    cases = {
        "seat 1 is dealt 12 tiles, not 13": lambda h: h.haipai[1].pop(),
        f"tile id {hand.haipai[0][0]} appears 2 times": lambda h: h.haipai[1].__setitem__(
            0, h.haipai[0][0]
        ),
        "a tile id outside 0-135": lambda h: h.haipai[2].__setitem__(0, 140),
    }
    for message, damage in cases.items():
        bad = copy.deepcopy(game)
        damage(bad.hands[0])
        packed = pack_game(bad, rules_for(bad))
        assert packed.errors == [(0, hand.label, f"wall: {message}")]
        assert packed.hand_ids.tolist() == list(range(1, len(game.hands)))
