"""The env's compiled entry points (``_k_reset``, ``_k_refresh``, ``_k_step``, ``_k_observe``, ...).

``riichi_env/_drivers.py`` holds their source; this module writes that source and the generated
``state_view`` (``riichi_env._state_buffer``) into one module in a cache directory and compiles it
with the project's Numba options. The module's text ends with a hash of every source file its
machine code depends on (``engine/*.py``, the encoders, the drivers), so any change to the engine
rewrites the file and Numba's cache, keyed on that file, is rebuilt instead of running stale code.
The directory is ``$RIICHI_ENV_CACHE``, else ``$XDG_CACHE_HOME/riichi_env`` (``~/.cache``), else
the system temp dir. Under ``NUMBA_DISABLE_JIT=1`` the plain functions of ``_drivers`` are used.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

import riichi_env._drivers as drivers
from engine._numba import jit_disabled
from engine.tables import Tables
from riichi_env._state_buffer import state_view_source, views

GAME_OVER = drivers.GAME_OVER
HAND_ENDED = drivers.HAND_ENDED
MODULE_NAME = "_riichi_env_kernels"

_PACKAGE = Path(__file__).resolve().parent
_ENGINE = _PACKAGE.parent / "engine"


def _dependencies() -> list[Path]:
    return sorted(_ENGINE.glob("*.py")) + [
        _PACKAGE / "encoders.py",
        _PACKAGE / "_drivers.py",
        _PACKAGE / "_state_buffer.py",
    ]


def module_source() -> str:
    """The generated module's text: the drivers, ``state_view``, the jit wrapping, a hash."""
    drivers_src = (_PACKAGE / "_drivers.py").read_text()
    drivers_src = drivers_src.replace("from __future__ import annotations\n", "")
    digest = hashlib.sha256()
    for path in _dependencies():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    parts = [
        drivers_src,
        "import numba",
        "import numpy as np",
        "from engine._numba import njit",
        "from engine.state import State",
        "from riichi_env._state_buffer import address_as_voidptr",
        "",
        "",
        state_view_source(),
        "state_view = njit(state_view)",
    ]
    parts += [f"{name} = njit({name})" for name in drivers.KERNELS]
    parts.append(f"# dependencies sha256 {digest.hexdigest()}")
    return "\n".join(parts) + "\n"


def _cache_dirs() -> list[Path]:
    override = os.environ.get("RIICHI_ENV_CACHE")
    if override:
        return [Path(override).expanduser()]
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return [Path(xdg) / "riichi_env", Path(tempfile.gettempdir()) / "riichi_env_cache"]


def _load():
    if MODULE_NAME in sys.modules:
        return sys.modules[MODULE_NAME]
    source = module_source()
    for directory in _cache_dirs():
        path = directory / f"{MODULE_NAME}.py"
        try:
            directory.mkdir(parents=True, exist_ok=True)
            if not path.exists() or path.read_text() != source:
                fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
                with os.fdopen(fd, "w") as fh:
                    fh.write(source)
                os.replace(tmp, path)
        except OSError:
            continue
        spec = importlib.util.spec_from_file_location(MODULE_NAME, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[MODULE_NAME] = module
        spec.loader.exec_module(module)
        return module
    raise OSError(f"no writable cache directory for the env kernels among {_cache_dirs()}")


if jit_disabled():
    drivers.state_view = views
    _module = drivers
else:
    _module = _load()

_k_reset = _module._k_reset
_k_refresh = _module._k_refresh
_k_step = _module._k_step
_k_observe = _module._k_observe
_k_visible = _module._k_visible


def tables_tuple(tables: Tables) -> tuple[np.ndarray, ...]:
    """The tables as a plain tuple (cheap to pass to a kernel; rebuilt as ``Tables`` inside)."""
    return tuple(tables)
