"""Format-neutral game records: a game is hands, a hand is ordered events plus its outcome.

Tiles are physical ids (``tile136``, see ``engine/tiles.py``). Every reader (mjlog XML,
tenhou.net/6 JSON, mjai events) fills these classes; every writer reads them. Formats that name
tiles only by kind (tenhou.net/6, mjai) get ids assigned by :class:`TileAllocator`, so one physical
tile never appears twice in a hand.

Event types (``Event.type``):

- ``draw``: ``seat`` draws ``tile`` (``rinshan`` for a replacement draw after a kan).
- ``discard``: ``seat`` discards ``tile``; ``tsumogiri`` when it is the tile just drawn.
- ``riichi``: ``seat`` declares riichi; its discard follows. ``riichi_accepted``: the stick is paid.
- ``chi``, ``pon``, ``daiminkan``: ``seat`` calls ``tile`` discarded by ``from_seat`` with
  ``consumed`` tiles from the hand.
- ``kakan``: ``seat`` adds ``tile`` to its pon of ``consumed``. ``ankan``: ``consumed`` four tiles.
- ``dora``: a new kan dora indicator ``tile`` is revealed.
- ``kita``: three players: ``seat`` sets the North ``tile`` aside (nuki dora); its replacement
  draw follows (a ``draw`` with ``rinshan``), unless another seat rons the North.

Three-player games (``Game.players == 3``) keep every per-seat tuple four wide: seat 3 is the
empty seat (no haipai, 0 points, 0 in every delta), as Tenhou's records write it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from engine.scoring.layout import (
    LIMIT_BAIMAN,
    LIMIT_HANEMAN,
    LIMIT_MANGAN,
    LIMIT_NAMES,
    LIMIT_NONE,
    LIMIT_SANBAIMAN,
    LIMIT_YAKUMAN,
)
from engine.tiles import FIVES, red_ids, tile34_to_str

EVENT_TYPES = (
    "draw",
    "discard",
    "riichi",
    "riichi_accepted",
    "chi",
    "pon",
    "daiminkan",
    "kakan",
    "ankan",
    "dora",
    "kita",
)
CALL_TYPES = ("chi", "pon", "daiminkan", "kakan", "ankan")

DRAW_KINDS = (
    "exhaustive",
    "kyuushu_kyuuhai",
    "suufon_renda",
    "suucha_riichi",
    "suukaikan",
    "sanchahou",
    "nagashi_mangan",
)
"""How a hand can end without a win (nagashi mangan is an exhaustive draw that pays)."""

YAKU_KEYS = (
    "menzen_tsumo",
    "riichi",
    "ippatsu",
    "chankan",
    "rinshan_kaihou",
    "haitei_raoyue",
    "houtei_raoyui",
    "pinfu",
    "tanyao",
    "iipeikou",
    "seat_wind_east",
    "seat_wind_south",
    "seat_wind_west",
    "seat_wind_north",
    "round_wind_east",
    "round_wind_south",
    "round_wind_west",
    "round_wind_north",
    "yakuhai_haku",
    "yakuhai_hatsu",
    "yakuhai_chun",
    "double_riichi",
    "chiitoitsu",
    "chanta",
    "ittsu",
    "sanshoku_doujun",
    "sanshoku_doukou",
    "sankantsu",
    "toitoi",
    "sanankou",
    "shousangen",
    "honroutou",
    "ryanpeikou",
    "junchan",
    "honitsu",
    "chinitsu",
    "renhou",
    "tenhou",
    "chiihou",
    "daisangen",
    "suuankou",
    "suuankou_tanki",
    "tsuuiisou",
    "ryuuiisou",
    "chinroutou",
    "chuuren_poutou",
    "junsei_chuuren_poutou",
    "kokushi_musou",
    "kokushi_musou_13_sided",
    "daisuushii",
    "shousuushii",
    "suukantsu",
    "dora",
    "ura_dora",
    "aka_dora",
)
"""Yaku keys (``docs/hand-score.md``, "Yaku keys") in Tenhou's yaku id order (id = index)."""
YAKUMAN_KEYS = frozenset(YAKU_KEYS[36:52]) - {"renhou"}
NUKI_DORA = "nuki_dora"
"""Key of the kita dora when a record names it apart (Mahjong Soul's 抜きドラ, RiichiEnv's
``Kita``); Tenhou and the engine count kita inside ``dora``, and the replay compares the sum."""
DORA_KEYS = frozenset({"dora", "ura_dora", "aka_dora", NUKI_DORA})

LIMITS = tuple(
    LIMIT_NAMES[i]
    for i in (LIMIT_NONE, LIMIT_MANGAN, LIMIT_HANEMAN, LIMIT_BAIMAN, LIMIT_SANBAIMAN, LIMIT_YAKUMAN)
)
"""Limit names by Tenhou's limit code (mjlog ``ten`` third field)."""

WINDS = "ESWN"


BOM = "\ufeff"
"""The UTF-8 byte-order mark as text; every reader skips one at the start of a record."""


def strip_bom(text: str) -> str:
    """``text`` without a leading byte-order mark (Windows editors write one)."""
    return text[1:] if text.startswith(BOM) else text


MAX_MESSAGE = 500
"""Characters of a :class:`RecordError` message part beyond which it is cut (a hostile record's
values are quoted in messages; the message stays one short line)."""


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` on one line and at most ``limit`` characters (``…`` marks a cut)."""
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    return text if len(text) <= limit else text[: limit - 1] + "…"


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message names file, hand and position.

    Each part is one line of at most :data:`MAX_MESSAGE` characters.
    """

    def __init__(self, message: str, *, file: str = "", hand: str = "", position: str = ""):
        message, position = clip(message), clip(position, 100)
        self.file, self.hand, self.position, self.detail = file, hand, position, message
        where = ", ".join(p for p in (file, f"hand {hand}" if hand else "", position) if p)
        super().__init__(f"{where}: {message}" if where else message)


def json_problem(exc: BaseException) -> str:
    """What ``json.loads`` refused besides a syntax error, as a ``RecordError`` message: nesting
    deeper than Python's recursion limit (a record needs a few levels) or an over-long number."""
    if isinstance(exc, RecursionError):
        return "JSON nested deeper than Python's recursion limit (a record needs a few levels)"
    return f"not valid JSON: {str(exc).split(';')[0]}"


class NotARecordError(RecordError):
    """The file is not a game record at all (a ``walls.jsonl`` wall file, or no known format)."""


def load_json(text_or_obj, source: str = "", cut_note: str = ""):
    """A record read as one JSON document (an already-loaded object as it is), a byte-order mark
    ignored; a :class:`RecordError` names what ``json.loads`` refused and where, ``cut_note``
    added to a syntax error at the end of the text (a cut file)."""
    if not isinstance(text_or_obj, str):
        return text_or_obj
    try:
        return json.loads(strip_bom(text_or_obj))
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"not valid JSON: {exc.msg}" + (cut_note if cut_note and _ends_early(exc) else ""),
            file=source,
            position=f"line {exc.lineno} column {exc.colno}",
        ) from None
    except (ValueError, RecursionError) as exc:  # too deep, or a number over 4300 digits
        raise RecordError(json_problem(exc), file=source) from None


def _ends_early(exc: json.JSONDecodeError) -> bool:
    """Whether ``json.loads`` stopped at the end of its text (or in a string never closed)."""
    doc = exc.doc.rstrip()
    return exc.pos >= len(doc) or (
        exc.msg.startswith("Unterminated string") and '"' not in doc[exc.pos + 1 :]
    )


def hand_label(round_wind: int, kyoku: int, honba: int) -> str:
    """A hand's usual name, e.g. ``"E1-0"`` (East 1, no honba)."""
    return f"{WINDS[round_wind % 4]}{kyoku + 1}-{honba}"


@dataclass(slots=True)
class Event:
    """One action in a hand (see the module docstring for the types). Slots: a game has about
    1,500 of them, and a record is read faster without an instance dict per event."""

    type: str
    seat: int = -1
    tile: int = -1
    consumed: tuple[int, ...] = ()
    from_seat: int = -1
    tsumogiri: bool = False
    rinshan: bool = False


OP_DRAW, OP_RINSHAN, OP_DISCARD, OP_TSUMOGIRI, OP_RIICHI, OP_RIICHI_ACCEPTED, OP_EVENT = range(1, 8)
"""Row codes of :attr:`CompactEvents.ops`: a draw, a replacement draw, a discard (``tsumogiri``
or not), a riichi declaration, its accepted stick, and the next of :attr:`CompactEvents.others`."""


class CompactEvents:
    """A hand's events held compactly by a reader: one int row ``(code, seat, tile)`` an event
    (codes ``OP_*``), the events other than draws, discards and riichi kept as :class:`Event`
    objects in ``others``. :attr:`Hand.events` builds the list from it when first read; the
    replay's packing (:func:`riichi_env.dataset.pack.pack_game`) reads it without building one.
    """

    __slots__ = ("ops", "others")

    def __init__(self, ops, others: list[Event]):
        self.ops = ops
        """int32 (n, 3) array: ``(code, seat, tile)`` of each event in order."""
        self.others = others
        """The events of the ``OP_EVENT`` rows, in order."""

    def __reduce__(self):
        return (CompactEvents, (self.ops, self.others))

    def events(self) -> list[Event]:
        """The events as :class:`Event` objects, in order."""
        out: list[Event] = []
        add = out.append
        others = iter(self.others)
        for code, seat, tile in self.ops.tolist():
            if code == OP_DISCARD:
                add(Event("discard", seat, tile))
            elif code == OP_DRAW:
                add(Event("draw", seat, tile))
            elif code == OP_TSUMOGIRI:
                add(Event("discard", seat, tile, (), -1, True))
            elif code == OP_EVENT:
                add(next(others))
            elif code == OP_RINSHAN:
                add(Event("draw", seat, tile, (), -1, False, True))
            elif code == OP_RIICHI:
                add(Event("riichi", seat))
            elif code == OP_RIICHI_ACCEPTED:
                add(Event("riichi_accepted", seat))
            else:
                raise ValueError(f"unknown compact event code {code}")
        return out


@dataclass
class Win:
    """One winner's result. Unknown details (formats that omit them) are ``None``."""

    seat: int
    from_seat: int
    deltas: tuple[int, int, int, int]
    pao_seat: int = -1
    han: int | None = None
    fu: int | None = None
    yaku: tuple[tuple[str, int], ...] | None = None
    """(key, han) pairs; for yakuman keys the value is the yakuman multiplier."""
    points: int | None = None
    """The hand's value: ron payment, or the sum of tsumo payments; honba and sticks excluded."""
    limit: str | None = None
    hand: tuple[int, ...] | None = None
    """Concealed tiles including the winning tile."""
    win_tile: int = -1
    ura_indicators: tuple[int, ...] | None = None

    @property
    def tsumo(self) -> bool:
        """True for a win by self-draw."""
        return self.seat == self.from_seat

    @property
    def yakuman(self) -> int:
        """Yakuman multiplier (0 for an ordinary hand); needs ``yaku``."""
        return sum(v for k, v in self.yaku or () if k in YAKUMAN_KEYS)


@dataclass
class Draw:
    """A hand that ended without a win."""

    kind: str
    deltas: tuple[int, int, int, int] = (0, 0, 0, 0)
    tenpai: tuple[int, ...] | None = None
    """Seats tenpai at an exhaustive draw (``None`` when the record does not say)."""


@dataclass
class Hand:
    """One hand (kyoku): the deal, the events in order, and how it ended.

    A reader may hold the events compactly (:class:`CompactEvents`); ``events`` builds the list
    the first time it is read, and from then on it is an ordinary list.
    """

    round_wind: int
    kyoku: int
    """Hand number within the wind, 0–3; the dealer's seat."""
    honba: int
    kyotaku: int
    scores: tuple[int, int, int, int]
    dora_indicators: list[int]
    """Every indicator revealed, in order: the first one, then each ``dora`` event's."""
    haipai: list[list[int]]
    events: list[Event] = field(default_factory=list)
    wins: list[Win] = field(default_factory=list)
    draw: Draw | None = None
    ura_indicators: list[int] = field(default_factory=list)
    wall: list[int] | None = None
    """The full wall when the record has it (Tenhou layout, see :mod:`riichi_env.records.wall`)."""
    wall_layout: str = "tenhou"
    """``"tenhou"`` (dora at 5, 7, …) or ``"tenhou_old"`` (dora at 4, 6, …)."""
    plain_reds: frozenset[int] = frozenset()
    """Red-five ids that the record names as plain fives (a record with four plain fives)."""
    players: int = 4
    """4, or 3 for a three-player hand (seat 3 empty; its wall is in the engine's layout)."""

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self.kyoku

    @property
    def label(self) -> str:
        """Name such as ``"E1-0"``."""
        return hand_label(self.round_wind, self.kyoku, self.honba)

    @property
    def finished(self) -> bool:
        """True once the hand has its result (a game still running has one unfinished hand)."""
        return bool(self.wins) or self.draw is not None

    @property
    def deltas(self) -> tuple[int, int, int, int]:
        """Point changes of the whole hand (all winners, or the draw)."""
        if self.draw is not None:
            return self.draw.deltas
        if len(self.wins) == 1:  # most hands: the one win's, not summed
            return tuple(self.wins[0].deltas[:4])
        total = [0, 0, 0, 0]
        for w in self.wins:
            for i in range(4):
                total[i] += w.deltas[i]
        return tuple(total)


def _hand_events(hand: Hand) -> list[Event]:
    events = hand._events
    if events is None:  # held compactly: built now, an ordinary list from here on
        events = hand._events = hand._compact.events()
        hand._compact = None
    return events


def _set_hand_events(hand: Hand, events: list[Event]) -> None:
    hand._events = events
    hand._compact = None


def _set_hand_state(hand: Hand, state: dict) -> None:
    if "events" in state:  # pickled before the events could be compact
        state = {**state, "_events": state["events"], "_compact": None}
        del state["events"]
    hand.__dict__.update(state)


Hand.events = property(  # the dataclass field ``events``, built on demand from a reader's form
    _hand_events, _set_hand_events, doc="The events in order (see the module docstring)."
)
Hand.__setstate__ = _set_hand_state


def compact_events(hand: Hand) -> CompactEvents | None:
    """The hand's events in a reader's compact form, or ``None`` once :attr:`Hand.events` was read
    or set (the list is then the events)."""
    return hand.__dict__.get("_compact")


def set_compact_events(hand: Hand, compact: CompactEvents) -> None:
    """Hold the hand's events as ``compact`` (what a reader does instead of building the list)."""
    hand._events = None
    hand._compact = compact


@dataclass
class Game:
    """A whole (or partial) game."""

    hands: list[Hand]
    names: tuple[str, str, str, str] = ("A", "B", "C", "D")
    game_length: str = "hanchan"
    red_fives: tuple[int, int, int] = (1, 1, 1)
    final_scores: tuple[int, int, int, int] | None = None
    """Points at the end (set when the record contains the game's end)."""
    final_results: tuple[float, float, float, float] | None = None
    """Placement scores with uma and oka, in thousands (Tenhou ``owari``)."""
    complete: bool | None = None
    """Whether the record contains the game's end: ``True`` (mjai ``end_game``, mjlog ``owari``,
    tenhou.net/6 ``sc``, an engine log's game end), ``False`` (a game still running), ``None``
    when the format cannot say (tenhou.net/6 without ``sc``, which is often a single hand)."""
    truncated: str = ""
    """How the record stops short, for reports: a game still running, a file cut between hands or
    inside one (its last hand then has no result: :attr:`Hand.finished` is False), or a game
    stopped inside a hand; ``""`` when the record has every hand it starts."""
    source: str = ""
    rules_text: str = ""
    format: str = ""
    """The format the record was read from: ``"mjlog"``, ``"tenhou6"``, ``"mjai"`` or
    ``"mahjongsoul"``."""
    log_id: str = ""
    """Tenhou's log id (``2009022022gm-00a9-0000-cd94aac8``; its first ten digits are the date and
    hour the game was played) when the record (tenhou.net/6 ``ref``) or its file name has one."""
    mjlog_shuffle: bool | None = None
    """Whether the mjlog record has a ``SHUFFLE`` element (the wall seed Tenhou writes into its
    records since August 2009); ``None`` when unknown (mjai ``start_game.mjlog_shuffle`` carries
    it through a conversion)."""
    shuffle_seed: str = ""
    """The mjlog ``SHUFFLE`` seed, from which Tenhou's walls are rebuilt
    (:mod:`riichi_env.records.tenhou_wall`); ``""`` when the record has none."""
    players: int = 4
    """4, or 3 for a three-player (sanma) game: seat 3 is empty in every per-seat tuple."""
    record_id: str = ""
    """The platform's own id of the game when the record has one that is not a Tenhou log id
    (Mahjong Soul's ``head.uuid``); the Mahjong Soul writer keeps it."""


TENHOU_LOG_ID = re.compile(r"(?<![0-9])(\d{10})gm-[0-9a-f]{4}-\d{4,5}-x?[0-9a-f]{8,12}")
"""A Tenhou log id in any text (a file name, a viewer address)."""


def find_log_id(text: str) -> str:
    """The first Tenhou log id in ``text`` (``TENHOU_LOG_ID``), or ``""``."""
    m = TENHOU_LOG_ID.search(text)
    return m.group(0) if m else ""


def tile_kind_red(tile136: int, red: frozenset[int] | set[int]) -> tuple[int, bool]:
    """(tile34, is_red) of a physical tile."""
    return tile136 // 4, tile136 in red


def tile_text(tile136: int, red: frozenset[int] | set[int]) -> str:
    """mpsz text of one physical tile, ``0`` for red."""
    if tile136 in red:
        return f"0{'mps'[tile136 // 36]}"
    return tile34_to_str(tile136 // 4)


class TileAllocator:
    """Hands out physical ids to tiles known only by kind and redness, never one id twice.

    Also tracks each seat's concealed tiles so that discards and calls pick an id the seat holds.
    Raises :class:`RecordError` (through ``fail``) on a fifth copy or a tile the seat lacks.
    """

    def __init__(self, red_fives: tuple[int, int, int], fail):
        self.red = frozenset(red_ids(red_fives))
        self.used: set[int] = set()
        self.plain_as_red: set[int] = set()
        self.hands: list[list[int]] = [[], [], [], []]
        self.fail = fail

    def new(self, tile34: int, is_red: bool) -> int:
        """A fresh id of this kind (red or not) that no one has seen yet."""
        for tid in range(tile34 * 4, tile34 * 4 + 4):
            if tid not in self.used and (tid in self.red) == is_red:
                self.used.add(tid)
                return tid
        if not is_red:
            # A record with four plain fives despite red fives in the rules: use the red copy.
            for tid in range(tile34 * 4, tile34 * 4 + 4):
                if tid not in self.used:
                    self.used.add(tid)
                    self.plain_as_red.add(tid)
                    return tid
        name = f"red {tile34_to_str(tile34)}" if is_red else tile34_to_str(tile34)
        if is_red and tile34 not in FIVES:
            self.fail(f"{tile34_to_str(tile34)} cannot be red")
        self.fail(f"one {name} too many: all copies are already in play")
        raise AssertionError  # fail() raises

    def is_red(self, tid: int) -> bool:
        """Whether the record names this id as a red five."""
        return tid in self.red and tid not in self.plain_as_red

    def take(self, seat: int, tile34: int, is_red: bool) -> int:
        """Remove one tile of this kind from ``seat``'s concealed tiles and return its id."""
        for tid in self.hands[seat]:
            if tid // 4 == tile34 and self.is_red(tid) == is_red:
                self.hands[seat].remove(tid)
                return tid
        name = f"red {tile34_to_str(tile34)}" if is_red else tile34_to_str(tile34)
        self.fail(f"seat {seat} does not hold {name}")
        raise AssertionError

    def discard_id(self, seat: int, tile34: int, is_red: bool, drawn: int) -> int:
        """The id ``seat`` discards for this tile: one it held before drawing ``drawn`` (removed
        from its concealed tiles), else :meth:`take`'s."""
        hand = self.hands[seat]
        for tid in hand:
            if tid // 4 == tile34 and self.is_red(tid) == is_red and tid != drawn:
                hand.remove(tid)
                return tid
        return self.take(seat, tile34, is_red)
