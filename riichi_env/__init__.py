"""riichi_env: a fast, rule-exact Riichi Mahjong environment (PettingZoo AEC API).

``riichi_env.env(**options)`` / ``riichi_env.raw_env`` (spec: the ``riichi_env.env`` module
docstring and ``docs/environment.md``), ``riichi_env.RiichiGymEnv`` (single-agent Gymnasium
wrapper), ``riichi_env.vector_env(num_tables=B, ...)`` (many tables stepped in one call,
``riichi_env.vector``), ``riichi_env.selfplay(policy, games=...)`` (whole games with compiled or
batched Python policies, ``riichi_env.play``), ``riichi_env.learner_vector_env(num_tables=B,
opponents=...)`` (one learning seat per table, ``riichi_env.learner``).

The names are imported on first use, so that a command line run that needs no env (``riichi-env
selfplay``, ``score``, ...) does not import Gymnasium and PettingZoo.
"""

import importlib
import sys
import types

__version__ = "0.1.0"

from riichi_env import _siblings

_siblings.check()  # a user's engine.py or another 'agents' package would shadow ours

_EXPORTS = {
    "ENV_NAME": "riichi_env.env",
    "SeatView": "riichi_env.env",
    "env": "riichi_env.env",
    "raw_env": "riichi_env.env",
    "RiichiGymEnv": "riichi_env.gym_wrapper",
    "LearnerVectorEnv": "riichi_env.learner",
    "learner_vector_env": "riichi_env.learner",
    "selfplay": "riichi_env.play",
    "RiichiVectorEnv": "riichi_env.vector",
    "vector_env": "riichi_env.vector",
}
"""Each public name and the module that defines it."""

__all__ = sorted(["__version__", *_EXPORTS])


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'riichi_env' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """The package's module type: ``riichi_env.env`` is always the ``env()`` function, also once
    the import system has tried to set it to the submodule ``riichi_env/env.py``."""

    @property
    def env(self):
        from riichi_env.env import env

        return env

    @env.setter
    def env(self, value) -> None:
        """Ignored: the import system sets the submodule of that name here."""


sys.modules[__name__].__class__ = _Package
