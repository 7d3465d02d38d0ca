"""Stable-Baselines3: the single-learner vector env as an SB3 ``VecEnv``, masks for MaskablePPO.

```python
from sb3_contrib import MaskablePPO
from riichi_env.sb3 import RiichiSB3VecEnv

venv = RiichiSB3VecEnv(num_tables=64, opponents="efficiency", seed=0)
model = MaskablePPO("MlpPolicy", venv, n_steps=128).learn(100_000)
```

``RiichiSB3VecEnv(num_tables, opponents, learner_seat="random", seed=None, **options)`` wraps
``riichi_env.learner.LearnerVectorEnv`` (its docstring says what a table is): observations are
the learner's ``(rows, 34)`` float32 arrays, rewards the learner's, ``dones`` the end of a game
(the env resets that table itself; ``infos[i]["terminal_observation"]`` is the learner's last
view, and ``infos[i]`` also holds ``"rank"`` (0 = first), ``"points"``, ``"final_score"`` and
``"seat"``, and ``"episode"`` with the game's return ``"r"`` and learner decisions ``"l"``).
``env_method("action_masks")`` gives each table's mask, which is what MaskablePPO reads. Needs
the ``train`` extra (``pip install "riichi-env[train]"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from riichi_env.learner import LearnerVectorEnv


class RiichiSB3VecEnv(VecEnv):
    """``num_tables`` tables with one learner each, as an SB3 ``VecEnv`` (module docstring)."""

    def __init__(
        self,
        num_tables: int,
        opponents: Any = "efficiency",
        learner_seat: int | str = "random",
        *,
        seed: int | None = None,
        **options: Any,
    ):
        self.venv = LearnerVectorEnv(num_tables, opponents, learner_seat, seed=seed, **options)
        super().__init__(
            num_tables,
            self.venv.single_observation_space["observation"],
            self.venv.single_action_space,
        )
        self._reset_seed = seed
        self._actions: np.ndarray | None = None
        self._returns = np.zeros(num_tables, dtype=np.float64)
        self._lengths = np.zeros(num_tables, dtype=np.int64)

    def reset(self) -> np.ndarray:
        seed = self._reset_seed if self._reset_seed is not None else self._seeds[0]
        self._reset_seed = None
        self._seeds = [None] * self.num_envs
        obs, _ = self.venv.reset(seed=seed)
        self._returns[:] = 0
        self._lengths[:] = 0
        return obs["observation"]

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        obs, reward, term, trunc, info = self.venv.step(self._actions)
        self._actions = None
        self._returns += reward
        self._lengths += 1
        dones = term | trunc
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for t in np.flatnonzero(dones):
            fi = info["final_info"]
            infos[t] = {
                "terminal_observation": info["final_obs"][t]["observation"],
                "rank": int(fi["rank"][t]),
                "points": int(fi["points"][t]),
                "final_score": float(fi["final_score"][t]),
                "seat": int(fi["seat"][t]),
                "episode": {"r": float(self._returns[t]), "l": int(self._lengths[t])},
            }
            self._returns[t] = 0
            self._lengths[t] = 0
        return obs["observation"], reward, dones, infos

    # ------------------------------------------------------------------ VecEnv plumbing

    def action_masks(self) -> np.ndarray:
        """``bool (num_tables, 85)``: each learner's legal actions."""
        return self.venv.action_masks()

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list:
        idx = self._get_indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in idx]
        raise AttributeError(f"RiichiSB3VecEnv tables have no method {method_name!r}")

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def get_attr(self, attr_name: str, indices=None) -> list:
        idx = self._get_indices(indices)
        if attr_name == "render_mode":
            return [None for _ in idx]
        raise AttributeError(f"RiichiSB3VecEnv tables have no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        raise AttributeError(f"RiichiSB3VecEnv tables have no settable attribute {attr_name!r}")

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def _get_indices(self, indices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def close(self) -> None:
        self.venv.close()


class MaskablePPOAgent:
    """A trained MaskablePPO checkpoint as a seat policy (arena ``ppo:PATH``, ``selfplay``).

    ``act_batch`` predicts for a batch of tables (deterministic: the most likely legal action).
    """

    def __init__(self, path: str, deterministic: bool = True):
        from sb3_contrib import MaskablePPO

        self.path = str(path)
        self.deterministic = bool(deterministic)
        self.model = MaskablePPO.load(self.path, device="cpu")
        self.__name__ = f"ppo:{self.path}"

    def act_batch(self, observations, masks, seats, views) -> np.ndarray:
        actions, _ = self.model.predict(
            np.asarray(observations, dtype=np.float32),
            action_masks=np.asarray(masks).astype(np.bool_),
            deterministic=self.deterministic,
        )
        return np.asarray(actions, dtype=np.int64).reshape(-1)

    def __deepcopy__(self, memo) -> MaskablePPOAgent:
        return self  # read-only at play time: workers may share it

    def __getstate__(self) -> dict:
        return {"path": self.path, "deterministic": self.deterministic}

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["path"], state["deterministic"])


__all__ = ["MaskablePPOAgent", "RiichiSB3VecEnv"]
