"""A baseline agent as an mjai bot: ``python -m riichi_env.mjai.bot [--agent efficiency]``.

The reference bot for ``riichi-env arena --seats mjai:...`` and for anyone's mjai server. It reads
one mjai event per line on stdin and, whenever its seat has a decision, writes its answer as one
JSON line (Mortal's protocol, ``riichi_env.mjai.protocol``). A line may also hold a JSON list of
events (mjai.app's dialect): such a line is always answered, with the answer to its last event or
``{"type":"none"}``. An event it cannot follow (a bad tile name or actor, a tile its hand does
not hold, a move out of turn) ends it with one line on stderr naming the event, and status 2.

To decide, it rebuilds the hand in the engine from what its seat has seen (:class:`SeatWorld`):
its own tiles and draws, every public tile in its place, the other hands and the unseen wall
filled with the tiles nobody has seen, placed so that every tile a seat later showed was in that
seat's hand in time. Its own legal moves, furiten and ``SeatView`` then come from the same engine
code as in-process play, so the agent chooses exactly what it chooses in-process: a game with it
seated over mjai has the same record as with the agent itself.

Three players: it plays them in both kita dialects of the records
(``riichi_env.records.mjai``) and answers a kita in the dialect it is sent. A game is
three-player when its ``start_kyoku`` lists three ``scores`` or ``tehais`` (the ``kita``
dialect), or four with seat 3's hand empty, or (``nukidora``) seat 3's hand hidden, its points 0
and the three others' points plus the sticks on the table three times the three-player start.
Without ``--rules`` it plays Mahjong Soul's rules for four or three players as the game shows;
``--rules`` fixes them (``mahjongsoul-3p`` / ``tenhou-3p`` for three players), and a game of the
other number of players ends it with an error naming both.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from engine.actions import (
    DISCARD_RED,
    KAN,
    KITA,
    PASS,
    PLAIN_OFFSET,
    PON,
    RIICHI,
    n_actions,
)
from engine.deal import deal_hand
from engine.game import Game
from engine.kernels import _apply, _legal_mask, _waits
from engine.rules import MAHJONGSOUL, MAHJONGSOUL_3P, RULE_RED_M, Rules, as_rules
from engine.state import (
    DORA_START,
    LIVE_END_3P,
    LIVE_START,
    PHASE_CLAIM,
    RINSHAN_START,
    SANMA_REMOVED,
    SANMA_UNUSED_SLOTS,
    WALL_SIZE,
)
from engine.tables import load_tables
from engine.visibility import seat_view
from riichi_env.mjai.protocol import HIDDEN, NORTH, action_to_answer, chi_shape, dumps
from riichi_env.mjai.seat import json_error
from riichi_env.records.mjai import KITA_EVENTS
from riichi_env.records.notation import from_mjai_name

AGENTS = ("efficiency", "simple", "random")
"""Agents the bot can play: ``agents.EfficiencyAgent``, ``SimpleEfficiencyAgent``, ``RandomAgent``."""
AGENT_ALIASES = {"uniform": "random"}
"""Other names of the agents, as ``riichi_env.batch.play.POLICY_ALIASES`` (the same names everywhere)."""
_KANS = ("ankan", "kakan", "daiminkan")
_REPLACED = (*_KANS, *KITA_EVENTS)
"""Events after which the seat's ``tsumo`` is a replacement draw (kans, and kita)."""
_CALLS = ("chi", "pon", "daiminkan")
_BAKAZE = "ESWN"
_ACTOR_EVENTS = (
    "tsumo",
    "dahai",
    "reach",
    "reach_accepted",
    "hora",
    *_CALLS,
    "ankan",
    "kakan",
    *KITA_EVENTS,
)


MAX_LINE_CHARS = 1 << 20
"""The longest input line the bot reads (1 MiB; an mjai line is well under 10 KiB): a longer one
ends it with an error line, unread past the limit."""
SHOWN_CHARS = 200
"""An event in an error line is cut to this many characters."""


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "..."


def _shown(ev: Any) -> str:
    """An event as an error line names it: its JSON, cut to ``SHOWN_CHARS``."""
    try:
        return _cut(dumps(ev))
    except (RecursionError, ValueError):  # nested too deep to write back
        return _cut(repr(ev)) if not isinstance(ev, (list, dict)) else "(an event nested too deep)"


def _is_seat(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 3


class WorldError(ValueError):
    """The events cannot be played in the engine (a stream out of order, or other rules)."""


def _players_of(start: dict, seat: int, given: Rules | None) -> tuple[int, str]:
    """Players (3 or 4) and kita dialect of the game of ``start_kyoku`` ``start``, as seat
    ``seat`` sees it, under the rules ``given`` (None: told from the event; module docstring)."""
    scores, tehais = start["scores"], start["tehais"]
    if not isinstance(scores, list) or not isinstance(tehais, list):
        raise WorldError('start_kyoku needs "scores" and "tehais" lists')
    if 3 in (len(scores), len(tehais)):
        if len(scores) != 3 or len(tehais) != 3:
            raise WorldError('start_kyoku lists three seats in only one of "scores" and "tehais"')
        return 3, "kita"
    if len(scores) != 4 or len(tehais) != 4:
        raise WorldError(
            'start_kyoku must list four seats in "scores" and "tehais" (three in the kita dialect)'
        )
    if seat == 3 and all(x == HIDDEN for x in tehais[3]):
        raise WorldError(
            "the bot's seat (start_game's id) is 3, but seat 3's hand is empty or hidden (the "
            "empty seat of a three-player game?)"
        )
    if tehais[3] == []:
        return 3, "nukidora"
    empty = scores[3] == 0 and all(x == HIDDEN for x in tehais[3])
    three = given if given is not None and given.players == 3 else MAHJONGSOUL_3P
    three_start = 3 * three.start_points
    if empty and sum(int(x) for x in scores[:3]) + 1000 * int(start["kyotaku"]) == three_start:
        return 3, "nukidora"
    return 4, "nukidora"


def make_agent(name: str, seed: int = 0):
    """A fresh agent by name (``AGENTS`` or ``AGENT_ALIASES``)."""
    name = AGENT_ALIASES.get(name, name)
    if name == "efficiency":
        from agents import EfficiencyAgent

        return EfficiencyAgent()
    if name == "simple":
        from agents import SimpleEfficiencyAgent

        return SimpleEfficiencyAgent()
    if name == "random":
        from agents import RandomAgent

        return RandomAgent(seed=seed)
    raise ValueError(f"unknown agent {name!r}; choose from {', '.join(AGENTS)}")


class _Tiles:
    """Tile136 ids still unplaced, by kind and red (red ids as the rules make them)."""

    def __init__(self, rules: Rules):
        counts = rules.red_fives
        self.three = rules.players == 3
        self.free: dict[tuple[int, bool], list[int]] = {}
        for k in range(34):
            if self.three and 1 <= k <= 7:
                continue  # 2m-8m: not in a three-player wall
            for j in range(4):
                red = k in (4, 13, 22) and j < counts[k // 9]
                self.free.setdefault((k, red), []).append(4 * k + j)

    def take(self, name: str) -> int:
        kind, red = from_mjai_name(name)
        if self.three and 1 <= kind <= 7:
            raise WorldError(f"{name} is not in a three-player wall (no 2m-8m)")
        pool = self.free.get((kind, red))
        if not pool:
            raise WorldError(f"more copies of {name} than the rules have")
        return pool.pop(0)

    def rest(self) -> list[int]:
        return sorted(x for pool in self.free.values() for x in pool)


class SeatWorld:
    """The hand so far, rebuilt in the engine from one seat's events (module docstring)."""

    def __init__(self, rules: Rules, seat: int):
        self.rules = rules
        self.seat = seat
        self.game = Game(rules, seed=0, max_events=4096)
        self.state = self.game.state

    def rebuild(self, hand_events: list[dict]) -> bool:
        """Play ``hand_events`` (``start_kyoku`` first); True if the seat has a decision now."""
        start = hand_events[0]
        events = hand_events[1:]
        wall = self._wall(start, events)
        bakaze = _BAKAZE.index(start["bakaze"])
        points = [int(x) for x in start["scores"]]
        deal_hand(
            self.state,
            wall,
            kyoku=4 * bakaze + int(start["kyoku"]) - 1,
            honba=int(start["honba"]),
            kyotaku=int(start["kyotaku"]),
            points=points + [0] * (4 - len(points)),  # the kita dialect lists three
            clear_log=True,
        )
        return self._replay(events)

    # ------------------------------------------------------------------ the wall

    def _wall(self, start: dict, events: list[dict]) -> np.ndarray:
        """Wall with every seen tile where it was seen and the others' shown tiles in hand."""
        me = self.seat
        oya = int(start["oya"])
        n = self.rules.players
        tiles = _Tiles(self.rules)
        wall = np.full(WALL_SIZE, -1, dtype=np.int64)
        if n == 3:
            wall[list(SANMA_UNUSED_SLOTS)] = SANMA_REMOVED
        # slots a seat holds, in the order they came into its hand (deal first, then draws)
        held: list[list[int]] = [
            [13 * ((s - oya) % n) + j for j in range(13)] if s < n else [] for s in range(4)
        ]
        for j, name in enumerate(start["tehais"][me]):
            wall[held[me][j]] = tiles.take(name)
        wall[DORA_START] = tiles.take(start["dora_marker"])
        n_live = n_rinshan = n_dora = 0
        drawn = [-1, -1, -1, -1]  # the slot each seat drew last, until it discards
        prev = ""
        for ev in events:
            typ = ev["type"]
            s = ev.get("actor", -1)
            if typ == "tsumo":
                if prev in _REPLACED:  # replacement k: the dead wall, then (k >= 4) the live end
                    k, n_rinshan = n_rinshan, n_rinshan + 1
                    slot = RINSHAN_START + k if k < 4 else LIVE_END_3P - 1 - (k - 4)
                else:
                    slot, n_live = LIVE_START + n_live, n_live + 1
                if s == me:
                    wall[slot] = tiles.take(ev["pai"])
                else:
                    held[s].append(slot)
                    drawn[s] = slot
            elif typ == "dora":
                n_dora += 1
                wall[DORA_START + n_dora] = tiles.take(ev["dora_marker"])
                continue  # a kan's replacement draw may follow the indicator
            elif s != me and s >= 0:
                if typ == "dahai":
                    if ev.get("tsumogiri") and drawn[s] >= 0:
                        self._place(wall, held[s], [drawn[s]], ev["pai"], tiles)
                    else:
                        self._place(
                            wall, held[s], [x for x in held[s] if x != drawn[s]], ev["pai"], tiles
                        )
                    drawn[s] = -1
                elif typ in ("chi", "pon", "daiminkan", "ankan"):
                    for name in ev["consumed"]:
                        self._place(wall, held[s], held[s], name, tiles)
                    drawn[s] = -1
                elif typ == "kakan" or typ in KITA_EVENTS:
                    self._place(wall, held[s], held[s], ev["pai"], tiles)
            prev = typ
        rest = iter(tiles.rest())
        for i in range(WALL_SIZE):
            if wall[i] < 0:
                wall[i] = next(rest)
        return wall

    @staticmethod
    def _place(wall, held: list[int], options: list[int], name: str, tiles: _Tiles) -> None:
        """Put the tile ``name`` in the seat's first free held slot among ``options``."""
        for slot in options:
            if wall[slot] < 0:
                wall[slot] = tiles.take(name)
                held.remove(slot)
                return
        raise WorldError(f"a seat shows {name}, but its hand has no room for it")

    # ------------------------------------------------------------------ replay

    def _apply(self, action: int, actor: int, what: dict) -> None:
        st = self.state
        if int(st.actor[0]) != actor:
            raise WorldError(f"{dumps(what)}: the engine expects seat {int(st.actor[0])} to act")
        _apply(st.records, 0, st.events, self.game.tables, np.int64(action))

    def _held_red(self, seat: int, kind: int) -> bool:
        rec = self.state.records[0]
        return (
            kind in (4, 13, 22)
            and int(rec["rules"][RULE_RED_M + kind // 9]) > 0
            and bool(rec["closed"][seat, 4 * kind])
        )

    def _move(self, ev: dict) -> int:
        """The engine action of a seat's own move or call in the events."""
        typ = ev["type"]
        if typ == "dahai":
            kind, red = from_mjai_name(ev["pai"])
            return DISCARD_RED + kind // 9 if red else kind
        if typ in KITA_EVENTS:
            return KITA
        if typ == "reach":
            return RIICHI
        if typ in ("ankan", "kakan", "daiminkan"):
            name = ev["consumed"][0] if typ == "ankan" else ev["pai"]
            return KAN + from_mjai_name(name)[0]
        kind = from_mjai_name(ev["pai"])[0]
        used = [from_mjai_name(x) for x in ev["consumed"]]
        base = PON if typ == "pon" else chi_shape(kind, [k for k, _ in used])
        if base < 0:
            raise WorldError(f"{dumps(ev)}: the consumed tiles make no run with the called tile")
        red = any(r for _, r in used)
        fives = [k for k, _ in used if k in (4, 13, 22)]
        plain = not red and any(self._held_red(ev["actor"], k) for k in fives)
        return base + PLAIN_OFFSET if plain else base

    def _claims(self, events: list[dict], i: int) -> bool | None:
        """Answer the offer made by ``events[i]``; True/False at the last event (does the seat
        decide?), None when the offer is settled and play goes on."""
        st = self.state
        j = i + 1
        while j < len(events) and events[j]["type"] in ("dora", "reach_accepted"):
            j += 1
        last = j >= len(events)
        call = events[j] if not last and events[j]["type"] in _CALLS else None
        while int(st.phase[0]) == PHASE_CLAIM:
            pos, n = int(st.claim_pos[0]), int(st.claim_n[0])
            queue = [int(x) for x in st.claim_queue[0, pos:n]]
            if last:
                if self.seat not in queue:
                    return False
                if int(st.actor[0]) == self.seat:
                    return True
            s = int(st.actor[0])
            action = self._move(call) if call is not None and call["actor"] == s else PASS
            self._apply(action, s, events[i])
        if call is not None:
            self._skip = j
        return None if not last else False

    def _replay(self, events: list[dict]) -> bool:
        self._skip = -1
        st = self.state
        for i, ev in enumerate(events):
            if i == self._skip:
                continue
            typ = ev["type"]
            if typ in ("hora", "ryukyoku", "end_kyoku"):
                return False
            if typ in ("dahai", "reach", "ankan", "kakan", *KITA_EVENTS):
                self._apply(self._move(ev), ev["actor"], ev)
                if int(st.phase[0]) == PHASE_CLAIM:
                    decides = self._claims(events, i)
                    if decides is not None:
                        return decides
            elif typ in _CALLS:
                raise WorldError(f"{dumps(ev)}: a call with no offer before it")
        last = next((e for e in reversed(events) if e["type"] != "dora"), None)
        if last is None or int(st.actor[0]) != self.seat or int(st.phase[0]) == PHASE_CLAIM:
            return False
        return last.get("actor") == self.seat and last["type"] in ("tsumo", "reach", "chi", "pon")

    def legal_mask(self) -> np.ndarray:
        out = np.zeros(n_actions(self.rules.players), dtype=np.int8)
        _legal_mask(self.state.records, 0, self.game.tables, out)
        return out


class MjaiPlayer:
    """The bot: feed it events with :meth:`react`; it returns an answer or ``None``.

    ``rules`` (a preset name or ``Rules``) fixes the rules and so the number of players; ``None``
    (the default) plays ``mahjongsoul`` or ``mahjongsoul-3p`` as each game's ``start_kyoku``
    shows (module docstring).
    """

    def __init__(self, agent: str = "efficiency", rules: str | Rules | None = None, seed: int = 0):
        self.agent_name = agent
        self.agent = make_agent(agent, seed)
        self.given = None if rules is None else as_rules(rules)
        """The rules given, or None: the players come from the game."""
        self.rules = self.given if self.given is not None else MAHJONGSOUL
        """The rules of the game being played."""
        self.seat = -1
        """The bot's seat (``start_game``'s ``id``), -1 before ``start_game``."""
        self.players = 0
        """Players of the game being played (3 or 4), 0 before its first ``start_kyoku``."""
        self.sanma_dialect = "nukidora"
        """The kita dialect of a three-player game: ``"kita"`` when it lists three seats."""
        self.world: SeatWorld | None = None
        self.hand: list[dict] = []
        self.hand34 = np.zeros(34, dtype=np.uint8)
        """The seat's concealed tiles, kept from its events (to skip offers it cannot take)."""
        tables = load_tables()
        self._suit, self._honor = tables.shanten_suit, tables.shanten_honor
        self._waits = np.zeros(34, dtype=np.bool_)
        self._waits_of = b""
        self.to_discard = -1
        """The seat that holds a drawn or called tile and must discard it, -1 for none."""

    def react(self, ev: dict) -> dict | None:
        """Take one event; the answer when the seat has a decision, else ``None``.

        ``WorldError`` naming the event when it is malformed or cannot come now: a tile name
        that is not mjai's, an ``actor`` that is not a seat 0-3, a tile the seat's own hand
        does not hold, or a move out of turn (a second ``tsumo`` before the discard, say).
        """
        if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
            raise WorldError(f'an event must be an object with a "type", got {_shown(ev)}')
        try:
            return self._react(ev)
        except WorldError as exc:
            if str(exc).startswith("{"):
                raise
            raise WorldError(f"{_shown(ev)}: {_cut(str(exc))}") from None
        except ValueError as exc:
            raise WorldError(f"{_shown(ev)}: {_cut(str(exc))}") from None
        except (KeyError, IndexError, TypeError, RecursionError) as exc:
            raise WorldError(f"{_shown(ev)}: malformed event ({_cut(repr(exc))})") from None

    def _react(self, ev: dict) -> dict | None:
        typ = ev["type"]
        if typ == "start_game":
            seat = ev.get("id")
            if not _is_seat(seat):
                raise WorldError(f'start_game needs the bot\'s seat as "id" 0-3, got {seat!r}')
            self.seat = seat
            self.players = 0
            self.hand = []
            return None
        if self.seat < 0:
            raise WorldError(f"{typ} before start_game")
        if typ == "start_kyoku":
            self.hand = []
            self._start_world(ev)
            self.hand34[:] = 0
            for name in ev["tehais"][self.seat]:
                self.hand34[from_mjai_name(name)[0]] += 1
            if int(self.hand34.sum()) != 13 or int(self.hand34.max()) > 4:
                raise WorldError("start_kyoku: the seat's tehai is not 13 tiles of 34 kinds")
            from_mjai_name(ev["dora_marker"])
            _BAKAZE.index(ev["bakaze"])
            self.to_discard = -1
            self.hand = [ev]
            return None
        if typ == "end_game" or not self.hand:
            return None
        self._check(ev)
        self.hand.append(ev)
        if typ in ("hora", "ryukyoku", "end_kyoku", "reach_accepted", "dora"):
            return None
        if not self._may_decide(ev):
            return None
        decides = self.world.rebuild(self.hand)
        if not decides:
            return None
        world = self.world
        mask = world.legal_mask()
        view = seat_view(world.state, world.seat)
        action = int(self.agent.act(None, mask, view))
        return action_to_answer(action, world.state, 0, world.seat, self.sanma_dialect)

    def _start_world(self, start: dict) -> None:
        """Tell the game's players from ``start`` (its first ``start_kyoku``; later ones must
        agree), check them against the rules given, and set up the world of those rules."""
        players, dialect = _players_of(start, self.seat, self.given)
        if self.players and players != self.players:
            raise WorldError(f"a {players}-player hand in a {self.players}-player game")
        if self.given is not None and players != self.given.players:
            other = "three-player" if players == 3 else "four-player"
            raise WorldError(
                f"start_kyoku shows a {other} game, but the bot plays the rules "
                f"{self.given.name!r} ({self.given.players} players); run it with "
                f"--rules {'mahjongsoul-3p' if players == 3 else 'mahjongsoul'} (or a preset "
                f"of {players} players) or without --rules"
            )
        if players == 3 and self.seat == 3:
            raise WorldError("a three-player game, but the bot's seat (start_game's id) is 3")
        self.players, self.sanma_dialect = players, dialect
        if self.given is None:
            self.rules = MAHJONGSOUL_3P if players == 3 else MAHJONGSOUL
        if self.world is None or self.world.rules is not self.rules or self.world.seat != self.seat:
            self.world = SeatWorld(self.rules, self.seat)

    def _check(self, ev: dict) -> None:
        """Refuse an event of the hand with a bad actor or tile name, or out of turn."""
        typ = ev["type"]
        actor = ev.get("actor")
        if typ in _ACTOR_EVENTS and not _is_seat(actor):
            raise WorldError(f'"actor" must be a seat 0-3 (an integer), got {actor!r}')
        if self.players == 3 and typ in _ACTOR_EVENTS and actor == 3:
            raise WorldError('"actor" is 3, the empty seat of a three-player game')
        if typ in KITA_EVENTS:
            if self.players != 3:
                raise WorldError(f"a {typ} (kita) in a four-player game")
            if from_mjai_name(ev["pai"]) != (NORTH, False):
                raise WorldError(f'a {typ} sets a North aside: "pai" must be "N"')
        for key in ("pai", "dora_marker"):
            if key in ev and not (
                typ == "tsumo" and ev[key] == HIDDEN and actor != self.world.seat
            ):
                from_mjai_name(ev[key])
        if "consumed" in ev:
            used = ev["consumed"]
            if not isinstance(used, list):
                raise WorldError(f'"consumed" must be a list of tiles, got {used!r}')
            for name in used:
                from_mjai_name(name)
        turn = self.to_discard  # the seat holding a drawn or called tile, -1 for none
        if typ == "tsumo" or typ in _CALLS:
            if turn >= 0:
                raise WorldError(f"a {typ} of seat {actor} while seat {turn} has yet to discard")
            self.to_discard = actor if typ != "daiminkan" else -1  # a kan draws a replacement
        elif typ in ("dahai", "reach", "ankan", "kakan", *KITA_EVENTS):
            if turn != actor:
                now = f"seat {turn} is to discard" if turn >= 0 else "no seat is to discard"
                raise WorldError(f"a {typ} of seat {actor} out of turn ({now})")
            if typ != "reach":
                self.to_discard = -1  # a kan or kita: a replacement tsumo follows

    def _take(self, name: str) -> None:
        k = from_mjai_name(name)[0]
        if not self.hand34[k]:
            raise WorldError(f"the seat's hand holds no {name}")
        self.hand34[k] -= 1

    def _may_decide(self, ev: dict) -> bool:
        """Keep the seat's tiles; False when ``ev`` surely leaves it no decision (no rebuild)."""
        me = self.world.seat
        typ = ev["type"]
        actor = ev.get("actor", -1)
        hand = self.hand34
        if actor == me:
            if typ == "tsumo":
                k = from_mjai_name(ev["pai"])[0]
                if hand[k] >= 4:
                    raise WorldError(f"draws a fifth {ev['pai']}")
                hand[k] += 1
            elif typ == "dahai" or typ == "kakan" or typ in KITA_EVENTS:
                self._take(ev["pai"])
            elif typ in ("chi", "pon", "daiminkan", "ankan"):
                for name in ev["consumed"]:
                    self._take(name)
            return typ in ("tsumo", "reach", "chi", "pon")
        if typ not in ("dahai", "kakan", "ankan", *KITA_EVENTS):
            return False
        k = from_mjai_name(ev["pai"] if typ != "ankan" else ev["consumed"][0])[0]
        if self._waits_of != hand.tobytes():  # waits of the 13-tile hand, once per change
            self._waits[:] = False
            if hand.sum() % 3 == 1:
                _waits(hand, self._suit, self._honor, self._waits)
            self._waits_of = hand.tobytes()
        if self._waits[k]:
            return True  # ron or chankan, maybe
        if typ != "dahai":
            return False
        if hand[k] >= 2:
            return True  # pon or daiminkan, maybe
        if self.players == 3 or (actor + 1) % 4 != me or k >= 27:
            return False  # no chi with three players
        n = k % 9
        return (
            (n <= 6 and hand[k + 1] and hand[k + 2])
            or (1 <= n <= 7 and hand[k - 1] and hand[k + 1])
            or (n >= 2 and hand[k - 2] and hand[k - 1])
        )


def main(argv: list[str] | None = None) -> int:
    """Run the bot on stdin/stdout until stdin closes; 2 (and one line on stderr) on bad input."""
    parser = argparse.ArgumentParser(prog="python -m riichi_env.mjai.bot", description=__doc__)
    parser.add_argument(
        "--agent",
        choices=(*AGENTS, *AGENT_ALIASES),
        default="efficiency",
        help="default efficiency; uniform is another name for random",
    )
    parser.add_argument(
        "--rules",
        default=None,
        help="mahjongsoul, tenhou, tenhou-2009, or the three-player mahjongsoul-3p, tenhou-3p; "
        "default: mahjongsoul or mahjongsoul-3p, as each game's start_kyoku shows",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random agent")
    args = parser.parse_args(argv)
    try:
        player = MjaiPlayer(args.agent, args.rules, args.seed)
    except ValueError as exc:
        print(f"mjai_bot: --rules {args.rules!r}: {exc}", file=sys.stderr)
        return 2
    for line in iter(lambda: sys.stdin.readline(MAX_LINE_CHARS + 1), ""):
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            print(
                f"mjai_bot: a line longer than {MAX_LINE_CHARS:,} characters: {_cut(line)}",
                file=sys.stderr,
            )
            return 2
        if not line.strip():
            continue
        try:
            data: Any = json.loads(line)
        except (ValueError, RecursionError) as exc:
            print(f"mjai_bot: {json_error(exc)}: {_cut(line.strip())}", file=sys.stderr)
            return 2
        batch = data if isinstance(data, list) else [data]
        answer = None
        try:
            for ev in batch:
                answer = player.react(ev)
        except WorldError as exc:
            print(f"mjai_bot: {exc}", file=sys.stderr)
            return 2
        if answer is None and isinstance(data, list):
            answer = {"type": "none"}  # mjai.app's dialect: every line is answered
        if answer is not None:
            sys.stdout.write(dumps(answer) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
