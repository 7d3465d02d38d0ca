"""Baseline agents that play through the environment API (they import only ``engine``).

Every agent has ``act(observation, action_mask, view) -> int``: the encoded observation, the
``int8`` legal-action mask and the seat's view (``riichi_env`` passes ``env.view(agent)``; the
vector self-play and the arena pass the same ``SeatView``). ``EfficiencyAgent`` plays for speed
with a yaku and folds against threats; ``SimpleEfficiencyAgent`` (the first baseline) never calls
and never folds; ``RandomAgent`` picks uniformly.
"""

from agents.efficiency_agent import EfficiencyAgent
from agents.random_agent import RandomAgent
from agents.simple_efficiency_agent import SimpleEfficiencyAgent

__all__ = ["EfficiencyAgent", "RandomAgent", "SimpleEfficiencyAgent"]
