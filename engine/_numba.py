"""Numba options for every kernel of the project, kept in one place.

All hot paths are ``@njit`` with an on-disk cache, so a second process loads machine code instead
of compiling. Numba keys a cached function on its own file only, so a kernel that calls into
another module would keep running the old callee after that module changed. The project's
kernels are therefore cached under a directory named by a hash of their sources (all of
``engine``, and the modules of ``riichi_env`` and ``agents`` that use Numba): any edit there
starts a fresh cache. The directory is
``$RIICHI_ENV_CACHE/numba/<hash>``, else ``$XDG_CACHE_HOME/riichi_env/numba/<hash>`` (``~/.cache``),
else the system temp dir; ``NUMBA_CACHE_DIR``, when set, takes precedence as usual. A damaged
cache file (a truncated ``.nbi`` index or ``.nbc`` entry) is dropped and the kernel compiled again,
with one line on stderr (``RepairingCache``).

With ``NUMBA_DISABLE_JIT=1`` the decorator returns the plain Python function, so any rule can be
stepped through in a debugger.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import tempfile
from pathlib import Path

import numba

MIN_NUMBA = (0, 63)
"""The oldest Numba the kernels run on: the separately linked kernels (``engine/_linking.py``)
resolve a callee's symbol in the JIT, which Numba 0.62 and older cannot (the first compile aborts
the process with ``LLVM ERROR: Symbol not found``, seen with 0.62.1; 0.63.1 runs)."""


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
        f"riichi_env needs numba {need} or newer, found {version}: older releases abort the "
        f"first compile (LLVM ERROR: Symbol not found); pip install 'numba>={need}'"
    )


if (_problem := numba_version_problem(numba.__version__)) is not None:
    raise ImportError(_problem)

from numba.core import caching, errors, types  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402

from engine._linking import KernelCache, keep_reload_steps, link_by_symbol  # noqa: E402

NJIT_OPTIONS = {"cache": True, "nogil": True, "boundscheck": False, "no_cfunc_wrapper": True}
"""``no_cfunc_wrapper``: no kernel is passed as a first-class function, so none needs the C-ABI
wrapper Numba otherwise builds, optimises and compiles for every function (about 5 % of the
engine's cold compile)."""

_ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("engine", "riichi_env", "agents")


def _widen(ty):
    """The argument type a kernel is compiled for: constants as their type, every integer as int64."""
    ty = types.unliteral(ty)
    if isinstance(ty, types.Integer):
        return types.int64
    return ty


class UnliteralDispatcher(CPUDispatcher):
    """A dispatcher that compiles a call from another kernel once per argument *kind*.

    Numba otherwise compiles a separate copy of the callee for every constant value passed at a
    call site (``Literal[int](0)``, ``Literal[int](31)``, ...) and for every integer width (a seat
    read from the state is int32, a loop index int64); each copy also relinks everything the
    callee calls, which multiplied the engine's cold compile time. Integer arguments are passed
    as int64. Falls back to the exact types for a callee that needs them.

    A ``separate`` kernel's overloads are called by symbol from the kernels compiled after it
    (``engine/_linking.py``).
    """

    separate = False

    def get_call_template(self, args, kws):
        try:
            return super().get_call_template(
                tuple(_widen(a) for a in args),
                {k: _widen(v) for k, v in kws.items()},
            )
        except errors.TypingError:
            return super().get_call_template(args, kws)

    def add_overload(self, cres):
        super().add_overload(cres)
        keep_reload_steps(cres)
        if self.separate and not cres.objectmode:
            link_by_symbol(self, cres)


def njit(*args, separate: bool = False, **kwargs):
    """``numba.njit`` with the project's options; usable bare or with extra options.

    ``separate=True``: callers call this kernel's one compiled copy by its symbol instead of
    linking its code into their own (``engine/_linking.py``); for large kernels that run rarely.
    """
    options = {**NJIT_OPTIONS, **kwargs}
    if args and callable(args[0]):
        return _unliteral(numba.njit(**options)(args[0]), separate)
    decorator = numba.njit(*args, **options)
    return lambda fn: _unliteral(decorator(fn), separate)


def _unliteral(dispatcher, separate: bool = False):
    if type(dispatcher) is CPUDispatcher:
        dispatcher.__class__ = UnliteralDispatcher
        dispatcher.separate = separate
        if type(dispatcher._cache) is caching.FunctionCache:
            dispatcher._cache.__class__ = RepairingCache
    return dispatcher


DAMAGED_ENTRY = (
    "riichi_env: dropped a damaged Numba cache file {path} ({error}); compiling {name} again"
)
"""The one line on stderr for a cache file that cannot be read back."""


class RepairingCache(KernelCache):
    """The kernels' disk cache: a cache file that cannot be unpickled (truncated by a full disk or
    an interrupted copy, or garbage) is deleted, the kernel compiled again and saved afresh, and
    one line (``DAMAGED_ENTRY``) says so on stderr. Numba itself raises the unpickling error at
    every call, until the user deletes the cache."""

    def _load_overload(self, sig, target_context):
        if not self._enabled:
            return None
        files = self._cache_file
        try:
            overloads = files._load_index()
        except OSError:
            raise
        except Exception as exc:  # any error unpickling it: the file is damaged
            self._drop(files._index_path, exc)
            return None
        name = overloads.get(self._index_key(sig, target_context.codegen()))
        if name is None:
            return None
        try:
            data = files._load_data(name)
        except OSError:  # removed while the index still names it: compile (as Numba does)
            return None
        except Exception as exc:
            self._drop(files._data_path(name), exc)
            return None
        return self._impl.rebuild(target_context, data)

    def _drop(self, path: str, exc: Exception) -> None:
        with contextlib.suppress(OSError):
            os.unlink(path)
        fn = self._py_func
        error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        sys.stderr.write(
            DAMAGED_ENTRY.format(path=path, error=error, name=f"{fn.__module__}.{fn.__qualname__}")
            + "\n"
        )
        sys.stderr.flush()


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


class SourceHashCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Puts the project's kernels in a cache directory keyed by ``source_digest()``."""

    def __init__(self, py_func, py_file: str, cache_path: str):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = cache_path

    def get_cache_path(self) -> str:
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if numba.config.CACHE_DIR or not _is_project_file(py_file):
            return None
        relative = Path(py_file).resolve().parent.relative_to(_ROOT)
        for root in cache_roots():
            path = root / "numba" / source_digest() / relative
            self = cls(py_func, py_file, str(path))
            try:
                self.ensure_cache_path()
            except OSError:
                continue
            return self
        return None


def _install_locator() -> None:
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    if SourceHashCacheLocator not in impl._locator_classes:
        impl._locator_classes.insert(0, SourceHashCacheLocator)


_install_locator()
