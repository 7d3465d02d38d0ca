"""riichi_env: a fast, rule-exact Riichi Mahjong environment (PettingZoo AEC API).

``riichi_env.env(**options)`` / ``riichi_env.raw_env`` (spec: the ``riichi_env.aec.raw_env``
module docstring and ``docs/environment.md``), ``riichi_env.RiichiGymEnv`` (single-agent Gymnasium
wrapper), ``riichi_env.vector_env(num_tables=B, ...)`` (many tables stepped in one call,
``riichi_env.batch.vector``), ``riichi_env.selfplay(policy, games=...)`` (whole games with compiled
or batched Python policies, ``riichi_env.batch.play``; a Python policy is a ``riichi_env.Policy``),
``riichi_env.arena(...)`` (seats compared over many games), ``riichi_env.learner_vector_env(
num_tables=B, opponents=...)`` (one learning seat per table, ``riichi_env.batch.learner``), and the
dataset's ``Converter``, ``iter_batches``, ``write_shards``, ``load_shards`` (``riichi_env.dataset``).
The rooms (sub-packages) are listed in ``docs/internals.md``.

The names are imported on first use, so that a command line run that needs no env (``riichi-env
selfplay``, ``score``, ...) does not import Gymnasium and PettingZoo.
"""

import importlib

__version__ = "0.1.0"

from riichi_env import _siblings

_siblings.check()  # a user's engine.py or another 'agents' package would shadow ours

_EXPORTS = {
    "ENV_NAME": "riichi_env.aec.raw_env",
    "SeatView": "riichi_env.aec.raw_env",
    "env": "riichi_env.aec.raw_env",
    "raw_env": "riichi_env.aec.raw_env",
    "RiichiGymEnv": "riichi_env.integrations.gym",
    "LearnerVectorEnv": "riichi_env.batch.learner",
    "learner_vector_env": "riichi_env.batch.learner",
    "Policy": "riichi_env.batch.policy",
    "selfplay": "riichi_env.batch.play",
    "arena": "riichi_env.batch.arena",
    "RiichiVectorEnv": "riichi_env.batch.vector",
    "vector_env": "riichi_env.batch.vector",
    "Converter": "riichi_env.dataset",
    "iter_batches": "riichi_env.dataset",
    "write_shards": "riichi_env.dataset",
    "load_shards": "riichi_env.dataset",
    "compile": "riichi_env.core.compiling",
}
"""Each public name and the module that defines it."""

_GROUP_MODULES = ("riichi_env.records.mjai_kernels", "riichi_env.dataset.pack_kernels")
"""The modules that add their kernel groups to the compile layer (``riichi_env.core.compiling``,
``add_group``: ``"records"``, ``"dataset"``): imported with ``compile`` so that it knows them."""

__all__ = sorted(["__version__", *_EXPORTS])


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'riichi_env' has no attribute {name!r}")
    if name == "compile":
        for module in _GROUP_MODULES:
            importlib.import_module(module)
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
