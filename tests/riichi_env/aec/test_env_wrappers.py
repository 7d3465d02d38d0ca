"""``env()``'s wrappers against PettingZoo's stock ones: the same game, step by step.

``env()`` subclasses PettingZoo's ``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper`` and
``OrderEnforcingWrapper`` and replaces their hot paths (the raw env's mask instead of a kept
observation, a step of a game in progress going straight down, an agent iterator of its own).
These tests play the same actions through ``env()`` and through the stock chain around a second
raw env, and compare everything a loop can read after every call: legal moves, an illegal move
(the game ends, -1 for the offender), the dead agents' ``None`` steps, calls out of order.
"""

import logging

import numpy as np
import pytest
from pettingzoo.utils import wrappers

from riichi_env.aec.raw_env import _AgentIterator, env, raw_env

pytestmark = pytest.mark.quick


def stock_env(**kwargs):
    """``raw_env`` in PettingZoo's three wrappers exactly as PettingZoo ships them."""
    e = wrappers.TerminateIllegalWrapper(raw_env(**kwargs), -1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def snapshot(e) -> tuple:
    """What a loop reads: the agent to act, the bookkeeping, and ``last()`` when there is one."""
    raw = e.unwrapped
    book = (
        e.agent_selection,
        list(e.agents),
        dict(e.rewards),
        dict(e._cumulative_rewards),
        dict(e.terminations),
        dict(e.truncations),
        {a: dict(i) for a, i in e.infos.items()},
        raw.points(),
    )
    if not e.agents:
        return book
    obs, rew, term, trunc, info = e.last()
    return (*book, obs["observation"].tobytes(), obs["action_mask"].tobytes(), rew, term, trunc)


@pytest.mark.parametrize("players", [4, 3])
@pytest.mark.parametrize("seed", [3, 11])
def test_legal_then_illegal_play_matches_the_stock_wrappers(players, seed, caplog):
    rules = "mahjongsoul" if players == 4 else "mahjongsoul-3p"
    ours, stock = env(rules=rules), stock_env(rules=rules)
    ours.reset(seed=seed)
    stock.reset(seed=seed)
    rng = np.random.default_rng(seed)
    illegal_at = 60 + seed  # a legal game up to here, then an in-space action that is masked out
    caplog.set_level(logging.WARNING)
    steps = 0
    for agent, other in zip(ours.agent_iter(), stock.agent_iter(), strict=True):
        assert agent == other
        assert snapshot(ours) == snapshot(stock)
        _, _, term, trunc, _ = ours.last()
        if term or trunc:
            action = None
        else:
            mask = ours.last()[0]["action_mask"]
            pool = np.flatnonzero(mask == 0) if steps == illegal_at else np.flatnonzero(mask)
            action = int(pool[rng.integers(pool.size)])
        ours.step(action)
        stock.step(action)
        steps += 1
    assert snapshot(ours) == snapshot(stock)
    assert steps > illegal_at
    assert caplog.text.count("Illegal move") == 2  # one warning from each


def test_a_whole_legal_game_matches_the_stock_wrappers():
    ours, stock = env(game_length="tonpuusen"), stock_env(game_length="tonpuusen")
    ours.reset(seed=5)
    stock.reset(seed=5)
    rng = np.random.default_rng(5)
    for _agent in ours.agent_iter():
        assert snapshot(ours) == snapshot(stock)
        obs, _, term, trunc, _ = ours.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        ours.step(action)
        next(iter(stock.agent_iter()))  # the stock loop's own pace: one agent, one step
        stock.step(action)
    assert snapshot(ours) == snapshot(stock)
    assert all(ours.unwrapped.terminations.get(a, True) for a in ours.possible_agents)


def test_calls_out_of_order_fail_as_with_the_stock_wrappers(caplog):
    for e in (env(), stock_env()):
        with pytest.raises(AttributeError, match="before reset"):
            _ = e.agent_selection
        with pytest.raises(Exception, match="reset"):
            e.step(0)
        with pytest.raises(Exception, match="reset"):
            e.agent_iter()
        e.reset(seed=1)
        it = iter(e.agent_iter())
        next(it)
        with pytest.raises(AssertionError, match="need to call step"):
            next(it)  # two agents without a step between
    ours = env()
    ours.reset(seed=1)
    assert isinstance(iter(ours.agent_iter()), _AgentIterator)
    assert isinstance(ours, wrappers.OrderEnforcingWrapper)
    assert isinstance(ours.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(ours.env.env, wrappers.TerminateIllegalWrapper)


def test_a_step_after_the_game_warns_as_the_stock_wrapper(caplog):
    caplog.set_level(logging.WARNING)
    for e in (env(game_length="tonpuusen"), stock_env(game_length="tonpuusen")):
        e.reset(seed=4)
        mask = e.last()[0]["action_mask"]
        e.step(int(np.flatnonzero(mask == 0)[0]))  # illegal: the game ends at once
        for _agent in e.agent_iter():
            e.step(None)
        assert e.agents == []
        e.step(None)  # no agents left: PettingZoo's warning, nothing happens
    assert caplog.text.count("step() called after all agents are terminated") == 2


def test_out_of_space_and_non_int_actions_still_fail_first():
    e = env()
    e.reset(seed=2)
    with pytest.raises(AssertionError, match="outside the action space"):
        e.step(85)
    with pytest.raises(TypeError):
        e.step(True)
    with pytest.raises(AssertionError):
        e.step(None)  # the agent to act is alive: None is out of space, as the stock check says
    assert not any(e.terminations.values())
