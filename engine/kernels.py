"""The engine's kernels other packages may call, in one list (``__all__``).

Every kernel takes ``(st, t, ...)``: the record array ``State.records`` and a table index, then
the event log ``State.events`` (``ev``) where the kernel plays the game on, then the lookup tables
of ``engine.tables.load_tables()``, then inputs and outputs. Anything not listed here is internal
to ``engine`` and may change without notice.
"""

from __future__ import annotations

from engine.deal import _continue_at, _reset, _start_game_at
from engine.harness.invariants import _validate, _validate_rules
from engine.harness.selfplay import (
    ACTION_STREAM,
    _choose,
    _play_game,
    _play_games,
)
from engine.legality import _legal_mask
from engine.shanten import _shanten, _ukeire, _waits
from engine.turn import _apply, _step
from engine.visibility import (
    _dora_kinds,
    _furiten,
    _open_hand,
    _open_hand_shown,
    _seen34,
    _visible34,
)
from engine.wall import _rand_below, _rng_seed, _shuffle_wall

__all__ = [
    "ACTION_STREAM",
    "_apply",
    "_choose",
    "_continue_at",
    "_dora_kinds",
    "_furiten",
    "_legal_mask",
    "_open_hand",
    "_open_hand_shown",
    "_play_game",
    "_play_games",
    "_rand_below",
    "_reset",
    "_rng_seed",
    "_seen34",
    "_shanten",
    "_shuffle_wall",
    "_start_game_at",
    "_step",
    "_ukeire",
    "_validate",
    "_validate_rules",
    "_visible34",
    "_waits",
]
