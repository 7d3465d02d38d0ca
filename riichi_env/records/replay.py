"""Replaying a record through the engine: forced walls, recorded decisions, compared outcomes.

Each hand is dealt from its wall (the record's own for mjlog, else one built to fit the record)
with the record's round, honba, sticks and points. Every recorded decision is turned into an
action id and must be legal in the engine's mask; claims the record does not make are passed.
Then the engine's play (draws, discards, calls, riichi, kan dora) and outcome (winners, han, fu,
yaku, point changes, draw kind, tenpai) are compared with the record, and between hands the
engine's next round, honba, sticks and points. A record that ends its game is also checked for
the game's end (final points and placement scores).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from engine.actions import (
    CHI_HIGH,
    CHI_LOW,
    CHI_MID,
    DISCARD,
    DISCARD_RED,
    KAN,
    KITA,
    KYUUSHU,
    PASS,
    PLAIN_OFFSET,
    PON,
    RIICHI,
    RON,
    TSUMO,
    action_name,
)
from engine.deal import deal_hand
from engine.events import EV_HAND_END
from engine.game import Game as EngineGame
from engine.rules import PRESETS_3P, Rules
from engine.state import PHASE_CLAIM, PHASE_GAME_OVER
from engine.tiles import red_ids
from riichi_env.records.export import game_from_events
from riichi_env.records.model import DORA_KEYS, NUKI_DORA, Game, Hand, RecordError, hand_label
from riichi_env.records.wall import hand_wall, to_engine_wall

MAX_STEPS = 2000
"""Decisions allowed in one hand before the replay gives up on it."""
_MAHJONGSOUL_WORDS = ("room", "雀魂", "mahjong soul", "mahjongsoul", "majsoul")
_TENHOU_RULE_TEXT = re.compile(r"[般上特鳳若銀琥孔技][東南]|天鳳|天凤")
"""Tenhou's rule text: a lobby (般 上 特 鳳 …) then the length (東 or 南), e.g. ``鳳南喰赤``."""
UMA_CHOICES = ((20, 10, -10, -20), (10, 5, -5, -10), (15, 5, -5, -15))
"""Uma of Tenhou lobbies (10-20, 5-10) and Mahjong Soul style (15-5); a finished record's own final
scores tell which one it was played with (``shuffle.xml`` and ``bye.xml`` use 5-10)."""


@dataclass
class Mismatch:
    """One difference between the record and the engine."""

    source: str
    hand: str
    what: str

    def __str__(self) -> str:
        where = f"{self.source}: hand {self.hand}" if self.hand else self.source
        return f"{where}: {self.what}"


@dataclass
class ReplayResult:
    """What a replay found."""

    source: str
    hands: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    mismatched_hands: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        """True when the engine matched the record everywhere."""
        return not self.mismatches


def record_preset(game: Game) -> tuple[str, str]:
    """The preset a record's own rules point to, and why (for ``riichi-env replay``'s report).

    A Tenhou game: an mjlog record (Tenhou's format), or rule text of Tenhou's form (``GO type``
    as text, mjai ``rule_disp``, tenhou.net/6 ``rule.disp``: a lobby and a length such as
    ``鳳南喰赤``, or the word "tenhou"). Mahjong Soul: rule text naming it (``Gold Room South``).
    Otherwise a tenhou.net/6 record is taken as Tenhou's and an mjai record as Mahjong Soul's.
    A Tenhou game that shows it was played before June 2010 gets ``tenhou-2009``
    (:func:`tenhou_era`).
    """
    if game.players == 3:
        return _record_preset_3p(game)
    text = game.rules_text
    low = text.lower()
    if any(w in low for w in _MAHJONGSOUL_WORDS):
        return "mahjongsoul", f"a Mahjong Soul game: rules {text!r}"
    if "tenhou" in low or _TENHOU_RULE_TEXT.search(text):
        why = f"a Tenhou game: rules {text!r}"
    elif game.format == "mjlog":
        why = "a Tenhou mjlog record"
    elif game.format == "tenhou6":
        why = "a tenhou.net/6 record" + (f", rules {text!r}" if text else "")
    else:
        return "mahjongsoul", "the record names no rules: the default preset"
    name, era = tenhou_era(game)
    return name, f"{why}; {era}" if era else why


_MAHJONGSOUL_3P_ROOMS = re.compile(r"三?[銅銀金玉王]の間|三[^東南]*の間")
"""Mahjong Soul's room names as tenhou.net/6 converters write them (``三金の間赤``)."""


def _record_preset_3p(game: Game) -> tuple[str, str]:
    """:func:`record_preset` of a three-player record: ``mahjongsoul-3p`` or ``tenhou-3p``."""
    text = game.rules_text
    low = text.lower()
    if any(w in low for w in _MAHJONGSOUL_WORDS) or _MAHJONGSOUL_3P_ROOMS.search(text):
        return "mahjongsoul-3p", f"a three-player Mahjong Soul game: rules {text!r}"
    if "tenhou" in low or _TENHOU_RULE_TEXT.search(text):
        why = f"a three-player Tenhou game: rules {text!r}"
    elif game.format in ("mjlog", "tenhou6"):
        why = (
            f"a three-player {'Tenhou mjlog' if game.format == 'mjlog' else 'tenhou.net/6'} record"
        )
    else:
        return "mahjongsoul-3p", "a three-player record that names no rules: the default preset"
    return "tenhou-3p", why


TENPAI_YAME_SINCE = "201006"
"""Year and month from which Tenhou ends the game on the all-last dealer's tenpai (tenpai-yame;
announced on its blog on 2010-05-18 for June 2010). Records from before play on (``tenhou-2009``)."""


def tenhou_era(game: Game) -> tuple[str, str]:
    """The Tenhou preset of the era a record shows, and why (``""`` when it shows none).

    A Tenhou log id (tenhou.net/6 ``ref``, mjai ``start_game.log_id``, or the file name, e.g.
    ``2009022022gm-00a9-0000-cd94aac8.mjlog``) dates the game: before June 2010 it is
    ``tenhou-2009`` (no tenpai-yame). Without one, an mjlog record with no ``SHUFFLE`` element
    (mjai ``start_game.mjlog_shuffle: false`` after a conversion) was written before August 2009,
    so it is ``tenhou-2009`` too. Anything else is played under today's ``tenhou`` preset.
    """
    if game.log_id:
        d = game.log_id
        when = f"{d[:4]}-{d[4:6]}-{d[6:8]}"
        if d[:6] < TENPAI_YAME_SINCE:
            return "tenhou-2009", f"log id {d}: played {when}, before tenpai-yame (June 2010)"
        return "tenhou", f"log id {d}: played {when}"
    if game.mjlog_shuffle is False:
        return "tenhou-2009", (
            "no SHUFFLE element: an mjlog record from before August 2009, before tenpai-yame "
            "(June 2010)"
        )
    return "tenhou", ""


def rules_for(game: Game, preset: str | Rules | None = None) -> Rules:
    """The rules a record is replayed under: a preset (``"tenhou"``, ``"tenhou-2009"``,
    ``"mahjongsoul"``, or ``None``/``"auto"`` to choose from the record, :func:`record_preset`)
    with the record's game length, red fives and uma."""
    if isinstance(preset, Rules):
        base = preset
    elif preset in (None, "auto"):
        base = Rules.preset(record_preset(game)[0])
    else:
        base = Rules.preset(preset)
    check_players(game, base)
    changes: dict = {}
    if game.game_length != base.game_length:
        changes["game_length"] = game.game_length
    uma = record_uma(game, base)
    if uma is not None and uma != base.uma:
        changes["uma"] = uma
    if tuple(game.red_fives) != base.red_fives:
        changes["red_fives"] = tuple(game.red_fives)
    if not changes:
        return base
    return base.replace(name=f"{base.name}-record", **changes)


def check_players(game: Game, rules: Rules) -> None:
    """Raise :class:`RecordError` when the record's players and the rules' differ."""
    if game.players != rules.players:
        hint = f" (the three-player presets: {', '.join(PRESETS_3P)})" if game.players == 3 else ""
        raise RecordError(
            f"a {game.players}-player record cannot be replayed with the {rules.players}-player "
            f"rules {rules.name!r}{hint}",
            file=game.source,
        )


def explain_rules(game: Game, preset: str | Rules | None = None) -> tuple[Rules, str]:
    """The rules :func:`replay_game` uses for ``game`` and one line saying which and why,
    e.g. ``"tenhou (a Tenhou game: rules '鳳東喰赤'; tonpuusen, uma 10/5/-5/-10 from the record)"``."""
    rules = preset if isinstance(preset, Rules) else rules_for(game, preset)
    if isinstance(preset, Rules):
        base, why = preset, "as given"
    elif preset in (None, "auto"):
        name, why = record_preset(game)
        base = Rules.preset(name)
    else:
        base, why = Rules.preset(preset), f"--rules {preset}"
    taken = []
    if rules.game_length != base.game_length:
        taken.append(rules.game_length)
    if rules.uma != base.uma:
        taken.append("uma " + "/".join(str(x) for x in rules.uma))
    if rules.red_fives != base.red_fives:
        taken.append("red fives " + "/".join(str(x) for x in rules.red_fives))
    extra = f"; {', '.join(taken)} from the record" if taken else ""
    return rules, f"{base.name} ({why}{extra})"


def record_uma(game: Game, rules: Rules) -> tuple[int, int, int, int] | None:
    """The uma a finished record was scored with: the rules' own, or another Tenhou lobby's
    (``UMA_CHOICES``) when only that one fits its final points and scores; ``None`` if unknown."""
    if game.final_scores is None or game.final_results is None:
        return None
    points = list(game.final_scores)
    choices = UMA_CHOICES if rules.players == 4 else ()
    for uma in (rules.uma, *choices):
        got = placement_scores(points, rules, uma)
        if not _compare_final(got, list(game.final_results), points, rules.players):
            return tuple(uma)
    return None


def placement_scores(points: list[int], rules: Rules, uma=None) -> list[float]:
    """Final scores without rounding: (points − return) / 1000 + uma, oka to first (docs/rules.md).

    With three players the empty seat 3 scores 0. ``uma`` (one value per place) replaces the
    rules' own (``record_uma`` tries the lobbies' without making a ``Rules`` of each)."""
    if uma is None:
        uma = rules.uma
    order = sorted(range(rules.players), key=lambda s: (-points[s], s))
    out = [0.0] * 4
    for rank, s in enumerate(order):
        out[s] = (points[s] - rules.return_points) / 1000 + uma[rank]
        if rank == 0:
            out[s] += rules.oka
    return out


def _kind_red(tile: int, red: frozenset[int]) -> tuple[int, bool]:
    return tile // 4, tile in red


def _action_for_discard(tile: int, red: frozenset[int]) -> int:
    k, is_red = _kind_red(tile, red)
    return DISCARD_RED + k // 9 if is_red else DISCARD + k


def _chi_action(ev) -> int:
    k = ev.tile // 4
    lo = min(min(t // 4 for t in ev.consumed), k)
    return (CHI_LOW, CHI_MID, CHI_HIGH)[k - lo]


class _Stop(Exception):  # noqa: N818
    """The replay of one hand cannot go on."""


def replay_game(game: Game, rules: Rules | str | None = None) -> ReplayResult:
    """Replay every hand of ``game`` in the engine and list the differences.

    ``rules``: a ``Rules`` object is used as given; a preset name (or ``None``/``"auto"``) goes
    through :func:`rules_for`, which takes game length, red fives and uma from the record (and,
    for ``"auto"``, the Tenhou era: :func:`tenhou_era`).
    """
    rules = rules_for(game, rules) if not isinstance(rules, Rules) else rules
    check_players(game, rules)
    result = ReplayResult(source=game.source)
    red = frozenset(red_ids(rules.red_fives))
    eng = EngineGame(rules, seed=0, max_events=8192)
    in_sync = False

    def miss(hand: Hand | None, what: str) -> None:
        label = hand.label if hand is not None else ""
        result.mismatches.append(Mismatch(game.source, label, what))
        if label:
            result.mismatched_hands.add(label)

    for hand in game.hands:
        result.hands += 1
        if in_sync:
            _check_hand_start(eng.state, hand, miss)
        in_sync = _replay_hand(eng, hand, rules, red, miss)
    last = game.hands[-1] if game.hands else None
    if in_sync and last is not None and (game.complete or game.final_scores is not None):
        _check_game_end(eng.state, game, last, rules, miss)
    return result


def _check_hand_start(st, hand: Hand, miss) -> None:
    """The engine's next hand (round, honba, sticks, points) against the record's."""
    if st.game_over[0]:
        miss(hand, "the engine ended the game before this hand")
        return
    got = (
        int(st.kyoku[0]),
        int(st.honba[0]),
        int(st.kyotaku[0]),
        tuple(int(x) for x in st.points[0]),
    )
    want = (hand.round_wind * 4 + hand.kyoku, hand.honba, hand.kyotaku, tuple(hand.scores))
    if got != want:
        miss(
            hand,
            f"hand start: engine has {hand_label(got[0] // 4, got[0] % 4, got[1])} sticks {got[2]} "
            f"points {list(got[3])}, record has {hand.label} sticks {hand.kyotaku} "
            f"points {list(hand.scores)}",
        )


def _replay_hand(eng: EngineGame, hand: Hand, rules: Rules, red: frozenset[int], miss) -> bool:
    """Deal one hand from its wall, play the record's decisions and compare the outcome;
    whether the engine is still in step with the record after it."""
    st = eng.state
    try:
        wall, layout = hand_wall(hand)
    except RecordError as exc:
        miss(hand, f"wall: {exc.detail}")
        return False
    clear = int(st.n_events[0]) > st.events.shape[1] - 1500
    start = 0 if clear else int(st.n_events[0])
    try:
        deal_hand(
            st,
            to_engine_wall(wall, layout, hand.dealer),
            kyoku=hand.round_wind * 4 + hand.kyoku,
            honba=hand.honba,
            kyotaku=hand.kyotaku,
            points=hand.scores,
            clear_log=clear,
        )
    except ValueError as exc:
        miss(hand, f"hand start: {exc}")
        return False
    try:
        _drive(eng, hand, red, start)
    except (_Stop, ValueError) as exc:
        miss(hand, str(exc))
        return False
    rows = np.array(st.events[0, start : int(st.n_events[0])])
    if not hand.finished:  # the record stops inside this hand: up to there
        engine_hand = game_from_events(rows, rules).hands[0]
        for what in compare_cut_hand(hand, engine_hand, red):
            miss(hand, what)
        return False  # no result to go on from
    end = next((i for i, r in enumerate(rows) if r[0] == EV_HAND_END), None)
    if end is None:
        miss(hand, "the engine did not end the hand where the record does")
        return False
    engine_hand = game_from_events(rows[: end + 1], rules).hands[0]
    for what in compare_hands(hand, engine_hand, red):
        miss(hand, what)
    return True


def _check_game_end(st, game: Game, last: Hand, rules: Rules, miss) -> None:
    """The engine's end of the game (final points, placement scores) against the record's."""
    if not st.game_over[0]:
        miss(last, "the record ends the game here but the engine goes on")
    elif game.final_scores is not None:
        pts = tuple(int(x) for x in st.points[0])
        if pts != tuple(game.final_scores):
            miss(last, f"final points: engine {list(pts)}, record {list(game.final_scores)}")
        if game.final_results is not None:
            got = [float(x) for x in st.final_scores[0]]
            for what in _compare_final(got, list(game.final_results), pts, rules.players):
                miss(last, what)


def _compare_final(got: list[float], want: list[float], points, players: int = 4) -> list[str]:
    """Placement scores; Tenhou rounds each non-top score to whole thousands, so allow that."""
    top = max(range(players), key=lambda s: (points[s], -s))
    exact = any(abs(w - round(w)) > 1e-9 for w in want)
    out = []
    for s in range(4):
        slack = 1e-6 if exact else (1.5 if s == top else 0.5)
        if abs(got[s] - want[s]) > slack + 1e-9:
            out.append(f"final score of seat {s}: engine {got[s]:+.1f}, record {want[s]:+.1f}")
    return out


def _drive(eng: EngineGame, hand: Hand, red: frozenset[int], start: int) -> None:
    """Feed the record's decisions to the engine until the hand ends."""
    _Driver(eng, hand, red, start).run()


class _Driver:
    """One hand's record decisions fed to the engine; ``i`` is the next record event."""

    def __init__(self, eng: EngineGame, hand: Hand, red: frozenset[int], start: int):
        self.eng, self.st, self.hand, self.red, self.start = eng, eng.state, hand, red, start
        self.evs = [e for e in hand.events if e.type not in ("dora", "riichi_accepted")]
        self.i = 0
        self.ron_seats = {(w.seat, w.from_seat) for w in hand.wins if not w.tsumo}
        self.sanchahou = hand.draw is not None and hand.draw.kind == "sanchahou"

    def ended(self) -> bool:
        """Whether the engine has ended the hand."""
        st = self.st
        n = int(st.n_events[0])
        return bool(np.any(st.events[0, self.start : n, 0] == EV_HAND_END))

    def run(self) -> None:
        """Step the engine with each decision until the hand ends or the record stops."""
        st, evs, red = self.st, self.evs, self.red
        for _ in range(MAX_STEPS):
            if self.ended() or st.phase[0] == PHASE_GAME_OVER:
                if self.i < len(evs):
                    raise _Stop(
                        f"the engine ended the hand at record event {self.i} "
                        f"({_describe(evs[self.i], red)})"
                    )
                return
            actor = int(st.actor[0])
            mask = self.eng.legal_mask()
            action = self._claim(actor, mask) if st.phase[0] == PHASE_CLAIM else self._turn(actor)
            if action is None:
                return  # the record stops here
            if not mask[action]:
                raise _Stop(
                    f"record event {min(self.i, len(evs)) - (0 if action in (RON, TSUMO, KYUUSHU, PASS) else 1)}: "
                    f"{action_name(action)} by seat {actor} is not legal in the engine"
                    f" ({self.eng.explain(action) or 'masked out'})"
                )
            self.eng.step(action)
        raise _Stop(f"more than {MAX_STEPS} decisions")

    def _claim(self, actor: int, mask) -> int | None:
        """The seat's answer to a discard (or kan) it may claim: the recorded call, a ron the
        record has, else pass; None when the record stops before the offer was answered."""
        st, evs, red = self.st, self.evs, self.red
        tile = int(st.claim_tile[0])
        frm = int(st.claim_from[0])
        rec = evs[self.i] if self.i < len(evs) else None
        if rec is None and not self.hand.finished:
            return None
        if (
            rec is not None
            and rec.type in ("chi", "pon", "daiminkan")
            and rec.seat == actor
            and rec.from_seat == frm
            and rec.tile // 4 == tile // 4
        ):
            action = (
                PON
                if rec.type == "pon"
                else KAN + tile // 4
                if rec.type == "daiminkan"
                else _chi_action(rec)
            )
            if (
                rec.type != "daiminkan"
                and mask[action + PLAIN_OFFSET]
                and not any(c in red for c in rec.consumed)
            ):
                action += PLAIN_OFFSET
            self.i += 1
            return action
        if rec is None and ((actor, frm) in self.ron_seats or (self.sanchahou and mask[RON])):
            return RON
        return PASS

    def _turn(self, actor: int) -> int | None:
        """The recorded play of the seat on turn (draws are the engine's); when the record has
        no more plays, how the hand ends; None when the record stops here."""
        evs, red = self.evs, self.red
        while self.i < len(evs) and evs[self.i].type == "draw":
            self.i += 1
        i = self.i
        rec = evs[i] if i < len(evs) else None
        if rec is None and not self.hand.finished:
            return None
        if rec is None:
            return self._last_action(actor)
        if rec.seat != actor:
            raise _Stop(
                f"record event {i} is {_describe(rec, red)}, but the engine asks seat {actor} to play"
            )
        if rec.type == "riichi":
            action = RIICHI
        elif rec.type == "discard":
            action = _action_for_discard(rec.tile, red)
        elif rec.type in ("ankan", "kakan"):
            action = KAN + rec.consumed[0] // 4
        elif rec.type == "kita":
            action = KITA
        else:
            raise _Stop(f"record event {i} is {_describe(rec, red)} on seat {actor}'s turn")
        self.i += 1
        return action

    def _last_action(self, actor: int) -> int:
        """The seat on turn's action after the record's last play: its tsumo or kyuushu kyuuhai."""
        hand = self.hand
        if any(w.tsumo and w.seat == actor for w in hand.wins):
            return TSUMO
        if hand.draw is not None and hand.draw.kind == "kyuushu_kyuuhai":
            return KYUUSHU
        if self.ron_seats:
            wins = ", ".join(f"seat {w} from seat {f}" for w, f in sorted(self.ron_seats))
            raise _Stop(f"the engine offered no ron where the record has one ({wins})")
        raise _Stop(f"the record has no more actions but the engine asks seat {actor} to play")


def _describe(ev, red) -> str:
    from riichi_env.records.model import tile_text

    tile = f" {tile_text(ev.tile, red)}" if ev.tile >= 0 else ""
    return f"{ev.type}{tile} by seat {ev.seat}" if ev.seat >= 0 else f"{ev.type}{tile}"


def _stream(hand: Hand, red) -> list[tuple]:
    out = []
    for e in hand.events:
        if e.type == "dora":
            continue
        tile = _kind_red(e.tile, red) if e.tile >= 0 else None
        consumed = tuple(sorted(_kind_red(t, red) for t in e.consumed))
        out.append(
            (e.type, e.seat, tile, consumed, e.from_seat if e.type != "kakan" else -1, e.rinshan)
        )
    return out


def _yaku_set(yaku) -> dict[str, int]:
    """Yaku as a dict; kita dora named apart (``nuki_dora``) counts as ``dora``, as Tenhou and
    the engine count it."""
    out: dict[str, int] = {}
    for k, v in yaku or ():
        k = "dora" if k == NUKI_DORA else k
        out[k] = out.get(k, 0) + v
    return {k: v for k, v in out.items() if not (k in DORA_KEYS and v == 0)}


def compare_cut_hand(rec: Hand, eng: Hand, red: frozenset[int]) -> list[str]:
    """Differences between a hand the record stops inside and the engine's play of it up to
    there (the engine may have drawn or revealed more after the record's last move)."""
    a, b = _stream(rec, red), _stream(eng, red)
    while a and a[-1][0] == "riichi_accepted":  # paid once the discard passes: after the cut
        a.pop()
    for n, x in enumerate(a):
        if n >= len(b) or x != b[n]:
            other = _fmt(b[n]) if n < len(b) else "nothing"
            return [f"event {n}: record {_fmt(x)}, engine {other}"]
    rd = [_kind_red(t, red) for t in rec.dora_indicators]
    ed = [_kind_red(t, red) for t in eng.dora_indicators]
    if rd != ed[: len(rd)]:
        return [f"dora indicators: record {_tiles(rd)}, engine {_tiles(ed)}"]
    return []


def compare_hands(rec: Hand, eng: Hand, red: frozenset[int]) -> list[str]:
    """Differences between a recorded hand and the engine's play of it."""
    out: list[str] = []
    a, b = _stream(rec, red), _stream(eng, red)
    for n, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            out.append(f"event {n}: record {_fmt(x)}, engine {_fmt(y)}")
            break
    else:
        if len(a) != len(b):
            out.append(f"record has {len(a)} events, engine {len(b)}")
    rd = [_kind_red(t, red) for t in rec.dora_indicators]
    ed = [_kind_red(t, red) for t in eng.dora_indicators]
    if rd != ed:
        out.append(
            f"dora indicators: record {len(rd)}, engine {len(ed)} ({_tiles(rd)} / {_tiles(ed)})"
        )
    rw = {(w.seat, w.from_seat): w for w in rec.wins}
    ew = {(w.seat, w.from_seat): w for w in eng.wins}
    if set(rw) != set(ew):
        out.append(f"winners (seat, from): record {sorted(rw)}, engine {sorted(ew)}")
    for key in sorted(set(rw) & set(ew)):
        r, e = rw[key], ew[key]
        who = f"win by seat {key[0]}"
        if r.deltas != e.deltas:
            out.append(f"{who}: point changes record {list(r.deltas)}, engine {list(e.deltas)}")
        if r.han is not None and r.yakuman == 0 and r.han != e.han:
            out.append(f"{who}: han record {r.han}, engine {e.han}")
        if (
            r.fu is not None
            and r.yakuman == 0
            and e.yakuman == 0
            and (r.han or 0) < 5
            and r.fu != e.fu
        ):
            out.append(f"{who}: fu record {r.fu}, engine {e.fu}")
        if r.yaku is not None and _yaku_set(r.yaku) != _yaku_set(e.yaku):
            out.append(f"{who}: yaku record {_yaku_set(r.yaku)}, engine {_yaku_set(e.yaku)}")
        if r.ura_indicators and e.ura_indicators:
            ru = [_kind_red(t, red) for t in r.ura_indicators]
            eu = [_kind_red(t, red) for t in e.ura_indicators]
            if ru != eu:
                out.append(f"{who}: ura indicators record {_tiles(ru)}, engine {_tiles(eu)}")
        if r.pao_seat != e.pao_seat:
            out.append(f"{who}: pao record {r.pao_seat}, engine {e.pao_seat}")
    if (rec.draw is None) != (eng.draw is None):
        out.append(
            f"result: record {'draw' if rec.draw else 'win'}, engine {'draw' if eng.draw else 'win'}"
        )
    elif rec.draw is not None and eng.draw is not None:
        if rec.draw.kind != eng.draw.kind:
            out.append(f"draw kind: record {rec.draw.kind}, engine {eng.draw.kind}")
        if rec.draw.deltas != eng.draw.deltas:
            out.append(
                f"draw payments: record {list(rec.draw.deltas)}, engine {list(eng.draw.deltas)}"
            )
        if (
            rec.draw.kind == "exhaustive"
            and rec.draw.tenpai is not None
            and eng.draw.tenpai is not None
            and set(rec.draw.tenpai) != set(eng.draw.tenpai)
        ):
            out.append(
                f"tenpai seats: record {sorted(rec.draw.tenpai)}, engine {sorted(eng.draw.tenpai)}"
            )
    if not out and rec.deltas != eng.deltas:
        out.append(f"point changes: record {list(rec.deltas)}, engine {list(eng.deltas)}")
    return out


def _tiles(ts) -> str:
    from engine.tiles import tile34_to_str

    return " ".join(f"0{'mps'[k // 9]}" if r else tile34_to_str(k) for k, r in ts)


def _fmt(x: tuple) -> str:
    typ, seat, tile, consumed, frm, _ = x
    parts = [typ, f"seat {seat}" if seat >= 0 else ""]
    if tile is not None:
        parts.append(_tiles([tile]))
    if consumed:
        parts.append(f"[{_tiles(consumed)}]")
    if frm >= 0:
        parts.append(f"from {frm}")
    return " ".join(p for p in parts if p)


def replay_file(path, rules: Rules | str | None = None, walls=None) -> ReplayResult:
    """Read and replay one record file (``RecordError`` if it cannot be read)."""
    from riichi_env.records.convert import read_file

    return replay_game(read_file(path, walls=walls), rules)
