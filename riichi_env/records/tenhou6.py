"""tenhou.net/6 JSON: reading and writing.

A log is ``{"title", "name", "rule", "log"}``; each entry of ``log`` is one hand:
``[[kyoku, honba, kyotaku], points, dora, ura, haipai0, takes0, discards0, …, haipai3, takes3,
discards3, result]``. Tiles are 11–19 man, 21–29 pin, 31–39 sou, 41–47 honors, 51–53 red fives.
Takes hold draws and call strings (``c`` chi, ``p`` pon, ``m`` daiminkan, the letter's place
naming the discarder); discards hold tiles, ``60`` for tsumogiri, ``r`` + tile for riichi, ``k``
kakan and ``a`` ankan strings, and ``0`` after a daiminkan. The order of play is not written: it is
rebuilt by following the turn order, with a search when a call could belong to either of two
identical discards.

Three-player games (``rule.disp`` with 三 or "3-Player", or an empty fourth haipai): the fourth
seat's haipai, takes and discards are empty and its points and deltas 0 (``name`` and ``sc`` may
list three players or four); a kita is ``"f44"`` among the seat's discards, its replacement draw
the seat's next take. Call strings name the discarder relative to the caller as with four seats.
"""

from __future__ import annotations

import json
import re

from engine.rules import TENHOU
from engine.scoring.payment import (
    base_points as _base_points,
)
from engine.scoring.payment import (
    hand_value as _hand_value,
)
from engine.scoring.payment import (
    tsumo_shares as _tsumo_shares,
)
from riichi_env.records.model import (
    DORA_KEYS,
    NUKI_DORA,
    YAKU_KEYS,
    YAKUMAN_KEYS,
    Draw,
    Event,
    Game,
    Hand,
    RecordError,
    TileAllocator,
    Win,
    find_log_id,
    hand_label,
    load_json,
)
from riichi_env.records.notation import from_tenhou6_code, tenhou6_code

YAKU_NAMES_JA = (
    "門前清自摸和",
    "立直",
    "一発",
    "槍槓",
    "嶺上開花",
    "海底摸月",
    "河底撈魚",
    "平和",
    "断幺九",
    "一盃口",
    "自風 東",
    "自風 南",
    "自風 西",
    "自風 北",
    "場風 東",
    "場風 南",
    "場風 西",
    "場風 北",
    "役牌 白",
    "役牌 發",
    "役牌 中",
    "両立直",
    "七対子",
    "混全帯幺九",
    "一気通貫",
    "三色同順",
    "三色同刻",
    "三槓子",
    "対々和",
    "三暗刻",
    "小三元",
    "混老頭",
    "二盃口",
    "純全帯幺九",
    "混一色",
    "清一色",
    "人和",
    "天和",
    "地和",
    "大三元",
    "四暗刻",
    "四暗刻単騎",
    "字一色",
    "緑一色",
    "清老頭",
    "九蓮宝燈",
    "純正九蓮宝燈",
    "国士無双",
    "国士無双１３面",
    "大四喜",
    "小四喜",
    "四槓子",
    "ドラ",
    "裏ドラ",
    "赤ドラ",
)
"""Tenhou's yaku names, in the order of ``YAKU_KEYS``."""
_YAKU_BY_NAME = {name: key for name, key in zip(YAKU_NAMES_JA, YAKU_KEYS, strict=True)}
_YAKU_BY_NAME.update(
    {
        "国士無双13面": "kokushi_musou_13_sided",
        "ura dora": "ura_dora",
        "red five": "aka_dora",
        "red dora": "aka_dora",
        "aka dora": "aka_dora",
        "fully concealed hand": "menzen_tsumo",
        "tsumo": "menzen_tsumo",
        "all simples": "tanyao",
        "オープン立直": "open_riichi",
        "抜きドラ": NUKI_DORA,
        "北抜き": NUKI_DORA,
        "国士無双十三面待ち": "kokushi_musou_13_sided",
        "国士無双十三面": "kokushi_musou_13_sided",
    }
)
_SEAT_WIND_NAMES = ("役牌:自風牌", "自風牌")
_ROUND_WIND_NAMES = ("役牌:場風牌", "場風牌")
"""Mahjong Soul's wind yakuhai as converters write them: resolved from the hand (seat, round)."""
KITA_CODE = "f44"
"""A kita among a seat's discards (``f`` and the North's code)."""
DRAW_NAMES_JA = {
    "exhaustive": "流局",
    "kyuushu_kyuuhai": "九種九牌",
    "suufon_renda": "四風連打",
    "suucha_riichi": "四家立直",
    "suukaikan": "四槓散了",
    "sanchahou": "三家和了",
    "nagashi_mangan": "流し満貫",
}
_DRAW_BY_NAME = {v: k for k, v in DRAW_NAMES_JA.items()}
_DRAW_BY_NAME.update({"全員聴牌": "exhaustive", "全員不聴": "exhaustive"})
LIMIT_NAMES_JA = {
    "mangan": "満貫",
    "haneman": "跳満",
    "baiman": "倍満",
    "sanbaiman": "三倍満",
    "yakuman": "役満",
    "kazoe yakuman": "役満",
}
_LIMIT_BY_NAME = {
    "満貫": "mangan",
    "跳満": "haneman",
    "倍満": "baiman",
    "三倍満": "sanbaiman",
    "役満": "yakuman",
    "数え役満": "kazoe yakuman",
}
_HEADER_RE = re.compile(
    r"^(?:(\d+)符)?(?:(\d+)飜)?(満貫|跳満|倍満|三倍満|数え役満|\d*倍?役満)?"
    r"(\d+)(?:-(\d+))?点(∀)?$"
)
_YAKU_RE = re.compile(r"^(.+?)\((\d+)飜\)$|^(.+?)\((\d*)倍?役満\)$")
MAX_SEARCH = 500
"""Most orderings tried when calls are ambiguous, before the record is called unreadable."""


class _MismatchError(Exception):
    """One ordering of a hand's calls did not fit the record."""


def base_points(han: int, fu: int, limit: str, yakuman: int = 0) -> int:
    """Base points of a recorded win (Tenhou: no kiriage mangan), from ``engine.scoring.payment``."""
    return _base_points(han, fu, yakuman, TENHOU, limit=limit)


def read_tenhou6(text_or_obj, *, source: str = "") -> Game:
    """Parse tenhou.net/6 JSON (text or an already-loaded object) into a :class:`Game`."""
    data = load_json(
        text_or_obj,
        source,
        " (the file ends early: a cut file? a tenhou.net/6 record is one JSON document, read whole)",
    )
    if not isinstance(data, dict) or not isinstance(data.get("log"), list):
        raise RecordError('not a tenhou.net/6 log (no "log" list)', file=source)
    rule = data.get("rule") or {}
    if not isinstance(rule, dict):
        raise RecordError('"rule" must be an object', file=source)
    disp = str(rule.get("disp", ""))
    players = 3 if ("三" in disp or "3-Player" in disp or _empty_fourth_seat(data["log"])) else 4
    if any(rule.get(k) for k in ("aka51", "aka52", "aka53")):
        reds = tuple(_count(rule.get(k, 0)) for k in ("aka51", "aka52", "aka53"))
    else:
        reds = (1, 1, 1) if rule.get("aka", 1) else (0, 0, 0)
    if players == 3:
        reds = (0, *reds[1:])  # no 5m in a three-player game (Tenhou writes aka51 anyway)
    names = data.get("name") or ["A", "B", "C", "D"][:players]
    if not isinstance(names, list) or len(names) not in (players, 4):
        want = "three or four" if players == 3 else "four"
        raise RecordError(f'"name" must list {want} players', file=source)
    names = [*names, ""][:4]
    game = Game(
        hands=[],
        format="tenhou6",
        names=tuple(str(n) for n in names),
        game_length="tonpuusen" if ("東" in disp or "East" in disp) else "hanchan",
        red_fives=reds,
        source=source,
        rules_text=disp,
        log_id=find_log_id(str(data.get("ref") or "")),
        players=players,
    )
    for k, kyoku in enumerate(data["log"]):
        game.hands.append(_read_hand(kyoku, k, reds, source, players))
    sc = data.get("sc")
    if isinstance(sc, list) and len(sc) >= 2 * players:
        four = [*sc[: 2 * players], 0, 0][:8]  # three players: the empty seat's 0, 0
        try:
            game.final_scores = tuple(int(four[2 * i]) for i in range(4))
            game.final_results = tuple(float(four[2 * i + 1]) for i in range(4))
            game.complete = True
        except (TypeError, ValueError):
            raise RecordError(f'bad "sc" {sc!r}', file=source) from None
    return game


def _empty_fourth_seat(log) -> bool:
    """Whether the first hand's fourth haipai is empty (a three-player record)."""
    first = log[0] if log else None
    return isinstance(first, list) and len(first) == 17 and first[13] == []


def _four(values: list, players: int) -> list:
    """Per-seat values padded with 0 for the empty seat of a three-player record."""
    return [*values, 0] if players == 3 and len(values) == 3 else values


def _count(value) -> int:
    """A red-five count from a rule entry (bools and out-of-range values clamp to 0-4)."""
    return max(0, min(4, int(value))) if isinstance(value, (int, float)) else 0


def _read_hand(kyoku, k: int, reds, source: str, players: int = 4) -> Hand:
    """One hand of the log, its order of play rebuilt from the takes and discards."""
    label = f"#{k}"

    def fail(msg: str, where: str = ""):
        raise RecordError(msg, file=source, hand=label, position=where or f"log[{k}]")

    meta = _hand_header(kyoku, k, fail)
    label = hand_label(meta[0] // 4, meta[0] % 4, meta[1])
    scores = _hand_points(kyoku, k, meta, players, fail)

    def code(x, where: str) -> tuple[int, bool]:
        try:
            return from_tenhou6_code(x)
        except ValueError as exc:
            fail(str(exc), where)
            raise

    hand = Hand(
        round_wind=meta[0] // 4,
        kyoku=meta[0] % 4,
        honba=meta[1],
        kyotaku=meta[2],
        scores=tuple(scores),
        dora_indicators=[],
        haipai=[],
        players=players,
    )
    columns = _seat_columns(kyoku, k, players, fail)
    hand.wins, hand.draw = _read_result(kyoku[16], k, fail, players)
    for w in hand.wins:
        w.yaku = _resolve_winds(w.yaku, hand, w.seat)
        _double_yakuman(w, hand)
    events, haipai, doras, uras, plain = _search_orderings(
        kyoku, k, reds, columns, hand, code, source, label
    )
    hand.events, hand.haipai, hand.dora_indicators, hand.ura_indicators, hand.plain_reds = (
        events,
        haipai,
        doras,
        uras,
        plain,
    )
    for w in hand.wins:
        if w.ura_indicators is None and uras:
            w.ura_indicators = tuple(uras)
    return hand


def _hand_header(kyoku, k: int, fail) -> list[int]:
    """The hand's ``[kyoku, honba, kyotaku]``, checked with the shape of the hand's entry."""
    if not isinstance(kyoku, list) or len(kyoku) != 17:
        fail(
            f"a hand must be a list of 17 entries, got {len(kyoku) if isinstance(kyoku, list) else type(kyoku).__name__}"
        )
    meta = kyoku[0]
    if (
        not isinstance(meta, list)
        or len(meta) != 3
        or not all(isinstance(x, int) and x >= 0 for x in meta)
    ):
        fail(f"hand header must be [kyoku, honba, kyotaku], got {meta!r}", f"log[{k}][0]")
    return meta


def _hand_points(kyoku, k: int, meta: list[int], players: int, fail) -> list[int]:
    """The hand's four points (the empty seat's 0 added), checked with its dealer and the
    dora and ura indicator lists."""
    scores, dora = kyoku[1], kyoku[2]
    if meta[0] % 4 >= players:
        fail(f"hand {meta[0]} has dealer seat {meta[0] % 4}: no such seat with {players} players")
    if isinstance(scores, list):
        scores = _four(scores, players)
    if (
        not isinstance(scores, list)
        or len(scores) != 4
        or not all(isinstance(x, int) for x in scores)
        or (players == 3 and scores[3] != 0)
    ):
        want = "four ints" if players == 4 else "three ints (or four, the fourth 0)"
        fail(f"points must be {want}, got {scores!r}", f"log[{k}][1]")
    for idx, name in ((2, "dora"), (3, "ura")):
        if not isinstance(kyoku[idx], list) or len(kyoku[idx]) > 5:
            fail(f"{name} indicators must be a list of at most 5 tiles", f"log[{k}][{idx}]")
    if not dora:
        fail("no dora indicator", f"log[{k}][2]")
    return scores


def _seat_columns(kyoku, k: int, players: int, fail) -> list[tuple[list, list, list]]:
    """Each seat's (haipai, takes, discards), checked to be lists (an empty seat's empty)."""
    columns = []
    for s in range(4):
        hp, takes, discards = kyoku[4 + 3 * s], kyoku[5 + 3 * s], kyoku[6 + 3 * s]
        size = 13 if s < players else 0
        if not isinstance(hp, list) or len(hp) != size:
            want = "13 tiles" if size else "none (the empty seat of a three-player game)"
            fail(
                f"seat {s} haipai must have {want}, got {len(hp) if isinstance(hp, list) else hp!r}",
                f"log[{k}][{4 + 3 * s}]",
            )
        if s >= players and (takes or discards):
            fail(f"seat {s} is empty in a three-player game but has takes or discards")
        for idx, col in ((5 + 3 * s, takes), (6 + 3 * s, discards)):
            if not isinstance(col, list):
                fail("takes and discards must be lists", f"log[{k}][{idx}]")
        columns.append((hp, takes, discards))
    return columns


def _search_orderings(kyoku, k, reds, columns, hand: Hand, code, source: str, label: str):
    """Search the orderings of ambiguous calls until one replays cleanly (its ``_simulate``
    result); when none does, the first ordering's misfit is raised as a :class:`RecordError`."""
    decisions: list[bool] = []
    first_error: RecordError | None = None
    for _ in range(MAX_SEARCH):
        try:
            return _simulate(kyoku, k, reds, columns, hand, decisions, code)
        except _MismatchError as exc:
            msg, where, points = exc.args
            if first_error is None:
                first_error = RecordError(msg, file=source, hand=label, position=where)
            decisions = points
            while decisions and not decisions[-1]:
                decisions.pop()
            if not decisions:
                raise first_error from None
            decisions[-1] = False
    raise first_error  # type: ignore[misc]


DOUBLE_YAKUMAN_KEYS = (
    "kokushi_musou_13_sided",
    "suuankou_tanki",
    "junsei_chuuren_poutou",
    "daisuushii",
)
"""Yakuman that count double where the rules say so (Mahjong Soul)."""


def _double_yakuman(win: Win, hand: Hand) -> None:
    """A yakuman paid double although its yaku text says ``(役満)`` (converters of Mahjong Soul
    games write so): the header's points tell the multiplier, given to the double-capable yaku."""
    if not win.yakuman or not win.points or win.yaku is None:
        return
    dealer = win.seat == hand.dealer
    if win.tsumo:
        from_dealer, from_other = _tsumo_shares(8000, dealer)
        payers = hand.players - 1
        single = payers * from_other if dealer else from_dealer + (payers - 1) * from_other
    else:
        single = _hand_value(8000, dealer, False)
    extra = win.points // single - win.yakuman
    for i, (key, v) in enumerate(win.yaku):
        if extra > 0 and key in DOUBLE_YAKUMAN_KEYS and v == 1:
            win.yaku = (*win.yaku[:i], (key, 1 + extra), *win.yaku[i + 1 :])
            win.han = 13 * win.yakuman
            return


def _resolve_winds(yaku, hand: Hand, seat: int):
    """Mahjong Soul's ``役牌:自風牌`` / ``役牌:場風牌`` as the seat's and the round's wind keys."""
    if not yaku:
        return yaku
    seat_wind = "ESWN"[(seat - hand.dealer) % hand.players]
    names = {"E": "east", "S": "south", "W": "west", "N": "north"}
    out = []
    for key, v in yaku:
        if key.lstrip("?") in _SEAT_WIND_NAMES:
            key = f"seat_wind_{names[seat_wind]}"
        elif key.lstrip("?") in _ROUND_WIND_NAMES:
            key = f"round_wind_{names['ESWN'[hand.round_wind % 4]]}"
        out.append((key, v))
    return tuple(out)


def _read_result(res, k: int, fail, players: int = 4):
    where = f"log[{k}][16]"
    if not isinstance(res, list) or not res or not isinstance(res[0], str):
        fail("result must be a list starting with its name", where)
    name = res[0]
    if name == "和了":
        if len(res) < 3 or len(res) % 2 == 0:
            fail("和了 needs pairs of [deltas] and [who, from, pao, …]", where)
        wins = []
        for i in range(1, len(res), 2):
            deltas, detail = res[i], res[i + 1]
            if isinstance(deltas, list):
                deltas = _four(deltas, players)
            if not isinstance(deltas, list) or len(deltas) != 4:
                fail("score deltas must be four ints", f"{where}[{i}]")
            if (
                not isinstance(detail, list)
                or len(detail) < 3
                or not all(isinstance(x, int) and 0 <= x < 4 for x in detail[:3])
            ):
                fail("win detail must start with who, from, pao", f"{where}[{i + 1}]")
            win = Win(seat=detail[0], from_seat=detail[1], deltas=tuple(deltas))
            win.pao_seat = detail[2] if detail[2] != detail[0] else -1
            if len(detail) > 3:
                _read_win_detail(win, detail[3:], fail, f"{where}[{i + 1}]", players)
            wins.append(win)
        return wins, None
    kind = _DRAW_BY_NAME.get(name)
    if kind is None:
        fail(f"unknown result {name!r}", where)
    deltas = (0, 0, 0, 0)
    if len(res) > 1:
        if isinstance(res[1], list):
            res = [res[0], _four(res[1], players), *res[2:]]
        if not isinstance(res[1], list) or len(res[1]) != 4:
            fail("draw deltas must be four ints", f"{where}[1]")
        deltas = tuple(res[1])
    tenpai = None
    if name == "全員聴牌":
        tenpai = tuple(range(players))
    elif name == "全員不聴":
        tenpai = ()
    elif kind == "exhaustive" and any(deltas):
        tenpai = tuple(s for s in range(4) if deltas[s] > 0)
    return [], Draw(kind, deltas, tenpai)


def _read_win_detail(win: Win, items: list, fail, where: str, players: int = 4) -> None:
    header = items[0]
    if not isinstance(header, str):
        fail(f"win header must be a string, got {header!r}", where)
    m = _HEADER_RE.match(header)
    if m is None:
        fail(f"cannot read win header {header!r}", where)
    fu, han, limit, a, b, all_ = m.groups()
    win.fu = int(fu) if fu else None
    if limit:
        win.limit = _LIMIT_BY_NAME.get(limit, "yakuman")
    else:
        win.limit = ""
    a = int(a)
    # A tsumo's value is its shares: "a-b" (the dealer pays b) or "a∀" (each payer pays a);
    # three players pay without the empty seat (tsumo loss).
    win.points = (players - 2) * a + int(b) if b else ((players - 1) * a if all_ else a)
    yaku = []
    for text in items[1:]:
        ym = _YAKU_RE.match(text) if isinstance(text, str) else None
        if ym is None:
            fail(f"cannot read yaku {text!r}", where)
        if ym.group(1) is not None:
            key = _yaku_key(ym.group(1))
            yaku.append((key, int(ym.group(2))))
        else:
            key = _yaku_key(ym.group(3))
            yaku.append((key, int(ym.group(4) or 1)))
    win.yaku = tuple(yaku)
    yakuman = sum(v for key, v in yaku if key in YAKUMAN_KEYS)
    win.han = 13 * yakuman if yakuman else (int(han) if han else sum(v for _, v in yaku))
    if win.limit == "yakuman" and not yakuman:
        win.limit = "kazoe yakuman"


def _yaku_key(name: str) -> str:
    name = name.strip()
    if name in _YAKU_BY_NAME:
        return _YAKU_BY_NAME[name]
    low = name.lower()
    if low in _YAKU_BY_NAME:
        return _YAKU_BY_NAME[low]
    key = low.replace(" ", "_").replace("-", "_")
    return key if key in YAKU_KEYS else f"?{name}"


def _parse_call(text: str, actor: int, fail_where):
    """A call string as (type, added-or-called code, other codes, discarder or -1)."""
    letters = [(i, c) for i, c in enumerate(text) if c.isalpha()]
    if len(letters) != 1:
        fail_where(f"unreadable call string {text!r}")
    i, c = letters[0]
    digits = text[:i] + text[i + 1 :]
    if not digits.isdigit() or len(digits) % 2:
        fail_where(f"unreadable call string {text!r}")
    codes = [int(digits[j : j + 2]) for j in range(0, len(digits), 2)]
    pos = i // 2
    if c == "c" and len(codes) == 3 and i == 0:
        return "chi", codes[0], codes[1:], (actor + 3) % 4
    if c == "p" and len(codes) == 3 and pos in (0, 1, 2):
        return "pon", codes[pos], codes[:pos] + codes[pos + 1 :], (actor + 3 - pos) % 4
    if c == "m" and len(codes) == 4 and pos in (0, 1, 3):
        rel = {0: 3, 1: 2, 3: 1}[pos]
        return "daiminkan", codes[pos], codes[:pos] + codes[pos + 1 :], (actor + rel) % 4
    if c == "k" and len(codes) == 4 and pos in (0, 1, 2):
        return "kakan", codes[pos], codes[:pos] + codes[pos + 1 :], (actor + 3 - pos) % 4
    if c == "a" and len(codes) == 4 and i == 6:
        return "ankan", codes[3], codes[:3], -1
    fail_where(f"unreadable call string {text!r}")
    raise AssertionError


def _simulate(kyoku, k, reds, columns, hand: Hand, decisions, code):
    """Play the hand in turn order; raises ``_MismatchError`` (with the decision points) on a misfit."""
    return _Simulation(kyoku, k, reds, columns, hand, decisions, code).run()


class _Simulation:
    """One replay of a hand's takes and discards in turn order, taking a call of a discard that
    an identical later discard could also have had as ``decisions`` says (default: take it)."""

    def __init__(self, kyoku, k, reds, columns, hand: Hand, decisions, code):
        self.k, self.hand, self.code, self.decisions = k, hand, code, decisions
        self.points: list[bool] = []  # the decisions taken, in order
        self.where = f"log[{k}]"
        self.alloc = TileAllocator(reds, self.miss)
        self.haipai = []
        for s in range(4):
            ids = []
            for j, x in enumerate(columns[s][0]):
                self.where = f"log[{k}][{4 + 3 * s}][{j}]"
                kind, red = code(x, self.where)
                ids.append(self.alloc.new(kind, red))
            self.alloc.hands[s] = list(ids)
            self.haipai.append(ids)
        self.where = f"log[{k}][2][0]"
        self.dora_codes, self.ura_codes = kyoku[2], kyoku[3]
        self.doras = [self.alloc.new(*code(self.dora_codes[0], self.where))]
        self.events: list[Event] = []
        self.ti, self.di = [0] * 4, [0] * 4  # each seat's next take and next discard
        self.takes = [c[1] for c in columns]
        self.discards = [c[2] for c in columns]
        self.melds: list[list[Event]] = [[], [], [], []]
        self.actor = hand.kyoku
        self.last_discard = (-1, -1)
        self.pending_accept = -1
        self.pending_dora = 0  # open kans (of the player on turn) whose indicators are still hidden
        self.rinshan = False
        self.last_draw = [-1] * 4

    def miss(self, msg: str):
        """Raise the misfit of this ordering, where it was found."""
        raise _MismatchError(msg, self.where, list(self.points))

    def run(self):
        """(events, haipai, dora indicators, ura indicators, plain fives read as red ones)."""
        while self._turn():
            pass
        self._check_end()
        uras = []
        for j, x in enumerate(self.ura_codes):
            self.where = f"log[{self.k}][3][{j}]"
            uras.append(self.alloc.new(*self.code(x, self.where)))
        return self.events, self.haipai, self.doras, uras, frozenset(self.alloc.plain_as_red)

    def _turn(self) -> bool:
        """The seat on turn takes (a draw or a call) and plays (a discard, kan or kita); False
        when the hand ends there."""
        k, actor = self.k, self.actor
        self.where = f"log[{k}][{5 + 3 * actor}][{self.ti[actor]}]"
        take = self._next_take(actor)
        if take is None:
            self.miss(f"seat {actor} has no take left")
        self.ti[actor] += 1
        if self.pending_accept >= 0:
            self.events.append(Event("riichi_accepted", self.pending_accept))
            self.pending_accept = -1
        if isinstance(take, str):
            if self._call(take):
                return True  # a daiminkan: its replacement draw comes next
        elif isinstance(take, int) and not isinstance(take, bool) and take != 60:
            self._draw(take)
        else:
            self.miss(f"unreadable take {take!r}")
        self.where = f"log[{k}][{6 + 3 * actor}][{self.di[actor]}]"
        if self.di[actor] >= len(self.discards[actor]):
            return False  # tsumo, or kyuushu kyuuhai
        d = self.discards[actor][self.di[actor]]
        self.di[actor] += 1
        if d == KITA_CODE:
            self._kita()
            return not self._all_taken()  # all taken: ron on the kita
        riichi = False
        if isinstance(d, str) and d.startswith("r"):
            try:
                d = int(d[1:])
            except ValueError:
                self.miss(f"unreadable riichi discard {self.discards[actor][self.di[actor] - 1]!r}")
            riichi = True
        if isinstance(d, str):
            self._kan(d)
            return not self._all_taken()  # all taken: chankan
        tid = self._discard(d, riichi)
        if self._all_taken():
            return False  # ron or exhaustive draw
        self.actor = self._next_actor(tid, d)
        return True

    def _next_take(self, s: int):
        """The seat's next take, None when it has none left."""
        return self.takes[s][self.ti[s]] if self.ti[s] < len(self.takes[s]) else None

    def _all_taken(self) -> bool:
        """Whether every seat's takes are used up (the hand ends at this play)."""
        return all(self.ti[s] >= len(self.takes[s]) for s in range(4))

    def _reveal(self) -> None:
        """The next kan dora indicator of the record."""
        self.where = f"log[{self.k}][2][{len(self.doras)}]"
        if len(self.doras) >= len(self.dora_codes):
            self.miss("more kans than kan dora indicators")
        tid = self.alloc.new(*self.code(self.dora_codes[len(self.doras)], self.where))
        self.doras.append(tid)
        self.events.append(Event("dora", tile=tid))

    def _reveal_pending(self) -> None:
        """Every pending open kan's indicator (a kan too many: a misfit)."""
        for _ in range(self.pending_dora):
            self._reveal()
        self.pending_dora = 0

    def _reveal_recorded_pending(self) -> None:
        """The pending open kans' indicators that the record has."""
        while self.pending_dora and len(self.doras) < len(self.dora_codes):
            self._reveal()
            self.pending_dora -= 1

    def _draw(self, take: int) -> None:
        """A drawn tile (a replacement draw after a kan or kita)."""
        actor = self.actor
        tid = self.alloc.new(*self.code(take, self.where))
        self.alloc.hands[actor].append(tid)
        self.events.append(Event("draw", actor, tid, rinshan=self.rinshan))
        self.last_draw[actor] = tid
        self.rinshan = False

    def _call(self, take: str) -> bool:
        """A chi, pon or daiminkan of the last discard; True for a daiminkan."""
        actor, alloc = self.actor, self.alloc
        typ, called, others, target = _parse_call(take, actor, self.miss)
        if typ not in ("chi", "pon", "daiminkan"):
            self.miss(f"{typ} string {take!r} among the takes")
        kind, red = self.code(called, self.where)
        last_seat, last_tile = self.last_discard
        if last_seat != target or (last_tile // 4, alloc.is_red(last_tile)) != (kind, red):
            self.miss(f"{typ} {take!r} does not match the last discard")
        consumed = tuple(alloc.take(actor, *self.code(x, self.where)) for x in others)
        ev = Event(typ, actor, last_tile, consumed, target)
        self.events.append(ev)
        self.melds[actor].append(ev)
        self.last_draw[actor] = -1
        if typ != "daiminkan":
            return False
        di, discards = self.di, self.discards[actor]
        self.where = f"log[{self.k}][{6 + 3 * actor}][{di[actor]}]"
        if di[actor] >= len(discards) or discards[di[actor]] != 0:
            self.miss("a daiminkan must be followed by 0 in the discards")
        di[actor] += 1
        self.pending_dora += 1
        self.rinshan = True
        return True

    def _kita(self) -> None:
        """A North set aside (``f44``), three players only."""
        actor = self.actor
        if self.hand.players != 3:
            self.miss("a kita (f44) in a four-player game")
        tid = self.alloc.take(actor, 30, False)
        self.events.append(Event("kita", actor, tid))
        self.rinshan = True
        self.last_draw[actor] = -1
        self.last_discard = (actor, tid)

    def _kan(self, d: str) -> None:
        """A kakan or ankan string among the discards."""
        typ, added, others, _ = _parse_call(d, self.actor, self.miss)
        if typ == "kakan":
            self._kakan(d, added)
        elif typ == "ankan":
            self._ankan(added, others)
        else:
            self.miss(f"{typ} string {d!r} among the discards")
        self.rinshan = True
        self.last_draw[self.actor] = -1

    def _kakan(self, d: str, added) -> None:
        """An added kan onto the seat's pon of that tile."""
        actor = self.actor
        kind, red = self.code(added, self.where)
        pon = next((m for m in self.melds[actor] if m.type == "pon" and m.tile // 4 == kind), None)
        if pon is None:
            self.miss(f"kakan {d!r} without a pon of that tile")
        # An earlier open kan's indicator shows before a further kan (docs/rules.md) when the
        # record has it; Tenhou shows none when that further kakan is robbed.
        self._reveal_recorded_pending()
        tid = self.alloc.take(actor, kind, red)
        ev = Event("kakan", actor, tid, tuple(sorted((*pon.consumed, pon.tile))), pon.from_seat)
        self.melds[actor].append(ev)
        self.events.append(ev)
        self.pending_dora += 1
        self.last_discard = (actor, tid)

    def _ankan(self, added, others) -> None:
        """A closed kan, its indicator shown at once (unless robbed with none recorded)."""
        actor = self.actor
        self._reveal_pending()
        ids = [self.alloc.take(actor, *self.code(x, self.where)) for x in (*others, added)]
        ev = Event("ankan", actor, -1, tuple(sorted(ids)))
        self.melds[actor].append(ev)
        self.events.append(ev)
        robbed = self._all_taken()
        if not (robbed and len(self.doras) >= len(self.dora_codes)):
            self._reveal()  # a closed kan robbed by kokushi may show no indicator (Mahjong Soul)
        self.last_discard = (actor, -1)

    def _discard(self, d, riichi: bool) -> int:
        """A discard (``60``: the drawn tile), after its riichi declaration; its tile id."""
        actor, alloc, last_draw = self.actor, self.alloc, self.last_draw
        if not isinstance(d, int) or isinstance(d, bool) or d == 0:
            self.miss(f"unreadable discard {d!r}")
        if riichi:
            self.events.append(Event("riichi", actor))
        if d == 60:
            if last_draw[actor] < 0:
                self.miss("tsumogiri without a drawn tile")
            tid = last_draw[actor]
            alloc.hands[actor].remove(tid)
            tsumogiri = True
        else:
            kind, red = self.code(d, self.where)
            tid = alloc.discard_id(actor, kind, red, last_draw[actor])
            tsumogiri = False
        last_draw[actor] = -1
        self.events.append(Event("discard", actor, tid, tsumogiri=tsumogiri))
        self._reveal_pending()
        if riichi:
            self.pending_accept = actor
        self.last_discard = (actor, tid)
        return tid

    def _next_actor(self, tid: int, d: int) -> int:
        """Who moves after a discard: a caller of it (pon/kan before chi), else the next seat.
        A call that an identical later discard could have had instead is a decision point."""
        actor, n = self.actor, self.hand.players
        callers = self._callers(tid)
        if not callers:
            return (actor + 1) % n
        caller = max(callers)[1]
        rest = self.discards[actor][self.di[actor] :]
        same = any(
            x == 60 or x == d or (isinstance(x, str) and x[1:] in (str(d), "60")) for x in rest
        )
        take_call = True
        if same:
            points, decisions = self.points, self.decisions
            take_call = decisions[len(points)] if len(points) < len(decisions) else True
            points.append(take_call)
        return caller if take_call else (actor + 1) % n

    def _callers(self, tid: int) -> list[tuple[bool, int]]:
        """The seats whose next take calls this discard: (a pon or kan, seat)."""
        callers = []
        for s in range(4):
            nxt = self._next_take(s)
            if s == self.actor or not isinstance(nxt, str):
                continue
            try:
                typ, called, _, target = _parse_call(nxt, s, self.miss)
            except _MismatchError:
                continue
            if target == self.actor and typ in ("chi", "pon", "daiminkan"):
                try:
                    ck = from_tenhou6_code(called)
                except ValueError:
                    continue
                if ck == (tid // 4, self.alloc.is_red(tid)):
                    callers.append((typ != "chi", s))
        return callers

    def _check_end(self) -> None:
        """The hand's end: nothing left over, every indicator used, the result fits the last play."""
        self.where = f"log[{self.k}]"
        for s in range(4):
            if self.ti[s] < len(self.takes[s]) or self.di[s] < len(self.discards[s]):
                self.miss(f"seat {s} has takes or discards left over when the hand ends")
        if self.events[-1].type != "kakan":
            # An open kan's indicator comes before a rinshan tsumo when the record has it
            # (docs/rules.md); Tenhou (and RiichiEnv) show none there, and none for a robbed kakan.
            self._reveal_recorded_pending()
        if len(self.doras) != len(self.dora_codes):
            self.miss(f"{len(self.dora_codes)} dora indicators but {len(self.doras) - 1} kans")
        self._check_wins()
        hand = self.hand
        if hand.draw is not None and hand.draw.kind == "suucha_riichi" and self.pending_accept >= 0:
            self.events.append(Event("riichi_accepted", self.pending_accept))

    def _check_wins(self) -> None:
        """Each win fits the last play (an open kan's indicator revealed before its rinshan tsumo
        comes after it): a tsumo the winner's draw, a ron the discarder's discard, kan or kita."""
        last = next((e for e in reversed(self.events) if e.type != "dora"), None)
        for w in self.hand.wins:
            if w.tsumo:
                if last is None or last.type != "draw" or last.seat != w.seat:
                    self.miss(f"seat {w.seat} wins by tsumo but did not just draw")
            elif (
                last is None
                or last.seat != w.from_seat
                or last.type not in ("discard", "kakan", "ankan", "kita")
            ):
                self.miss(
                    f"seat {w.seat} wins by ron from seat {w.from_seat}, who did not just discard"
                )


def _call_string(ev: Event, red, pon: Event | None = None) -> str:
    def c(t: int) -> str:
        return str(tenhou6_code(t // 4, t in red))

    def order(ts):
        return sorted(ts, key=lambda t: (t // 4, t in red))

    if ev.type == "chi":
        return "c" + c(ev.tile) + "".join(c(t) for t in order(ev.consumed))
    if ev.type == "ankan":
        ts = order(ev.consumed)
        return "".join(c(t) for t in ts[:3]) + "a" + c(ts[3])
    if ev.type in ("pon", "daiminkan"):
        rel = (ev.from_seat - ev.seat) % 4
        parts = [c(t) for t in order(ev.consumed)]
        pos = {3: 0, 2: 1, 1: len(parts)}[rel]
        letter = "p" if ev.type == "pon" else "m"
        parts.insert(pos, letter + c(ev.tile))
        return "".join(parts)
    if ev.type == "kakan":
        rel = (pon.from_seat - pon.seat) % 4
        parts = [c(t) for t in order(pon.consumed)]
        pos = {3: 0, 2: 1, 1: 2}[rel]
        parts.insert(pos, "k" + c(ev.tile) + c(pon.tile))
        return "".join(parts)
    raise ValueError(f"not a call: {ev.type}")


def win_header(win: Win, dealer: int) -> str:
    """The ``"30符2飜2000点"`` / ``"満貫2000-4000点"`` / ``"…点∀"`` text of a win."""
    han, fu = win.han or 0, win.fu or 0
    limit = win.limit or ""
    base = base_points(han, fu, limit, win.yakuman)
    if win.tsumo:
        from_dealer, from_other = _tsumo_shares(base, win.seat == dealer)
        value = f"{from_other}点∀" if win.seat == dealer else f"{from_other}-{from_dealer}点"
    else:
        pts = win.points if win.points else _hand_value(base, win.seat == dealer, False)
        value = f"{pts}点"
    if limit:
        name = LIMIT_NAMES_JA[limit]
        if win.yakuman > 1:
            name = f"{win.yakuman}倍役満"
        return name + value
    return f"{fu}符{han}飜{value}"


def _yaku_text(key: str, value: int) -> str:
    if key in YAKU_KEYS:
        name = YAKU_NAMES_JA[YAKU_KEYS.index(key)]
    else:
        other = {"open_riichi": "オープン立直", NUKI_DORA: "抜きドラ"}
        name = other.get(key, key.lstrip("?"))
    if key in YAKUMAN_KEYS:
        return f"{name}(役満)" if value <= 1 else f"{name}({value}倍役満)"
    return f"{name}({value}飜)"


def hand_to_tenhou6(hand: Hand, red) -> list:
    """One hand as a tenhou.net/6 ``log`` entry."""
    red = frozenset(red) - hand.plain_reds

    def c(t: int) -> int:
        return tenhou6_code(t // 4, t in red)

    takes: list[list] = [[], [], [], []]
    discards: list[list] = [[], [], [], []]
    riichi = [False] * 4
    pons: dict[tuple[int, int], Event] = {}
    for ev in hand.events:
        s = ev.seat
        if ev.type == "draw":
            takes[s].append(c(ev.tile))
        elif ev.type == "riichi":
            riichi[s] = True
        elif ev.type == "discard":
            item = 60 if ev.tsumogiri else c(ev.tile)
            discards[s].append(f"r{item}" if riichi[s] else item)
            riichi[s] = False
        elif ev.type in ("chi", "pon", "daiminkan"):
            takes[s].append(_call_string(ev, red))
            if ev.type == "pon":
                pons[(s, ev.tile // 4)] = ev
            if ev.type == "daiminkan":
                discards[s].append(0)
        elif ev.type == "kakan":
            discards[s].append(_call_string(ev, red, pons.get((s, ev.tile // 4))))
        elif ev.type == "ankan":
            discards[s].append(_call_string(ev, red))
        elif ev.type == "kita":
            discards[s].append(KITA_CODE)
    out: list = [
        [hand.round_wind * 4 + hand.kyoku, hand.honba, hand.kyotaku],
        list(hand.scores),
        [c(t) for t in hand.dora_indicators],
        [c(t) for t in hand.ura_indicators],
    ]
    for s in range(4):
        out += [sorted(c(t) for t in hand.haipai[s]), takes[s], discards[s]]
    out.append(_result(hand))
    return out


def _result(hand: Hand) -> list:
    if hand.draw is not None:
        d = hand.draw
        if d.kind == "exhaustive":
            if not any(d.deltas) and d.tenpai is not None:
                return ["全員聴牌" if len(d.tenpai) == hand.players else "全員不聴"]
            return ["流局", list(d.deltas)]
        if d.kind == "nagashi_mangan":
            return ["流し満貫", list(d.deltas)]
        return [DRAW_NAMES_JA[d.kind]]
    res: list = ["和了"]
    for w in hand.wins:
        detail: list = [w.seat, w.from_seat, w.pao_seat if w.pao_seat >= 0 else w.seat]
        if w.han is not None and w.yaku is not None:
            detail.append(win_header(w, hand.dealer))
            detail += [_yaku_text(key, v) for key, v in w.yaku if not (key in DORA_KEYS and v == 0)]
        res += [list(w.deltas), detail]
    return res


def write_tenhou6(game: Game) -> dict:
    """A :class:`Game` as a tenhou.net/6 object (``json.dumps`` it to write a file)."""
    from engine.tiles import red_ids

    red = frozenset(red_ids(game.red_fives))
    disp = game.rules_text or ("般東喰赤" if game.game_length == "tonpuusen" else "般南喰赤")
    if not any(ch in disp for ch in "東南") and "East" not in disp and "South" not in disp:
        disp = ("東" if game.game_length == "tonpuusen" else "南") + disp
    if game.players == 3 and "三" not in disp and "3-Player" not in disp:
        disp = "三" + disp
    rule: dict = {"disp": disp, "aka": int(any(game.red_fives))}
    if game.red_fives != (1, 1, 1):
        rule.update({f"aka5{i + 1}": game.red_fives[i] for i in range(3)})
    out: dict = {"title": ["", ""], "name": list(game.names), "rule": rule}
    if game.log_id:
        out["ref"] = game.log_id
    out["log"] = [hand_to_tenhou6(h, red) for h in game.hands if h.finished]
    if game.final_scores is not None and game.final_results is not None:
        out["sc"] = [v for i in range(4) for v in (game.final_scores[i], game.final_results[i])]
    return out


def viewer_url(obj: dict) -> str:
    """The tenhou.net/6 viewer address that shows this log."""
    from urllib.parse import quote

    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return "https://tenhou.net/6/#json=" + quote(text, safe="")
