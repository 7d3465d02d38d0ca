"""A feature or an example whose optional dependency is missing names the extra to install (issue
23: ``ppo:`` seats and the training examples failed with a bare ``ModuleNotFoundError``).

Each test hides the dependency (``sys.modules[name] = None`` makes its import fail as if it were not
installed), so they run with and without the extras.
"""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

from riichi_env.cli.main import main
from riichi_env.extras import MissingExtraError, missing_extra, require

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TRAIN = "install the train extra: pip install -e '.[train]'"
NEEDS = r"needs (torch|stable_baselines3|sb3_contrib|matplotlib): " + re.escape(TRAIN)
"""The first train module missing is named (the venv may lack the others as well)."""


@pytest.fixture
def without(monkeypatch):
    """``without("torch", ...)``: those modules cannot be imported; ``riichi_env.integrations.sb3`` and
    ``riichi_env.integrations.rllib`` are imported afresh."""

    def hide(*names: str) -> None:
        for name in names:
            for loaded in [m for m in sys.modules if m.startswith(name + ".")]:
                monkeypatch.setitem(sys.modules, loaded, None)  # `from a.b import c` finds a.b
            monkeypatch.setitem(sys.modules, name, None)
        for module in ("riichi_env.integrations.sb3", "riichi_env.integrations.rllib"):
            monkeypatch.delitem(sys.modules, module, raising=False)

    return hide


@pytest.mark.parametrize("hidden", ["torch", "stable_baselines3"])
def test_the_sb3_adapter_names_the_train_extra(without, hidden):
    without(hidden)
    with pytest.raises(
        MissingExtraError, match=r"^riichi_env.integrations.sb3 \(the ppo: seats, .*\) " + NEEDS
    ):
        import riichi_env.integrations.sb3  # noqa: F401


def test_a_ppo_seat_names_the_train_extra(without, capsys):
    without("torch", "sb3_contrib")
    assert main(["arena", "--seats", "ppo:model.zip,random,random,random", "--games", "4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("riichi-env arena: error: ") and err.count("\n") == 1
    assert TRAIN in err and "ModuleNotFoundError" not in err


def test_a_ppo_agent_names_the_train_extra_for_sb3_contrib(without):
    pytest.importorskip("torch")
    pytest.importorskip("stable_baselines3")
    without("sb3_contrib")
    from riichi_env.integrations.sb3 import MaskablePPOAgent

    with pytest.raises(MissingExtraError, match=r"^a ppo: seat \(MaskablePPO\) " + NEEDS):
        MaskablePPOAgent("model.zip")


@pytest.mark.parametrize("example", ["train_maskable_ppo.py", "train_bc_from_records.py"])
@pytest.mark.parametrize("hidden", ["torch", "sb3_contrib", "matplotlib"])
def test_the_training_examples_name_the_train_extra(without, monkeypatch, hidden, example):
    without(hidden)
    monkeypatch.setattr(sys, "argv", [example, "--help"])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_path(str(EXAMPLES / example), run_name="__main__")
    assert re.fullmatch(f"error: examples/{example} " + NEEDS, str(exit_.value.code))


def test_the_rllib_example_and_adapter_name_the_rllib_extra(without, monkeypatch):
    without("ray")
    monkeypatch.setattr(sys, "argv", ["train_rllib_ppo.py", "--iterations", "1"])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_path(str(EXAMPLES / "train_rllib_ppo.py"), run_name="__main__")
    assert "install the rllib extra: pip install -e '.[rllib]'" in str(exit_.value.code)
    with pytest.raises(
        MissingExtraError, match=r"riichi_env.integrations.rllib needs ray: install the rllib"
    ):
        import riichi_env.integrations.rllib  # noqa: F401


def test_other_missing_modules_are_left_alone():
    exc = ModuleNotFoundError("No module named 'nothing_known'", name="nothing_known")
    assert missing_extra(exc, "x") is exc
    with pytest.raises(ModuleNotFoundError, match="nothing_known") as info:
        require("nothing_known", "x")
    assert not isinstance(info.value, MissingExtraError)
    assert require("numpy", "x").__name__ == "numpy"
