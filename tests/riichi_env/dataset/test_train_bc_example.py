"""The behaviour-cloning example: records in, a checkpoint the arena plays, agreement per kind."""

import json
import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("matplotlib")

from riichi_env.cli.main import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "train_bc_from_records.py"
LOGS = ROOT / "tests" / "data" / "logs"


def run_example(monkeypatch, capsys, *argv: str) -> tuple[dict, str]:
    monkeypatch.setattr(sys, "argv", [EXAMPLE.name, *argv, "--json"])
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    text = capsys.readouterr().out
    return json.loads(text.strip().splitlines()[-1]), text


@pytest.fixture(scope="module")
def example():
    return runpy.run_path(str(EXAMPLE))  # its functions, main() not run


def test_held_out_split_is_by_file_and_follows_the_seed(example):
    files = [Path(f"g{i:02d}.mjson") for i in range(40)]
    train, held = example["split_files"](files, 0.1, 7)
    assert len(held) == 4 and len(train) == 36 and not set(train) & set(held)
    assert sorted(train + held) == files
    assert example["split_files"](files, 0.1, 7) == (train, held)
    assert example["split_files"](files, 0.1, 8)[1] != held
    assert example["split_files"](files, 0.0, 7) == (files, [])
    assert len(example["split_files"](files[:3], 0.01, 0)[1]) == 1  # at least one file
    with pytest.raises(SystemExit, match="leaves no file to train on"):
        example["split_files"](files[:1], 0.5, 0)
    with pytest.raises(SystemExit, match=r"--held-out must be in \[0, 1\)"):
        example["split_files"](files, 1.0, 0)


def test_record_files_of_a_folder(example, tmp_path):
    found = example["record_files"]([str(LOGS)])
    names = {f.name for f in found}
    assert "bug1.xml" in names and "126_204_0_mjai.jsonl" in names and "ranked_game.json" in names
    assert not names & {"INDEX.md", "LICENSES.md", "generate.py", "walls.jsonl"}
    with pytest.raises(SystemExit, match="no such file or directory"):
        example["record_files"]([str(tmp_path / "missing")])
    with pytest.raises(SystemExit, match="no record files"):
        example["record_files"]([str(tmp_path)])


def test_uint8_observations_dequantize_as_the_vector_env(example):
    import numpy as np

    import riichi_env

    env = riichi_env.vector_env(2, encoder="basic_v0", obs_dtype=np.uint8, seed=3)
    obs, _ = env.reset()
    got = example["Observations"]("basic_v0")(obs["observation"]).numpy()
    np.testing.assert_allclose(got, env.dequantize(obs["observation"]), atol=1e-6)


def test_clones_records_then_plays_in_the_arena(tmp_path, monkeypatch, capsys):
    """tests/data/logs (human games), then arena-written records from that clone (--init, PPO)."""
    from riichi_env.batch.arena import arena

    first = tmp_path / "first"
    argv = [str(LOGS), "--epochs", "0.2", "--held-out", "0.2", "--batch-size", "256"]
    argv += ["--held-out-rows", "1000", "--curve-rows", "300", "--out", str(first)]
    summary, text = run_example(monkeypatch, capsys, *argv)
    assert summary["samples"] > 200 and summary["held_out_files"] >= 1
    held = summary["held_out"]
    assert 0 < held["rows"] <= 1000 and held["games"] >= 1
    assert list(held["per_kind"])[0] == "discard"  # discard agreement first
    assert 0.0 <= held["per_kind"]["discard"]["agreement"] <= 1.0
    assert "kind" in text and "discard" in text and "agreement" in text
    assert (first / "bc.zip").is_file() and (first / "curve.png").stat().st_size > 0
    history = json.loads((first / "history.json").read_text())
    assert history[0]["samples"] == 0 and history[-1]["samples"] == summary["samples"]

    logs = tmp_path / "arena_logs"
    arena(["efficiency"] * 4, games=4, seed=5, log_dir=logs)
    second = tmp_path / "second"
    argv = [str(logs), "--epochs", "0.5", "--held-out", "0.25", "--init", str(first / "bc.zip")]
    argv += ["--then-ppo", "0.005", "--critic-warmup", "0", "--tables", "2"]
    argv += ["--eval-games", "4", "--out", str(second)]
    summary, text = run_example(monkeypatch, capsys, *argv)
    assert summary["train_files"] == 3 and summary["held_out_files"] == 1
    assert summary["ppo_steps"] > 0 and (second / "ppo.zip").is_file()
    assert set(summary["eval"]) == {"bc", "ppo"}
    for row in summary["eval"].values():
        assert row["games"] == 4 and 1.0 <= row["avg_rank"] <= 4.0

    seats = f"ppo:{first / 'bc.zip'},simple,simple,simple"
    assert main(["arena", "--seats", seats, "--games", "4", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert doc["agents"][0]["games"] == 4


def test_refuses_a_checkpoint_of_another_encoder(tmp_path, monkeypatch, capsys):
    from riichi_env.integrations.sb3 import RiichiSB3VecEnv, maskable_ppo

    model = maskable_ppo(RiichiSB3VecEnv(1, encoder="rich_v0"), n_steps=8, batch_size=8)
    model.save(tmp_path / "rich.zip")
    argv = [str(LOGS / "tenhou6" / "ranked_game.json"), "--held-out", "0"]
    argv += ["--init", str(tmp_path / "rich.zip"), "--out", str(tmp_path / "out")]
    with pytest.raises(SystemExit, match="reads 'rich_v0' observations, not 'basic_v0'"):
        run_example(monkeypatch, capsys, *argv)
