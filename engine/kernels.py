"""The engine's internals other packages may call, in one list (``__all__``): the kernels and the
few private helpers that ``riichi_env``, ``agents`` and ``benchmarks`` use.

Outside ``engine``, a name that starts with an underscore is imported from here and nowhere else
(tests excepted); anything not listed is internal to ``engine`` and may change without notice.

A game kernel takes ``(st, t, ...)``: the record array ``State.records`` and a table index, then
the event log ``State.events`` (``ev``) where the kernel plays the game on, then the lookup tables
of ``engine.tables.load_tables()``, then inputs and outputs. The hand kernels (shanten, the
policies' discard choice, the scorer) take tile counts and the tables they need.
"""

from __future__ import annotations

from engine.claims import _discard_passes
from engine.deal import _continue_at, _reset, _start_game_at
from engine.hand_end import _end_hand
from engine.harness.invariants import _validate, _validate_rules
from engine.harness.policies import (
    _best_discard,
    _discard_table,
    _efficiency_action,
    _simple_action,
    _tie_rank,
)
from engine.harness.selfplay import (
    ACTION_STREAM,
    _choose,
    _choose_random,
    _play_game,
    _play_games,
)
from engine.kans import _kita, _own_kan
from engine.legality import _legal_mask
from engine.scoring.kernel import _score_hand
from engine.seats import _is_tenpai
from engine.settlement import _can_win, _exhaustive_draw, _pay_win, _ron, _score_win, _win
from engine.shanten import _shanten, _shanten_batch, _ukeire, _waits
from engine.tiles import _dora_from_indicator, _parse_groups
from engine.turn import _apply, _step
from engine.visibility import (
    _dora_kinds,
    _furiten,
    _open_hand,
    _open_hand_shown,
    _seen34,
    _visible34,
)
from engine.wall import _live_left, _rand_below, _rng_seed, _shuffle_wall

GAME = (_reset, _is_tenpai, _exhaustive_draw, _score_win, _score_hand, _can_win, _legal_mask)
GAME += (_own_kan, _end_hand, _pay_win, _discard_passes, _ron, _win, _kita, _apply)
"""The game's kernels (deal, scoring, mask, play) in the order a warm-up compiles them, each
after the kernels it calls (``riichi_env.core.compiling``)."""
SCORING = (_score_win, _score_hand, _can_win, _pay_win, _discard_passes, _ron, _win, _kita)
"""The scoring side of ``GAME``, which calls nothing of the deal: on a cold start a second
process compiles it beside the deal."""
AGENTS = (_choose_random, _simple_action, _efficiency_action, _choose)
"""The compiled policies (the arena, self-play of the agents): they need nothing of the game."""

__all__ = [
    "ACTION_STREAM",
    "AGENTS",
    "GAME",
    "SCORING",
    "_apply",
    "_best_discard",
    "_choose",
    "_choose_random",
    "_continue_at",
    "_discard_table",
    "_dora_from_indicator",
    "_dora_kinds",
    "_furiten",
    "_legal_mask",
    "_live_left",
    "_open_hand",
    "_open_hand_shown",
    "_parse_groups",
    "_play_game",
    "_play_games",
    "_rand_below",
    "_reset",
    "_rng_seed",
    "_score_hand",
    "_seen34",
    "_shanten",
    "_shanten_batch",
    "_shuffle_wall",
    "_start_game_at",
    "_step",
    "_tie_rank",
    "_ukeire",
    "_validate",
    "_validate_rules",
    "_visible34",
    "_waits",
]
