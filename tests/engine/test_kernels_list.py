"""``engine/kernels.py`` is the one list of the engine's internals other packages may call: outside
``engine`` (tests aside) no underscore name is imported from any other engine module, and the
engine's rule modules import nothing from ``engine/harness``."""

import ast
from pathlib import Path

import pytest

import engine.kernels

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.nojit


def _imports(folder: str):
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                yield path.relative_to(ROOT).as_posix(), node


def test_other_packages_take_underscore_names_from_the_kernel_list_only():
    found = [
        f"{where}: from {node.module} import {alias.name}"
        for folder in ("riichi_env", "agents", "benchmarks", "examples")
        for where, node in _imports(folder)
        if node.module.split(".")[0] == "engine" and node.module != "engine.kernels"
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert found == []


def test_every_listed_name_is_there():
    assert sorted(engine.kernels.__all__) == sorted(set(engine.kernels.__all__))
    for name in engine.kernels.__all__:
        assert hasattr(engine.kernels, name), name


def test_the_rules_import_nothing_from_the_harness():
    tools = {"engine/__init__.py", "engine/kernels.py"}
    found = [
        f"{where}: from {node.module}"
        for where, node in _imports("engine")
        if not where.startswith("engine/harness/")
        and where not in tools
        and node.module.startswith("engine.harness")
    ]
    assert found == []
