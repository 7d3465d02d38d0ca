"""The game state: one record per table in a NumPy structured array, and a separate event log.

Every field is declared once in ``FIELDS`` with its shape, dtype and meaning; ``STATE_DTYPE`` is
the record built from it (``align=True``: each field on its natural boundary). A batch of N tables
is ``records``, an array of shape ``(N,)`` and that dtype: one buffer to copy, pickle or share
between processes. Kernels take ``(st, t, ...)`` and read ``st[t].points[s]``, ``st[t].kyoku``;
``st[t].closed34[s]`` is a contiguous hand34 view. The event log is its own array
``events``, ``int32[N, E, EV_WIDTH]``; ``E = 0`` turns logging off (self-play at scale). The
Python ``State`` holds both and reads fields by name (``state.points[t, s]``) for tests and tools.
See ``docs/internals.md`` for why this layout.

Wall layout (``wall[t]``, 136 tile136 ids, the same for dealt and scenario walls):

| indices | use |
|---|---|
| 0–51 | the deal: seat ``(dealer + i) % 4`` gets ``wall[13 i : 13 i + 13]`` |
| 52–121 | live wall, drawn in order from 52 (the dealer's first draw); 70 tiles |
| 122–125 | rinshan tiles, the k-th kan draws ``wall[122 + k]`` |
| 126–130 | dora indicators, the k-th revealed is ``wall[126 + k]`` |
| 131–135 | ura dora indicators, ``wall[131 + k]`` under dora indicator k |

Each kan moves one tile from the live wall to the dead wall: the live wall ends at
``LIVE_END - n_kans`` (exclusive), so the last live tiles become unreachable.

Three players (``rules.players == 3``, 108 tiles: the 28 ids of 2m-8m, ``SANMA_REMOVED``, are
never dealt or drawn) keep the same array and dead wall, with the unused slots holding the
removed ids:

| indices | use |
|---|---|
| 0–38 | the deal: seat ``(dealer + i) % 3`` gets ``wall[13 i : 13 i + 13]`` |
| 39–51 | unused (removed ids) |
| 52–106 | live wall, drawn in order from 52; 55 tiles (``LIVE_END_3P``) |
| 107–121 | unused (removed ids) |
| 122–135 | the dead wall as with four players |

Seat 3 is absent with three players: never dealt, asked or paid; its per-seat entries stay 0
(``points`` too) and the seats play in the order 0, 1, 2.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np

from engine._numba import jit_disabled
from engine.rules import MAHJONGSOUL, N_RULES, Rules

N_SEATS = 4
WALL_SIZE = 136
DEAL_SIZE = 52
"""13 tiles for each of four seats."""
LIVE_START = 52
LIVE_END = 122
"""Live wall is ``wall[LIVE_START : LIVE_END - n_kans]``: 70 draws, one fewer per kan."""
N_LIVE = LIVE_END - LIVE_START
DEAL_SIZE_3P = 39
"""13 tiles for each of three seats."""
LIVE_END_3P = 107
"""Three players: the live wall is ``wall[LIVE_START : LIVE_END_3P - n_kans]``, 55 draws."""
N_LIVE_3P = LIVE_END_3P - LIVE_START
SANMA_REMOVED = tuple(range(4, 32))
"""tile136 ids of 2m-8m: not in the three-player wall."""
SANMA_UNUSED_SLOTS = tuple(range(DEAL_SIZE_3P, LIVE_START)) + tuple(range(LIVE_END_3P, 122))
"""Wall slots that hold ``SANMA_REMOVED`` (in order) with three players."""
RINSHAN_START = 122
DORA_START = 126
URA_START = 131
MAX_KANS = 4
"""Four rinshan tiles: a fifth kan is never allowed."""
MAX_DORA = 5
"""The initial indicator plus one per kan."""
MAX_MELDS = 4
MAX_RIVER = 48
"""Discards of one seat in one hand. Without calls a seat discards at most 19 times (70 live
draws + 4 rinshan over four seats, plus the dealer's extra); every call (at most 4 per seat, 12 by
the others) lets a seat draw or discard again sooner, so 19 + 12 + 4 = 35 < 48."""
EV_WIDTH = 8
"""Columns of an event row: type, seat, then six payload ints (see ``engine/events.py``)."""
DEFAULT_MAX_EVENTS = 8192
"""Event rows per table: a hand logs about 200 rows (wall 7, deal 4, ~150 draws and discards,
calls, result), and a long hanchan has about 20 hands. A full log stops recording and sets
``ev_overflow``; play goes on."""

PHASE_TURN = 0
"""``actor`` (== ``turn``) holds 3n+2 tiles: discard, tsumo, kan, riichi or kyuushu kyuuhai."""
PHASE_RIICHI_DISCARD = 1
"""``actor`` declared riichi and now chooses a discard that keeps tenpai."""
PHASE_CLAIM = 2
"""``actor`` is asked about ``claim_tile`` (ron, pon, kan, chi or pass)."""
PHASE_GAME_OVER = 3
"""No decision left; ``final_scores`` is set."""
PHASE_NAMES = ("turn", "riichi discard", "claim", "game over")

CLAIM_DISCARD = 0
"""Claims on a discard: ron, pon, daiminkan, chi."""
CLAIM_CHANKAN = 1
"""Ron on a kakan tile (chankan)."""
CLAIM_ANKAN = 2
"""Ron on an ankan tile, kokushi musou only."""
CLAIM_KITA = 3
"""Ron on a North set aside as kita (three players)."""

CLAIM_BIT_RON = 1
CLAIM_BIT_PON = 2
CLAIM_BIT_KAN = 4
CLAIM_BIT_CHI_LOW = 8
CLAIM_BIT_CHI_MID = 16
CLAIM_BIT_CHI_HIGH = 32
CLAIM_BITS_CHI = CLAIM_BIT_CHI_LOW | CLAIM_BIT_CHI_MID | CLAIM_BIT_CHI_HIGH
"""The three chi claims (low, middle, high: the discard's place in the run)."""

RIVER_TSUMOGIRI = 1
"""``river_flags`` bit: the discard was the tile just drawn."""
RIVER_RIICHI = 2
"""``river_flags`` bit: the riichi declaration tile (turned sideways)."""
RIVER_CALLED = 4
"""``river_flags`` bit: taken by another seat's chi, pon or kan."""

PAO_NONE = 0
PAO_DAISANGEN = 1
PAO_DAISUUSHII = 2

# (name, shape of the field in one table's record, dtype, meaning)
FIELDS: tuple[tuple[str, tuple, type, str], ...] = (
    # the rules and the game
    ("rules", (N_RULES,), np.int32, "rules.to_array() of this table, indexed by RULE_*"),
    ("seed", (), np.int64, "game seed; hand k's wall is shuffled from (seed, k)"),
    ("points", (4,), np.int32, "points of each seat (seat 0 is the starting dealer)"),
    ("kyoku", (), np.int32, "hand number: 0-3 East 1-4, 4-7 South 1-4, 8-11 West (extension)"),
    ("honba", (), np.int32, "honba counters"),
    ("kyotaku", (), np.int32, "riichi sticks on the table (1000 points each)"),
    ("hand_index", (), np.int32, "hands started in this game, 1 for the first hand"),
    ("game_over", (), np.int32, "1 once the game has ended"),
    ("final_scores", (4,), np.float64, "(points - return) / 1000 + uma + oka, set at game end"),
    ("final_ranks", (4,), np.int32, "placement 0-3 of each seat, set at game end"),
    ("last_delta", (4,), np.int32, "point change of each seat in the last finished hand"),
    ("n_decisions", (), np.int64, "decisions (accepted actions) in this game"),
    # the wall
    ("wall", (WALL_SIZE,), np.int32, "tile136 ids of this hand in wall layout (module doc)"),
    ("wall_pos", (), np.int32, "next live draw index (52 at the deal)"),
    ("n_kans", (), np.int32, "kans made in this hand (0-4), also rinshan tiles drawn"),
    ("n_dora", (), np.int32, "dora indicators revealed (1-5)"),
    ("pending_dora", (), np.int32, "open/added kan indicators not yet revealed (0-1)"),
    # hands
    ("closed", (4, WALL_SIZE), np.uint8, "1 where the seat holds that tile136 concealed"),
    ("closed34", (4, 34), np.uint8, "concealed tile counts per kind (hand34)"),
    ("drawn", (), np.int32, "tile136 the turn seat just drew, -1 after a call"),
    ("rinshan", (), np.int32, "1 if ``drawn`` came from the dead wall after a kan"),
    ("meld_type", (4, MAX_MELDS), np.int32, "MELD_* of each called meld, MELD_NONE unused"),
    ("meld_tile34", (4, MAX_MELDS), np.int32, "lowest kind of each meld"),
    ("meld_tiles", (4, MAX_MELDS, 4), np.int32, "tile136 ids of each meld, -1 past its size"),
    ("meld_from", (4, MAX_MELDS), np.int32, "seat the called tile came from (own seat: ankan)"),
    ("meld_called", (4, MAX_MELDS), np.int32, "the called tile136 (kakan: the added tile)"),
    ("n_melds", (4,), np.int32, "melds of each seat (0-4)"),
    # rivers
    ("river", (4, MAX_RIVER), np.int32, "discarded tile136 ids in order"),
    ("river_flags", (4, MAX_RIVER), np.uint8, "RIVER_* bits of each discard"),
    ("n_river", (4,), np.int32, "discards of each seat"),
    ("discarded34", (4, 34), np.uint8, "1 where the seat has discarded that kind (furiten)"),
    # per-seat status
    ("riichi", (4,), np.int32, "0 none, 1 riichi, 2 double riichi (set at declaration)"),
    ("open_riichi", (4,), np.int32, "1 if the riichi was open riichi"),
    ("riichi_pending", (), np.int32, "seat whose declaration discard is on the table, else -1"),
    ("ippatsu", (4,), np.int32, "1 while ippatsu is live for the seat"),
    ("furiten_temp", (4,), np.int32, "temporary furiten: passed a winning tile since last discard"),
    ("furiten_riichi", (4,), np.int32, "riichi furiten: passed a winning tile after riichi"),
    ("waits", (4, 34), np.uint8, "1 for each wait of the seat's last 3n+1 hand"),
    ("n_waits", (4,), np.int32, "number of waits (0 = noten)"),
    ("nagashi", (4,), np.int32, "1 while every discard is terminal/honor and none was called"),
    ("first_go", (), np.int32, "1 while no call (closed kan included) has been made this hand"),
    ("kuikae", (2,), np.int32, "kinds the turn seat may not discard after chi/pon, -1 unused"),
    ("pao_seat", (4,), np.int32, "seat liable for this seat's daisangen/daisuushii, -1"),
    ("pao_kind", (4,), np.int32, "PAO_* of that liability"),
    ("suukaikan_pending", (), np.int32, "1 when the 4th kan (by 2+ seats) awaits its discard"),
    ("n_kita", (4,), np.int32, "Norths each seat has set aside as kita (three players), 0-4"),
    ("kita_tiles", (4, 4), np.int32, "tile136 of each seat's kita in order, -1 unused"),
    ("hand_over", (), np.int32, "set by a settled hand, ended and cleared within the same action"),
    # whose decision
    ("phase", (), np.int32, "PHASE_* of the pending decision"),
    ("turn", (), np.int32, "seat whose turn it is (the discarder while claims are asked)"),
    ("actor", (), np.int32, "seat that must act now"),
    ("claim_tile", (), np.int32, "tile136 offered to claims, -1"),
    ("claim_from", (), np.int32, "seat that discarded / added it"),
    ("claim_kind", (), np.int32, "CLAIM_* of the offer"),
    ("claim_mask", (4,), np.int32, "CLAIM_BIT_* each seat may choose"),
    ("claim_answer", (4,), np.int32, "action each asked seat chose, -1 not yet / not asked"),
    ("claim_queue", (3,), np.int32, "seats to ask, in turn order after the discarder"),
    ("claim_n", (), np.int32, "seats in the queue"),
    ("claim_pos", (), np.int32, "index in the queue of the seat being asked"),
    # event log
    ("n_events", (), np.int32, "rows used in this table's event log"),
    ("ev_overflow", (), np.int32, "1 if rows were dropped because the log was full"),
)

FIELD_NAMES = tuple(f[0] for f in FIELDS) + ("events",)
"""Every field of a ``State``: the record's fields, then the event log."""

STATE_DTYPE = np.dtype([(name, dtype, shape) for name, shape, dtype, _ in FIELDS], align=True)
"""One table's record (about 4 KB)."""

_RECORD_FIELDS = frozenset(f[0] for f in FIELDS)


def _kernel_view(records: np.ndarray) -> np.ndarray:
    """The array kernels are called with: the plain array, or under ``NUMBA_DISABLE_JIT`` a
    ``np.recarray`` view (NumPy's records then read fields as attributes, like Numba's)."""
    if jit_disabled():
        return records.view(np.recarray)
    return records.view(np.ndarray)


class State:
    """Game state of N tables: ``records`` (``STATE_DTYPE[N]``) and ``events`` (``int32[N, E, 8]``).

    ``state.points``, ``state.kyoku``, ... are views of that field over all tables (leading axis
    N), so ``state.points[t, s]`` reads and writes table ``t``. Iterating yields the field arrays
    in ``FIELD_NAMES`` order.
    """

    __slots__ = ("records", "events")

    def __init__(self, records: np.ndarray, events: np.ndarray):
        if not isinstance(records, np.ndarray) or records.dtype != STATE_DTYPE or records.ndim != 1:
            raise TypeError("records must be a 1-d array of engine.state.STATE_DTYPE")
        if (
            not isinstance(events, np.ndarray)
            or events.dtype != np.int32
            or events.ndim != 3
            or events.shape[0] != records.shape[0]
            or events.shape[2] != EV_WIDTH
        ):
            raise TypeError(f"events must be int32[{records.shape[0]}, E, {EV_WIDTH}]")
        object.__setattr__(self, "records", _kernel_view(records))
        object.__setattr__(self, "events", events)

    def __getattr__(self, name: str) -> np.ndarray:
        if name in _RECORD_FIELDS:
            return self.records[name]
        raise AttributeError(f"State has no field {name!r}")

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"State fields are arrays: write into them (state.{name}[t] = ...)")

    def __iter__(self):
        return (getattr(self, name) for name in FIELD_NAMES)

    def __len__(self) -> int:
        return len(FIELD_NAMES)

    def __getstate__(self):
        return (self.records.view(np.ndarray), self.events)

    def __setstate__(self, value) -> None:
        State.__init__(self, *value)

    def __repr__(self) -> str:
        return f"State(n={self.records.shape[0]}, max_events={self.events.shape[1]})"


def new_state(
    n: int = 1, rules: Rules = MAHJONGSOUL, max_events: int = DEFAULT_MAX_EVENTS
) -> State:
    """Zeroed state for ``n`` tables under ``rules``; call ``engine.game.reset`` before play.

    ``max_events`` is the event log's capacity in rows per table; 0 keeps no log.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"number of tables must be an int, got {type(n).__name__} {n!r}")
    if n < 1:
        raise ValueError(f"number of tables must be a positive int, got {n!r}")
    n = int(n)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be an engine.rules.Rules, got {type(rules).__name__}")
    if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 0:
        raise ValueError(f"max_events must be a non-negative int, got {max_events!r}")
    records = np.zeros(n, dtype=STATE_DTYPE)
    records["rules"] = rules.to_array()
    records["phase"] = PHASE_GAME_OVER
    return State(records, np.zeros((n, max_events, EV_WIDTH), dtype=np.int32))


def copy_state(state: State) -> State:
    """A deep copy (both buffers copied)."""
    return State(state.records.copy(), state.events.copy())


def n_tables(state: State) -> int:
    """The number of tables N."""
    return int(state.records.shape[0])


def check_table(state: State, t) -> int:
    """``t`` as a valid table index of ``state``; ``TypeError``/``ValueError`` otherwise."""
    from engine.arguments import check_int

    if not isinstance(state, State):
        raise TypeError(f"state must be an engine.state.State, got {type(state).__name__}")
    return check_int("table index t", t, 0, n_tables(state) - 1)


@functools.cache
def examples() -> SimpleNamespace:
    """Arguments of the types the game's kernels take, which their warm-up examples
    (``njit(example=...)``) are made of: the records ``st``, the events ``ev``, the ``tables``, an
    int64 ``i``, a bool ``b``, an int32 ``i32``, a legal ``mask``, an action stream ``rng``, and
    the scorer's outputs ``res`` and ``yaku``."""
    from engine.actions import N_ACTIONS
    from engine.scoring.layout import N_RES
    from engine.scoring.yaku import N_YAKU
    from engine.tables import load_tables

    state = new_state(1, MAHJONGSOUL, 0)  # types only: every state has the same record dtype
    return SimpleNamespace(
        st=state.records,
        ev=state.events,
        tables=load_tables(),
        i=np.int64(0),
        b=np.bool_(False),
        i32=np.int32(0),
        mask=np.zeros(N_ACTIONS, dtype=np.int8),
        rng=np.zeros(2, dtype=np.int64),
        res=np.zeros(N_RES, dtype=np.int32),
        yaku=np.zeros(N_YAKU, dtype=np.int32),
    )
