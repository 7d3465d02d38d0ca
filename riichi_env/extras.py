"""Optional dependencies: a missing one names the extra that installs it.

``pip install -e ".[train]"`` brings Stable-Baselines3 with sb3-contrib (and torch) and matplotlib
(``riichi_env.integrations.sb3``, the arena's ``ppo:PATH`` seats, ``examples/train_maskable_ppo.py``);
``".[rllib]"`` brings RLlib (``riichi_env.integrations.rllib``, ``examples/train_rllib_ppo.py``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

EXTRAS = {
    "sb3_contrib": "train",
    "stable_baselines3": "train",
    "torch": "train",
    "matplotlib": "train",
    "ray": "rllib",
}
"""Top-level module -> the extra of ``pyproject.toml`` that installs it."""


class MissingExtraError(ModuleNotFoundError):
    """An optional dependency is not installed; the message names the extra to install."""


def missing_extra(exc: ModuleNotFoundError, needed_by: str) -> ModuleNotFoundError:
    """``exc`` (a failed import) as a ``MissingExtraError`` naming the extra, when its module
    belongs to one; ``exc`` itself otherwise."""
    top = (exc.name or "").partition(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return exc
    error = MissingExtraError(
        f"{needed_by} needs {top}: install the {extra} extra: pip install -e '.[{extra}]'",
        name=exc.name,
    )
    error.__cause__ = exc
    return error


def require(module: str, needed_by: str) -> ModuleType:
    """``import module``, or a ``MissingExtraError`` naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise missing_extra(exc, needed_by) from exc


__all__ = ["EXTRAS", "MissingExtraError", "missing_extra", "require"]
