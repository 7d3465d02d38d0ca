"""Stable-Baselines3: the single-learner vector env as an SB3 ``VecEnv``, masks for MaskablePPO.

```python
from sb3_contrib import MaskablePPO
from riichi_env.integrations.sb3 import RiichiSB3VecEnv

venv = RiichiSB3VecEnv(num_tables=64, opponents="efficiency", seed=0)
model = MaskablePPO("MlpPolicy", venv, n_steps=128).learn(100_000)
```

``RiichiSB3VecEnv(num_tables, opponents, learner_seat="random", seed=None, **options)`` wraps
``riichi_env.batch.learner.LearnerVectorEnv`` (its docstring says what a table is): observations are
the learner's ``(rows, 34)`` float32 arrays, rewards the learner's, ``dones`` the end of a game
(the env resets that table itself; ``infos[i]["terminal_observation"]`` is the learner's last
view, and ``infos[i]`` also holds ``"rank"`` (0 = first), ``"points"``, ``"final_score"`` and
``"seat"``, and ``"episode"`` with the game's return ``"r"`` and learner decisions ``"l"``).
``env_method("action_masks")`` gives each table's mask, which is what MaskablePPO reads. Needs
the ``train`` extra (``pip install "riichi-env[train]"``).

Helpers the training examples share: ``policy_kwargs(net)`` and ``maskable_ppo(env, ...)`` build
the MaskablePPO model (``TileConvExtractor`` or SB3's MLP), ``masked_logits(policy, obs, masks)``
gives the policy's action logits with illegal actions masked out (for cross-entropy on a teacher's
or a record's move), ``freeze_policy(model, frozen)`` lets PPO fit the value head alone, and
``evaluate_in_arena(model, opponent, games)`` plays duplicate arena games against three opponents.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from riichi_env.extras import missing_extra, require

try:
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from stable_baselines3.common.vec_env import VecEnv
    from torch import nn
except ModuleNotFoundError as exc:
    raise missing_extra(
        exc, "riichi_env.integrations.sb3 (the ppo: seats, RiichiSB3VecEnv)"
    ) from exc

from riichi_env.batch.learner import LearnerVectorEnv
from riichi_env.core.encoders import ALL_ENCODERS, N_ROWS


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
        """``bool (num_tables, 85)`` (86 with three players): each learner's legal actions."""
        return self.venv.action_masks()

    def expert_actions(self, policy: str = "efficiency") -> np.ndarray:
        """``int64 (num_tables,)``: what compiled ``policy`` would play for each learner now."""
        return self.venv.expert_actions(policy)

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


def encoder_of(space: Any, what: str = "the model") -> str:
    """The encoder whose observations have this space's ``(rows, 34)`` shape (the three-seat
    encoders' rows differ from every four-seat one's)."""
    shape = tuple(getattr(space, "shape", None) or ())
    for name in ALL_ENCODERS:
        if shape == (N_ROWS[name], 34):
            return name
    raise ValueError(
        f"{what} observes shape {shape}, which is no encoder's; "
        f"expected (rows, 34) with rows one of {N_ROWS}"
    )


class TileConvExtractor(BaseFeaturesExtractor):
    """Features of a ``(rows, 34)`` observation for MaskablePPO: a 1D CNN over the 34 tile kinds.

    Every row is an input channel; ``blocks`` residual blocks of ``channels`` convolutions
    (kernel 3) run along the tile axis, so each kind's column sees its neighbours and every scalar
    row. The features are ``per_tile`` numbers per kind (a 1x1 convolution: what the discard and
    kan logits of that kind need) followed by ``hidden`` numbers from the mean and max over the
    kinds. ``policy_kwargs=dict(features_extractor_class=TileConvExtractor)``.
    """

    def __init__(
        self,
        observation_space: spaces.Box,
        channels: int = 64,
        blocks: int = 2,
        per_tile: int = 4,
        hidden: int = 128,
    ):
        rows, kinds = observation_space.shape
        super().__init__(observation_space, per_tile * kinds + hidden)
        self.stem = nn.Sequential(nn.Conv1d(rows, channels, 3, padding=1), nn.ReLU())
        self.blocks = nn.ModuleList(
            nn.Sequential(
                nn.Conv1d(channels, channels, 3, padding=1),
                nn.ReLU(),
                nn.Conv1d(channels, channels, 3, padding=1),
            )
            for _ in range(blocks)
        )
        self.per_tile = nn.Conv1d(channels, per_tile, 1)
        self.pooled = nn.Sequential(nn.Linear(2 * channels, hidden), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        x = self.stem(observations)
        for block in self.blocks:
            x = torch.relu(x + block(x))
        tiles = self.per_tile(x).flatten(1)
        pooled = self.pooled(torch.cat([x.mean(2), x.amax(2)], 1))
        return torch.cat([tiles, pooled], 1)


class MaskablePPOAgent:
    """A trained MaskablePPO checkpoint as a seat policy (arena ``ppo:PATH``, ``selfplay``).

    ``act_batch`` predicts for a batch of tables (deterministic: the most likely legal action).
    ``encoder`` is the one the checkpoint was trained on, read from its observation shape (every
    encoder has its own number of rows); ``selfplay`` and ``arena`` observe with it.

    Loading unpickles objects stored in the zip (``MaskablePPO.load``), which can run any code:
    load only checkpoints you trust.
    """

    def __init__(self, path: str, deterministic: bool = True):
        MaskablePPO = require("sb3_contrib", "a ppo: seat (MaskablePPO)").MaskablePPO

        self.path = str(path)
        self.deterministic = bool(deterministic)
        self.model = MaskablePPO.load(self.path, device="cpu")
        self.__name__ = f"ppo:{self.path}"
        self.encoder = encoder_of(self.model.observation_space, self.path)

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


NETS = ("conv", "mlp")
"""Policy networks of ``policy_kwargs``: the tile CNN or SB3's default two layers of 64."""

MASKED_LOGIT = -1e8
"""The logit of an illegal action in ``masked_logits`` (as sb3-contrib's ``MaskableCategorical``)."""


def policy_kwargs(net: str = "conv") -> dict[str, Any]:
    """MaskablePPO ``policy_kwargs`` of a network: ``"conv"`` (``TileConvExtractor``) or ``"mlp"``."""
    if net == "conv":
        return {"features_extractor_class": TileConvExtractor, "net_arch": {"pi": [], "vf": [128]}}
    if net == "mlp":
        return {"net_arch": {"pi": [64, 64], "vf": [64, 64]}}  # SB3's default
    raise ValueError(f"net must be one of {NETS}, got {net!r}")


def maskable_ppo(
    env: Any,
    *,
    net: str = "conv",
    cloned: bool = False,
    lr: float | None = None,
    n_steps: int = 64,
    batch_size: int = 1024,
    seed: int = 0,
) -> Any:
    """A MaskablePPO model on ``env`` with the examples' settings.

    ``cloned=True`` is for fine-tuning a policy that already plays (behaviour cloning first):
    learning rate 1e-4, clip 0.1, no entropy bonus (no push away from the teacher's moves);
    otherwise 3e-4, clip 0.2, entropy 0.01. ``lr`` overrides the learning rate.
    """
    MaskablePPO = require("sb3_contrib", "MaskablePPO").MaskablePPO
    if lr is not None and not (isinstance(lr, (int, float)) and lr > 0):
        raise ValueError(f"lr must be a positive number or None, got {lr!r}")
    return MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=batch_size,
        n_epochs=4,
        learning_rate=lr if lr is not None else (1e-4 if cloned else 3e-4),
        clip_range=0.1 if cloned else 0.2,
        gamma=0.997,
        ent_coef=0.0 if cloned else 0.01,
        policy_kwargs=policy_kwargs(net),
        seed=seed,
        verbose=0,
    )


def masked_logits(policy: Any, obs: torch.Tensor, masks: Any) -> torch.Tensor:
    """``float32 (n, 85)``: a MaskablePPO policy's action logits, illegal actions at ``MASKED_LOGIT``.

    ``obs`` is a float tensor ``(n, rows, 34)`` of the policy's encoder, ``masks`` ``(n, 85)``
    (bool or 0/1, numpy or torch). ``torch.nn.functional.cross_entropy(logits, actions)`` is then
    the negative log-likelihood of the masked distribution MaskablePPO samples from.
    """
    if not isinstance(obs, torch.Tensor) or not obs.is_floating_point():
        raise TypeError(f"obs must be a float torch.Tensor, got {type(obs).__name__}")
    shape = tuple(policy.observation_space.shape)
    if obs.dim() != 1 + len(shape) or tuple(obs.shape[1:]) != shape:
        raise ValueError(f"obs must have shape (n, {shape[0]}, {shape[1]}), got {tuple(obs.shape)}")
    mask = torch.as_tensor(np.asarray(masks) if not isinstance(masks, torch.Tensor) else masks)
    n_actions = int(policy.action_space.n)
    if tuple(mask.shape) != (obs.shape[0], n_actions):
        raise ValueError(
            f"masks must have shape ({obs.shape[0]}, {n_actions}), got {tuple(mask.shape)}"
        )
    features = policy.extract_features(obs, policy.pi_features_extractor)
    logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
    return logits.masked_fill(~mask.to(device=logits.device, dtype=torch.bool), MASKED_LOGIT)


def freeze_policy(model: Any, frozen: bool) -> None:
    """Stop (or restart) training the policy's layers, so that PPO fits the value head alone.

    After cloning, the value head has never been trained, and the advantages it gives would first
    pull the cloned policy around at random.
    """
    policy = model.policy
    shared = policy.features_extractor if policy.share_features_extractor else None
    for module in (
        shared,
        policy.pi_features_extractor,
        policy.mlp_extractor.policy_net,
        policy.action_net,
    ):
        if module is not None:
            for p in module.parameters():
                p.requires_grad_(not frozen)


class _ModelSeat:
    """An in-memory MaskablePPO model as an arena seat (deterministic, batched)."""

    def __init__(self, model: Any, name: str):
        self.model = model
        self.__name__ = name
        self.encoder = encoder_of(model.observation_space)

    def act_batch(self, observations, masks, seats, views) -> np.ndarray:
        with torch.no_grad():  # the most likely legal action, as predict(deterministic=True)
            obs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
            logits = masked_logits(self.model.policy, obs, np.asarray(masks).astype(np.bool_))
        return logits.argmax(1).numpy().astype(np.int64)

    def __deepcopy__(self, memo) -> _ModelSeat:
        return self  # read-only at play time: worker threads may share it


def evaluate_in_arena(
    model: Any,
    opponent: str = "simple",
    games: int = 400,
    *,
    seed: int = 10_000,
    workers: int = 1,
    name: str = "ppo",
) -> dict[str, Any]:
    """Duplicate arena games of ``model`` (deterministic) against three ``opponent`` seats.

    Returns the model's row of ``riichi_env.batch.arena.arena``: ``avg_rank``, ``avg_rank_ci95``,
    ``win_rate``, ``games``, ...
    """
    from riichi_env.batch.arena import arena

    if not isinstance(opponent, str):
        raise TypeError(f"opponent must be a seat name (str), got {type(opponent).__name__}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    seat = _ModelSeat(model, name)
    out = arena(
        [seat, opponent, opponent, opponent],
        games=games,
        seed=seed,
        workers=workers,
        progress=False,
    )
    return out["agents"][0]


__all__ = [
    "MASKED_LOGIT",
    "NETS",
    "MaskablePPOAgent",
    "RiichiSB3VecEnv",
    "TileConvExtractor",
    "evaluate_in_arena",
    "freeze_policy",
    "maskable_ppo",
    "masked_logits",
    "policy_kwargs",
]
