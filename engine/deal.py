"""The deal: starting a game, dealing a hand from its wall and the draws from the live wall and the
dead wall; ``deal_hand`` starts a given hand for scenarios and replays.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine._numba import njit
from engine.event_writers import (
    _log_draw,
    _log_game_start,
    _log_hand_start,
)
from engine.melds import MELD_NONE
from engine.rules import RULE_EXTENSION_HANDS, RULE_N_WINDS, RULE_PLAYERS, RULE_START_POINTS
from engine.seats import _add_tile, _dealer, _n_players, _update_waits
from engine.state import (
    CLAIM_DISCARD,
    DEAL_SIZE,
    LIVE_END_3P,
    LIVE_START,
    PAO_NONE,
    PHASE_TURN,
    RINSHAN_START,
    SANMA_REMOVED,
    SANMA_UNUSED_SLOTS,
    WALL_SIZE,
    State,
    check_table,
)
from engine.wall import _n_replacements, _shuffle_wall, _shuffle_wall_3p


@njit
def _clear_hand(st, t):
    rec = st[t]
    rec.wall_pos = LIVE_START
    rec.n_kans = 0
    rec.n_dora = 1
    rec.pending_dora = 0
    rec.closed[:] = 0
    rec.closed34[:] = 0
    rec.drawn = -1
    rec.rinshan = 0
    rec.meld_type[:] = MELD_NONE
    rec.meld_tile34[:] = -1
    rec.meld_tiles[:] = -1
    rec.meld_from[:] = -1
    rec.meld_called[:] = -1
    rec.n_melds[:] = 0
    rec.river[:] = -1
    rec.river_flags[:] = 0
    rec.n_river[:] = 0
    rec.discarded34[:] = 0
    rec.riichi[:] = 0
    rec.open_riichi[:] = 0
    rec.riichi_pending = -1
    rec.ippatsu[:] = 0
    rec.furiten_temp[:] = 0
    rec.furiten_riichi[:] = 0
    rec.waits[:] = 0
    rec.n_waits[:] = 0
    rec.nagashi[:] = 1
    rec.first_go = 1
    rec.kuikae[:] = -1
    rec.pao_seat[:] = -1
    rec.pao_kind[:] = PAO_NONE
    rec.suukaikan_pending = 0
    rec.n_kita[:] = 0
    rec.kita_tiles[:] = -1
    rec.claim_tile = -1
    rec.claim_from = -1
    rec.claim_kind = CLAIM_DISCARD
    rec.claim_mask[:] = 0
    rec.claim_answer[:] = -1
    rec.claim_queue[:] = -1
    rec.claim_n = 0
    rec.claim_pos = 0


@njit
def _start_hand_from_wall(st, t, ev, tables, wall):
    """Deal a hand from ``wall`` (layout in engine/state.py) and stop at the dealer's first turn."""
    rec = st[t]
    _clear_hand(st, t)
    for i in range(WALL_SIZE):
        rec.wall[i] = wall[i]
    dealer = _dealer(st, t)
    n = _n_players(st, t)
    for i in range(n):
        s = (dealer + i) % n
        for j in range(13):
            _add_tile(st, t, s, rec.wall[13 * i + j])
    _log_hand_start(st, t, ev)
    for s in range(n):
        _update_waits(st, t, tables, s)
    rec.wall_pos = DEAL_SIZE
    _draw(st, t, ev, np.int64(dealer), np.bool_(False))


@njit
def _new_hand(st, t, ev, tables):
    """Shuffle this hand's wall from (seed, hand index) and deal it."""
    rec = st[t]
    rec.hand_index += 1
    wall = np.empty(WALL_SIZE, dtype=np.int32)
    if rec.rules[RULE_PLAYERS] == 3:
        _shuffle_wall_3p(wall, rec.seed, rec.hand_index)
    else:
        _shuffle_wall(wall, rec.seed, rec.hand_index)
    _start_hand_from_wall(st, t, ev, tables, wall)


@njit(example=lambda x: (x.st, x.i, x.ev, x.tables, x.i))
def _reset(st, t, ev, tables, seed):
    """Start a new game with ``seed``: points, round, honba, sticks, then the first hand."""
    _init_game(st, t, ev, seed)
    _new_hand(st, t, ev, tables)


@njit(inline="always")
def _set_standing(st, t, kyoku, honba, kyotaku, points):
    """Table ``t``'s round, honba, sticks and points, as given."""
    rec = st[t]
    rec.kyoku = kyoku
    rec.honba = honba
    rec.kyotaku = kyotaku
    for s in range(4):
        rec.points[s] = points[s]


@njit
def _start_game_at(st, t, ev, tables, seed, wall, kyoku, honba, kyotaku, points):
    """Start a game at a given hand (scenarios, replays): round, sticks, points and its wall."""
    rec = st[t]
    _init_game(st, t, ev, seed)
    _set_standing(st, t, kyoku, honba, kyotaku, points)
    rec.hand_index = 1
    _start_hand_from_wall(st, t, ev, tables, wall)


@njit
def _continue_at(st, t, ev, tables, wall, kyoku, honba, kyotaku, points, clear_log):
    """The game goes on at a given hand (replaying a record): round, sticks, points, its wall."""
    rec = st[t]
    _set_standing(st, t, kyoku, honba, kyotaku, points)
    rec.game_over = 0
    rec.final_scores[:] = 0.0
    rec.final_ranks[:] = 0
    if clear_log:
        rec.n_events = 0
        rec.ev_overflow = 0
    _start_hand_from_wall(st, t, ev, tables, wall)


@njit
def _init_game(st, t, ev, seed):
    rec = st[t]
    rules = rec.rules[:]
    rec.seed = seed
    rec.points[:] = rules[RULE_START_POINTS]
    if rules[RULE_PLAYERS] == 3:
        rec.points[3] = 0  # the absent seat
    rec.kyoku = 0
    rec.honba = 0
    rec.kyotaku = 0
    rec.hand_index = 0
    rec.game_over = 0
    rec.final_scores[:] = 0.0
    rec.final_ranks[:] = 0
    rec.last_delta[:] = 0
    rec.n_decisions = 0
    rec.n_events = 0
    rec.ev_overflow = 0
    _log_game_start(st, t, ev, seed, rules[RULE_START_POINTS])


@njit
def _draw(st, t, ev, s, rinshan):
    """Seat ``s`` draws from the live wall, or the next replacement tile after a kan or kita.

    Replacement draw k (kans and kita counted together) is ``wall[122 + k]`` for k < 4; with
    three players the 5th to 8th come from the end of the live wall, which each replacement
    draw has shortened (``wall[LIVE_END_3P - 1 - (k - 4)]``).
    """
    rec = st[t]
    if rinshan:
        k = _n_replacements(st, t) - 1
        slot = RINSHAN_START + k if k < 4 else LIVE_END_3P - 1 - (k - 4)
        tile = rec.wall[slot]
    else:
        tile = rec.wall[rec.wall_pos]
        rec.wall_pos += 1
    _add_tile(st, t, s, tile)
    rec.drawn = tile
    rec.rinshan = 1 if rinshan else 0
    rec.kuikae[:] = -1
    rec.phase = PHASE_TURN
    rec.turn = s
    rec.actor = s
    _log_draw(st, t, ev, s, tile, rinshan)


def deal_hand(
    state: State,
    wall: Sequence[int] | np.ndarray,
    *,
    kyoku: int,
    honba: int = 0,
    kyotaku: int = 0,
    points: Sequence[int] | None = None,
    t: int = 0,
    seed: int | None = None,
    clear_log: bool = False,
) -> None:
    """Deal a hand from ``wall`` on table ``t`` and stop at the dealer's first decision.

    ``wall`` holds the 136 tile136 ids in the layout of ``engine/state.py`` (three players: the
    2m-8m ids in its unused slots); ``kyoku`` is the hand (0 = East 1, 4 = South 1, ...; its
    dealer is ``kyoku % 4``, below the number of players); ``points`` (four, the absent seat's 0
    with three players) default to the start points, the sticks taken from seat 0. With ``seed``
    a new game starts at this hand (scenarios; later hands are shuffled from ``seed``) and points
    plus 1000 x ``kyotaku`` must equal players x the start points; without it the table's game goes on at this hand with the points
    given (replaying a record, whose totals are its own), and ``clear_log`` empties the event log
    first. Raises ``TypeError``/``ValueError`` naming the
    bad argument.
    """
    from engine.arguments import check_bool, check_int, check_seed
    from engine.tables import load_tables

    t = check_table(state, t)
    rules = state.rules[t]
    start = int(rules[RULE_START_POINTS])
    players = int(rules[RULE_PLAYERS])
    last = 4 * int(rules[RULE_N_WINDS]) + int(rules[RULE_EXTENSION_HANDS]) - 1
    if isinstance(kyoku, bool) or not isinstance(kyoku, (int, np.integer)) or kyoku < 0:
        raise ValueError(f"kyoku must be a non-negative int, got {kyoku!r}")
    kyoku = check_int("kyoku", kyoku, 0, last)
    if kyoku % 4 >= players:
        raise ValueError(f"kyoku {kyoku} has dealer seat {kyoku % 4}: no such seat with 3 players")
    for name, value in (("honba", honba), ("kyotaku", kyotaku)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(f"honba and kyotaku must be non-negative ints, got {name}={value!r}")
    if points is None:
        points = [start] * players + [0] * (4 - players)
        points[0] -= 1000 * int(kyotaku)
    try:
        points = [int(p) for p in points]
    except (TypeError, ValueError):
        raise ValueError(f"points must be four ints, got {points!r}") from None
    if len(points) != 4:
        raise ValueError(f"points must be four ints, got {points}")
    if players == 3 and points[3] != 0:
        raise ValueError(f"points of the absent seat 3 must be 0 with 3 players, got {points}")
    if seed is not None and sum(points) + 1000 * int(kyotaku) != players * start:
        raise ValueError(f"points {points} plus {kyotaku} sticks must add up to {players * start}")
    wall = np.asarray(wall)
    if (
        wall.shape != (WALL_SIZE,)
        or wall.dtype.kind not in "iu"
        or sorted(wall.tolist()) != list(range(WALL_SIZE))
    ):
        raise ValueError("wall must hold each tile136 id 0-135 exactly once")
    if players == 3 and sorted(wall[list(SANMA_UNUSED_SLOTS)].tolist()) != list(SANMA_REMOVED):
        raise ValueError(
            "a three-player wall must hold the 2m-8m ids (4-31) in its unused slots 39-51 and "
            "107-121 (engine/state.py)"
        )
    wall = wall.astype(np.int32)
    clear_log = check_bool("clear_log", clear_log)
    st, ev = state.records, state.events
    pts = np.array(points, dtype=np.int32)
    if seed is not None:
        seed = check_seed(seed)
        _start_game_at(
            st, t, ev, load_tables(), np.int64(seed), wall, kyoku, int(honba), int(kyotaku), pts
        )
        return
    _continue_at(st, t, ev, load_tables(), wall, kyoku, int(honba), int(kyotaku), pts, clear_log)
