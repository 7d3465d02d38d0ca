"""Options the env, the vector env, self-play and the learner view share, checked in one place:
the rules with per-option overrides, the reward and the observation dtype.

A module of its own, without Gymnasium or PettingZoo, so that ``riichi-env selfplay`` and
``arena`` import neither.
"""

from __future__ import annotations

import dataclasses
import difflib
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.arguments import check_number, describe
from engine.rules import Rules, as_rules

REWARD_HAND = 0
"""Reward mode of the runner (``riichi_env.core.runner``): each hand's point change times the
scale."""
REWARD_PLACEMENT = 1
"""Reward mode: at game end only, the final score."""
REWARD_RANK = 2
"""Reward mode: at game end only, the rank points of the seat's place."""
REWARDS = ("hand", "placement", "rank")
DEFAULT_RANK_POINTS = (0.9, 0.45, 0.0, -1.35)
DEFAULT_RANK_POINTS_3P = (1.0, 0.0, -1.0)
"""The three-player default: symmetric and zero-sum (a choice, not a site's rank points)."""
REWARD_MODES = {"hand": REWARD_HAND, "placement": REWARD_PLACEMENT, "rank": REWARD_RANK}


def keyword_options(fn: Callable) -> list[str]:
    """The named keyword options of ``fn`` (an env's ``__init__``, ``selfplay``), sorted: what an
    unknown-option error lists besides the rule options."""
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    params = inspect.signature(fn).parameters.values()
    return sorted(p.name for p in params if p.kind in kinds and p.name != "self")


def _make_rules(
    rules: str | Rules,
    overrides: dict[str, Any],
    options: Callable | None = None,
    four_only: str | None = "this tool",
) -> Rules:
    """``rules`` with the rule options in ``overrides``; ``TypeError`` for a name that is neither a
    rule option nor one of ``options``' keyword options (the caller, listed in the message).

    ``four_only`` names a caller that plays four players only (``ValueError`` for three-player
    rules); ``None`` for the callers that play three too (the AEC env, the vector env, self-play).
    """
    base = _players_ok(as_rules(rules), four_only)
    if not overrides:
        return base
    known = {f.name for f in dataclasses.fields(Rules)} - {"name"}
    unknown = sorted(set(overrides) - known)
    if unknown:
        own = keyword_options(options) if options is not None else []
        hint = difflib.get_close_matches(unknown[0], [*own, *known], n=1)
        raise TypeError(
            f"unknown env option(s) {unknown}"
            + (f" (did you mean {hint[0]!r}?)" if hint else "")
            + (f"; env options are {own}" if own else "")
            + f"; rule options are {sorted(known)}"
        )
    # every override is checked, also one equal to the preset's value (open_tanyao=1 is refused)
    changed = _players_ok(base.replace(**overrides), four_only)
    return base if changed == base else changed


def _players_ok(rules: Rules, four_only: str | None) -> Rules:
    """``rules``, unless they are for three players and ``four_only`` names a caller that plays
    four only (``ValueError``)."""
    if four_only is not None and rules.players != 4:
        raise ValueError(
            f"rules {rules.name!r} are for three players: {four_only} plays four players only yet "
            "(the envs, self-play and the arena play three, docs/sanma-status.md)"
        )
    return rules


def _rank_points(value: Any, players: int = 4) -> tuple[float, ...]:
    """``players`` rank points (the reward of places 1..players), checked."""
    if not isinstance(value, (tuple, list)) or len(value) != players:
        word = {3: "three", 4: "four"}[players]
        raise ValueError(
            f"rank_points must be a tuple of {word} numbers (one per place), got {describe(value)}"
        )
    return tuple(check_number(f"rank_points[{i}]", x) for i, x in enumerate(value))


def default_rank_points(players: int) -> tuple[float, ...]:
    """``DEFAULT_RANK_POINTS`` for four players, ``DEFAULT_RANK_POINTS_3P`` for three."""
    return DEFAULT_RANK_POINTS_3P if players == 3 else DEFAULT_RANK_POINTS


def reward_spec(
    reward: str, reward_scale: float, rank_points, players: int = 4
) -> tuple[int, np.ndarray]:
    """``(mode, params)`` of the runner (``riichi_env.core.runner``): params are the scale, then
    the four rank points. With three players ``rank_points`` has three, and the absent seat 3
    (ranked fourth by the engine) gets 0."""
    if not isinstance(reward, str) or reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r}; choose from {list(REWARDS)}")
    scale = check_number("reward_scale", reward_scale)
    points = _rank_points(rank_points, players) + (0.0,) * (4 - players)
    params = np.array([scale, *points], dtype=np.float64)
    return REWARD_MODES[reward], params


def check_obs_dtype(obs_dtype: Any) -> np.dtype:
    """``np.float32`` or ``np.uint8`` as a dtype; ``TypeError`` / ``ValueError`` otherwise."""
    try:
        dtype = np.dtype(obs_dtype)
    except TypeError as exc:
        raise TypeError(
            f"obs_dtype must be np.float32 or np.uint8, got {describe(obs_dtype)}"
        ) from exc
    if dtype not in (np.float32, np.uint8):
        raise ValueError(f"obs_dtype must be np.float32 or np.uint8, got {dtype}")
    return dtype
