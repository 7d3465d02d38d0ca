"""Compiled baseline policies choose what their Python agents choose."""

import numpy as np
import pytest

import riichi_env
from agents import EfficiencyAgent, SimpleEfficiencyAgent
from riichi_env.batch.arena import arena


def test_compiled_simple_is_the_python_agent():
    """The same games, decision for decision: identical results for every seed."""
    compiled = riichi_env.selfplay(["simple", "random", "simple", "greedy"], games=6, seed=30)
    agent = SimpleEfficiencyAgent()
    python = riichi_env.selfplay([agent, "random", agent, "greedy"], games=6, seed=30)
    assert compiled["results"] == python["results"]
    assert compiled["decisions"] == python["decisions"]


@pytest.mark.parametrize(
    ("name", "agent", "games", "seed"),
    [("simple", SimpleEfficiencyAgent, 3, 4), ("efficiency", EfficiencyAgent, 4, 7)],
    ids=["simple", "efficiency"],
)
def test_compiled_all_seats_and_event_logs(name, agent, games, seed):
    """Every seat compiled or every seat the Python agent: the same event logs."""
    a = riichi_env.selfplay(name, games=games, seed=seed, records="events")
    b = riichi_env.selfplay(agent(), games=games, seed=seed, records="events")
    for x, y in zip(a["records"], b["records"], strict=True):
        np.testing.assert_array_equal(x, y)


def test_arena_with_compiled_simple_seats():
    out = arena(["simple", "random", "random", "random"], games=8, seed=1)
    simple = out["agents"][0]
    assert simple["avg_rank"] < 2.0


@pytest.mark.parametrize("seed", [0, 100])
def test_compiled_efficiency_is_the_python_agent(seed):
    """Whole games with calls, folds and riichi: the same event log decision for decision."""
    seats = ["efficiency", "simple", "efficiency", "greedy"]
    agent = EfficiencyAgent()
    compiled = riichi_env.selfplay(seats, games=4, seed=seed, records="events")
    python = riichi_env.selfplay(
        [agent, "simple", agent, "greedy"], games=4, seed=seed, records="events"
    )
    for x, y in zip(compiled["records"], python["records"], strict=True):
        np.testing.assert_array_equal(x, y)
    assert compiled["results"] == python["results"]


@pytest.mark.nojit
@pytest.mark.parametrize("seed", [3, 8])
def test_policy_kernels_decide_like_the_agents_decision_by_decision(seed):
    """Each decision of a game: the compiled policies' action equals the Python agents' (also
    with ``NUMBA_DISABLE_JIT=1``, where the kernels are plain Python)."""
    from engine.game import Game, legal_mask
    from engine.harness.policies import _efficiency_action, _simple_action
    from engine.tables import load_tables
    from engine.visibility import seat_view

    tables = load_tables()
    efficiency, simple = EfficiencyAgent(), SimpleEfficiencyAgent()
    game = Game(seed=seed)
    for i in range(120):
        if game.done:
            break
        state = game.state
        mask = legal_mask(state).astype(np.int8)
        view = seat_view(state, int(state.actor[0]))
        a = _efficiency_action(state.records, 0, tables, mask)
        assert a == efficiency.act(None, mask, view), f"decision {i}"
        b = _simple_action(state.records, 0, tables, mask)
        assert b == simple.act(None, mask, view), f"decision {i}"
        game.step(int(a) if i % 2 else int(b))
