"""``riichi-env demo`` and the examples run end to end."""

import runpy
import sys
from pathlib import Path

import pytest

from riichi_env.cli.main import main

ROOT = Path(__file__).resolve().parents[3]


def test_demo_prints_hands_and_final_scores(capsys):
    assert main(["demo", "--games", "1", "--seed", "3", "--length", "tonpuusen"]) == 0
    out = capsys.readouterr().out
    assert "player_0 efficiency" in out
    assert "hand 1: East 1" in out
    assert "deltas" in out
    assert out.count("final: ") == 1


def test_demo_all_efficiency_with_render(capsys):
    args = ["demo", "--games", "1", "--agents", "efficiency", "--length", "tonpuusen", "--render"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "to act: seat 0" in out and "legal: " in out


def test_demo_rejects_zero_games(capsys):
    assert main(["demo", "--games", "0"]) == 2
    assert "--games" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("script", "argv"),
    [("random_play.py", ["1"]), ("gym_single_agent.py", ["1"]), ("custom_rules.py", [])],
)
def test_examples_run(script, argv, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [script, *argv])
    runpy.run_path(str(ROOT / "examples" / script), run_name="__main__")
    assert capsys.readouterr().out
