"""The one compiled game loop: ``run`` advances tables ``lo .. hi - 1`` of an engine ``State``.

Every game path calls it: the AEC env (one table, one call per ``env.step``), the vector env, the
learner env, ``riichi_env.selfplay`` and the arena (``B`` tables). A seat is a *Python seat*
(``PYTHON_SEAT``: its action comes from the caller) or a compiled policy (``engine.selfplay``'s
``POLICY_*``, the compiled agents included). The one body is compiled as two kernels
(``_runner``): ``_run`` plays every policy and the teacher mode; ``_run_random`` only Python
seats and the random policies, a smaller compile (no agents) for the AEC env and random
self-play. ``runner_for(seat_policy)`` picks the one a batch needs.

``run(st, ev, tables, ti, tf, masks, obs, obs_u8)``: the engine ``State``'s records and event
log, ``tuple(load_tables())``, then two declared records and the output buffers (``BUFFERS``; a
buffer with no rows is not written):

- ``ti`` / ``tf``, ``int64`` / ``float64``, one row per table (``TABLE_INTS``, ``TABLE_FLOATS``):
  the Python seat's action and the seat to act, the game index and seed base, the flags that
  start or reset a game, the seat policies, the action RNG, and what the call left (rewards,
  point changes, the last finished game);
- their last row, ``ti[B]`` / ``tf[B]``: the options of the call (``OPTION_INTS``,
  ``OPTION_FLOATS``): the table range, the reward, the autoreset stride and end,
  ``skip_forced``, ``stop_at_game_end``, the encoder, the teacher mode, and two counters every
  call adds to. (In the tables' arrays rather than two more: each array argument costs a call
  from Python about 0.1 us, which the AEC env pays per step.)

Each record is declared field by field, as ``engine/state.py``'s ``FIELDS`` (name, width,
meaning); a field is a column (or ``width`` columns) at the index its ``T_*`` / ``F_*`` /
``O_*`` / ``P_*`` constant names, and ``columns(fields)`` gives the views Python reads and writes
(``ti[:, T_SEAT]``, ``tf[:, F_REWARDS:F_REWARDS + 4]``). Plain arrays and not NumPy structured
arrays: Numba types a structured array from Python through a slow path (about 0.25 us per
argument, measured), which the AEC env would pay three times per step.

A call, for each table: starts game ``game_index`` (``start``), or moves on to the next one
(``need_reset``: ``_autoreset``), or recomputes the mask of a loaded state (``refresh``); plays
the ``action`` of its Python seat (if not -1), then the compiled seats, until a Python seat must
act (``seat``, its mask and observation written) or the table has no game left (``seat`` is
``FINISHED``). Each action goes through ``engine.turn._apply``; with ``skip_forced`` a following
decision with exactly one legal action is played at once, whoever's it is.

**Autoreset** (``_autoreset``) is Gymnasium's same-step autoreset: when a game ends the call sets
``terminated``, adds the end rewards, keeps the acting seat's last view in ``obs[OBS_FINAL]`` and
the game's end in the table's ``final_*`` fields, and starts game ``game_index + stride`` at once
(seed ``(seed_base + index) mod 2**63``; ``FINISHED`` once the index reaches ``games_end``), so
the observation returned is the new game's. With ``stop_at_game_end`` the table waits instead
with ``need_reset`` set (its state and event log still hold the ended game) and the next call
starts the next game.

**Teacher mode** (``teacher >= 0``): nothing is played; ``teacher_action`` of each table whose
``seat`` acts is what compiled policy ``teacher`` would play there, random policies drawing from
``teacher_rng`` (the learner env's expert actions).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import N_ACTIONS
from engine.kernels import ACTION_STREAM, _apply, _choose, _legal_mask, _reset, _rng_seed
from engine.selfplay import POLICY_SIMPLE, _choose_random
from engine.tables import Tables
from engine.validation import SEED_MAX
from riichi_env.aec.encoders import ENCODERS, N_ROWS, _encode, bounds
from riichi_env.aec.options import REWARD_HAND, REWARD_PLACEMENT, REWARD_RANK

PYTHON_SEAT = -1
"""``seat_policy`` entry of a seat whose actions come from the caller."""
FINISHED = -1
"""``seat`` of a table where no seat waits for the caller; ``game_index`` of a table with no game
left."""
NO_ENCODER = -1
"""``encoder`` option when no observation is written."""
NO_TEACHER = -1
"""``teacher`` option of a call that plays (not the teacher mode)."""

MAX_ROWS = 192
"""Row capacity of the byte bounds (``QUANT_LO``, ``QUANT_INV``): rows of the largest encoder
(``oracle_v0``, 184), rounded up; a new larger encoder fails at import, not in a kernel."""
HAND_ENDED = 4
"""Bit of ``_run``'s result: a hand of table ``lo`` ended during the call."""
GAME_OVER = -1
"""``_run``'s result when no seat of table ``lo`` waits (its game ended, or none is left)."""
OBS_NOW = 0
"""``obs[OBS_NOW, t]``: the acting seat's observation (with ``obs_u8``: ``obs[OBS_NOW, 0]`` is the
float form of each table's in turn, a scratch that stays in the cache)."""
OBS_FINAL = 1
"""``obs[OBS_FINAL, t]``: the last view of a finished game."""

if max(N_ROWS.values()) > MAX_ROWS:
    raise ImportError(f"riichi_env.batch.runner.MAX_ROWS = {MAX_ROWS} is below an encoder's rows")

# (name, width in columns, meaning); bools are 0 / 1
TABLE_INTS: tuple[tuple[str, int, str], ...] = (
    # set by the caller
    ("action", 1, "the Python seat's action to play first (legal: checked), -1 none"),
    ("start", 1, "start game ``game_index`` first (a reset); cleared by the call"),
    ("refresh", 1, "recompute the mask of a loaded state first; cleared by the call"),
    ("game_index", 1, "index of the game played here (its seed offset), ``FINISHED``"),
    ("seed_base", 1, "game k of this table has seed ``(seed_base + k) mod 2**63``"),
    ("seat_policy", 4, "each seat's ``POLICY_*``, or ``PYTHON_SEAT``"),
    ("teacher_rng", 2, "the teacher mode's random stream (never the game's)"),
    # kept by the call between calls
    ("need_reset", 1, "the game ended (``stop_at_game_end``): the next call moves on"),
    ("rng", 2, "the action stream of compiled random seats, keyed by the game seed"),
    ("hand_points", 4, "points at the start of the current hand"),
    # what the call left
    ("seat", 1, "the Python seat to act now, or ``FINISHED``"),
    ("terminated", 1, "a game ended during the call"),
    ("hand_ended", 1, "a hand (or the game) ended during the call"),
    ("delta", 4, "each seat's point change over the hands ended during the call"),
    ("teacher_action", 1, "the teacher mode's action, -1 where no seat acts"),
    ("final_game", 1, "game index of the last finished game"),
    ("final_seat", 1, "the seat whose view ``obs[OBS_FINAL]`` holds"),
    ("final_seed", 1, "seed of that game"),
    # one result row, in ``FINAL_RESULT``'s order (a self-play result copies it at once)
    ("final_points", 4, "points at the end of that game"),
    ("final_ranks", 4, "placements (0-3) of that game"),
    ("final_hands", 1, "hands played in that game"),
    ("final_decisions", 1, "decisions taken in that game"),
)
"""A table's ``int64`` row ``ti[t]``."""
TABLE_FLOATS: tuple[tuple[str, int, str], ...] = (
    ("rewards", 4, "each seat's rewards during the call (float32 sums, as the vector env's)"),
    ("final_scores", 4, "final scores of the last finished game"),
)
"""A table's ``float64`` row ``tf[t]``."""
OPTION_INTS: tuple[tuple[str, int, str], ...] = (
    ("lo", 1, "first table of the call"),
    ("hi", 1, "one past the last table of the call"),
    ("reward_mode", 1, "``REWARD_*``"),
    ("skip_forced", 1, "play decisions with one legal action at once"),
    ("stop_at_game_end", 1, "a finished game waits (``need_reset``) instead of the autoreset"),
    ("stride", 1, "game index step of the autoreset (the tables of a batch)"),
    ("games_end", 1, "game indices from here on are not played (``FINISHED``)"),
    ("encoder", 1, "``riichi_env.aec.encoders`` id of the observations, ``NO_ENCODER``"),
    ("teacher", 1, "``POLICY_*`` of the teacher mode, or ``NO_TEACHER`` (play)"),
    ("games_done", 1, "games finished, added to by every call (progress)"),
    ("played", 1, "actions played, added to by every call"),
)
"""The call's ``int64`` options, the last row of ``ti``."""
OPTION_FLOATS: tuple[tuple[str, int, str], ...] = (
    ("reward_scale", 1, "``REWARD_HAND``: the factor of the point changes"),
    ("rank_points", 4, "``REWARD_RANK``: the reward of places 1-4"),
)
"""The call's ``float64`` options, the last row of ``tf``."""


def _offsets(fields: tuple[tuple[str, int, str], ...]) -> dict[str, int]:
    """Each field's first column, in declaration order; ``"_width"``: the row's width."""
    out, col = {}, 0
    for name, width, _ in fields:
        out[name] = col
        col += width
    out["_width"] = col
    return out


def columns(fields: tuple[tuple[str, int, str], ...], array: np.ndarray) -> dict[str, np.ndarray]:
    """Views of ``array`` (a record of ``fields``) by field name: a column (``[..., i]``) for a
    field of width 1, else its columns (``[..., i:i + width]``)."""
    at = _offsets(fields)
    return {
        name: array[..., at[name]] if width == 1 else array[..., at[name] : at[name] + width]
        for name, width, _ in fields
    }


_T, _F, _O, _P = map(_offsets, (TABLE_INTS, TABLE_FLOATS, OPTION_INTS, OPTION_FLOATS))
T_ACTION, T_START, T_REFRESH = _T["action"], _T["start"], _T["refresh"]
T_GAME_INDEX, T_SEED_BASE, T_SEAT_POLICY = _T["game_index"], _T["seed_base"], _T["seat_policy"]
T_TEACHER_RNG, T_NEED_RESET, T_RNG = _T["teacher_rng"], _T["need_reset"], _T["rng"]
T_HAND_POINTS, T_SEAT, T_TERMINATED = _T["hand_points"], _T["seat"], _T["terminated"]
T_HAND_ENDED, T_DELTA, T_TEACHER_ACTION = _T["hand_ended"], _T["delta"], _T["teacher_action"]
T_FINAL_GAME, T_FINAL_SEAT, T_FINAL_POINTS = _T["final_game"], _T["final_seat"], _T["final_points"]
T_FINAL_RANKS, T_FINAL_SEED, T_FINAL_HANDS = _T["final_ranks"], _T["final_seed"], _T["final_hands"]
T_FINAL_DECISIONS, T_WIDTH = _T["final_decisions"], _T["_width"]
F_REWARDS, F_FINAL_SCORES, F_WIDTH = _F["rewards"], _F["final_scores"], _F["_width"]
O_LO, O_HI, O_REWARD_MODE, O_SKIP_FORCED = _O["lo"], _O["hi"], _O["reward_mode"], _O["skip_forced"]
O_STOP_AT_GAME_END, O_STRIDE, O_GAMES_END = _O["stop_at_game_end"], _O["stride"], _O["games_end"]
O_ENCODER, O_TEACHER, O_GAMES_DONE = _O["encoder"], _O["teacher"], _O["games_done"]
O_PLAYED, O_WIDTH = _O["played"], _O["_width"]
P_REWARD_SCALE, P_RANK_POINTS = _P["reward_scale"], _P["rank_points"]
P_WIDTH = _P["_width"]
if O_WIDTH > T_WIDTH or P_WIDTH > F_WIDTH:
    raise ImportError("the options must fit in a row of the tables' records")


def _byte_bounds() -> tuple[np.ndarray, np.ndarray]:
    """Each encoder's rows' low bound and 255 / (high - low), ``float32 (encoders, MAX_ROWS)``:
    what ``obs_u8`` quantizes with (constants of the compiled runner)."""
    lo = np.zeros((len(ENCODERS), MAX_ROWS), dtype=np.float32)
    inv = np.ones((len(ENCODERS), MAX_ROWS), dtype=np.float32)
    for i, name in enumerate(ENCODERS):
        low, high = bounds(name)
        lo[i, : low.shape[0]] = low[:, 0]
        inv[i, : low.shape[0]] = 255.0 / (high[:, 0] - low[:, 0])
    return lo, inv


QUANT_LO, QUANT_INV = _byte_bounds()
FINAL_RESULT = slice(T_FINAL_POINTS, T_FINAL_DECISIONS + 1)
"""Columns of ``ti`` holding the last finished game's points 0-3, ranks 4-7, hands 8 and
decisions 9: ``riichi_env.selfplay``'s result row."""
if FINAL_RESULT.stop - FINAL_RESULT.start != 10:
    raise ImportError("the final_* result columns of TABLE_INTS must be contiguous")

BUFFERS: tuple[tuple[str, str, str], ...] = (
    ("masks", "int8 (B, N_ACTIONS)", "each table's legal actions of the seat to act"),
    (
        "obs",
        "float32 (views, B, rows, 34)",
        "``OBS_NOW``: the acting seat's observation (needed with ``obs_u8``: the float form); "
        "``OBS_FINAL``: a finished game's last view",
    ),
    ("obs_u8", "uint8 (B, rows, 34)", "the observation in bytes, written too when it has rows"),
)
"""The output buffers of ``_run``, after the records: (name, dtype and shape, meaning)."""


def new_tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(ti, tf)`` of ``n`` tables, ``n + 1`` rows (the last: the options): every seat a Python
    seat, no game started (``FINISHED``); no tables in the call, no encoder, hand reward with
    scale 1, every game index playable, no stop at game end, play (not the teacher mode)."""
    ti = np.zeros((n + 1, T_WIDTH), dtype=np.int64)
    ti[:n, T_ACTION] = -1
    ti[:n, T_SEAT_POLICY : T_SEAT_POLICY + 4] = PYTHON_SEAT
    ti[:n, T_GAME_INDEX] = FINISHED
    ti[:n, T_SEAT] = FINISHED
    ti[:n, T_TEACHER_ACTION] = -1
    oi = ti[n]
    oi[O_STRIDE] = 1
    oi[O_GAMES_END] = 2**62
    oi[O_ENCODER] = NO_ENCODER
    oi[O_TEACHER] = NO_TEACHER
    tf = np.zeros((n + 1, F_WIDTH), dtype=np.float64)
    tf[n, P_REWARD_SCALE] = 1.0
    return ti, tf


def fields(ti: np.ndarray, tf: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """``(tables, options)``: views of ``new_tables``' arrays by field name (``columns``)."""
    n = ti.shape[0] - 1
    tables = {**columns(TABLE_INTS, ti[:n]), **columns(TABLE_FLOATS, tf[:n])}
    return tables, {**columns(OPTION_INTS, ti[n]), **columns(OPTION_FLOATS, tf[n])}


def example_arguments() -> tuple:
    """Arguments of a ``_run`` call over no tables, of the types every caller passes: what a
    compile of the runner ahead of use calls it with (it plays nothing)."""
    from engine.rules import MAHJONGSOUL
    from engine.state import new_state
    from engine.tables import load_tables

    state = new_state(1, MAHJONGSOUL, 0)
    return (
        state.records,
        state.events,
        tuple(load_tables()),
        *new_tables(1),
        np.zeros((1, N_ACTIONS), dtype=np.int8),
        np.zeros((0, 1, 1, 34), dtype=np.float32),
        np.zeros((0, 1, 34), dtype=np.uint8),
    )


def _runner(agents: bool):
    """The runner's kernel: with ``agents``, every ``POLICY_*`` and the teacher mode (``_run``);
    without, the Python seats and the random policies only (``_run_random``). One body: Numba
    drops the branches on ``agents`` before typing, so ``_run_random`` never compiles the agents."""

    def run(st, ev, tables_tuple, ti, tf, masks, obs, obs_u8):
        """Advance tables ``lo .. hi - 1`` (module docstring).

        Returns what a one-table caller (the AEC env) reads of table ``lo``: ``GAME_OVER`` when
        no seat of it waits, else the seat to act, plus ``HAND_ENDED`` if a hand ended during the
        call (0 in the teacher mode). ``tables_tuple`` is ``tuple(load_tables())`` (a plain tuple
        crosses from Python faster than a NamedTuple).
        """
        tables = Tables(tables_tuple[0], tables_tuple[1])
        nb = ti.shape[0] - 1  # the options' row (read in place: a view costs a step ~20 ns)
        lo, hi = ti[nb, O_LO], ti[nb, O_HI]
        if ti[nb, O_TEACHER] >= 0:
            if agents:
                _teach(st, tables, ti, ti[nb, O_TEACHER], lo, hi, masks)
                return 0
            raise ValueError("the teacher mode runs in _run, not _run_random")
        for t in range(lo, hi):  # the body is not a function of its own: a call passing every
            # buffer costs the AEC env's step about 0.14 us (measured)
            rec = st[t]
            mask = masks[t]
            rng = ti[t, T_RNG : T_RNG + 2]  # the action stream: contiguous, as the agents take it
            ti[t, T_TERMINATED] = 0
            ti[t, T_HAND_ENDED] = 0
            for s in range(4):
                tf[t, F_REWARDS + s] = 0.0
                ti[t, T_DELTA + s] = 0
            count = np.int64(
                -1
            )  # legal actions in ``mask``, -1 while not known (int64: one signature)
            if ti[t, T_START]:
                ti[t, T_START] = 0
                ti[t, T_NEED_RESET] = 0
                if ti[t, T_GAME_INDEX] != FINISHED:
                    count = _start_game(st, t, ev, tables, ti, mask, rng)
            if ti[t, T_NEED_RESET]:
                ti[t, T_NEED_RESET] = 0
                count = _autoreset(st, t, ev, tables, ti, ti[nb], mask, rng)
            if ti[t, T_REFRESH]:
                ti[t, T_REFRESH] = 0
                for s in range(4):
                    ti[t, T_HAND_POINTS + s] = rec.points[s]
                if rec.game_over:
                    mask[:] = 0
                else:
                    count = _legal_mask(st, t, tables, mask)
            action = ti[t, T_ACTION]
            ti[t, T_ACTION] = -1
            if ti[t, T_GAME_INDEX] == FINISHED or (rec.game_over and action < 0):
                ti[t, T_SEAT] = FINISHED
                continue
            actor = np.int64(rec.actor)
            played = 0
            while True:
                if action < 0:
                    policy = ti[t, T_SEAT_POLICY + actor]
                    if policy == PYTHON_SEAT:
                        break
                    if count < 0:
                        count = np.int64(0)
                        for a in range(mask.shape[0]):
                            count += mask[a]
                    if policy < POLICY_SIMPLE:  # the random policies straight: 8 % faster
                        action = _choose_random(st, t, tables, mask, count, policy, rng)
                    elif agents:
                        action = _choose(st, t, tables, mask, count, policy, rng)
                    else:
                        raise ValueError("a compiled agent plays in _run, not _run_random")
                hand = rec.hand_index
                _apply(st, t, ev, tables, action)
                played += 1
                action = -1
                if (
                    rec.game_over or rec.hand_index != hand
                ):  # one hand at most (a deal is no forced move)
                    ti[t, T_HAND_ENDED] = 1
                    for s in range(4):
                        d = rec.points[s] - ti[t, T_HAND_POINTS + s]
                        ti[t, T_DELTA + s] += d
                        if ti[nb, O_REWARD_MODE] == REWARD_HAND:
                            _add_reward(tf, t, s, d * tf[nb, P_REWARD_SCALE])
                        ti[t, T_HAND_POINTS + s] = rec.points[s]
                if not rec.game_over:
                    count = _legal_mask(st, t, tables, mask)
                    if ti[nb, O_SKIP_FORCED] and count == 1:
                        for a in range(mask.shape[0]):
                            if mask[a]:
                                action = a
                        continue
                    actor = np.int64(rec.actor)
                    continue
                mask[:] = 0
                _game_over(st, t, tables, ti, tf, ti[nb], tf[nb], obs)
                if ti[nb, O_STOP_AT_GAME_END]:
                    ti[t, T_NEED_RESET] = 1
                    break
                count = _autoreset(st, t, ev, tables, ti, ti[nb], mask, rng)
                if ti[t, T_GAME_INDEX] == FINISHED:
                    break
                actor = np.int64(rec.actor)
            ti[nb, O_PLAYED] += played
            if ti[t, T_GAME_INDEX] == FINISHED or ti[t, T_NEED_RESET]:
                ti[t, T_SEAT] = FINISHED
                continue
            ti[t, T_SEAT] = actor
            enc = ti[nb, O_ENCODER]
            if enc >= 0 and obs.shape[0] > OBS_NOW:
                quantized = obs_u8.shape[0] > 0
                out = obs[OBS_NOW, 0 if quantized else t]  # bytes: one float row, kept in the cache
                _encode(st, t, actor, enc, tables.shanten_suit, tables.shanten_honor, out)
                if quantized:
                    rows = out.shape[0]
                    _quantize(out, QUANT_LO[enc, :rows], QUANT_INV[enc, :rows], obs_u8[t])
        if lo >= hi or ti[lo, T_SEAT] < 0:
            return GAME_OVER
        return ti[lo, T_SEAT] | (HAND_ENDED if ti[lo, T_HAND_ENDED] else 0)

    name = "_run" if agents else "_run_random"
    run.__name__ = run.__qualname__ = name  # the name Numba's cache file and messages use
    return njit(run)


_run = _runner(True)
"""The runner with every compiled policy and the teacher mode: the arena, self-play of the
agents, the learner env, a vector env with agent opponents."""
_run_random = _runner(False)
"""The runner without the compiled agents (Python seats and random policies): the AEC env,
random self-play, a vector env of Python seats. A smaller compile (no agents)."""


def runner_for(seat_policy: np.ndarray) -> object:
    """``_run`` if any seat of ``seat_policy`` (``int64[4]`` or ``(n, 4)``) is a compiled agent,
    else ``_run_random``."""
    return _run if bool((seat_policy >= POLICY_SIMPLE).any()) else _run_random


@njit
def _add_reward(tf, t, s, x):
    """Add ``x`` to seat ``s``'s reward at table ``t``, rounded to float32 as a float32 sum would be."""
    tf[t, F_REWARDS + s] = np.float32(tf[t, F_REWARDS + s] + x)


@njit(inline="always")  # the runner's own: no module of its own to compile and optimise
def _game_over(st, t, tables, ti, tf, oi, of, obs):
    """A game ended at table ``t``: ``terminated``, the end rewards, the acting seat's last view
    (``obs[OBS_FINAL]``), the table's ``final_*`` fields, ``games_done``."""
    rec = st[t]
    ti[t, T_TERMINATED] = 1
    mode = oi[O_REWARD_MODE]
    for s in range(4):
        if mode == REWARD_PLACEMENT:
            _add_reward(tf, t, s, rec.final_scores[s])
        elif mode == REWARD_RANK:
            _add_reward(tf, t, s, of[P_RANK_POINTS + rec.final_ranks[s]])
    seat = ti[t, T_SEAT]
    ti[t, T_FINAL_SEAT] = seat
    enc = oi[O_ENCODER]
    if obs.shape[0] > OBS_FINAL and enc >= 0 and seat >= 0:
        out = obs[OBS_FINAL, t]
        _encode(st, t, seat, enc, tables.shanten_suit, tables.shanten_honor, out)
    ti[t, T_FINAL_GAME] = ti[t, T_GAME_INDEX]
    for s in range(4):
        ti[t, T_FINAL_POINTS + s] = rec.points[s]
        ti[t, T_FINAL_RANKS + s] = rec.final_ranks[s]
        tf[t, F_FINAL_SCORES + s] = rec.final_scores[s]
    ti[t, T_FINAL_SEED] = rec.seed
    ti[t, T_FINAL_HANDS] = rec.hand_index
    ti[t, T_FINAL_DECISIONS] = rec.n_decisions
    oi[O_GAMES_DONE] += 1


@njit(inline="always")  # the runner's own: no module of its own to compile and optimise
def _autoreset(st, t, ev, tables, ti, oi, mask, rng):
    """Start table ``t``'s next game, index ``game_index + stride``, or mark it ``FINISHED`` once
    that index reaches ``games_end``; the first decision's legal actions (-1: none)."""
    k = ti[t, T_GAME_INDEX] + oi[O_STRIDE]
    if ti[t, T_GAME_INDEX] == FINISHED or k >= oi[O_GAMES_END]:
        ti[t, T_GAME_INDEX] = FINISHED
        return -1
    ti[t, T_GAME_INDEX] = k
    return _start_game(st, t, ev, tables, ti, mask, rng)


@njit(inline="always")  # the runner's own: no module of its own to compile and optimise
def _start_game(st, t, ev, tables, ti, mask, rng):
    """Deal game ``game_index`` at table ``t``: its seed, action stream ``rng``, first mask and
    hand points; the first decision's legal actions."""
    seed = (ti[t, T_SEED_BASE] + ti[t, T_GAME_INDEX]) & SEED_MAX
    _rng_seed(rng, seed, ACTION_STREAM)
    _reset(st, t, ev, tables, seed)
    count = _legal_mask(st, t, tables, mask)
    for s in range(4):
        ti[t, T_HAND_POINTS + s] = st[t].points[s]
    return count


@njit(inline="always")  # the runner's own: no module of its own to compile and optimise
def _teach(st, tables, ti, policy, lo, hi, masks):
    """The teacher mode: each acting table's ``teacher_action`` under ``policy``."""
    for t in range(lo, hi):
        ti[t, T_TEACHER_ACTION] = -1
        if ti[t, T_SEAT] < 0:
            continue
        mask = masks[t]
        n = np.int64(0)
        for a in range(mask.shape[0]):
            n += mask[a]
        if n > 0:
            rng = ti[t, T_TEACHER_RNG : T_TEACHER_RNG + 2]
            ti[t, T_TEACHER_ACTION] = _choose(st, t, tables, mask, n, policy, rng)


@njit(fastmath=True)
def _quantize(x, lo, inv, out):
    """``out = round((x - lo) * inv)``, the byte form of a float observation (0 .. 255).

    ``fastmath`` lets the clamp and the conversion vectorize (2.3x faster; values are finite).
    """
    zero = np.float32(0.0)
    top = np.float32(255.0)
    for r in range(x.shape[0]):
        a = inv[r]
        b = np.float32(0.5) - lo[r] * inv[r]
        row = x[r]
        dest = out[r]
        for c in range(row.shape[0]):
            dest[c] = np.uint8(np.int32(min(max(row[c] * a + b, zero), top)))


__all__ = [
    "BUFFERS",
    "FINAL_RESULT",
    "FINISHED",
    "GAME_OVER",
    "HAND_ENDED",
    "NO_ENCODER",
    "NO_TEACHER",
    "OBS_FINAL",
    "OBS_NOW",
    "OPTION_FLOATS",
    "OPTION_INTS",
    "PYTHON_SEAT",
    "REWARD_HAND",
    "REWARD_PLACEMENT",
    "REWARD_RANK",
    "TABLE_FLOATS",
    "TABLE_INTS",
    "columns",
    "example_arguments",
    "fields",
    "new_tables",
    "runner_for",
]
