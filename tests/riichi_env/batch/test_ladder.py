"""``riichi-env ladder``: entrants against one fixed field on the published walls, ranked with
intervals, the same games every run (the manifest's hashes), four and three players, external
bots, the plot."""

import json
import sys

import pytest

from riichi_env.batch.arena import challenge
from riichi_env.batch.ladder import (
    DEFAULT_SEED_KEY,
    FIELD,
    format_ladder,
    ladder,
    manifest,
    seed_of,
)
from riichi_env.cli.main import main

REFERENCE = "python -m riichi_env.mjai.bot"
STARTUP = "900"  # the reference bot may compile the engine's kernels on a cold cache


def test_the_published_seed_key_never_moves():
    assert DEFAULT_SEED_KEY == "riichi-env-ladder-1"
    assert seed_of(DEFAULT_SEED_KEY) == 8300281796151580677
    assert seed_of("another") != seed_of(DEFAULT_SEED_KEY)
    with pytest.raises(ValueError, match="seed_key must be a non-empty string"):
        seed_of("")


def test_ranked_by_score_with_the_next_ones_difference():
    entrants = ["random", "simple", "efficiency", "greedy"]
    out = ladder(entrants, games=16, field=list(FIELD[4]))
    assert out["by"] == "score" and out["field"] == ["random", "simple", "efficiency"]
    rows = out["ladder"]
    assert [r["place"] for r in rows] == [1, 2, 3, 4]
    values = [r["value"] for r in rows]
    assert values == sorted(values, reverse=True)
    duel = challenge(entrants, list(FIELD[4]), games=16, seed=seed_of(DEFAULT_SEED_KEY))
    by_name = {a["name"]: a for a in duel["agents"]}
    for r in rows:
        assert (
            r["row"] == by_name[r["name"]] and r["value"] == by_name[r["name"]]["avg_final_score"]
        )
    pairs = {(c["a"], c["b"]): c["figures"]["avg_final_score"] for c in duel["comparisons"]}
    for r in rows[:-1]:
        n = r["next"]
        f = pairs.get((r["name"], n["name"]))
        if f is None:
            f = pairs[(n["name"], r["name"])]
            assert n["difference"] == -f["difference"] and n["ci95"] == [
                -f["ci95"][1],
                -f["ci95"][0],
            ]
        else:
            assert n["difference"] == f["difference"] and n["ci95"] == f["ci95"]
        assert n["difference"] >= 0 and n["p_value"] == f["p_value"]
    assert rows[-1]["next"] is None
    assert out["records_sha256"] == duel["records_sha256"]
    text = format_ladder(out)
    assert text.splitlines()[2].split()[1] == rows[0]["name"]
    by_rank = ladder(entrants, games=8, by="rank")
    ranks = [r["value"] for r in by_rank["ladder"]]
    assert ranks == sorted(ranks)
    by_points = ladder(entrants, games=8, by="points", points=[90, 45, 0, -135])
    assert by_points["ladder"][0]["value"] == max(a["avg_points"] for a in by_points["agents"])


def test_the_same_games_every_run_and_with_workers():
    entrants = ["simple", "greedy"]
    one = ladder(entrants, games=8)
    two = ladder(entrants, games=8, workers=2)
    a = manifest(one, specs=["greedy"], command=["riichi-env", "ladder", "greedy"])
    b = manifest(two, specs=["greedy"])
    assert a["records"]["digest"] == b["records"]["digest"] and a["ladder"] == b["ladder"]
    games = a["records"]["games"]
    assert len(games) == 2 * 8 and len({g["sha256"] for g in games}) == 16
    assert games[0] == {
        "entrant": "simple",
        "deal_set": 0,
        "seed": seed_of(DEFAULT_SEED_KEY),
        "rotation": 0,
        "sha256": one["records_sha256"][0][0][0],
    }
    assert a["seeds"] == {"first": seed_of(DEFAULT_SEED_KEY), "deal_sets": 2}
    assert set(a["versions"]) == {"riichi_env", "python", "numpy", "numba", "platform"}
    assert a["rules"]["preset"] == "mahjongsoul" and a["rules"]["uma"] == [15, 5, -5, -15]
    other = ladder(entrants, games=8, seed_key="mine")
    assert other["records_sha256"] != one["records_sha256"]


def test_three_players():
    out = ladder(["random", "simple", "efficiency"], games=6, rules="tenhou-3p")
    assert out["players"] == 3 and out["field"] == ["simple", "efficiency"]
    assert len(out["ladder"]) == 3 and all(len(r["row"]["rank_counts"]) == 3 for r in out["ladder"])
    assert out["games"] == 6 and out["deal_sets"] == 2


def test_what_it_refuses():
    with pytest.raises(ValueError, match="by must be one of score, points, rank"):
        ladder(["random", "simple"], games=4, by="wins")
    with pytest.raises(ValueError, match="needs a points table"):
        ladder(["random", "simple"], games=4, by="points")
    with pytest.raises(ValueError, match="two or more policies"):
        ladder(["random"], games=4)
    with pytest.raises(ValueError, match="names must be distinct"):
        ladder(["random", "simple"], games=4, names=["a", "a"])


def test_cli_five_specs_with_an_mjai_bot_a_manifest_and_a_plot(tmp_path, capsys):
    """The anchors, greedy, a module:Class agent and the reference bot over mjai: the bot plays
    the efficiency agent's games exactly, so its records hash the same as the anchor's."""
    pytest.importorskip("matplotlib")
    man, png = tmp_path / "manifest.json", tmp_path / "ladder.png"
    bot = f"mjai:{REFERENCE}"
    argv = ["ladder", "greedy", "agents.random_agent:RandomAgent", bot, "--games", "4"]
    argv += ["--manifest", str(man), "--plot", str(png), "--bot-startup-timeout", STARTUP]
    assert main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    names = [r["name"] for r in doc["ladder"]]
    assert sorted(names) == sorted(
        ["random", "simple", "efficiency", "greedy", "agents.random_agent:RandomAgent", bot]
    )
    m = json.loads(man.read_text())
    assert m["specs"] == ["greedy", "agents.random_agent:RandomAgent", bot]
    assert m["command"] == ["riichi-env", *argv, "--json"]
    hashes = {}
    for g in m["records"]["games"]:
        hashes.setdefault(g["entrant"], []).append(g["sha256"])
    assert len(hashes) == 6 and all(len(h) == 4 for h in hashes.values())
    assert hashes[bot] == hashes["efficiency"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["ladder", "greedy", "--games", "8"]) == 0  # the table
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:4] == ["place", "entrant", "games", "score"]
    assert "on the walls of seed key 'riichi-env-ladder-1'" in out


def test_cli_errors(capsys, tmp_path, monkeypatch):
    assert main(["ladder", "--anchors", "", "greedy"]) == 2
    assert "two entrants or more" in capsys.readouterr().err
    assert main(["ladder", "greedy", "--field", "simple,simple"]) == 2
    assert "--field needs three seat specs" in capsys.readouterr().err
    assert main(["ladder", "greedy", "--rules", "tenhou-3p", "--field", "a,b,c"]) == 2
    assert "--field needs two seat specs" in capsys.readouterr().err
    assert main(["ladder", "nope"]) == 2
    assert "unknown seat 'nope'" in capsys.readouterr().err
    assert main(["ladder", "greedy", "--plot", str(tmp_path)]) == 2
    assert "a directory is there" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["ladder", "greedy", "--plot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "needs matplotlib: install the plot extra: pip install -e '.[plot]'" in err
