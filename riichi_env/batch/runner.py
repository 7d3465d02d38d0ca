"""The one compiled game loop: ``_run`` advances tables ``lo .. hi - 1`` of an engine ``State``.

Every game path calls it: the AEC env (one table, one call per ``env.step``), the vector env, the
learner env, ``riichi_env.selfplay`` and the arena (``B`` tables). A seat is a *Python seat*
(``PYTHON_SEAT``: its action comes from the caller) or a compiled policy (``engine.selfplay``'s
``POLICY_*``, the compiled agents included), so one compile serves them all.

``_run(st, ev, tables, tabs, opts, masks, obs, obs_u8)``: the engine ``State``'s records and event
log, ``tuple(load_tables())``, then declared records in the style of ``engine/state.py``'s
``FIELDS``, and the output buffers (``BUFFERS``; one with no rows is not written):

- ``tabs``, one ``TABLE_DTYPE`` record per table (``TABLE_FIELDS``): the Python seat's action and
  the seat to act, the game index and seed base, the flags that start or reset a game, the seat
  policies, the action RNG, and what the call left (rewards, point changes, the last game's end);
- ``opts``, one ``OPTIONS_DTYPE`` record (``OPTION_FIELDS``): the table range, the reward, the
  autoreset stride and end, ``skip_forced``, ``stop_at_game_end``, the encoder and its byte
  bounds, the teacher mode, and two counters every call adds to.

A call, for each table: starts game ``game_index`` (``start``), or moves on to the next one
(``need_reset``: ``_autoreset``), or recomputes the mask of a loaded state (``refresh``); plays
the ``action`` of its Python seat (if not -1), then the compiled seats, until a Python seat must
act (``seat``, its mask and observation written) or the table has no game left (``seat`` is
``FINISHED``). Each action goes through ``engine.turn._apply``; with ``skip_forced`` a following
decision with exactly one legal action is played at once, whoever's it is.

**Autoreset** (``_autoreset``) is Gymnasium's same-step autoreset: when a game ends the call sets
``terminated``, adds the end rewards, keeps the acting seat's last view in ``obs[1]`` and the
game's end in the table's ``final_*`` fields, and starts game ``game_index + stride`` at once
(seed ``(seed_base + index) mod 2**63``; ``FINISHED`` once the index reaches ``games_end``), so
the observation returned is the new game's. With ``stop_at_game_end`` the table waits instead
with ``need_reset`` set (its state and event log still hold the ended game) and the next call
starts the next game.

**Teacher mode** (``opts.teacher >= 0``): nothing is played; ``teacher_action`` of each table
whose ``seat`` acts is what compiled policy ``opts.teacher`` would play there, random policies
drawing from ``teacher_rng`` (the learner env's expert actions).

The per-call cost matters for the AEC env (one call per step): every argument is one array to
unbox, so the buffers are few, and the caller writes and reads ``tabs`` through field views
(``tabs["action"]``), never a record scalar.
"""

from __future__ import annotations

import numpy as np

from engine._numba import jit_disabled, njit
from engine.actions import N_ACTIONS
from engine.kernels import ACTION_STREAM, _apply, _choose, _legal_mask, _reset, _rng_seed
from engine.tables import Tables
from engine.validation import SEED_MAX
from riichi_env.aec.encoders import N_ROWS, _encode

PYTHON_SEAT = -1
"""``seat_policy`` entry of a seat whose actions come from the caller."""
FINISHED = -1
"""``seat`` of a table where no seat waits for the caller; ``game_index`` of a table with no game
left."""
NO_ENCODER = -1
"""``opts.encoder`` when no observation is written."""
NO_TEACHER = -1
"""``opts.teacher`` of a call that plays (not the teacher mode)."""

REWARD_HAND = 0
"""Reward mode: each hand's point change times ``reward_params[0]``."""
REWARD_PLACEMENT = 1
"""Reward mode: at game end only, the final score."""
REWARD_RANK = 2
"""Reward mode: at game end only, ``reward_params[1 + rank]``."""
N_REWARD_PARAMS = 5
"""``reward_params``: the hand reward's scale, then the rank points of places 1-4."""
MAX_ROWS = 192
"""Capacity of the byte bounds in ``opts`` (``quant_lo``, ``quant_inv``): rows of the largest
encoder (``oracle_v0``, 184), rounded up; a new larger encoder fails at import, not in a kernel."""
HAND_ENDED = 4
"""Bit of ``_run``'s result: a hand of table ``lo`` ended during the call."""
GAME_OVER = -1
"""``_run``'s result when no seat of table ``lo`` waits (its game ended, or none is left)."""
OBS_NOW = 0
"""``obs[OBS_NOW, t]``: the acting seat's observation (with ``obs_u8``: the float scratch)."""
OBS_FINAL = 1
"""``obs[OBS_FINAL, t]``: the last view of a finished game."""

if max(N_ROWS.values()) > MAX_ROWS:
    raise ImportError(f"riichi_env.batch.runner.MAX_ROWS = {MAX_ROWS} is below an encoder's rows")

# (name, shape in one table's record, dtype, meaning)
TABLE_FIELDS: tuple[tuple[str, tuple, type, str], ...] = (
    # set by the caller
    ("action", (), np.int64, "the Python seat's action to play first (legal: checked), -1 none"),
    ("start", (), np.bool_, "start game ``game_index`` first (a reset); cleared by the call"),
    ("refresh", (), np.bool_, "recompute the mask of a loaded state first; cleared by the call"),
    ("game_index", (), np.int64, "index of the game played here (seed offset), ``FINISHED``"),
    ("seed_base", (), np.int64, "game k of this table has seed ``(seed_base + k) mod 2**63``"),
    ("seat_policy", (4,), np.int64, "each seat's ``POLICY_*``, or ``PYTHON_SEAT``"),
    ("teacher_rng", (2,), np.int64, "the teacher mode's random stream (never the game's)"),
    # kept by the call between calls
    ("need_reset", (), np.bool_, "the game ended (``stop_at_game_end``): the next call moves on"),
    ("rng", (2,), np.int64, "the action stream of compiled random seats, keyed by the game seed"),
    ("hand_points", (4,), np.int32, "points at the start of the current hand"),
    # what the call left
    ("seat", (), np.int64, "the Python seat to act now, or ``FINISHED``"),
    ("terminated", (), np.bool_, "a game ended during the call"),
    ("hand_ended", (), np.bool_, "a hand (or the game) ended during the call"),
    ("delta", (4,), np.int32, "each seat's point change over the hands ended during the call"),
    ("rewards", (4,), np.float32, "each seat's rewards during the call (``opts.reward_mode``)"),
    ("teacher_action", (), np.int64, "the teacher mode's action, -1 where no seat acts"),
    ("final_game", (), np.int64, "game index of the last finished game"),
    ("final_seat", (), np.int64, "the seat whose view ``obs[1]`` holds"),
    ("final_points", (4,), np.int32, "points at the end of the last finished game"),
    ("final_ranks", (4,), np.int32, "placements (0-3) of that game"),
    ("final_scores", (4,), np.float64, "final scores of that game"),
    ("final_seed", (), np.int64, "seed of that game"),
    ("final_hands", (), np.int32, "hands played in that game"),
    ("final_decisions", (), np.int64, "decisions taken in that game"),
)
TABLE_DTYPE = np.dtype([(n, d, s) for n, s, d, _ in TABLE_FIELDS], align=True)
"""One table's record of the runner."""

OPTION_FIELDS: tuple[tuple[str, tuple, type, str], ...] = (
    ("lo", (), np.int64, "first table of the call"),
    ("hi", (), np.int64, "one past the last table of the call"),
    ("reward_mode", (), np.int64, "``REWARD_*``"),
    ("reward_params", (N_REWARD_PARAMS,), np.float64, "scale, then the rank points of 1st-4th"),
    ("skip_forced", (), np.bool_, "play decisions with one legal action at once"),
    ("stop_at_game_end", (), np.bool_, "a finished game waits (``need_reset``) instead"),
    ("stride", (), np.int64, "game index step of the autoreset (the tables of a batch)"),
    ("games_end", (), np.int64, "game indices from here on are not played (``FINISHED``)"),
    ("encoder", (), np.int64, "``riichi_env.encoders`` id of the observations, ``NO_ENCODER``"),
    ("teacher", (), np.int64, "``POLICY_*`` of the teacher mode, or ``NO_TEACHER`` (play)"),
    ("quant_lo", (MAX_ROWS,), np.float32, "each observation row's low bound (``obs_u8``)"),
    ("quant_inv", (MAX_ROWS,), np.float32, "each row's 255 / (high - low) (``obs_u8``)"),
    ("games_done", (), np.int64, "games finished, added to by every call (progress)"),
    ("played", (), np.int64, "actions played, added to by every call"),
)
OPTIONS_DTYPE = np.dtype([(n, d, s) for n, s, d, _ in OPTION_FIELDS], align=True)
"""The options record of a call (an array of one)."""

BUFFERS: tuple[tuple[str, str, str], ...] = (
    ("masks", "int8 (B, N_ACTIONS)", "each table's legal actions of the seat to act"),
    (
        "obs",
        "float32 (views, B, rows, 34)",
        "``OBS_NOW``: the acting seat's observation; ``OBS_FINAL``: a finished game's last view",
    ),
    ("obs_u8", "uint8 (B, rows, 34)", "the observation in bytes, written instead when it has rows"),
)
"""The output buffers of ``_run``, after ``opts``: (name, dtype and shape, meaning)."""


def new_tables(n: int) -> np.ndarray:
    """``n`` runner tables, every seat a Python seat, no game started (``FINISHED``)."""
    tabs = np.zeros(n, dtype=TABLE_DTYPE)
    tabs["action"] = -1
    tabs["seat_policy"] = PYTHON_SEAT
    tabs["game_index"] = FINISHED
    tabs["seat"] = FINISHED
    tabs["teacher_action"] = -1
    return _kernel_view(tabs)


def new_options() -> np.ndarray:
    """The options record (an array of one): no encoder, hand reward with scale 1, every game
    index playable, no stop at game end."""
    opts = np.zeros(1, dtype=OPTIONS_DTYPE)
    opts["reward_params"][0, 0] = 1.0
    opts["stride"] = 1
    opts["games_end"] = 2**62
    opts["encoder"] = NO_ENCODER
    opts["teacher"] = NO_TEACHER
    return _kernel_view(opts)


def _kernel_view(records: np.ndarray) -> np.ndarray:
    """As ``engine.state``: a ``np.recarray`` view under ``NUMBA_DISABLE_JIT`` (fields read as
    attributes, as in Numba), else the plain array."""
    return records.view(np.recarray) if jit_disabled() else records.view(np.ndarray)


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
        new_tables(1),
        new_options(),
        np.zeros((1, N_ACTIONS), dtype=np.int8),
        np.zeros((0, 1, 1, 34), dtype=np.float32),
        np.zeros((0, 1, 34), dtype=np.uint8),
    )


@njit
def _run(st, ev, tables_tuple, tabs, opts, masks, obs, obs_u8):
    """Advance tables ``opts.lo .. opts.hi - 1`` (module docstring).

    Returns what a one-table caller (the AEC env) reads of table ``lo``: ``GAME_OVER`` when no
    seat of it waits, else the seat to act, plus ``HAND_ENDED`` if a hand ended during the call
    (0 in the teacher mode).

    ``tables_tuple`` is ``tuple(load_tables())`` (a plain tuple crosses from Python faster than a
    NamedTuple).
    """
    tables = Tables(tables_tuple[0], tables_tuple[1])
    op = opts[0]
    if op.teacher >= 0:
        _teach(st, tables, tabs, op, masks)
        return 0
    rng = np.empty(2, dtype=np.int64)  # a table's stream as a plain array (as the agents take)
    for t in range(op.lo, op.hi):
        tab = tabs[t]
        rng[0] = tab.rng[0]
        rng[1] = tab.rng[1]
        op.played += _run_table(st, t, ev, tables, tab, op, masks, obs, obs_u8, rng)
        tab.rng[0] = rng[0]
        tab.rng[1] = rng[1]
    if op.lo >= op.hi:
        return GAME_OVER
    tab = tabs[op.lo]
    if tab.seat < 0:
        return GAME_OVER
    return tab.seat | (HAND_ENDED if tab.hand_ended else 0)


@njit
def _run_table(st, t, ev, tables, tab, op, masks, obs, obs_u8, rng):
    """``_run`` on table ``t`` (its record ``tab``, its action stream ``rng``): the actions
    played."""
    rec = st[t]
    mask = masks[t]
    tab.terminated = False
    tab.hand_ended = False
    for s in range(4):
        tab.rewards[s] = 0.0
        tab.delta[s] = 0
    if tab.start:
        tab.start = False
        tab.need_reset = False
        if tab.game_index != FINISHED:
            _start_game(st, t, ev, tables, tab, mask, rng)
    if tab.need_reset:
        tab.need_reset = False
        _autoreset(st, t, ev, tables, tab, op, mask, rng)
    if tab.refresh:
        tab.refresh = False
        for s in range(4):
            tab.hand_points[s] = rec.points[s]
        if rec.game_over:
            mask[:] = 0
        else:
            _legal_mask(st, t, tables, mask)
    action = tab.action
    tab.action = -1
    if tab.game_index == FINISHED or (rec.game_over and action < 0):
        tab.seat = FINISHED
        return 0
    actor = rec.actor
    played = 0
    while True:
        if action < 0:
            policy = tab.seat_policy[actor]
            if policy == PYTHON_SEAT:
                break
            n = 0
            for a in range(mask.shape[0]):
                n += mask[a]
            action = _choose(st, t, tables, mask, n, policy, rng)
        hand = rec.hand_index
        _apply(st, t, ev, tables, action)
        played += 1
        action = -1
        if rec.game_over or rec.hand_index != hand:  # one hand at most (a deal is no forced move)
            tab.hand_ended = True
            for s in range(4):
                d = rec.points[s] - tab.hand_points[s]
                tab.delta[s] += d
                if op.reward_mode == REWARD_HAND:
                    tab.rewards[s] += d * op.reward_params[0]
                tab.hand_points[s] = rec.points[s]
        if not rec.game_over:
            count = _legal_mask(st, t, tables, mask)
            if op.skip_forced and count == 1:
                for a in range(mask.shape[0]):
                    if mask[a]:
                        action = a
                continue
        if not rec.game_over:
            actor = rec.actor
            continue
        mask[:] = 0
        _game_over(st, t, tables, tab, op, obs)
        if op.stop_at_game_end:
            tab.need_reset = True
            break
        _autoreset(st, t, ev, tables, tab, op, mask, rng)
        if tab.game_index == FINISHED:
            break
        actor = rec.actor
    if tab.game_index == FINISHED or tab.need_reset:
        tab.seat = FINISHED
        return played
    tab.seat = actor
    if op.encoder >= 0 and obs.shape[0] > OBS_NOW:
        out = obs[OBS_NOW, t]
        _encode(st, t, actor, op.encoder, tables.shanten_suit, tables.shanten_honor, out)
        if obs_u8.shape[0] > 0:
            _quantize(out, op.quant_lo, op.quant_inv, obs_u8[t])
    return played


@njit
def _game_over(st, t, tables, tab, op, obs):
    """A game ended at table ``t``: ``terminated``, the end rewards, the acting seat's last view
    (``obs[OBS_FINAL]``), the table's ``final_*`` fields, ``opts.games_done``."""
    rec = st[t]
    tab.terminated = True
    for s in range(4):
        if op.reward_mode == REWARD_PLACEMENT:
            tab.rewards[s] += rec.final_scores[s]
        elif op.reward_mode == REWARD_RANK:
            tab.rewards[s] += op.reward_params[1 + rec.final_ranks[s]]
    seat = tab.seat
    tab.final_seat = seat
    if obs.shape[0] > OBS_FINAL and op.encoder >= 0 and seat >= 0:
        out = obs[OBS_FINAL, t]
        _encode(st, t, seat, op.encoder, tables.shanten_suit, tables.shanten_honor, out)
    tab.final_game = tab.game_index
    for s in range(4):
        tab.final_points[s] = rec.points[s]
        tab.final_ranks[s] = rec.final_ranks[s]
        tab.final_scores[s] = rec.final_scores[s]
    tab.final_seed = rec.seed
    tab.final_hands = rec.hand_index
    tab.final_decisions = rec.n_decisions
    op.games_done += 1


@njit
def _autoreset(st, t, ev, tables, tab, op, mask, rng):
    """Start table ``t``'s next game, index ``game_index + opts.stride``, or mark it ``FINISHED``
    once that index reaches ``opts.games_end``."""
    k = tab.game_index + op.stride
    if tab.game_index == FINISHED or k >= op.games_end:
        tab.game_index = FINISHED
        return
    tab.game_index = k
    _start_game(st, t, ev, tables, tab, mask, rng)


@njit
def _start_game(st, t, ev, tables, tab, mask, rng):
    """Deal game ``game_index`` at table ``t``: its seed, action stream ``rng``, first mask and
    hand points."""
    seed = (tab.seed_base + tab.game_index) & SEED_MAX
    _rng_seed(rng, seed, ACTION_STREAM)
    _reset(st, t, ev, tables, seed)
    _legal_mask(st, t, tables, mask)
    for s in range(4):
        tab.hand_points[s] = st[t].points[s]


@njit
def _teach(st, tables, tabs, op, masks):
    """The teacher mode: each acting table's ``teacher_action`` under policy ``opts.teacher``."""
    rng = np.empty(2, dtype=np.int64)
    for t in range(op.lo, op.hi):
        tab = tabs[t]
        tab.teacher_action = -1
        if tab.seat < 0:
            continue
        mask = masks[t]
        n = 0
        for a in range(mask.shape[0]):
            n += mask[a]
        if n > 0:
            rng[0] = tab.teacher_rng[0]
            rng[1] = tab.teacher_rng[1]
            tab.teacher_action = _choose(st, t, tables, mask, n, op.teacher, rng)
            tab.teacher_rng[0] = rng[0]
            tab.teacher_rng[1] = rng[1]


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
    "FINISHED",
    "GAME_OVER",
    "HAND_ENDED",
    "NO_ENCODER",
    "NO_TEACHER",
    "OBS_FINAL",
    "OBS_NOW",
    "OPTIONS_DTYPE",
    "OPTION_FIELDS",
    "PYTHON_SEAT",
    "REWARD_HAND",
    "REWARD_PLACEMENT",
    "REWARD_RANK",
    "TABLE_DTYPE",
    "TABLE_FIELDS",
    "example_arguments",
    "new_options",
    "new_tables",
]
