"""A uniformly random legal-action agent."""

from __future__ import annotations

import numpy as np


class RandomAgent:
    """Picks uniformly among the legal actions of the mask; seeded, no global RNG.

    Args:
        seed: Seed of the agent's own generator.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view=None) -> int:
        """A legal action id chosen uniformly; ``observation`` and ``view`` are ignored."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("action_mask has no legal action")
        return int(legal[self._rng.integers(legal.size)])

    def __call__(self, observation, action_mask, view=None) -> int:
        return self.act(observation, action_mask, view)
