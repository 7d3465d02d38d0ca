"""The RLlib adapter: turn-based observation dicts, action-masking keys, the AEC env's games; four
and three players (issue 26)."""

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from riichi_env import raw_env  # noqa: E402
from riichi_env.integrations.rllib import RiichiMultiAgentEnv  # noqa: E402

# per player count: the options (four players: the default rules), the agents, the mask width, the
# observation's rows (the default encoder)
GAMES = {
    4: ({"reward": "hand"}, ["player_0", "player_1", "player_2", "player_3"], 85, 157),
    3: (
        {"rules": "mahjongsoul-3p", "reward": "hand"},
        ["player_0", "player_1", "player_2"],
        86,
        125,
    ),
}


@pytest.mark.parametrize("players", [4, 3])
def test_only_the_acting_seat_observes_and_the_game_is_the_aec_env_game(players):
    opts, agents, actions, rows = GAMES[players]
    menv = RiichiMultiAgentEnv(dict(opts))
    assert menv.possible_agents == agents
    assert menv.get_action_space("player_1").n == actions
    assert menv.get_observation_space("player_1")["observations"].shape == (rows * 34,)
    aec = raw_env(**opts)
    rng = np.random.default_rng(0)
    obs, infos = menv.reset(seed=9)
    aec.reset(seed=9)
    totals = dict.fromkeys(menv.possible_agents, 0.0)
    steps = 0
    while True:
        (agent,) = obs  # one seat per observation dict
        assert agent == aec.agent_selection and set(infos) == {agent}
        space = menv.observation_spaces[agent]
        assert space.contains(obs[agent])
        mask = obs[agent]["action_mask"]
        expected = aec.observe(agent)
        np.testing.assert_array_equal(mask, expected["action_mask"])
        np.testing.assert_array_equal(
            obs[agent]["observations"], expected["observation"].reshape(-1)
        )
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, rewards, terms, truncs, infos = menv.step({agent: np.int64(action)})
        aec.step(action)
        assert set(rewards) == set(menv.possible_agents)
        for a, r in rewards.items():
            assert r == aec.rewards[a]
            totals[a] += r
        steps += 1
        if terms["__all__"]:
            break
        assert terms == {"__all__": False} and truncs == {"__all__": False}
    assert steps > 100 and not truncs["__all__"]
    assert set(obs) == set(menv.possible_agents)  # every seat's final observation
    assert all(terms[a] for a in menv.possible_agents)
    assert {a: infos[a]["rank"] for a in infos} == {a: aec.infos[a]["rank"] for a in aec.infos}
    assert abs(sum(totals.values())) < 1e-6  # hand deltas (sticks returned at game end) sum to 0


def test_step_needs_exactly_the_acting_seat():
    menv = RiichiMultiAgentEnv()
    obs, _ = menv.reset(seed=1)
    (agent,) = obs
    other = next(a for a in menv.possible_agents if a != agent)
    with pytest.raises(ValueError, match=f"needs the action of {agent}"):
        menv.step({other: 0})
    legal = int(np.flatnonzero(obs[agent]["action_mask"])[0])
    with pytest.raises(ValueError, match="only"):
        menv.step({agent: legal, other: 0})
    with pytest.raises(ValueError, match="illegal action"):
        menv.step({agent: 80})  # pass, on its own turn


def test_spaces_follow_rllibs_multi_agent_api():
    """RLlib's own checker steps unmasked random actions, which the env refuses; the API parts."""
    from ray.rllib.env.multi_agent_env import MultiAgentEnv

    menv = RiichiMultiAgentEnv({"encoder": "rich_v0"})
    assert isinstance(menv, MultiAgentEnv)
    assert menv.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert menv.num_agents == 4
    space = menv.get_observation_space("player_2")
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["observations"].shape == (163 * 34,)
    assert menv.get_action_space("player_2").n == 85
    assert menv.raw.encoder == "rich_v0"
