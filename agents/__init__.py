"""Baseline agents that play through the environment API (they import only ``engine``).

Every agent has ``act(observation, action_mask, view) -> int``: the encoded observation, the
``int8`` legal-action mask and the seat's view (``riichi_env`` passes ``env.view(agent)``).
"""

from agents.efficiency_agent import EfficiencyAgent
from agents.random_agent import RandomAgent

__all__ = ["EfficiencyAgent", "RandomAgent"]
