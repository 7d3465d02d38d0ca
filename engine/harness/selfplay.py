"""Random legal play entirely in compiled code, for tests, the CLI and benchmarks.

``_play_games`` plays whole games on one table with uniformly random legal actions; the action
stream of a game is keyed by its seed, so a game's result depends only on (seed, rules) and not
on threads or order. With ``check`` it validates the state after every step (the bookkeeping and
the rule facts derived from the tiles, ``engine/harness/invariants.py``), makes sure a random action outside
the mask is refused and (``check >= 2``) that every masked action is accepted, on a scratch copy
of the table. Without checks (``check=0``) it is plain compiled self-play: ``selfplay`` and
``play_one`` below; ``riichi_env``'s runner (``riichi_env/core/runner.py``) plays the same game
for the same seed and policy."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from engine._numba import njit
from engine.actions import (
    DISCARD_RED,
    N_ACTIONS,
    N_ACTIONS_3P,
    N_DISCARD_ACTIONS,
    PASS,
    RIICHI,
    RON,
    TSUMO,
)
from engine.arguments import check_int, check_max_events, check_seed_run
from engine.deal import _reset
from engine.harness.invariants import (
    VAL_MASKED_REFUSED,
    VAL_OK,
    VAL_UNMASKED_ACCEPTED,
    _validate,
    _validate_rules,
)
from engine.harness.policies import _efficiency_action, _simple_action
from engine.legality import _legal_mask
from engine.rules import MAHJONGSOUL, RULE_PLAYERS, Rules, as_rules
from engine.shanten import _shanten
from engine.state import PHASE_CLAIM, PHASE_GAME_OVER, new_state
from engine.turn import ERR_ILLEGAL, OK, _apply, _step
from engine.wall import _rand_below, _rng_seed

POLICY_UNIFORM = 0
"""Every legal action equally likely."""
POLICY_GREEDY = 1
"""Win and riichi when legal, mostly shanten-keeping discards, few calls: reaches wins often."""
POLICY_SIMPLE = 2
"""``agents.SimpleEfficiencyAgent`` compiled (``engine.harness.policies._simple_action``)."""
POLICY_EFFICIENCY = 3
"""``agents.EfficiencyAgent`` compiled (``engine.harness.policies._efficiency_action``)."""
ACTION_STREAM = 0x3FFFFFFF
"""Stream number of the action RNG (walls use streams 1, 2, ... = hand index)."""
CHECK_STREAM = 0x3FFFFFFE
"""Stream of the checks' own choices, so checking never changes the game played."""


@njit
def _copy_table(st, ev, src, dst):
    """Copy table ``src`` (its record and its event log) onto table ``dst``."""
    st[dst] = st[src]
    ev[dst] = ev[src]


@njit(inline="always")
def _nth_legal(mask, k):
    """The ``k``-th legal action id (0-based)."""
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(inline="always")
def _n_legal(mask):
    """How many actions the mask allows."""
    n = 0
    for a in range(mask.shape[0]):
        n += mask[a]
    return n


@njit(inline="always")
def _shanten_after_discard(h, a, tables):
    """Shanten of hand ``h`` (changed, then restored) without the kind discard action ``a`` throws."""
    k = a if a < DISCARD_RED else 4 + 9 * (a - DISCARD_RED)
    h[k] -= 1
    v = _shanten(h, tables.shanten_suit, tables.shanten_honor)
    h[k] += 1
    return v


@njit
def _greedy_action(st, t, tables, mask, rng_state):
    """A random legal action biased to play the hand: win, riichi, keep shanten low, few calls."""
    rec = st[t]
    if mask[TSUMO]:
        return TSUMO
    if mask[RON]:
        return RON
    if rec.phase == PHASE_CLAIM:
        if _rand_below(rng_state, 4) == 0:
            return _nth_legal(mask, _rand_below(rng_state, _n_legal(mask)))
        return PASS
    if mask[RIICHI] and _rand_below(rng_state, 4) != 0:
        return RIICHI
    s = rec.actor
    best = 99
    n_best = 0
    h = rec.closed34[s].copy()
    for a in range(N_DISCARD_ACTIONS):
        if mask[a]:
            v = _shanten_after_discard(h, a, tables)
            if v < best:
                best = v
                n_best = 1
            elif v == best:
                n_best += 1
    n = _n_legal(mask)
    if n_best == 0 or _rand_below(rng_state, 8) == 0:
        return _nth_legal(mask, _rand_below(rng_state, n))
    j = _rand_below(rng_state, n_best)
    for a in range(N_DISCARD_ACTIONS):
        if mask[a]:
            v = _shanten_after_discard(h, a, tables)
            if v == best:
                if j == 0:
                    return a
                j -= 1
    return _nth_legal(mask, 0)


@njit
def _check(st, t, ev, tables, detail):
    """Bookkeeping, then the rule facts derived from the tiles (``engine/harness/invariants.py``)."""
    code = _validate(st, t, detail)
    if code != VAL_OK:
        return code
    return _validate_rules(st, t, ev, tables, detail)


@njit
def _play_game(st, t, ev, tables, seed, check, policy, scratch, mask, detail, rng_state):
    """One game of random legal play on table ``t``; returns ``VAL_OK`` or a ``VAL_*`` code.

    ``scratch`` is a second table index used by ``check >= 2`` (-1 when unused).
    """
    _rng_seed(rng_state, seed, ACTION_STREAM)
    check_rng = np.zeros(2, dtype=np.int64)
    _rng_seed(check_rng, seed, CHECK_STREAM)
    _reset(st, t, ev, tables, seed)
    while st[t].phase != PHASE_GAME_OVER:
        n = _legal_mask(st, t, tables, mask)
        if check:
            code = _check(st, t, ev, tables, detail)
            if code != VAL_OK:
                return code
            if n < mask.shape[0]:
                j = _rand_below(check_rng, mask.shape[0] - n)
                for a in range(mask.shape[0]):
                    if not mask[a]:
                        if j == 0:
                            if _step(st, t, ev, tables, a) != ERR_ILLEGAL:
                                return VAL_UNMASKED_ACCEPTED
                            break
                        j -= 1
            if check >= 2 and scratch >= 0:
                for a in range(mask.shape[0]):
                    if mask[a]:
                        _copy_table(st, ev, t, scratch)
                        if _step(st, scratch, ev, tables, a) != OK:
                            return VAL_MASKED_REFUSED
                        code = _check(st, scratch, ev, tables, detail)
                        if code != VAL_OK:
                            return code
        if policy < POLICY_SIMPLE:  # the random policies straight: measured 8 % faster
            action = _choose_random(st, t, tables, mask, n, policy, rng_state)
        else:
            action = _choose(st, t, tables, mask, n, policy, rng_state)
        _apply(st, t, ev, tables, action)
    if check:
        return _check(st, t, ev, tables, detail)
    return VAL_OK


@njit(example=lambda x: (x.st, x.i, x.tables, x.mask, x.i, x.i, x.rng))
def _choose(st, t, tables, mask, n, policy, rng_state):
    """The policy's action among the ``n`` legal ones of ``mask`` (every ``POLICY_*``)."""
    if policy == POLICY_SIMPLE:
        return _simple_action(st, t, tables, mask)
    if policy == POLICY_EFFICIENCY:
        return _efficiency_action(st, t, tables, mask)
    return _choose_random(st, t, tables, mask, n, policy, rng_state)


@njit(example=lambda x: (x.st, x.i, x.tables, x.mask, x.i, x.i, x.rng))
def _choose_random(st, t, tables, mask, n, policy, rng_state):
    """``_choose`` for the random policies only (``POLICY_UNIFORM``, ``POLICY_GREEDY``): kernels
    that play only those never compile the agents."""
    if policy == POLICY_GREEDY:
        return _greedy_action(st, t, tables, mask, rng_state)
    return _nth_legal(mask, _rand_below(rng_state, n))


@njit
def _store_result(st, t, i, points, final, hands, decisions):
    rec = st[t]
    for s in range(4):
        points[i, s] = rec.points[s]
        final[i, s] = rec.final_scores[s]
    hands[i] = rec.hand_index
    decisions[i] = rec.n_decisions


def _play_games_example(x) -> tuple:
    """``_play_games``' warm-up arguments: one game's outputs, the types ``play_games`` passes."""
    i64, i32 = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int32)
    rows32, rows64 = np.zeros((1, 4), dtype=np.int32), np.zeros((1, 4), dtype=np.float64)
    return (x.st, x.i, x.ev, x.tables, i64, x.i, x.i, x.i, rows32, rows64, i32, i64, i32, x.rng)


@njit(example=_play_games_example)
def _play_games(
    st,
    t,
    ev,
    tables,
    seeds,
    check,
    policy,
    scratch,
    points,
    final,
    hands,
    decisions,
    errors,
    rng_state,
):
    """Play ``seeds.shape[0]`` games on table ``t``; per-game results into the output arrays.

    Returns the number of games played (stops after the first failed check).
    """
    mask = np.zeros(N_ACTIONS_3P if st[t].rules[RULE_PLAYERS] == 3 else N_ACTIONS, dtype=np.int8)
    detail = np.zeros(3, dtype=np.int64)
    for i in range(seeds.shape[0]):
        code = _play_game(
            st, t, ev, tables, seeds[i], check, policy, scratch, mask, detail, rng_state
        )
        _store_result(st, t, i, points, final, hands, decisions)
        errors[i] = code
        if code != VAL_OK:
            return i + 1
    return seeds.shape[0]


def _check_play_args(games, seed, rules, max_events) -> tuple[int, int, Rules, int]:
    """The shared checks of ``selfplay`` and ``play_one``: seeds ``seed .. seed + games - 1`` must
    all lie in the one seed range."""
    games, seed = check_seed_run(games, seed)
    return games, seed, as_rules(rules), check_max_events(max_events)


def selfplay(
    games: int,
    seed: int = 0,
    rules: Rules | str = MAHJONGSOUL,
    threads: int = 1,
    check: int = 0,
    max_events: int = 8192,
    policy: int = 0,
) -> dict:
    """Play ``games`` games (seeds ``seed .. seed + games - 1``) with random legal actions.

    Returns ``{"games", "hands", "decisions", "seconds", "results": [...], "errors": [...]}``;
    each result is ``{"seed", "points", "final_scores", "hands", "decisions"}``. ``threads``
    tables run in parallel (the kernels release the GIL). ``check`` as in ``_play_game``
    (checked play logs up to ``max_events`` rows per table, which the furiten checks replay;
    unchecked play keeps no log);
    ``policy`` is ``POLICY_UNIFORM`` (uniform over legal actions) or ``POLICY_GREEDY``.
    """
    from engine.tables import load_tables

    games, seed, rules, max_events = _check_play_args(games, seed, rules, max_events)
    threads = check_int("threads", threads, 1, 1024)
    check = check_int("check", check, 0, 2)
    policy = check_int("policy", policy, POLICY_UNIFORM, POLICY_EFFICIENCY)
    tables = load_tables()
    seeds = np.int64(seed) + np.arange(games, dtype=np.int64)
    points = np.zeros((games, 4), dtype=np.int32)
    final = np.zeros((games, 4), dtype=np.float64)
    hands = np.zeros(games, dtype=np.int32)
    decisions = np.zeros(games, dtype=np.int64)
    errors = np.zeros(games, dtype=np.int32)
    n_tables = 2 * threads if check >= 2 else threads
    state = new_state(n_tables, rules, max_events if check else 0)
    st, ev = state.records, state.events
    chunks = np.array_split(np.arange(games), threads)

    def play(i: int, lo: int, hi: int) -> int:
        rng = np.zeros(2, dtype=np.int64)
        out = (points[lo:hi], final[lo:hi], hands[lo:hi], decisions[lo:hi])
        scratch = threads + i if check >= 2 and hi > lo else -1
        return _play_games(
            st, i, ev, tables, seeds[lo:hi], check, policy, scratch, *out, errors[lo:hi], rng
        )

    def work(i: int) -> int:
        idx = chunks[i]
        if idx.size == 0:
            return 0
        lo, hi = int(idx[0]), int(idx[-1]) + 1
        played = play(i, lo, hi)
        errors[lo + played : hi] = -1
        return played

    play(0, 0, 0)  # compile or load the kernels before the clock starts (same types, no game)
    start = time.perf_counter()
    if threads == 1:
        work(0)
    else:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(work, range(threads)))
    seconds = time.perf_counter() - start
    results = [
        {
            "seed": int(seeds[i]),
            "points": [int(x) for x in points[i]],
            "final_scores": [float(x) for x in final[i]],
            "hands": int(hands[i]),
            "decisions": int(decisions[i]),
        }
        for i in range(games)
    ]
    bad = [
        {"seed": int(seeds[i]), "code": int(errors[i]), "message": _message(int(errors[i]))}
        for i in np.flatnonzero(errors)
    ]
    return {
        "games": games,
        "hands": int(hands.sum()),
        "decisions": int(decisions.sum()),
        "seconds": seconds,
        "results": results,
        "errors": bad,
    }


def _message(code: int) -> str:
    from engine.harness.invariants import MESSAGES

    return "not played (an earlier game failed)" if code < 0 else MESSAGES[code]


def play_one(seed: int, rules: Rules | str = MAHJONGSOUL, max_events: int = 8192, policy: int = 0):
    """Play one random game with ``seed`` and return its N = 1 ``State`` (event log included)."""
    from engine.tables import load_tables

    _, seed, rules, max_events = _check_play_args(1, seed, rules, max_events)
    policy = check_int("policy", policy, POLICY_UNIFORM, POLICY_EFFICIENCY)
    state = new_state(1, rules, max_events)
    _play_games(
        state.records,
        0,
        state.events,
        load_tables(),
        np.array([seed], dtype=np.int64),
        0,
        policy,
        -1,
        np.zeros((1, 4), dtype=np.int32),
        np.zeros((1, 4), dtype=np.float64),
        np.zeros(1, dtype=np.int32),
        np.zeros(1, dtype=np.int64),
        np.zeros(1, dtype=np.int32),
        np.zeros(2, dtype=np.int64),
    )
    return state
