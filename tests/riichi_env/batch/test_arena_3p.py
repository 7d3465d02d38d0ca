"""The arena with three players (issue 26): duplicate play rotates three seats over sets of three
games, ranks 1-3, the interval on [1, 3], the CLI."""

import json

import numpy as np
import pytest

import riichi_env
from riichi_env.batch.arena import arena, avg_rank_interval, format_table, seat_stats


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
