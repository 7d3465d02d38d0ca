"""Refuses to run on top of a foreign ``engine`` or ``agents`` package.

riichi_env installs the top-level packages ``engine`` and ``agents`` beside itself. Those names are
common: an ``engine.py`` next to a user's training script, or another distribution's ``agents``
package (``openai-agents`` has one), comes first on ``sys.path`` and would be imported in their
place, failing later with a confusing error. ``check()`` finds that out at ``import riichi_env``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SIBLINGS = ("engine", "agents")
"""Top-level packages of this distribution that riichi_env imports by name."""


class ShadowedPackageError(ImportError):
    """``import engine`` or ``import agents`` finds a module that is not riichi_env's."""


def _origin(name: str) -> str | None:
    module = sys.modules.get(name)
    if module is not None:
        return getattr(module, "__file__", None) or _locations(getattr(module, "__path__", None))
    spec = importlib.util.find_spec(name)
    if spec is None:
        return None
    return spec.origin if spec.has_location else _locations(spec.submodule_search_locations)


def _locations(paths) -> str | None:
    paths = list(paths or ())
    return paths[0] if paths else None


def check() -> None:
    """Raise ``ShadowedPackageError`` naming the file when ``engine``/``agents`` is not ours."""
    root = Path(__file__).resolve().parent.parent
    for name in SIBLINGS:
        expected = root / name / "__init__.py"
        origin = _origin(name)
        if origin is not None and Path(origin).resolve() == expected:
            continue
        found = origin or "nothing (not installed)"
        raise ShadowedPackageError(
            f"riichi_env needs its own top-level package '{name}' ({expected}), but "
            f"'import {name}' finds {found}. A module named '{name}' earlier on sys.path shadows "
            f"it: rename that file or folder, or run from a directory without it "
            f"(see README, 'Import names')."
        )
