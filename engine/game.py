"""The ``Game`` facade and the public functions over a ``State``: ``reset``, ``legal_mask``, ``step``.

The rules live in the modules named after them: ``engine/wall.py`` (RNG and wall),
``deal.py``, ``legality.py`` (the mask and ``explain_illegal``), ``turn.py`` (applying actions),
``claims.py``, ``kans.py``, ``settlement.py`` (wins, payments, draws) and ``hand_end.py``; the
kernels other packages call are listed in ``engine/kernels.py``. A table always rests at a
decision or at game over: claims nobody can make are skipped and a finished hand is settled and
the next one dealt within the same call. Rules follow ``docs/rules.md``.
"""

from __future__ import annotations

import numpy as np

from engine.actions import (
    n_actions,
)
from engine.deal import _reset
from engine.legality import _hand_str, _legal_mask, explain_illegal
from engine.rules import (
    MAHJONGSOUL,
    RULE_PLAYERS,
    Rules,
)
from engine.state import (
    PHASE_GAME_OVER,
    PHASE_NAMES,
    State,
    check_table,
    new_state,
)
from engine.tables import load_tables
from engine.turn import ERR_ILLEGAL, ERR_NAMES, _apply


def reset(state: State, seed: int, t: int = 0) -> None:
    """Start a new game on table ``t`` from ``seed`` (an int, ``0 <= seed <= 2**63 - 1``)."""
    from engine.arguments import check_seed

    t = check_table(state, t)
    seed = check_seed(seed)
    _reset(state.records, t, state.events, load_tables(), np.int64(seed))


def _n_actions(state: State, t: int) -> int:
    """The action table size of table ``t``: 85, or 86 (with ``KITA``) for three players."""
    return n_actions(int(state.rules[t, RULE_PLAYERS]))


def legal_mask(state: State, t: int = 0) -> np.ndarray:
    """``bool[N_ACTIONS]`` (``N_ACTIONS_3P`` with three players): the legal actions of the seat
    to act on table ``t``."""
    t = check_table(state, t)
    out = np.zeros(_n_actions(state, t), dtype=np.int8)
    _legal_mask(state.records, t, load_tables(), out)
    return out.view(np.bool_)


def step(state: State, action: int, t: int = 0) -> None:
    """Apply ``action`` for the seat to act on table ``t``; raises ``ValueError`` if illegal."""
    from engine.arguments import check_action

    t = check_table(state, t)
    n = _n_actions(state, t)
    action = check_action(action, n)
    tables = load_tables()
    mask = np.zeros(n, dtype=np.int8)
    if state.phase[t] != PHASE_GAME_OVER:
        _legal_mask(state.records, t, tables, mask)
    if not mask[action]:
        raise ValueError(explain_illegal(state, action, t) or ERR_NAMES[ERR_ILLEGAL])
    _apply(state.records, t, state.events, tables, action)


class Game:
    """One table: validates actions and raises clear errors, then calls the kernels.

    Args:
        rules: The ruleset: a preset name (``"mahjongsoul"``, ``"tenhou"``) or a
            ``engine.rules.Rules``.
        seed: Game seed, an int with ``0 <= seed <= 2**63 - 1``; ``None`` leaves the table
            unstarted (for scenarios).
        max_events: Event log capacity in rows (1 to ``engine.arguments.MAX_EVENTS_LIMIT``).
    """

    def __init__(
        self, rules: Rules | str = MAHJONGSOUL, seed: int | None = 0, max_events: int = 8192
    ):
        from engine.arguments import check_max_events, check_seed
        from engine.rules import as_rules

        rules = as_rules(rules)
        max_events = check_max_events(max_events)
        if seed is not None:
            seed = check_seed(seed)
        self.rules = rules
        self.state = new_state(1, rules, max_events)
        self.tables = load_tables()
        if seed is not None:
            self.reset(seed)

    def reset(self, seed: int) -> None:
        """Start a new game from ``seed``."""
        reset(self.state, seed, 0)

    @property
    def actor(self) -> int:
        """Seat that must act now (-1 at game over)."""
        return int(self.state.actor[0]) if not self.done else -1

    @property
    def turn(self) -> int:
        """Seat whose turn it is."""
        return int(self.state.turn[0])

    @property
    def phase(self) -> str:
        """``"turn"``, ``"riichi discard"``, ``"claim"`` or ``"game over"``."""
        return PHASE_NAMES[int(self.state.phase[0])]

    @property
    def done(self) -> bool:
        """True at game over."""
        return bool(self.state.game_over[0])

    @property
    def points(self) -> list[int]:
        return [int(x) for x in self.state.points[0]]

    @property
    def final_scores(self) -> list[float]:
        return [float(x) for x in self.state.final_scores[0]]

    def legal_mask(self) -> np.ndarray:
        """``bool[N_ACTIONS]`` (``N_ACTIONS_3P`` with three players) for the seat to act."""
        out = np.zeros(_n_actions(self.state, 0), dtype=np.int8)
        _legal_mask(self.state.records, 0, self.tables, out)
        return out.view(np.bool_)

    def legal_actions(self) -> list[int]:
        """Legal action ids, ascending."""
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def step(self, action: int) -> None:
        """Apply ``action`` for the seat to act; ``ValueError`` names seat, action and reason."""
        step(self.state, action, 0)

    def explain(self, action: int) -> str:
        """Why ``action`` is illegal now ("" if it is legal)."""
        return explain_illegal(self.state, action, 0)

    def hand(self, seat: int) -> str:
        """Concealed tiles of ``seat`` (0-3, absolute; 0 is the starting dealer) in mpsz."""
        from engine.arguments import check_seat

        return _hand_str(self.state, 0, check_seat(seat))

    def events(self) -> np.ndarray:
        """The event log as ``int32[n, 8]``."""
        from engine.events import event_rows

        return event_rows(self.state, 0)

    def render(self) -> list[str]:
        """The event log as readable lines."""
        from engine.events import render

        return render(self.events(), self.rules.red_fives)
