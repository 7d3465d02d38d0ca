"""One learning seat per table, the other three played inside the kernels: the single-learner view.

```python
import riichi_env

venv = riichi_env.learner_vector_env(num_tables=64, opponents="efficiency", seed=0)
obs, info = venv.reset()                 # obs: the learner's view at every table
obs, reward, terminated, truncated, info = venv.step(actions)  # reward float32 (B,)
```

A Gymnasium ``VectorEnv`` for RL loops that train one policy (CleanRL-style, and the SB3 adapter in
riichi_env.integrations.sb3): every observation is the learner's, every reward is the learner's, and a step plays
the learner's action and then the opponents until the learner must decide again.

| | |
|---|---|
| observation | ``{"observation": (B, rows, 34), "action_mask": int8 (B, 85)}``: the learner's, at every table |
| action | ``int (B,)``: one legal action id per table, for the learner |
| reward | ``float32 (B,)``: the learner's rewards accrued during the step (``reward=`` as in the AEC env) |
| terminations | ``bool (B,)``: the table's game ended during the step; truncations are always false |
| autoreset | ``AutoresetMode.SAME_STEP``: the next game's first learner observation in the same step |

``opponents`` is one policy for the three other seats or a list of three (in seat order after the
learner): a compiled policy name (``riichi_env.batch.play.COMPILED_POLICIES``: played inside the
kernels, no Python per decision) or a Python policy as ``riichi_env.selfplay`` takes them (a
batched callable such as a frozen copy of the learner, or an agent object), called once per batch
of tables where it must act. ``learner_seat`` is a seat 0-3 or ``"random"``: drawn for each game
from its game seed, so a run is reproducible. Seeds follow ``riichi_env.vector_env``: table ``i``
plays ``S + i``, then ``S + i + B``, ...

**Three players** (``rules="mahjongsoul-3p"`` / ``"tenhou-3p"``): ``opponents`` is one
policy or a list of two, ``learner_seat`` 0-2 or ``"random"`` (``learner_seat_of(seed, 3)``),
masks ``(B, 86)`` (85: kita), the three-seat encoders (``basic3_v0`` default), ``rank_points``
of three places.

``info`` holds ``"seat"`` (the learner's seat at each table) and ``"game_seed"``; a finished game
adds ``info["final_obs"][i]`` (the learner's last view, mask all zeros) and ``info["final_info"]``
(per table the learner's ``"seat"``, ``"rank"`` (0 = first), ``"points"``, ``"final_score"`` and the
``"game_seed"``), with Gymnasium's ``_final_obs`` / ``_final_info`` masks. A game seed determines
every wall to come: ``info_seed=False`` leaves ``"game_seed"`` out of both for a fair evaluation.
``threads=K`` plays the tables in K compiled calls at once, as ``riichi_env.vector_env`` does
(the same games for any K).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from engine.actions import n_actions
from engine.arguments import check_bool, check_int, check_seed, describe
from engine.harness.selfplay import POLICY_SIMPLE
from riichi_env.batch.play import COMPILED_POLICIES, _ask, _name, _policies
from riichi_env.batch.tables import Batch
from riichi_env.batch.vector import (
    GAMES_FOREVER,
    MAX_THREADS,
    _check_open,
    _start_step,
    reward_spec,
)
from riichi_env.core.compiling import ensure_compiled
from riichi_env.core.encoders import ENCODER_IDS, N_ROWS, _encode, bounds, encoder_for
from riichi_env.core.options import _make_rules, default_rank_points
from riichi_env.core.runner import FINISHED, NO_TEACHER, PYTHON_SEAT

SEAT_STREAM = 0x5EA7
"""Stream key of the learner-seat draw (``numpy.random.default_rng([game_seed, SEAT_STREAM])``)."""


EXPERT_STREAM = 0xE4BE
"""Stream key of random teachers (``expert_actions``), drawn from the reset's seed base."""


def learner_seat_of(game_seed: int, players: int = 4) -> int:
    """The learner's seat in the game with this seed under ``learner_seat="random"`` (0 to
    ``players - 1``)."""
    return int(np.random.default_rng([int(game_seed), SEAT_STREAM]).integers(players))


class LearnerVectorEnv(gymnasium.vector.VectorEnv):
    """``B`` tables, one learner seat each (module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_tables: int,
        opponents: Any = "efficiency",
        learner_seat: int | str = "random",
        *,
        encoder: str | None = None,
        rules: Any = "mahjongsoul",
        reward: str = "hand",
        reward_scale: float = 1e-3,
        rank_points: Sequence[float] | None = None,
        seed: int | None = None,
        info_seed: bool = True,
        threads: int = 1,
        **rule_options: Any,
    ):
        self.num_envs = check_int("num_tables", num_tables, 1, 1 << 20)
        self.threads = check_int("threads", threads, 1, MAX_THREADS)
        self.info_seed = check_bool("info_seed", info_seed)
        if encoder is not None and not (isinstance(encoder, str) and encoder in N_ROWS):
            encoder_for(encoder, 4)  # an unknown name: the four-player list, before the rules
        self.rules = _make_rules(rules, rule_options, type(self).__init__, None)
        self.players = p = self.rules.players
        """Seats at a table: 4, or 3 (seat 3 absent: the learner and two opponents)."""
        if learner_seat != "random":
            learner_seat = check_int("learner_seat", learner_seat, 0, p - 1)
        self.learner_seat = learner_seat
        opp = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * (p - 1)
        if len(opp) != p - 1:
            word = {2: "two", 3: "three"}[p - 1]
            raise ValueError(f"opponents must be one policy or a list of {word}, got {len(opp)}")
        _policies([*opp, *["random"] * (5 - p)])  # selfplay's checks and messages for each
        self.opponents = opp
        encoder = encoder_for(encoder, p)
        self.encoder = encoder
        if rank_points is None:
            rank_points = default_rank_points(p)
        self._reward = reward_spec(reward, reward_scale, rank_points, p)
        self._n_actions = n_actions(p)
        self._rng = np.random.default_rng(None if seed is None else check_seed(seed))
        n = self.num_envs
        self._batch = Batch(
            n, self.rules, encoder, ENCODER_IDS[encoder], np.float32, threads=self.threads
        )
        self._seat = np.zeros(n, dtype=np.int64)
        self._all = np.arange(n)
        self._python = [p for p in dict.fromkeys(o for o in opp if not isinstance(o, str))]
        self._final_obs = np.zeros((n, *self._batch.obs_shape), dtype=np.float32)
        self._expert_rng = self._batch.tab["teacher_rng"]  # keyed at reset
        self._started = False
        low, high = bounds(encoder)
        box = spaces.Box(low=low, high=high, dtype=np.float32)
        self.single_observation_space = spaces.Dict(
            {"observation": box, "action_mask": spaces.Box(0, 1, (self._n_actions,), np.int8)}
        )
        self.single_action_space = spaces.Discrete(self._n_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        compiled = [o for o in opp if isinstance(o, str)]
        ensure_compiled("vector")
        if any(COMPILED_POLICIES[o] >= POLICY_SIMPLE for o in compiled):
            ensure_compiled("agents")

    # ------------------------------------------------------------------ seats

    def _seat_for(self, game_seed: int) -> int:
        if self.learner_seat == "random":
            return learner_seat_of(game_seed, self.players)
        return self.learner_seat

    def _place(self, t: int, game_seed: int) -> None:
        """Seat the learner and the opponents at table ``t`` for the game with this seed (with
        three players the absent seat 3, which never acts, gets the random policy)."""
        s = self._seat_for(game_seed)
        p = self.players
        self._seat[t] = s
        row = self._batch.seat_policy[t]
        row[s] = PYTHON_SEAT
        for i in range(p - 1):
            o = self.opponents[i]
            row[(s + 1 + i) % p] = COMPILED_POLICIES[o] if isinstance(o, str) else PYTHON_SEAT
        if p == 3:
            row[3] = COMPILED_POLICIES["random"]

    def _opponent_at(self, t: int, seat: int):
        return self.opponents[(seat - self._seat[t] - 1) % self.players]

    # ------------------------------------------------------------------ play

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a game at every table and play until each learner must decide."""
        _check_open(self, "reset()")
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be None or a dict, got {describe(options)}")
        b = self._batch
        n = self.num_envs
        base = int(self._rng.integers(2**62)) if seed is None else check_seed(seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        b.seed_base[:] = base
        self._expert_rng[:, 0] = np.random.default_rng([base, EXPERT_STREAM]).integers(1, 2**62, n)
        self._expert_rng[:, 1] = 0
        b.game_index[:] = self._all
        b.need_reset[:] = False
        for t in range(n):
            self._place(t, (base + t) % 2**63)
        b.start(0, n)
        reward = np.zeros(n, dtype=np.float32)
        terms = np.zeros(n, dtype=np.bool_)
        self._advance(reward, terms, {})
        self._started = True
        info = {"seat": self._seat.copy()}
        if self.info_seed:
            info["game_seed"] = b.game_seeds()
        return self._observation(), info

    def step(self, actions):
        """Play each learner's action, then the opponents, until every learner decides again."""
        _start_step(self, actions)
        b = self._batch
        n = self.num_envs
        reward = np.zeros(n, dtype=np.float32)
        terms = np.zeros(n, dtype=np.bool_)
        info: dict[str, Any] = {}
        self._advance(reward, terms, info)
        info["seat"] = self._seat.copy()
        if self.info_seed:
            info["game_seed"] = b.game_seeds()
        return self._observation(), reward, terms, np.zeros(n, dtype=np.bool_), info

    def _advance(self, reward: np.ndarray, terms: np.ndarray, info: dict) -> None:
        """Run the kernels (and Python opponents) until every table waits for its learner."""
        b = self._batch
        n = self.num_envs
        while True:
            b.run(0, n, b.seat_policy, self._reward, n, GAMES_FOREVER, False, True)
            reward += b.rewards[self._all, self._seat]
            ended = np.flatnonzero(b.need_reset)
            for t in ended:  # the game is over: the learner's last view, then seat the next game
                self._final(info, int(t))
                terms[t] = True
                nxt = (int(b.seed_base[t]) + int(b.game_index[t]) + n) % 2**63
                self._place(int(t), nxt)
            if ended.size:
                continue  # the next call starts those games
            seats = b.seats
            waiting = (seats != FINISHED) & (seats >= 0) & (seats != self._seat)
            if not waiting.any():
                return
            for p in self._python:
                idx = np.array(
                    [t for t in np.flatnonzero(waiting) if self._opponent_at(t, seats[t]) is p],
                    dtype=np.int64,
                )
                if idx.size:
                    b.set_actions(idx, _ask(p, b, idx, self.rules), f"opponent {_name(p)!r}")

    def _final(self, info: dict, t: int) -> None:
        b = self._batch
        n = self.num_envs
        if "final_obs" not in info:
            info["final_obs"] = np.full(n, None, dtype=object)
            info["_final_obs"] = np.zeros(n, dtype=np.bool_)
            info["final_info"] = {
                "seat": np.zeros(n, dtype=np.int64),
                "rank": np.zeros(n, dtype=np.int64),
                "points": np.zeros(n, dtype=np.int64),
                "final_score": np.zeros(n, dtype=np.float64),
            }
            if self.info_seed:
                info["final_info"]["game_seed"] = np.zeros(n, dtype=np.int64)
            info["_final_info"] = np.zeros(n, dtype=np.bool_)
        s = int(self._seat[t])
        rec = b.state.records[t]
        out = self._final_obs[t]
        _encode(b.st, t, s, b.encoder_id, b.suit, b.honor, out)
        info["final_obs"][t] = {
            "observation": out.copy(),
            "action_mask": np.zeros(self._n_actions, dtype=np.int8),
        }
        info["_final_obs"][t] = True
        fi = info["final_info"]
        fi["seat"][t] = s
        fi["rank"][t] = int(rec["final_ranks"][s])
        fi["points"][t] = int(rec["points"][s])
        fi["final_score"][t] = float(rec["final_scores"][s])
        if self.info_seed:
            fi["game_seed"][t] = int(rec["seed"])
        info["_final_info"][t] = True

    def _observation(self) -> dict[str, np.ndarray]:
        b = self._batch
        return {"observation": b.obs.copy(), "action_mask": b.masks.copy()}

    def action_masks(self) -> np.ndarray:
        """``bool (B, 85)`` (86 with three players): each learner's legal actions now
        (MaskablePPO's convention)."""
        return self._batch.masks.astype(np.bool_)

    def expert_actions(self, policy: str = "efficiency") -> np.ndarray:
        """``int64 (B,)``: the action compiled ``policy`` would take for each learner now.

        The teacher of behaviour cloning (``examples/train_maskable_ppo.py --pretrain``): nothing
        is played, and the tables' own random streams are not touched (``"random"`` and
        ``"greedy"`` draw from the env's separate expert stream).
        """
        if not isinstance(policy, str) or policy not in COMPILED_POLICIES:
            raise ValueError(
                f"expert policy must be a compiled policy {list(COMPILED_POLICIES)}, "
                f"got {describe(policy)}"
            )
        if not self._started:
            raise gymnasium.error.ResetNeeded("expert_actions() before reset(): call reset()")
        ensure_compiled("agents")  # the teacher mode runs in the runner with the agents
        b = self._batch
        b.opt["lo"][...], b.opt["hi"][...] = 0, self.num_envs
        b.opt["teacher"][...] = COMPILED_POLICIES[policy]
        try:
            b.call_runner(teacher=True)
        finally:
            b.opt["teacher"][...] = NO_TEACHER
            b._call = ()  # the next run writes its options again
        return b.tab["teacher_action"].copy()

    def close(self, **kwargs: Any) -> None:
        """End the env: ``reset`` and ``step`` then raise ``riichi_env.batch.vector.ClosedEnvError``."""
        self.closed = True
        batch = getattr(self, "_batch", None)  # None: closed by __del__ after a failed __init__
        if batch is not None:
            batch.close()


def learner_vector_env(num_tables: int, opponents: Any = "efficiency", **kwargs: Any):
    """A :class:`LearnerVectorEnv` (module docstring)."""
    return LearnerVectorEnv(num_tables, opponents, **kwargs)


__all__ = ["LearnerVectorEnv", "learner_seat_of", "learner_vector_env"]
