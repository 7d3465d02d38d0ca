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

from engine.rules import Rules, as_rules
from engine.validation import check_number, describe

REWARD_HAND = 0
"""Reward mode of the runner (``riichi_env.batch.runner``): each hand's point change times the
scale."""
REWARD_PLACEMENT = 1
"""Reward mode: at game end only, the final score."""
REWARD_RANK = 2
"""Reward mode: at game end only, the rank points of the seat's place."""
REWARDS = ("hand", "placement", "rank")
DEFAULT_RANK_POINTS = (0.9, 0.45, 0.0, -1.35)
REWARD_MODES = {"hand": REWARD_HAND, "placement": REWARD_PLACEMENT, "rank": REWARD_RANK}


def keyword_options(fn: Callable) -> list[str]:
    """The named keyword options of ``fn`` (an env's ``__init__``, ``selfplay``), sorted: what an
    unknown-option error lists besides the rule options."""
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    params = inspect.signature(fn).parameters.values()
    return sorted(p.name for p in params if p.kind in kinds and p.name != "self")


def _make_rules(
    rules: str | Rules, overrides: dict[str, Any], options: Callable | None = None
) -> Rules:
    """``rules`` with the rule options in ``overrides``; ``TypeError`` for a name that is neither a
    rule option nor one of ``options``' keyword options (the caller, listed in the message)."""
    base = _four_players(as_rules(rules))
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
    changed = _four_players(base.replace(**overrides))
    return base if changed == base else changed


def _four_players(rules: Rules) -> Rules:
    """``rules`` if they are for four players; the envs do not play three yet (issue 26)."""
    if rules.players != 4:
        raise ValueError(
            f"rules {rules.name!r} are for three players, which the envs do not play yet "
            "(issue 26: the engine does, docs/sanma-status.md)"
        )
    return rules


def _rank_points(value: Any) -> tuple[float, float, float, float]:
    if not isinstance(value, (tuple, list)) or len(value) != 4:
        raise ValueError(f"rank_points must be a tuple of four numbers, got {describe(value)}")
    return tuple(check_number(f"rank_points[{i}]", x) for i, x in enumerate(value))


def reward_spec(reward: str, reward_scale: float, rank_points) -> tuple[int, np.ndarray]:
    """``(mode, params)`` of the runner (``riichi_env.batch.runner``): params are the scale, then the four rank points."""
    if not isinstance(reward, str) or reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r}; choose from {list(REWARDS)}")
    scale = check_number("reward_scale", reward_scale)
    params = np.array([scale, *_rank_points(rank_points)], dtype=np.float64)
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
