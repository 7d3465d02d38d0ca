"""``riichi_v0``: four-player (or three-player) Riichi Mahjong as a PettingZoo AEC environment.

```python
import riichi_env

env = riichi_env.env(rules="mahjongsoul", encoder="basic_v0", reward="hand")
env.reset(seed=0)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    mask = obs["action_mask"]
    action = None if terminated or truncated else int(mask.nonzero()[0][0])
    env.step(action)
```

| | |
|---|---|
| agents | ``player_0`` ... ``player_3``; ``player_0`` is the starting dealer (East) |
| action space | ``Discrete(85)``: the engine's action ids (table below) |
| observation space | ``Dict(observation=Box(float32, (rows, 34)), action_mask=Box(int8, (85,)))`` |
| episode | one game (hanchan or tonpuusen, with extension rounds per the rules) |
| order | the engine's: the seat whose turn it is, then each seat that may claim a discard, in turn order; seats with nothing to decide are never asked |

**Actions** (``engine/actions.py``): 0-33 discard a plain tile of that kind, 34-36 discard a red
5m/5p/5s, 37 riichi (the same seat then picks the declaration discard), 38 open riichi, 39 tsumo,
40 ron, 41-43 chi with the called tile lowest / middle / highest, 44 pon, 45-78 kan of kind
``a - 45`` (daiminkan, ankan or kakan), 79 kyuushu kyuuhai, 80 pass, 81-83 / 84 the same chi /
pon made with plain fives while a red five is held (41-44 use the red one). ``action_mask`` is the
legal set of the agent to act, all zeros for the others.

**Three players** (``rules="mahjongsoul-3p"`` / ``"tenhou-3p"`` or ``Rules(players=3)``, issue
26): agents ``player_0`` ... ``player_2`` (seat 3 absent), ``Discrete(86)`` with 85 = kita (a
North set aside as nuki dora), masks of 86, the three-seat encoders (``basic3_v0`` default,
``rich3_v0``, ``oracle3_v0``), rewards to the three agents (``rank_points`` of three places,
default ``(1.0, 0.0, -1.0)``). ``docs/environment.md``, "Three players".

**Observations**: ``encoder=`` picks a versioned encoder of ``riichi_env.core.encoders`` (``basic_v0``
default (``None``), ``rich_v0``, ``basic_v1`` and ``rich_v1`` (which also show open riichi hands), ``oracle_v0``
with hidden information); their row tables are in
``docs/environment.md``. An observation is a fresh array (safe to keep).

**Rewards** (``reward=``), given to all four agents at the step that ends a hand or the game:

- ``"hand"`` (default): each hand's point change (riichi sticks, honba and payments included;
  leftover sticks at the end go to first place) times ``reward_scale`` (default 1/1000).
- ``"placement"``: at the end only, the final score ``(points - return_points) / 1000 + uma + oka``
  (docs/rules.md, unrounded).
- ``"rank"``: at the end only, ``rank_points[placement]`` (default ``(0.9, 0.45, 0.0, -1.35)``,
  Tenhou's houou-room rank points / 100).

**Options**: ``rules`` (a preset name ``"mahjongsoul"`` / ``"tenhou"`` / ``"tenhou-2009"`` or an
``engine.rules.Rules``), any ``Rules`` field as a keyword to override it
(``game_length="tonpuusen"``, ``red_fives=(0, 0, 0)``, ``open_riichi=True``, ...), ``encoder``,
``reward``, ``reward_scale``, ``rank_points``, ``seed``
(the generator for games started by ``reset()`` without a seed), ``render_mode`` (``"ansi"``:
``render()`` returns the table as text from the acting seat; ``"human"`` prints it after every
step), ``max_events`` (event-log rows), ``skip_forced`` (play decisions with exactly one legal
action, such as the tsumogiri after riichi, automatically instead of asking).

``reset(seed=s)`` plays the game whose walls come from ``s`` (the same as ``engine.game.Game(seed=s)``).
``env()`` adds PettingZoo's wrappers: an illegal action ends the game with reward -1 for the
offender, an out-of-space action raises ``ActionOutOfSpaceError`` (a ``ValueError`` naming the
legal actions, and an ``AssertionError`` as PettingZoo's wrapper raises), and calls out of order
raise. The wrappers are subclasses of PettingZoo's own (``isinstance`` holds), with the same
behaviour, which tests check step by step against the stock chain; their hot paths are their own,
none using PettingZoo's private attributes: ``TerminateIllegalWrapper`` judges an action by the raw
env's current mask (the stock one keeps the last observation for its mask), an int in the space
skips ``Discrete.contains``, a step of a game in progress goes straight down, ``agent_iter()`` is
the wrapper's own iterator (the stock iterator's check, a flag of its own), ``last()`` builds its
tuple from the raw env, and the AEC bookkeeping (``agent_selection``, ``agents``,
``terminations``, ...) is read from the raw env at once rather than through each layer's
``__getattr__``. The stock chain runs the loop at about half the speed
(``docs/environment.md``, "Illegal actions"). Two additions: a non-int action is a ``TypeError``
before the bounds check (the stock check lets ``True`` through to a NumPy error), and ``last()``
with no agents raises ``ResetNeededError`` (the stock wrapper raises ``KeyError``). ``raw_env`` raises
``ValueError`` naming the action and why it is illegal. Actions are Python or NumPy ints (``None``
only for a terminated agent); a ``bool``, float or string raises ``TypeError`` in both. ``step`` /
``last`` before ``reset()``, or after the game ended and every agent was stepped out (``agents``
empty), raise ``ResetNeededError``. Seeds are ints with ``0 <= seed <= 2**63 - 1``, and every
option is checked (type and range), never converted. ``view(agent)`` returns the seat's
``SeatView`` (what the baseline agents read); ``load_state(state)`` starts from any engine ``State``
(for instance a hand built with ``engine.harness.scenario.start_hand``).

**Version history**: ``riichi_v0`` (riichi_env 0.1.0): first release (before release the action
space grew from 81 to 85 ids: the plain-five chi/pon ids 81-84).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env import AECIterable, AECIterator
from pettingzoo.utils.env_logger import EnvLogger

from engine.actions import action_name, n_actions
from engine.arguments import (
    check_action,
    check_bool,
    check_choice,
    check_int,
    check_max_events,
    check_number,
    check_seed,
    describe,
    is_int,
)
from engine.legality import explain_illegal
from engine.rules import Rules
from engine.state import DEFAULT_MAX_EVENTS, State, copy_state, new_state
from engine.tables import load_tables
from engine.visibility import SeatView, seat_view
from riichi_env.aec.render import render_text
from riichi_env.core.compiling import ensure_compiled
from riichi_env.core.encoders import (
    DEFAULT_ENCODER,
    KERNELS,
    N_ROWS,
    bounds,
    encoder_for,
)
from riichi_env.core.options import REWARDS, _make_rules, _rank_points, default_rank_points
from riichi_env.core.runner import (
    GAME_OVER,
    O_HI,
    O_SKIP_FORCED,
    O_STOP_AT_GAME_END,
    T_ACTION,
    T_DELTA,
    T_GAME_INDEX,
    T_NEED_RESET,
    T_REFRESH,
    T_SEED_BASE,
    T_START,
    _run_random,
    new_tables,
)

ENV_NAME = "riichi_v0"
AGENTS = ("player_0", "player_1", "player_2", "player_3")


class ResetNeededError(gymnasium.error.ResetNeeded, RuntimeError):
    """A call that needs a game in progress: before the first ``reset()``, or after the game
    ended and every agent was stepped out (``agents`` is empty). Also a ``RuntimeError``."""


class ActionOutOfSpaceError(ValueError, AssertionError):
    """``env()``'s step got an int outside the action space 0-84. A ``ValueError`` naming the
    action and the legal ones; also an ``AssertionError``, what PettingZoo's
    ``AssertOutOfBoundsWrapper`` raises, for code that catches that."""


def _legal_list(mask: np.ndarray) -> str:
    return ", ".join(f"{a} ({action_name(a)})" for a in np.flatnonzero(mask)) or "none"


_FORWARDED = ("agent_selection", "agents", "terminations", "truncations", "rewards", "infos")
"""The AEC bookkeeping every loop reads at each step (with ``_cumulative_rewards``, which
PettingZoo's ``BaseWrapper`` forwards too)."""


def _forward(name: str, before_reset: bool) -> property:
    def get(self):
        raw = self._raw
        if not before_reset and not raw._started:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(raw, name)

    return property(get, doc=f"``{name}`` of the raw env, read at once.")


class _ReadFromRaw:
    """Reads the AEC bookkeeping (``_FORWARDED``) from the raw env at once instead of through
    every wrapper's ``__getattr__`` and ``unwrapped``: the same values, and the wrapped loop runs
    over 2x faster (``benchmarks/bench_env.py``). Only the raw env's attributes are read."""

    def __init__(self, env, *args) -> None:
        super().__init__(env, *args)
        self._raw = env.unwrapped


for _name in (*_FORWARDED, "_cumulative_rewards"):
    setattr(_ReadFromRaw, _name, _forward(_name, True))


class _TerminateIllegal(_ReadFromRaw, wrappers.TerminateIllegalWrapper):
    """PettingZoo's ``TerminateIllegalWrapper``: an illegal action ends the game, the offender
    gets ``illegal_reward`` and the others 0; the other agents then step out with ``None``.

    The same rule as the stock class, which judges an action by the mask of the last observation
    it kept (``observe`` of the agent to act, else one made at the step). That mask is the raw
    env's current mask of the agent to act, so this reads the raw env's mask instead, keeps no
    observation, and leaves the stock class's private attributes alone (``reset``, ``observe``
    and ``step`` are all its own). The stock step costs a wrapped loop about half its speed
    (docs/environment.md, "Illegal actions")."""

    def __init__(self, env, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._illegal_reward = float(illegal_reward)
        self._ended_illegally = False

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._ended_illegally = False
        self._raw.reset(seed=seed, options=options)

    def observe(self, agent: str):
        return self._raw.observe(agent)

    def step(self, action) -> None:
        raw = self._raw
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        if dead and self._ended_illegally:
            raw._was_dead_step(action)
        elif dead or raw._mask[action]:
            raw.step(action)
        else:  # the stock wrapper's illegal-move branch
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.truncations, 0)
            raw.rewards[agent] = self._illegal_reward
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._ended_illegally = True


class _AssertOutOfBounds(_ReadFromRaw, wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's bounds check after two of ours: a non-int action (``True``, ``1.7``, ``"3"``)
    is a ``TypeError`` (the stock check lets ``True`` through to a NumPy error in
    ``TerminateIllegalWrapper`` and calls ``1.7`` out of space), and an out-of-space int is an
    ``ActionOutOfSpaceError`` naming the legal actions. An int in the space goes straight on (the
    stock check asks ``Discrete.contains``, a few microseconds a step)."""

    def observe(self, agent: str):
        return self._raw.observe(agent)

    def step(self, action) -> None:
        if type(action) is int and 0 <= action < self._raw._n_actions:
            self.env.step(action)
            return
        if action is not None:
            n = self._raw._n_actions
            if not is_int(action):
                check_action(action, n, self.agent_selection)
            if not 0 <= action < n:
                raw = self._raw
                mask = raw._mask if raw._started and raw.agents else raw._zero_mask
                raise ActionOutOfSpaceError(
                    f"action {int(action)} for {raw.agent_selection} is outside the action space "
                    f"Discrete({n}) (ids 0-{n - 1}); legal now: {_legal_list(mask)}"
                )
        super().step(action)


class _OrderEnforcing(_ReadFromRaw, wrappers.OrderEnforcingWrapper):
    """PettingZoo's order checks: errors before ``reset()``, a warning for a step after the game,
    and an ``agent_iter()`` that insists on a ``step()`` between two agents. ``last()`` with no
    agents (before ``reset()``, or after the game ended and every agent was stepped out) raises
    the raw env's ``ResetNeededError``, where the stock wrapper's ``last()`` fails with a
    ``KeyError``. The layers below add nothing to an observation, so ``last()`` asks the raw env
    for it. A step of a game in progress goes straight down, and ``agent_iter()`` is this
    class's own (``_AgentIterator``, the stock iterator's checks) with a flag of its own: the
    stock path costs a wrapped loop about a tenth of its speed."""

    def __init__(self, env) -> None:
        super().__init__(env)
        self._stepped = False  # a step or reset since the iterator gave the last agent

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed, options=options)
        self._stepped = True

    def step(self, action) -> None:
        raw = self._raw
        if raw._started and raw.agents:
            self._stepped = True
            self.env.step(action)
        else:  # the stock errors and warning
            super().step(action)
            self._stepped = True

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        if not self._raw._started:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def last(self, observe: bool = True):
        raw = self._raw
        if not raw.agents:
            return raw.last(observe)
        # AECEnv.last, with the values read from the raw env at once
        return raw._last_of(raw.agent_selection, observe)


class _AgentIterable(AECIterable):
    """``env().agent_iter()``: PettingZoo's ``AECOrderEnforcingIterable``, its iterator reading
    the raw env at once."""

    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECIterator):
    """The agent to act, until no agent is left or ``max_iter`` agents were given; a
    ``step()`` (or ``reset()``) must come between two (PettingZoo's check, same message)."""

    def __init__(self, env: _OrderEnforcing, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._raw = env._raw

    def __next__(self) -> str:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        env = self.env
        if not env._stepped:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        env._stepped = False
        return raw.agent_selection


for _name in (*_FORWARDED, "_cumulative_rewards"):
    setattr(_OrderEnforcing, _name, _forward(_name, False))


def env(**kwargs: Any) -> AECEnv:
    """``raw_env`` in PettingZoo's usual wrappers: an illegal move ends the game with -1 for the
    offender (``TerminateIllegalWrapper``, stock), an out-of-space action raises
    ``ActionOutOfSpaceError`` naming the legal ones (``AssertOutOfBoundsWrapper``), calls out of
    order raise (``OrderEnforcingWrapper``). The module docstring says what the last two add."""
    e = raw_env(**kwargs)
    e = _TerminateIllegal(e, -1)
    e = _AssertOutOfBounds(e)
    e = _OrderEnforcing(e)
    return e


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming)
    """The unwrapped ``riichi_v0`` environment; see the module docstring for the spec."""

    metadata = {
        "name": ENV_NAME,
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: str | Rules = "mahjongsoul",
        *,
        encoder: str | None = None,
        reward: str = "hand",
        reward_scale: float = 1e-3,
        rank_points: tuple[float, ...] | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        max_events: int = DEFAULT_MAX_EVENTS,
        skip_forced: bool = False,
        **rule_options: Any,
    ) -> None:
        super().__init__()
        if encoder is not None and not (isinstance(encoder, str) and encoder in N_ROWS):
            encoder_for(encoder, 4)  # an unknown name: the four-player list, before the rules
        if not isinstance(reward, str) or reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; choose from {list(REWARDS)}")
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.rules = _make_rules(rules, rule_options, type(self).__init__, None)
        players = self.rules.players
        self.players = players
        """Seats at the table: 4, or 3 (``player_0`` ... ``player_2``; seat 3 absent)."""
        encoder = encoder_for(encoder, players)
        self.encoder = encoder
        self.reward_mode = reward
        self.reward_scale = check_number("reward_scale", reward_scale)
        if rank_points is None:
            rank_points = default_rank_points(players)
        self.rank_points = _rank_points(rank_points, players)
        self.render_mode = render_mode
        self._encode_kernel = KERNELS[encoder]
        self._n_actions = n_actions(players)
        self._seed = None if seed is None else check_seed(seed)
        self._rng = np.random.default_rng(self._seed)
        self._max_events = check_max_events(max_events)
        self.skip_forced = check_bool("skip_forced", skip_forced)
        self.possible_agents = list(AGENTS[:players])
        self.agents = []
        low, high = bounds(encoder)
        self._obs_shape = (N_ROWS[encoder], 34)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(self._n_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self._n_actions) for a in self.possible_agents}
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self._setup_buffers()
        self._game_seed = 0
        self._started = False
        self.agent_selection = None  # the AEC bookkeeping is empty until reset()
        self.rewards, self._cumulative_rewards, self.infos = {}, {}, {}
        self.terminations, self.truncations = {}, {}
        ensure_compiled("env")  # a cold cache: say so on stderr before compiling for a minute
        if encoder != DEFAULT_ENCODER:  # the env's step compiles basic_v0's kernel only
            ensure_compiled("encoders")  # (a three-player env's encoders are in that group)

    def _setup_buffers(self, state: State | None = None) -> None:
        if state is None:
            state = new_state(1, self.rules, self._max_events)
        self._st = state
        self._rec = state.records
        self._ev = state.events
        self._tables = load_tables()
        self._suit, self._honor = self._tables.shanten_suit, self._tables.shanten_honor
        self._tables_tuple = tuple(self._tables)
        if not hasattr(self, "_ti"):  # the runner's records and mask, one table
            self._ti, self._tf = new_tables(1)
            self._ti[1, O_HI] = 1  # row 1: the options
            self._ti[1, O_STOP_AT_GAME_END] = 1
            self._masks = np.zeros((1, self._n_actions), dtype=np.int8)
        self._ti[1, O_SKIP_FORCED] = self.skip_forced
        self._mask = self._masks[0]
        self._action = self._ti[:, T_ACTION]  # views: a step writes and reads through them
        self._delta = self._ti[0, T_DELTA : T_DELTA + 4]
        no_obs = np.zeros((0, 1, 1, 34), dtype=np.float32)
        no_u8 = np.zeros((0, 1, 34), dtype=np.uint8)
        self._run_args = (self._rec, self._ev, self._tables_tuple, self._ti, self._tf, self._masks)
        self._run_args += (no_obs, no_u8)
        self._zero_mask = np.zeros(self._n_actions, dtype=np.int8)

    def _refresh(self, seed: int | None = None) -> int:
        """Deal the game of ``seed``, else take the loaded state as it is: the seat to act (its
        mask set), or ``GAME_OVER``."""
        ti = self._ti
        ti[0, T_GAME_INDEX] = 0
        ti[0, T_NEED_RESET] = 0
        if seed is None:
            ti[0, T_REFRESH] = 1
        else:
            ti[0, T_SEED_BASE], ti[0, T_START] = seed, 1
        self._action[0] = -1
        return int(_run_random(*self._run_args))

    # -------------------------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self._agent_name(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self._agent_name(agent)]

    def _agent_name(self, agent: Any) -> str:
        if agent not in self._seat_of:
            raise ValueError(
                f"agent must be one of {', '.join(self.possible_agents)}, got {describe(agent)}"
            )
        return agent

    def _seat(self, agent: Any) -> int:
        try:
            return self._seat_of[agent]
        except (KeyError, TypeError):
            self._agent_name(agent)
            raise

    # -------------------------------------------------------------------------------- play

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game: from ``seed`` (an int, ``0 <= seed <= 2**63 - 1``), else from the
        env's seed generator. ``options`` (``None`` or a dict) is accepted and unused, as
        PettingZoo's ``api_test`` expects; rule options go to the constructor."""
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be None or a dict, got {describe(options)}")
        if seed is not None:
            game_seed = check_seed(seed)
            self._rng = np.random.default_rng(game_seed)
        else:
            game_seed = int(self._rng.integers(2**62))
        self._game_seed = game_seed
        actor = self._refresh(game_seed)
        self._start_episode(actor)

    def load_state(self, state: State, t: int = 0) -> None:
        """Continue from table ``t`` of an engine ``State`` (e.g. ``engine.harness.scenario.start_hand(...)
        .state``) as a new episode at that state's decision; the rules must be this env's."""
        if not isinstance(state, State):
            raise TypeError(f"state must be an engine.state.State, got {type(state).__name__}")
        t = check_int("table index t", t, 0, state.points.shape[0] - 1)
        if not np.array_equal(state.rules[t], self._st.rules[0]):
            raise ValueError(
                "the state's rules differ from this env's rules; build the env with them"
            )
        self._rec[0] = state.records[t]
        rows = min(self._ev.shape[1], state.events.shape[1])  # the logs' capacities may differ
        self._ev[0] = 0
        self._ev[0, :rows] = state.events[t, :rows]
        self._st.n_events[0] = min(int(state.n_events[t]), self._max_events)
        self._game_seed = int(state.seed[t])
        actor = self._refresh()
        self._start_episode(actor)

    def _start_episode(self, actor: int) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._rewards_set = False
        self._started = True
        self.agent_selection = self.possible_agents[actor if actor >= 0 else 0]

    def _check_playing(self, call: str) -> None:
        if not self._started:
            raise ResetNeededError(f"{call} before reset(): call reset() first")
        if not self.agents:
            raise ResetNeededError(
                f"{call} after the game ended: every agent has been stepped out (agents is "
                "empty); call reset() to start a new game"
            )

    def last(self, observe: bool = True):
        """``(observation, cumulative reward, terminated, truncated, info)`` of the agent to act;
        ``ResetNeededError`` before ``reset()`` and once every agent has left a finished game."""
        agent = self.agent_selection
        if agent not in self._cumulative_rewards:
            self._check_playing("last()")
        return self._last_of(agent, observe)

    def _last_of(self, agent: str, observe: bool):
        """``last()``'s tuple for ``agent``, unchecked."""
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action) -> None:
        """Play ``action`` (an int 0-84, Python or NumPy) for the agent to act, or step a
        terminated agent out with ``None``."""
        agent = self.agent_selection
        if agent not in self.terminations:
            self._check_playing(f"step({action!r})")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(
                    f"{agent} is terminated (the game is over): step it with None, got "
                    f"{describe(action)}"
                )
            self._was_dead_step(action)
            return
        if type(action) is int and 0 <= action < self._n_actions:
            a = action
        elif action is None:
            raise ValueError(f"{agent} must act (its game is not over); got action None")
        else:
            a = check_action(action, self._n_actions, agent)
        if not self._mask[a]:
            why = explain_illegal(self._st, a, 0) or "not legal now"
            raise ValueError(f"illegal action {a} ({action_name(a)}) for {agent}: {why}")
        self._cumulative_rewards[agent] = 0.0
        if self._rewards_set:
            rewards = self.rewards
            for k in rewards:
                rewards[k] = 0.0
            self._rewards_set = False
        self._action[0] = a
        r = _run_random(*self._run_args)
        if 0 <= r < 4:  # a seat to act (seat 3 never acts with three players)
            self.agent_selection = self.possible_agents[r]
        else:
            self._settle(r)
        if self.render_mode == "human":
            self.render()

    def _settle(self, r: int) -> None:
        """Rewards after a hand or the game ended; terminations at game over."""
        agents = self.possible_agents
        rewards = self.rewards
        if self.reward_mode == "hand":
            scale = self.reward_scale
            for i, a in enumerate(agents):
                rewards[a] = float(self._delta[i]) * scale
        if r == GAME_OVER:
            st = self._st
            if self.reward_mode == "placement":
                for i, a in enumerate(agents):
                    rewards[a] = float(st.final_scores[0, i])
            elif self.reward_mode == "rank":
                for i, a in enumerate(agents):
                    rewards[a] = self.rank_points[int(st.final_ranks[0, i])]
            for i, a in enumerate(agents):
                self.terminations[a] = True
                self.infos[a] = {
                    "points": int(st.points[0, i]),
                    "final_score": float(st.final_scores[0, i]),
                    "rank": int(st.final_ranks[0, i]),
                }
        else:
            self.agent_selection = agents[r & 3]
        self._rewards_set = True
        cumulative = self._cumulative_rewards
        for a, x in rewards.items():
            cumulative[a] += x

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        obs = np.empty(self._obs_shape, dtype=np.float32)
        self._encode_kernel(self._rec, 0, seat, self._suit, self._honor, obs)
        if agent == self.agent_selection and self._started:
            mask = self._mask.copy()
        else:
            mask = self._zero_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def encode(self, agent: str, out: np.ndarray | None = None) -> np.ndarray:
        """``agent``'s observation array written into ``out`` (a preallocated ``float32[rows, 34]``,
        e.g. a slot of a batch buffer) or into a new array; the mask is not included."""
        if out is None:
            out = np.empty(self._obs_shape, dtype=np.float32)
        elif not isinstance(out, np.ndarray):
            raise TypeError(
                f"out must be a float32{list(self._obs_shape)} array, got {describe(out)}"
            )
        elif out.shape != self._obs_shape or out.dtype != np.float32:
            raise ValueError(
                f"out must be float32{list(self._obs_shape)}, got {out.dtype}{list(out.shape)}"
            )
        elif not out.flags.c_contiguous:
            raise ValueError("out must be C-contiguous")
        self._encode_kernel(self._rec, 0, self._seat(agent), self._suit, self._honor, out)
        return out

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The legal-action mask (``int8[N_ACTIONS]``) of ``agent`` (default: the agent to act); a copy."""
        if agent is None or agent == self.agent_selection:
            return self._mask.copy()
        self._agent_name(agent)
        return self._zero_mask.copy()

    # -------------------------------------------------------------------------------- extras

    @property
    def state_arrays(self):
        """The engine ``State`` (table axis of length 1) backing this env; read-only use."""
        return self._st

    @property
    def game_seed(self) -> int:
        """Seed of the current game (``engine.game.Game(seed=...)`` replays it)."""
        return self._game_seed

    def view(self, agent: str) -> SeatView:
        """The ``SeatView`` of ``agent``: its concealed tiles and what it can see."""
        return seat_view(self._st, self._seat(agent))

    def final_scores(self) -> list[float]:
        """Final scores ``(points - return) / 1000 + uma + oka`` (zeros before game over)."""
        return [float(x) for x in self._st.final_scores[0]]

    def points(self) -> list[int]:
        """Current points by seat."""
        return [int(x) for x in self._st.points[0]]

    def render_text(self, agent: str | None = None, reveal: bool = False) -> str:
        """The table as text from ``agent``'s seat (default: the agent to act)."""
        if not self._started:
            raise ResetNeededError("render_text() before reset(): call reset() first")
        reveal = check_bool("reveal", reveal)
        agent = self.agent_selection if agent is None else agent
        seat = self._seat(agent) if agent is not None else None
        mask = self._mask if agent == self.agent_selection else None
        return render_text(self._st, 0, seat, mask, reveal)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if not self._started:
            return None
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # -------------------------------------------------------------------------------- pickle

    def __getstate__(self) -> dict[str, Any]:
        d = self.__dict__.copy()
        drop = ("_rec", "_ev", "_tables", "_tables_tuple", "_suit", "_honor", "_run_args")
        drop += ("_encode_kernel",)
        for key in (*drop, "_mask", "_action", "_delta"):  # views, made again on load
            d.pop(key, None)
        d["_st"] = copy_state(self._st)
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.__dict__.update(d)
        self._encode_kernel = KERNELS[self.encoder]
        self._setup_buffers(d["_st"])
