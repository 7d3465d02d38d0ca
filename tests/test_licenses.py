"""The AGPL-licensed `mjai` package is test-only (LICENSES.md): nothing shipped imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("engine", "agents", "riichi_env", "benchmarks", "examples")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", SHIPPED)
def test_no_shipped_module_imports_mjai(package: str) -> None:
    offenders = [
        str(p.relative_to(ROOT)) for p in (ROOT / package).rglob("*.py") if "mjai" in _imports(p)
    ]
    assert offenders == [], f"these import the test-only AGPL package mjai: {offenders}"


def test_mjai_is_not_a_runtime_dependency() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    deps = text.split("dependencies = [", 1)[1].split("]", 1)[0]
    assert "mjai" not in deps
