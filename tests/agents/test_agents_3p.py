"""The baseline agents with three players: kita (action ``KITA`` of the 86-action table)."""

from types import SimpleNamespace

import numpy as np
import pytest

import engine.actions as act
from agents import EfficiencyAgent
from agents.simple_efficiency_agent import SimpleEfficiencyAgent
from engine.tiles import parse_hand34


@pytest.mark.parametrize("agent", [SimpleEfficiencyAgent(), EfficiencyAgent()], ids=type)
@pytest.mark.parametrize(
    ("legal", "expected"),
    [
        ((act.KITA, act.DISCARD + 0, act.DISCARD + 30), act.KITA),
        ((act.TSUMO, act.KITA, act.DISCARD + 30), act.TSUMO),
    ],
)
def test_kita_when_legal_after_a_win(agent, legal, expected):
    """As the compiled policies: win first, then set a North aside whenever the mask allows."""
    mask = np.zeros(act.N_ACTIONS_3P, dtype=np.int8)
    mask[list(legal)] = 1
    hand = parse_hand34("1m123p456s789s11z4z")
    view = SimpleNamespace(hand34=hand, visible34=np.zeros(34, np.uint8))
    assert agent.act(None, mask, view) == expected


def test_python_agents_play_three_player_games_and_declare_kita():
    """Both Python agents play two ``mahjongsoul-3p`` hanchan through the env; every time kita
    is legal they declare it, and it is legal at least once."""
    import riichi_env

    env = riichi_env.env(rules="mahjongsoul-3p", encoder="basic3_v0")
    raw = env.unwrapped
    agents = [SimpleEfficiencyAgent(), EfficiencyAgent(), SimpleEfficiencyAgent()]
    legal_kita = 0
    for seed in range(2):
        env.reset(seed=seed)
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            action = agents[int(name[-1])].act(obs["observation"], mask, raw.view(name))
            if mask[act.KITA]:
                legal_kita += 1
                assert action in (act.KITA, act.TSUMO, act.RON)
            env.step(action)
        assert sum(raw.final_scores()) == pytest.approx(0.0, abs=1e-6)
    assert legal_kita > 0
