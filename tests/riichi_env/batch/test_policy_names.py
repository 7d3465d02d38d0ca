"""One name per compiled policy: ``"random"`` (and its alias ``"uniform"``) everywhere, the API, the
arena, the command line, the learner's opponents and the reference mjai bot."""

import json

import numpy as np
import pytest

import riichi_env
from riichi_env.batch.arena import arena
from riichi_env.batch.play import COMPILED_POLICIES, POLICY_ALIASES, POLICY_NAMES
from riichi_env.cli.main import main


def test_names_and_aliases():
    assert set(COMPILED_POLICIES) == {*POLICY_NAMES, *POLICY_ALIASES}
    for alias, name in POLICY_ALIASES.items():
        assert COMPILED_POLICIES[alias] == COMPILED_POLICIES[name]


def test_the_api_takes_both_names():
    a = riichi_env.selfplay("random", games=3, seed=7)
    b = riichi_env.selfplay("uniform", games=3, seed=7)
    c = riichi_env.selfplay(["uniform", "greedy", "random", "uniform"], games=2, seed=7)
    d = riichi_env.selfplay(["random", "greedy", "random", "random"], games=2, seed=7)
    assert a["results"] == b["results"]
    assert c["results"] == d["results"]
    with pytest.raises(ValueError, match=r"random, greedy, simple, efficiency \(or uniform"):
        riichi_env.selfplay("nope", games=1)


@pytest.mark.parametrize("extra", [[], ["--check"]])
def test_selfplay_cli_takes_both_names(capsys, extra):
    docs = []
    for name in ("random", "uniform", None):
        args = ["selfplay", "--games", "3", "--seed", "7", "--json", *extra]
        assert main(args + (["--policy", name] if name else [])) == 0
        docs.append(json.loads(capsys.readouterr().out)["results"])
    api = riichi_env.selfplay("random", games=3, seed=7)["results"]
    keys = ("seed", "points", "final_scores", "hands", "decisions")
    assert docs[0] == docs[1] == docs[2] == [{k: r[k] for k in keys} for r in api]


def test_arena_takes_both_names(capsys):
    a = arena(["greedy", "random", "random", "random"], games=4, seed=2)
    b = arena(["greedy", "uniform", "uniform", "uniform"], games=4, seed=2)
    assert [r["name"] for r in b["agents"]] == ["greedy", "uniform"]
    for x, y in zip(a["agents"], b["agents"], strict=True):
        assert {**x, "name": "", "seat_spec": ""} == {**y, "name": "", "seat_spec": ""}
    for seats in ("greedy,random,random,random", "greedy,uniform,uniform,uniform"):
        assert main(["arena", "--seats", seats, "--games", "4", "--seed", "2", "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["agents"][0]["avg_rank"] == a["agents"][0]["avg_rank"]


def test_learner_opponents_take_both_names():
    from riichi_env.batch.learner import learner_vector_env

    envs = [learner_vector_env(2, opponents=o, learner_seat=0) for o in ("random", "uniform")]
    obs = [e.reset(seed=5)[0] for e in envs]
    for _ in range(40):
        np.testing.assert_array_equal(obs[0]["observation"], obs[1]["observation"])
        actions = obs[0]["action_mask"].argmax(axis=1)
        steps = [e.step(actions) for e in envs]
        np.testing.assert_array_equal(steps[0][1], steps[1][1])  # rewards
        obs = [s[0] for s in steps]
    assert envs[1].expert_actions("uniform").shape == (2,)
    for e in envs:
        e.close()


def test_reference_mjai_bot_takes_both_names():
    from agents import RandomAgent
    from riichi_env.mjai.bot import AGENT_ALIASES, make_agent

    assert AGENT_ALIASES == POLICY_ALIASES
    assert isinstance(make_agent("uniform"), RandomAgent)
