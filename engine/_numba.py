"""Numba options for every kernel of the project, kept in one place; plain public Numba only.

Numba keys a cached function on its own file only, so a kernel calling into another module would
keep running the old callee after that module changed: the project's kernels are cached in a
folder named by a hash of their sources (``engine``, and the modules of ``riichi_env`` and
``agents`` that use Numba), ``$RIICHI_ENV_CACHE/numba/<hash>``, else ``$XDG_CACHE_HOME`` (or
``~/.cache``) ``/riichi_env/numba/<hash>``, else the temp dir; ``NUMBA_CACHE_DIR`` takes precedence.
The decorator sets ``numba.config.CACHE_DIR`` to it while Numba decorates the kernel. A cache file
Numba cannot read back empties that folder (``compile_kernel``). ``njit(example=...)`` gives a
kernel its warm-up arguments: a function of ``engine.state.examples()``. With
``NUMBA_DISABLE_JIT=1`` the decorator returns the plain Python function (a debugger steps it)."""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import tempfile
import traceback
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


def njit(*args, example=None, **kwargs):
    """``numba.njit`` with the project's options; usable bare or with extra options. ``example``:
    the kernel's warm-up arguments (module docstring), kept as ``kernel.example``."""
    options = {**NJIT_OPTIONS, **kwargs}

    def decorate(fn):
        kernel = _decorate(fn, options)
        if example is not None:
            kernel.example = example
        return kernel

    return decorate(args[0]) if args and callable(args[0]) else decorate


def signatures(arg_lists) -> list[tuple]:
    """The Numba argument types of each argument list (what a call with it compiles for); an
    object in several lists is typed once (the game's record array takes about a millisecond)."""
    arg_lists = list(arg_lists)  # held until the end: no object's id is reused meanwhile
    types: dict[int, object] = {}
    for args in arg_lists:
        for a in args:
            if id(a) not in types:
                types[id(a)] = numba.typeof(a)
    return [tuple(types[id(a)] for a in args) for args in arg_lists]


def _decorate(fn, options: dict):
    directory = kernel_cache_dir(fn.__code__.co_filename) if options.get("cache") else None
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = saved if directory is None else str(directory)
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


def cache_dir() -> Path | None:
    """The folder the project's kernels are cached in: ``NUMBA_CACHE_DIR`` when set, else
    ``<cache root>/numba/<source hash>`` of the first writable root (``None``: none is)."""
    if numba.config.CACHE_DIR:
        return Path(numba.config.CACHE_DIR)
    for root in cache_roots():
        path = root / "numba" / source_digest()
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(path, os.W_OK):
            return path
    return None


def kernel_cache_dir(py_file: str) -> Path | None:
    """The Numba cache directory of a kernel defined in ``py_file``: ``cache_dir()`` for the
    project's files; ``None`` (Numba's own choice) for other files or with ``NUMBA_CACHE_DIR``."""
    return None if numba.config.CACHE_DIR or not _is_project_file(py_file) else cache_dir()


@functools.cache
def _is_project_file(py_file: str) -> bool:
    """Whether ``py_file`` lies in one of the project's packages (resolved once per file: a
    module's kernels are decorated one after another)."""
    parts = Path(py_file).resolve().parts
    return parts[: len(_ROOT.parts)] == _ROOT.parts and parts[len(_ROOT.parts)] in _PACKAGES


def compile_kernel(kernel, signature: tuple) -> None:
    """``kernel.compile(signature)`` (from the disk cache when it holds it). An error raised
    while Numba reads its cache empties the cache folder (``cache_dir``; its compile lock
    stays) and the compile is tried again."""
    try:
        kernel.compile(signature)
    except Exception as exc:
        folder = cache_dir()
        frames = (f.f_code.co_filename for f, _ in traceback.walk_tb(exc.__traceback__))
        if folder is None or not any(Path(f).match("numba/core/caching.py") for f in frames):
            raise
        for path in folder.rglob("*"):
            if path.is_file() and path.name != "lock":
                path.unlink(missing_ok=True)
        error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        sys.stderr.write(  # one write, one line: line-buffered, so no flush is needed
            f"riichi_env: dropped a damaged Numba cache, {folder} ({error}); compiling "
            f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__} again\n"
        )
        kernel.compile(signature)
