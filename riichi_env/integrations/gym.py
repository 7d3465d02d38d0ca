"""A Gymnasium single-agent view of the table: one learning seat against three given policies.

```python
from riichi_env.integrations.gym import RiichiGymEnv
from agents import EfficiencyAgent

env = RiichiGymEnv(opponents=[EfficiencyAgent()] * 3, seat="random", reward="placement")
obs, info = env.reset(seed=0)
obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))
```

With three-player rules (``rules="mahjongsoul-3p"`` / ``"tenhou-3p"``) the learner plays
against two opponents, its seat is 0-2, and the action space is ``Discrete(86)`` (85: kita).

The observation and action spaces are the PettingZoo env's (``Dict(observation, action_mask)`` and
``Discrete(N_ACTIONS)``). A step plays the learner's action, then the opponents' decisions until
the learner must decide again or the game ends; the reward is the learner's reward accumulated over
those AEC steps. An illegal action ends the episode with ``illegal_reward`` (``info["illegal_action"]``
is True) unless ``illegal_action="raise"``. ``action_masks()`` returns the current mask as booleans
(the convention of maskable-PPO implementations). Importing ``riichi_env`` registers it with
Gymnasium as ``riichi_env/Riichi-v0`` (``gymnasium.make("riichi_env/Riichi-v0", **options)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium
import numpy as np

from agents.random_agent import RandomAgent
from engine.arguments import (
    check_action,
    check_choice,
    check_number,
    check_seat,
    check_seed,
    describe,
    is_int,
)
from riichi_env.aec.raw_env import ResetNeededError, raw_env


def _policy_fn(policy):
    """A policy object with ``act(observation, action_mask, view)`` or a plain callable."""
    act = getattr(policy, "act", None)
    if callable(act):
        return act
    if callable(policy):
        return policy
    raise TypeError(f"opponent policy {policy!r} has no act() and is not callable")


class RiichiGymEnv(gymnasium.Env):
    """One learning seat of the PettingZoo table as a ``gymnasium.Env``.

    Args:
        opponents: Three policies (two with three-player rules) for the other seats, in seat
            order after the learner; each is an object with ``act(observation, action_mask,
            view) -> int`` or such a callable. ``None``: ``RandomAgent`` s seeded from
            ``reset(seed=...)``.
        seat: The learner's seat 0-3 (0-2 with three players), or ``"random"`` for a new seat
            drawn at every reset.
        illegal_action: ``"penalty"`` (end the episode with ``illegal_reward``) or ``"raise"``.
        illegal_reward: Reward for an illegal action under ``"penalty"``.
        render_mode: ``None``, ``"ansi"`` or ``"human"``, from the learner's seat.
        **env_options: Options of ``riichi_env.raw_env`` (rules, reward, encoder, ...).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        opponents: Sequence[Any] | None = None,
        seat: int | str = 0,
        illegal_action: str = "penalty",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **env_options: Any,
    ) -> None:
        if not (isinstance(seat, str) and seat == "random"):
            if not is_int(seat):
                raise TypeError(f"seat must be an int 0-3 or 'random', got {describe(seat)}")
            seat = check_seat(seat)  # 0-2 with three players: checked once the rules are known
        check_choice("illegal_action", illegal_action, ("penalty", "raise"))
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        if opponents is not None:
            if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Iterable):
                raise TypeError(
                    f"opponents must be a list of three policies (or None), got {describe(opponents)}"
                )
            opponents = list(opponents)
            if len(opponents) not in (2, 3):
                raise ValueError(f"opponents must be three policies, got {len(opponents)}")
            self._opponent_fns = [_policy_fn(p) for p in opponents]
        else:
            self._opponent_fns = None
        self._seat_option = seat
        self.illegal_action = illegal_action
        self.illegal_reward = check_number("illegal_reward", illegal_reward)
        self.render_mode = render_mode
        self.aec = raw_env(**env_options)
        self.players = p = self.aec.players
        """Seats at the table: 4, or 3 with three-player rules (two opponents, seats 0-2)."""
        if self._opponent_fns is not None and len(self._opponent_fns) != p - 1:
            word = {2: "two", 3: "three"}[p - 1]
            raise ValueError(
                f"opponents must be {word} policies with {p}-player rules, "
                f"got {len(self._opponent_fns)}"
            )
        if seat != "random" and seat >= p:
            raise ValueError(f"seat must be 0-{p - 1} or 'random' with {p} players, got {seat}")
        self.observation_space = self.aec.observation_space("player_0")
        self.action_space = self.aec.action_space("player_0")
        self.seat = 0 if seat == "random" else int(seat)
        self._policies: list = [None] * 4
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)
        self._done = True
        self._has_reset = False

    @property
    def agent(self) -> str:
        """The learner's PettingZoo agent name."""
        return self.aec.possible_agents[self.seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is not None:
            seed = check_seed(seed)
        super().reset(seed=seed)
        rng = self.np_random
        p = self.players
        if self._seat_option == "random":
            self.seat = int(rng.integers(p))
        others = [(self.seat + k) % p for k in range(1, p)]
        if self._opponent_fns is None:
            fns = [RandomAgent(int(rng.integers(2**31))).act for _ in others]
        else:
            fns = self._opponent_fns
        self._policies = [None] * 4
        for s, fn in zip(others, fns, strict=True):
            self._policies[s] = fn
        self.aec.reset(seed=int(rng.integers(2**31)), options=options)
        self._done = False
        self._has_reset = True
        reward = self._advance()
        obs = self.aec.observe(self.agent)
        self._mask = obs["action_mask"]
        return obs, {"seat": self.seat, "reward_before_first_decision": reward}

    def _advance(self) -> float:
        """Play the opponents until the learner decides or the game ends; the learner's reward."""
        aec = self.aec
        me = self.agent
        total = 0.0
        while aec.agents and aec.agent_selection != me:
            agent = aec.agent_selection
            if aec.terminations[agent] or aec.truncations[agent]:
                break
            seat = aec.possible_agents.index(agent)
            obs = aec.observe(agent)
            action = self._policies[seat](obs["observation"], obs["action_mask"], aec.view(agent))
            aec.step(action)
            total += aec.rewards.get(me, 0.0)
        if not aec.agents or aec.terminations[me] or aec.truncations[me]:
            self._done = True
        return total

    def step(self, action) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise ResetNeededError("step() before reset(): call reset() first")
        if self._done:
            raise ResetNeededError("step() called on a finished episode; call reset()")
        try:
            a = check_action(action, self.action_space.n, self.agent)
        except ValueError:  # an int outside the space: an illegal action like any other
            a = -1
        if not (a >= 0 and self._mask[a]):
            if self.illegal_action == "raise":
                raise ValueError(f"illegal action {action} for seat {self.seat}")
            self._done = True
            obs = self.aec.observe(self.agent)
            return obs, self.illegal_reward, True, False, {"illegal_action": True}
        self.aec.step(a)
        reward = self.aec.rewards.get(self.agent, 0.0) + self._advance()
        obs = self.aec.observe(self.agent)
        self._mask = obs["action_mask"]
        info: dict[str, Any] = {"illegal_action": False}
        if self._done:
            info["final_scores"] = self.aec.final_scores()[: self.players]
        return obs, float(reward), self._done, False, info

    def action_masks(self) -> np.ndarray:
        """The current legal actions as ``bool[N_ACTIONS]``."""
        return self._mask.astype(bool)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if not self._has_reset:
            raise ResetNeededError("render() before reset(): call reset() first")
        text = self.aec.render_text(self.agent)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.aec.close()


GYM_ID = "riichi_env/Riichi-v0"
if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="riichi_env.integrations.gym:RiichiGymEnv")
