"""Engine event logs as records: the log (``engine/events.py`` rows) → :class:`Game` → mjai or
tenhou.net/6 (with the viewer address)."""

from __future__ import annotations

import json

import numpy as np

from engine import events
from engine.melds import MELD_NAMES
from engine.rules import MAHJONGSOUL, Rules
from engine.scoring.payment import hand_value as _hand_value
from engine.scoring.payment import limit_name as _limit_name
from engine.scoring.yaku import YAKU_KEYS as ENGINE_YAKU_KEYS
from riichi_env.records.mjai import dumps_mjai
from riichi_env.records.model import Draw, Event, Game, Hand, Win
from riichi_env.records.tenhou6 import base_points, viewer_url, write_tenhou6
from riichi_env.records.wall import from_engine_wall

DRAW_KIND_NAMES = {
    events.DRAW_EXHAUSTIVE: "exhaustive",
    events.DRAW_NAGASHI: "nagashi_mangan",
    events.DRAW_KYUUSHU: "kyuushu_kyuuhai",
    events.DRAW_SUUFON: "suufon_renda",
    events.DRAW_SUUCHA: "suucha_riichi",
    events.DRAW_SUUKAIKAN: "suukaikan",
    events.DRAW_SANCHAHOU: "sanchahou",
}
"""Engine ``DRAW_*`` code → record draw kind."""


def limit_name(han: int, fu: int, yakuman: int, rules: Rules) -> str:
    """The limit a hand reaches: ``""``, ``"mangan"`` … ``"kazoe yakuman"``, ``"yakuman"``."""
    return "yakuman" if yakuman else _limit_name(han, fu, 0, rules)


def hand_value(win: Win, dealer: int, players: int = 4, tsumo_loss: bool = True) -> int:
    """Ron payment or the sum of tsumo payments, without honba or sticks (three players: the two
    payers' shares, with tsumo loss or north bisection)."""
    base = base_points(win.han or 0, win.fu or 0, win.limit or "", win.yakuman)
    return _hand_value(base, win.seat == dealer, win.tsumo, players, tsumo_loss)


def rules_text(rules: Rules) -> str:
    """Tenhou-style rule text for viewers: players (``三`` for three), length, kuitan, red fives,
    then the preset's name."""
    text = (
        ("三" if rules.players == 3 else "")
        + ("東" if rules.game_length == "tonpuusen" else "南")
        + ("喰" if rules.open_tanyao else "")
    )
    return f"{text}{'赤' if any(rules.red_fives) else ''} {rules.name}"


def game_from_events(
    rows: np.ndarray,
    rules: Rules = MAHJONGSOUL,
    *,
    names: tuple[str, str, str, str] = ("A", "B", "C", "D"),
    source: str = "engine",
) -> Game:
    """A :class:`Game` from an engine event log (finished or still running)."""
    game = Game(
        hands=[],
        names=names,
        game_length=rules.game_length,
        red_fives=rules.red_fives,
        source=source,
        rules_text=rules_text(rules),
        complete=False,
        players=rules.players,
    )
    log = _LogReader(game, rules)
    for kind, s, a, b, c, d, e, f in np.asarray(rows)[:, :8].tolist():
        if kind == events.EV_HAND_START:
            log.hand_start(a, b, c)
        elif kind == events.EV_GAME_END:
            game.final_scores = (a, b, c, d)
            game.complete = True
        elif kind == events.EV_FINAL:
            game.final_results = (a / 10, b / 10, c / 10, d / 10)
        elif log.hand is not None and kind in _ROW_READERS:
            _ROW_READERS[kind](log, s, a, b, c, d, e, f)
    return game


class _LogReader:
    """An engine event log being read: the game, its current hand and win, the wall's rows."""

    def __init__(self, game: Game, rules: Rules):
        self.game, self.rules = game, rules
        self.hand: Hand | None = None
        self.wall_packed = [0] * 35
        self.win: Win | None = None

    def hand_start(self, a: int, b: int, c: int) -> None:
        """A new hand: round and dealer (``a``), honba, sticks."""
        self.hand = Hand(
            round_wind=a // 4,
            kyoku=a % 4,
            honba=b,
            kyotaku=c,
            scores=(0, 0, 0, 0),
            dora_indicators=[],
            haipai=[[], [], [], []],
            players=self.rules.players,
        )
        self.game.hands.append(self.hand)
        self.win = None

    def points(self, s, a, b, c, d, e, f) -> None:
        """The points at the hand's start."""
        self.hand.scores = (a, b, c, d)

    def wall(self, s, a, b, c, d, e, f) -> None:
        """One of the seven rows of the packed wall; the last one unpacks it."""
        hand, wall_packed = self.hand, self.wall_packed
        wall_packed[5 * a : 5 * a + 5] = [b, c, d, e, f]
        if a == 6:
            engine_wall = events.unpack_tiles(wall_packed[:34])
            if len(engine_wall) == 136 and self.rules.players == 3:
                hand.wall, hand.wall_layout = [int(x) for x in engine_wall], "engine"
            elif len(engine_wall) == 136:
                hand.wall = from_engine_wall(engine_wall, hand.dealer)

    def deal(self, s, a, b, c, d, e, f) -> None:
        """A seat's dealt tiles."""
        self.hand.haipai[s] = events.unpack_tiles([a, b, c, d])

    def dora(self, s, a, b, c, d, e, f) -> None:
        """A dora indicator (an event unless it is the first)."""
        self.hand.dora_indicators.append(a)
        if b > 0:
            self.hand.events.append(Event("dora", tile=a))

    def draw(self, s, a, b, c, d, e, f) -> None:
        """A draw (``b``: a replacement draw)."""
        self.hand.events.append(Event("draw", s, a, rinshan=bool(b)))

    def discard(self, s, a, b, c, d, e, f) -> None:
        """A discard (``b``: tsumogiri)."""
        self.hand.events.append(Event("discard", s, a, tsumogiri=bool(b)))

    def kita(self, s, a, b, c, d, e, f) -> None:
        """A North set aside."""
        self.hand.events.append(Event("kita", s, a))

    def riichi(self, s, a, b, c, d, e, f) -> None:
        """A riichi declaration."""
        self.hand.events.append(Event("riichi", s))

    def riichi_accepted(self, s, a, b, c, d, e, f) -> None:
        """A riichi stick paid."""
        self.hand.events.append(Event("riichi_accepted", s))

    def call(self, s, a, b, c, d, e, f) -> None:
        """A call: meld type ``a``, from seat ``b``, called tile ``c``, packed tiles ``d``."""
        mtype = MELD_NAMES[a]
        tiles = events.unpack_tiles([d])
        if mtype == "ankan":
            self.hand.events.append(Event("ankan", s, -1, tuple(sorted(tiles))))
        else:
            rest = list(tiles)
            rest.remove(c)
            self.hand.events.append(Event(mtype, s, c, tuple(sorted(rest)), b))

    def win_row(self, s, a, b, c, d, e, f) -> None:
        """A win: from seat ``a``, winning tile ``b``, han ``c``, fu ``d``, yakuman ``e``, pao
        ``f``."""
        han = 13 * e if e else c
        win = Win(seat=s, from_seat=a, deltas=(0, 0, 0, 0), pao_seat=f, han=han, fu=d, yaku=())
        win.win_tile = b
        win.ura_indicators = ()
        self.hand.wins.append(win)
        win.limit = limit_name(c, d, e, self.rules)
        self.win = win

    def yaku(self, s, a, b, c, d, e, f) -> None:
        """Up to three (yaku, value) pairs of the current win."""
        win = self.win
        if win is not None:
            pairs = [(a, b), (c, d), (e, f)]
            win.yaku = win.yaku + tuple((ENGINE_YAKU_KEYS[y], v) for y, v in pairs if y >= 0)

    def ura(self, s, a, b, c, d, e, f) -> None:
        """The current win's ``a`` ura indicators."""
        win = self.win
        if win is not None:
            win.ura_indicators = tuple((b, c, d, e, f)[:a])
            self.hand.ura_indicators = list(win.ura_indicators)

    def delta(self, s, a, b, c, d, e, f) -> None:
        """Point changes: of the win of seat ``s``, else of the draw."""
        hand, win, rules = self.hand, self.win, self.rules
        if s >= 0 and win is not None and win.seat == s:
            win.deltas = (a, b, c, d)
            win.points = hand_value(win, hand.dealer, rules.players, rules.tsumo_loss)
        elif hand.draw is not None:
            hand.draw.deltas = (a, b, c, d)

    def ryuukyoku(self, s, a, b, c, d, e, f) -> None:
        """A draw of kind ``a``, tenpai seats as the bits of ``b``."""
        tenpai = tuple(x for x in range(4) if b >> x & 1)
        kind_name = DRAW_KIND_NAMES[a]
        self.hand.draw = Draw(
            kind_name,
            (0, 0, 0, 0),
            tenpai if kind_name in ("exhaustive", "nagashi_mangan") else None,
        )

    def hand_end(self, s, a, b, c, d, e, f) -> None:
        """The hand's end."""
        self.win = None


_ROW_READERS = {
    events.EV_POINTS: _LogReader.points,
    events.EV_WALL: _LogReader.wall,
    events.EV_DEAL: _LogReader.deal,
    events.EV_DORA: _LogReader.dora,
    events.EV_DRAW: _LogReader.draw,
    events.EV_DISCARD: _LogReader.discard,
    events.EV_KITA: _LogReader.kita,
    events.EV_RIICHI: _LogReader.riichi,
    events.EV_RIICHI_ACCEPTED: _LogReader.riichi_accepted,
    events.EV_CALL: _LogReader.call,
    events.EV_WIN: _LogReader.win_row,
    events.EV_YAKU: _LogReader.yaku,
    events.EV_URA: _LogReader.ura,
    events.EV_DELTA: _LogReader.delta,
    events.EV_RYUUKYOKU: _LogReader.ryuukyoku,
    events.EV_HAND_END: _LogReader.hand_end,
}
"""Engine event kind → how a row of it inside a hand is read."""


def export_mjai(rows: np.ndarray, rules: Rules = MAHJONGSOUL, **kw) -> str:
    """An engine event log as mjai JSON lines."""
    return dumps_mjai(game_from_events(rows, rules, **kw))


def export_tenhou6(rows: np.ndarray, rules: Rules = MAHJONGSOUL, **kw) -> str:
    """An engine event log as tenhou.net/6 JSON text."""
    obj = write_tenhou6(game_from_events(rows, rules, **kw))
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def export_url(rows: np.ndarray, rules: Rules = MAHJONGSOUL, **kw) -> str:
    """The tenhou.net/6 viewer address of an engine event log."""
    return viewer_url(write_tenhou6(game_from_events(rows, rules, **kw)))
