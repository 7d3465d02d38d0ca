"""Numba options for every kernel of the project, kept in one place; plain public Numba only.

All hot paths are ``@njit`` with an on-disk cache, so a second process loads machine code instead
of compiling. Numba keys a cached function on its own file only, so a kernel that calls into
another module would keep running the old callee after that module changed. The project's
kernels are therefore cached under a directory named by a hash of their sources (all of
``engine``, and the modules of ``riichi_env`` and ``agents`` that use Numba): any edit there
starts a fresh cache. The directory is ``$RIICHI_ENV_CACHE/numba/<hash>``, else
``$XDG_CACHE_HOME/riichi_env/numba/<hash>`` (``~/.cache``), else the system temp dir;
``NUMBA_CACHE_DIR``, when set, takes precedence as usual. The decorator sets
``numba.config.CACHE_DIR`` (the attribute of the documented ``NUMBA_CACHE_DIR``) to that directory
only while Numba decorates the kernel (Numba picks a kernel's cache directory then), and
restores it.

A damaged cache file (a truncated ``.nbi`` index or ``.nbc`` entry) makes Numba raise its
unpickling error at every call. ``compile_kernel`` (what the compile entry points use) then
drops the unreadable files with one line on stderr (``DAMAGED_ENTRY``) and compiles again.

With ``NUMBA_DISABLE_JIT=1`` the decorator returns the plain Python function, so any rule can be
stepped through in a debugger.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import re
import sys
import tempfile
from pathlib import Path

import numba

MIN_NUMBA = (0, 59)
"""The oldest Numba the project supports (``pyproject.toml`` declares the same; CI runs the quick
test subset with exactly this version, ``.ci/run``). 0.57.1 and 0.58.1 run the kernels too, but
compiled the env's first step in 433 s and 491 s where 0.59.1 took 44 s (same session, one
process, empty cache)."""


def numba_version_problem(version: str) -> str | None:
    """Why this Numba version cannot run the kernels (``None`` when it can)."""
    try:
        got = tuple(int(p) for p in version.split(".")[:2])
    except ValueError:
        return None  # a development build: let it try
    if got >= MIN_NUMBA:
        return None
    need = ".".join(map(str, MIN_NUMBA))
    return (
        f"riichi_env needs numba {need} or newer, found {version}: older releases take about ten "
        f"times as long to compile the kernels; pip install 'numba>={need}'"
    )


if (_problem := numba_version_problem(numba.__version__)) is not None:
    raise ImportError(_problem)

NJIT_OPTIONS = {"cache": True, "nogil": True, "boundscheck": False, "no_cfunc_wrapper": True}
"""``no_cfunc_wrapper``: no kernel is passed as a first-class function, so none needs the C-ABI
wrapper Numba otherwise builds, optimises and compiles for every function (about 5 % of the
engine's cold compile)."""

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("engine", "riichi_env", "agents")


def njit(*args, **kwargs):
    """``numba.njit`` with the project's options; usable bare or with extra options."""
    options = {**NJIT_OPTIONS, **kwargs}
    if args and callable(args[0]):
        return _decorate(args[0], options)
    return lambda fn: _decorate(fn, options)


def _decorate(fn, options: dict):
    directory = kernel_cache_dir(fn.__code__.co_filename) if options.get("cache") else None
    if directory is None:
        return numba.njit(**options)(fn)
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(directory)
    try:
        return numba.njit(**options)(fn)
    finally:
        numba.config.CACHE_DIR = saved


def jit_disabled() -> bool:
    """True when ``NUMBA_DISABLE_JIT=1`` turned kernels into plain Python."""
    return bool(numba.config.DISABLE_JIT)


@functools.cache
def source_digest() -> str:
    """Hash of the sources compiled code can depend on: all of ``engine``, and every module of
    ``riichi_env`` and ``agents`` that uses Numba (names and contents)."""
    digest = hashlib.sha256()
    for package in _PACKAGES:
        for path in sorted((_ROOT / package).rglob("*.py")):
            text = path.read_bytes()
            if package == "engine" or b"njit" in text:
                digest.update(path.relative_to(_ROOT).as_posix().encode())
                digest.update(text)
    return digest.hexdigest()[:16]


def import_root() -> Path:
    """The directory this process imports the project from, symlinks kept: Numba files a kernel's
    cache entries under a hash of its source file's absolute path as imported, so a subprocess
    shares this process's entries only when it imports from this same path (``python_argv``)."""
    return Path(os.path.abspath(__file__)).parent.parent


def python_argv(module: str, *args: str) -> list[str]:
    """``python -m module args`` importing the project from ``import_root()`` first, before the
    working directory and ``PYTHONPATH`` (which may reach the same files by another path)."""
    code = (
        "import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); "
        f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)"
    )
    return [sys.executable, "-c", code, str(import_root()), *args]


def cache_roots() -> list[Path]:
    """Candidate directories for the project's caches, in order of preference."""
    override = os.environ.get("RIICHI_ENV_CACHE")
    if override:
        return [Path(override).expanduser()]
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return [Path(xdg) / "riichi_env", Path(tempfile.gettempdir()) / "riichi_env_cache"]


def _is_project_file(py_file: str) -> bool:
    try:
        relative = Path(py_file).resolve().relative_to(_ROOT)
    except ValueError:
        return False
    return relative.parts[0] in _PACKAGES


def kernel_cache_dir(py_file: str) -> Path | None:
    """The Numba cache directory of a kernel defined in ``py_file``: ``<cache root>/numba/<source
    hash>`` (the first writable root) for the project's files; ``None`` (Numba's own choice) for
    other files, when ``NUMBA_CACHE_DIR`` is set, or when no root is writable."""
    if numba.config.CACHE_DIR or not _is_project_file(py_file):
        return None
    for root in cache_roots():
        path = root / "numba" / source_digest()
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(path, os.W_OK):
            return path
    return None


def numba_cache_dirs() -> list[Path]:
    """Where this process's kernels are cached: ``NUMBA_CACHE_DIR``, else the project's
    directories under every cache root."""
    if numba.config.CACHE_DIR:
        return [Path(numba.config.CACHE_DIR)]
    return [root / "numba" / source_digest() for root in cache_roots()]


DAMAGED_ENTRY = (
    "riichi_env: dropped a damaged Numba cache file {path} ({error}); compiling {name} again"
)
"""The one line on stderr for a cache file that cannot be read back."""


def compile_kernel(kernel, signature: tuple) -> None:
    """``kernel.compile(signature)`` (from the disk cache when it holds it); a cache file that
    cannot be read back is dropped (``drop_damaged_cache_files``) and the compile tried again."""
    try:
        kernel.compile(signature)
    except Exception:
        if not drop_damaged_cache_files():
            raise
        kernel.compile(signature)


def _read_cache_file(path: Path) -> None:
    """Unpickle a Numba cache file as Numba reads it (raises what Numba would)."""
    with open(path, "rb") as f:
        if path.suffix == ".nbi":  # the Numba version, then the index
            pickle.load(f)
        pickle.loads(f.read())


_CACHE_NAME = re.compile(r"^(?P<module>[^.]+)\.(?P<qualname>.+)-\d+\.py\d+")


def _kernel_name(path: Path) -> str:
    """``module.qualname`` of the kernel a cache file belongs to (Numba names the files
    ``<file stem>.<qualname>-<line>.py<version>...``), the module's full name when it is loaded."""
    match = _CACHE_NAME.match(path.name)
    if match is None:
        return path.name
    stem, qualname = match["module"], match["qualname"]
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if file and Path(file).stem == stem and _has(module, qualname):
            return f"{name}.{qualname}"
    return f"{stem}.{qualname}"


def _has(module, qualname: str) -> bool:
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    return obj is not None


def drop_damaged_cache_files() -> list[Path]:
    """Delete the kernel cache files (``numba_cache_dirs``) that cannot be unpickled, saying so on
    stderr (``DAMAGED_ENTRY``), one line each; returns them. For the error path only: it reads
    every cache file."""
    dropped = []
    for directory in numba_cache_dirs():
        for path in sorted(directory.rglob("*.nb[ic]")):
            try:
                _read_cache_file(path)
            except OSError:
                continue  # gone meanwhile (another process), or unreadable: not ours to judge
            except Exception as exc:  # any error unpickling it: the file is damaged
                with contextlib.suppress(OSError):
                    path.unlink()
                error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                line = DAMAGED_ENTRY.format(path=path, error=error, name=_kernel_name(path))
                sys.stderr.write(line + "\n")
                sys.stderr.flush()
                dropped.append(path)
    return dropped
