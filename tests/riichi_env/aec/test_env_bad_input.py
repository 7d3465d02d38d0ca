"""Bad input to the env, the Gymnasium wrapper and the CLI: clear errors, nothing coerced.

Issue 8, "Bad input, found by trying the project as a new user would". PettingZoo's semantics
for a finished game (checked against its classic envs and ``OrderEnforcingWrapper``): once every
agent has been stepped out with ``None``, ``agents`` is empty; the raw env then raises
``ResetNeededError`` on ``step`` and ``last`` (PettingZoo's classic envs raise a ``KeyError``
there), and ``env()``'s ``OrderEnforcingWrapper`` turns a ``step`` into PettingZoo's warning.
"""

from __future__ import annotations

import io
import json
import logging

import gymnasium
import numpy as np
import pytest

import riichi_env
from engine.actions import N_ACTIONS
from engine.game import Game
from riichi_env.aec.raw_env import ResetNeededError, env, raw_env
from riichi_env.cli.main import main
from riichi_env.integrations.gym import RiichiGymEnv


def _first_legal(e) -> int:
    return int(np.flatnonzero(e.action_mask())[0])


def _play_out(e) -> None:
    """Play the game to the end and step every agent out, as the usual AEC loop does."""
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last(observe=False)
        e.step(None if term or trunc else int(np.flatnonzero(e.action_mask(agent))[0]))


# -- actions ---------------------------------------------------------------------------------------

NOT_INTS = [1.7, 3.0, "3", True, False, np.bool_(True), np.float64(3.0), [3], b"3"]


@pytest.mark.parametrize("action", NOT_INTS, ids=repr)
def test_raw_step_refuses_non_int_actions(action):
    """``step(1.7)`` played action 1 and ``step("3")`` / ``step(True)`` were accepted."""
    e = raw_env()
    e.reset(seed=0)
    before = e.state_arrays.n_decisions[0]
    with pytest.raises(TypeError, match="action of player_0 must be an int 0-84, got ") as info:
        e.step(action)
    assert repr(action) in str(info.value)
    assert e.state_arrays.n_decisions[0] == before and e.agent_selection == "player_0"


@pytest.mark.parametrize("kind", [int, np.int64, np.int8, np.uint16, np.intp])
def test_python_and_numpy_ints_are_actions(kind):
    e = raw_env()
    e.reset(seed=0)
    e.step(kind(_first_legal(e)))
    assert e.state_arrays.n_decisions[0] == 1


@pytest.mark.parametrize("action", [True, 1.7, "3", np.bool_(False)], ids=repr)
def test_wrapped_step_refuses_non_int_actions(action):
    """Wrapped ``step(True)`` failed inside NumPy ("truth value of an array ... ambiguous")."""
    e = env()
    e.reset(seed=0)
    with pytest.raises(TypeError, match="action of player_0 must be an int 0-84"):
        e.step(action)
    assert e.agent_selection == "player_0" and not any(e.terminations.values())
    e.step(np.int64(int(np.flatnonzero(e.last()[0]["action_mask"])[0])))


def test_a_terminated_agent_is_stepped_with_none_only():
    e = raw_env(game_length="tonpuusen")
    e.reset(seed=3)
    while not any(e.terminations.values()):
        e.step(_first_legal(e))
    with pytest.raises(ValueError, match=r"player_\d is terminated .* step it with None, got 0"):
        e.step(0)


# -- order: before reset, after the game -----------------------------------------------------------


def test_raw_env_before_reset():
    """``step`` before ``reset`` raised ``AttributeError: ... no attribute 'agent_selection'``."""
    e = raw_env()
    for call in (lambda: e.step(0), lambda: e.step(None), e.last, e.render_text):
        with pytest.raises(ResetNeededError, match=r"before reset\(\): call reset\(\) first"):
            call()
    assert issubclass(ResetNeededError, RuntimeError)
    assert issubclass(ResetNeededError, gymnasium.error.ResetNeeded)
    assert e.agents == [] and list(e.agent_iter()) == []


def test_raw_env_after_the_game():
    """``step`` and ``last()`` after the game raised ``KeyError: 'player_2'``."""
    e = raw_env(game_length="tonpuusen")
    e.reset(seed=5)
    _play_out(e)
    assert e.agents == [] and e.terminations == {}
    for call in (lambda: e.step(0), lambda: e.step(None), e.last):
        with pytest.raises(ResetNeededError, match="after the game ended.*call reset"):
            call()
    assert len(e.final_scores()) == 4  # the results stay readable
    e.reset(seed=6)
    assert e.agents == e.possible_agents and e.last(observe=False)[2] is False


def test_wrapped_env_after_the_game(caplog):
    e = env(game_length="tonpuusen")
    e.reset(seed=5)
    _play_out(e)
    assert e.agents == []
    with caplog.at_level(logging.WARNING):
        e.step(0)  # PettingZoo's OrderEnforcingWrapper: a warning, nothing happens
    assert "step() called after all agents are terminated" in caplog.text
    with pytest.raises(ResetNeededError, match="after the game ended"):
        e.last()


def test_unknown_agents_are_named():
    e = raw_env()
    e.reset(seed=0)
    for call in (e.observe, e.view, e.encode, e.action_mask, e.render_text, e.action_space):
        with pytest.raises(ValueError, match=r"agent must be one of player_0.*got 'player_9'"):
            call("player_9")


# -- seeds ----------------------------------------------------------------------------------------


def test_env_seed_range_matches_game():
    """``reset(seed=2**63)`` succeeded or failed depending on what the process did before;
    ``2**64`` dumped a Numba typing traceback; ``-1`` failed inside NumPy."""
    e = raw_env()
    for seed in (2**63, 2**64, -1, np.uint64(2**63)):
        with pytest.raises(ValueError, match=r"seed must be an int with 0 <= seed <= 2\*\*63 - 1"):
            e.reset(seed=seed)
        with pytest.raises(ValueError, match="seed must be an int with"):
            raw_env(seed=seed)
    for seed in (True, 1.5, "3"):
        with pytest.raises(TypeError, match="seed must be an int"):
            e.reset(seed=seed)
        with pytest.raises(TypeError, match="seed must be an int"):
            raw_env(seed=seed)
    for seed in (2**62, 2**63 - 1, np.int64(7)):
        e.reset(seed=seed)
        assert e.game_seed == int(seed)
        g = Game(seed=seed)
        assert np.array_equal(e.state_arrays.wall[0], g.state.wall[0])
        assert e.view(e.agent_selection).hand34.tolist() == g.state.closed34[0, 0].tolist()


# -- options --------------------------------------------------------------------------------------

BAD_OPTIONS = [
    ({"max_events": -1}, ValueError, "max_events must be 1 <= max_events"),
    ({"max_events": 0}, ValueError, "max_events"),
    ({"max_events": 1.5}, TypeError, "max_events must be an int"),
    ({"max_events": True}, TypeError, "max_events must be an int"),
    ({"start_points": "25000"}, TypeError, r"start_points must be an int, got '25000' \(str\)"),
    ({"red_fives": 1}, TypeError, "red_fives must be a tuple of 3 ints"),
    ({"open_tanyao": 1}, TypeError, "open_tanyao must be True or False"),  # equal to the preset's
    ({"uma": [15, 5, -5, "-15"]}, TypeError, "uma"),
    ({"reward_scale": "0.1"}, TypeError, "reward_scale must be a number"),
    ({"reward_scale": float("nan")}, ValueError, "reward_scale must be a finite number"),
    ({"rank_points": ("1", "2", "3", "4")}, TypeError, r"rank_points\[0\] must be a number"),
    ({"rank_points": (1, 2, 3)}, ValueError, "rank_points must be a tuple of four numbers"),
    ({"rank_points": 4}, ValueError, "rank_points must be a tuple of four numbers"),
    ({"skip_forced": "no"}, TypeError, "skip_forced must be True or False"),
    ({"skip_forced": 0}, TypeError, "skip_forced must be True or False"),
    ({"encoder": ["basic_v0"]}, ValueError, "unknown encoder"),
    ({"reward": None}, ValueError, "unknown reward"),
    ({"render_mode": "rgb_array"}, ValueError, "render_mode must be one of"),
    ({"rules": 3}, TypeError, "rules must be a preset name"),
]


@pytest.mark.parametrize(("options", "error", "match"), BAD_OPTIONS, ids=lambda x: repr(x)[:40])
def test_env_options_are_checked(options, error, match):
    with pytest.raises(error, match=match):
        raw_env(**options)
    with pytest.raises(error, match=match):
        RiichiGymEnv(**options)


def test_good_options_keep_the_preset():
    assert raw_env(rules="tenhou", open_tanyao=True).rules.name == "tenhou"
    e = raw_env(max_events=np.int64(64), reward_scale=1, rank_points=[1, 0, 0, -1])
    assert e.state_arrays.events.shape[1] == 64 and e.reward_scale == 1.0
    assert e.rank_points == (1.0, 0.0, 0.0, -1.0)


# -- the Gymnasium wrapper ------------------------------------------------------------------------


def test_gym_wrapper_refuses_bad_arguments():
    for seat in (True, 1.0, "1"):
        with pytest.raises(TypeError, match="seat must be an int 0-3 or 'random'"):
            RiichiGymEnv(seat=seat)
    with pytest.raises(ValueError, match="seat must be 0-3, got 4"):
        RiichiGymEnv(seat=4)
    with pytest.raises(TypeError, match="opponents must be a list of three policies"):
        RiichiGymEnv(opponents=3)
    with pytest.raises(TypeError, match="illegal_reward must be a number"):
        RiichiGymEnv(illegal_reward="-1")
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        RiichiGymEnv(illegal_action="ignore")


def test_gym_wrapper_order_and_actions():
    g = RiichiGymEnv(render_mode="ansi")
    with pytest.raises(ResetNeededError, match=r"before reset\(\): call reset\(\) first"):
        g.step(0)
    with pytest.raises(ResetNeededError, match=r"before reset\(\)"):
        g.render()
    for seed in (-1, 2**63):
        with pytest.raises(ValueError, match="seed must be an int with 0 <= seed"):
            g.reset(seed=seed)
    g.reset(seed=0)
    for action in (True, 1.7, "3"):
        with pytest.raises(TypeError, match="must be an int 0-84"):
            g.step(action)
    legal = int(np.flatnonzero(g.action_masks())[0])
    g.step(np.int64(legal))
    _, reward, done, _, info = g.step(N_ACTIONS)  # an int outside the space: the penalty
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)


# -- the command line -------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["demo", "selfplay"])
@pytest.mark.parametrize("seed", ["-1", str(2**63), str(2**64), "１", "1.5", "0x10", "1_0"])
def test_cli_seed_is_checked_before_any_output(command, seed, capsys):
    """``demo --seed -1`` failed inside NumPy after printing its header."""
    with pytest.raises(SystemExit) as info:
        main([command, "--seed", seed])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "--seed" in err and "0 <= seed <= 2**63 - 1" in err and repr(seed) in err


def test_cli_demo_refuses_seeds_past_the_range(capsys):
    assert main(["demo", "--seed", str(2**63 - 1), "--games", "2"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "2**63 - 1" in err


def test_cli_ints_are_ascii(capsys):
    with pytest.raises(SystemExit):
        main(["score", "234567m234567p55s", "--win", "7m", "--honba", "１"])
    assert "ASCII digits" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["demo", "--games", "２"])
    assert "ASCII digits" in capsys.readouterr().err


def _jsonl(monkeypatch, capsys, lines: list[str]) -> list[dict]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    assert main(["score", "--jsonl"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


HAND = {"closed": "234567m234567p55s", "win_tile": "7m", "win_type": "ron"}
HAND |= {"seat_wind": "S", "round_wind": "E"}


def test_jsonl_blank_line_gets_an_error_line(monkeypatch, capsys):
    """A blank line got no output line, so output line N no longer answered input line N."""
    results = _jsonl(monkeypatch, capsys, [json.dumps(HAND), "", "   ", json.dumps(HAND)])
    assert len(results) == 4
    assert results[0]["valid"] and results[3] == results[0]
    for r in results[1:3]:
        assert r["valid"] is False and r["error"] == "invalid_input"
        assert r["message"].startswith("line: blank line")


def test_kyotaku_has_one_default_everywhere(monkeypatch, capsys):
    """Riichi without kyotaku: the CLI assumed the winner's stick, the Python API 0 and
    ``--jsonl`` refused. Now all three give 1 (and all refuse an explicit 0)."""
    from engine.scoring.hand_score import score_hand

    riichi = HAND | {"riichi": True}
    (jsonl,) = _jsonl(monkeypatch, capsys, [json.dumps(riichi)])
    args = ["score", "234567m234567p55s", "--win", "7m", "--riichi", "--seat", "S", "--json"]
    assert main(args) == 0
    cli = json.loads(capsys.readouterr().out)
    python = score_hand(**riichi).to_dict()
    assert jsonl == cli == python and python["winner_gain"] == 3900 + 1000
    (refused,) = _jsonl(monkeypatch, capsys, [json.dumps(riichi | {"kyotaku": 0})])
    assert refused["error"] == "invalid_input" and refused["message"].startswith("kyotaku: ")
    args = ["score", "234567m234567p55s", "--win", "7m", "--riichi", "--kyotaku", "0"]
    assert main(args) == 2
    assert "invalid input: kyotaku: must be >= 1 with riichi" in capsys.readouterr().out


def test_fifth_copy_by_indicators_refused_on_every_path(monkeypatch, capsys):
    from engine.arguments import InputError
    from engine.scoring.hand_score import score_hand

    hand = {"closed": "123m456p789s11222z", "win_tile": "2z", "win_type": "tsumo"}
    hand |= {"seat_wind": "E", "round_wind": "E", "dora_indicators": ["2z", "2z"]}
    (jsonl,) = _jsonl(monkeypatch, capsys, [json.dumps(hand)])
    assert main(["score", "123m456p789s11222z", "--win", "2z", "--tsumo", "--dora", "2z2z"]) == 2
    cli = capsys.readouterr().out
    with pytest.raises(InputError) as info:
        score_hand(**hand)
    assert (
        jsonl["message"]
        == str(info.value)
        == "dora_indicators: makes a fifth copy of 2z " + ("(hand, melds and indicators)")
    )
    assert cli.strip() == f"invalid input: {info.value}"


def test_cli_tiles_name_the_field(capsys):
    assert main(["score", "１２３m456p789s11122z", "--win", "1z"]) == 2
    err = capsys.readouterr().err
    assert "closed: malformed tile string" in err and "FULLWIDTH DIGIT ONE" in err
    assert main(["score", "123m456p789s1122z", "--win", "2z", "--dora", "1q"]) == 2
    assert "dora_indicators: malformed tile string" in capsys.readouterr().err


# -- found while trying the project as a new user -------------------------------------------------


def test_env_extras_check_their_arguments():
    e = raw_env()
    e.reset(seed=1)
    for out in ([0.0], 3):
        with pytest.raises(TypeError, match=r"out must be a float32\[\d+, 34\] array"):
            e.encode("player_0", out=out)  # was AttributeError: no attribute 'shape'
    with pytest.raises(TypeError, match="reveal must be True or False"):
        e.render_text(reveal="yes")
    for options in (5, "seat=1", [("seat", 1)]):
        with pytest.raises(TypeError, match="options must be None or a dict"):
            e.reset(seed=1, options=options)  # was silently ignored
    e.reset(seed=1, options={"ignored": 1})  # a dict is accepted and unused (PettingZoo api_test)
    with pytest.raises(TypeError, match="options must be None or a dict"):
        RiichiGymEnv().reset(seed=0, options=5)
    with pytest.raises(TypeError, match="table index t must be an int"):
        e.load_state(e.state_arrays, True)


# -- issue 23: messages -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "own"),
    [
        (lambda **kw: raw_env(**kw), "max_events"),
        (lambda **kw: riichi_env.vector_env(2, **kw), "obs_dtype"),
        (lambda **kw: riichi_env.learner_vector_env(2, **kw), "learner_seat"),
        (lambda **kw: riichi_env.selfplay(games=1, **kw), "num_tables"),
    ],
)
def test_an_unknown_option_lists_the_env_options_with_the_rule_options(make, own):
    with pytest.raises(TypeError, match="unknown env option") as info:
        make(encodr="rich_v0")
    message = str(info.value)
    assert "['encodr'] (did you mean 'encoder'?)" in message
    assert "env options are [" in message and f"'{own}'" in message and "'encoder'" in message
    assert "rule options are [" in message and "'open_riichi'" in message


def test_a_policy_returning_none_is_named_not_shape():
    def lazy(observations, masks, seats):
        return None

    with pytest.raises(TypeError, match=r"policy 'lazy' returned None, expected an int array"):
        riichi_env.selfplay([lazy, "random", "random", "random"], games=1)
    venv = riichi_env.learner_vector_env(2, opponents=lazy, learner_seat=0, seed=0)
    with pytest.raises(
        TypeError, match=r"opponent 'lazy' returned None, expected .* shape \(\d\,\)"
    ):
        obs, _ = venv.reset(seed=0)
        for _ in range(50):
            obs, *_ = venv.step(obs["action_mask"].argmax(axis=1))
    venv = riichi_env.vector_env(2)
    venv.reset(seed=0)
    with pytest.raises(TypeError, match=r"actions is None, expected an int array of shape \(2,\)"):
        venv.step(None)


def test_an_out_of_space_action_in_the_wrapped_env_names_the_legal_ones():
    e = env()
    e.reset(seed=1)
    legal = np.flatnonzero(e.last()[0]["action_mask"])
    for action in (N_ACTIONS, -1, np.int64(90)):
        with pytest.raises(ValueError, match="outside the action space") as info:
            e.step(action)
        message = str(info.value)
        assert f"action {int(action)} for player_0" in message
        assert f"legal now: {legal[0]} (discard " in message and f"{legal[-1]} (" in message
        assert isinstance(info.value, AssertionError)  # what PettingZoo's wrapper raised
    e.step(int(legal[0]))  # nothing was played: the same agent still acts


def test_a_closed_vector_env_refuses_to_step():
    for venv in (riichi_env.vector_env(2), riichi_env.learner_vector_env(2, opponents="random")):
        obs, _ = venv.reset(seed=0)
        venv.close()
        venv.close()  # twice is fine
        with pytest.raises(gymnasium.error.ClosedEnvironmentError, match="closed") as info:
            venv.step(obs["action_mask"].argmax(axis=1))
        assert type(venv).__name__ in str(info.value) and isinstance(info.value, RuntimeError)
        with pytest.raises(gymnasium.error.ClosedEnvironmentError, match=r"reset\(\) on a closed"):
            venv.reset(seed=0)
