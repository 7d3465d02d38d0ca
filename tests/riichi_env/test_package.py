"""The package's public names: each one where the docs say, imported on first use."""

import subprocess
import sys
from pathlib import Path

import riichi_env

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return out.stdout.strip()


def test_every_public_name_resolves_to_its_module():
    from riichi_env import env as env_module_function
    from riichi_env.aec.raw_env import env, raw_env
    from riichi_env.batch.play import selfplay
    from riichi_env.batch.vector import vector_env

    assert env_module_function is env and riichi_env.env is env
    assert riichi_env.raw_env is raw_env
    assert riichi_env.selfplay is selfplay and riichi_env.vector_env is vector_env
    assert set(riichi_env.__all__) <= set(dir(riichi_env))
    for name in riichi_env.__all__:
        assert getattr(riichi_env, name) is not None


def test_an_unknown_name_is_an_attribute_error():
    try:
        riichi_env.no_such_name  # noqa: B018
    except AttributeError as error:
        assert "no attribute 'no_such_name'" in str(error)
    else:
        raise AssertionError("expected AttributeError")


def test_importing_the_package_imports_no_gymnasium():
    """A command line run that needs no env (selfplay, score, arena) skips Gymnasium's import."""
    code = "import sys, riichi_env, riichi_env.batch.play; print('gymnasium' in sys.modules)"
    assert _run(code) == "False"


def test_env_stays_the_function_after_its_submodule_is_imported():
    """``import riichi_env.batch.vector`` imports the env module ``riichi_env.aec.raw_env``;
    ``riichi_env.env`` stays the ``env()`` function (no submodule of that name exists)."""
    code = (
        "import riichi_env, riichi_env.batch.vector; import types; "
        "print(callable(riichi_env.env), isinstance(riichi_env.env, types.ModuleType))"
    )
    assert _run(code) == "True False"
