"""Tenhou mjlog XML: reading records (``INIT``, draws, discards, ``N`` calls, ``AGARI`` …).

Tags: ``INIT`` starts a hand; ``T U V W`` + id are draws of seats 0–3, ``D E F G`` + id their
discards; ``N who m`` a call (``m`` packs the meld, see :func:`decode_meld`); ``REACH`` step 1
declares, step 2 pays the stick; ``DORA hai`` reveals a kan dora; ``AGARI`` / ``RYUUKYOKU`` end the
hand (several ``AGARI`` for a multiple ron), the last one carries ``owari`` (final points, then
scores with uma). A ``RYUUKYOKU`` with ``owari`` and no ``sc`` ends a game Tenhou stopped: the
hand it comes in (if any is unfinished) keeps its moves and has no result.

Three-player games (``GO type`` bit 0x10): seat 3 is empty (``hai3=""``, ``ten``, ``sc`` and
``owari`` keep four entries with 0 for it), and an ``N`` tag with bit 0x20 of ``m`` is a kita
(the North ``m >> 8`` set aside), which becomes a ``kita`` event.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

from riichi_env.records.files import MAX_LINE_BYTES, MAX_RECORD_BYTES, read_record_bytes
from riichi_env.records.model import (
    LIMITS,
    YAKU_KEYS,
    YAKUMAN_KEYS,
    Draw,
    Event,
    Game,
    Hand,
    RecordError,
    Win,
    json_problem,
    strip_bom,
)

_TAG_RE = re.compile(
    r"<\s*([A-Za-z]+)([0-9]*)((?:\s+[A-Za-z0-9_]+\s*=\s*\"[^\"]*\")*)\s*(?:/\s*)?>"
)
"""A tag; its end ``\\s*(?:/\\s*)?>`` has one way to match spaces, so a tag that never closes costs
linear time (``\\s*/?\\s*>`` was quadratic in the spaces after it)."""
_XML_DECL_RE = re.compile(r"<\?xml\b[^<>]*\?>")
_ATTR_RE = re.compile(r"([A-Za-z0-9_]+)\s*=\s*\"([^\"]*)\"")
_DRAW_TAGS = "TUVW"
_DISCARD_TAGS = "DEFG"
_RYUUKYOKU_TYPES = {
    "": "exhaustive",
    "yao9": "kyuushu_kyuuhai",
    "kaze4": "suufon_renda",
    "reach4": "suucha_riichi",
    "kan4": "suukaikan",
    "ron3": "sanchahou",
    "nm": "nagashi_mangan",
}
RYUUKYOKU_CODES = {v: k for k, v in _RYUUKYOKU_TYPES.items()}
"""Draw kind → mjlog ``RYUUKYOKU type``."""


def decode_meld(who: int, m: int) -> Event:
    """The call packed in an ``N`` tag's ``m`` bit field, as an :class:`Event`.

    Bits 0–1: the discarder relative to ``who``; bit 2 chi; bit 3 pon; bit 4 kakan; bit 5 nukidora;
    otherwise a kan (daiminkan, or ankan when the relative seat is 0).
    """
    rel = m & 3
    if m & 0x4:
        t = m >> 10
        called = t % 3
        t //= 3
        base = (t // 7) * 9 + t % 7
        tiles = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        tile = tiles.pop(called)
        return Event("chi", who, tile, tuple(tiles), (who + rel) % 4)
    if m & 0x18:
        t = m >> 9
        called = t % 3
        kind = t // 3
        unused = (m >> 5) & 3
        tiles = [kind * 4 + i for i in range(4) if i != unused]
        if m & 0x8:
            tile = tiles.pop(called)
            return Event("pon", who, tile, tuple(tiles), (who + rel) % 4)
        return Event("kakan", who, kind * 4 + unused, tuple(tiles), (who + rel) % 4)
    if m & 0x20:
        tile = m >> 8
        if tile // 4 != 30:
            raise ValueError(f"kita of tile {tile}, which is not a North")
        return Event("kita", who, tile)
    hai0 = m >> 8
    kind = hai0 // 4
    tiles = [kind * 4 + i for i in range(4)]
    if rel == 0:
        return Event("ankan", who, -1, tuple(tiles))
    tiles.remove(hai0)
    return Event("daiminkan", who, hai0, tuple(tiles), (who + rel) % 4)


def encode_meld(ev: Event) -> int:
    """The ``m`` bit field of a call (the inverse of :func:`decode_meld`)."""
    rel = (ev.from_seat - ev.seat) % 4 if ev.from_seat >= 0 else 0
    if ev.type == "chi":
        tiles = sorted((*ev.consumed, ev.tile))
        base = tiles[0] // 4
        t = ((base // 9) * 7 + base % 9) * 3 + tiles.index(ev.tile)
        m = (t << 10) | 0x4 | rel
        for i, tid in enumerate(tiles):
            m |= (tid % 4) << (3 + 2 * i)
        return m
    if ev.type in ("pon", "kakan"):
        kind = ev.consumed[0] // 4
        if ev.type == "pon":
            present = sorted((*ev.consumed, ev.tile))
            unused = ({kind * 4 + i for i in range(4)} - set(present)).pop() % 4
            called = present.index(ev.tile)
            flag = 0x8
        else:
            present = sorted(ev.consumed)
            unused = ev.tile % 4
            called = 0
            flag = 0x10
        return ((kind * 3 + called) << 9) | (unused << 5) | flag | rel
    if ev.type == "ankan":
        return (min(ev.consumed) << 8) | 0
    if ev.type == "daiminkan":
        return (ev.tile << 8) | rel
    if ev.type == "kita":
        return (ev.tile << 8) | 0x20
    raise ValueError(f"not a call: {ev.type}")


def rules_text(gtype: int) -> str:
    """Tenhou's rule text (``"鳳南喰赤"``, ``"三鳳南喰赤"`` with three players) of a ``GO type``
    bit field: players, lobby, length, kuitan, red."""
    lobby = {0: "般", 0x80: "上", 0x20: "特", 0xA0: "鳳"}[gtype & 0xA0]
    text = ("三" if gtype & 0x10 else "") + lobby + ("南" if gtype & 0x08 else "東")
    text += "" if gtype & 0x04 else "喰"
    text += "" if gtype & 0x02 else "赤"
    return text + ("速" if gtype & 0x40 else "")


def _ints(text: str, fail, what: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip() != ""]
    except ValueError:
        fail(f"{what} must be comma-separated integers, got {text!r}")
        raise


def load_walls(
    path: str | Path, *, max_bytes: int = MAX_RECORD_BYTES, max_line_bytes: int = MAX_LINE_BYTES
) -> dict[tuple[str, int], tuple[list[int], str]]:
    """Walls by (file name, hand index) from a ``walls.jsonl`` file: (wall, layout name).

    Read with the limits of :func:`riichi_env.records.files.read_record_bytes`.
    """
    walls = {}
    data = read_record_bytes(path, max_bytes=max_bytes, max_line_bytes=max_line_bytes)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"cannot read the wall file: not UTF-8 text ({exc.reason})",
            file=str(path),
            position=f"byte {exc.start}",
        ) from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            layout = "tenhou" if rec["dora_indicator_idx"][0] == 5 else "tenhou_old"
            walls[(rec["file"], int(rec["kyoku_index"]))] = (list(rec["wall"]), layout)
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise RecordError(
                f"bad wall entry: {exc}", file=str(path), position=f"line {n}"
            ) from None
        except RecursionError as exc:
            raise RecordError(json_problem(exc), file=str(path), position=f"line {n}") from None
    return walls


def read_mjlog(
    text: str,
    *,
    source: str = "",
    walls: dict[int, tuple[list[int], str]] | None = None,
) -> Game:
    """Parse mjlog XML text into a :class:`Game`.

    Args:
        text: The XML.
        source: File name for error messages.
        walls: Optional full walls by hand index (see :func:`load_walls`), stored on each hand.
    """
    return _MjlogReader(source, walls).read(strip_bom(text))


class _MjlogReader:
    """One mjlog read: the game so far, the hand being read and the tiles in play."""

    def __init__(self, source: str, walls: dict[int, tuple[list[int], str]] | None):
        self.source = source
        self.walls = walls
        self.hand: Hand | None = None
        self.hands: list[Hand] = []
        self.game = Game(hands=self.hands, source=source, format="mjlog", mjlog_shuffle=False)
        self.pos = "start"
        self.last_discard: list[int] = [-1, -1]  # seat, tile
        self.finished = False
        self.held: list[set[int]] = [set(), set(), set(), set()]
        self.seen: set[int] = set()

    def read(self, text: str) -> Game:
        """Read every tag in turn (each kind by its handler), then the end of the file."""
        if "<mjloggm" not in text[:200]:
            self.fail("not an mjlog file (no <mjloggm> root)")
        end = 0
        for n, match in enumerate(_TAG_RE.finditer(text)):
            between = text[end : match.start()].strip()
            end = match.end()
            name, num, attr_text = match.group(1), match.group(2), match.group(3)
            self.pos = f"tag {n} <{name}{num}>"
            if between and not (n == 0 and _XML_DECL_RE.fullmatch(between)):
                self._text_between(between)
            attrs = dict(_ATTR_RE.findall(attr_text))
            if num:
                self._tile_tag(name, num)
            elif name in _GAME_TAGS:
                _GAME_TAGS[name](self, attrs)
            elif self._stops_game(name, attrs):
                self._stopped(attrs)
            elif self.hand is None:
                self.fail(f"<{name}> before the first INIT")
            elif name in _HAND_TAGS:
                _HAND_TAGS[name](self, name, attrs)
            else:
                self.fail(f"unknown tag <{name}>")
        self._end(text, end)
        return self.game

    # ------------------------------------------------------------------ checks and attributes

    def fail(self, msg: str):
        """Raise a :class:`RecordError` at the current tag."""
        hand = self.hand
        raise RecordError(msg, file=self.source, hand=hand.label if hand else "", position=self.pos)

    def need(self, attrs: dict, key: str) -> str:
        """A required attribute."""
        if key not in attrs:
            self.fail(f"missing attribute {key!r}")
        return attrs[key]

    def num_attr(self, attrs: dict, key: str, lo: int, hi: int, default: int | None = None) -> int:
        """An integer attribute in ``lo``–``hi`` (required unless it has a ``default``)."""
        text = attrs.get(key) if default is not None else self.need(attrs, key)
        if text is None:
            return default
        try:
            value = int(text)
        except ValueError:
            self.fail(f"attribute {key}={text!r} must be an integer")
        if not lo <= value <= hi:
            self.fail(f"attribute {key}={value} must be {lo}-{hi}")
        return value

    def tile_id(self, value: int) -> int:
        """``value``, checked to be a tile id."""
        if not 0 <= value < 136:
            self.fail(f"tile id {value} is not 0-135")
        return value

    def reveal(self, tile: int, what: str) -> None:
        """A tile comes into play (a draw or an indicator): it must not be in play already."""
        if self.tile_id(tile) in self.seen:
            self.fail(f"{what} {tile} is already in play")
        self.seen.add(tile)

    def take(self, seat: int, tile: int) -> None:
        """A tile leaves the seat's hand, which must hold it."""
        if tile not in self.held[seat]:
            self.fail(f"seat {seat} does not hold tile {tile}")
        self.held[seat].discard(tile)

    def _text_between(self, between: str) -> None:
        """Fail on text between tags (other than the XML declaration before the first)."""
        if "<!" in between:
            self.fail(
                "a DOCTYPE, ENTITY or comment: mjlog records have none "
                "(entities are never expanded)"
            )
        self.fail(f"unreadable text before this tag: {between[:40]!r}")

    def _stops_game(self, name: str, attrs: dict) -> bool:
        """Whether a tag is the game's end with no result (a ``RYUUKYOKU`` with ``owari`` only)."""
        return (
            name == "RYUUKYOKU"
            and "sc" not in attrs
            and "owari" in attrs
            and not self.game.complete
        )

    # ------------------------------------------------------------------ draws and discards

    def _tile_tag(self, name: str, num: str) -> None:
        """A draw (``T U V W`` + id) or a discard (``D E F G`` + id)."""
        if self.hand is None or self.finished:
            self.fail("draw or discard outside a hand")
        if len(num) > 3:
            self.fail(f"tile id {num[:6]}… is not 0-135")
        tile = self.tile_id(int(num))
        if name in _DRAW_TAGS and len(name) == 1:
            self._draw(_DRAW_TAGS.index(name), tile)
        elif name in _DISCARD_TAGS and len(name) == 1:
            self._discard(_DISCARD_TAGS.index(name), tile)
        else:
            self.fail(f"unknown tag <{name}{num}>")

    def _draw(self, seat: int, tile: int) -> None:
        """A draw; a replacement draw when the seat's last play was a kan or kita."""
        hand = self.hand
        if seat >= self.game.players:
            self.fail(f"seat {seat} draws in a {self.game.players}-player game")
        self.reveal(tile, "drawn tile")
        self.held[seat].add(tile)
        prev = next((e for e in reversed(hand.events) if e.type != "dora"), None)
        rinshan = (
            prev is not None
            and prev.seat == seat
            and prev.type in ("daiminkan", "kakan", "ankan", "kita")
        )
        hand.events.append(Event("draw", seat, tile, rinshan=rinshan))

    def _discard(self, seat: int, tile: int) -> None:
        """A discard; tsumogiri when it is the tile the seat just drew."""
        hand = self.hand
        prev = next(
            (
                e
                for e in reversed(hand.events)
                if e.seat == seat and e.type not in ("riichi", "dora")
            ),
            None,
        )
        tsumogiri = prev is not None and prev.type == "draw" and prev.tile == tile
        self.take(seat, tile)
        hand.events.append(Event("discard", seat, tile, tsumogiri=tsumogiri))
        self.last_discard[:] = [seat, tile]

    # ------------------------------------------------------------------ tags outside hands

    def _shuffle(self, attrs: dict) -> None:
        """``SHUFFLE``: the game's wall generator seed."""
        self.game.mjlog_shuffle = True
        self.game.shuffle_seed = str(attrs.get("seed", ""))[:8192]

    def _skip(self, attrs: dict) -> None:
        """A tag with nothing to read (``mjloggm``, ``TAIKYOKU``, ``BYE``)."""

    def _go(self, attrs: dict) -> None:
        """``GO``: the rules (players, length, red fives) from its ``type`` bits."""
        game = self.game
        gtype = self.num_attr(attrs, "type", 0, 1 << 20, 169)
        game.players = 3 if gtype & 0x10 else 4
        game.game_length = "hanchan" if gtype & 0x08 else "tonpuusen"
        red = (0, 1, 1) if game.players == 3 else (1, 1, 1)
        game.red_fives = (0, 0, 0) if gtype & 0x02 else red
        game.rules_text = rules_text(gtype)

    def _un(self, attrs: dict) -> None:
        """``UN``: the players' names."""
        if "n0" in attrs:
            self.game.names = tuple(unquote(attrs.get(f"n{i}", "")) for i in range(4))

    def _init(self, attrs: dict) -> None:
        """``INIT``: a new hand (round, honba, sticks, points, dealer, deal, first indicator)."""
        if self.hand is not None and not self.finished:
            self.fail(f"hand {self.hand.label} has no AGARI or RYUUKYOKU")
        seed = _ints(self.need(attrs, "seed"), self.fail, "seed")
        ten = _ints(self.need(attrs, "ten"), self.fail, "ten")
        if len(seed) != 6 or len(ten) < 4:
            self.fail("INIT needs seed with 6 numbers and ten with 4")
        players = self.game.players
        oya = self.num_attr(attrs, "oya", 0, players - 1)
        if not 0 <= seed[0] < 16 or seed[0] % 4 >= players or min(seed[1:3]) < 0:
            self.fail(f"INIT seed {attrs['seed']!r} has a bad round, honba or stick count")
        hand = self.hand = Hand(
            round_wind=seed[0] // 4,
            kyoku=seed[0] % 4,
            honba=seed[1],
            kyotaku=seed[2],
            scores=tuple(t * 100 for t in ten[:4]),
            dora_indicators=[seed[5]],
            haipai=[],
            players=players,
        )
        if oya != hand.kyoku:
            self.fail(f"oya {oya} does not match hand {hand.label}")
        if players == 3 and ten[3] != 0:
            self.fail(f"ten {attrs['ten']!r}: the empty fourth seat of a 3-player game has points")
        self._deal(attrs, seed[5])
        if self.walls is not None and len(self.hands) in self.walls:
            hand.wall, hand.wall_layout = self.walls[len(self.hands)]
        self.hands.append(hand)
        self.finished = False

    def _deal(self, attrs: dict, indicator: int) -> None:
        """The new hand's ``hai0``…``hai3`` (13 tiles a seat, none for an empty seat)."""
        hand, players = self.hand, self.game.players
        for s in range(4):
            hai = attrs.get(f"hai{s}", "") if s >= players else self.need(attrs, f"hai{s}")
            tiles = _ints(hai, self.fail, f"hai{s}")
            if len(tiles) != (13 if s < players else 0):
                want = 13 if s < players else "none (the empty seat of a 3-player game)"
                self.fail(f"hai{s} has {len(tiles)} tiles, expected {want}")
            hand.haipai.append(tiles)
        dealt = [t for h in hand.haipai for t in h] + [indicator]
        if len(set(dealt)) != len(dealt) or any(not 0 <= t < 136 for t in dealt):
            self.fail("the deal repeats a tile id or has an id outside 0-135")
        self.seen.clear()
        self.seen.update(dealt)
        for s in range(4):
            self.held[s] = set(hand.haipai[s])

    def _stopped(self, attrs: dict) -> None:
        """The game's end with no result: Tenhou stopped the game (inside a hand, or after one)."""
        hand = self.hand
        if hand is None:
            self.fail("no hands: the game ends before its first hand (a RYUUKYOKU with owari only)")
        if not self.finished:
            self.game.truncated = (
                f"the game ends inside hand {hand.label}, which has no result (a RYUUKYOKU "
                "with owari only: Tenhou stopped the game there)"
            )
        _owari(self.game, attrs, self.fail)
        self.finished = True

    # ------------------------------------------------------------------ tags inside hands

    def _call(self, name: str, attrs: dict) -> None:
        """``N``: a call (chi, pon, kans, kita), checked against the hand and the last discard."""
        if self.finished:
            self.fail("call after the hand ended")
        who = self.num_attr(attrs, "who", 0, self.game.players - 1)
        try:
            ev = decode_meld(who, self.num_attr(attrs, "m", 0, 0xFFFF))
        except ValueError as exc:
            self.fail(str(exc))
        self._check_call(ev, who)
        for t in ev.consumed if ev.type not in ("kakan", "kita") else (ev.tile,):
            self.take(who, t)
        self.hand.events.append(ev)

    def _check_call(self, ev: Event, who: int) -> None:
        """Fail on a call the game or the hand does not allow."""
        players, events = self.game.players, self.hand.events
        if ev.type == "kita" and players != 3:
            self.fail("kita (nukidora) in a four-player game")
        if ev.type in ("chi", "pon", "daiminkan") and ev.from_seat >= players:
            self.fail(f"{ev.type} from the empty seat {ev.from_seat}")
        if ev.type == "kakan" and not any(
            e.type == "pon" and e.seat == who and e.tile // 4 == ev.tile // 4 for e in events
        ):
            self.fail(f"kakan of tile {ev.tile} by seat {who} without a pon")
        if ev.type == "kakan":
            pon = next(
                e
                for e in events
                if e.type == "pon" and e.seat == who and e.tile // 4 == ev.tile // 4
            )
            if set(ev.consumed) != {pon.tile, *pon.consumed}:
                self.fail(f"kakan of tile {ev.tile} does not extend seat {who}'s pon")
        last_seat, last_tile = self.last_discard
        if ev.type in ("chi", "pon", "daiminkan") and (
            last_seat != ev.from_seat or last_tile != ev.tile
        ):
            self.fail(
                f"{ev.type} of tile {ev.tile} from seat {ev.from_seat} but the last discard was "
                f"tile {last_tile} by seat {last_seat}"
            )

    def _reach(self, name: str, attrs: dict) -> None:
        """``REACH``: step 1 declares riichi, step 2 pays the stick."""
        who = self.num_attr(attrs, "who", 0, 3)
        step = self.need(attrs, "step")
        if step not in ("1", "2"):
            self.fail(f"REACH step must be 1 or 2, got {step!r}")
        self.hand.events.append(Event("riichi" if step == "1" else "riichi_accepted", who))

    def _dora(self, name: str, attrs: dict) -> None:
        """``DORA``: a kan dora indicator revealed."""
        hand = self.hand
        tile = self.num_attr(attrs, "hai", 0, 135)
        self.reveal(tile, "dora indicator")
        if len(hand.dora_indicators) >= 5:
            self.fail("more than five dora indicators")
        hand.events.append(Event("dora", tile=tile))
        hand.dora_indicators.append(tile)

    def _result(self, name: str, attrs: dict) -> None:
        """``AGARI`` (one win) or ``RYUUKYOKU`` (a draw), with the game's end when ``owari``."""
        hand, game = self.hand, self.game
        if self.finished and name == "RYUUKYOKU":
            self.fail("second result for one hand")
        sc = _ints(self.need(attrs, "sc"), self.fail, "sc")
        if game.players == 3 and len(sc) == 6:
            sc += [0, 0]  # three seats listed alone: the empty seat's points and change
        if len(sc) < 8:
            self.fail(
                "sc needs 8 numbers" + (" (or 6 with three players)" if game.players == 3 else "")
            )
        deltas = tuple(sc[2 * i + 1] * 100 for i in range(4))
        if name == "AGARI":
            hand.wins.append(_agari(attrs, deltas, hand, self.need, self.fail, self.num_attr))
        else:
            kind = _RYUUKYOKU_TYPES.get(attrs.get("type", ""))
            if kind is None:
                self.fail(f"unknown RYUUKYOKU type {attrs.get('type')!r}")
            tenpai = None
            if kind in ("exhaustive", "nagashi_mangan"):
                tenpai = tuple(s for s in range(game.players) if f"hai{s}" in attrs)
            hand.draw = Draw(kind, deltas, tenpai)
        self.finished = True
        if "owari" in attrs:
            _owari(game, attrs, self.fail)

    # ------------------------------------------------------------------ the end of the file

    def _end(self, text: str, end: int) -> None:
        """What follows the last tag (the closing tag, maybe cut short), and a game that stops
        before its end."""
        rest = text[end:].strip()
        closed = bool(rest) and _CLOSING.startswith(rest)  # the closing tag, maybe cut short
        cut = (
            bool(rest) and not closed and rest[0] == "<" and "<" not in rest[1:] and ">" not in rest
        )
        if rest and not closed and not cut:
            self.pos = f"character {end}"
            self.fail(f"unreadable text at the end: {rest[:40]!r}")
        self.pos = "end of file"
        hand = self.hand
        if hand is None:
            self.fail(
                "no hands in the file"
                + (" (the file is cut short before the first)" if cut else "")
            )
        if not self.game.complete:
            self.game.complete = False
            self.game.truncated = _truncation(hand, self.finished, cut, closed, rest)


_GAME_TAGS = {
    "SHUFFLE": _MjlogReader._shuffle,
    "mjloggm": _MjlogReader._skip,
    "TAIKYOKU": _MjlogReader._skip,
    "BYE": _MjlogReader._skip,
    "GO": _MjlogReader._go,
    "UN": _MjlogReader._un,
    "INIT": _MjlogReader._init,
}
"""Tags read anywhere, by name: their handlers."""
_HAND_TAGS = {
    "N": _MjlogReader._call,
    "REACH": _MjlogReader._reach,
    "DORA": _MjlogReader._dora,
    "AGARI": _MjlogReader._result,
    "RYUUKYOKU": _MjlogReader._result,
}
"""Tags read inside a hand, by name: their handlers."""


_CLOSING = "</mjloggm>"


def _owari(game: Game, attrs: dict, fail) -> None:
    """The game's end: final points and scores with uma from ``owari``."""
    game.complete = True
    ow = attrs["owari"].split(",")
    if game.players == 3 and len(ow) == 6:
        ow += ["0", "0"]
    try:
        game.final_scores = tuple(int(ow[2 * i]) * 100 for i in range(4))
        game.final_results = tuple(float(ow[2 * i + 1]) for i in range(4))
    except (ValueError, IndexError):
        fail(f"bad owari {attrs['owari']!r}")


def _truncation(hand: Hand, finished: bool, cut: bool, closed: bool, rest: str) -> str:
    """The note of a record that stops before the game's end (no ``owari``), after ``hand``.

    A last hand won by ron may have lost a second ron at the cut (Tenhou writes one ``AGARI``
    per winner): unless the file goes on with something else, its result is left out."""
    where = " (the file ends in the middle of an element)" if cut else ""
    if (
        finished
        and not closed
        and "<AGARI".startswith(rest[:6])
        and any(not w.tsumo for w in hand.wins)
    ):
        hand.wins = []
        return (
            f"the record stops after a ron in hand {hand.label}, where a second ron may have been "
            f"cut off{where}: that hand's result is left out"
        )
    if not finished:
        return (
            f"the record stops inside hand {hand.label}{where}: a game still running, or a cut file"
        )
    return (
        f"the record stops after hand {hand.label}{where}, before the game's end (no result carries "
        "owari): a game still running, or a cut file"
    )


def _agari(attrs: dict, deltas, hand: Hand, need, fail, num_attr) -> Win:
    who = num_attr(attrs, "who", 0, 3)
    from_who = num_attr(attrs, "fromWho", 0, 3)
    ten = _ints(need(attrs, "ten"), fail, "ten")
    if len(ten) < 3 or not 0 <= ten[2] < len(LIMITS):
        fail(f"bad ten {attrs['ten']!r}")
    yaku: list[tuple[str, int]] = []
    if attrs.get("yaku"):
        ids = _ints(attrs["yaku"], fail, "yaku")
        for i in range(0, len(ids) - 1, 2):
            if not 0 <= ids[i] < len(YAKU_KEYS):
                fail(f"unknown yaku id {ids[i]}")
            yaku.append((YAKU_KEYS[ids[i]], ids[i + 1]))
    if attrs.get("yakuman"):
        for yid in _ints(attrs["yakuman"], fail, "yakuman"):
            if not 0 <= yid < len(YAKU_KEYS):
                fail(f"unknown yaku id {yid}")
            yaku.append((YAKU_KEYS[yid], 1))
    ba = _ints(attrs.get("ba", f"{hand.honba},{hand.kyotaku}"), fail, "ba")
    if len(ba) != 2 or ba[0] != hand.honba:
        fail(f"ba {attrs.get('ba')!r} does not match the hand's honba {hand.honba}")
    yakuman = sum(v for k, v in yaku if k in YAKUMAN_KEYS)
    han = 13 * yakuman if yakuman else sum(v for _, v in yaku)
    ura = tuple(_ints(attrs["doraHaiUra"], fail, "doraHaiUra")) if attrs.get("doraHaiUra") else ()
    if ura:
        hand.ura_indicators = list(ura)
    closed = tuple(_ints(need(attrs, "hai"), fail, "hai"))
    if len(ura) > 5 or any(not 0 <= t < 136 for t in (*ura, *closed)):
        fail("AGARI has a tile id outside 0-135 or more than five ura indicators")
    limit = LIMITS[ten[2]]
    if limit == "yakuman" and not yakuman:
        limit = "kazoe yakuman"
    return Win(
        seat=who,
        from_seat=from_who,
        deltas=deltas,
        pao_seat=num_attr(attrs, "paoWho", -1, 3, -1),
        han=han,
        fu=ten[0],
        yaku=tuple(yaku),
        points=ten[1],
        limit=limit,
        hand=closed,
        win_tile=num_attr(attrs, "machi", 0, 135),
        ura_indicators=ura,
    )
