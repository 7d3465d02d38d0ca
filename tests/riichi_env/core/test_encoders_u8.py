"""Byte observations (``obs_dtype=np.uint8``) are written by the encoders themselves: exactly the
bytes ``quantize_reference._quantize`` makes of the float32 observation, for every encoder and
kernel over many game states, for every value a row can hold, and for the quarter counts."""

import numba
import numpy as np
import pytest
from quantize_reference import QUANT_INV, QUANT_LO, _quantize

import riichi_env.core.encoders as enc
from agents.efficiency_agent import EfficiencyAgent
from engine.actions import OPEN_RIICHI
from riichi_env.aec.raw_env import raw_env


def quantized(encoder_id: int, floats: np.ndarray) -> np.ndarray:
    """``_quantize`` of float32 rows with encoder ``encoder_id``'s row bounds."""
    n = floats.shape[-2]
    out = np.zeros(floats.shape, np.uint8)
    _quantize(floats, QUANT_LO[encoder_id, :n], QUANT_INV[encoder_id, :n], out)
    return out


RULES = {4: {"open_riichi": True}, 3: {"rules": "mahjongsoul-3p"}}
"""Four players with open riichi (the v1 encoders' rows then show hands), three with kita."""


EDGE_POINTS = np.array([0, -100, 199_900, -300_000, 300_000, 25_000], np.int32)
"""Scores the games rarely reach: zero (the byte 128), negative, and past the clip at +-2."""


def _action(e, rng):
    """Open riichi half the times it is legal, a random legal action one time in five, else
    ``EfficiencyAgent``'s (which reaches tenpai: riichi, open hands, kans, ura indicators)."""
    mask = e.action_mask()
    if mask[OPEN_RIICHI] and rng.random() < 0.5:
        return OPEN_RIICHI
    if rng.random() < 0.2:
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(legal.size)])
    return EfficiencyAgent().act(None, mask, e.view(e.agent_selection))


@pytest.mark.parametrize("name", enc.ALL_ENCODERS)
def test_every_encoder_writes_the_quantized_bytes(name):
    """Two tonpuusen of random play: at every decision, each seat's bytes from ``_encode`` and
    from the encoder's own kernel are ``_quantize`` of its float32 rows (whatever ``out`` held
    before), and so they are with the scores set to ``EDGE_POINTS``; with an oracle encoder so
    are its wall rows limited to a random record's places."""
    i = enc.ENCODER_IDS[name]
    players = enc.SPECS[name].players
    rows = enc.N_ROWS[name]
    rng = np.random.default_rng(i)
    seen, open_hands = set(), 0
    open_rows = slice(enc._PLAN[i, 3], enc._PLAN[i, 3] + enc.OPEN_RIICHI)
    for seed in (1, 2):
        e = raw_env(encoder=name, game_length="tonpuusen", **RULES[players])
        e.reset(seed=seed)
        while not e.terminations[e.agent_selection]:
            for seat in range(players):
                floats = np.full((rows, 34), -7.0, np.float32)
                enc._encode(e._rec, 0, seat, i, e._suit, e._honor, floats)
                want = quantized(i, floats)
                for kernel in (enc._encode, enc.KERNELS[name]):
                    got = np.full((rows, 34), 77, np.uint8)
                    args = (i,) if kernel is enc._encode else ()
                    kernel(e._rec, 0, seat, *args, e._suit, e._honor, got)
                    np.testing.assert_array_equal(got, want)
                seen.update(np.unique(want).tolist())
                open_hands += enc.SPECS[name].open_hands and want[open_rows].any()
                if enc.SPECS[name].oracle:
                    known = (rng.random(136) < 0.5).astype(np.uint8)
                    enc._known_wall_rows(e._rec, 0, i, known, floats)
                    enc._known_wall_rows(e._rec, 0, i, known, got)
                    np.testing.assert_array_equal(got, quantized(i, floats))
                edges = e._rec.copy()
                edges["points"][0] = np.roll(EDGE_POINTS, seat)[:4]
                enc._encode(edges, 0, seat, i, e._suit, e._honor, floats)
                enc._encode(edges, 0, seat, i, e._suit, e._honor, got)
                np.testing.assert_array_equal(got, quantized(i, floats))
            e.step(_action(e, rng))
    assert {0, 64, 128, 191, 255} <= seen  # the quarter counts among them
    assert open_hands > 0 or not enc.SPECS[name].open_hands


def _kernel_of(fn):
    """A compiled loop storing ``fn(out, x)`` of each value ``x`` into a uint8 row (no cache)."""

    @numba.njit(cache=False)
    def store(values, out):
        for j in range(values.shape[0]):
            out[0, j] = fn(out, values[j])

    return store


def _bytes_of(fn, values):
    out = np.zeros((1, values.size), np.uint8)
    _kernel_of(fn)(values, out)
    return out[0]


def _want(values, score: bool) -> np.ndarray:
    """``_quantize``'s bytes of float32 ``values`` in a [0, 1] row, or in a score row."""
    n = values.size
    pad = np.zeros(-n % 34, np.float32)
    rows = np.concatenate([values.astype(np.float32), pad]).reshape(-1, 34)
    lo = np.full(rows.shape[0], -2.0 if score else 0.0, np.float32)
    inv = np.full(rows.shape[0], 255.0 / (4.0 if score else 1.0), np.float32)
    out = np.zeros(rows.shape, np.uint8)
    _quantize(rows, lo, inv, out)
    return out.ravel()[:n]


def test_every_value_a_row_holds_has_the_quantized_byte():
    """Every score the encoders can write (points -300,000 .. 300,000, every integer, clipped
    as ``_public_rows`` clips them) and every fraction of the [0, 1] rows (counts / 4,
    shanten / 7, riichi sticks and honba / 10, tiles left / 55 and / 70, ukeire / 80)."""
    points = np.arange(-300_000, 300_001, dtype=np.float64)
    scores = np.clip(points / 100000.0, -2.0, 2.0)
    score = numba.njit(cache=False)(lambda out, x: enc._score(out, enc._clip(x, -2.0, 2.0)))
    np.testing.assert_array_equal(_bytes_of(score, points / 100000.0), _want(scores, True))
    fractions = np.concatenate(
        [np.arange(k + 1) / float(k) for k in (4, 7, 10, enc.LIVE_DRAWS3, enc.LIVE_DRAWS4, 80)]
    )
    unit = numba.njit(cache=False)(lambda out, x: enc._unit(out, x))
    np.testing.assert_array_equal(_bytes_of(unit, fractions), _want(fractions, False))
    assert _bytes_of(score, np.zeros(1))[0] == 128


def test_counted_rows_become_the_bytes_of_their_quarters():
    """A count / 4 row counts tiles in uint8 rows (``_quarter`` is 1) and ``_counts_to_bytes``
    gives the bytes of the float32 sums of 0.25."""

    @numba.njit(cache=False)
    def count(counts, out):
        for c in range(34):
            for _ in range(counts[c]):
                out[0, c] += enc._quarter(out)
        enc._counts_to_bytes(out, 0)

    counts = np.arange(34) % 5
    floats, got = np.zeros((1, 34), np.float32), np.zeros((1, 34), np.uint8)
    count(counts, floats)
    count(counts, got)
    np.testing.assert_array_equal(floats[0], counts / 4.0)
    np.testing.assert_array_equal(got[0], _want(floats[0], False))


def test_every_float32_of_a_rows_range_has_the_quantized_byte():
    """``_byte`` over every float32 in [0, 1] and in [-2, 2] (3.2e9 values, a few seconds): the
    bytes of ``_quantize``, whose fastmath loop fuses the multiply-add where ``_byte`` rounds
    twice."""

    @numba.njit(cache=False)
    def compare(first, n, low, scale, lo, inv, x, want):
        bits = x.view(np.uint32)
        for i in range(x.size):
            bits[i] = first + i
        _quantize(x.reshape(-1, 34), lo, inv, want)
        bad = 0
        flat = want.ravel()
        for i in range(n):
            bad += enc._byte(x[i], low, scale) != flat[i]
        return bad

    rows = 30_000
    x, want = np.zeros(rows * 34, np.float32), np.zeros((rows, 34), np.uint8)
    for first, last, low in (
        (0, 0x3F800000, 0.0),  # [0, 1]
        (0, 0x40000000, -2.0),  # [0, 2]
        (0x80000000, 0xC0000000, -2.0),  # [-2, -0]
    ):
        scale = np.float32(255.0 / (1.0 if low == 0.0 else 4.0))
        lo, inv = np.full(rows, low, np.float32), np.full(rows, scale, np.float32)
        for start in range(first, last + 1, x.size):
            n = min(x.size, last + 1 - start)
            assert compare(start, n, np.float32(low), scale, lo, inv, x, want) == 0, hex(start)


@pytest.mark.nojit
def test_bytes_without_the_jit():
    """Under ``NUMBA_DISABLE_JIT=1`` the encoders' plain Python writes the same bytes."""
    e = raw_env(encoder="rich3_v0", game_length="tonpuusen", **RULES[3])
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    i = enc.ENCODER_IDS["rich3_v0"]
    for _ in range(40):
        floats = np.zeros((enc.N_ROWS["rich3_v0"], 34), np.float32)
        got = np.zeros(floats.shape, np.uint8)
        enc._encode(e._rec, 0, 0, i, e._suit, e._honor, floats)
        enc._encode(e._rec, 0, 0, i, e._suit, e._honor, got)
        np.testing.assert_array_equal(got, quantized(i, floats))
        e.step(_action(e, rng))
