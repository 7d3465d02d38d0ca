"""Baseline agents: decisions on hand-made masks and views (mpsz hands).

The ``efficiency`` cases are the first baseline, kept as ``SimpleEfficiencyAgent``; the new
``EfficiencyAgent`` has its own file (``test_efficiency_agent.py``). With three players: kita
(action ``KITA`` of the 86-action table)."""

from types import SimpleNamespace

import numpy as np
import pytest

import engine.actions as act
from agents import EfficiencyAgent
from agents.random_agent import RandomAgent
from agents.simple_efficiency_agent import SimpleEfficiencyAgent
from engine.tiles import parse_hand34


def _turn(hand: str, visible: str = "") -> tuple[np.ndarray, SimpleNamespace]:
    """A turn mask that allows discarding every held kind, and the matching view."""
    hand34 = parse_hand34(hand)
    mask = np.zeros(act.N_ACTIONS, dtype=np.int8)
    mask[act.DISCARD + np.flatnonzero(hand34)] = 1
    visible34 = parse_hand34(visible) if visible else np.zeros(34, dtype=np.uint8)
    return mask, SimpleNamespace(hand34=hand34, visible34=visible34)


@pytest.fixture(scope="module")
def efficiency():
    return SimpleEfficiencyAgent()


def test_efficiency_discards_the_tile_that_keeps_tenpai(efficiency):
    mask, view = _turn("12345m456p789s117z")
    assert efficiency.act(None, mask, view) == act.DISCARD + 33


def test_efficiency_prefers_more_ukeire(efficiency):
    # 4s leaves a 5s/1z shanpon (4 tiles), 5s a 3s-6s ryanmen (8 tiles)
    mask, view = _turn("123456m789p455s11z")
    assert efficiency.act(None, mask, view) == act.DISCARD + 22


def test_efficiency_counts_visible_tiles(efficiency):
    # with every 3s and 6s visible the ryanmen is dead: keep the shanpon
    mask, view = _turn("123456m789p455s11z", visible="3333s666s")
    assert efficiency.act(None, mask, view) == act.DISCARD + 21


def test_efficiency_uses_the_red_id_when_only_a_red_five_is_held(efficiency):
    mask, view = _turn("12345m456p789s11z5z")
    mask[act.DISCARD + 4] = 0
    mask[act.DISCARD_RED + 0] = 1
    view.hand34 = parse_hand34("1234m0m456p789s11z5z")
    assert efficiency.act(None, mask, view) == act.DISCARD + 31


@pytest.mark.parametrize(
    ("legal", "expected"),
    [
        ((act.TSUMO, act.RIICHI, act.DISCARD + 0), act.TSUMO),
        ((act.RON, act.PON, act.PASS), act.RON),
        ((act.RIICHI, act.DISCARD + 0), act.RIICHI),
        ((act.PON, act.CHI_LOW, act.KAN + 5, act.PASS), act.PASS),
    ],
)
def test_efficiency_wins_riichis_and_passes_calls(efficiency, legal, expected):
    mask = np.zeros(act.N_ACTIONS, dtype=np.int8)
    mask[list(legal)] = 1
    view = SimpleNamespace(hand34=parse_hand34("123m"), visible34=np.zeros(34, np.uint8))
    assert efficiency.act(None, mask, view) == expected


def test_random_agent_is_legal_and_seeded():
    mask = np.zeros(act.N_ACTIONS, dtype=np.int8)
    mask[[3, 17, 40, 80]] = 1
    a = [RandomAgent(7).act(None, mask) for _ in range(3)]
    assert len(set(a)) == 1
    agent = RandomAgent(1)
    picks = {agent.act(None, mask) for _ in range(200)}
    assert picks == {3, 17, 40, 80}
    with pytest.raises(ValueError, match="no legal action"):
        agent.act(None, np.zeros(act.N_ACTIONS, dtype=np.int8))


def test_efficiency_agent_beats_random_agents_through_the_env():
    from riichi_env.aec.raw_env import raw_env

    env = raw_env(game_length="tonpuusen")
    mine, theirs = 0.0, 0.0
    for game in range(4):
        seat = game % 4
        agents = [RandomAgent(10 * game + s) for s in range(4)]
        agents[seat] = SimpleEfficiencyAgent()
        env.reset(seed=game)
        while not all(env.terminations.values()):
            agent = env.agent_selection
            s = int(agent[-1])
            env.step(agents[s].act(None, env.action_mask(), env.view(agent)))
        scores = env.final_scores()
        mine += scores[seat]
        theirs += (sum(scores) - scores[seat]) / 3
    assert mine > theirs + 40  # about +60 vs -6 per game in practice


# Three players (issue 26)


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
