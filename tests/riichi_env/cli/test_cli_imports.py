"""What a ``riichi-env`` run imports: the chosen subcommand's module only, and for ``--help`` none
of them, nor the engine (each subcommand's help line is in ``SUBCOMMANDS``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import riichi_env.cli
from riichi_env.cli.main import SUBCOMMANDS

SHOW = (
    "import contextlib, json, sys; from riichi_env.cli.main import main\n"
    "with contextlib.redirect_stdout(None), contextlib.suppress(SystemExit): main({argv!r})\n"
    "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('riichi_env.cli.', 'engine', "
    "'numba')))))"
)


def _imported(run_python, tmp_path, argv: list[str]) -> list[str]:
    return json.loads(run_python(SHOW.format(argv=argv), tmp_path).stdout)


def test_help_imports_no_subcommand_module_and_no_engine(run_python, tmp_path):
    assert _imported(run_python, tmp_path, ["--help"]) == ["riichi_env.cli.main"]


@pytest.mark.parametrize("command", ["dataset", "convert"])
def test_a_subcommand_imports_no_other_subcommand_module(run_python, tmp_path, command):
    cli = [m for m in _imported(run_python, tmp_path, [command, "--help"]) if ".cli." in m]
    assert f"riichi_env.cli.{command}" in cli
    assert set(cli) <= {
        "riichi_env.cli.main",
        "riichi_env.cli.arguments",
        f"riichi_env.cli.{command}",
    }


def test_the_table_lists_every_subcommand_module():
    folder = Path(riichi_env.cli.__file__).parent
    texts = {path.stem: path.read_text(encoding="utf-8") for path in folder.glob("*.py")}
    modules = {n for n, t in texts.items() if "def add_arguments(" in t and "def run(" in t}
    assert modules == set(SUBCOMMANDS)
