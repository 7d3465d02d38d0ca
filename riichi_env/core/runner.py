"""The one compiled game loop: ``run`` advances tables ``lo .. hi - 1`` of an engine ``State``.

Every game path calls it: the AEC env (one table, one call per ``env.step``), the vector env, the
learner env, ``riichi_env.selfplay``, the arena and the dataset's replay of game records (``B``
tables). A seat is a *Python seat* (``PYTHON_SEAT``: its action comes from the caller), a
compiled policy (``engine.harness.selfplay``'s ``POLICY_*``, the compiled agents included) or, in the
replay, the record's seat (``riichi_env.core.record_seat``). The one body is compiled as three
kernels (``_runner``), each only with the branches its callers need: ``_run`` plays every policy
and the teacher mode and writes observations; ``_run_random`` only Python seats and the random
policies, writing no observation, a smaller compile (no agents, no encoders) for the AEC env
(which encodes with its encoder's own kernel) and random self-play; ``_run_replay`` the record's
seat, writing rows. ``runner_for(seat_policy, encodes)`` picks between the first two.

``run(st, ev, tables, ti, tf, masks, obs, obs_u8)``: the engine ``State``'s records and event
log, ``tuple(load_tables())``, then two declared records (``riichi_env.core.fields``) and the
output buffers (``BUFFERS``; a buffer with no rows is not written); ``_run_replay`` takes one
more, the record and its row buffers (``record_seat.REPLAY``):

- ``ti`` / ``tf``, ``int64`` / ``float64``, one row per table (``TABLE_INTS``, ``TABLE_FLOATS``):
  the Python seat's action and the seat to act, the game index and seed base, the flags that
  start or reset a game, the seat policies, the action RNG, and what the call left (rewards,
  point changes, the last finished game);
- their last row, ``ti[B]`` / ``tf[B]``: the options of the call (``OPTION_INTS``,
  ``OPTION_FLOATS``): the table range, the reward, the autoreset stride and end,
  ``skip_forced``, ``stop_at_game_end``, the encoder, the teacher mode, and two counters every
  call adds to. (In the tables' arrays rather than two more: each array argument costs a call
  from Python about 0.1 us, which the AEC env pays per step.)

Each record is declared field by field (``riichi_env.core.fields``), as ``engine/state.py``'s
``FIELDS`` (name, width, meaning); ``columns(fields)`` gives the views Python reads and writes
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

**Replay** (``_run_replay``): table ``t`` plays the record's hands ``rec_hand .. rec_hand_end - 1``
(``start`` deals ``rec_hand``), each dealt from the record's wall, its moves the record's seat's;
a row is written at each decision of a seat in ``rec_seats`` of a kind in ``kinds`` (not the
forced ones with ``skip_forced``; the pass of an unknown choice never; ``rows._row_wanted``): its
mask and columns by ``rows._write_row``, then its observations by the encoders (the table's
decisions: ``replay._replay``). The table is ``FINISHED`` after its last hand. When the rows are
full the call stops (``rows_full``) with the table ready to deal the hand again: the caller grows
the rows and calls again.
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from engine.actions import N_ACTIONS
from engine.arguments import SEED_MAX
from engine.harness.selfplay import POLICY_SIMPLE
from engine.kernels import (
    ACTION_STREAM,
    _apply,
    _choose,
    _choose_random,
    _legal_mask,
    _reset,
    _rng_seed,
)
from engine.tables import Tables
from riichi_env.core.encoders import _encode
from riichi_env.core.fields import (
    BUFFERS,
    F_FINAL_SCORES,
    F_REWARDS,
    FINAL_RESULT,
    FINISHED,
    GAME_OVER,
    HAND_ENDED,
    NO_ENCODER,
    NO_TEACHER,
    O_ENCODER,
    O_GAMES_DONE,
    O_GAMES_END,
    O_HI,
    O_LO,
    O_PLAYED,
    O_REWARD_MODE,
    O_ROWS_FULL,
    O_SKIP_FORCED,
    O_STOP_AT_GAME_END,
    O_STRIDE,
    O_TEACHER,
    OBS_FINAL,
    OBS_NOW,
    OPTION_FLOATS,
    OPTION_INTS,
    P_RANK_POINTS,
    P_REWARD_SCALE,
    PYTHON_SEAT,
    T_ACTION,
    T_DELTA,
    T_FINAL_DECISIONS,
    T_FINAL_GAME,
    T_FINAL_HANDS,
    T_FINAL_POINTS,
    T_FINAL_RANKS,
    T_FINAL_SEAT,
    T_FINAL_SEED,
    T_GAME_INDEX,
    T_HAND_ENDED,
    T_HAND_POINTS,
    T_NEED_RESET,
    T_REFRESH,
    T_RNG,
    T_SEAT,
    T_SEAT_POLICY,
    T_SEED_BASE,
    T_START,
    T_TEACHER_ACTION,
    T_TEACHER_RNG,
    T_TERMINATED,
    TABLE_FLOATS,
    TABLE_INTS,
    columns,
    fields,
    new_tables,
)
from riichi_env.core.options import REWARD_HAND, REWARD_PLACEMENT, REWARD_RANK
from riichi_env.core.record_seat import (
    _deal_recorded,
    replay_example,
)
from riichi_env.core.replay import _replay


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


def replay_example_arguments() -> tuple:
    """Arguments of a ``_run_replay`` call over a record of no hands (``replay_example``), of the
    types ``riichi_env.dataset.convert.Converter`` passes: what ``riichi_env.compile("dataset")``
    compiles it for, running nothing. ``tests/riichi_env/dataset/test_dataset.py`` checks that a
    conversion finds exactly this signature compiled."""
    play = example_arguments()
    return (
        *play[:6],
        np.zeros((0, 1, 1, 34), np.float32),
        np.zeros((0, 1, 34), np.uint8),
        replay_example(),
    )


def _runner(agents: bool, replay: bool):
    """The runner's one body, as a plain function: with ``agents``, every ``POLICY_*``, the
    teacher mode and the observations (``_run``); without, the Python seats and the random
    policies only, and no observation (``_run_random``); with ``replay``, the record's seat
    (``_run_replay``: ``tables_tuple`` carries the ``REPLAY`` tuple as its third entry). Numba
    drops the branches on ``agents`` and ``replay`` before typing and inlining, so each kernel
    compiles only its own (``_run_random`` neither the agents nor the encoders, neither play
    kernel the replay). The play kernels are this function compiled as it is; the replay kernel
    inlines it (docs/internals.md, "One runner": inlining copies the body's blocks with its
    whole variable scope each, about 1 s for the env's runner).

    Per table the body reads as its steps, small inlined helpers: clear what the last call left
    (``_clear_call``), start or resume the table (``_starting``, ``_resume``), then the
    decisions: the record's (``replay._replay``, a whole record at once), or the compiled
    seats' until a Python seat must act, each move through ``_apply`` and then the hand's or
    game's end (``_hand_ended``, ``_game_over``, ``_observe_final``, ``_next_game``); at last
    the view of the seat to act (``_observe``). The play decisions stay in the body: an inlined
    step that calls a kernel keeps a reference count per array argument, at every call
    (docs/internals.md, "One runner")."""
    encodes = agents or replay  # a closure constant, as the flags: Numba prunes on it

    def body(st, ev, tables_tuple, ti, tf, masks, obs, obs_u8):
        tables = Tables(tables_tuple[0], tables_tuple[1])
        suit, honor = tables.shanten_suit, tables.shanten_honor
        nb = ti.shape[0] - 1  # the options' row (read in place: a view costs a step ~20 ns)
        lo, hi = ti[nb, O_LO], ti[nb, O_HI]
        if agents and ti[nb, O_TEACHER] >= 0:  # the teacher mode: nothing is played
            _teach(st, tables, ti, ti[nb, O_TEACHER], lo, hi, masks)
            return 0
        _refuse(ti, nb, obs, obs_u8, encodes)
        if replay:
            rp = tables_tuple[2]
            ti[nb, O_ROWS_FULL] = 0
        for t in range(lo, hi):  # not a function: a call passing every buffer costs 0.14 us
            rec, mask = st[t], masks[t]
            rng = ti[t, T_RNG : T_RNG + 2]  # the action stream: contiguous, as the agents take it
            _clear_call(ti, tf, t)
            count = np.int64(-1)  # legal actions in ``mask``, -1 while not known (one signature)
            if _starting(ti, t):
                if replay:
                    count = _deal_recorded(st, t, ev, tables, ti, ti[nb], mask, rp)
                else:
                    count = _start_game(st, t, ev, tables, ti, mask, rng)
            count = _resume(st, t, ev, tables, ti, nb, mask, rng, count)
            action = ti[t, T_ACTION]  # the Python seat's, queued (-1: none)
            ti[t, T_ACTION] = -1
            if ti[t, T_GAME_INDEX] == FINISHED or (rec.game_over and action < 0):
                ti[t, T_SEAT] = FINISHED
                continue
            actor = np.int64(rec.actor)
            played = 0
            if replay:  # the record's seat plays the table's record (or until the rows are full)
                played = _replay(st, ev, tables, ti, t, nb, mask, rp, action, count)
            else:  # the compiled seats play; a Python seat's decision ends the call
                while True:
                    if action < 0:
                        policy = ti[t, T_SEAT_POLICY + actor]
                        if policy == PYTHON_SEAT:
                            break
                        count = _counted(mask, count)
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
                    if rec.game_over or rec.hand_index != hand:  # one hand at most (no forced deal)
                        _hand_ended(st, t, ti, tf, nb)
                    if not rec.game_over:  # the next decision; with skip_forced a forced one played
                        count = _legal_mask(st, t, tables, mask)
                        if ti[nb, O_SKIP_FORCED] and count == 1:
                            action = _only_action(mask)
                            continue
                        actor = np.int64(rec.actor)
                        continue
                    _game_over(st, t, ti, tf, ti[nb], tf[nb], mask)
                    if encodes:  # the acting seat's last view
                        _observe_final(st, t, ti, nb, suit, honor, obs)
                    count = _next_game(st, t, ev, tables, ti, ti[nb], mask, rng)
                    if count < 0:  # the table waits for its reset, or has no game left
                        break
                    actor = np.int64(rec.actor)
            ti[nb, O_PLAYED] += played
            if replay or ti[t, T_GAME_INDEX] == FINISHED or ti[t, T_NEED_RESET]:
                ti[t, T_SEAT] = FINISHED
                if replay and ti[nb, O_ROWS_FULL]:
                    break
                continue
            ti[t, T_SEAT] = actor
            if encodes:  # the seat to act's view
                _observe(st, t, actor, ti, nb, suit, honor, obs, obs_u8)
        return _result(ti, lo, hi)

    return body


def _kernel(agents: bool, name: str, doc: str):
    """A play kernel: the body compiled as it is (no inlining), named ``name`` (its cache files
    and messages say so). Its only closure values are the flags: a closure's values are part
    of Numba's cache key, and booleans pickle the same in every process."""
    body = _runner(agents, False)
    body.__name__ = body.__qualname__ = name
    body.__doc__ = doc
    return njit(example=lambda x: example_arguments())(body)


_run = _kernel(
    True,
    "_run",
    """The runner with every compiled policy, the teacher mode and the observations: the arena,
    self-play of the agents, the learner env, the vector env.

    Advances tables ``lo .. hi - 1`` (module docstring). Returns what a one-table caller (the
    AEC env) reads of table ``lo``: ``GAME_OVER`` when no seat of it waits, else the seat to act,
    plus ``HAND_ENDED`` if a hand ended during the call (0 in the teacher mode).
    ``tables_tuple`` is ``tuple(load_tables())`` (a plain tuple crosses from Python faster than a
    NamedTuple).""",
)
_run_random = _kernel(
    False,
    "_run_random",
    """The runner without the compiled agents and the observations (Python seats and random
    policies, no encoder): the AEC env, random self-play. A smaller compile (no agents, no
    encoders). As ``_run``.""",
)
_replay_body = njit(inline="always")(_runner(False, True))
# The replay kernel calls its body by a global name: a closure holding a dispatcher would be
# pickled into Numba's cache key with the dispatcher's identity, a new key in every process.


@njit(example=lambda x: replay_example_arguments())
def _run_replay(st, ev, tables_tuple, ti, tf, masks, obs, obs_u8, rp):
    """The runner of the record's seat: the dataset's replay of game records into rows (module
    docstring); ``rp`` is the tuple ``record_seat.REPLAY`` declares."""
    tables_rp = (tables_tuple[0], tables_tuple[1], rp)
    return _replay_body(st, ev, tables_rp, ti, tf, masks, obs, obs_u8)


def runner_for(seat_policy: np.ndarray, encodes: bool = False) -> object:
    """``_run`` if any seat of ``seat_policy`` (``int64[4]`` or ``(n, 4)``) is a compiled agent
    or the call writes observations (``encodes``), else ``_run_random``."""
    if encodes:
        return _run
    return _run if bool((seat_policy >= POLICY_SIMPLE).any()) else _run_random


@njit
def _add_reward(tf, t, s, x):
    """Add ``x`` to seat ``s``'s reward at table ``t``, rounded to float32 as a float32 sum would be."""
    tf[t, F_REWARDS + s] = np.float32(tf[t, F_REWARDS + s] + x)


# The runner's steps: each inlined into the body (``inline="always"``; small, so the copy is
# cheap), their names what the body reads.


@njit(inline="always")
def _refuse(ti, nb, obs, obs_u8, encodes):
    """What the kernel does not do, refused: the teacher mode (``_run`` runs it before this
    step), and observations but in a kernel that ``encodes``."""
    if ti[nb, O_TEACHER] >= 0:
        raise ValueError("the teacher mode runs in _run, not _run_random")
    writes = obs.shape[0] > OBS_NOW or obs_u8.shape[0] > 0  # observations, float or bytes
    if not encodes and ti[nb, O_ENCODER] >= 0 and writes:
        raise ValueError("observations are written by _run, not _run_random")


@njit(inline="always")
def _clear_call(ti, tf, t):
    """What a call leaves at table ``t``, cleared: terminated, hand ended, rewards, deltas."""
    ti[t, T_TERMINATED] = 0
    ti[t, T_HAND_ENDED] = 0
    for s in range(4):
        tf[t, F_REWARDS + s] = 0.0
        ti[t, T_DELTA + s] = 0


@njit(inline="always")
def _starting(ti, t):
    """Whether table ``t`` starts its game now (``start`` set, a game left); clears ``start``
    and ``need_reset``."""
    if not ti[t, T_START]:
        return False
    ti[t, T_START] = 0
    ti[t, T_NEED_RESET] = 0
    return ti[t, T_GAME_INDEX] != FINISHED


@njit(inline="always")
def _resume(st, t, ev, tables, ti, nb, mask, rng, count):
    """Table ``t`` after its start: the next game if ``need_reset`` (``_autoreset``), the mask
    of a loaded state if ``refresh``; the legal actions (``count`` if neither)."""
    if ti[t, T_NEED_RESET]:
        ti[t, T_NEED_RESET] = 0
        count = _autoreset(st, t, ev, tables, ti, ti[nb], mask, rng)
    if ti[t, T_REFRESH]:
        ti[t, T_REFRESH] = 0
        rec = st[t]
        for s in range(4):
            ti[t, T_HAND_POINTS + s] = rec.points[s]
        if rec.game_over:
            mask[:] = 0
        else:
            count = _legal_mask(st, t, tables, mask)
    return count


@njit(inline="always")
def _counted(mask, count):
    """The legal actions in ``mask``: ``count``, counted if not known (-1)."""
    if count < 0:
        count = np.int64(0)
        for a in range(mask.shape[0]):
            count += mask[a]
    return count


@njit(inline="always")
def _only_action(mask):
    """The one legal action of a forced decision."""
    action = -1
    for a in range(mask.shape[0]):
        if mask[a]:
            action = a
    return action


@njit(inline="always")
def _hand_ended(st, t, ti, tf, nb):
    """A hand ended at table ``t``: ``hand_ended``, its point changes, the hand reward."""
    rec = st[t]
    ti[t, T_HAND_ENDED] = 1
    for s in range(4):
        d = rec.points[s] - ti[t, T_HAND_POINTS + s]
        ti[t, T_DELTA + s] += d
        if ti[nb, O_REWARD_MODE] == REWARD_HAND:
            _add_reward(tf, t, s, d * tf[nb, P_REWARD_SCALE])
        ti[t, T_HAND_POINTS + s] = rec.points[s]


@njit(inline="always")
def _observe_final(st, t, ti, nb, suit, honor, obs):
    """A game ended: the acting seat's last view into ``obs[OBS_FINAL, t]``, if kept."""
    enc = ti[nb, O_ENCODER]
    seat = ti[t, T_FINAL_SEAT]
    if obs.shape[0] > OBS_FINAL and enc >= 0 and seat >= 0:
        _encode(st, t, seat, enc, suit, honor, obs[OBS_FINAL, t])


@njit(inline="always")
def _observe(st, t, actor, ti, nb, suit, honor, obs, obs_u8):
    """The view of ``actor``, the seat to act, into ``obs_u8[t]`` if it has rows (the encoder
    writes the bytes), else into ``obs[OBS_NOW, t]`` if kept."""
    enc = ti[nb, O_ENCODER]
    if enc >= 0:
        if obs_u8.shape[0] > 0:
            _encode(st, t, actor, enc, suit, honor, obs_u8[t])
        elif obs.shape[0] > OBS_NOW:
            _encode(st, t, actor, enc, suit, honor, obs[OBS_NOW, t])


@njit(inline="always")
def _result(ti, lo, hi):
    """What a one-table caller reads of table ``lo``: ``GAME_OVER``, or the seat to act plus
    ``HAND_ENDED``."""
    if lo >= hi or ti[lo, T_SEAT] < 0:
        return GAME_OVER
    return ti[lo, T_SEAT] | (HAND_ENDED if ti[lo, T_HAND_ENDED] else 0)


@njit(inline="always")  # the runner's own: no module of its own to compile and optimise
def _game_over(st, t, ti, tf, oi, of, mask):
    """A game ended at table ``t``: no legal action (``mask``), ``terminated``, the end rewards,
    the table's ``final_*`` fields, ``games_done`` (the runner then writes the acting seat's
    last view)."""
    rec = st[t]
    mask[:] = 0
    ti[t, T_TERMINATED] = 1
    mode = oi[O_REWARD_MODE]
    for s in range(4):
        if mode == REWARD_PLACEMENT:
            _add_reward(tf, t, s, rec.final_scores[s])
        elif mode == REWARD_RANK:
            _add_reward(tf, t, s, of[P_RANK_POINTS + rec.final_ranks[s]])
    ti[t, T_FINAL_SEAT] = ti[t, T_SEAT]
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
def _next_game(st, t, ev, tables, ti, oi, mask, rng):
    """After a game's end at table ``t``: with ``stop_at_game_end`` the table waits
    (``need_reset``), else ``_autoreset``; the next game's first legal actions (-1: none)."""
    if oi[O_STOP_AT_GAME_END]:
        ti[t, T_NEED_RESET] = 1
        return -1
    return _autoreset(st, t, ev, tables, ti, oi, mask, rng)


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


@njit(example=lambda x: (np.zeros((1, N_ACTIONS), np.int8), x.rng[:1], x.rng[:1], new_tables(1)[0]))
def _queue_actions(masks, idx, actions, ti):
    """Queue ``actions[j]`` for table ``idx[j]`` when every one is legal for its acting seat
    (``masks``); else queue nothing and return the first ``j`` out of range, else the first
    illegal one (-1: all queued). ``Batch.set_actions`` says what was wrong."""
    n = masks.shape[1]
    for j in range(idx.shape[0]):
        if actions[j] < 0 or actions[j] >= n:
            return j
    for j in range(idx.shape[0]):
        if not masks[idx[j], actions[j]]:
            return j
    for j in range(idx.shape[0]):
        ti[idx[j], T_ACTION] = actions[j]
    return -1


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
    "replay_example_arguments",
    "runner_for",
]
