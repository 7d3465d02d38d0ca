"""Separately linked kernels: callers call one compiled copy by its symbol.

Numba links the finished LLVM module of every callee into each caller's module, then optimises
and generates machine code for all of it again; a large kernel called from many places (the
scorer, the end of a hand) is compiled once per caller. A kernel declared ``@njit(separate=True)``
is compiled once: its callers emit a call to its symbol and link nothing, and the JIT resolves the
symbol against the kernel's own machine code, loaded in the same process. The price is a plain
call that LLVM cannot inline, so only large kernels that run rarely are separate
(``docs/internals.md``, "Separately linked kernels").

For the disk cache, a caller records how to load each separate callee (``KernelLoader``, in
Numba's ``reload_init`` of the caller's cache entry). Numba runs it before loading the caller's
machine code, so the symbol is defined first. A callee's symbol carries Numba's per-process
function id; if the callee's cache entry was written again since (another process compiled it),
the recorded symbol no longer exists, the loader raises ``StaleKernelError`` and ``KernelCache``
compiles the caller again instead of loading code that would call a missing symbol.
"""

from __future__ import annotations

import importlib
import sys

from numba.core import caching


class StaleKernelError(Exception):
    """A cached kernel calls a separate kernel whose cached machine code was replaced since."""


class KernelLoader:
    """Loads (from the cache, else compiles) one overload of a separate kernel; picklable, so a
    caller's cache entry can hold it."""

    def __init__(self, module: str, qualname: str, args: tuple, symbol: str):
        self.module = module
        self.qualname = qualname
        self.args = args
        self.symbol = symbol

    def __eq__(self, other):
        return isinstance(other, KernelLoader) and self.symbol == other.symbol

    def __hash__(self):
        return hash(self.symbol)

    def __call__(self) -> None:
        dispatcher = importlib.import_module(self.module)
        for name in self.qualname.split("."):
            dispatcher = getattr(dispatcher, name)
        dispatcher.compile(self.args)
        if dispatcher.overloads[self.args].fndesc.mangled_name != self.symbol:
            raise StaleKernelError(f"{self.module}.{self.qualname}{self.args}: {self.symbol}")


class SymbolLibrary:
    """What callers of a separate kernel link instead of its code library: an empty module, and
    the kernel's loader as a reload step (Numba passes a linked library's ``_reload_init`` on to
    the caller's)."""

    _empty_modules: dict = {}

    def __init__(self, codegen, loader: KernelLoader):
        self._codegen = codegen
        self._reload_init = {loader}

    def __repr__(self) -> str:
        (loader,) = self._reload_init
        return f"<SymbolLibrary {loader.module}.{loader.qualname}>"

    def _ensure_finalized(self) -> None:
        """Nothing to finalize: the kernel's own library is."""

    def _get_module_for_linking(self):
        key = id(self._codegen)
        if key not in self._empty_modules:
            # a new library's module: empty, with the target's triple and data layout
            self._empty_modules[key] = self._codegen.create_library("separate")._final_module
        return self._empty_modules[key]


def link_by_symbol(dispatcher, cres) -> None:
    """Make callers compiled from now on call ``cres`` (an overload of ``dispatcher``) by symbol."""
    fn = dispatcher.py_func
    args = tuple(cres.signature.args)
    loader = KernelLoader(fn.__module__, fn.__qualname__, args, cres.fndesc.mangled_name)
    context = dispatcher.targetctx
    context.remove_user_function(cres.entry_point)
    context.insert_user_function(
        cres.entry_point, cres.fndesc, [SymbolLibrary(context.codegen(), loader)]
    )


def keep_reload_steps(cres) -> None:
    """Give a library loaded from the cache its reload steps back (Numba keeps them only on the
    compile result), so that kernels linking it record them in turn."""
    if cres.reload_init:
        cres.library._reload_init.update(cres.reload_init)


STALE_NOTICE = (
    "riichi_env: compiling cached kernels again: a kernel they call was compiled again since "
    "(by another process compiling into the same cache, or after a damaged cache file)"
)
"""Said once per process, on stderr, when ``KernelCache`` meets the first stale entry."""

_stale_said = False


class KernelCache(caching.FunctionCache):
    """Numba's function cache; an entry calling a replaced separate kernel is compiled again, and
    the first such entry of a process says so on stderr (``STALE_NOTICE``)."""

    def load_overload(self, sig, target_context):
        global _stale_said
        try:
            return super().load_overload(sig, target_context)
        except StaleKernelError:
            if not _stale_said:
                _stale_said = True
                sys.stderr.write(STALE_NOTICE + "\n")
                sys.stderr.flush()
            return None
