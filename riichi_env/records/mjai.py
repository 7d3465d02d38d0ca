"""mjai events (JSON lines): reading and writing.

One JSON object per line: ``start_game``, then per hand ``start_kyoku`` (``bakaze``, ``kyoku`` 1–4,
``honba``, ``kyotaku``, ``oya``, ``scores``, ``dora_marker``, ``tehais``), ``tsumo``, ``dahai``
(``tsumogiri``), ``chi`` / ``pon`` / ``daiminkan`` (``target``, ``pai``, ``consumed``), ``kakan``,
``ankan``, ``dora``, ``reach``, ``reach_accepted``, ``hora`` / ``ryukyoku`` (``deltas``),
``end_kyoku``; ``end_game`` last. Tiles are ``1m``…``9s``, ``5mr`` red, ``E S W N P F C``.

Three players (no standard: mjai itself and Mortal have no three-player events) come in two
dialects, both read (a game is three-player when ``start_kyoku`` has three ``scores`` or
``tehais``, or an empty or all-``"?"`` fourth hand) and written (``sanma_dialect``):

- ``"nukidora"``: the Mortal-3p forks and mjai-reviewer3p (``convlog``): the kita event is
  ``{"type": "nukidora", "actor": 0, "pai": "N"}``; ``names``, ``scores``, ``tehais`` and
  ``deltas`` keep four entries, seat 3's hand ``"?"`` thirteen times and its points 0.
- ``"kita"``: RiichiEnv: ``{"type": "kita", "actor": 0, "pai": "N"}``; ``scores``, ``tehais``,
  ``deltas`` (and the writer's ``names``) have three entries.
"""

from __future__ import annotations

import functools
import json

import numpy as np

from engine.tiles import red_ids
from riichi_env.records.mjai_kernels import (
    LINE_ACCEPTED,
    LINE_DAHAI,
    LINE_REACH,
    LINE_START,
    LINE_TSUMO,
    LINE_TSUMOGIRI,
    ST_DISCARD_SEAT,
    ST_DISCARD_TILE,
    ST_HELD,
    ST_IDS,
    ST_IN_HAND,
    ST_KAN_SEAT,
    ST_LAST_DRAW,
    ST_LAST_TILE,
    ST_NEXT,
    ST_ROWS,
    ST_SIZE,
    deal,
    lex_lines,
    run_plays,
)
from riichi_env.records.model import (
    DORA_KEYS,
    OP_EVENT,
    CompactEvents,
    Draw,
    Event,
    Game,
    Hand,
    RecordError,
    TileAllocator,
    Win,
    find_log_id,
    json_problem,
    set_compact_events,
    strip_bom,
)
from riichi_env.records.notation import from_mjai_name, mjai_name

REASONS = {
    "exhaustive": "fanpai",
    "kyuushu_kyuuhai": "kyushukyuhai",
    "suufon_renda": "sufonrenta",
    "suucha_riichi": "suchareach",
    "suukaikan": "sukaikan",
    "sanchahou": "sanchaho",
    "nagashi_mangan": "nagashimangan",
}
"""Draw kind → the ``reason`` string of the original mjai server (what :func:`write_mjai` writes)."""

REASON_SPELLINGS: dict[str, tuple[str, ...]] = {
    "exhaustive": ("fanpai", "exhaustive_draw", "exhaustive"),
    "kyuushu_kyuuhai": ("kyushukyuhai", "kyushu_kyuhai", "kyuushu_kyuuhai", "yao9"),
    "suufon_renda": ("sufonrenta", "sufuurenta", "suufonrenda", "suufon_renda", "kaze4"),
    "suucha_riichi": ("suchareach", "suucha_riichi", "suurechi", "reach4"),
    "suukaikan": ("sukaikan", "suukansansen", "suukaikan", "kan4"),
    "sanchahou": ("sanchaho", "sanchahou", "ron3"),
    "nagashi_mangan": ("nagashimangan", "nagashi_mangan", "nm"),
}
"""Draw kind → every ``reason`` spelling the reader accepts (case-insensitive): the original mjai
server's, RiichiEnv's (``exhaustive_draw``, ``kyushu_kyuhai``, ``sufuurenta``, ``suucha_riichi``,
``suukansansen``; ``suurechi`` in older versions), this project's draw kind names, and Tenhou's
``RYUUKYOKU type`` codes (``yao9``, ``kaze4``, ``reach4``, ``kan4``, ``ron3``, ``nm``) that
converters pass through. Mortal, mjai-reviewer and mjai.app write no reason: the kind is then
inferred from the hand (:func:`infer_draw_kind`). ``docs/records.md`` lists them."""
_KIND_BY_REASON = {
    spelling: kind for kind, spellings in REASON_SPELLINGS.items() for spelling in spellings
}
_PENALTY_REASONS = ("error",)
KITA_EVENTS = ("nukidora", "kita")
"""Kita event types: the Mortal-3p forks' and mjai-reviewer3p's, RiichiEnv's."""
SANMA_DIALECTS = KITA_EVENTS
"""``sanma_dialect`` values of :func:`write_mjai`: the kita event's name, which also decides
whether per-seat lists have four entries (``"nukidora"``) or three (``"kita"``)."""
"""mjai.app's ``ryukyoku`` for a bot that failed (a chombo-style penalty): not a rule outcome."""
_BAKAZE = "ESWN"


def read_mjai(text: str, *, source: str = "", red_fives: tuple[int, int, int] = (1, 1, 1)) -> Game:
    """Parse mjai JSON lines into a :class:`Game`.

    A well-formed record takes a fast path; anything that path does not read plainly (a problem,
    an unusual line, a plain five read as a red one) is read again by the checked reader, which
    gives the same :class:`Game`, or the :class:`RecordError` naming the line.
    """
    game = _read_fast(text, source, red_fives)
    return game if game is not None else _read_checked(text, source, red_fives)


def read_mjai_utf8(
    text: str, utf8: bytes, source: str = "", red_fives: tuple[int, int, int] = (1, 1, 1)
) -> Game:
    """:func:`read_mjai` of a record whose UTF-8 bytes the caller has too (``utf8``: ``text``
    encoded, without a byte-order mark), which spares encoding it again."""
    game = _read_fast(text, source, red_fives, utf8)
    return game if game is not None else _read_checked(text, source, red_fives)


def _new_state() -> dict:
    return {
        "hand": None,
        "alloc": None,
        "ended": False,
        "pending_kan": False,
        "started": False,
        "ended_game": False,
        "alloc_type": TileAllocator,
    }


def _read_checked(text: str, source: str, red_fives: tuple[int, int, int]) -> Game:
    """The reader that checks every event and names the line of any problem."""
    game = Game(hands=[], format="mjai", source=source, red_fives=red_fives)
    state = _new_state()
    pos = "line 0"

    def fail(msg: str):
        hand = state["hand"]
        raise RecordError(msg, file=source, hand=hand.label if hand else "", position=pos)

    text = strip_bom(text)
    lines = text.splitlines()
    # the last line, when the file does not end it: a line cut short if it does not read
    last = len(lines) if lines and not text.endswith(("\n", "\r")) else 0
    cut = ""
    for n, line in enumerate(lines, 1):
        pos = f"line {n}"
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as exc:
            if n == last and n > 1 and line.lstrip().startswith("{"):
                cut = f" (the file ends in the middle of line {n})"  # a cut line: left out
                break
            fail(f"not valid JSON: {exc.msg}")
        except (ValueError, RecursionError) as exc:  # too deep, or a number over 4300 digits
            fail(json_problem(exc))
        if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
            fail('an event must be an object with a "type"')
        _event(ev, ev["type"], game, state, fail)
    pos = "end of file"
    _finish(game, state, fail, cut)
    return game


def _event(ev: dict, typ: str, game: Game, state: dict, fail) -> None:
    """One event (any type) of the record."""
    if state["ended_game"]:
        fail(f"{typ} after end_game")
    if typ == "start_game":
        if state["started"]:
            fail("second start_game")
        state["started"] = True
        _start_game(ev, game)
        return
    if not state["started"]:
        fail(f"{typ} before start_game")
    if typ == "start_kyoku":
        if state["hand"] is not None and not state["ended"]:
            fail("start_kyoku before the previous hand's end_kyoku")
        _start_kyoku(ev, game, state, fail)
        return
    if typ == "end_game":
        hand = state["hand"]
        if hand is not None and not state["ended"]:  # the game stopped inside a hand
            if not hand.finished:
                game.truncated = (
                    f"the game ends inside hand {hand.label}, which has no result (end_game "
                    "before its end_kyoku: the game was stopped there)"
                )
            state["ended"] = True
            hand.plain_reds = frozenset(state["alloc"].plain_as_red)
        scores = _four(ev.get("scores"), game.players)
        if isinstance(scores, list) and len(scores) == 4:
            game.final_scores = tuple(int(x) for x in scores)
        results = _four(ev.get("placement_scores"), game.players)
        if isinstance(results, list) and len(results) == 4:
            game.final_results = tuple(float(x) for x in results)
        state["ended_game"] = True
        game.complete = True
        return
    hand: Hand | None = state["hand"]
    if hand is None:
        fail(f"{typ} outside a hand")
    if typ == "end_kyoku":
        if not hand.wins and hand.draw is None:
            fail("end_kyoku before hora or ryukyoku")
        state["ended"] = True
        hand.plain_reds = frozenset(state["alloc"].plain_as_red)
        return
    if state["ended"] and typ not in ("hora",):
        fail(f"{typ} after the hand ended")
    handler = _HAND_EVENTS.get(typ)  # an event inside a hand
    if handler is None:
        fail(f"unknown event type {typ!r}")
    handler(ev, typ, hand, state, fail)


def _four(values, players: int):
    """A per-seat list with the empty seat's 0 added when a three-player record lists three."""
    if players == 3 and isinstance(values, list) and len(values) == 3:
        return [*values, 0]
    return values


def _start_game(ev: dict, game: Game) -> None:
    names = ev.get("names")
    if isinstance(names, list) and len(names) in (3, 4):
        game.names = tuple(str(x) for x in [*names, ""][:4])
    if ev.get("kyoku_first") == 4:
        game.game_length = "tonpuusen"
    if isinstance(ev.get("rule_disp"), str):
        game.rules_text = ev["rule_disp"]
    if isinstance(ev.get("log_id"), str):
        game.log_id = find_log_id(ev["log_id"])
    if isinstance(ev.get("mjlog_shuffle"), bool):
        game.mjlog_shuffle = ev["mjlog_shuffle"]
    if ev.get("aka_flag") is False:
        game.red_fives = (0, 0, 0)
    reds = ev.get("red_fives")
    if (
        isinstance(reds, list)
        and len(reds) == 3
        and all(isinstance(x, int) and 0 <= x <= 4 for x in reds)
    ):
        game.red_fives = tuple(reds)


def _finish(game: Game, state: dict, fail, cut: str = "") -> None:
    """The checks at the end of the file; a record that stops before ``end_game`` is kept with a
    note (``Game.truncated``; ``cut``: where the file was cut inside a line)."""
    if not state["started"]:
        fail("no start_game")
    if not game.hands:
        fail("no hands" + cut)
    if state["ended_game"]:
        return
    game.complete = False
    hand = state["hand"]
    if not state["ended"]:
        hand.plain_reds = frozenset(state["alloc"].plain_as_red)
    if state["ended"] or (hand.finished and not hand.wins) or any(w.tsumo for w in hand.wins):
        game.truncated = (
            f"the record stops after hand {hand.label}{cut}, before the game's end (no end_game): "
            "a game still running, or a cut file"
        )
        return
    if any(not w.tsumo for w in hand.wins):  # a second hora may follow, before end_kyoku
        hand.wins = []
        game.truncated = (
            f"the record stops after a ron in hand {hand.label}, before its end_kyoku{cut}: a "
            "second ron may have been cut off, so that hand's result is left out"
        )
        return
    game.truncated = (
        f"the record stops inside hand {hand.label}{cut}: a game still running, or a cut file"
    )


# ------------------------------------------------------------------------------- the fast path

_SCAN = json.JSONDecoder().scan_once
"""The C scanner behind ``json.loads``: ``(value, end)`` of the JSON value at an index."""
_KANS = ("daiminkan", "kakan", "ankan", "kita")
"""Events after which the seat's draw is a replacement draw (kans, and kita with three players)."""
_PLAY_LINES = {
    "tsumo": LINE_TSUMO,
    "dahai": LINE_DAHAI,
    "reach": LINE_REACH,
    "reach_accepted": LINE_ACCEPTED,
}
"""The events the compiled part reads (a line it does not recognise is read by ``json`` and
handed back to it)."""
_NAMES = tuple(mjai_name(t, False) for t in range(34)) + ("5mr", "5pr", "5sr")
_NAME_INDEX = {name: i for i, name in enumerate(_NAMES)}
"""mjai tile name → index (``mjai_kernels.N_NAMES`` names)."""


class _BailError(Exception):
    """The fast path leaves this record to the checked reader."""


def _bail(msg: str = "") -> None:
    raise _BailError(msg)


@functools.lru_cache(maxsize=16)
def _tables(red_fives: tuple[int, int, int]) -> tuple[frozenset[int], np.ndarray, list[list[int]]]:
    """For a red fives setting: the red ids, the ``ST_IDS`` and ``ST_NAME_OF`` parts of the state
    array, and each name's ids as lists."""
    red = frozenset(red_ids(red_fives))
    ids: list[list[int]] = [[] for _ in _NAMES]
    name_of = np.zeros(136, dtype=np.int32)
    for t in range(136):
        k = t // 4
        name = 34 + k // 9 if t in red else k
        ids[name].append(t)
        name_of[t] = name
    table = np.full((len(_NAMES), 4), -1, dtype=np.int32)
    for name, v in enumerate(ids):
        table[name, : len(v)] = v
    part = np.concatenate([table.ravel(), name_of])
    part.flags.writeable = False
    return red, part, ids


class _ArrayAlloc:
    """The tile ids of the fast path, kept in the state array the compiled part shares: as
    :class:`TileAllocator` hands them out for a well-formed record (the lowest unused id of a
    name; a seat gives up its lowest id of a name), raising where that one would read a plain five
    as a red one or fail (the checked reader then explains). The deal (:meth:`deal`,
    :meth:`deal_indices`) starts a hand: it hands out the first tiles."""

    plain_as_red = frozenset()

    def __init__(self, st: np.ndarray, red_fives: tuple[int, int, int]):
        self.st = st
        self.mv = memoryview(st)  # its items as ints, read and written faster than NumPy's
        self.red, self.part, self.ids = _tables(red_fives)

    def deal(self, tehais: list[list], haipai: list[list[int]]) -> None:
        """Fill ``haipai`` (a list a seat) with the ids of the tiles named in ``tehais``, which the
        seats then hold (a name it does not know: ``KeyError``, and the checked reader)."""
        names = np.array([_NAME_INDEX[t] for tiles in tehais for t in tiles], dtype=np.int32)
        ids = deal(self.st, names, sum(1 for tiles in tehais if tiles)).tolist()
        if -1 in ids:
            raise _BailError
        k = 0
        for tiles, out in zip(tehais, haipai, strict=True):
            if tiles:
                out.extend(ids[k : k + 13])
                k += 13

    def deal_indices(self, names: np.ndarray) -> list[list[int]]:
        """The four hands dealt from 52 tile names (int32 indices), 13 a seat."""
        ids = deal(self.st, names, 4).tolist()
        if -1 in ids:
            raise _BailError
        return [ids[0:13], ids[13:26], ids[26:39], ids[39:52]]

    def new_named(self, name: str) -> int:
        """The lowest unused id named ``name``, held by no one (an indicator)."""
        return self.new_index(_NAME_INDEX[name])

    def new_index(self, n: int) -> int:
        """:meth:`new_named` by the name's index."""
        mv = self.mv
        k = mv[ST_NEXT + n]
        ids = self.ids[n]
        if k >= len(ids):
            raise _BailError
        mv[ST_NEXT + n] = k + 1
        return ids[k]

    def is_red(self, tid: int) -> bool:
        """Whether the record names this id as a red five."""
        return tid in self.red

    def take(self, seat: int, tile34: int, is_red: bool) -> int:
        """Remove the seat's lowest id of this kind and return it."""
        mv = self.mv
        base = ST_HELD + 136 * seat
        for tid in self.ids[34 + tile34 // 9 if is_red else tile34]:
            if mv[base + tid]:
                mv[base + tid] = 0
                return tid
        raise _BailError


def _read_fast(
    text: str, source: str, red_fives: tuple[int, int, int], utf8: bytes | None = None
) -> Game | None:
    """The record read for speed, or None when it needs the checked reader (``utf8``: the text
    as UTF-8 when the caller has it)."""
    try:
        return _fast(text, source, red_fives, utf8)
    except (
        Exception
    ):  # _BailError, or what a malformed event raises: the checked reader explains it
        return None


def _fast(text: str, source: str, red_fives: tuple[int, int, int], utf8: bytes | None) -> Game:
    """The record as the fast path reads it; raises ``_BailError`` (or what a malformed event
    raises) where the checked reader must read it."""
    # The compiled part reads draws, discards and riichi (nine lines in ten) into ``ops`` and the
    # state array; ``_event`` reads the other lines, with an allocator on the same state. A hand's
    # events stay compact (``CompactEvents``) until someone reads ``Hand.events``.
    game = Game(hands=[], format="mjai", source=source, red_fives=red_fives)
    state, st = _fast_state()
    text = strip_bom(text)
    data = text.encode("utf-8") if utf8 is None else utf8
    lines, start_rows = lex_lines(np.frombuffer(data, dtype=np.uint8))
    ops = np.zeros((len(lines), 3), dtype=np.int32)  # the events' rows, at most one a line
    starts, built = _fast_lines(game, state, st, text, data, lines, start_rows, ops)
    _finish(game, state, _bail)
    starts.append(int(st[ST_ROWS]))
    _compact_hands(game, ops, starts, built)
    return game


def _fast_state() -> tuple[dict, np.ndarray]:
    """The reader's state for the fast path and the state array its allocators and the compiled
    part share (no hand yet)."""
    state = _new_state()
    st = np.zeros(ST_SIZE, dtype=np.int32)
    st[ST_LAST_DRAW:ST_IN_HAND] = -1  # no draw, no kan, no discard: no hand yet
    st[ST_LAST_TILE] = -1
    allocs: dict[tuple, _ArrayAlloc] = {}
    loaded = [None]  # the red fives whose tables ``st`` holds

    def alloc_type(reds: tuple[int, int, int], fail) -> _ArrayAlloc:
        """The allocator of a new hand (one for each red fives setting)."""
        reds = tuple(reds)
        alloc = allocs.get(reds)
        if alloc is None:
            alloc = allocs[reds] = _ArrayAlloc(st, reds)
        if loaded[0] != reds:
            st[ST_IDS:] = alloc.part
            loaded[0] = reds
        return alloc

    state["alloc_type"] = alloc_type
    state["last_discard"] = (-1, -1)
    return state, st


def _fast_lines(
    game: Game, state: dict, st: np.ndarray, text: str, data: bytes, lines, start_rows, ops
) -> tuple[list[int], set[int]]:
    """Read every line: plays by the compiled part, the rest by ``_event``. Returns each hand's
    first row in ``ops`` and the ids of the hands whose events were built while reading."""
    last_draw = st[ST_LAST_DRAW : ST_LAST_DRAW + 4]  # a view: ``_event`` writes through it
    plain = len(data) == len(text)  # ASCII: byte offsets are str offsets
    mv, line_mv = memoryview(st), memoryview(lines)  # items as ints, faster than NumPy's
    scan = _SCAN
    hand = None
    starts: list[int] = []  # the first row of each hand's events
    built = set()  # hands whose events were built while reading (``infer_draw_kind``)
    i = 0
    while True:
        i = run_plays(lines, i, st, ops)
        if i < 0:
            raise _BailError
        if i == len(lines):
            break
        if line_mv[i, 2] == LINE_START:  # read by the compiled part too
            ev, typ = start_rows[line_mv[i, 4]], "start_kyoku"
            kind = None
        else:
            a, b = line_mv[i, 0], line_mv[i, 1]
            line = text[a:b] if plain else data[a:b].decode("utf-8")
            ev, end = scan(line, 0)
            if end != len(line) or type(ev) is not dict:
                raise _BailError
            typ = ev.get("type")
            if type(typ) is not str:
                raise _BailError
            kind = _PLAY_LINES.get(typ)
        if kind is not None:  # written unusually: give it to the compiled part as a plain line
            _as_play_line(lines, i, ev, kind)
            continue
        if (
            typ == "ryukyoku"
            and hand is not None
            and not ev.get("reason")
            and id(hand) not in built
        ):
            # ``infer_draw_kind`` reads the events: build them, and read the rest of this hand
            # with the checked reader's rules (a later draw or discard leaves the fast path)
            hand.events = CompactEvents(ops[starts[-1] : mv[ST_ROWS]], hand.events).events()
            built.add(id(hand))
        kan_seat, last_tile = mv[ST_KAN_SEAT], mv[ST_LAST_TILE]
        state["last_discard"] = (mv[ST_DISCARD_SEAT], mv[ST_DISCARD_TILE])
        state["win_tile"] = last_tile
        events = hand.events if hand is not None else ()
        n_events = len(events)
        if type(ev) is dict:
            _event(ev, typ, game, state, _bail)
        else:
            _start_plain(ev, game, state)
        if typ == "start_kyoku":
            hand = state["hand"]
            starts.append(mv[ST_ROWS])
            state["last_draw"] = last_draw
            last_draw[:] = -1
            kan_seat = last_tile = -1
        elif hand is not None and state["hand"] is hand and len(events) > n_events:
            if len(events) != n_events + 1:
                raise _BailError
            e = events[-1]
            t = e.type
            if t in ("draw", "discard"):
                raise _BailError
            if t != "dora":
                kan_seat = e.seat if t in _KANS else -1
            last_tile = e.tile if t in ("kakan", "kita") else -1
            row = mv[ST_ROWS]
            ops[row, 0] = OP_EVENT
            mv[ST_ROWS] = row + 1
        mv[ST_KAN_SEAT], mv[ST_LAST_TILE] = kan_seat, last_tile
        mv[ST_DISCARD_SEAT], mv[ST_DISCARD_TILE] = state["last_discard"]
        mv[ST_IN_HAND] = int(hand is not None and not state["ended"] and id(hand) not in built)
        i += 1
    return starts, built


def _as_play_line(lines: np.ndarray, i: int, ev: dict, kind: int) -> None:
    """Rewrite line ``i`` as the plain play line of ``ev`` (its ``LINE_*`` ``kind``) for the
    compiled part to read."""
    s = ev["actor"]
    if type(s) is not int or not 0 <= s < 4:
        raise _BailError
    if kind == LINE_DAHAI and ev.get("tsumogiri", False):
        kind = LINE_TSUMOGIRI
    lines[i, 2:] = kind, s, _NAME_INDEX[ev["pai"]] if kind <= LINE_TSUMOGIRI else 0


def _compact_hands(game: Game, ops: np.ndarray, starts: list[int], built: set[int]) -> None:
    """Give each hand its events as ``CompactEvents`` of its rows of ``ops``, checking that the
    rows account for every event read by ``_event``."""
    others = 0
    for h, lo, hi in zip(game.hands, starts, starts[1:], strict=False):
        if id(h) not in built:
            others += len(h.events)
            set_compact_events(h, CompactEvents(ops[lo:hi], h.events))
        else:  # its rows are not read: count its events as they are
            others += int(np.count_nonzero(ops[lo:hi, 0] == OP_EVENT))
    if int(np.count_nonzero(ops[: starts[-1], 0] == OP_EVENT)) != others:
        raise _BailError


def _start_plain(row: np.ndarray, game: Game, state: dict) -> None:
    """``_event`` of a four-player ``start_kyoku`` written plainly, read by ``lex_lines`` (its
    fields in ``row``): the checks of ``_event`` and ``_start_kyoku`` (any failing one leaves the
    fast path), and the hand they start."""
    bakaze, dora, kyoku, honba, kyotaku, oya, *scores = row[:10].tolist()
    if state["ended_game"] or not state["started"]:
        raise _BailError
    if state["hand"] is not None and not state["ended"]:
        raise _BailError
    if not 0 <= oya < 4 or kyoku - 1 != oya or (game.hands and game.players != 4):
        raise _BailError
    game.players = 4
    hand = Hand(
        round_wind=bakaze,
        kyoku=kyoku - 1,
        honba=honba,
        kyotaku=kyotaku,
        scores=tuple(scores),
        dora_indicators=[],
        haipai=[],
        players=4,
    )
    state.update(hand=hand, ended=False, pending_kan=False, last_discard=(-1, -1))
    game.hands.append(hand)
    alloc = state["alloc"] = state["alloc_type"](game.red_fives, _bail)
    hand.haipai = alloc.deal_indices(row[10:])
    hand.dora_indicators.append(alloc.new_index(dora))


def _get(ev: dict, key: str, fail):
    if key not in ev:
        fail(f"{ev['type']} is missing {key!r}")
    return ev[key]


def _seat(ev: dict, key: str, fail) -> int:
    v = _get(ev, key, fail)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 4:
        fail(f"{ev['type']} {key} must be a seat 0-3, got {v!r}")
    return v


def _tile(name, fail) -> tuple[int, bool]:
    try:
        return from_mjai_name(name)
    except ValueError as exc:
        fail(str(exc))
        raise


def _new_tile(alloc: TileAllocator, name, fail) -> int:
    """A fresh id for the mjai tile ``name`` (by name, without parsing it, on the fast path)."""
    if type(alloc) is _ArrayAlloc:
        return alloc.new_named(name)
    return alloc.new(*_tile(name, fail))


def _start_kyoku(ev: dict, game: Game, state: dict, fail) -> None:
    bakaze = _get(ev, "bakaze", fail)
    if bakaze not in ("E", "S", "W", "N"):
        fail(f"bakaze must be E S W or N, got {bakaze!r}")
    kyoku = _get(ev, "kyoku", fail)
    oya = _seat(ev, "oya", fail)
    if not isinstance(kyoku, int) or not 1 <= kyoku <= 4 or kyoku - 1 != oya:
        fail(f"kyoku {kyoku!r} does not match oya {oya}")
    scores = _get(ev, "scores", fail)
    tehais = _get(ev, "tehais", fail)
    players = _players(scores, tehais)
    if not game.hands:
        game.players = players
        if players == 3 and game.red_fives[0]:
            game.red_fives = (0, *game.red_fives[1:])  # no 5m in a three-player game
    elif players != game.players:
        fail(f"a {players}-player hand in a {game.players}-player game")
    if players == 3:
        if oya >= 3:
            fail(f"oya {oya}: a three-player game has seats 0-2")
        scores = _four(scores, 3)
        tehais = [*tehais[:3], []]
    if not isinstance(scores, list) or len(scores) != 4:
        fail("scores must list four players (or three)")
    if not isinstance(tehais, list) or len(tehais) != 4:
        fail("tehais must list four hands (or three)")
    if players == 3 and scores[3] != 0:
        fail(f"scores {scores!r}: the empty fourth seat of a three-player game has points")
    hand = Hand(
        round_wind=_BAKAZE.index(bakaze),
        kyoku=kyoku - 1,
        honba=int(_get(ev, "honba", fail)),
        kyotaku=int(_get(ev, "kyotaku", fail)),
        scores=tuple(int(x) for x in scores),
        dora_indicators=[],
        haipai=[],
        players=players,
    )
    state.update(hand=hand, ended=False, pending_kan=False, last_discard=(-1, -1))
    game.hands.append(hand)
    alloc = state["alloc_type"](game.red_fives, fail)
    state["alloc"] = alloc
    fast = type(alloc) is _ArrayAlloc
    for s in range(4):
        size = 13 if s < players else 0
        tiles = tehais[s]
        if not isinstance(tiles, list) or len(tiles) != size:
            fail(f"tehais[{s}] must have 13 tiles")
        if fast:
            ids = []  # dealt below, every seat at once
        else:
            ids = [alloc.new(*_tile(t, fail)) for t in tiles]
            alloc.hands[s] = list(ids)
        hand.haipai.append(ids)
    if fast:
        alloc.deal(tehais, hand.haipai)
    hand.dora_indicators.append(_new_tile(alloc, _get(ev, "dora_marker", fail), fail))
    state["last_draw"] = [-1] * 4


def _players(scores, tehais) -> int:
    """3 when ``start_kyoku`` lists three scores or hands, or the fourth hand alone is empty or
    all ``"?"`` (the Mortal-3p forks); else 4."""
    if isinstance(scores, list) and len(scores) == 3:
        return 3
    if isinstance(tehais, list) and len(tehais) == 3:
        return 3
    if not isinstance(tehais, list) or len(tehais) != 4:
        return 4
    hidden = [isinstance(h, list) and h.count("?") == len(h) for h in tehais]  # all "?"
    # a seat's own view of a four-player game hides every other hand, not only the fourth
    return 3 if hidden[3] and not any(hidden[:3]) else 4


def _on_tsumo(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """A draw (a replacement draw when the seat's last play was a kan or kita)."""
    alloc: TileAllocator = state["alloc"]
    s = _seat(ev, "actor", fail)
    tid = _new_tile(alloc, _get(ev, "pai", fail), fail)
    alloc.hands[s].append(tid)
    prev = next((e for e in reversed(hand.events) if e.type != "dora"), None)
    rinshan = prev is not None and prev.seat == s and prev.type in _KANS
    hand.events.append(Event("draw", s, tid, rinshan=rinshan))
    state["last_draw"][s] = tid


def _on_dahai(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """A discard: the drawn tile when tsumogiri, else the seat's lowest other id of that tile."""
    alloc: TileAllocator = state["alloc"]
    last_draw = state["last_draw"]
    s = _seat(ev, "actor", fail)
    kind, red = _tile(_get(ev, "pai", fail), fail)
    tsumogiri = bool(ev.get("tsumogiri", False))
    tid = last_draw[s]
    if not (tsumogiri and tid >= 0 and tid // 4 == kind and alloc.is_red(tid) == red):
        if tsumogiri:
            fail("tsumogiri of a tile that was not just drawn")
        tid = alloc.discard_id(s, kind, red, last_draw[s])
    else:
        alloc.hands[s].remove(tid)
    last_draw[s] = -1
    hand.events.append(Event("discard", s, tid, tsumogiri=tsumogiri))
    state["last_discard"] = (s, tid)


def _on_claim(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """A chi, pon or daiminkan of the last discard."""
    alloc: TileAllocator = state["alloc"]
    s = _seat(ev, "actor", fail)
    target = _seat(ev, "target", fail)
    kind, red = _tile(_get(ev, "pai", fail), fail)
    ls, lt = state["last_discard"]
    if ls != target or lt < 0 or (lt // 4, alloc.is_red(lt)) != (kind, red):
        fail(f"{typ} of {ev.get('pai')} from seat {target} does not match the last discard")
    consumed = _get(ev, "consumed", fail)
    if not isinstance(consumed, list) or len(consumed) != (3 if typ == "daiminkan" else 2):
        fail(f"{typ} consumed has the wrong number of tiles")
    ids = tuple(alloc.take(s, *_tile(t, fail)) for t in consumed)
    hand.events.append(Event(typ, s, lt, ids, target))
    state["last_draw"][s] = -1
    state["last_discard"] = (-1, -1)


def _on_kakan(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """An added kan onto the seat's pon of that tile."""
    alloc: TileAllocator = state["alloc"]
    s = _seat(ev, "actor", fail)
    kind, red = _tile(_get(ev, "pai", fail), fail)
    pon = next(
        (e for e in hand.events if e.type == "pon" and e.seat == s and e.tile // 4 == kind),
        None,
    )
    if pon is None:
        fail(f"kakan of {ev.get('pai')} without a pon")
    tid = alloc.take(s, kind, red)
    hand.events.append(
        Event("kakan", s, tid, tuple(sorted((*pon.consumed, pon.tile))), pon.from_seat)
    )
    state["last_draw"][s] = -1
    state["last_discard"] = (s, tid)


def _on_ankan(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """A closed kan of four tiles from the seat's hand."""
    alloc: TileAllocator = state["alloc"]
    s = _seat(ev, "actor", fail)
    consumed = _get(ev, "consumed", fail)
    if not isinstance(consumed, list) or len(consumed) != 4:
        fail("ankan consumed must have four tiles")
    ids = tuple(sorted(alloc.take(s, *_tile(t, fail)) for t in consumed))
    if len({t // 4 for t in ids}) != 1:
        fail("ankan of different tiles")
    hand.events.append(Event("ankan", s, -1, ids))
    state["last_draw"][s] = -1
    state["last_discard"] = (s, -1)


def _on_kita(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """A North set aside (``nukidora`` or ``kita``), three players only."""
    alloc: TileAllocator = state["alloc"]
    s = _seat(ev, "actor", fail)
    if hand.players != 3:
        fail(f"{typ} (kita) in a four-player game")
    kind, red = _tile(ev.get("pai", "N"), fail)
    if kind != 30:
        fail(f"{typ} of {ev.get('pai')}: only a North can be set aside")
    tid = alloc.take(s, kind, red)
    hand.events.append(Event("kita", s, tid))
    state["last_draw"][s] = -1
    state["last_discard"] = (s, tid)


def _on_dora(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """A newly revealed kan dora indicator."""
    tid = _new_tile(state["alloc"], _get(ev, "dora_marker", fail), fail)
    hand.events.append(Event("dora", tile=tid))
    hand.dora_indicators.append(tid)


def _on_reach(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """A riichi declaration."""
    hand.events.append(Event("riichi", _seat(ev, "actor", fail)))


def _on_reach_accepted(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """A riichi stick paid."""
    hand.events.append(Event("riichi_accepted", _seat(ev, "actor", fail)))


def _on_hora(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """A win (one of several with a multiple ron)."""
    if hand.draw is not None:
        fail("hora after ryukyoku")
    hand.wins.append(_hora(ev, hand, state["alloc"], fail, state.get("win_tile")))


def _on_ryukyoku(ev: dict, typ: str, hand: Hand, state: dict, fail) -> None:
    """A draw: its kind from ``reason`` (or inferred from the hand), deltas and tenpai seats."""
    if hand.wins or hand.draw is not None:
        fail("second result in one hand")
    deltas = _four(ev.get("deltas", [0, 0, 0, 0]), hand.players)
    if not isinstance(deltas, list) or len(deltas) != 4:
        fail("ryukyoku deltas must be four ints")
    deltas = tuple(int(x) for x in deltas)
    reason = ev.get("reason")
    if reason is not None and not isinstance(reason, str):
        fail(f"ryukyoku reason must be a string, got {reason!r}")
    if reason and reason.lower() in _PENALTY_REASONS:
        fail(
            f"ryukyoku reason {reason!r} is a penalty for a failed player (mjai.app), "
            "not a draw the rules define; such a hand cannot be read"
        )
    kind = _KIND_BY_REASON.get(reason.lower()) if reason else infer_draw_kind(hand)
    if kind is None:
        fail(f"unknown ryukyoku reason {reason!r}; known: " + ", ".join(sorted(_KIND_BY_REASON)))
    tenpai = None
    tenpais = _four(ev.get("tenpais"), hand.players)
    if isinstance(tenpais, list) and len(tenpais) == 4:
        tenpai = tuple(s for s in range(4) if tenpais[s])
    elif kind == "exhaustive" and any(deltas):
        tenpai = tuple(s for s in range(4) if deltas[s] > 0)
    hand.draw = Draw(kind, deltas, tenpai)


_HAND_EVENTS = {
    "tsumo": _on_tsumo,
    "dahai": _on_dahai,
    "chi": _on_claim,
    "pon": _on_claim,
    "daiminkan": _on_claim,
    "kakan": _on_kakan,
    "ankan": _on_ankan,
    **dict.fromkeys(KITA_EVENTS, _on_kita),
    "dora": _on_dora,
    "reach": _on_reach,
    "reach_accepted": _on_reach_accepted,
    "hora": _on_hora,
    "ryukyoku": _on_ryukyoku,
}
"""Event type → its handler inside a hand."""


def _hora(ev: dict, hand: Hand, alloc: TileAllocator, fail, win_tile: int | None = None) -> Win:
    """A ``hora``; ``win_tile``: the tile of the hand's last event when a draw, discard, kakan
    or kita (-1 otherwise; ``None``: found in ``hand.events``)."""
    s = _seat(ev, "actor", fail)
    target = _seat(ev, "target", fail)
    deltas = _four(ev.get("deltas"), hand.players)
    if not isinstance(deltas, list) or len(deltas) != 4:
        fail("hora needs deltas (four ints)")
    win = Win(seat=s, from_seat=target, deltas=tuple(int(x) for x in deltas))
    if win_tile is not None:
        win.win_tile = win_tile
    else:
        last = hand.events[-1] if hand.events else None
        if last is not None and last.type in ("draw", "discard", "kakan", "kita"):
            win.win_tile = last.tile
    ura = ev.get("ura_markers", ev.get("uradora_markers"))
    if isinstance(ura, list):
        if not hand.ura_indicators and ura:
            hand.ura_indicators = [_new_tile(alloc, t, fail) for t in ura]
        win.ura_indicators = tuple(hand.ura_indicators) if ura else ()
    if "fan" in ev and "fu" in ev:
        win.han, win.fu = int(ev["fan"]), int(ev["fu"])
    if isinstance(ev.get("yakus"), list):
        yaku = []
        for item in ev["yakus"]:
            if not isinstance(item, list) or len(item) != 2:
                fail("yakus must be [name, han] pairs")
            yaku.append((str(item[0]), int(item[1])))
        win.yaku = tuple(yaku)
    if "hora_points" in ev:
        win.points = int(ev["hora_points"])
    if isinstance(ev.get("limit"), str):
        win.limit = ev["limit"]
    if "pao" in ev and isinstance(ev["pao"], int):
        win.pao_seat = ev["pao"]
    return win


def infer_draw_kind(hand: Hand) -> str:
    """The kind of draw that ends a hand, from its events (for records that do not say)."""
    events = hand.events
    if events and events[-1].type == "draw":
        return "kyuushu_kyuuhai"
    if hand.players == 3:
        return _infer_draw_kind_3p(hand)
    if sum(e.type == "riichi_accepted" for e in events) == 4 and events[-1].type in (
        "discard",
        "riichi_accepted",
    ):
        n_draws = sum(e.type == "draw" and not e.rinshan for e in events)
        n_kans = sum(e.type in ("daiminkan", "kakan", "ankan") for e in events)
        if n_draws < 70 - n_kans:
            return "suucha_riichi"
    discards = [e for e in events if e.type == "discard"]
    if (
        len(discards) == 4
        and not any(e.type in ("chi", "pon", "daiminkan", "kakan", "ankan") for e in events)
        and len({d.tile // 4 for d in discards}) == 1
        and 27 <= discards[0].tile // 4 <= 30
    ):
        return "suufon_renda"
    kans = [e for e in events if e.type in ("daiminkan", "kakan", "ankan")]
    n_draws = sum(e.type == "draw" and not e.rinshan for e in events)
    if len(kans) >= 4 and len({k.seat for k in kans}) > 1 and n_draws < 70 - len(kans):
        return "suukaikan"
    if any(hand.deltas) and _nagashi_seats(hand):
        return "nagashi_mangan"
    return "exhaustive"


def _infer_draw_kind_3p(hand: Hand) -> str:
    """:func:`infer_draw_kind` with three players: no suufon renda or suucha riichi; suukaikan
    when four kans by more than one seat end the hand before the live wall (55 draws, kita and
    kans each taking one) is empty."""
    kans = [e for e in hand.events if e.type in ("daiminkan", "kakan", "ankan")]
    n_kita = sum(e.type == "kita" for e in hand.events)
    n_draws = sum(e.type == "draw" and not e.rinshan for e in hand.events)
    if len(kans) >= 4 and len({k.seat for k in kans}) > 1 and n_draws < 55 - len(kans) - n_kita:
        return "suukaikan"
    if any(hand.deltas) and _nagashi_seats(hand):
        return "nagashi_mangan"
    return "exhaustive"


def _nagashi_seats(hand: Hand) -> list[int]:
    called = {(e.from_seat, e.tile) for e in hand.events if e.type in ("chi", "pon", "daiminkan")}
    seats = []
    for s in range(4):
        ds = [e.tile for e in hand.events if e.type == "discard" and e.seat == s]
        if (
            ds
            and all(t // 4 >= 27 or t // 4 % 9 in (0, 8) for t in ds)
            and not any((s, t) in called for t in ds)
        ):
            seats.append(s)
    return seats


def common_dora_order(events: list[Event]) -> list[Event]:
    """Events with each open or added kan's indicator right after that kan's replacement draw.

    Tenhou's own logs (mjlog: ``DORA`` between the replacement draw and its discard) and Mortal's
    arena write ``daiminkan``/``kakan``, ``tsumo``, ``dora``, ``dahai``; the engine (like some
    converters) logs the indicator once the replacement draw's discard is made. A ``dora`` that follows that discard (and the riichi declaration or
    stick around it) moves up to just after the draw; every other ``dora`` (a closed kan's, right
    after ``ankan``; one revealed before a further kan) stays where it is.
    """
    out: list[Event] = []
    anchor = -1  # where a pending open-kan indicator belongs: just after the replacement draw
    seat = -1
    prev = None
    for e in events:
        if e.type == "dora":
            if anchor >= 0:
                out.insert(anchor, e)
                anchor += 1
            else:
                out.append(e)
            continue
        open_kan = prev is not None and prev.type in ("daiminkan", "kakan")
        if e.type == "draw" and e.rinshan and open_kan:
            out.append(e)
            anchor, seat = len(out), e.seat
        elif anchor >= 0 and e.seat == seat and e.type in ("riichi", "discard", "riichi_accepted"):
            out.append(e)
        else:
            anchor = -1
            out.append(e)
        prev = e
    return out


def write_mjai(
    game: Game, *, log_order: bool = False, sanma_dialect: str = "nukidora"
) -> list[dict]:
    """A :class:`Game` as mjai events (write one ``json.dumps`` per line).

    Kan indicators are written in the common order (:func:`common_dora_order`): ``ankan``,
    ``dora``, ``tsumo`` for a closed kan; ``daiminkan``/``kakan``, ``tsumo``, ``dora``, ``dahai``
    for an open or added one. The reader takes either order. ``log_order`` keeps the order of
    ``game``'s events instead (an open kan's ``dora`` after the replacement draw's ``dahai``,
    when the engine reveals it), so the events of a game still running only ever grow at the end.
    ``sanma_dialect`` (``SANMA_DIALECTS``) is how a three-player game is written: ``"nukidora"``
    (the Mortal-3p forks, mjai-reviewer3p) or ``"kita"`` (RiichiEnv); see the module docstring.
    """
    if sanma_dialect not in SANMA_DIALECTS:
        raise ValueError(f"sanma_dialect must be one of {SANMA_DIALECTS}, got {sanma_dialect!r}")
    n = 3 if game.players == 3 and sanma_dialect == "kita" else 4
    red_all = frozenset(red_ids(game.red_fives))
    out: list[dict] = [_start_game_line(game, n)]
    for hand in game.hands:
        red = red_all - hand.plain_reds

        def name(t: int) -> str:
            return mjai_name(t // 4, t in red)  # noqa: B023

        out.append(_start_kyoku_line(hand, name, n, three=game.players == 3))
        for ev in hand.events if log_order else common_dora_order(hand.events):
            line = _play_line(ev, name, sanma_dialect)
            if line is not None:
                out.append(line)
        out.extend(_hora_line(w, name, n) for w in hand.wins)
        if hand.draw is not None:
            out.append(_ryukyoku_line(hand.draw, n))
        if not hand.finished:
            return out  # a game still running: no end_kyoku, no end_game
        out.append({"type": "end_kyoku"})
    if game.complete is False:
        return out  # a game still running between hands: no end_game
    out.append(_end_game_line(game, n))
    return out


def _seats(values, n: int) -> list:
    """The first ``n`` per-seat values (``n``: the seats a line lists, 3 or 4)."""
    return list(values)[:n]


def _start_game_line(game: Game, n: int) -> dict:
    """The ``start_game`` event: names, length, red fives, log id and shuffle."""
    line = {
        "type": "start_game",
        "names": _seats(game.names, n),
        "kyoku_first": 4 if game.game_length == "tonpuusen" else 0,
        "aka_flag": any(game.red_fives),
        "rule_disp": game.rules_text,
    }
    if any(game.red_fives) and tuple(game.red_fives) != (1, 1, 1):
        line["red_fives"] = list(game.red_fives)
    if game.log_id:
        line["log_id"] = game.log_id
    if game.mjlog_shuffle is not None:
        line["mjlog_shuffle"] = game.mjlog_shuffle
    return line


def _start_kyoku_line(hand: Hand, name, n: int, three: bool) -> dict:
    """The ``start_kyoku`` event of a hand (``name``: tile id → mjai name)."""
    return {
        "type": "start_kyoku",
        "bakaze": _BAKAZE[hand.round_wind % 4],
        "dora_marker": name(hand.dora_indicators[0]),
        "kyoku": hand.kyoku + 1,
        "honba": hand.honba,
        "kyotaku": hand.kyotaku,
        "oya": hand.dealer,
        "scores": _seats(hand.scores, n),
        "tehais": _seats(
            [
                [name(t) for t in h] if s < 3 or not three else ["?"] * 13
                for s, h in enumerate(hand.haipai)
            ],
            n,
        ),
    }


def _play_line(ev: Event, name, kita_type: str) -> dict | None:
    """The mjai event of one play (``kita_type``: the kita event's name); None for none."""
    s = ev.seat
    if ev.type == "draw":
        return {"type": "tsumo", "actor": s, "pai": name(ev.tile)}
    if ev.type == "discard":
        return {"type": "dahai", "actor": s, "pai": name(ev.tile), "tsumogiri": ev.tsumogiri}
    if ev.type in ("chi", "pon", "daiminkan"):
        return {
            "type": ev.type,
            "actor": s,
            "target": ev.from_seat,
            "pai": name(ev.tile),
            "consumed": [name(t) for t in ev.consumed],
        }
    if ev.type == "kakan":
        return {
            "type": "kakan",
            "actor": s,
            "pai": name(ev.tile),
            "consumed": [name(t) for t in ev.consumed],
        }
    if ev.type == "ankan":
        return {"type": "ankan", "actor": s, "consumed": [name(t) for t in ev.consumed]}
    if ev.type == "dora":
        return {"type": "dora", "dora_marker": name(ev.tile)}
    if ev.type == "kita":
        return {"type": kita_type, "actor": s, "pai": name(ev.tile)}
    if ev.type == "riichi":
        return {"type": "reach", "actor": s}
    if ev.type == "riichi_accepted":
        return {"type": "reach_accepted", "actor": s}
    return None


def _hora_line(w: Win, name, n: int) -> dict:
    """The ``hora`` event of a win."""
    h = {
        "type": "hora",
        "actor": w.seat,
        "target": w.from_seat,
        "deltas": _seats(w.deltas, n),
        "ura_markers": [name(t) for t in (w.ura_indicators or ())],
    }
    if w.win_tile >= 0:
        h["pai"] = name(w.win_tile)
    if w.han is not None and w.fu is not None:
        h["fu"], h["fan"] = w.fu, w.han
    if w.yaku is not None:
        h["yakus"] = [[k, v] for k, v in w.yaku if not (k in DORA_KEYS and v == 0)]
    if w.points is not None:
        h["hora_points"] = w.points
    if w.limit is not None:
        h["limit"] = w.limit
    if w.pao_seat >= 0:
        h["pao"] = w.pao_seat
    return h


def _ryukyoku_line(draw: Draw, n: int) -> dict:
    """The ``ryukyoku`` event of a drawn hand."""
    r = {"type": "ryukyoku", "deltas": _seats(draw.deltas, n), "reason": REASONS[draw.kind]}
    if draw.tenpai is not None:
        r["tenpais"] = [s in draw.tenpai for s in range(n)]
    return r


def _end_game_line(game: Game, n: int) -> dict:
    """The ``end_game`` event, with final points and placement scores when known."""
    end = {"type": "end_game"}
    if game.final_scores is not None:
        end["scores"] = _seats(game.final_scores, n)
    if game.final_results is not None:
        end["placement_scores"] = _seats(game.final_results, n)
    return end


def dumps_mjai(game: Game, *, sanma_dialect: str = "nukidora") -> str:
    """mjai JSON lines text of a game (``sanma_dialect``: see :func:`write_mjai`)."""
    return "".join(
        json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n"
        for e in write_mjai(game, sanma_dialect=sanma_dialect)
    )
