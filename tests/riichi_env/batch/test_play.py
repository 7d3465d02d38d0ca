"""``riichi_env.selfplay``: compiled and Python policies, any table count and worker count; four and
three players (issue 26: the engine's games, Python policies as in the AEC env, the invariants of
many three-player games: points plus sticks conserved, final scores summing to zero under each
preset's uma and oka, 108 tiles; ``riichi-env selfplay`` and ``demo``)."""

import json

import numpy as np
import pytest

import riichi_env
from engine.events import EV_DEAL, EV_DISCARD, EV_DRAW, EV_HAND_START, EV_KITA, wall_from_events
from engine.harness.selfplay import play_one
from engine.harness.selfplay import selfplay as engine_selfplay
from engine.rules import PRESETS_3P
from engine.state import SANMA_REMOVED, SANMA_UNUSED_SLOTS
from riichi_env.records import write_text
from riichi_env.records.export import game_from_events

KEYS = ("seed", "points", "final_scores", "hands", "decisions")
PRESETS = ["mahjongsoul-3p", "tenhou-3p"]


def first_legal(obs, mask, seat):
    """A deterministic Python policy: the lowest legal action id."""
    return mask.argmax(axis=1)


def last_legal(obs, mask, seat):
    """Another deterministic policy, reading the observation too: the highest legal id."""
    assert obs.shape[0] == mask.shape[0] == seat.shape[0]
    return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)


def last_legal_3p(obs, mask, seat):
    """The highest legal id: kita (85) whenever it is legal (three players, ``basic3_v0``)."""
    assert obs.shape[1:] == (125, 34) and mask.shape[1] == 86 and (seat < 3).all()
    return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)


def _strip(results):
    return [{k: r[k] for k in KEYS} for r in results]


@pytest.mark.parametrize(
    ("players", "rules"), [(4, {}), *((3, {"rules": p}) for p in PRESETS)], ids=["4", *PRESETS]
)
def test_random_is_the_engine_selfplay(players, rules):
    out = riichi_env.selfplay("random", games=6, seed=11, **rules)
    ref = engine_selfplay(6, 11, **rules)
    for mine, theirs in zip(out["results"], ref["results"], strict=True):
        for absent in range(players, 4):  # the engine's four-seat lists: seat 3 never plays
            assert theirs["points"][absent] == 0 and theirs["final_scores"][absent] == 0
        theirs = {**theirs, "points": theirs["points"][:players]}
        theirs["final_scores"] = theirs["final_scores"][:players]
        assert {k: mine[k] for k in KEYS} == {k: theirs[k] for k in KEYS}
    assert out["games"] == 6
    assert out["hands"] == ref["hands"] and out["decisions"] == ref["decisions"]
    assert all(sorted(r["ranks"]) == list(range(players)) for r in out["results"])


# per player count: the seats, the games, the rules (four players: the default)
TABLE_GAMES = {
    4: (["random", "greedy", "random", "greedy"], 9, {}),
    3: (["random", "greedy", "efficiency"], 7, {"rules": "tenhou-3p"}),
}


@pytest.mark.parametrize(
    ("players", "num_tables", "workers"),
    [(4, 1, 1), (4, 3, 1), (4, 4, 2), (4, 7, 2), (3, 1, 1), (3, 3, 1), (3, 4, 2)],
)
def test_results_do_not_depend_on_tables_or_workers(players, num_tables, workers):
    seats, games, rules = TABLE_GAMES[players]
    options = {"games": games, "seed": 3, **rules}
    base = riichi_env.selfplay(seats, **options)
    out = riichi_env.selfplay(seats, num_tables=num_tables, workers=workers, **options)
    assert out["results"] == base["results"]


@pytest.mark.parametrize("records", [False, True])
def test_compiled_self_play_gives_each_game_the_result_it_has_alone(records):
    """Compiled policies play ``FAST_TABLES`` tables a worker, a game at each per call: each game
    is the one its seed gives played alone (and its record the same)."""
    from riichi_env.batch.play import FAST_TABLES

    seats = ["random", "efficiency", "greedy", "random"]
    games = 2 * FAST_TABLES + 3  # more games than tables: tables play a second and third game
    out = riichi_env.selfplay(seats, games=games, seed=40, workers=2, records=records)
    for k in (0, FAST_TABLES - 1, FAST_TABLES, games - 1):
        alone = riichi_env.selfplay(seats, games=1, seed=40 + k, records=records)
        assert out["results"][k] == alone["results"][0]
        if records:
            assert out["records"][k] == alone["records"][0]


def _aec_game(seed, seats, **options):
    """The AEC env playing per-seat Python policies one decision at a time: the finished env."""
    env = riichi_env.raw_env(**options)
    env.reset(seed=seed)
    while not all(env.terminations.values()):
        agent = env.agent_selection
        s = env.possible_agents.index(agent)
        obs = env.observe(agent)
        a = seats[s](obs["observation"][None], obs["action_mask"][None], np.array([s]))
        env.step(int(a[0]))
    return env


# per player count: the seats, the games, the rules (four players: the default)
PYTHON_GAMES = {
    4: ([first_legal, last_legal, first_legal, last_legal], 4, {}),
    3: ([first_legal, last_legal_3p, last_legal_3p], 3, {"rules": "mahjongsoul-3p"}),
}


@pytest.mark.parametrize(
    ("players", "num_tables", "workers"), [(4, 1, 1), (4, 4, 1), (4, 3, 2), (3, 1, 1), (3, 3, 2)]
)
def test_python_policies_batch_like_the_aec_env(players, num_tables, workers):
    seats, games, rules = PYTHON_GAMES[players]
    out = riichi_env.selfplay(
        seats,
        games=games,
        seed=20,
        num_tables=num_tables,
        workers=workers,
        game_length="tonpuusen",
        **rules,
    )
    for r in out["results"]:
        env = _aec_game(r["seed"], seats, game_length="tonpuusen", **rules)
        assert r["points"] == env.points()[:players]
        assert r["final_scores"] == env.final_scores()[:players]


def test_learner_against_compiled_opponents():
    calls = []
    dtypes = set()

    def learner(obs, mask, seat):
        calls.append(seat.copy())
        dtypes.add(obs.dtype)
        assert obs.shape[1:] == (157, 34)
        return first_legal(obs, mask, seat)

    policies = [learner, "random", "random", "random"]
    a = riichi_env.selfplay(policies, games=5, seed=1, num_tables=5, obs_dtype=np.uint8)
    assert all((s == 0).all() for s in calls)  # only seat 0 is asked
    assert max(len(s) for s in calls) > 1  # batched over tables
    assert dtypes == {np.dtype(np.uint8)}
    b = riichi_env.selfplay(policies, games=5, seed=1, num_tables=2, workers=2)
    assert a["results"] == b["results"]


def test_records_are_the_games_played():
    out = riichi_env.selfplay("random", games=3, seed=40, num_tables=2, records=True)
    assert len(out["records"]) == 3
    for r, game in zip(out["results"], out["records"], strict=True):
        state = play_one(r["seed"])
        rows = state.events[0, : int(state.n_events[0])]
        assert game == game_from_events(rows)
        assert len(game.hands) == r["hands"]
        assert write_text(game, "mjai")


def test_bad_policies():
    with pytest.raises(ValueError, match="unknown compiled policy 'nope' for seat 0"):
        riichi_env.selfplay("nope", games=1)
    with pytest.raises(TypeError, match="seat 2"):
        riichi_env.selfplay(["random", "random", 3, "random"], games=1)
    with pytest.raises(ValueError, match="list of four"):
        riichi_env.selfplay(["random", "random"], games=1)

    def bad(obs, mask, seat):
        out = mask.argmax(axis=1)
        out[:] = 84 if not mask[0, 84] else 0
        return out

    with pytest.raises(ValueError, match=r"policy 'bad': table \d+ \(seat \d\): illegal action"):
        riichi_env.selfplay(bad, games=2, num_tables=2)
    with pytest.raises(ValueError, match=r"shape"):
        riichi_env.selfplay(lambda o, m, s: [0], games=2, num_tables=2)
    with pytest.raises(TypeError, match="integers"):
        riichi_env.selfplay(lambda o, m, s: m.argmax(axis=1) * 1.0, games=2, num_tables=2)
    with pytest.raises(ValueError, match="games"):
        riichi_env.selfplay("random", games=-1)
    with pytest.raises(TypeError, match="workers"):
        riichi_env.selfplay("random", games=1, workers="2")


def test_cli_workers_and_threads_alias(capsys):
    import json

    from riichi_env.cli.main import main

    docs = []
    for extra in (["--workers", "1"], ["--workers", "2"], ["--threads", "2", "--tables", "3"]):
        assert main(["selfplay", "--games", "4", "--seed", "5", "--json", *extra]) == 0
        docs.append(json.loads(capsys.readouterr().out))
    assert docs[0]["results"] == docs[1]["results"] == docs[2]["results"]
    first = docs[0]["results"][0]
    assert set(first) == {"seed", "points", "final_scores", "hands", "decisions"}
    assert docs[0]["decisions"] == sum(r["decisions"] for r in docs[0]["results"])
    assert main(["selfplay", "--games", "2", "--progress"]) == 0
    assert "selfplay: 2/2 games" in capsys.readouterr().err
    assert main(["selfplay", "--games", "1", "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err


def test_vector_selfplay_example_runs(capsys):
    import runpy
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "examples" / "vector_selfplay.py"
    runpy.run_path(str(path))["main"](4, 60)
    out = capsys.readouterr().out
    assert "vector env: 4 tables, 60 steps" in out
    assert "selfplay: 32 games" in out


class RichReader:
    """A Python policy that declares the observations it reads (as a trained network does)."""

    __name__ = "rich-reader"
    encoder = "rich_v0"

    def __init__(self):
        self.shapes = set()

    def __call__(self, obs, mask, seat):
        self.shapes.add(obs.shape[1:])
        return mask.argmax(axis=1)


def test_a_policy_declares_its_encoder():
    reader = RichReader()
    riichi_env.selfplay([reader, "random", "random", "random"], games=2, seed=1)
    assert reader.shapes == {(163, 34)}
    same = riichi_env.selfplay(
        [RichReader(), "random", "random", "random"], games=2, seed=1, encoder="rich_v0"
    )
    plain = riichi_env.selfplay([first_legal, "random", "random", "random"], games=2, seed=1)
    assert _strip(same["results"]) == _strip(plain["results"])  # same moves, other observations
    with pytest.raises(ValueError, match="reads encoder 'rich_v0' observations, but encoder="):
        riichi_env.selfplay([reader, "random", "random", "random"], games=1, encoder="basic_v0")

    class Basic(RichReader):
        __name__ = "basic-reader"
        encoder = "basic_v1"

    with pytest.raises(ValueError, match="policies read different observations"):
        riichi_env.selfplay([reader, Basic(), "random", "random"], games=1)
    with pytest.raises(ValueError, match="unknown encoder"):
        riichi_env.selfplay([first_legal, "random", "random", "random"], games=1, encoder="v9")


# Three players only


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
