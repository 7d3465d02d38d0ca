"""The arena: duplicate rotation, per-seat statistics from the event log, records, the CLI; three
players (issue 26: duplicate play rotates three seats over sets of three games, ranks 1-3, the
interval on [1, 3], the CLI)."""

import json

import numpy as np
import pytest

import riichi_env
from engine.harness.selfplay import play_one
from riichi_env.batch.arena import arena, avg_rank_interval, format_table, seat_stats
from riichi_env.cli.main import main
from riichi_env.records import read_file
from riichi_env.records.export import game_from_events


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_seat_stats_match_the_record(seed):
    """Wins, deal-ins, riichi and calls counted from the raw log equal the parsed record's."""
    state = play_one(seed, policy=1)  # greedy random play: wins, riichi and calls happen
    rows = state.events[0, : int(state.n_events[0])]
    stats = seat_stats(rows)
    game = game_from_events(rows)
    assert stats["hands"][0] == len(game.hands)
    wins = np.zeros(4, int)
    deal_ins = np.zeros(4, int)
    riichi = np.zeros(4, int)
    calls = np.zeros(4, int)
    points = np.zeros(4, int)
    draws = 0
    for hand in game.hands:
        for w in hand.wins:
            wins[w.seat] += 1
            points[w.seat] += w.deltas[w.seat]
            if not w.tsumo:
                deal_ins[w.from_seat] += 1
        for s in range(4):
            riichi[s] += sum(1 for e in hand.events if e.type == "riichi" and e.seat == s)
            calls[s] += any(
                e.seat == s and e.type in ("chi", "pon", "daiminkan") for e in hand.events
            )
        draws += hand.draw is not None and hand.draw.kind in ("exhaustive", "nagashi")
    np.testing.assert_array_equal(stats["wins"], wins)
    np.testing.assert_array_equal(stats["deal_ins"], deal_ins)
    np.testing.assert_array_equal(stats["riichi"], riichi)
    np.testing.assert_array_equal(stats["calls"], calls)
    np.testing.assert_array_equal(stats["win_points"], points)
    assert int(stats["draws"]) == draws


def test_duplicate_rotation_pools_equal_specs():
    out = arena(["random"] * 4, games=6, seed=3)
    assert out["games"] == 8  # rounded up to a multiple of four
    (row,) = out["agents"]
    assert row["games"] == 32
    assert row["avg_rank"] == 2.5  # every game has one of each rank
    assert row["rank_counts"] == [8, 8, 8, 8]
    assert 0 <= out["draw_rate"] <= 1


def test_each_policy_sits_in_every_seat_and_workers_do_not_matter():
    seats = ["greedy", "random", "random", "random"]
    one = arena(seats, games=8, seed=5)
    two = arena(seats, games=8, seed=5, workers=2)
    for a, b in zip(one["agents"], two["agents"], strict=True):
        assert {k: v for k, v in a.items()} == {k: v for k, v in b.items()}
    greedy, rand = one["agents"]
    assert (greedy["name"], greedy["games"], rand["games"]) == ("greedy", 8, 24)
    assert sum(greedy["rank_counts"]) == 8
    lo, hi = greedy["avg_rank_ci95"]
    assert lo <= greedy["avg_rank"] <= hi
    # the greedy player wins far more often than random play
    assert greedy["win_rate"] > rand["win_rate"]
    assert "greedy" in format_table(one)


def test_logs_are_written_and_read_back(tmp_path):
    out = arena(
        ["greedy", "random", "random", "random"],
        games=4,
        seed=9,
        log_dir=tmp_path,
        log_format="tenhou6",
    )
    files = sorted(tmp_path.iterdir())
    assert len(files) == 4
    hands = sum(len(read_file(f).hands) for f in files)
    assert hands == out["hands"]


def test_cli_json(capsys):
    assert main(["arena", "--seats", "greedy,random,random,random", "--games", "4", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= {"games", "draw_rate", "agents", "deal_sets", "comparisons", "interval"}
    assert doc["agents"][0]["avg_rank_ci95"] == [None, None]  # one deal set: no interval
    assert [a["seat_spec"] for a in doc["agents"]] == ["greedy", "random"]
    assert set(doc["agents"][0]) >= {
        "name",
        "seat_spec",
        "games",
        "avg_rank",
        "avg_rank_ci95",
        "rank_counts",
        "avg_final_score",
        "win_rate",
        "deal_in_rate",
        "riichi_rate",
        "call_rate",
    }


def test_cli_agents_and_module_class(capsys):
    args = ["arena", "--seats", "efficiency,agents.random_agent:RandomAgent,random,random"]
    assert main([*args, "--games", "4"]) == 0
    text = capsys.readouterr().out
    assert "efficiency" in text and "agents.random_agent:RandomAgent" in text


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ("random,random,random", "four comma-separated"),
        ("random,random,random,nope", "unknown seat 'nope'"),
        ("random,random,random,no_such_module_x:A", "cannot import module"),
        ("random,random,random,agents:Nope", "has no 'Nope'"),
        ("random,random,random,mjai:/nonexistent/bot", "cannot start '/nonexistent/bot'"),
    ],
)
def test_cli_bad_seats(capsys, seats, message):
    assert main(["arena", "--seats", seats, "--games", "4"]) == 2
    assert message in capsys.readouterr().err


def test_agent_objects_get_a_copy_per_worker():
    """Agents keep scratch arrays: two threads sharing one would corrupt its decisions."""
    from agents import EfficiencyAgent, SimpleEfficiencyAgent

    seats = [EfficiencyAgent(), SimpleEfficiencyAgent(), SimpleEfficiencyAgent(), "random"]
    names = ["efficiency", "simple", "simple", "random"]
    one = arena(seats, games=8, seed=2, names=names)
    two = arena(seats, games=8, seed=2, names=names, workers=2)
    assert one["agents"] == two["agents"]


def _normal(counts):
    """The normal approximation the arena used before: mean +- 1.96 sd / sqrt(n)."""
    ranks = np.repeat(np.arange(1.0, 5.0), counts)
    half = 1.96 * ranks.std(ddof=1) / np.sqrt(ranks.size)
    return ranks.mean() - half, ranks.mean() + half


def test_avg_rank_interval_stays_in_one_to_four():
    from riichi_env.batch.arena import avg_rank_interval

    # three firsts and a second: the normal approximation said 0.76-1.74
    assert _normal([3, 1, 0, 0])[0] < 0.77
    lo, hi = avg_rank_interval([3, 1, 0, 0])
    assert 1 <= lo <= 1.25 <= hi <= 4
    assert avg_rank_interval([40, 0, 0, 0])[0] == 1.0 < avg_rank_interval([40, 0, 0, 0])[1] < 1.3
    assert avg_rank_interval([0, 0, 0, 40])[1] == 4.0
    assert avg_rank_interval([400, 0, 0, 0])[1] < avg_rank_interval([40, 0, 0, 0])[1]
    rng = np.random.default_rng(0)
    for _ in range(500):
        counts = rng.multinomial(int(rng.integers(1, 60)), rng.dirichlet(np.full(4, 0.3)))
        lo, hi = avg_rank_interval(counts)
        mean = counts @ np.arange(1, 5) / counts.sum()
        assert 1 <= lo <= mean <= hi <= 4
    assert np.isnan(avg_rank_interval([0, 0, 0, 0])).all()
    with pytest.raises(ValueError, match="rank_counts"):
        avg_rank_interval([1, 2, 3])


@pytest.mark.parametrize("counts", [[600, 500, 450, 450], [80, 80, 80, 80], [900, 60, 30, 10]])
def test_avg_rank_interval_is_the_normal_one_for_many_games(counts):
    from riichi_env.batch.arena import avg_rank_interval

    np.testing.assert_allclose(avg_rank_interval(counts), _normal(counts), atol=0.01)


def test_arena_rows_use_the_deal_set_interval():
    """The interval is the t interval of the deal sets' mean ranks (one spec in one seat), not
    the seat-games' Wilson interval; inside 1-4."""
    import riichi_env
    from riichi_env.batch.stats import t_quantile

    seats = ["greedy", "efficiency", "simple", "random"]
    out = arena(seats, games=24, seed=0)
    means = np.zeros(6)
    for r in range(4):
        order = [seats[(s + r) % 4] for s in range(4)]
        ref = riichi_env.selfplay(order, games=6, seed=0)
        for k, res in enumerate(ref["results"]):
            means[k] += (res["ranks"][(-r) % 4] + 1) / 4
    row = out["agents"][0]
    assert means.std() > 0.2
    half = t_quantile(0.975, 5) * means.std(ddof=1) / np.sqrt(6)
    assert row["avg_rank"] == pytest.approx(means.mean())
    lo, hi = row["avg_rank_ci95"]
    assert lo == pytest.approx(max(means.mean() - half, 1.0))
    assert hi == pytest.approx(min(means.mean() + half, 4.0))
    for row in out["agents"]:
        assert 1 <= row["avg_rank_ci95"][0] <= row["avg_rank"] <= row["avg_rank_ci95"][1] <= 4
        for key in ("avg_final_score", "win_rate", "deal_in_rate", "riichi_rate", "call_rate"):
            lo, hi = row[f"{key}_ci95"]
            assert lo <= row[key] <= hi, key
            assert row["stderr"][key] >= 0 and row["min_detectable"][key] >= 0
    assert out["deal_sets"] == 6 and out["incomplete_deal_sets"] == []


def _progress_lines(err: str) -> list[str]:
    """stderr cut after each newline (a line redrawn in place with ``\\r`` stays one line), without
    the first-run compile notices of ``riichi_env.core.compiling``."""
    lines = err.split("\n")
    lines = [x + "\n" for x in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    return [x for x in lines if not x.startswith("riichi_env:")]


def test_progress_is_one_line_for_the_whole_arena(capsys, monkeypatch):
    import riichi_env.batch.play

    monkeypatch.setattr(riichi_env.batch.play, "TICK", 0.005)  # redraw often: updates mid-run

    def slow(obs, mask, seat):
        import time

        time.sleep(0.001)
        return mask.argmax(axis=1)

    arena([slow, "random", "random", "random"], games=8, seed=1, progress=True)
    (line,) = _progress_lines(capsys.readouterr().err)
    assert line.endswith("\n") and "selfplay" not in line
    draws = line.rstrip("\n").split("\r")[1:]
    assert len(draws) > 4  # redrawn in place as the rotations play
    assert all(d.startswith("arena: ") for d in draws)
    done = [int(d.split()[1].split("/")[0]) for d in draws]
    assert done == sorted(done) and done[-1] == 8 and draws[-1].startswith("arena: 8/8 games")
    assert len(draws[-1]) >= max(len(d) for d in draws)  # padded over a longer line before
    assert main(["arena", "--games", "4", "--progress"]) == 0
    captured = capsys.readouterr()
    (line,) = _progress_lines(captured.err)
    assert line.startswith("\rarena: ") and "arena: 4/4 games" in line
    assert "efficiency" in captured.out
    arena(["random"] * 4, games=4, progress=False)
    assert capsys.readouterr().err == ""


def test_selfplay_progress_is_one_line(capsys):
    assert main(["selfplay", "--games", "3", "--workers", "2", "--progress"]) == 0
    (line,) = _progress_lines(capsys.readouterr().err)
    assert line.startswith("\rselfplay: ") and "selfplay: 3/3 games" in line
    seen = []
    import riichi_env

    riichi_env.selfplay("random", games=3, progress=seen.append)
    assert seen[-1] == 3 and capsys.readouterr().err == ""


# Three players (issue 26)


def test_each_policy_sits_in_every_seat():
    out = arena(["efficiency", "random", "greedy"], games=6, seed=4, rules="tenhou-3p")
    assert out["players"] == 3 and out["games"] == 6
    rows = {a["name"]: a for a in out["agents"]}
    assert set(rows) == {"efficiency", "random", "greedy"}
    for a in rows.values():
        assert a["games"] == 6 and len(a["rank_counts"]) == 3 and sum(a["rank_counts"]) == 6
        lo, hi = a["avg_rank_ci95"]
        assert 1 <= lo <= a["avg_rank"] <= hi <= 3
    # set k, rotation r: seat s plays seats[(s + r) % 3]; each set's three games share one seed
    want = {name: [0, 0, 0] for name in rows}
    for r in range(3):
        order = [["efficiency", "random", "greedy"][(s + r) % 3] for s in range(3)]
        ref = riichi_env.selfplay(order, games=2, seed=4, rules="tenhou-3p", records="events")
        for res, log in zip(ref["results"], ref["records"], strict=True):
            assert seat_stats(log)["wins"][3] == 0  # the absent seat never wins
            for s in range(3):
                want[order[s]][res["ranks"][s]] += 1
    assert {name: a["rank_counts"] for name, a in rows.items()} == want
    counts = np.sum([a["rank_counts"] for a in out["agents"]], axis=0)
    assert counts.tolist() == [6, 6, 6]  # each game has one 1st, one 2nd, one 3rd
    text = format_table(out)
    assert "1st/2nd/3rd " in text and "x 3 seat rotations" in text


def test_workers_do_not_matter_and_what_is_refused(tmp_path):
    seats = ["random", "efficiency", "random"]
    one = arena(seats, games=3, seed=1, rules="mahjongsoul-3p")
    two = arena(seats, games=3, seed=1, rules="mahjongsoul-3p", workers=2)
    assert one["agents"] == two["agents"]
    with pytest.raises(ValueError, match="three seats"):
        arena(["random"] * 4, games=3, rules="mahjongsoul-3p")
    with pytest.raises(ValueError, match="names must be three strings"):
        arena(seats, games=3, rules="mahjongsoul-3p", names=["a", "b"])
    arena(seats, games=3, rules="mahjongsoul-3p", log_dir=tmp_path / "logs", log_format="tenhou6")
    assert len(list((tmp_path / "logs").iterdir())) == 3  # one record per rotation


def test_avg_rank_interval_with_three_places():
    assert avg_rank_interval([40, 0, 0], places=3)[0] == 1.0
    assert avg_rank_interval([0, 0, 40], places=3)[1] == 3.0
    rng = np.random.default_rng(0)
    for _ in range(200):
        counts = rng.multinomial(int(rng.integers(1, 60)), rng.dirichlet(np.full(3, 0.3)))
        lo, hi = avg_rank_interval(counts, places=3)
        mean = counts @ np.arange(1, 4) / counts.sum()
        assert 1 <= lo <= mean <= hi <= 3
    ranks = np.repeat([1.0, 2.0, 3.0], [500, 450, 450])
    half = 1.96 * ranks.std(ddof=1) / np.sqrt(ranks.size)
    np.testing.assert_allclose(
        avg_rank_interval([500, 450, 450], places=3),
        (ranks.mean() - half, ranks.mean() + half),
        atol=0.01,
    )
    with pytest.raises(ValueError, match="three counts"):
        avg_rank_interval([1, 2, 3, 4], places=3)


def test_cli_arena_three_players(capsys):
    from riichi_env.cli.main import main

    code = main(
        ["arena", "--rules", "tenhou-3p", "--seats", "random,efficiency,random", "--games", "3"]
        + ["--json", "--no-progress"]
    )
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == 3 and all(len(a["rank_counts"]) == 3 for a in doc["agents"])
    assert main(["arena", "--rules", "tenhou-3p", "--seats", "random,random,random,random"]) == 2
    assert "--seats needs three" in capsys.readouterr().err
