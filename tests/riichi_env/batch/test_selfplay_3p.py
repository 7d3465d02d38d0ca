"""``riichi_env.selfplay`` and ``riichi-env selfplay`` with three players (issue 26): the engine's
games, any table and worker count, Python policies as in the AEC env, and the invariants of
many games (points plus sticks conserved, final scores summing to zero under each preset's uma
and oka, 108 tiles)."""

import json

import numpy as np
import pytest

import riichi_env
from engine.events import EV_DEAL, EV_DISCARD, EV_DRAW, EV_HAND_START, EV_KITA, wall_from_events
from engine.rules import PRESETS_3P
from engine.selfplay import selfplay as engine_selfplay
from engine.state import SANMA_REMOVED, SANMA_UNUSED_SLOTS

KEYS = ("seed", "points", "final_scores", "hands", "decisions")
PRESETS = ["mahjongsoul-3p", "tenhou-3p"]


def _strip(results):
    return [{k: r[k] for k in KEYS} for r in results]


@pytest.mark.parametrize("preset", PRESETS)
def test_random_is_the_engine_selfplay(preset):
    out = riichi_env.selfplay("random", games=6, seed=11, rules=preset)
    ref = engine_selfplay(6, 11, preset)
    for mine, theirs in zip(out["results"], ref["results"], strict=True):
        assert theirs["points"][3] == 0 and theirs["final_scores"][3] == 0
        theirs = {**theirs, "points": theirs["points"][:3]}
        theirs["final_scores"] = theirs["final_scores"][:3]
        assert {k: mine[k] for k in KEYS} == {k: theirs[k] for k in KEYS}
    assert out["hands"] == ref["hands"] and out["decisions"] == ref["decisions"]
    assert all(sorted(r["ranks"]) == [0, 1, 2] for r in out["results"])


@pytest.mark.parametrize(("num_tables", "workers"), [(1, 1), (3, 1), (4, 2)])
def test_results_do_not_depend_on_tables_or_workers(num_tables, workers):
    seats = ["random", "greedy", "efficiency"]
    base = riichi_env.selfplay(seats, games=7, seed=3, rules="tenhou-3p")
    out = riichi_env.selfplay(
        seats, games=7, seed=3, rules="tenhou-3p", num_tables=num_tables, workers=workers
    )
    assert out["results"] == base["results"]


def first_legal(obs, mask, seat):
    return mask.argmax(axis=1)


def last_legal(obs, mask, seat):
    """The highest legal id: kita (85) whenever it is legal."""
    assert obs.shape[1:] == (125, 34) and mask.shape[1] == 86 and (seat < 3).all()
    return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)


@pytest.mark.parametrize(("num_tables", "workers"), [(1, 1), (3, 2)])
def test_python_policies_batch_like_the_aec_env(num_tables, workers):
    seats = [first_legal, last_legal, last_legal]
    out = riichi_env.selfplay(
        seats,
        games=3,
        seed=20,
        num_tables=num_tables,
        workers=workers,
        rules="mahjongsoul-3p",
        game_length="tonpuusen",
    )
    for r in out["results"]:
        env = riichi_env.raw_env(rules="mahjongsoul-3p", game_length="tonpuusen")
        env.reset(seed=r["seed"])
        while not all(env.terminations.values()):
            agent = env.agent_selection
            s = env.possible_agents.index(agent)
            obs = env.observe(agent)
            a = seats[s](obs["observation"][None], obs["action_mask"][None], np.array([s]))
            env.step(int(a[0]))
        assert r["points"] == env.points()[:3]
        assert r["final_scores"] == env.final_scores()[:3]


def _tiles_of_each_hand(rows):
    """Per hand of an event log: the in-play wall ids, and the tile ids drawn, discarded and set
    aside (kita)."""
    starts = [i for i, r in enumerate(rows) if r[0] == EV_HAND_START]
    for h, start in enumerate(starts):
        end = starts[h + 1] if h + 1 < len(starts) else len(rows)
        wall = wall_from_events(rows, h)
        used = [int(wall[i]) for i in range(136) if i not in set(SANMA_UNUSED_SLOTS)]
        moved = [int(r[2]) for r in rows[start:end] if r[0] in (EV_DRAW, EV_DISCARD, EV_KITA)]
        deals = sum(int(r[0] == EV_DEAL) for r in rows[start:end])
        yield used, moved, deals


@pytest.mark.parametrize("policy", ["random", "greedy", "efficiency"])
@pytest.mark.parametrize("preset", PRESETS)
def test_invariants_over_many_games(preset, policy):
    rules = PRESETS_3P[preset]
    out = riichi_env.selfplay(policy, games=40, seed=500, rules=preset, records="events")
    removed = set(SANMA_REMOVED)
    kitas = 0
    for r, rows in zip(out["results"], out["records"], strict=True):
        assert len(r["points"]) == len(r["final_scores"]) == len(r["ranks"]) == 3
        # the leftover sticks go to first place at the end: points alone are conserved
        assert sum(r["points"]) == 3 * rules.start_points
        assert sum(r["final_scores"]) == pytest.approx(0.0, abs=1e-9)
        assert sorted(r["ranks"]) == [0, 1, 2]
        best = max(r["points"])
        assert r["points"][r["ranks"].index(0)] == best
        for used, moved, deals in _tiles_of_each_hand(rows):
            assert len(used) == len(set(used)) == 108
            assert not removed & set(used) and not removed & set(moved)
            assert deals == 3  # one DEAL row per seat dealt: seat 3 gets none
        kitas += sum(int(row[0] == EV_KITA) for row in rows)
    assert out["hands"] > 40 and kitas > 0


def test_a_list_of_three_policies_and_what_is_refused():
    with pytest.raises(ValueError, match="a list of three"):
        riichi_env.selfplay(["random"] * 4, games=1, rules="tenhou-3p")
    games = riichi_env.selfplay("efficiency", games=2, seed=1, rules="tenhou-3p", records=True)
    assert [g.players for g in games["records"]] == [3, 3]
    with pytest.raises(ValueError, match="for three-player rules"):
        riichi_env.selfplay(first_legal, games=1, rules="tenhou-3p", encoder="basic_v0")


def _cli(*args):
    from riichi_env.cli.main import main

    return main(["selfplay", *args])


@pytest.mark.parametrize("preset", PRESETS)
def test_cli_selfplay_three_players(preset, capsys):
    assert _cli("--rules", preset, "--games", "3", "--json", "--no-progress") == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == 3 and all(len(r["points"]) == 3 for r in doc["results"])
    assert _cli("--rules", preset, "--games", "2", "--check", "--no-progress") == 0
    assert f"rules      {preset}" in capsys.readouterr().out


def test_cli_lists_the_three_player_presets(capsys):
    with pytest.raises(SystemExit):
        _cli("--help")
    assert "mahjongsoul-3p" in capsys.readouterr().out
    assert _cli("--rules", "sanma", "--games", "1") == 2
    err = capsys.readouterr().err
    assert "unknown rules preset 'sanma'" in err and "'tenhou-3p'" in err


def test_cli_demo_three_players(capsys):
    from riichi_env.cli.main import main

    assert main(["demo", "--rules", "tenhou-3p", "--games", "1", "--length", "tonpuusen"]) == 0
    out = capsys.readouterr().out
    assert "player_2 random" in out and "player_3" not in out
    final = next(line for line in out.splitlines() if line.startswith("final: "))
    assert final.count("place") == 3
