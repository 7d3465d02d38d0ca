"""Shanten tables, shanten, agari, waits and ukeire."""

import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine._numba import njit
from engine.shanten import (
    N_COLS,
    _is_agari,
    _shanten,
    _shanten_batch,
    _shanten_chiitoitsu,
    _shanten_kokushi,
    _shanten_standard,
    _ukeire,
    _waits,
    shanten,
    ukeire,
    waits,
)
from engine.tables import Tables, load_tables
from engine.tiles import EAST, HAKU, M1, M2, M9, hand34_to_str, parse_hand34, parse_tile34

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)


@pytest.fixture(scope="module")
def tables() -> Tables:
    return load_tables()


@njit(cache=False)  # a cache would land in tests/engine/__pycache__
def _brute_table(n_kinds, runs):
    """Table by definition: 0 if the pattern contains m sets (+ a pair), else 1 + best draw."""
    n_codes = 5**n_kinds
    w = np.empty(n_kinds, np.int64)
    for i in range(n_kinds):
        w[i] = 5 ** (n_kinds - 1 - i)
    has = np.zeros((n_codes, N_COLS), np.bool_)
    d = np.empty(n_kinds, np.int64)
    for code in range(n_codes):
        x = code
        for i in range(n_kinds - 1, -1, -1):
            d[i] = x % 5
            x //= 5
        has[code, 0] = True
        for col in range(1, N_COLS):
            m = col % 5
            found = False
            if m >= 1:
                for i in range(n_kinds):
                    if d[i] >= 3 and has[code - 3 * w[i], col - 1]:
                        found = True
                if runs:
                    for i in range(n_kinds - 2):
                        has_run = d[i] >= 1 and d[i + 1] >= 1 and d[i + 2] >= 1
                        if has_run and has[code - w[i] - w[i + 1] - w[i + 2], col - 1]:
                            found = True
            if col >= 5:
                for i in range(n_kinds):
                    if d[i] >= 2 and has[code - 2 * w[i], m]:
                        found = True
            has[code, col] = found
    dist = np.zeros((n_codes, N_COLS), np.int8)
    for code in range(n_codes - 1, -1, -1):
        x = code
        for i in range(n_kinds - 1, -1, -1):
            d[i] = x % 5
            x //= 5
        for col in range(N_COLS):
            if has[code, col]:
                continue
            best = 100
            for i in range(n_kinds):
                if d[i] < 4 and dist[code + w[i], col] < best:
                    best = dist[code + w[i], col]
            dist[code, col] = best + 1
    return dist


def test_suit_table_matches_brute_force(tables):
    """Every one of the 5**9 suit patterns (sum <= 14 included), every column."""
    brute = _brute_table(9, True)
    mismatch = np.argwhere(brute != tables.shanten_suit)
    assert mismatch.size == 0, f"first mismatch at code/col {mismatch[0]}"


def test_honor_table_matches_brute_force(tables):
    brute = _brute_table(7, False)
    assert np.array_equal(brute, tables.shanten_honor)


def test_tables_are_cached_and_reloaded(tmp_path, monkeypatch):
    import engine.tables as tmod

    monkeypatch.setenv("RIICHI_ENV_CACHE", str(tmp_path / "cache"))
    assert tmod._read(tmp_path / "cache") is None
    built = tmod.load_tables.__wrapped__()
    again = tmod._read(tmp_path / "cache")
    assert again is not None
    assert np.array_equal(again["shanten_suit"], built.shanten_suit)
    assert np.array_equal(again["shanten_honor"], built.shanten_honor)
    (tmp_path / "cache" / "shanten_suit_v1.npy").write_bytes(b"garbage")
    assert tmod._read(tmp_path / "cache") is None
    rebuilt = tmod.load_tables.__wrapped__()
    assert np.array_equal(rebuilt.shanten_suit, built.shanten_suit)


def test_tables_go_to_the_user_cache_never_into_the_package(tmp_path, monkeypatch):
    """A non-editable install must not write 20 MB into site-packages: the user cache gets them."""
    import engine.tables as tmod

    package = Path(tmod.__file__).resolve().parent
    monkeypatch.delenv("RIICHI_ENV_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))  # the last-resort root
    dirs = tmod.cache_dirs()
    assert dirs[0] == tmp_path / "xdg" / "riichi_env"
    assert all(package not in (d, *d.parents) for d in dirs), dirs
    before = sorted(p.name for p in package.rglob("*.npy"))
    tmod.load_tables.__wrapped__()
    assert tmod._read(tmp_path / "xdg" / "riichi_env") is not None
    assert sorted(p.name for p in package.rglob("*.npy")) == before


def test_tables_fall_back_when_the_user_cache_is_read_only(tmp_path, monkeypatch):
    import engine.tables as tmod

    monkeypatch.delenv("RIICHI_ENV_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    user = tmp_path / "xdg" / "riichi_env"
    monkeypatch.setattr(tmod, "_writable", lambda d: d != user and tmod._mkdir(d))
    second = tmod.cache_dirs()[1]
    tmod.load_tables.__wrapped__()
    assert not user.exists()
    assert tmod._read(second) is not None


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456p789s11122z", -1),
        ("123m456p789s1122z", 0),
        ("123m456p789s1111z", 1),  # the fourth East cannot be the pair
        ("1111m", 1),
        ("1m", 0),
        ("11m", -1),
        ("12m", 0),
        ("1122m3344p5566s77z", -1),
        ("11223344556677z", -1),
        ("1111m2233p445566s", 0),  # chiitoitsu needs seven distinct kinds
        ("19m19p19s1234567z", 0),
        ("19m19p19s12345677z", -1),
        ("147m258p369s1234z", 6),
        ("1112345678999m", 0),
        ("159m159p159s1357z", 3),
        ("1111m234p567s789s", 1),
    ],
)
def test_known_shanten(hand, expected):
    assert shanten(hand) == expected


def _random_hands(rng, n_hands, n_tiles):
    """``uint8[n_hands, 34]`` hands of ``n_tiles`` tiles drawn from a full set of 136."""
    ids = rng.random((n_hands, 136)).argpartition(n_tiles, axis=1)[:, :n_tiles]
    hands = np.zeros((n_hands, 34), np.uint8)
    np.add.at(hands, (np.repeat(np.arange(n_hands), n_tiles), (ids // 4).ravel()), 1)
    return hands


def test_matches_mahjong_package(tables):
    from mahjong.shanten import Shanten

    ref = Shanten()
    rng = np.random.default_rng(20261129)
    for n_tiles in (13, 14):
        hands = _random_hands(rng, 1500, n_tiles)
        for h in hands:
            expected = ref.calculate_shanten([int(x) for x in h])
            got = _shanten(h, tables.shanten_suit, tables.shanten_honor)
            assert got == expected, hand34_to_str(h)


def test_small_hands_match_mahjong_package(tables):
    """Hands with called melds: the concealed part padded with honor triplets for the reference."""
    from mahjong.shanten import Shanten

    ref = Shanten()
    rng = np.random.default_rng(7)
    for _ in range(1500):
        n_sets = int(rng.integers(0, 4))
        n_tiles = 3 * n_sets + int(rng.integers(1, 3))
        ids = rng.choice(108, n_tiles, replace=False)
        h = np.bincount(ids // 4, minlength=34).astype(np.uint8)
        padded = [int(x) for x in h]
        for j in range(4 - n_sets):
            padded[27 + j] = 3
        expected = ref.calculate_shanten_for_regular_hand(padded)
        got = _shanten(h, tables.shanten_suit, tables.shanten_honor)
        assert got == expected, hand34_to_str(h)


def _complete_patterns(n_sets):
    """``int64[K, 34]``: every complete standard hand of ``n_sets`` sets and a pair (counts <= 4)."""
    sets = [np.eye(34, dtype=np.int64)[t] * 3 for t in range(34)]
    sets += [np.eye(34, dtype=np.int64)[t : t + 3].sum(0) for t in range(27) if t % 9 < 7]
    partial = [np.zeros(34, np.int64)]
    for _ in range(n_sets):
        partial = [p + s for p in partial for s in sets]
        partial = list({p.tobytes(): p for p in partial if p.max() <= 4}.values())
    out = [p + 2 * np.eye(34, dtype=np.int64)[t] for p in partial for t in range(34)]
    return np.array([c for c in out if c.max() <= 4])


def _random_hand(rng, kinds, n_sets: int) -> np.ndarray:
    """A hand34 of ``3 * n_sets`` + 1 or 2 tiles of ``kinds``, at most four of a kind."""
    n_tiles = 3 * n_sets + int(rng.integers(1, 3))
    h = np.zeros(34, np.int64)
    while h.sum() < n_tiles:
        t = rng.choice(kinds)
        if h[t] < 4:
            h[t] += 1
    return h


@pytest.mark.parametrize("n_sets", [0, 1, 2])
def test_small_hands_match_brute_force(tables, n_sets):
    """Shanten = min over complete hands C of (tiles of C not held) - 1, hands crowded into few kinds."""
    complete = _complete_patterns(n_sets)
    rng = np.random.default_rng(n_sets)
    for _ in range(400 if n_sets < 2 else 120):
        kinds = rng.choice(34, size=int(rng.integers(2, 7)), replace=False)
        h = _random_hand(rng, kinds, n_sets)
        expected = int(np.maximum(complete - h, 0).sum(axis=1).min()) - 1
        got = _shanten_standard(h.astype(np.uint8), tables.shanten_suit, tables.shanten_honor)
        assert got == expected, hand34_to_str(h)


THREE_PLAYER_KINDS = [k for k in range(34) if not 1 <= k <= 7]
"""The 27 kinds of a three-player wall (no 2m-8m)."""


@pytest.mark.parametrize("n_sets", [0, 1, 2])
def test_three_player_hands_need_no_run_a_three_player_wall_lacks(tables, n_sets):
    """The four-player tables are exact for three-player hands: a hand without 2m-8m is as far
    from a complete hand without 2m-8m as from any complete hand (a run through 1m or 9m costs
    the same two tiles as a triplet of it), so the three-seat encoders' shanten rows need no
    tables of their own."""
    complete = _complete_patterns(n_sets)
    three = complete[complete[:, 1:8].sum(axis=1) == 0]
    rng = np.random.default_rng(300 + n_sets)
    for _ in range(400 if n_sets < 2 else 150):
        kinds = rng.choice(THREE_PLAYER_KINDS, size=int(rng.integers(2, 7)), replace=False)
        if rng.random() < 0.7:  # 1m or 9m in most hands
            terminal = rng.choice([0, 8])
            if terminal not in kinds:  # distinct kinds: room for every tile of the hand
                kinds[0] = terminal
        h = _random_hand(rng, kinds, n_sets)
        want = int(np.maximum(three - h, 0).sum(axis=1).min()) - 1
        assert int(np.maximum(complete - h, 0).sum(axis=1).min()) - 1 == want, hand34_to_str(h)
        got = _shanten_standard(h.astype(np.uint8), tables.shanten_suit, tables.shanten_honor)
        assert got == want, hand34_to_str(h)


def test_random_14_tile_distribution(tables):
    """Published distribution for 14 tiles from a full set: mean 3.1559, P(0) 0.0696 %, P(1) 2.334 %.

    With 200,000 hands the standard errors are 0.0021 (mean), 0.0059 pp (P(0)) and 0.034 pp
    (P(1)); the tolerances below are about five of them.
    """
    rng = np.random.default_rng(314159)
    out = np.empty(200_000, np.int8)
    for start in range(0, out.size, 50_000):
        hands = _random_hands(rng, 50_000, 14)
        _shanten_batch(
            hands, tables.shanten_suit, tables.shanten_honor, out[start : start + 50_000]
        )
    assert abs(out.mean() - 3.1559) < 0.011
    assert abs((out == 0).mean() * 100 - 0.0696) < 0.03
    assert abs((out == 1).mean() * 100 - 2.334) < 0.17


_tile_lists = st.integers(min_value=0, max_value=4).flatmap(
    lambda n_sets: st.permutations(range(136)).map(lambda p: p[: 3 * n_sets + 2])
)


@settings(max_examples=300, deadline=None)
@given(_tile_lists, st.integers(min_value=0, max_value=13))
def test_one_tile_moves_shanten_by_at_most_one(tiles136, pick):
    """Drawing a tile lowers shanten by at most one and never raises it; discarding the reverse."""
    t = load_tables()
    full = np.bincount(np.array(tiles136) // 4, minlength=34).astype(np.uint8)
    drop = tiles136[pick % len(tiles136)] // 4
    part = full.copy()
    part[drop] -= 1
    s_full = _shanten(full, t.shanten_suit, t.shanten_honor)
    s_part = _shanten(part, t.shanten_suit, t.shanten_honor)
    assert s_part - 1 <= s_full <= s_part
    if len(tiles136) == 14:
        assert s_full == min(
            _shanten_standard(full, t.shanten_suit, t.shanten_honor),
            _shanten_chiitoitsu(full, t.shanten_suit, t.shanten_honor),
            _shanten_kokushi(full, t.shanten_suit, t.shanten_honor),
        )


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=4).flatmap(
        lambda n_sets: st.permutations(range(136)).map(lambda p: p[: 3 * n_sets + 1])
    )
)
def test_waits_and_ukeire_agree_with_shanten(tiles136):
    t = load_tables()
    h = np.bincount(np.array(tiles136) // 4, minlength=34).astype(np.uint8)
    visible = np.zeros(34, np.uint8)
    visible[: len(tiles136)] = np.minimum(4 - h[: len(tiles136)], 1)
    out = np.zeros(34, np.bool_)
    n = _waits(h, t.shanten_suit, t.shanten_honor, out)
    base = _shanten(h, t.shanten_suit, t.shanten_honor)
    expected_waits = []
    expected_ukeire = 0
    for k in range(34):
        if h[k] == 4:
            continue
        plus = h.copy()
        plus[k] += 1
        s = _shanten(plus, t.shanten_suit, t.shanten_honor)
        assert _is_agari(plus, t.shanten_suit, t.shanten_honor) == (s == -1)
        if s == -1:
            expected_waits.append(k)
        if s < base:
            expected_ukeire += 4 - int(h[k]) - int(visible[k])
    assert list(np.flatnonzero(out)) == expected_waits
    assert n == len(expected_waits)
    assert (n > 0) == (base == 0)
    assert _ukeire(h, visible, t.shanten_suit, t.shanten_honor) == expected_ukeire


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("1112345678999m", "123456789m"),
        ("13m456p789s11122z", "2m"),
        ("12m456p789s11122z", "3m"),
        ("123m456p789s1111z", ""),  # only 1z would complete it, and all four are held
        ("1111m", ""),
        ("1111m234p567s789s", ""),  # 111m + 1m tanki is dead
        ("1111234m567s789s", "4m"),  # 111m + 234m + 1m tanki is dead; 123m + 4m tanki
        ("1m", "1m"),
        ("1199m1199p1199s1z", "1z"),
        ("1111m1199p1199s1z", ""),
        ("19m19p19s1234567z", "19m19p19s1234567z"),
        ("19m19p19s1234566z", "7z"),
    ],
)
def test_waits(hand, expected):
    assert waits(hand) == sorted(parse_tile34(expected))


def test_ukeire():
    assert ukeire("1112345678999m") == 23
    assert ukeire("1112345678999m", visible="55m9m") == 20
    assert ukeire("13m456p789s11122z") == 4
    assert ukeire("13m456p789s11122z", "2222m") == 0
    assert ukeire(parse_hand34("1m")) == 3


def test_is_agari(tables):
    def agari(text):
        return _is_agari(parse_hand34(text), tables.shanten_suit, tables.shanten_honor)

    assert agari("123m456p789s11122z")
    assert agari("11223344556677z")
    assert agari("11112233445566m")  # 11 + 123 + 123 + 456 + 456
    assert agari("19m19p19s12345677z")
    assert agari("11m")
    assert agari("123m55z")
    assert not agari("1111m2233p445566s")
    assert not agari("123m456p789s1112z")
    assert not agari("1m")


@pytest.mark.nojit
def test_invalid_input():
    with pytest.raises(ValueError, match="123m"):
        shanten("123m")
    with pytest.raises(ValueError, match="123m456p789s111223z has 15 tiles"):
        shanten("123m456p789s11122z3z")
    with pytest.raises(ValueError, match="123m456p789s11122z"):
        waits("123m456p789s11122z")
    with pytest.raises(ValueError, match="3n\\+1"):
        ukeire("11m")
    with pytest.raises(ValueError, match="five copies"):
        shanten("11111m")
    with pytest.raises(ValueError, match="shape"):
        shanten(np.zeros(33, np.uint8))
    with pytest.raises(ValueError, match="count of 1m is 5, must be 0-4"):
        shanten(np.full(34, 5))
    with pytest.raises(TypeError, match="integers"):
        shanten(np.ones(34, np.float64))
    with pytest.raises(ValueError, match="empty"):
        shanten(np.zeros(34, np.uint8))
    with pytest.raises(ValueError, match="more than four of 1m"):
        ukeire("13m456p789s11122z", visible="1111m")
    h = np.zeros(34, np.int64)
    h[[M1, M2, M9, EAST, HAKU]] = [1, 1, 1, 3, 1]
    assert shanten(h) == shanten("129m1115z")
