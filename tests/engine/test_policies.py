"""Compiled baseline policies choose what their Python agents choose."""

import numpy as np

import riichi_env
from agents import SimpleEfficiencyAgent
from riichi_env.arena import arena


def test_compiled_simple_is_the_python_agent():
    """The same games, decision for decision: identical results for every seed."""
    compiled = riichi_env.selfplay(["simple", "random", "simple", "greedy"], games=6, seed=30)
    agent = SimpleEfficiencyAgent()
    python = riichi_env.selfplay([agent, "random", agent, "greedy"], games=6, seed=30)
    assert compiled["results"] == python["results"]
    assert compiled["decisions"] == python["decisions"]


def test_compiled_simple_all_seats_and_event_logs():
    a = riichi_env.selfplay("simple", games=3, seed=4, records="events")
    b = riichi_env.selfplay(SimpleEfficiencyAgent(), games=3, seed=4, records="events")
    for x, y in zip(a["records"], b["records"], strict=True):
        np.testing.assert_array_equal(x, y)


def test_arena_with_compiled_simple_seats():
    out = arena(["simple", "random", "random", "random"], games=8, seed=1)
    simple = out["agents"][0]
    assert simple["avg_rank"] < 2.0
