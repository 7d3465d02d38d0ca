"""Paired comparisons: every pair of specs of an arena on the same walls (``--compare A,B``), and
challengers against the same opponents on the same walls (``challenge``, ``--challengers``)."""

import json
import math

import pytest

from riichi_env.batch.arena import arena, challenge, format_table
from riichi_env.batch.stats import t_sf2
from riichi_env.cli.main import main


def test_every_pair_is_compared_and_compare_comes_first():
    seats = ["efficiency", "simple", "greedy", "random"]
    out = arena(seats, games=24, seed=1)
    pairs = [(c["a"], c["b"]) for c in out["comparisons"]]
    assert pairs == [(a, b) for i, a in enumerate(seats) for b in seats[i + 1 :]]
    rows = {r["name"]: r for r in out["agents"]}
    for c in out["comparisons"]:
        for key, f in c["figures"].items():
            if key == "avg_win" and 0 in (rows[c["a"]]["win_rate"], rows[c["b"]]["win_rate"]):
                assert math.isnan(f["difference"])  # no wins: no average win to compare
                continue
            want = rows[c["a"]][key] - rows[c["b"]][key]
            assert f["difference"] == pytest.approx(want, abs=1e-12), key
            lo, hi = f["ci95"]
            assert lo <= f["difference"] <= hi
            if f["stderr"] > 0:
                p = t_sf2(f["difference"] / f["stderr"], c["deal_sets"] - 1)
                assert f["p_value"] == pytest.approx(p)
    picked = arena(seats, games=24, seed=1, compare=["greedy", "simple"])
    assert picked["compare"] == ["greedy", "simple"]
    first = picked["comparisons"][0]
    assert (first["a"], first["b"]) == ("greedy", "simple")
    assert len(picked["comparisons"]) == 6  # the others follow, the pair once
    mirrored = next(c for c in out["comparisons"] if (c["a"], c["b"]) == ("simple", "greedy"))
    f, g = first["figures"]["avg_rank"], mirrored["figures"]["avg_rank"]
    assert f["difference"] == -g["difference"] and f["p_value"] == pytest.approx(g["p_value"])
    text = format_table(picked)
    assert text.index("  greedy - simple") < text.index("  efficiency - simple")
    for bad in (["greedy"], ["greedy", "greedy"], ["greedy", "nobody"], "greedy,simple"):
        with pytest.raises(ValueError, match="compare must name two different seat specs"):
            arena(seats, games=4, compare=bad)


@pytest.mark.parametrize("rules", ["mahjongsoul", "tenhou-3p"])
def test_challengers_meet_the_same_walls_and_opponents(rules, tmp_path):
    """Each challenger's row is its own arena's against the opponents on the same seeds; the
    difference is paired by deal set, so it is narrower than the two rows' intervals together."""
    players = 3 if rules.endswith("3p") else 4
    opponents = ["simple"] * (players - 1)
    duel = challenge(
        ["efficiency", "greedy"],
        opponents,
        games=10 * players,
        seed=4,
        rules=rules,
        log_dir=tmp_path,
        progress=False,
    )
    assert duel["challengers"] == ["efficiency", "greedy"] and duel["games"] == 10 * players
    for i, name in enumerate(("efficiency", "greedy")):
        alone = arena([name, *opponents], games=10 * players, seed=4, rules=rules)
        assert duel["agents"][i] == alone["agents"][0]
        assert [dict(r, name="simple", seat_spec="simple") for r in duel["opponents"][i]] == [
            {**alone["agents"][1], "against": name}
        ]
        assert duel["records_sha256"][i] == alone["records_sha256"]
    (comp,) = duel["comparisons"]
    f = comp["figures"]["avg_rank"]
    a, b = duel["agents"]
    assert f["difference"] == pytest.approx(a["avg_rank"] - b["avg_rank"])
    assert f["stderr"] < math.hypot(a["stderr"]["avg_rank"], b["stderr"]["avg_rank"])
    assert f["p_value"] < 0.05  # efficiency is far stronger than greedy
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 2 * 10 * players
    assert names[0] == "challenger-0-set-00000-rotation-0.mjson"
    assert names[-1] == f"challenger-1-set-00009-rotation-{players - 1}.mjson"
    text = format_table(duel)
    assert "2 challengers on the same walls" in text and "  efficiency - greedy" in text


def test_challenge_refuses_what_it_cannot_play():
    with pytest.raises(ValueError, match="two or more policies"):
        challenge(["efficiency"], ["simple"] * 3, games=4)
    with pytest.raises(ValueError, match="opponents must be a list of three"):
        challenge(["efficiency", "simple"], ["simple"] * 2, games=4)
    with pytest.raises(ValueError, match="opponents must be a list of two"):
        challenge(["efficiency", "simple"], ["simple"] * 3, games=4, rules="tenhou-3p")
    with pytest.raises(ValueError, match="names must be 2 strings"):
        challenge(["efficiency", "simple"], ["simple"] * 3, games=4, names=["a"])


def test_cli_compare_and_challengers(capsys):
    argv = ["arena", "--seats", "efficiency,simple,greedy,random", "--games", "8", "--json"]
    assert main([*argv, "--compare", "greedy,simple"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["compare"] == ["greedy", "simple"] and len(doc["comparisons"]) == 6
    assert set(doc["comparisons"][0]["figures"]["avg_rank"]) == {
        "difference",
        "ci95",
        "p_value",
        "stderr",
        "min_detectable",
    }
    argv = ["arena", "--challengers", "efficiency,greedy", "--opponents", "simple,simple,simple"]
    assert main([*argv, "--games", "8", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["challengers"] == ["efficiency", "greedy"] and doc["games"] == 8
    assert [a["name"] for a in doc["agents"]] == ["efficiency", "greedy"]
    assert main([*argv, "--games", "8"]) == 0
    assert "  efficiency - greedy" in capsys.readouterr().out
    for extra, message in [
        (["--opponents", "simple,simple"], "--opponents needs three"),
        (["--opponents", "simple,simple,simple", "--compare", "a,b"], "--compare is for --seats"),
        ([], "--challengers needs --opponents"),
    ]:
        bad = ["arena", "--challengers", "efficiency,greedy", "--games", "4", *extra]
        assert main(bad) == 2
        assert message in capsys.readouterr().err
    assert main(["arena", "--opponents", "simple,simple,simple"]) == 2
    assert "--opponents goes with --challengers" in capsys.readouterr().err
    assert main(["arena", "--challengers", "efficiency", "--opponents", "a,b,c"]) == 2
    assert "--challengers needs two or more" in capsys.readouterr().err
