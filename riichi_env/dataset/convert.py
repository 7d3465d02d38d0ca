"""Game records as training arrays: one row per decision, exactly what the env shows there.

A record (mjlog XML, tenhou.net/6 JSON or mjai events; ``riichi-env`` reads them all) is replayed
by the engine in one compiled call per game (the runner's replay kernel, ``_run_replay``:
``riichi_env.core.record_seat``). At each decision of a chosen
seat the row holds the encoder's observation and the legal-action mask, computed by the same
kernels as the env's, and the recorded move as the env's action id. ``docs/dataset.md`` documents
the columns, the kinds, when a pass is a row, the rank-predictor features and the file formats.

```python
from riichi_env.dataset.convert import Converter

conv = Converter(encoder="basic_v0")
rows = conv.convert("game.mjson")     # dict of numpy arrays, or None if the record was skipped
rows["obs"].shape, rows["action"], conv.stats.as_dict()
```

Three-player records take a three-seat encoder (``basic3_v0``, ``rich3_v0``, ``oracle3_v0``): the
encoder fixes the players of a converter (its rows' shape and 85- or 86-entry masks), and a record
of the other player count is skipped with a reason naming the encoders to use instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.actions import n_actions
from engine.rules import Rules
from engine.state import new_state
from engine.tables import load_tables
from riichi_env.core.compiling import ensure_compiled
from riichi_env.core.encoders import ALL_ENCODERS, ENCODER_IDS, ENCODERS, ENCODERS_3P, N_ROWS
from riichi_env.core.fields import (
    NO_ENCODER,
    O_ENCODER,
    O_HI,
    O_KINDS,
    O_ORACLE,
    O_ROWS,
    O_ROWS_FULL,
    O_SKIP_FORCED,
    T_GAME_INDEX,
    T_REC_HAND_END,
    T_REC_KNOWN,
    T_REC_SEATS,
    T_START,
    new_tables,
)
from riichi_env.core.record_seat import (
    HAND_DESYNC,
    HAND_ILLEGAL,
    HAND_OK,
    HAND_OUTCOME,
    HAND_TOO_LONG,
    HAND_UNFINISHED,
    KINDS,
    SCRIPT_CODES,
)
from riichi_env.core.runner import _run_replay
from riichi_env.dataset.pack import (
    SUIT_PERMUTATIONS,
    PackedGame,
    pack_game,
    permute_suits,
)
from riichi_env.records.model import Game, RecordError

KIND_IDS = {name: i for i, name in enumerate(KINDS)}
"""Kind name → id in the ``kind`` column."""
AUGMENTS = {None: (0,), "mp": (0, 1), "ps": (0, 2), "suits": tuple(range(6))}
"""``augment`` option → the suit permutations (``SUIT_PERMUTATIONS`` indices) of each record:
``None`` as recorded, ``"mp"`` also with man and pin swapped, ``"ps"`` with pin and sou swapped
(the one a three-player game allows: it has no 2m-8m), ``"suits"`` all six."""
AUGMENTS_3P = (None, "ps")
"""The ``augment`` options of a three-seat encoder."""
COLUMNS = (
    "obs",
    "mask",
    "action",
    "seat",
    "kind",
    "forced",
    "hand",
    "step",
    "perm",
    "hand_delta",
    "final_rank",
    "final_score",
)
"""The arrays of :meth:`Converter.convert` (plus ``oracle`` with ``oracle=True``)."""
ORACLE = "oracle_v0"
ORACLE_3P = "oracle3_v0"
"""The ``oracle`` column's encoder: ``ORACLE`` with four players, ``ORACLE_3P`` with three."""
DELTA_UNKNOWN = -(2**31)
"""``hand_delta`` of the rows of a hand the record stops inside (its outcome is not in it)."""
GRP_FEATURES = ("round", "honba", "kyotaku", "score0", "score1", "score2", "score3")
"""Columns of :func:`grp_game`'s ``features``: Mortal's rank-predictor inputs per hand."""
_FIRST_ROWS = 1024
_NO_FLOATS = np.zeros((0, 1, 34), dtype=np.float32)
_NO_BYTES = np.zeros((0, 1, 34), dtype=np.uint8)
_NO_VIEWS = np.zeros((0, 1, 1, 34), dtype=np.float32)
"""The row buffers a call does not write (no rows), and the runner's unused ``obs``."""
_ENCODERS_OF = {4: ENCODERS, 3: ENCODERS_3P}

MAX_ROWS_PER_MOVE = 4.0
"""Rows per recorded move (discard, call, kan, riichi) at most: the move, three claim offers on
it. Fresh row arrays are first sized by the ratio seen so far, never above this."""


class DatasetError(ValueError):
    """A record could not become rows (raised with ``strict=True``; else it is skipped)."""


@dataclass
class Skip:
    """A record, or one hand of it, that gave no rows, and why."""

    file: str
    reason: str

    def as_dict(self) -> dict[str, str]:
        """``{"file": ..., "reason": ...}``."""
        return {"file": self.file, "reason": self.reason}


@dataclass
class Stats:
    """What a :class:`Converter` read: records, games, hands and rows, and what it skipped.

    ``illegal`` counts recorded moves outside the engine's mask (each drops its hand);
    ``skipped`` lists records that gave no rows and hands that were dropped, with the reason;
    ``truncated`` the records that stop short of their game's end (their rows go up to there),
    with the note saying where.
    """

    files: int = 0
    games: int = 0
    hands: int = 0
    decisions: int = 0
    illegal: int = 0
    skipped: list[Skip] = field(default_factory=list)
    truncated: list[Skip] = field(default_factory=list)

    def add(self, other: Stats) -> None:
        """Add ``other``'s counts and skips to these."""
        self.files += other.files
        self.games += other.games
        self.hands += other.hands
        self.decisions += other.decisions
        self.illegal += other.illegal
        self.skipped.extend(other.skipped)
        self.truncated.extend(other.truncated)

    def as_dict(self) -> dict[str, Any]:
        """The counts and ``skipped`` as plain JSON types."""
        return {
            "files": self.files,
            "games": self.games,
            "hands": self.hands,
            "decisions": self.decisions,
            "illegal": self.illegal,
            "skipped": [s.as_dict() for s in self.skipped],
            "truncated": [s.as_dict() for s in self.truncated],
        }


@dataclass
class Prepared:
    """A record read and packed for the replay (:meth:`Converter.prepare`), with what its rows
    need besides the moves: the rules it is replayed under, the players' names (``players``
    filter), its player count, and each seat's final rank and score."""

    name: str
    packed: PackedGame
    rules: Rules
    names: tuple[str, str, str, str]
    players: int
    final_rank: np.ndarray
    final_score: np.ndarray


def _names(value, what: str, allowed=None) -> frozenset | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)):
        value = [v for v in str(value).split(",") if v]
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{what} must be a list, got {type(value).__name__}") from None
    if allowed is not None:
        for v in items:
            if v not in allowed:
                raise ValueError(f"unknown {what[:-1]} {v!r}; expected one of {', '.join(allowed)}")
    return frozenset(items)


def _check_encoder_rules(encoder: str, rules: str | Rules) -> int:
    """The players of ``encoder`` (3 or 4), once it and ``rules`` (of those players) are checked."""
    if not isinstance(encoder, str) or encoder not in ENCODER_IDS:
        raise ValueError(f"unknown encoder {encoder!r}; expected one of {', '.join(ALL_ENCODERS)}")
    if not isinstance(rules, Rules):
        if not isinstance(rules, str):
            raise TypeError(f"rules must be a preset name or engine.Rules, got {rules!r}")
        if rules != "auto":
            _check_rules_players(Rules.preset(rules), encoder)  # raises naming the presets
    else:
        _check_rules_players(rules, encoder)
    return 3 if encoder in ENCODERS_3P else 4


def _seat_set(seats: Iterable[int] | None) -> frozenset[int] | None:
    """``seats`` as a set of ints 0-3 (None: every seat)."""
    seat_set = _names(seats, "seats")
    if seat_set is not None:
        try:
            seat_set = frozenset(int(s) for s in seat_set)
        except (TypeError, ValueError):
            raise ValueError(f"seats must be ints 0-3, got {sorted(seats)!r}") from None
        if not seat_set or not seat_set <= {0, 1, 2, 3}:
            raise ValueError(f"seats must be ints 0-3, got {sorted(seat_set)}")
    return seat_set


def _check_augment(augment: str | None, encoder: str, game_players: int) -> None:
    """Raise ``ValueError`` unless ``augment`` is one of ``AUGMENTS`` the players allow."""
    if augment not in AUGMENTS:
        raise ValueError(f"augment must be None, 'mp', 'ps' or 'suits', got {augment!r}")
    if game_players == 3 and augment not in AUGMENTS_3P:
        raise ValueError(
            f"augment {augment!r} swaps the man suit, which a three-player game has only 1m "
            f"and 9m of; with the three-seat encoder {encoder} use None or 'ps' (pin/sou)"
        )


def _row_dtype(dtype: str | np.dtype | type) -> np.dtype:
    """``dtype`` as a NumPy dtype, float32 or uint8."""
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype must be float32 or uint8, got {dtype!r}") from None
    if dt not in (np.float32, np.uint8):
        raise ValueError(f"dtype must be float32 or uint8, got {dt}")
    return dt


def _replay_arrays(pk: PackedGame, scratch: tuple, buf: dict, quantized: bool, per_hand: tuple):
    """The replay kernel's arrays: the packed record, the oracle's float scratch, the row buffers
    (observations in the float or the byte slots, by ``quantized``) and the per-hand outputs."""
    obs = buf["obs"]
    orc = buf.get("oracle")
    return (
        pk.walls,
        pk.known,
        pk.starts,
        pk.script,
        pk.script_lo,
        pk.ends,
        pk.rec_deltas,
        pk.finished,
        pk.red,
        *scratch,
        _NO_FLOATS if quantized else obs,
        obs if quantized else _NO_BYTES,
        _NO_FLOATS if (quantized or orc is None) else orc,
        orc if (quantized and orc is not None) else _NO_BYTES,
        buf["mask"],
        buf["action"],
        buf["seat"],
        buf["kind"],
        buf["forced"],
        buf["hand"],
        buf["step"],
        *per_hand,
    )


class Converter:
    """Records to rows, with fixed options; reuse one for many records (it keeps its buffers).

    Args:
        encoder: Observation encoder, as the env's ``encoder``: a four-player one
            (``riichi_env.core.encoders.ENCODERS``) converts four-player records, a three-seat one
            (``ENCODERS_3P``) three-player records; a record of the other count is skipped.
        rules: ``"auto"`` (from the record, as ``riichi-env replay``), a preset name or a
            ``engine.Rules`` of the encoder's players; game length, red fives and uma come from
            the record either way.
        seats: Absolute seats (0-3, 0 is the first dealer) whose decisions become rows.
        players: Player names whose decisions become rows (mjlog ``UN``, mjai ``names``,
            tenhou.net/6 ``name``); combined with ``seats``, a row needs both.
        kinds: Decision kinds (``KINDS``) that become rows.
        skip_forced: Leave out decisions with a single legal action.
        augment: ``None``, ``"mp"`` (add the man/pin-swapped copy), ``"ps"`` (pin/sou) or
            ``"suits"`` (all six suit permutations); the ``perm`` column says which
            (``SUIT_PERMUTATIONS``). Three players: ``None`` or ``"ps"``.
        oracle: Add an ``oracle`` column: ``oracle_v0`` rows (``oracle3_v0`` with a three-seat
            encoder) with the wall the record reveals.
        dtype: ``"float32"``, or ``"uint8"`` for rows quantized as ``vector_env(dtype=uint8)``.
        strict: Raise :class:`DatasetError` instead of skipping a bad record or hand.
        walls: Full Tenhou walls for mjlog records (``riichi_env.records.mjlog.load_walls``).
    """

    def __init__(
        self,
        encoder: str = "basic_v0",
        *,
        rules: str | Rules = "auto",
        seats: Iterable[int] | None = None,
        players: Iterable[str] | None = None,
        kinds: Iterable[str] | None = None,
        skip_forced: bool = False,
        augment: str | None = None,
        oracle: bool = False,
        dtype: str | np.dtype | type = "float32",
        strict: bool = False,
        walls: Any = None,
    ) -> None:
        game_players = _check_encoder_rules(encoder, rules)
        seat_set = _seat_set(seats)
        kind_set = _names(kinds, "kinds", KINDS)
        if kind_set is not None and not kind_set:
            raise ValueError("kinds is empty: no decision would become a row")
        _check_augment(augment, encoder, game_players)
        dt = _row_dtype(dtype)
        for name, value in (("skip_forced", skip_forced), ("oracle", oracle), ("strict", strict)):
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False, got {value!r}")
        self.encoder = encoder
        self.game_players = game_players
        """3 or 4: the players of the records this converter takes (its encoder's)."""
        self.n_actions = n_actions(game_players)
        """Entries of a mask (85, or 86 with three players: ``KITA``)."""
        self.oracle_encoder = ORACLE_3P if game_players == 3 else ORACLE
        self.rules = rules
        self.seats = seat_set
        self.players = _names(players, "players")
        self.kinds = kind_set
        self.skip_forced = bool(skip_forced)
        self.augment = augment
        self.oracle = bool(oracle)
        self.dtype = dt
        self.strict = bool(strict)
        self.walls = walls
        self.stats = Stats()
        ensure_compiled("dataset")  # a cold cache says so on stderr, then compiles
        self._tables = load_tables()
        self._tables_tuple = tuple(self._tables)
        self._rows = N_ROWS[encoder]
        self._ti, self._tf = self._replay_table()
        self._masks = np.zeros((1, self.n_actions), dtype=np.int8)
        self._cap = 0
        self._per_move = 1.2
        self._state_rules: Rules | None = None
        self.hand_status = np.zeros(0, dtype=np.int32)
        """Each hand's replay status (``record_seat.HAND_*``) of the last record replayed as
        recorded (its first suit permutation)."""

    def _replay_table(self) -> tuple[np.ndarray, np.ndarray]:
        """The runner's records of the one replay table, copied per record: game 0, its first
        hand dealt at the start, the options (``kinds``: bit k for kind k)."""
        ti, tf = new_tables(1)
        ti[0, T_GAME_INDEX] = 0
        ti[0, T_START] = 1
        options = ti[1]
        options[O_HI] = 1
        options[O_ENCODER] = ENCODER_IDS[self.encoder]
        options[O_KINDS] = sum(
            1 << KIND_IDS[k] for k in (KINDS if self.kinds is None else self.kinds)
        )
        options[O_ORACLE] = ENCODER_IDS[self.oracle_encoder] if self.oracle else 0
        return ti, tf

    def empty(self) -> dict[str, np.ndarray]:
        """The columns with no rows (their dtypes and shapes)."""
        return self._columns(0)

    def _columns(self, n: int, make=np.zeros) -> dict[str, np.ndarray]:
        out = {
            "obs": make((n, self._rows, 34), dtype=self.dtype),
            "mask": np.zeros((n, self.n_actions), dtype=np.int8),
            "action": np.zeros(n, dtype=np.int16),
            "seat": np.zeros(n, dtype=np.int8),
            "kind": np.zeros(n, dtype=np.int8),
            "forced": np.zeros(n, dtype=np.bool_),
            "hand": np.zeros(n, dtype=np.int16),
            "step": np.zeros(n, dtype=np.int32),
            "perm": np.zeros(n, dtype=np.int8),
            "hand_delta": np.zeros(n, dtype=np.int32),
            "final_rank": np.zeros(n, dtype=np.int8),
            "final_score": np.zeros(n, dtype=np.float32),
        }
        if self.oracle:
            out["oracle"] = make((n, N_ROWS[self.oracle_encoder], 34), dtype=self.dtype)
        return out

    @property
    def buffers(self) -> dict[str, np.ndarray]:
        """The converter's own row buffers (what ``rows_of(reuse=True)`` returns views of),
        every column with the same number of rows, at least those written."""
        return self._grow(_FIRST_ROWS)

    def _grow(self, n: int) -> dict[str, np.ndarray]:
        """The converter's own row buffers (``reuse``), for at least ``n`` rows."""
        if n > self._cap:
            cap = max(n, 2 * self._cap, _FIRST_ROWS)
            old = getattr(self, "_buf", None)
            self._buf = _grown(old, cap) if old is not None else self._columns(cap, np.empty)
            self._cap = cap
        return self._buf

    def _state(self, rules: Rules):
        if self._state_rules != rules:
            self._st = new_state(1, rules, max_events=0)
            self._state_rules = rules
            import engine.game as _g

            _g.reset(self._st, 0)
        return self._st

    def _fail(self, source: str, reason: str) -> None:
        if self.strict:
            raise DatasetError(f"{source}: {reason}")
        self.stats.skipped.append(Skip(source, reason))

    def read(self, source: str | Path | Game) -> Game:
        """The record as a :class:`~riichi_env.records.model.Game` (``RecordError`` if unreadable)."""
        return _read(source, self.walls)

    def convert(
        self, source: str | Path | Game, *, reuse: bool = False
    ) -> dict[str, np.ndarray] | None:
        """The rows of one record, or ``None`` when it gave none and was skipped (see ``stats``).

        A record that does not read (not a record, corrupt, over the size bounds) is skipped; a
        hand whose recorded move is outside the engine's mask, or whose play leaves the record,
        gives no rows and is listed in ``stats.skipped`` (``illegal`` counts the former). With
        ``reuse``, the arrays are views of the converter's own buffers, valid until its next
        call (no copy: for callers that copy the rows on, as ``iter_batches`` does).

        Raises:
            FileNotFoundError, IsADirectoryError, PermissionError (``OSError``): a path that is
                no file this process can read (never skipped: a mistake of the caller's, not
                of the record's).
            DatasetError: with ``strict=True``, a record or hand that gives no rows.
        """
        game = self.read_checked(source)
        if game is None:
            return None
        name = source.source if isinstance(source, Game) else str(source)
        return self.convert_game(game, name, reuse=reuse)

    def read_checked(self, source: str | Path | Game) -> Game | None:
        """The record read, counted in ``stats.files``; ``None`` when it does not read (skipped,
        with the reason). Raises as :meth:`convert` for a path that is no readable file."""
        name = source.source if isinstance(source, Game) else str(source)
        if isinstance(source, (str, Path)):
            _check_readable(source)
        self.stats.files += 1
        try:
            return self.read(source)
        except RecordError as exc:
            where = ", ".join(
                p for p in (f"hand {exc.hand}" if exc.hand else "", exc.position) if p
            )
            self._fail(name, f"{where}: {exc.detail}" if where else exc.detail)
        except OSError as exc:
            self._fail(name, f"cannot read: {exc.strerror or exc}")
        return None

    def convert_game(
        self, game: Game, name: str = "", *, reuse: bool = False
    ) -> dict[str, np.ndarray] | None:
        """The rows of a record already read (see :meth:`convert`)."""
        prepared = self.prepare(game, name)
        if prepared is None:
            return None
        return self.rows_of(prepared, reuse=reuse)

    def prepare(self, game: Game, name: str = "") -> Prepared | None:
        """``game`` packed for the replay with its rules, names and outcome, or ``None`` when it
        cannot give rows (skipped, with the reason in ``stats``; hands that could not be packed
        are skipped one by one)."""
        name = name or game.source or "<game>"
        from riichi_env.records.replay import rules_for

        if game.players != self.game_players:
            self._fail(name, _players_reason(game.players, self.encoder))
            return None
        _seed_walls(game)
        try:
            rules = self.rules if isinstance(self.rules, Rules) else rules_for(game, self.rules)
        except (RecordError, ValueError) as exc:
            self._fail(name, f"rules: {exc}")
            return None
        try:
            packed = pack_game(game, rules)
        except (RecordError, ValueError, IndexError) as exc:
            self._fail(name, f"record: {exc}")
            return None
        for _, label, msg in packed.errors:
            self._fail(name, f"hand {label}: {msg}")
        if game.truncated:
            self.stats.truncated.append(Skip(name, game.truncated))
        final_rank, final_score = _final(game, rules)
        names = tuple(str(n) if n is not None else "" for n in game.names[:4])
        names += ("",) * (4 - len(names))
        return Prepared(name, packed, rules, names, game.players, final_rank, final_score)

    def seat_ok(self, names: tuple[str, ...], players: int) -> np.ndarray:
        """uint8 (4,): 1 for the seats whose decisions become rows (``seats``, ``players``)."""
        seat_ok = np.ones(4, dtype=np.uint8)
        seat_ok[players:] = 0  # the empty seat of a three-player game never decides
        if self.seats is not None:
            seat_ok[[s for s in range(4) if s not in self.seats]] = 0
        if self.players is not None:
            for s in range(4):
                if names[s] not in self.players:
                    seat_ok[s] = 0
        return seat_ok

    def rows_of(
        self, prepared: Prepared, *, reuse: bool = False, observe: bool = True, at: int = 0
    ) -> dict[str, np.ndarray]:
        """The rows of a prepared record (:meth:`prepare`), each suit permutation of
        ``augment`` replayed in turn; counted in ``stats`` (a game, its hands and rows). With
        ``observe=False`` the observation columns are left out (``obs`` and ``oracle`` have no
        rows): the rows' count and small columns for a check, without encoding. With ``reuse``
        and ``at``, the rows are written into the converter's own buffers from row ``at`` on,
        the rows before it kept (:attr:`buffers`): rows of several records gathered without a
        copy."""
        packed, rules, name = prepared.packed, prepared.rules, prepared.name
        seat_ok = self.seat_ok(prepared.names, prepared.players)
        self.stats.games += 1
        if at and not (reuse and observe):
            raise ValueError("at is for rows written into the converter's buffers (reuse=True)")
        if not seat_ok.any():
            self.stats.hands += len(packed.labels)
            return self._columns(0)
        final_rank, final_score = prepared.final_rank, prepared.final_score
        st = self._state(rules)
        perms = AUGMENTS[self.augment]
        if not observe:
            buf = self._count_buffers(_FIRST_ROWS)
        elif reuse:
            buf = self._grow(at + _FIRST_ROWS)
        else:
            # fresh arrays the caller keeps, written by the kernel directly (no copy out), sized
            # by the rows per recorded move seen so far (grown if a record needs more): a tight
            # size lets malloc hand back the memory of the caller's previous arrays instead of
            # mapping (and zeroing) new pages for every record
            moves = packed.script.shape[0]
            guess = int(self._per_move * moves) + 8 * len(packed.labels) + 32
            buf = self._columns(guess * len(perms), np.empty)
        n = at
        for p in perms:
            pk = packed if p == 0 else permute_suits(packed, SUIT_PERMUTATIONS[p])
            buf, start, n, delta = self._replay(
                pk, st, seat_ok, name, p == 0, buf, n, reuse or not observe, observe
            )
            rows = {k: v[start:n] for k, v in buf.items()}
            rows["perm"][:] = p
            seat = rows["seat"].astype(np.int64)
            rows["hand_delta"][:] = delta[rows["hand"], seat]
            rows["final_rank"][:] = final_rank[seat]
            rows["final_score"][:] = final_score[seat]
            # the hand column counts the record's hands, not the packed ones
            rows["hand"][:] = pk.hand_ids[rows["hand"]]
        out = {k: v[at : min(n, len(v))] for k, v in buf.items()}
        n -= at
        self.stats.decisions += n
        if moves_seen := packed.script.shape[0] * len(perms):
            self._per_move = min(MAX_ROWS_PER_MOVE, max(self._per_move, 1.05 * n / moves_seen))
        return out

    def _count_buffers(self, n: int) -> dict[str, np.ndarray]:
        """Row buffers without observations (``rows_of(observe=False)``), kept for reuse and
        grown with their rows kept."""
        buf = getattr(self, "_count_buf", None)
        if buf is None:
            buf = self._columns(0)
        if len(buf["action"]) < n:
            cap = max(n, _FIRST_ROWS)
            obs = {k: buf[k] for k in ("obs", "oracle") if k in buf}  # no rows, kept so
            buf = _grown({k: v for k, v in buf.items() if k not in obs}, cap)
            buf.update(obs)
            self._count_buf = buf
        return buf

    def _replay(
        self,
        pk: PackedGame,
        st,
        seat_ok,
        name: str,
        count: bool,
        buf,
        row0: int,
        reuse: bool,
        observe: bool = True,
    ):
        """Replay one (permuted) packed record into ``buf`` from row ``row0`` on the runner's
        replay kernel (one table): the buffers (grown if they filled up), the first and end row,
        the engine's point changes per hand."""
        n_hands = pk.walls.shape[0]
        status = np.zeros(n_hands, dtype=np.int32)
        err = np.zeros(n_hands, dtype=np.int32)
        deltas = np.zeros((n_hands, 4), dtype=np.int32)
        per_hand = (status, err, deltas, np.zeros(n_hands, dtype=np.int32))  # + rows per hand
        scratch = (np.zeros((N_ROWS[self.oracle_encoder], 34), dtype=np.float32),)
        ti, tf = self._record_table(pk, seat_ok, row0, observe)
        options = ti[1]
        masks = self._masks
        while True:
            rp = _replay_arrays(pk, scratch, buf, self.dtype == np.uint8, per_hand)
            _run_replay(
                st.records, st.events, self._tables_tuple, ti, tf, masks, _NO_VIEWS, _NO_BYTES, rp
            )
            if not options[O_ROWS_FULL]:
                break
            if not observe:
                buf = self._count_buffers(2 * len(buf["action"]))
            elif reuse:
                buf = self._grow(2 * self._cap)
            else:
                buf = _grown(buf, 2 * len(buf["action"]))
        n = int(options[O_ROWS])
        if count:
            self.stats.hands += n_hands
            self.hand_status = status
        self._hand_results(pk, name, count, status, err, deltas)
        return buf, row0, n, deltas

    def _record_table(self, pk: PackedGame, seat_ok, row0: int, observe: bool):
        """The one table's records for replaying ``pk`` (a copy; the options set once): its
        hands, the seats whose decisions are rows, the first row, what is encoded."""
        ti, tf = self._ti.copy(), self._tf
        ti[0, T_REC_HAND_END] = pk.walls.shape[0]
        ti[0, T_REC_SEATS : T_REC_SEATS + 4] = seat_ok
        ti[0, T_REC_KNOWN] = not pk.full_walls
        options = ti[1]
        options[O_ROWS] = row0
        options[O_SKIP_FORCED] = self.skip_forced
        if not observe:  # rows counted and checked, nothing encoded
            options[O_ENCODER] = NO_ENCODER
            options[O_ORACLE] = 0
        return ti, tf

    def _hand_results(self, pk: PackedGame, name: str, count: bool, status, err, deltas) -> None:
        """After a replay: no point changes for an unfinished hand; with ``count``, a hand that
        failed is counted (illegal) and skipped or raised (``_fail``)."""
        for i in range(len(status)):
            s = int(status[i])
            if s == HAND_UNFINISHED:
                deltas[i] = DELTA_UNKNOWN  # the engine's are those of an earlier hand
            if s in (HAND_OK, HAND_UNFINISHED):
                continue
            if count:
                self.stats.illegal += s == HAND_ILLEGAL
                self._fail(
                    name, f"hand {pk.labels[i]}: {self._why(pk, i, s, int(err[i]), deltas[i])}"
                )

    @staticmethod
    def _why(pk: PackedGame, h: int, status: int, err: int, delta) -> str:
        lo = int(pk.script_lo[h])
        where = f"record move {err - lo}" if lo <= err < int(pk.script_lo[h + 1]) else "the end"
        row = pk.script[err] if lo <= err < int(pk.script_lo[h + 1]) else None
        what = ""
        if row is not None:
            from engine.tiles import tile34_to_str

            tile = f" {tile34_to_str(int(row[2]) // 4)}" if row[2] >= 0 else ""
            what = f" ({SCRIPT_CODES[int(row[0])]}{tile} by seat {int(row[1])})"
        if status == HAND_ILLEGAL:
            return f"{where}{what} is not legal in the engine (illegal)"
        if status == HAND_DESYNC:
            return f"the engine and the record part at {where}{what}"
        if status == HAND_OUTCOME:
            return (
                f"point changes: engine {[int(x) for x in delta]}, "
                f"record {[int(x) for x in pk.rec_deltas[h]]}"
            )
        if status == HAND_TOO_LONG:
            return "more decisions than a hand can have"
        return f"status {status}"


def _grown(buf: dict[str, np.ndarray], rows: int) -> dict[str, np.ndarray]:
    """``buf`` with room for ``rows`` rows, its rows kept."""
    out = {}
    for k, v in buf.items():
        new = np.empty((rows, *v.shape[1:]), dtype=v.dtype)
        new[: len(v)] = v
        out[k] = new
    return out


def _seed_walls(game: Game) -> None:
    """Give the hands of an mjlog record with a ``SHUFFLE`` seed their walls, rebuilt as Tenhou
    shuffles them (:mod:`riichi_env.records.tenhou_wall`); a hand whose rebuilt wall disagrees
    with a tile the record shows keeps none (its oracle rows show what the record reveals).
    Tenhou's three-player walls are not rebuilt (their shuffle is not known)."""
    if game.players != 4 or not game.shuffle_seed or all(h.wall is not None for h in game.hands):
        return
    from riichi_env.records.tenhou_wall import tenhou_walls
    from riichi_env.records.wall import check_wall

    try:
        walls, layout = tenhou_walls(game.shuffle_seed, len(game.hands))
    except ValueError:
        return
    for hand, wall in zip(game.hands, walls, strict=True):
        if hand.wall is not None:
            continue
        hand.wall, hand.wall_layout = wall, layout
        try:
            check_wall(hand)
        except RecordError:
            hand.wall, hand.wall_layout = None, "tenhou"


def _check_readable(path: str | Path) -> None:
    """An ``OSError`` naming ``path`` (``[Errno 2] No such file or directory: 'x.mjlog'``) unless
    it is a file this process can open."""
    with open(path, "rb"):
        pass


def _read(source: str | Path | Game, walls: Any = None) -> Game:
    """The record as a :class:`~riichi_env.records.model.Game` (``RecordError`` if unreadable)."""
    if isinstance(source, Game):
        return source
    if not isinstance(source, (str, Path)):
        raise TypeError(f"a record must be a path or a Game, got {type(source).__name__}")
    from riichi_env.records.convert import read_file

    return read_file(source, walls=walls)


def _check_rules_players(rules: Rules, encoder: str) -> None:
    """``ValueError`` when ``rules`` are not for the players of ``encoder``, naming what fits."""
    players = 3 if encoder in ENCODERS_3P else 4
    if rules.players != players:
        raise ValueError(
            f"rules {rules.name!r} are for {rules.players} players but the encoder {encoder} is "
            f"for {players}: with {rules.players} players use one of "
            f"{', '.join(_ENCODERS_OF[rules.players])}"
        )


def _players_reason(players: int, encoder: str) -> str:
    """The skip reason of a record of ``players`` players under ``encoder`` (of the other count)."""
    mine = 3 if encoder in ENCODERS_3P else 4
    kind = "a three-seat" if players == 3 else "a four-player"
    return (
        f"a {players}-player record, but the encoder {encoder} is for {mine} players: convert "
        f"{players}-player records in a converter of their own, with {kind} encoder "
        f"({', '.join(_ENCODERS_OF[players])})"
    )


def _final(game: Game, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's final rank (0-3, -1 unknown) and final score (NaN unknown) from the record;
    the empty seat of a three-player game keeps -1 and NaN."""
    rank = np.full(4, -1, dtype=np.int8)
    score = np.full(4, np.nan, dtype=np.float32)
    if game.final_scores is None:
        return rank, score
    points = list(game.final_scores)
    order = sorted(range(game.players), key=lambda s: (-points[s], s))
    for r, s in enumerate(order):
        rank[s] = r
    n = game.players
    if game.final_results is not None:
        score[:n] = game.final_results[:n]
    else:
        from riichi_env.records.replay import placement_scores

        score[:n] = placement_scores(points, rules)[:n]
    return rank, score


def record_arrays(
    source: str | Path | Game, encoder: str = "basic_v0", **options
) -> dict[str, np.ndarray]:
    """The rows of one record (a convenience over :class:`Converter`); ``strict`` by default:
    raises :class:`DatasetError` if the record or any hand cannot become rows."""
    options.setdefault("strict", True)
    rows = Converter(encoder, **options).convert(source)
    return rows


def grp_game(source: str | Path | Game, rules: str | Rules = "auto") -> dict[str, np.ndarray]:
    """Rank-predictor data of one record: ``features`` int32 (H, 7), per hand the round index
    (``kyoku`` code: 0 East 1 … 7 South 4), honba, riichi sticks and the four scores at hand start
    (``GRP_FEATURES``), and ``ranks`` int8 (4,), each seat's final rank (-1 if the record does not
    end its game), as Mortal's rank predictor reads them. Three-player records too: ``score3``
    is 0 and the empty seat's rank -1."""
    game = _read(source)
    feats = np.array(
        [(h.round_wind * 4 + h.kyoku, h.honba, h.kyotaku, *h.scores) for h in game.hands],
        dtype=np.int32,
    ).reshape(-1, len(GRP_FEATURES))
    if isinstance(rules, Rules):
        r = rules
    else:
        from riichi_env.records.replay import rules_for

        r = rules_for(game, rules)
    rank, _ = _final(game, r)
    return {"features": feats, "ranks": rank}


def concat_rows(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Rows of several records as one dict (the columns of the first); ``ValueError`` when their
    columns differ (three- and four-player rows, other encoders or options)."""
    if not parts:
        raise ValueError("no rows to concatenate")
    from riichi_env.dataset.io import check_row_shapes, row_shapes

    shapes = row_shapes(parts[0])
    for n, p in enumerate(parts[1:], 1):
        check_row_shapes(shapes, p, f"part {n}")
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


__all__ = [
    "AUGMENTS",
    "AUGMENTS_3P",
    "COLUMNS",
    "DELTA_UNKNOWN",
    "GRP_FEATURES",
    "KINDS",
    "KIND_IDS",
    "SUIT_PERMUTATIONS",
    "Converter",
    "DatasetError",
    "Skip",
    "Stats",
    "concat_rows",
    "grp_game",
    "record_arrays",
]
