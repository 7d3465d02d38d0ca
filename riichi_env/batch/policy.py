"""What self-play and the arena accept as a Python policy, declared as ``typing.Protocol``s.

A seat's policy (``riichi_env.selfplay``, ``riichi_env.arena``, the learner env's opponents) is a
compiled policy's name (``riichi_env.batch.play.POLICY_NAMES``) or a Python policy in one of four
forms; each is checked with ``isinstance`` (structurally, by method name):

- ``Policy``: an agent deciding one table at a time, ``act(observation, action_mask, view) -> int``
  (the agents of ``agents/``).
- ``BatchPolicy``: an agent deciding a batch, ``act_batch(observations, masks, seats, views) ->
  actions`` (``riichi_env.integrations.sb3.MaskablePPOAgent``); preferred over ``act`` when an
  agent has both.
- ``LogPolicy``: a seat reading the game's event log, ``act_log(decision) -> int`` with a
  ``riichi_env.mjai.seat.LogDecision`` (``MjaiBot``); used before the other two.
- ``PolicyFunction``: a plain callable ``(obs, mask, seat) -> actions`` on a batch.

Optional hooks, looked up by name when present: ``encoder`` (attribute: the encoder a policy reads,
which the run then observes with), ``game_over(rows, t, game, rules, bot_errors, errors)`` (a
``LogPolicy`` told that a game ended) and ``close()`` (a ``LogPolicy`` closed after the run).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Policy(Protocol):
    """An agent deciding one table at a time (the other forms: see the module docstring)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: Any) -> int:
        """One legal action id for the seat of ``view`` (a ``SeatView``)."""
        ...


@runtime_checkable
class BatchPolicy(Protocol):
    """An agent deciding a batch of tables in one call."""

    def act_batch(
        self, observations: np.ndarray, masks: np.ndarray, seats: np.ndarray, views: list
    ) -> np.ndarray:
        """One legal action id per row of ``observations``."""
        ...


@runtime_checkable
class LogPolicy(Protocol):
    """A seat that reads the game's event log (an external bot over mjai)."""

    def act_log(self, decision: Any) -> int:
        """One legal action id for the ``LogDecision``."""
        ...


@runtime_checkable
class PolicyFunction(Protocol):
    """A plain function on a batch: ``(obs (n, rows, 34), mask (n, 85), seat (n,)) -> (n,)``."""

    def __call__(self, obs: np.ndarray, mask: np.ndarray, seat: np.ndarray) -> Any:
        """One legal action id per table."""
        ...


PolicyLike = str | Policy | BatchPolicy | LogPolicy | PolicyFunction
"""Anything a seat accepts: a compiled policy's name or a Python policy of one of the forms."""

METHODS = ("act", "act_batch", "act_log")
"""The agent methods, one of which (or ``__call__``) makes an object a Python policy."""


def is_python_policy(policy: Any) -> bool:
    """True when ``policy`` is one of the Python forms (``Policy``, ``BatchPolicy``,
    ``LogPolicy``, ``PolicyFunction``)."""
    return isinstance(policy, (Policy, BatchPolicy, LogPolicy)) or callable(policy)
