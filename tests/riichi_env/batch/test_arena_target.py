"""``target_ci``: deal sets in batches until the chosen interval is narrower than asked (at most
``games``), the same games as one run of that many deal sets, and what it says when it stops."""

import json
import math

import pytest

from riichi_env.batch.arena import arena, challenge, format_table
from riichi_env.cli.main import main

SEATS = ["efficiency", "simple", "simple", "simple"]


def _without_target(out):
    return {k: v for k, v in out.items() if k not in ("target", "seconds")}


def test_it_stops_where_it_says_and_plays_the_same_games():
    out = arena(SEATS, games=400, seed=3, target_ci=0.5)
    t = out["target"]
    assert t["reached"] and t["figure"] == "avg_rank" and t["of"] == "efficiency"
    lo, hi = out["agents"][0]["avg_rank_ci95"]
    assert t["width"] == hi - lo < 0.5 and t["ci95"] == [lo, hi]
    assert t["deal_sets"] == out["deal_sets"] and t["games"] == out["games"] < 400
    checks = t["checks"]
    assert checks[0]["deal_sets"] == 10 and checks[-1]["deal_sets"] == t["deal_sets"]
    assert all(c["width"] >= 0.5 for c in checks[:-1]) and checks[-1]["width"] == t["width"]
    for c in checks:  # each check is what an arena of that many deal sets says
        alone = arena(SEATS, games=4 * c["deal_sets"], seed=3)
        lo, hi = alone["agents"][0]["avg_rank_ci95"]
        assert hi - lo == pytest.approx(c["width"])
    assert _without_target(alone) == _without_target(out)  # the batches are the same games
    text = format_table(out)
    assert f"reached after {t['games']} games" in text and "these games detect" in text


def test_at_the_cap_it_says_how_many_games_would_do():
    out = arena(SEATS, games=48, seed=3, target_ci=0.05, target="score")
    t = out["target"]
    assert not t["reached"] and t["games"] == 48 and t["figure"] == "avg_final_score"
    assert t["width"] >= 0.05 and t["games_needed"] > 48 and t["deal_sets_needed"] > 12
    assert "NOT reached" in format_table(out) and f"about {t['games_needed']} games" in (
        format_table(out)
    )
    assert arena(SEATS, games=40, seed=3)["target"] is None


def test_the_difference_of_a_pair_or_of_two_challengers():
    out = arena(
        ["efficiency", "simple", "greedy", "random"],
        games=200,
        seed=1,
        compare=["simple", "greedy"],
        target_ci=1.0,
        target="win",
    )
    t = out["target"]
    assert t["of"] == "simple - greedy" and t["figure"] == "win_rate" and t["reached"]
    assert out["comparisons"][0]["figures"]["win_rate"]["ci95"] == t["ci95"]
    duel = challenge(
        ["efficiency", "greedy"], ["simple"] * 3, games=400, seed=2, target_ci=0.4, target="rank"
    )
    t = duel["target"]
    assert t["of"] == "efficiency - greedy" and t["reached"]
    assert duel["comparisons"][0]["figures"]["avg_rank"]["ci95"] == t["ci95"]
    assert duel["games"] == t["games"]


def test_what_it_refuses():
    for bad in (0, -1.0, math.inf, math.nan, True, "0.1"):
        with pytest.raises(ValueError, match="target_ci must be a width > 0"):
            arena(SEATS, games=8, target_ci=bad)
    with pytest.raises(ValueError, match="unknown figure 'speed'"):
        arena(SEATS, games=8, target_ci=0.1, target="speed")
    with pytest.raises(ValueError, match="target 'points' needs a points table"):
        arena(SEATS, games=8, target_ci=0.1, target="points")


def test_cli_target(capsys):
    argv = ["arena", "--seats", ",".join(SEATS), "--games", "200", "--seed", "3"]
    assert main([*argv, "--target-ci", "0.6", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["target"]["reached"] and doc["games"] == doc["target"]["games"] < 200
    argv += ["--points", "90,45,0,-135", "--target", "points", "--target-ci", "30"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "target: points of efficiency, 95 % interval narrower than 30.0: reached" in out
    assert main(["arena", "--target-ci", "0.1", "--target", "points"]) == 2
    assert "needs a points table" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # argparse refuses it: usage and the message, status 2
        main(["arena", "--points", "90,45,x"])
    assert "expected comma-separated numbers" in capsys.readouterr().err
    assert main(["arena", "--points", "90,45,0"]) == 2
    assert "points must be four finite numbers" in capsys.readouterr().err
