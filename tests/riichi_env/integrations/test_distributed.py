"""Self-play and the arena on Ray: the same results as one process, lost actors, the CLI."""

import pytest

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.xdist_group("ray")  # one Ray instance: these modules share a worker

from agents import EfficiencyAgent  # noqa: E402
from riichi_env import selfplay  # noqa: E402
from riichi_env.batch.arena import arena  # noqa: E402
from riichi_env.integrations.ray import RayPool  # noqa: E402


@pytest.fixture(scope="module")
def pool(ray_local):
    """Two actors on the local Ray instance (2 CPUs), shared by the module's tests."""
    with RayPool(2) as p:
        yield p


def test_selfplay_on_two_actors_equals_one_process(pool):
    for policy in ("random", ["efficiency", "simple", "random", "greedy"]):
        local = selfplay(policy, games=24, seed=11)
        out = pool.selfplay(policy, games=24, seed=11)
        assert out["results"] == local["results"]
        assert (out["games"], out["hands"], out["decisions"]) == (
            local["games"],
            local["hands"],
            local["decisions"],
        )
        assert out["retried"] == [] and out["lost"] == []
        assert sum(a["games"] for a in out["actors"]) == 24
        assert all(a["games"] > 0 and a["games_per_s"] > 0 for a in out["actors"])


def test_python_policies_are_sent_by_reference_and_can_be_replaced(pool):
    agent = EfficiencyAgent()
    local = selfplay([agent, "random", "random", "random"], games=6, seed=3, records="events")
    ref = pool.put_policy(agent)
    streamed = []
    out = pool.selfplay(
        [ref, "random", "random", "random"],
        games=6,
        seed=3,
        records="events",
        chunk=2,
        on_result=streamed.append,
    )
    assert out["results"] == local["results"]
    assert len(streamed) == 3 and sum(o["games"] for o in streamed) == 6
    for a, b in zip(out["records"], local["records"], strict=True):
        assert (a == b).all()
    # new "weights": a different policy behind a new reference plays the next round
    ref2 = pool.put_policy(lambda obs, mask, seat: mask.argmax(axis=1))
    first = pool.selfplay([ref2, "random", "random", "random"], games=4, seed=3)
    local2 = selfplay(
        [lambda o, m, s: m.argmax(axis=1), "random", "random", "random"], games=4, seed=3
    )
    assert first["results"] == local2["results"]


def test_arena_on_two_actors_equals_one_process(pool):
    seats = ["efficiency", "random", "simple", "random"]
    local = arena(seats, games=8, seed=5, workers=2)
    out = pool.arena(seats, games=8, seed=5)
    for key in ("games", "hands", "draw_rate", "agents"):
        assert out[key] == local[key]


def test_ladder_on_the_actors_plays_the_same_games(pool):
    """The ladder with its games on the actors: the same ranking, intervals and record hashes
    as one process (four and three players)."""
    from riichi_env.batch.ladder import ladder

    for rules in ("mahjongsoul", "mahjongsoul-3p"):
        entrants = ["random", "simple", "greedy"]
        local = ladder(entrants, games=6 if rules.endswith("3p") else 8, rules=rules)
        out = ladder(entrants, games=local["games"], rules=rules, runner=pool.selfplay)
        assert out["ladder"] == local["ladder"]
        assert out["records_sha256"] == local["records_sha256"]
        assert out["comparisons"] == local["comparisons"]


def test_arena_on_the_actors_draws_one_progress_line(pool, capsys):
    out = arena(
        ["greedy", "uniform", "uniform", "uniform"], games=8, runner=pool.selfplay, progress=True
    )
    assert [a["name"] for a in out["agents"]] == ["greedy", "uniform"]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith("\n") and "selfplay" not in err
    assert "arena: 8/8 games" in err
    seen = []
    pool.selfplay("random", games=8, progress=seen.append)
    assert seen[-1] == 8 and capsys.readouterr().err == ""


def test_bot_errors_come_back_from_the_actors(pool):
    """An mjai bot's substituted errors are counted in the actors' copies and come back in the
    results: the arena's per-seat-spec ``bot_errors`` equal one process's."""
    import sys
    from pathlib import Path

    from riichi_env.mjai.seat import MjaiBot

    app_bot = Path(__file__).resolve().parent.parent.parent / "data" / "mjai_bots" / "app_bot.py"
    bot = MjaiBot([sys.executable, str(app_bot), "every3", "{seat}"], dialect="mjaiapp")
    seats = [bot, "random", "greedy", "random"]
    local = arena(seats, games=8, seed=5, workers=2, bot_errors="substitute")
    out = pool.arena(seats, games=8, seed=5, bot_errors="substitute")
    assert out["agents"] == local["agents"]
    assert out["agents"][0]["bot_errors"] > 0


def test_a_dead_actor_loses_no_finished_game(pool):
    local = selfplay("random", games=40, seed=100)
    crashed = []

    def crash_one(_out):
        if not crashed:
            crashed.append(True)
            pool.actors[1].crash.remote()  # dies after the chunk it is playing

    out = pool.selfplay("random", games=40, seed=100, chunk=2, on_result=crash_one)
    assert out["results"] == local["results"]
    assert out["lost"] == []
    assert out["retried"]  # the chunk sent to the dead actor was played again
    assert all(100 <= s < 140 for s in out["retried"])


def test_a_chunk_past_its_retries_is_reported_lost(pool):
    crashed = []

    def crash_one(_out):
        if not crashed:
            crashed.append(True)
            pool.actors[0].crash.remote()

    pool.max_retries = 0
    try:
        out = pool.selfplay("random", games=20, seed=7, chunk=2, on_result=crash_one)
    finally:
        pool.max_retries = 2
    assert out["lost"] and out["retried"] == []
    assert out["games"] == 20 - len(out["lost"])
    played = {r["seed"] for r in out["results"]}
    assert played.isdisjoint(out["lost"]) and played | set(out["lost"]) == set(range(7, 27))


def test_bad_pool_arguments(pool):
    with pytest.raises(ValueError, match="workers=3"):
        pool.selfplay("random", games=2, workers=3)
    with pytest.raises(TypeError, match="put_policy"):
        pool.put_policy("random")
    with pytest.raises(ValueError, match="unknown compiled policy"):
        pool.selfplay("nope", games=2)


def test_an_actor_killed_while_playing_loses_no_finished_game(pool):
    """``ray.kill`` from outside while chunks are in flight (a slow Python policy)."""
    import threading
    import time

    def slow(obs, mask, seat):  # about 1 ms per batch: a chunk plays for a second or so
        time.sleep(0.001)
        return mask.argmax(axis=1)

    seats = [slow, "random", "random", "random"]
    local = selfplay(seats, games=12, seed=50)
    timers = []

    def kill_soon(_out):  # after the first result: the actors are warm and playing
        if not timers:
            timers.append(threading.Timer(0.3, ray.kill, args=(pool.actors[1],)))
            timers[0].start()

    out = pool.selfplay(seats, games=12, seed=50, chunk=2, on_result=kill_soon)
    timers[0].join()
    assert out["results"] == local["results"]
    assert out["lost"] == [] and out["retried"]


def test_three_player_selfplay_and_arena_on_the_actors(pool):
    """Three-player rules (issue 26): one policy or three, the same results as one process."""
    for policy in ("random", ["efficiency", "random", "greedy"]):
        local = selfplay(policy, games=10, seed=5, rules="tenhou-3p")
        out = pool.selfplay(policy, games=10, seed=5, rules="tenhou-3p")
        assert out["results"] == local["results"]
        assert all(len(r["points"]) == 3 for r in out["results"])
    seats = ["efficiency", "random", "greedy"]
    local = arena(seats, games=6, seed=2, rules="mahjongsoul-3p")
    assert pool.arena(seats, games=6, seed=2, rules="mahjongsoul-3p")["agents"] == local["agents"]
    with pytest.raises(ValueError, match="a list of three"):
        pool.selfplay(["random"] * 4, games=1, rules="mahjongsoul-3p")
