"""The one compiled game loop: ``_run`` advances tables ``lo .. hi - 1`` of an engine ``State``.

Every game path calls it: the AEC env (one table, one call per ``env.step``), the vector env, the
learner env, ``riichi_env.selfplay`` and the arena (``B`` tables). A seat is a *Python seat*
(``PYTHON_SEAT``: its action comes from the caller) or a compiled policy (``engine.selfplay``'s
``POLICY_*``, the compiled agents included), so one compile serves them all.

Its parameters are declared records, in the style of ``engine/state.py``'s ``FIELDS``:

- ``tabs``, one ``TABLE_DTYPE`` record per table (``TABLE_FIELDS``): the pending action and the
  acting seat, the game index and seed base, the flags that start or reset a game, the seat
  policies, the action RNG, and what the call left (rewards, point changes, the last game's end);
- ``opts``, one ``OPTIONS_DTYPE`` record (``OPTION_FIELDS``): the table range, the reward, the
  autoreset stride and end, ``skip_forced``, ``stop_at_game_end``, the encoder, the teacher mode,
  and two counters the call adds to;
- output buffers (``BUFFERS``): masks, observations (float32 or uint8), the last observation of
  a finished game and the per-game results (``RESULT_DTYPE``); a buffer with no rows is not
  written.

A call, for each table: starts game ``game_index`` (``start``), or moves on to the next one
(``need_reset``: ``_autoreset``), or recomputes the mask of a loaded state (``refresh``); plays
the ``pending`` action of its Python seat, then the compiled seats, until a Python seat must act
(``seat``, its mask and observation written) or the table has no game left (``seat`` is
``FINISHED``). Each action goes through ``engine.turn._apply``; with ``skip_forced`` a following
decision with exactly one legal action is played at once, whoever's it is.

**Autoreset** (``_autoreset``) is Gymnasium's same-step autoreset: when a game ends the call sets
``terminated``, adds the end rewards, keeps the acting seat's last view in ``final_obs``, the end
in the table's ``final_*`` fields and in row ``game_index`` of ``results``, and starts game
``game_index + stride`` at once (seed ``(seed_base + index) mod 2**63``; ``FINISHED`` once the
index reaches ``games_end``), so the observation returned is the new game's. With
``stop_at_game_end`` the table waits instead with ``need_reset`` set (its state and event log
still hold the ended game) and the next call starts the next game.

**Teacher mode** (``opts.teacher >= 0``): nothing is played; ``teacher_action`` of each table
whose ``seat`` acts is what compiled policy ``opts.teacher`` would play there, random policies
drawing from ``teacher_rng`` (the learner env's expert actions).
"""

from __future__ import annotations

import numpy as np

from engine._numba import jit_disabled, njit
from engine.actions import N_ACTIONS
from engine.kernels import ACTION_STREAM, _apply, _choose, _legal_mask, _reset, _rng_seed
from engine.tables import Tables
from engine.validation import SEED_MAX
from riichi_env.aec.encoders import _encode

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

# (name, shape in one table's record, dtype, meaning)
TABLE_FIELDS: tuple[tuple[str, tuple, type, str], ...] = (
    # set by the caller
    ("action", (), np.int64, "the Python seat's action, played when ``pending`` (legal: checked)"),
    ("pending", (), np.bool_, "``action`` waits to be played; cleared by the call"),
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
    ("final_seat", (), np.int64, "the seat whose view ``final_obs`` holds"),
    ("final_points", (4,), np.int32, "points at the end of the last finished game"),
    ("final_ranks", (4,), np.int32, "placements (0-3) of that game"),
    ("final_scores", (4,), np.float64, "final scores of that game"),
    ("final_seed", (), np.int64, "seed of that game"),
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
    ("games_done", (), np.int64, "games finished, added to by every call (progress)"),
    ("played", (), np.int64, "actions played, added to by every call"),
)
OPTIONS_DTYPE = np.dtype([(n, d, s) for n, s, d, _ in OPTION_FIELDS], align=True)
"""The options record of a call (an array of one)."""

RESULT_FIELDS: tuple[tuple[str, tuple, type, str], ...] = (
    ("points", (4,), np.int32, "final points by seat"),
    ("ranks", (4,), np.int32, "placements 0-3 by seat"),
    ("final_scores", (4,), np.float64, "final scores by seat"),
    ("hands", (), np.int32, "hands played"),
    ("decisions", (), np.int64, "decisions taken"),
    ("seed", (), np.int64, "the game's seed"),
)
RESULT_DTYPE = np.dtype([(n, d, s) for n, s, d, _ in RESULT_FIELDS], align=True)
"""One finished game's row of ``results`` (row ``game_index``)."""

BUFFERS: tuple[tuple[str, str, str], ...] = (
    ("masks", "int8 (B, N_ACTIONS)", "each table's legal actions of the seat to act"),
    ("obs", "float32 (B, rows, 34)", "the acting seat's observation (no rows: none)"),
    ("obs_u8", "uint8 (B, rows, 34)", "the same quantized (rows: written instead of ``obs``)"),
    ("quant", "float32 (2, rows)", "each row's low bound and 255 / (high - low)"),
    ("final_obs", "float32 (B, rows, 34)", "a finished game's last view (no rows: none)"),
    ("results", "RESULT_DTYPE (games,)", "per-game results by game index (no rows: none)"),
)
"""The output buffers of ``_run``, after ``tabs`` and ``opts``: (name, dtype and shape, meaning)."""


def new_tables(n: int) -> np.ndarray:
    """``n`` runner tables, every seat a Python seat, no game started (``FINISHED``)."""
    tabs = np.zeros(n, dtype=TABLE_DTYPE)
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


def new_results(games: int) -> np.ndarray:
    """``games`` result rows (``RESULT_DTYPE``)."""
    return _kernel_view(np.zeros(games, dtype=RESULT_DTYPE))


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
    rows = 1
    return (
        state.records,
        state.events,
        tuple(load_tables()),
        new_tables(1),
        new_options(),
        np.zeros((1, N_ACTIONS), dtype=np.int8),
        np.zeros((0, rows, 34), dtype=np.float32),
        np.zeros((0, rows, 34), dtype=np.uint8),
        np.zeros((2, rows), dtype=np.float32),
        np.zeros((0, rows, 34), dtype=np.float32),
        new_results(0),
    )


@njit
def _run(st, ev, tables_tuple, tabs, opts, masks, obs, obs_u8, quant, final_obs, results):
    """Advance tables ``opts.lo .. opts.hi - 1`` (module docstring); returns the actions played.

    ``tables_tuple`` is ``tuple(load_tables())`` (a plain tuple crosses from Python faster than a
    NamedTuple).
    """
    tables = Tables(tables_tuple[0], tables_tuple[1])
    op = opts[0]
    if op.teacher >= 0:
        _teach(st, tables, tabs, op, masks)
        return 0
    rows = obs_u8.shape[1] if obs_u8.shape[0] > 0 else 0
    scratch = np.empty((rows, 34), dtype=np.float32)  # a float observation to quantize
    rng = np.empty(2, dtype=np.int64)  # a table's stream as a plain array (as the agents take)
    played = 0
    for t in range(op.lo, op.hi):
        tab = tabs[t]
        rng[0] = tab.rng[0]
        rng[1] = tab.rng[1]
        played += _run_table(
            st, t, ev, tables, tab, op, masks, obs, obs_u8, quant, scratch, final_obs, results, rng
        )
        tab.rng[0] = rng[0]
        tab.rng[1] = rng[1]
    op.played += played
    return played


@njit
def _run_table(
    st, t, ev, tables, tab, op, masks, obs, obs_u8, quant, scratch, final_obs, results, rng
):
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
    if tab.game_index == FINISHED or (rec.game_over and not tab.pending):
        tab.pending = False
        tab.seat = FINISHED
        return 0
    action = -1
    if tab.pending:
        tab.pending = False
        action = tab.action
    actor = rec.actor
    played = 0
    seg = np.zeros(4, dtype=np.int32)  # point changes since the last decision that was asked
    seg_ended = False  # a hand ended since then
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
        if rec.game_over or rec.hand_index != hand:
            tab.hand_ended = True
            seg_ended = True
            for s in range(4):
                d = rec.points[s] - tab.hand_points[s]
                seg[s] += d
                tab.delta[s] += d
                tab.hand_points[s] = rec.points[s]
        if not rec.game_over:
            count = _legal_mask(st, t, tables, mask)
            if op.skip_forced and count == 1:
                for a in range(mask.shape[0]):
                    if mask[a]:
                        action = a
                continue
        if seg_ended and op.reward_mode == REWARD_HAND:
            for s in range(4):
                tab.rewards[s] += seg[s] * op.reward_params[0]
        seg_ended = False
        for s in range(4):
            seg[s] = 0
        if not rec.game_over:
            actor = rec.actor
            continue
        mask[:] = 0
        _game_over(st, t, tables, tab, op, final_obs, results)
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
    if op.encoder >= 0:
        if obs_u8.shape[0] > 0:
            _encode(st, t, actor, op.encoder, tables.shanten_suit, tables.shanten_honor, scratch)
            _quantize(scratch, quant[0], quant[1], obs_u8[t])
        elif obs.shape[0] > 0:
            _encode(st, t, actor, op.encoder, tables.shanten_suit, tables.shanten_honor, obs[t])
    return played


@njit
def _game_over(st, t, tables, tab, op, final_obs, results):
    """A game ended at table ``t``: ``terminated``, the end rewards, the acting seat's last view
    (``final_obs``), the table's ``final_*`` fields and the game's ``results`` row."""
    rec = st[t]
    tab.terminated = True
    for s in range(4):
        if op.reward_mode == REWARD_PLACEMENT:
            tab.rewards[s] += rec.final_scores[s]
        elif op.reward_mode == REWARD_RANK:
            tab.rewards[s] += op.reward_params[1 + rec.final_ranks[s]]
    seat = tab.seat
    tab.final_seat = seat
    if final_obs.shape[0] > 0 and op.encoder >= 0 and seat >= 0:
        enc = op.encoder
        _encode(st, t, seat, enc, tables.shanten_suit, tables.shanten_honor, final_obs[t])
    for s in range(4):
        tab.final_points[s] = rec.points[s]
        tab.final_ranks[s] = rec.final_ranks[s]
        tab.final_scores[s] = rec.final_scores[s]
    tab.final_seed = rec.seed
    k = tab.game_index
    if 0 <= k < results.shape[0]:
        row = results[k]
        for s in range(4):
            row.points[s] = rec.points[s]
            row.ranks[s] = rec.final_ranks[s]
            row.final_scores[s] = rec.final_scores[s]
        row.hands = rec.hand_index
        row.decisions = rec.n_decisions
        row.seed = rec.seed
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
    "NO_ENCODER",
    "NO_TEACHER",
    "OPTIONS_DTYPE",
    "OPTION_FIELDS",
    "PYTHON_SEAT",
    "RESULT_DTYPE",
    "RESULT_FIELDS",
    "REWARD_HAND",
    "REWARD_PLACEMENT",
    "REWARD_RANK",
    "TABLE_DTYPE",
    "TABLE_FIELDS",
    "example_arguments",
    "new_options",
    "new_results",
    "new_tables",
]
