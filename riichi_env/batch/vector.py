"""``riichi_v0`` as a vector environment: ``B`` tables, the seat to act at each, one compiled call
per step.

```python
import numpy as np
import riichi_env

venv = riichi_env.vector_env(num_tables=256, encoder="basic_v0", seed=0)
obs, info = venv.reset()
rng = np.random.default_rng(0)
for _ in range(1000):
    mask = obs["action_mask"]                                 # int8 (B, 85)
    actions = (rng.random(mask.shape) * mask).argmax(axis=1)  # a random legal action per table
    obs, rewards, terminations, truncations, info = venv.step(actions)
```

| | |
|---|---|
| observation | ``{"observation": (B, rows, 34), "action_mask": int8 (B, 85)}``: table ``i``'s acting seat ``info["seat"][i]`` (0-3) |
| action | ``int (B,)``: one engine action id (``docs/environment.md``) per table, legal for its acting seat |
| reward | ``float32 (B, 4)``: each seat's reward at the step it accrues (``reward=`` as in the AEC env: ``"hand"``, ``"placement"``, ``"rank"``) |
| terminations | ``bool (B,)``: the table's game ended at this step; truncations are always false |
| autoreset | ``AutoresetMode.SAME_STEP`` (``metadata["autoreset_mode"]``): a table whose game ended returns the next game's first observation in the same step |

A table is the AEC env with the same options: table ``i`` whose game seed is ``s``
(``info["game_seed"][i]``) plays exactly the game ``env.reset(seed=s)`` plays, with the same
observations, masks and rewards under the same actions. ``reset(seed=S)`` gives table ``i`` seed
``S + i``, and each table's next games ``S + i + B``, ``S + i + 2B``, ... (modulo 2**63), so a
batch plays the seeds ``S, S + 1, ...`` once each; ``reset(seed=[s_0, ..., s_{B-1}])`` starts table
``i`` at ``s_i`` (then ``s_i + B``, ...); ``reset()`` draws ``S`` from the env's ``seed=`` generator.

``info`` of every step holds ``"seat"`` (int64 ``(B,)``) and ``"game_seed"`` (int64 ``(B,)``, the
game now at each table). When a table's game ended (``terminations[i]``), ``info["final_obs"][i]``
is the last observation of the seat that acted (the mask all zeros) and ``info["final_info"]``
holds, per table, ``"points"`` (int ``(B, 4)``), ``"final_score"`` (float ``(B, 4)``, as the AEC
env's ``infos``), ``"rank"`` (int ``(B, 4)``, 0 = first) and ``"game_seed"`` of the game that ended;
``info["_final_obs"]`` and ``info["_final_info"]`` mark those tables (Gymnasium's convention).
A game seed determines the game's every wall (and, through ``S + i + B``, the next games' seeds):
``info_seed=False`` leaves ``"game_seed"`` out of ``info`` and ``final_info``, so a policy that
sees only observations and ``info`` cannot rebuild the walls (``docs/environment.md``).

``obs_dtype=np.uint8`` writes each feature as a byte, ``round(255 * (x - low) / (high - low))`` with
the encoder's bounds (``riichi_env.core.encoders.bounds``): 0/1 rows are exactly 0/255, counts of four
within 1/510. ``dequantize(obs)`` maps bytes back to floats. By default a step returns fresh
arrays; ``copy=False`` returns the env's own buffers, overwritten by the next step (faster for
large batches). ``threads=K`` steps the tables in K compiled calls at once, each over its own
contiguous share of at least ``MIN_SHARE`` tables (``riichi_env.batch.tables``): the kernels
release the GIL, and every table's game is the one-thread game, byte for byte. An illegal action
raises ``ValueError`` naming the table, the seat and the action (nothing is applied); a
non-integer one raises ``TypeError``. After ``close()``, ``reset`` and ``step`` raise
``ClosedEnvError`` (Gymnasium's ``ClosedEnvironmentError``).

**Three players** (``rules="mahjongsoul-3p"`` / ``"tenhou-3p"``): masks ``int8 (B, 86)``
(85: kita), ``Discrete(86)``, the three-seat encoders (``basic3_v0`` default), rewards ``float32
(B, 3)`` and ``final_info`` arrays ``(B, 3)``; ``info["seat"]`` is 0-2.

The rewards are every seat's, for self-play: Gymnasium's vector wrappers that keep one reward per
table (``RecordEpisodeStatistics``, ``NormalizeReward``) are refused as they are built, with a
``PerSeatRewardsError`` naming ``riichi_env.learner_vector_env``, the one-learner form whose
``(B,)`` rewards they take; elementwise ones (``ClipReward``, ``TransformReward``) work.
"""

from __future__ import annotations

import sys
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from engine.actions import n_actions
from engine.arguments import check_bool, check_int, check_seed, describe
from engine.rules import Rules
from riichi_env.aec.raw_env import ENV_NAME
from riichi_env.batch.tables import Batch
from riichi_env.core.compiling import ensure_compiled
from riichi_env.core.encoders import ENCODER_IDS, N_ROWS, bounds, encoder_for
from riichi_env.core.options import _make_rules, check_obs_dtype, default_rank_points, reward_spec
from riichi_env.core.runner import PYTHON_SEAT

MAX_THREADS = 64
"""Most threads a vector env steps its tables in (``threads=``)."""

GAMES_FOREVER = 2**62
"""``games_end`` of a vector env: tables never run out of games."""


REWARD_WRAPPERS = ("RecordEpisodeStatistics", "NormalizeReward")
"""Gymnasium's vector wrappers (``gymnasium.wrappers.vector``) that keep one reward per table: they
cannot wrap the per-seat rewards ``(B, 4)`` of a ``RiichiVectorEnv``; ``learner_vector_env``'s
``(B,)`` rewards suit them."""


class PerSeatRewardsError(TypeError):
    """A Gymnasium vector wrapper that needs one reward per table (``REWARD_WRAPPERS``) was
    applied to a ``RiichiVectorEnv``, whose rewards are per seat."""


def _reward_wrapper_building() -> Any:
    """The ``REWARD_WRAPPERS`` wrapper whose constructor is running (reading the env's metadata
    or ``num_envs``, as theirs do), if any: the frames up the stack whose ``self`` is one."""
    wrappers = sys.modules.get("gymnasium.wrappers.vector")
    if wrappers is None:
        return None
    kinds = tuple(getattr(wrappers, name) for name in REWARD_WRAPPERS)
    frame = sys._getframe(2)
    for _ in range(8):  # the wrapper's __init__, through the properties of wrappers in between
        if frame is None:
            break
        owner = frame.f_locals.get("self")
        if isinstance(owner, kinds) and frame.f_code.co_name == "__init__":
            return owner
        frame = frame.f_back
    return None


class _Detached:
    """What a refused wrapper (and the wrappers under it) point to instead of the env: Gymnasium's
    ``VectorEnv.__del__`` closes a wrapper that is not closed, and closing a wrapper closes the env
    under it, so a refused, half-built wrapper would otherwise close the user's env when it is
    garbage-collected."""

    closed = True

    def close(self, **kwargs: Any) -> None:
        """Nothing to close."""

    def __getattr__(self, name: str) -> Any:
        raise PerSeatRewardsError(
            "this Gymnasium wrapper was built around a wrapper that riichi_env refused "
            "(PerSeatRewardsError); build the wrappers again around riichi_env.learner_vector_env"
        )


def _detach(wrapper: Any, env: Any) -> None:
    """Point ``wrapper`` and every wrapper between it and ``env`` at a ``_Detached``."""
    for _ in range(64):
        inner = wrapper.__dict__.get("env")
        if inner is None:
            return
        wrapper.__dict__["env"] = _Detached()
        if inner is env:
            return
        wrapper = inner


def _refuse_reward_wrappers(obj: object) -> None:
    """Raise ``PerSeatRewardsError`` if a ``REWARD_WRAPPERS`` wrapper is being built on ``obj``."""
    wrapper = _reward_wrapper_building()
    if wrapper is not None:
        name = type(wrapper).__name__
        _detach(wrapper, obj)
        raise PerSeatRewardsError(
            f"gymnasium.wrappers.vector.{name} cannot wrap riichi_env's "
            f"{type(obj).__name__}: its rewards are per seat, shape (num_tables, 4), for "
            f"self-play, and {name} keeps one reward per table. Use "
            "riichi_env.learner_vector_env(num_tables, opponents=...) (one learning seat "
            "per table, rewards (num_tables,)), which works with Gymnasium's vector "
            "wrappers; docs/environment.md, 'Which env for which tools'"
        )


class _Metadata:
    """``RiichiVectorEnv.metadata``: the class's dict, read by Gymnasium's wrappers as they are
    built, where ``RecordEpisodeStatistics`` and ``NormalizeReward`` are refused with a clear
    ``PerSeatRewardsError`` instead of a NumPy broadcasting error at their first step."""

    def __init__(self, value: dict[str, Any]) -> None:
        self.value = value

    def __get__(self, obj, owner=None) -> dict[str, Any]:
        if obj is not None:
            _refuse_reward_wrappers(obj)
        return self.value


class _NumEnvs:
    """``RiichiVectorEnv.num_envs``: every Gymnasium release's ``RecordEpisodeStatistics`` and
    ``NormalizeReward`` read it as they are built (not all of them read ``metadata``), so they
    are refused here too."""

    def __get__(self, obj, owner=None) -> int:
        if obj is None:
            return self
        _refuse_reward_wrappers(obj)
        return obj.__dict__["_num_envs"]

    def __set__(self, obj, value: int) -> None:
        obj.__dict__["_num_envs"] = value


class ClosedEnvError(gymnasium.error.ClosedEnvironmentError, RuntimeError):
    """``reset`` or ``step`` of a vector env after its ``close()``. Also a ``RuntimeError``."""


def _check_open(venv: gymnasium.vector.VectorEnv, call: str) -> None:
    if venv.closed:
        raise ClosedEnvError(
            f"{call} on a closed {type(venv).__name__}: close() ended it; make a new one"
        )


def _start_step(venv: gymnasium.vector.VectorEnv, actions) -> None:
    """A step's checks (not closed, reset first), then ``actions`` set, one per table."""
    _check_open(venv, "step()")
    if not venv._started:
        raise gymnasium.error.ResetNeeded("step() before reset(): call reset() first")
    venv._batch.set_actions(venv._all, actions, "actions")


def vector_env(num_tables: int = 64, **kwargs: Any) -> RiichiVectorEnv:
    """``RiichiVectorEnv(num_tables, **kwargs)``: ``num_tables`` tables stepped in one call."""
    return RiichiVectorEnv(num_tables, **kwargs)


class RiichiVectorEnv(gymnasium.vector.VectorEnv):
    """``num_tables`` games of ``riichi_v0``; see the module docstring for the spec."""

    metadata = _Metadata({"name": ENV_NAME, "autoreset_mode": AutoresetMode.SAME_STEP})
    num_envs = _NumEnvs()

    def __init__(
        self,
        num_tables: int = 64,
        *,
        rules: str | Rules = "mahjongsoul",
        encoder: str | None = None,
        reward: str = "hand",
        reward_scale: float = 1e-3,
        rank_points: tuple[float, ...] | None = None,
        seed: int | None = None,
        skip_forced: bool = False,
        obs_dtype: Any = np.float32,
        copy: bool = True,
        info_seed: bool = True,
        threads: int = 1,
        **rule_options: Any,
    ) -> None:
        self.num_envs = check_int("num_tables", num_tables, 1, 1 << 20)
        self.threads = check_int("threads", threads, 1, MAX_THREADS)
        self.info_seed = check_bool("info_seed", info_seed)
        if encoder is not None and not (isinstance(encoder, str) and encoder in N_ROWS):
            encoder_for(encoder, 4)  # an unknown name: the four-player list, before the rules
        dtype = check_obs_dtype(obs_dtype)
        self.rules = _make_rules(rules, rule_options, type(self).__init__, None)
        self.players = players = self.rules.players
        """Seats at a table: 4, or 3 (seat 3 absent; rewards and final info have 3 columns)."""
        encoder = encoder_for(encoder, players)
        self.encoder = encoder
        self.reward_mode = reward
        if rank_points is None:
            rank_points = default_rank_points(players)
        self._reward = reward_spec(reward, reward_scale, rank_points, players)
        self.reward_scale = float(self._reward[1][0])
        self.rank_points = tuple(float(x) for x in self._reward[1][1 : 1 + players])
        self._n_actions = n_actions(players)
        self.skip_forced = check_bool("skip_forced", skip_forced)
        self.copy = check_bool("copy", copy)
        self.obs_dtype = dtype
        self._rng = np.random.default_rng(None if seed is None else check_seed(seed))
        self._batch = Batch(
            self._num_envs,
            self.rules,
            encoder,
            ENCODER_IDS[encoder],
            dtype,
            final_obs=True,
            threads=self.threads,
        )
        self._seat_policy = np.full(4, PYTHON_SEAT, dtype=np.int64)
        self._all = np.arange(self._num_envs)
        self._started = False
        low, high = bounds(encoder)
        if dtype == np.uint8:
            box = spaces.Box(0, 255, shape=low.shape, dtype=np.uint8)
        else:
            box = spaces.Box(low=low, high=high, dtype=np.float32)
        self._low, self._step_size = low, (high - low) / 255.0
        self.single_observation_space = spaces.Dict(
            {"observation": box, "action_mask": spaces.Box(0, 1, (self._n_actions,), np.int8)}
        )
        self.single_action_space = spaces.Discrete(self._n_actions)
        self.observation_space = batch_space(self.single_observation_space, self._num_envs)
        self.action_space = batch_space(self.single_action_space, self._num_envs)
        ensure_compiled("vector")

    # -------------------------------------------------------------------------------- play

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new game at every table (see the module docstring for the seeds)."""
        _check_open(self, "reset()")
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be None or a dict, got {describe(options)}")
        b = self._batch
        n = self._num_envs
        if seed is None:
            base = int(self._rng.integers(2**62))
            b.seed_base[:] = base
        elif isinstance(seed, (list, tuple, np.ndarray)):
            if len(seed) != n:
                raise ValueError(f"seed must be an int or a list of {n} ints, got {len(seed)}")
            seeds = [check_seed(s) for s in seed]
            b.seed_base[:] = np.array(seeds, dtype=np.int64) - self._all  # table i: s_i, s_i + B
        else:
            base = check_seed(seed)
            b.seed_base[:] = base
        if seed is not None and not isinstance(seed, (list, tuple, np.ndarray)):
            self._rng = np.random.default_rng(seed)
        b.game_index[:] = self._all
        b.need_reset[:] = False
        b.start(0, n)
        b.run(0, n, self._seat_policy, self._reward, n, GAMES_FOREVER, False)
        self._started = True
        obs = self._observation()
        return obs, self._info()

    def step(
        self, actions
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict]:
        """Play one action per table; see the module docstring for what comes back."""
        _start_step(self, actions)
        b = self._batch
        n = self._num_envs
        b.run(0, n, self._seat_policy, self._reward, n, GAMES_FOREVER, self.skip_forced)
        info = self._info()
        terms = b.terms.astype(np.bool_)
        if terms.any():
            self._final(info, terms)
        return (
            self._observation(),
            b.rewards[:, : self.players].astype(np.float32),
            terms,
            np.zeros(n, dtype=np.bool_),
            info,
        )

    def _info(self) -> dict[str, Any]:
        b = self._batch
        info: dict[str, Any] = {"seat": self._copy(b.seats)}
        if self.info_seed:
            info["game_seed"] = b.game_seeds()
        return info

    def _final(self, info: dict[str, Any], terms: np.ndarray) -> None:
        b = self._batch
        idx = np.flatnonzero(terms)
        final_obs = np.full(self._num_envs, None, dtype=object)
        zero_mask = np.zeros(self._n_actions, dtype=np.int8)
        for i in idx:
            final_obs[i] = {
                "observation": self._as_obs_dtype(b.final_obs[i]),
                "action_mask": zero_mask.copy(),
            }
        info["final_obs"] = final_obs
        info["_final_obs"] = terms.copy()
        points, ranks, seeds, scores = b.final_info()
        p = self.players
        info["final_info"] = {
            "points": points[:, :p],
            "final_score": scores[:, :p],
            "rank": ranks[:, :p],
        }
        if self.info_seed:
            info["final_info"]["game_seed"] = seeds
        info["_final_info"] = terms.copy()

    def _as_obs_dtype(self, x: np.ndarray) -> np.ndarray:
        if self.obs_dtype == np.uint8:
            q = np.rint((x - self._low) / self._step_size)
            return np.clip(q, 0, 255).astype(np.uint8)
        return x.copy()

    def _observation(self) -> dict[str, np.ndarray]:
        b = self._batch
        return {"observation": self._copy(b.obs), "action_mask": self._copy(b.masks)}

    def _copy(self, x: np.ndarray) -> np.ndarray:
        return x.copy() if self.copy else x

    def dequantize(self, obs: np.ndarray) -> np.ndarray:
        """Float32 features of a ``uint8`` observation (``low + byte * (high - low) / 255``)."""
        obs = np.asarray(obs)
        if obs.dtype != np.uint8:
            raise TypeError(f"dequantize takes uint8 observations, got dtype {obs.dtype}")
        return (self._low + obs * self._step_size).astype(np.float32)

    # -------------------------------------------------------------------------------- extras

    @property
    def state(self):
        """The engine ``State`` of the ``B`` tables (read-only use)."""
        return self._batch.state

    def close(self, **kwargs: Any) -> None:
        """End the env: ``reset`` and ``step`` then raise ``ClosedEnvError``."""
        self.closed = True
        batch = getattr(self, "_batch", None)  # None: closed by __del__ after a failed __init__
        if batch is not None:
            batch.close()


__all__ = [
    "ClosedEnvError",
    "PerSeatRewardsError",
    "RiichiVectorEnv",
    "check_obs_dtype",
    "reward_spec",
    "vector_env",
]
