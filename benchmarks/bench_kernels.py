"""Kernel throughput, printed as one markdown table.

Run: ``.venv/bin/python benchmarks/bench_kernels.py [--quick]``. Each section is a function that
returns ``Row``s; ``main()`` prints them all. Single thread throughout; rates are per CPU second. Hands are drawn from a full
set of 136 tiles with a fixed seed; the ``mahjong`` package (1.4.0) is the reference where it has
the same function.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from engine._numba import njit
from engine.kernels import _shanten, _shanten_batch, _ukeire, _waits
from engine.shanten import shanten
from engine.tables import build_tables, load_tables


class Row(NamedTuple):
    """One line of the table: ``value`` in ``unit``; ``note`` holds ratios or context."""

    section: str
    name: str
    value: float
    unit: str
    note: str = ""


def random_hands(n_hands: int, n_tiles: int, seed: int) -> np.ndarray:
    """``uint8[n_hands, 34]`` hands of ``n_tiles`` tiles from a full set of 136."""
    rng = np.random.default_rng(seed)
    hands = np.zeros((n_hands, 34), np.uint8)
    for start in range(0, n_hands, 100_000):
        stop = min(start + 100_000, n_hands)
        ids = rng.random((stop - start, 136)).argpartition(n_tiles, axis=1)[:, :n_tiles]
        rows = np.repeat(np.arange(start, stop), n_tiles)
        np.add.at(hands, (rows, (ids // 4).ravel()), 1)
    return hands


def tenpai_hands(n_hands: int, seed: int) -> np.ndarray:
    """``uint8[n_hands, 34]`` 13-tile tenpai hands: random complete hands less one random tile."""
    rng = np.random.default_rng(seed)
    hands = np.zeros((n_hands, 34), np.uint8)
    i = 0
    while i < n_hands:
        h = hands[i]
        h[:] = 0
        h[rng.integers(34)] += 2
        for _ in range(4):
            t = int(rng.integers(34))
            if t < 27 and t % 9 < 7 and rng.random() < 0.6:
                h[t : t + 3] += 1
            else:
                h[t] += 3
        if h.max() > 4:
            continue
        h[rng.choice(34, p=h / 14.0)] -= 1
        i += 1
    return hands


def best_rate(fn: Callable[[], int], repeats: int) -> float:
    """Calls per CPU second of ``fn`` (which returns how many calls it made), best of ``repeats``.

    CPU time of this process, not wall time, so that other load on a shared machine does not count.
    """
    best = 0.0
    for _ in range(repeats):
        start = time.process_time()
        calls = fn()
        best = max(best, calls / max(time.process_time() - start, 1e-9))
    return best


@njit
def _waits_loop(hands34, suit_table, honor_table):
    out = np.zeros(34, np.bool_)
    total = 0
    for i in range(hands34.shape[0]):
        total += _waits(hands34[i], suit_table, honor_table, out)
    return total


@njit
def _ukeire_loop(hands34, suit_table, honor_table):
    visible = np.zeros(34, np.uint8)
    total = 0
    for i in range(hands34.shape[0]):
        total += _ukeire(hands34[i], visible, suit_table, honor_table)
    return total


def bench_shanten(quick: bool = False) -> list[Row]:
    """Shanten, waits and ukeire: Numba batched, per call from Python, and the mahjong package."""
    from mahjong.shanten import Shanten

    n_batch = 200_000 if quick else 2_000_000
    n_py = 20_000 if quick else 100_000
    n_ref = 5_000 if quick else 20_000
    repeats = 2 if quick else 3
    section = "shanten"
    rows: list[Row] = []

    start = time.perf_counter()
    build_tables()
    rows.append(Row(section, "build tables (numpy)", time.perf_counter() - start, "s"))
    load_tables.cache_clear()
    start = time.perf_counter()
    tables = load_tables()
    rows.append(Row(section, "load tables (disk cache)", time.perf_counter() - start, "s"))
    suit, honor = tables.shanten_suit, tables.shanten_honor

    reference = Shanten()
    for n_tiles in (14, 13):
        hands = random_hands(n_batch, n_tiles, seed=n_tiles)
        out = np.empty(n_batch, np.int8)
        _shanten_batch(hands[:8], suit, honor, out[:8])

        def batched(hands=hands, out=out):
            _shanten_batch(hands, suit, honor, out)
            return len(hands)

        small = hands[:n_py]

        def per_call_kernel(small=small):
            for h in small:
                _shanten(h, suit, honor)
            return len(small)

        def per_call_public(small=small):
            for h in small:
                shanten(h)
            return len(small)

        lists = [[int(x) for x in h] for h in hands[:n_ref]]

        def per_call_reference(lists=lists):
            for h in lists:
                reference.calculate_shanten(h)
            return len(lists)

        ref_rate = best_rate(per_call_reference, repeats)
        for name, fn in (
            (f"_shanten_batch, {n_tiles} tiles (Numba loop)", batched),
            (f"_shanten per call from Python, {n_tiles} tiles", per_call_kernel),
            (f"shanten() public per call (hand34), {n_tiles} tiles", per_call_public),
        ):
            rate = best_rate(fn, repeats)
            rows.append(Row(section, name, rate, "calls/s", f"{rate / ref_rate:,.0f}x mahjong"))
        rows.append(Row(section, f"mahjong Shanten per call, {n_tiles} tiles", ref_rate, "calls/s"))

    hands13 = random_hands(n_batch // 4, 13, seed=99)
    tenpai = tenpai_hands(n_batch // 40, seed=98)
    _waits_loop(hands13[:8], suit, honor)
    _ukeire_loop(hands13[:8], suit, honor)
    for what, hands in (("random 13 tiles", hands13), ("tenpai 13 tiles", tenpai)):
        for name, loop in (("_waits", _waits_loop), ("_ukeire", _ukeire_loop)):
            rate = best_rate(lambda loop=loop, h=hands: (loop(h, suit, honor), len(h))[1], repeats)
            rows.append(Row(section, f"{name}, {what} (Numba loop)", rate, "calls/s"))
    return rows


def _scoring_cases(n: int, preset: str, themes: tuple[str, ...] = ()):
    """The differential test's winning hands (themed: every yakuman and rare yaku over-sampled)."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "tests" / "engine" / "test_scoring_differential.py"
    spec = importlib.util.spec_from_file_location("_scoring_differential", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module, module.generate_cases(1234, n, preset, themes)


def bench_scoring(quick: bool = False) -> list[Row]:
    """Full scoring (han, fu, yaku, payments): Numba batch, public per call, the mahjong package.

    Two hand mixes from the differential test's generator (Mahjong Soul rules, flags, melds,
    dora): all themes (yakuman and rare yaku over-sampled, many multi-reading flushes) and plain
    random shapes (closer to hands won in play).
    """
    from engine.rules import MAHJONGSOUL
    from engine.scoring import hand_score as sc
    from engine.scoring.yaku import N_YAKU
    from riichi_env.cli.hand_score import parse_input

    n_cases = 2_000 if quick else 20_000
    n_batch = 200_000 if quick else 1_000_000
    n_public = 2_000 if quick else 10_000
    n_ref = 300 if quick else 1_500
    repeats = 2 if quick else 3
    section = "scoring"
    rows: list[Row] = []
    rules = MAHJONGSOUL.to_array()
    work = sc.new_work()
    out = np.zeros((n_batch, sc.N_RES), np.int32)
    yaku_out = np.zeros((n_batch, N_YAKU), np.int32)

    for mix, themes in (("themed mix", ()), ("random shapes", ("random",))):
        module, cases = _scoring_cases(n_cases, "mahjongsoul", themes)
        arrays = module.kernel_arrays(cases)
        reps = -(-n_batch // n_cases)
        batch = [np.ascontiguousarray(np.concatenate([a] * reps)[:n_batch]) for a in arrays]
        sc._score_hands_batch(*[a[:8] for a in batch], rules, work, out[:8], yaku_out[:8])

        def batched(batch=batch):
            sc._score_hands_batch(*batch, rules, work, out, yaku_out)
            return n_batch

        kwargs = []
        for c in cases[:n_public]:
            kw = parse_input(c.inp)
            kwargs.append((kw.pop("closed"), kw.pop("win_tile"), kw))

        def per_call_public(kwargs=kwargs):
            for closed, win_tile, kw in kwargs:
                sc.score_hand(closed, win_tile, **kw)
            return len(kwargs)

        def per_call_reference(ref=cases[:n_ref], module=module):
            for c in ref:
                module.mahjong_score(c)
            return len(ref)

        ref_rate = best_rate(per_call_reference, repeats)
        batched()
        valid = (out[:, sc.RES_STATUS] == sc.STATUS_OK).mean()
        for name, fn in (
            ("_score_hands_batch (Numba loop)", batched),
            ("score_hand() public per call (mpsz in)", per_call_public),
        ):
            rate = best_rate(fn, repeats)
            rows.append(
                Row(section, f"{name}, {mix}", rate, "hands/s", f"{rate / ref_rate:,.0f}x mahjong")
            )
        rows.append(
            Row(
                section,
                f"mahjong HandCalculator per call, {mix}",
                ref_rate,
                "hands/s",
                f"{n_cases:,} distinct hands, {valid:.0%} with a yaku",
            )
        )
    return rows


SECTIONS: list[Callable[[bool], list[Row]]] = [bench_shanten, bench_scoring]
"""Every section, in print order; append new ones here."""


def format_table(rows: list[Row]) -> str:
    """Rows as a markdown table."""
    lines = ["| section | benchmark | result | note |", "|---|---|---:|---|"]
    for r in rows:
        value = f"{r.value:,.3f} {r.unit}" if r.unit == "s" else f"{r.value:,.0f} {r.unit}"
        lines.append(f"| {r.section} | {r.name} | {value} | {r.note} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples (for smoke runs)")
    args = parser.parse_args()
    rows: list[Row] = []
    for section in SECTIONS:
        rows.extend(section(args.quick))
    print(format_table(rows))


if __name__ == "__main__":
    main()
