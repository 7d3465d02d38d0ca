"""RLlib: riichi as a turn-based ``MultiAgentEnv``, observations shaped for action masking.

```python
from ray.rllib.algorithms.ppo import PPOConfig
from riichi_env.integrations.rllib import RiichiMultiAgentEnv

config = PPOConfig().environment(RiichiMultiAgentEnv, env_config={"encoder": "basic_v0"})
```

``RiichiMultiAgentEnv(config)`` wraps ``riichi_env.raw_env(**config)`` (any env option: encoder,
rules, reward, ...). Agents are ``player_0`` … ``player_3`` (seat 0 is the first dealer; ``player_0``
… ``player_2`` with three-player rules). Each observation dict holds only the seat to
act, as ``{"observations": float32 (rows * 34,), "action_mask": float32 (85,)}`` (86 with three
players: 85 is kita): the keys of RLlib's action-masking module
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm.ActionMaskingTorchRLModule``), the
encoder's rows flattened. Rewards are returned for every seat at every step (a seat's reward may
accrue while another acts, such as a deal-in; RLlib adds it to that seat's next transition). At
game end ``terminateds["__all__"]`` is true and every seat gets its final observation.
An illegal action raises ``ValueError`` (as the AEC env does), so RLlib's start-up check, which
steps with unmasked random actions, is turned off with ``.environment(...,
disable_env_checking=True)``. ``examples/train_rllib_ppo.py`` trains PPO with action masking on it. Needs ``ray[rllib]``
(``pip install "riichi-env[rllib]"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from riichi_env.extras import missing_extra

try:
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ModuleNotFoundError as exc:
    raise missing_extra(exc, "riichi_env.integrations.rllib") from exc

from riichi_env.aec.raw_env import raw_env


class RiichiMultiAgentEnv(MultiAgentEnv):
    """Turn-based riichi for RLlib (module docstring); ``config`` holds the env's options."""

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        options = dict(config or {})
        self._env = raw_env(**options)
        n = self._env.action_space(self._env.possible_agents[0]).n  # 85, or 86 with three players
        self.possible_agents = list(self._env.possible_agents)
        self.agents = list(self.possible_agents)
        inner = self._env.observation_space(self.agents[0])["observation"]
        flat = int(np.prod(inner.shape))
        low = np.asarray(inner.low, dtype=np.float32).reshape(flat)
        high = np.asarray(inner.high, dtype=np.float32).reshape(flat)
        obs_space = spaces.Dict(
            {
                "observations": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0.0, 1.0, (n,), dtype=np.float32),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}

    @property
    def raw(self):
        """The wrapped ``riichi_env.raw_env`` (its ``view``, ``render``, records ...)."""
        return self._env

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        o = self._env.observe(agent)
        return {
            "observations": np.asarray(o["observation"], dtype=np.float32).reshape(-1),
            "action_mask": np.asarray(o["action_mask"], dtype=np.float32),
        }

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game; the observation of the seat to act (the dealer)."""
        self._env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        agent = self._env.agent_selection
        return {agent: self._obs(agent)}, {agent: {}}

    def step(self, action_dict: dict[str, Any]):
        """Play the acting seat's action; the next seat's observation and every seat's reward."""
        agent = self._env.agent_selection
        if agent not in action_dict:
            raise ValueError(
                f"step needs the action of {agent}, the seat to act; got actions for "
                f"{sorted(action_dict)}"
            )
        extra = sorted(set(action_dict) - {agent})
        if extra:
            raise ValueError(f"only {agent} acts now; got actions for {extra} too")
        action = action_dict[agent]
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        self._env.step(action)
        rewards = {a: float(self._env.rewards[a]) for a in self.possible_agents}
        over = all(self._env.terminations[a] or self._env.truncations[a] for a in self.agents)
        if over:
            obs = {a: self._obs(a) for a in self.possible_agents}
            terminateds = {a: bool(self._env.terminations[a]) for a in self.possible_agents}
            truncateds = {a: bool(self._env.truncations[a]) for a in self.possible_agents}
            terminateds["__all__"] = all(terminateds.values())
            truncateds["__all__"] = not terminateds["__all__"]
            infos = {a: dict(self._env.infos[a]) for a in self.possible_agents}
            self.agents = []
            return obs, rewards, terminateds, truncateds, infos
        nxt = self._env.agent_selection
        return (
            {nxt: self._obs(nxt)},
            rewards,
            {"__all__": False},
            {"__all__": False},
            {nxt: {}},
        )

    def render(self):
        return self._env.render()

    def close(self) -> None:
        self._env.close()


__all__ = ["RiichiMultiAgentEnv"]
