"""The game's kernels in parts that compile independently, for a compile on two cores.

Numba compiles a kernel's callees before the kernel, one function at a time, in one process. The
scoring side of the game (``_score_win`` and the scorer below it, ``_can_win``, ``_pay_win``) and
the settling of a passed discard (``_discard_passes``) share almost nothing with the deal
(``_reset``), so a second process can compile them into the shared on-disk cache while the first
compiles the deal; the first then loads them from the cache when ``_legal_mask`` and ``_apply``
call them (``riichi_env/core/compiling.py`` runs the two processes).

Each entry is ``(name, kernel, signature)``: the Numba argument types the game's own call sites
pass (integers as int64: docs/internals.md, "One signature per kernel"), so the cached machine
code is the one the game looks up. A kernel compiled with other types would simply be compiled
again where it is called. ``riichi_env.compile()`` compiles the same entries (its parts).
"""

from __future__ import annotations

import sys

import numba
import numpy as np

from engine._numba import compile_kernel
from engine.actions import N_ACTIONS
from engine.claims import _discard_passes
from engine.deal import _reset
from engine.hand_end import _end_hand
from engine.harness.policies import _efficiency_action, _simple_action
from engine.harness.selfplay import _choose, _choose_random, _play_games
from engine.kans import _kita, _own_kan
from engine.legality import _legal_mask
from engine.rules import MAHJONGSOUL
from engine.scoring.layout import N_RES
from engine.scoring.yaku import N_YAKU
from engine.seats import _is_tenpai
from engine.settlement import _can_win, _exhaustive_draw, _pay_win, _ron, _score_win, _win
from engine.state import new_state
from engine.tables import load_tables
from engine.turn import _apply


def signature(*args) -> tuple:
    """The Numba argument types of ``args``: what a call with them compiles for."""
    return tuple(numba.typeof(a) for a in args)


def game_arguments():
    """``(records, events, tables, an int64, a bool)`` of the types the game's kernels take."""
    state = new_state(1, MAHJONGSOUL, 0)  # types only: every state has the same record dtype
    return state.records, state.events, load_tables(), np.int64(0), np.bool_(False)


def scoring_part() -> list[tuple[str, object, tuple]]:
    """Scoring and the settling of a passed discard, in the order a helper compiles them."""
    st, ev, tables, i, b = game_arguments()
    out = np.zeros(N_RES, dtype=np.int32)
    yaku = np.zeros(N_YAKU, dtype=np.int32)
    total = np.zeros(4, dtype=np.int32)
    return [
        ("_score_win", _score_win, signature(st, i, tables, i, i, i, i, i, i, out, yaku)),
        ("_can_win", _can_win, signature(st, i, tables, i, i, i, i)),
        ("_pay_win", _pay_win, signature(st, i, ev, tables, i, i, i, i, b, total)),
        ("_discard_passes", _discard_passes, signature(st, i, ev, tables, i, i)),
    ]


def deal_part() -> list[tuple[str, object, tuple]]:
    """The deal, which needs nothing of the scoring part."""
    st, ev, tables, i, _ = game_arguments()
    return [("_reset", _reset, signature(st, i, ev, tables, i))]


def draw_part() -> list[tuple[str, object, tuple]]:
    """The tenpai check (the shanten kernels' waits) and the exhaustive draw (its noten
    payments): ``_discard_passes`` calls the draw, riichi and the mask the check, and neither
    needs the scorer, so they compile beside it."""
    st, ev, tables, i, _ = game_arguments()
    return [
        ("_is_tenpai", _is_tenpai, signature(st, i, tables, i, st[0]["closed34"][0])),
        ("_exhaustive_draw", _exhaustive_draw, signature(st, i, ev, tables)),
    ]


def wins_part() -> list[tuple[str, object, tuple]]:
    """A ron on the passed discard and a win (``_apply`` calls them; they need the scoring)."""
    st, ev, tables, i, _ = game_arguments()
    i32 = np.int32(0)  # seats and tiles as the record's int32 fields give them
    return [
        ("_ron", _ron, signature(st, i, ev, tables, i32, i32)),
        ("_win", _win, signature(st, i, ev, tables, i32, i32, i32, i)),
    ]


def kans_end_part() -> list[tuple[str, object, tuple]]:
    """A declared kan (it may be robbed: it needs ``_can_win``) and the end of a hand (``_apply``
    calls them; the last calls the deal)."""
    st, ev, tables, i, b = game_arguments()
    return [
        ("_own_kan", _own_kan, signature(st, i, ev, tables, np.int32(0), i)),
        ("_end_hand", _end_hand, signature(st, i, ev, tables, b, b, b)),
    ]


def kita_part() -> list[tuple[str, object, tuple]]:
    """A kita, three players' North set aside (it may be robbed: it needs ``_can_win``;
    ``_apply`` calls it)."""
    st, ev, tables, i, _ = game_arguments()
    return [("_kita", _kita, signature(st, i, ev, tables, np.int32(0)))]


def mask_part() -> list[tuple[str, object, tuple]]:
    """The legal mask: it calls ``_can_win``, so it compiles after the scoring part has it."""
    st, _, tables, i, _ = game_arguments()
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    return [("_legal_mask", _legal_mask, signature(st, i, tables, mask))]


def apply_part() -> list[tuple[str, object, tuple]]:
    """Playing an action: it calls the scoring part and the deal (the next hand)."""
    st, ev, tables, i, _ = game_arguments()
    return [("_apply", _apply, signature(st, i, ev, tables, i))]


def selfplay_part() -> list[tuple[str, object, tuple]]:
    """``engine.harness.selfplay``'s loop (``_play_games``, with its checks): it calls ``_reset``,
    ``_legal_mask``, ``_apply`` and every policy, so it compiles after them."""
    st, ev, tables, i, _ = game_arguments()
    i64 = np.zeros(1, dtype=np.int64)
    i32 = np.zeros(1, dtype=np.int32)
    rows32 = np.zeros((1, 4), dtype=np.int32)
    rows64 = np.zeros((1, 4), dtype=np.float64)
    rng = np.zeros(2, dtype=np.int64)
    types = signature(st, i, ev, tables, i64, i, i, i, rows32, rows64, i32, i64, i32, rng)
    return [("_play_games", _play_games, types)]


def random_part() -> list[tuple[str, object, tuple]]:
    """The random policies' choice, which every runner calls (the agents' part starts with it)."""
    return agents_part()[:1]


def agents_part() -> list[tuple[str, object, tuple]]:
    """The random policies' choice (which the self-play loop needs too, so it comes first), the
    compiled agents (``simple``, ``efficiency``; the arena) and the choice among all policies:
    they need the shanten kernels alone, not the game."""
    st, _, tables, i, _ = game_arguments()
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    rng = np.zeros(2, dtype=np.int64)
    return [
        ("_choose_random", _choose_random, signature(st, i, tables, mask, i, i, rng)),
        ("_simple_action", _simple_action, signature(st, i, tables, mask)),
        ("_efficiency_action", _efficiency_action, signature(st, i, tables, mask)),
        ("_choose", _choose, signature(st, i, tables, mask, i, i, rng)),
    ]


def compile_part(part: list[tuple[str, object, tuple]], done=None) -> None:
    """Compile each kernel of ``part`` for its signature (no call: nothing runs); ``done(name)``
    after each one."""
    for name, kernel, signature in part:
        compile_kernel(kernel, signature)
        if done is not None:
            done(name)


PARTS = {
    "scoring": scoring_part,
    "deal": deal_part,
    "mask": mask_part,
    "apply": apply_part,
    "selfplay": selfplay_part,
    "agents": agents_part,
}


PIECES = {
    "draw": draw_part,
    "wins": wins_part,
    "kans_end": kans_end_part,
    "kita": kita_part,
    "random": random_part,
}
"""Kernels inside the parts above that a compile on two cores hands to the other process, so
that neither waits long for the other (``riichi_env/core/compiling.py``, ``_on_two_cores``)."""


def main(argv: list[str], parts: dict | None = None) -> int:
    """``python -m engine.compile_parts PART [PART ...]``: compile those parts (of ``parts``,
    default ``PARTS``), then each part named on a line of stdin until it closes; print each
    kernel's name once it is cached."""
    parts = PARTS if parts is None else parts
    if not argv or any(name not in parts for name in argv):
        sys.stderr.write(f"usage: python -m engine.compile_parts {{{','.join(parts)}}} ...\n")
        return 2

    def done(name: str) -> None:
        print(name, flush=True)

    for name in argv:
        compile_part(parts[name](), done)
    for line in sys.stdin:
        name = line.strip()
        if name not in parts:
            sys.stderr.write(f"unknown part {name!r}; choose from {sorted(parts)}\n")
            return 2
        compile_part(parts[name](), done)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
