"""Mortal's libriichi as a second referee (tests only: the ``mjai`` package is AGPL and test-only).

A game is played by the engine's own kernels (``_legal_mask``, the compiled policies' ``_choose``,
``_apply``), so it is the game ``riichi_env.selfplay`` plays with those compiled policies and that
seed. At every decision the seat's mask is kept with what the seat is shown: its concealed and
visible tiles (the kernels of ``SeatView``), honba and riichi sticks, and on a claim its whole
``SeatView`` and the ``rich_v0`` rows shanten, waits and furiten, next to the engine's own waits
and furiten. The log is converted to mjai events as a bot seat is sent them (``riichi_env.mjai.seat.game_events``, ``riichi_env.mjai.protocol.seat_events``) and
each seat's stream is fed to ``mjai.mlibriichi.state.PlayerState(seat)``:

- after every event libriichi's ``ActionCandidate`` must be a decision of that seat exactly when
  the engine asks the seat one, and then agree with the mask: discards (libriichi's discard
  candidates: ``forbidden_tiles`` for kuikae, the riichi declaration, red fives), riichi, tsumo,
  ron, each chi shape, pon, each kan, kyuushu kyuuhai and pass;
- the seat's concealed tiles and red fives, the tiles it has seen, honba and riichi sticks, its
  shanten and waits (those of the last 3n+1 hand: the hand on a claim, before the draw on its
  turn), and on a claim its points, round and seat wind and furiten must agree;
- the mjai answer of the action taken (``riichi_env.mjai.protocol.action_to_answer``) must pass
  ``validate_reaction``.

What does not agree is a :class:`Difference`. The rule choices where libriichi plays other rules
than ``docs/rules.md`` are the narrow predicates of :data:`RULE_CHOICES` (``docs/rules.md``,
"Differences with libriichi"); any other difference fails the tests.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from engine import actions as A  # noqa: N812
from engine.deal import _reset
from engine.events import (
    EV_CALL,
    EV_DISCARD,
    EV_DORA,
    EV_DRAW,
    EV_HAND_START,
    EV_RIICHI,
    EV_RIICHI_ACCEPTED,
    EV_RYUUKYOKU,
    EV_WIN,
)
from engine.harness.selfplay import (
    ACTION_STREAM,
    POLICY_EFFICIENCY,
    POLICY_GREEDY,
    POLICY_UNIFORM,
    _choose,
)
from engine.legality import _decomposes, _legal_mask
from engine.rules import Rules, as_rules
from engine.shanten import _shanten, _waits
from engine.state import (
    CLAIM_ANKAN,
    CLAIM_CHANKAN,
    CLAIM_DISCARD,
    DEFAULT_MAX_EVENTS,
    PHASE_CLAIM,
    PHASE_GAME_OVER,
    PHASE_NAMES,
    PHASE_TURN,
    State,
    new_state,
)
from engine.tables import load_tables
from engine.tiles import hand34_to_str, red_ids, tile34_to_str
from engine.turn import _apply
from engine.visibility import SeatView, _furiten, _visible34, seat_view
from engine.wall import _rng_seed
from riichi_env.core.encoders import FURITEN, N_RICH, SEEN, SHANTEN, WAITS, _encode_rich
from riichi_env.mjai.protocol import action_to_answer, seat_events
from riichi_env.mjai.seat import game_events
from riichi_env.records.notation import from_mjai_name

POLICY_NAMES = {POLICY_UNIFORM: "random", POLICY_GREEDY: "greedy", POLICY_EFFICIENCY: "efficiency"}
MORTAL_OBS_VERSION = 3
"""``PlayerState.encode_obs`` version read for libriichi's riichi declaration discards (its mask
is ``discard_candidates_aka`` in every version)."""
CLAIM_NAMES = {
    CLAIM_DISCARD: "claim on a discard",
    CLAIM_CHANKAN: "claim on an added kan (chankan)",
    CLAIM_ANKAN: "claim on a closed kan (kokushi)",
}
_ROW_EVENTS = {
    EV_DRAW: ("tsumo",),
    EV_DISCARD: ("dahai",),
    EV_RIICHI: ("reach",),
    EV_RIICHI_ACCEPTED: ("reach_accepted",),
    EV_CALL: ("chi", "pon", "daiminkan", "kakan", "ankan"),
    EV_DORA: ("dora",),
}
NONE_ANSWER = '{"type":"none"}'


class Kinds(frozenset):
    """Tile kinds, shown in mpsz."""

    def __str__(self) -> str:
        return " ".join(tile34_to_str(k) for k in sorted(self)) or "none"


class Discards(tuple):
    """A discard mask over ids 0-36 (plain kinds, then red 5m 5p 5s), shown in mpsz."""

    def __str__(self) -> str:
        names = [
            tile34_to_str(a) if a < 34 else f"0{'mps'[a - 34]}" for a, x in enumerate(self) if x
        ]
        return " ".join(names) or "none"


class Counts(tuple):
    """Copies per kind, shown as ``5mx3``."""

    def __str__(self) -> str:
        return " ".join(f"{tile34_to_str(k)}x{c}" for k, c in enumerate(self) if c)


class Decision(NamedTuple):
    """One decision of the engine and what the seat was shown then."""

    n_rows: int
    """Event-log rows written when the seat was asked."""
    seat: int
    phase: int
    mask: np.ndarray
    hand34: list[int]
    """Concealed tiles per kind (the drawn one included): ``SeatView.hand34``."""
    reds: list[bool]
    """A red 5m, 5p, 5s among the concealed tiles."""
    drawn: int
    """tile136 just drawn on the own turn, -1 after a call and on a claim."""
    claim_tile: int
    seen34: list[int]
    """Tiles the seat sees per kind: ``SeatView.hand34 + SeatView.visible34``."""
    waits: list[int]
    """The engine's waits of the seat's last 3n+1 hand (the record's ``waits``)."""
    furiten: bool
    """``engine.visibility._furiten``: the engine's furiten, which blocks ron."""
    rich: tuple[int, list[int], bool] | None
    """On a claim, the ``rich_v0`` rows the seat is shown: shanten, waits, furiten."""
    riichi: int
    """The seat's riichi (0 none, 1 riichi, 2 double riichi), set at the declaration."""
    claim_kind: int
    """``CLAIM_*`` of a claim, -1 on the own turn."""
    honba: int
    kyotaku: int
    view: SeatView | None
    """On a claim, the seat's ``SeatView`` (``engine.visibility.seat_view``)."""
    answer: str = ""
    """The mjai answer of the action taken (``riichi_env.mjai.protocol.action_to_answer``)."""


class Difference(NamedTuple):
    """Where libriichi and the engine disagree, with what a person needs to replay it."""

    preset: str
    seed: int
    """The game's seed, -1 for a scenario."""
    label: str
    """The seats' policies (``random/greedy/efficiency/random``) or the scenario's name."""
    seat: int
    hand: str
    """Round, hand and honba, e.g. ``E2-1``."""
    event: str
    """The mjai event the decision answers, as the seat saw it."""
    what: str
    ours: Any
    theirs: Any
    tehai: str
    """The seat's concealed tiles in mpsz (libriichi's view), then its melds."""
    decision: Decision | None = None
    facts: frozenset[str] = frozenset()
    """What the replay knew about the seat then (``"passed kokushi chankan"``)."""
    rule: str = ""
    """The :data:`RULE_CHOICES` key that explains it, "" when unexplained."""

    def line(self) -> str:
        rule = f" [rule choice: {self.rule}]" if self.rule else ""
        where = f"seed {self.seed}" if self.seed >= 0 else "scenario"
        return (
            f"{self.preset} {where} ({self.label}) seat {self.seat} {self.hand} after "
            f"{self.event}: {self.what}: ours {self.ours}, libriichi {self.theirs}; "
            f"hand {self.tehai}{rule}"
        )


def seat_policies(seed: int) -> np.ndarray:
    """The seats' compiled policies in game ``seed``: random, greedy and efficiency rotated over
    the seats, and every fourth game all random (the most calls and kans)."""
    cycle = (POLICY_UNIFORM, POLICY_GREEDY, POLICY_EFFICIENCY)
    if seed % 4 == 3:
        return np.full(4, POLICY_UNIFORM, dtype=np.int64)
    return np.array([cycle[(seed + s) % 3] for s in range(4)], dtype=np.int64)


class Table:
    """One engine table played decision by decision, keeping every decision.

    ``state`` is a one-table ``State`` to play on (a scenario's ``Game.state``); by default a new
    one for ``rules``.
    """

    def __init__(self, rules: Rules, state: State | None = None):
        self.rules = rules
        self.tables = load_tables()
        self.state = state if state is not None else new_state(1, rules, DEFAULT_MAX_EVENTS)
        self.mask = np.zeros(A.N_ACTIONS, dtype=np.int8)
        self.rng = np.zeros(2, dtype=np.int64)
        self.visible = np.zeros(34, dtype=np.uint8)
        self.obs = np.zeros((N_RICH, 34), dtype=np.float32)
        reds = red_ids(rules.red_fives)
        self.red_ids = np.array(reds, dtype=np.int64)
        self.red_suit = [t // 36 for t in reds]

    def decision(self) -> tuple[Decision, int]:
        """The decision now pending (its mask in ``self.mask``) and its number of legal actions."""
        st, tables, mask, visible, obs = (
            self.state.records,
            self.tables,
            self.mask,
            self.visible,
            self.obs,
        )
        rec = st[0]
        n = _legal_mask(st, 0, tables, mask)
        seat = int(rec["actor"])
        phase = int(rec["phase"])
        claim = phase == PHASE_CLAIM
        _visible34(st, 0, seat, False, visible)
        hand = rec["closed34"][seat]
        reds = [False, False, False]
        for i, held in zip(self.red_suit, rec["closed"][seat][self.red_ids].tolist(), strict=True):
            reds[i] |= bool(held)
        rich = view = None
        if claim:
            view = seat_view(self.state, seat, 0)
            _encode_rich(st, 0, seat, tables.shanten_suit, tables.shanten_honor, False, obs)
            rich = (
                round(float(obs[SHANTEN, 0]) * 7) - 1,
                obs[WAITS].astype(np.int64).tolist(),
                bool(obs[FURITEN, 0]),
            )
            # the seen row is the seat view's hand plus visible tiles, over four
            if np.rint(obs[SEEN] * 4).astype(np.int64).tolist() != (hand + visible).tolist():
                raise AssertionError("rich_v0's seen row is not SeatView hand34 + visible34")
        d = Decision(
            int(rec["n_events"]),
            seat,
            phase,
            mask.copy(),
            hand.tolist(),
            reds,
            -1 if claim else int(rec["drawn"]),
            int(rec["claim_tile"]) if claim else -1,
            (hand + visible).tolist(),
            rec["waits"][seat].tolist(),
            bool(_furiten(st, 0, seat)),
            rich,
            int(rec["riichi"][seat]),
            int(rec["claim_kind"]) if claim else -1,
            int(rec["honba"]),
            int(rec["kyotaku"]),
            view,
        )
        return d, n

    def apply(self, d: Decision, action: int) -> Decision:
        """Apply ``action`` at decision ``d``; return ``d`` with the mjai answer of it."""
        answer = action_to_answer(action, self.state, 0, d.seat)
        _apply(self.state.records, 0, self.state.events, self.tables, action)
        return d._replace(answer=json.dumps(answer, separators=(",", ":")))

    def log(self) -> np.ndarray:
        rec = self.state.records[0]
        if int(rec["ev_overflow"]):
            raise RuntimeError("the event log overflowed")
        return np.array(self.state.events[0, : int(rec["n_events"])])

    def play(self, seed: int, policies: np.ndarray) -> tuple[np.ndarray, list[Decision]]:
        """Play game ``seed`` with compiled ``policies`` (by seat): its log and every decision."""
        st, ev, tables, mask, rng = (
            self.state.records,
            self.state.events,
            self.tables,
            self.mask,
            self.rng,
        )
        rec = st[0]
        _rng_seed(rng, np.int64(seed), ACTION_STREAM)
        _reset(st, 0, ev, tables, np.int64(seed))
        decisions = []
        while rec["phase"] != PHASE_GAME_OVER:
            d, n = self.decision()
            action = _choose(st, 0, tables, mask, n, policies[d.seat], rng)
            decisions.append(self.apply(d, action))
        return self.log(), decisions

    def play_moves(self, game, moves: list[str]) -> tuple[np.ndarray, list[Decision]]:
        """From scenario ``game`` (on this table's state) play ``moves``, then stop; the log so
        far and every decision, the one left pending included.

        A move is the text of ``engine.harness.scenario.action_id`` (``"2z"``, ``"riichi"``,
        ``"kan 1m"``, ``"pass"``), ``"-"`` discards the drawn tile, and ``"*"`` passes every
        claim until a seat's turn.
        """
        from engine.harness.scenario import action_id

        decisions = []
        queue = list(moves)
        while queue and not game.done:
            d, _ = self.decision()
            move = queue[0]
            if move == "*" and d.phase != PHASE_CLAIM:
                queue.pop(0)
                continue
            if move != "*":
                queue.pop(0)
            if move == "*":
                action = A.PASS
            elif move == "-":
                red = d.drawn in self.red_ids
                action = A.DISCARD_RED + d.drawn // 36 if red else d.drawn // 4
            else:
                action = action_id(game, move)
            if not d.mask[action]:
                raise ValueError(f"move {move!r} of seat {d.seat}: {game.explain(action)}")
            decisions.append(self.apply(d, action))
        if not game.done:
            decisions.append(self.decision()[0])
        return self.log(), decisions


def row_events(rows: np.ndarray, events: list[dict]) -> np.ndarray:
    """For each log row, the index of the mjai event written for it (-1 for none).

    Play rows map one to one, in order, onto the events of their hand, except that an open
    kan's indicator, logged after the discard it comes with, may be written just before that
    ``dahai`` (as Mortal's arena sends it). A row whose event has another type or actor raises
    ``AssertionError`` (a converter bug).
    """
    out = np.full(len(rows), -1, dtype=np.int64)
    j = -1
    in_play = False
    early_dora = -1  # a dora event written before the dahai of the discard row just mapped
    for i, r in enumerate(rows.tolist()):
        kind = r[0]
        if kind == EV_HAND_START:
            j += 1
            while events[j]["type"] != "start_kyoku":
                j += 1
            in_play = False
        elif kind == EV_DORA and not in_play:
            in_play = True  # the first indicator is in start_kyoku
            out[i] = j
        elif kind == EV_DORA and early_dora >= 0:
            out[i] = early_dora
            early_dora = -1
        elif in_play and kind in _ROW_EVENTS:
            j += 1
            e = events[j]
            if kind != EV_DORA and e["type"] == "dora" and early_dora < 0:
                early_dora, j = j, j + 1
                e = events[j]
            assert e["type"] in _ROW_EVENTS[kind], f"row {i} {r} written as {e}"
            assert kind == EV_DORA or e["actor"] == r[1], f"row {i} {r} written as {e}"
            out[i] = j
        elif kind in (EV_WIN, EV_RYUUKYOKU):
            in_play = False
    assert early_dora < 0, "a dora event before a dahai without its indicator row"
    return out


def seat_lines(events: list[dict]) -> list[list[str]]:
    """Each seat's event stream as JSON lines (``seat_events``, each event dumped once)."""
    dump = json.JSONEncoder(separators=(",", ":")).encode
    base = [dump(e) for e in events]
    own = [i for i, e in enumerate(events) if e["type"] in ("start_game", "start_kyoku")]
    draws = [(i, e["actor"]) for i, e in enumerate(events) if e["type"] == "tsumo"]
    out = []
    for seat in range(4):
        lines = list(base)
        for i in own:
            lines[i] = dump(seat_events([events[i]], seat)[0])
        hidden: dict[int, str] = {}
        for i, actor in draws:
            if actor != seat:
                if actor not in hidden:
                    hidden[actor] = dump(seat_events([events[i]], seat)[0])
                lines[i] = hidden[actor]
        out.append(lines)
    return out


def libriichi_discards(ps) -> list[bool]:
    """libriichi's legal discards as a mask of ids 0-36 (plain kinds, then red 5m 5p 5s).

    After its riichi is accepted only the drawn tile (``last_self_tsumo``); on the declaration
    discard the mask of ``encode_obs`` (its tenpai-keeping discards); otherwise every held kind
    that ``forbidden_tiles`` (kuikae) allows, a held red five as its own discard and the plain
    five only while a plain copy is held: what ``encode_obs`` gives there too, only cheaper.
    """
    if ps.self_riichi_accepted:
        kind, red = from_mjai_name(ps.last_self_tsumo())
        out = [False] * A.N_DISCARD_ACTIONS
        out[A.DISCARD_RED + kind // 9 if red else kind] = True
        return out
    if ps.self_riichi_declared:
        return ps.encode_obs(MORTAL_OBS_VERSION, False)[1][: A.N_DISCARD_ACTIONS].tolist()
    tehai, forbidden, akas = ps.tehai, ps.forbidden_tiles, ps.akas_in_hand
    out = [tehai[k] > 0 and not forbidden[k] for k in range(34)] + [False] * 3
    for suit, five in enumerate((4, 13, 22)):
        if out[five] and akas[suit]:
            out[A.DISCARD_RED + suit] = True
            out[five] = tehai[five] > 1
    return out


def _cans(cans) -> str:
    names = (
        "discard",
        "chi_low",
        "chi_mid",
        "chi_high",
        "pon",
        "daiminkan",
        "kakan",
        "ankan",
        "riichi",
        "tsumo_agari",
        "ron_agari",
        "ryukyoku",
    )
    return "+".join(n for n in names if getattr(cans, "can_" + n))


class Referee:
    """Plays one preset's games and compares them with libriichi, collecting differences."""

    def __init__(self, preset: str):
        from mjai.mlibriichi.state import PlayerState

        self.PlayerState = PlayerState
        self.preset = preset
        self.rules = as_rules(preset)
        self.table = Table(self.rules)
        self.suit = self.table.tables.shanten_suit
        self.honor = self.table.tables.shanten_honor
        self.scratch = np.zeros(34, dtype=np.uint8)
        self.differences: list[Difference] = []
        self.seen: Counter[str] = Counter()
        """How often each compared situation came up (where both sides agree it is there)."""
        self.decisions = 0
        self.games = 0
        self.scenario_decisions: list[Decision] = []
        """The decisions of the last scenario."""

    def run(self, seeds: range) -> Referee:
        """Play and compare games ``seeds``, each with ``seat_policies(seed)``."""
        for seed in seeds:
            self.game(seed, seat_policies(seed))
        return self

    def unexplained(self) -> list[Difference]:
        """The differences no rule choice explains."""
        return [d for d in map(explain, self.differences) if not d.rule]

    def shanten(self, hand34: list[int]) -> int:
        return int(_shanten(np.array(hand34, dtype=np.uint8), self.suit, self.honor))

    def waits(self, hand34: list[int]) -> Kinds:
        _waits(np.array(hand34, dtype=np.uint8), self.suit, self.honor, self.scratch)
        return Kinds(np.flatnonzero(self.scratch).tolist())

    def game(self, seed: int, policies: np.ndarray) -> None:
        """Play game ``seed`` with compiled ``policies`` and compare it."""
        rows, decisions = self.table.play(seed, policies)
        self.compare_log(rows, decisions, (seed, "/".join(POLICY_NAMES[int(p)] for p in policies)))
        self.games += 1

    def scenario(self, game, moves: list[str], label: str = "scenario") -> list[Difference]:
        """Play ``moves`` from scenario ``game`` (``Table.play_moves``) and compare them; the
        differences found, each with the rule choice that explains it."""
        rows, decisions = Table(self.rules, game.state).play_moves(game, moves)
        self.scenario_decisions = decisions
        start = len(self.differences)
        self.compare_log(rows, decisions, (-1, label))
        return [explain(d) for d in self.differences[start:]]

    def compare_log(self, rows, decisions, context, events: list[dict] | None = None) -> None:
        """Feed the log's mjai events (``events``, by default ``game_events``) to each seat's
        ``PlayerState``; compare every decision."""
        if events is None:
            events = game_events(rows, self.rules)
        index = row_events(rows, events)
        # a decision answers its log's last play row other than a kan indicator (an open kan's
        # indicator is logged after the discard it comes with), and sees every event before it
        answers = np.maximum.accumulate(np.where(rows[:, 0] != EV_DORA, index, -1))
        sees = np.maximum.accumulate(index)
        asked: list[dict[int, Decision]] = [{}, {}, {}, {}]
        seen_at: list[dict[int, Decision]] = [{}, {}, {}, {}]
        for d in decisions:
            e = int(answers[d.n_rows - 1])
            if e in asked[d.seat]:
                raise AssertionError(f"{context}: seat {d.seat} asked twice after event {e}")
            asked[d.seat][e] = d
            seen_at[d.seat][int(sees[d.n_rows - 1])] = d
        for seat, lines in enumerate(seat_lines(events)):
            self.replay(seat, lines, asked[seat], seen_at[seat], context)
        self.decisions += len(decisions)

    def replay(self, seat, lines, asked, seen_at, context) -> None:
        ps = self.PlayerState(seat)
        hand = ""
        facts: set[str] = set()
        discard = f'{{"type":"dahai","actor":{seat},'
        for i, line in enumerate(lines):
            try:
                cans = ps.update(line)
            except BaseException as exc:  # a pyo3 panic is a BaseException
                self.note(context, seat, hand, line, "event refused", "", repr(exc), ps)
                return
            if line.startswith('{"type":"start_kyoku"'):
                e = json.loads(line)
                hand = f"{e['bakaze']}{e['kyoku']}-{e['honba']}"
                facts.clear()
            elif line.startswith(discard) and not ps.self_riichi_accepted:
                facts.discard("passed kokushi chankan")
            d = asked.get(i)
            if d is not None:
                for what, ours, theirs in self.compare(d, cans, ps):
                    self.note(context, seat, hand, line, what, ours, theirs, ps, d, facts)
                if d.answer and cans.can_act:
                    try:
                        ps.validate_reaction(d.answer)
                    except BaseException as exc:
                        self.note(context, seat, hand, line, "answer", d.answer, repr(exc), ps, d)
                if d.claim_kind == CLAIM_ANKAN and d.answer == NONE_ANSWER:
                    facts.add("passed kokushi chankan")
            elif cans.can_act:
                self.note(context, seat, hand, line, "decision", "none", _cans(cans), ps)
            d = seen_at.get(i)
            if d is not None and d.seen34 != ps.tiles_seen:
                # every event before the decision is in (an open kan's indicator too)
                what = "tiles seen"
                self.note(
                    context, seat, hand, line, what, Counts(d.seen34), Counts(ps.tiles_seen), ps
                )

    def note(self, context, seat, hand, line, what, ours, theirs, ps, d=None, facts=()) -> None:
        melds = ""
        for label, kinds in (
            ("chi", ps.chis),
            ("pon", ps.pons),
            ("minkan", ps.minkans),
            ("ankan", ps.ankans),
        ):
            for k in kinds:
                melds += f" {label} {tile34_to_str(int(k))}"
        tehai = hand34_to_str(np.array(ps.tehai, dtype=np.uint8)) or "-"
        self.differences.append(
            Difference(
                self.preset,
                int(context[0]),
                context[1],
                seat,
                hand,
                line,
                what,
                ours,
                theirs,
                tehai + melds,
                d,
                frozenset(facts),
            )
        )

    def compare(self, d: Decision, cans, ps) -> list[tuple[str, Any, Any]]:
        """What differs at decision ``d``: (what, ours, libriichi's)."""
        out: list[tuple[str, Any, Any]] = []
        m = d.mask.tolist()
        seen = self.seen

        def flag(what: str, ours, theirs) -> None:
            if bool(ours) != bool(theirs):
                out.append((what, bool(ours), bool(theirs)))
            elif ours:
                seen[what] += 1

        claim = d.phase == PHASE_CLAIM
        hand = d.hand34
        seen["decision: " + PHASE_NAMES[d.phase]] += 1
        kans = (
            Kinds(k for k in range(34) if m[A.KAN + k]) if any(m[A.KAN : A.KAN + 34]) else Kinds()
        )
        if claim:
            seen[CLAIM_NAMES[d.claim_kind]] += 1
            flag("ron", m[A.RON], cans.can_ron_agari)
            flag("chi low", m[A.CHI_LOW] or m[A.CHI_LOW_PLAIN], cans.can_chi_low)
            flag("chi mid", m[A.CHI_MID] or m[A.CHI_MID_PLAIN], cans.can_chi_mid)
            flag("chi high", m[A.CHI_HIGH] or m[A.CHI_HIGH_PLAIN], cans.can_chi_high)
            flag("pon", m[A.PON] or m[A.PON_PLAIN], cans.can_pon)
            flag("daiminkan", kans, cans.can_daiminkan)
            flag("pass", m[A.PASS], cans.can_pass)
            flag("discard", False, cans.can_discard)
        else:
            if d.phase == PHASE_TURN and d.drawn < 0:
                seen["decision: turn after chi or pon"] += 1
            ours = Discards(bool(x) for x in m[: A.N_DISCARD_ACTIONS])
            flag("discard", any(ours), cans.can_discard)
            if cans.can_discard:
                theirs = Discards(libriichi_discards(ps))
                if theirs != ours:
                    out.append(("discards", ours, theirs))
                elif d.phase == PHASE_TURN and d.drawn < 0 and any(ps.forbidden_tiles):
                    seen["kuikae"] += 1
                if any(ours[A.DISCARD_RED :]):
                    seen["red five discard"] += 1
            flag("riichi", m[A.RIICHI], cans.can_riichi)
            flag("tsumo", m[A.TSUMO], cans.can_tsumo_agari)
            flag("kyuushu kyuuhai", m[A.KYUUSHU], cans.can_ryukyoku)
            ankan = Kinds(k for k in kans if hand[k] == 4)
            theirs_ankan = Kinds(_kinds(ps.ankan_candidates()) if cans.can_ankan else ())
            theirs_kakan = Kinds(_kinds(ps.kakan_candidates()) if cans.can_kakan else ())
            if ankan != theirs_ankan:
                out.append(("ankan", ankan, theirs_ankan))
            elif ankan:
                seen["ankan in riichi" if d.riichi else "ankan"] += 1
            if kans - ankan != theirs_kakan:
                out.append(("kakan", Kinds(kans - ankan), theirs_kakan))
            elif kans - ankan:
                seen["kakan"] += 1
            if d.riichi and not ankan and d.drawn >= 0 and hand[d.drawn // 4] == 4:
                seen["ankan refused in riichi"] += 1
            flag("claim", False, cans.can_pass)
        # what the seat is shown
        if ps.tehai != hand:
            out.append(("concealed tiles", Counts(hand), Counts(ps.tehai)))
            return out
        if ps.akas_in_hand != d.reds:
            out.append(("red fives held", d.reds, ps.akas_in_hand))
        if (ps.honba, ps.kyotaku) != (d.honba, d.kyotaku):
            out.append(("honba and riichi sticks", (d.honba, d.kyotaku), (ps.honba, ps.kyotaku)))
        if claim:
            self.compare_claim_view(d, m, ps, out)
        elif d.drawn >= 0:
            # libriichi keeps the shanten and waits of the hand before the draw
            pre = list(hand)
            pre[d.drawn // 4] -= 1
            s = self.shanten(pre)
            if s != ps.shanten:
                out.append(("shanten before the draw", s, ps.shanten))
            self.compare_waits("waits before the draw", self.waits(pre), ps, out)
        else:  # after chi or pon: the shanten of the 3n+2 hand, 0 when complete
            s = max(self.shanten(hand), 0)
            if s != ps.shanten:
                out.append(("shanten after the call", s, ps.shanten))
        return out

    @staticmethod
    def compare_waits(what: str, ours: Kinds, ps, out) -> None:
        """libriichi's waits are ours less the kinds it had seen all four of when it last
        updated them (at the seat's last discard or kan): between ours and ours less the kinds
        it has seen all four of now."""
        theirs = Kinds(k for k, w in enumerate(ps.waits) if w)
        seen = ps.tiles_seen
        live = {k for k in ours if seen[k] < 4}
        if not live <= theirs <= ours:
            out.append((what, ours, theirs))

    def compare_claim_view(self, d: Decision, m: list[int], ps, out) -> None:
        """On a claim (a 3n+1 hand): the ``SeatView`` (points, winds, tiles) and shanten, waits
        and furiten, shown and the engine's."""
        seen = self.seen
        v = d.view
        points = v.points.tolist()
        points = points[d.seat :] + points[: d.seat]  # libriichi's are the seat's first
        if ps.scores != points:
            out.append(("points", points, ps.scores))
        if (ps.bakaze, ps.jikaze) != (v.round_wind, v.seat_wind):
            winds = tile34_to_str(v.round_wind) + tile34_to_str(v.seat_wind)
            out.append(
                ("round and seat wind", winds, tile34_to_str(ps.bakaze) + tile34_to_str(ps.jikaze))
            )
        if (v.hand34 + v.visible34).tolist() != d.seen34 or v.hand34.tolist() != d.hand34:
            out.append(("SeatView", "its hand34 and visible34", "the kernels' differ"))
        shanten, waits_row, furiten = d.rich
        if shanten != ps.shanten:
            out.append(("shanten", shanten, ps.shanten))
        shown = Kinds(k for k, w in enumerate(waits_row) if w)
        self.compare_waits("waits", shown, ps, out)
        engine = Kinds(k for k, w in enumerate(d.waits) if w)
        if engine != shown:
            out.append(("engine waits", engine, shown))
        # libriichi marks a winning tile without yaku furiten on the discard itself, the engine
        # once the seat passes it (this decision): compare what holds after the pass
        passing = d.claim_tile // 4 in engine and not m[A.RON]
        if (d.furiten or passing) != ps.at_furiten:
            out.append(("furiten", d.furiten, ps.at_furiten))
        elif d.furiten:
            seen["furiten"] += 1
        elif passing:
            seen["furiten from passing a winning tile without yaku"] += 1
        if (furiten or passing) != ps.at_furiten:
            out.append(("furiten shown", furiten, ps.at_furiten))
        if shown:
            seen["tenpai on a claim"] += 1
            if any(ps.tiles_seen[k] == 4 for k in shown):
                seen["a wait with all four copies seen"] += 1


def _kinds(names) -> list[int]:
    return [from_mjai_name(x)[0] for x in names]


# -- rule choices: docs/rules.md, "Differences with libriichi" ---------------------------------


def _changes_a_reading(hand34: list[int], k: int, suit, honor) -> bool:
    """A riichi hand holding ``k`` four times after the draw: the waits stay the same without
    the four ``k`` but some completed hand reads ``k`` outside a triplet (docs/rules.md, Riichi
    and ankan: the engine refuses that ankan, libriichi allows it)."""
    before = np.array(hand34, dtype=np.uint8)
    before[k] -= 1
    after = before.copy()
    after[k] -= 3
    w0 = np.zeros(34, dtype=np.uint8)
    w1 = np.zeros(34, dtype=np.uint8)
    _waits(after, suit, honor, w1)
    if not _waits(before, suit, honor, w0) or not np.array_equal(w0, w1):
        return False
    completed = before + np.eye(34, dtype=np.uint8)[np.flatnonzero(w0)]  # one row per wait
    return any(_decomposes(h, True, k) for h in completed)


def _riichi_ankan(diff: Difference) -> bool:
    d = diff.decision
    if diff.what != "ankan" or d is None or not d.riichi or d.drawn < 0:
        return False
    k = d.drawn // 4
    if diff.ours or diff.theirs != {k}:
        return False
    tables = load_tables()
    return _changes_a_reading(d.hand34, k, tables.shanten_suit, tables.shanten_honor)


def _kokushi_chankan(diff: Difference) -> bool:
    d = diff.decision
    if d is None:
        return False
    if d.claim_kind == CLAIM_ANKAN:  # the engine asks; libriichi has no decision there
        return diff.what in ("ron", "pass") and diff.ours is True and diff.theirs is False
    # having passed it, the engine's seat is furiten until its next discard (for the hand in
    # riichi); libriichi's is not
    return (
        "passed kokushi chankan" in diff.facts
        and diff.what in ("furiten", "furiten shown")
        and diff.ours is True
        and diff.theirs is False
    )


RuleChoice = Callable[[Difference], bool]
RULE_CHOICES: dict[str, RuleChoice] = {
    "riichi ankan: every reading a triplet": _riichi_ankan,
    "kokushi robs a closed kan": _kokushi_chankan,
}
"""The differences that are rule choices, by key (``docs/rules.md``, "Differences with
libriichi"); each predicate matches that difference and nothing else."""


def explain(diff: Difference) -> Difference:
    """``diff`` with the key of the rule choice that explains it, if one does."""
    for key, matches in RULE_CHOICES.items():
        if matches(diff):
            return diff._replace(rule=key)
    return diff


__all__ = [
    "Decision",
    "Difference",
    "RULE_CHOICES",
    "Referee",
    "Table",
    "explain",
    "libriichi_discards",
    "row_events",
    "seat_lines",
    "seat_policies",
]
