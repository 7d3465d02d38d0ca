"""The MaskablePPO example runs end to end; its checkpoint plays in the arena as ppo:PATH."""

import json
import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("matplotlib")

from riichi_env.cli.main import main  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "train_maskable_ppo.py"


def test_example_trains_evaluates_and_saves(tmp_path, monkeypatch, capsys):
    argv = [EXAMPLE.name, "--max-steps", "100", "--tables", "4", "--eval-games", "4"]
    argv += ["--out", str(tmp_path), "--json"]
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(last) == {"steps", "steps_per_s", "minutes", "avg_rank", "avg_rank_ci95", "games"}
    assert last["steps"] >= 100 and last["games"] == 4
    assert 1.0 <= last["avg_rank"] <= 4.0
    assert (tmp_path / "curve.png").stat().st_size > 0
    checkpoints = sorted(tmp_path.glob("ppo_*.zip"), key=lambda p: int(p.stem[4:]))
    assert [p.stem for p in checkpoints][0] == "ppo_0"  # the untrained policy is evaluated too
    checkpoint = checkpoints[-1]
    seats = f"ppo:{checkpoint},random,random,random"
    assert main(["arena", "--seats", seats, "--games", "4", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert doc["agents"][0]["name"] == f"ppo:{checkpoint}" and doc["agents"][0]["games"] == 4


def test_example_clones_a_teacher_then_runs_ppo(tmp_path, monkeypatch, capsys):
    argv = [EXAMPLE.name, "--opponents", "simple", "--pretrain", "efficiency"]
    argv += ["--pretrain-minutes", "0.005", "--minutes", "0.05", "--tables", "4"]
    argv += ["--eval-every", "1", "--eval-games", "4", "--final-eval-games", "8"]
    argv += ["--out", str(tmp_path), "--json"]
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    text = capsys.readouterr().out
    assert "cloned efficiency for" in text and "PPO from here" in text
    history = json.loads((tmp_path / "history.json").read_text())
    phases = [h["phase"] for h in history]
    assert phases[0] == "start" and phases[-1] == "ppo"
    assert history[0]["cloned"] == 0 < history[-1]["cloned"] <= history[-1]["steps"]
    steps = [h["steps"] for h in history]
    assert steps == sorted(steps) and steps[-1] > 0
    assert [h["games"] for h in history][-2:] == [4, 8]  # the last evaluation: --final-eval-games


def test_example_refuses_cloning_on_the_single_table_wrapper(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [EXAMPLE.name, "--single-table", "--pretrain", "simple"])
    with pytest.raises(SystemExit):
        runpy.run_path(str(EXAMPLE), run_name="__main__")
    assert "--pretrain needs the vector adapter" in capsys.readouterr().err


def test_arena_refuses_a_missing_checkpoint(capsys):
    assert main(["arena", "--seats", "ppo:/nonexistent.zip,random,random,random"]) == 2
    assert "no checkpoint" in capsys.readouterr().err
