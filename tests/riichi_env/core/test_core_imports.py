"""The rooms' import rules, read from the sources (``ast``, every import, inside functions too):
the compiled core (``riichi_env.core``) imports nothing of ``riichi_env`` above it, and no two
sub-packages of ``riichi_env`` import each other, directly or around a loop (docs/internals.md,
"Rooms")."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import riichi_env

PACKAGE = Path(riichi_env.__file__).resolve().parent
"""The ``riichi_env`` folder (found from the package, wherever this test file sits)."""

CORE_ALLOWED = ("engine", "agents", "numpy", "numba", "riichi_env.core")
"""What the core's modules may import besides the standard library."""

TOP = ("cli",)
"""The top layer: it may import every room and nothing imports it (not part of the loop check)."""


def _modules(folder: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` under ``folder``."""
    out = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(module: str, path: Path) -> list[tuple[str, int]]:
    """Every module ``module`` imports (absolute names, relative ones resolved), with its line."""
    found = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module
            found.append((name, node.lineno))
            # `from riichi_env.x import y` may import the submodule riichi_env.x.y
            found += [(f"{name}.{alias.name}", node.lineno) for alias in node.names]
    return found


def _within(name: str, allowed: tuple[str, ...]) -> bool:
    return any(name == a or name.startswith(a + ".") for a in allowed)


def _room(module: str) -> str | None:
    """The sub-package of ``riichi_env`` a module belongs to; None for a top-level module."""
    parts = module.split(".")
    if len(parts) >= 2 and (PACKAGE / parts[1]).is_dir():
        return parts[1]
    return None


def test_the_core_imports_only_the_engine_the_agents_numpy_numba_and_itself():
    stdlib = sys.stdlib_module_names
    bad = []
    for module, path in _modules(PACKAGE / "core").items():
        for name, line in _imports(module, path):
            if name.partition(".")[0] in stdlib or _within(name, CORE_ALLOWED):
                continue
            bad.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}")
    assert bad == []


def _room_graph() -> dict[str, set[str]]:
    """Room -> the rooms it imports (any import, at any depth of a module)."""
    graph: dict[str, set[str]] = {}
    for module, path in _modules(PACKAGE).items():
        room = _room(module)
        if room is None or room in TOP:
            continue
        graph.setdefault(room, set())
        for name, _ in _imports(module, path):
            if name.partition(".")[0] != "riichi_env":
                continue
            other = _room(name)
            if other is not None and other != room:
                graph[room].add(other)
    return graph


def test_no_room_is_imported_by_a_room_it_imports():
    graph = _room_graph()
    assert "core" in graph and len(graph) >= 7, sorted(graph)
    assert not any(room in TOP for targets in graph.values() for room in targets), graph
    loops = []
    for start in graph:  # a depth-first walk from each room, back to it
        stack = [(start, [start])]
        while stack:
            room, path = stack.pop()
            for nxt in graph.get(room, ()):
                if nxt == start:
                    loops.append(" -> ".join([*path, nxt]))
                elif nxt not in path:
                    stack.append((nxt, [*path, nxt]))
    assert loops == []


def test_the_core_is_imported_by_the_rooms_that_build_on_it():
    """``aec``, ``batch``, ``dataset`` and ``records`` (``mjai`` through ``records``) import the
    core, which imports none of them."""
    graph = _room_graph()
    for room in ("aec", "batch", "dataset", "records"):
        assert "core" in graph[room], (room, graph[room])
    assert graph["core"] == set()
