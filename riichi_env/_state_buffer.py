"""The engine state in one contiguous byte buffer, so kernels are called with one array argument.

Calling a Numba kernel with ``engine.state.State`` (a NamedTuple of ~60 arrays) costs several
microseconds of argument checking and unboxing per call; a single ``uint8`` buffer costs a fraction
of one. ``alloc`` lays every field of ``engine.state.FIELDS`` out in one buffer (8-byte aligned)
and returns the buffer with a ``State`` of NumPy views on it; inside kernels, ``state_view(buf, n,
e)`` rebuilds the same ``State`` as pointer-based arrays (``numba.carray``, no reference counting)
for well under a microsecond. Its source is generated from ``FIELDS`` (so it follows any change to
the state) and compiled by ``riichi_env._kernels``. The arrays it returns live only as long as
``buf``; kernels must not keep them. Without JIT, ``views`` plays its part.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from engine.state import FIELDS, State

_ALIGN = 8


def _shape(shape: tuple, n: int, e: int) -> tuple[int, ...]:
    return (n,) + tuple(e if d == "E" else int(d) for d in shape)


def layout(n: int, e: int) -> tuple[list[tuple[int, tuple[int, ...], np.dtype]], int]:
    """(offset, full shape, dtype) of every field, and the buffer size in bytes."""
    out = []
    offset = 0
    for _name, shape, dtype, _doc in FIELDS:
        full = _shape(shape, n, e)
        dt = np.dtype(dtype)
        out.append((offset, full, dt))
        size = int(np.prod(full)) * dt.itemsize
        offset += -(-size // _ALIGN) * _ALIGN
    return out, offset


def views(buf: np.ndarray, n: int, e: int) -> State:
    """A ``State`` of NumPy views on ``buf`` (the layout of ``layout(n, e)``)."""
    fields, size = layout(n, e)
    if buf.dtype != np.uint8 or buf.ndim != 1 or buf.size != size:
        raise ValueError(f"state buffer must be uint8[{size}] for n={n}, e={e}")
    arrays = []
    for offset, shape, dt in fields:
        nbytes = int(np.prod(shape)) * dt.itemsize
        arrays.append(buf[offset : offset + nbytes].view(dt).reshape(shape))
    return State(*arrays)


def alloc(n: int, e: int) -> tuple[np.ndarray, State]:
    """A zeroed buffer for ``n`` tables with ``e`` event rows, and its ``State`` of views."""
    _, size = layout(n, e)
    buf = np.zeros(size, dtype=np.uint8)
    return buf, views(buf, n, e)


@intrinsic
def address_as_voidptr(typingctx, address):
    """Kernel helper: an integer address as ``void*`` (for ``numba.carray``)."""
    sig = types.voidptr(types.intp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


def state_view_source() -> str:
    """Python source of ``state_view(buf, n, e)`` for the current ``FIELDS`` (undecorated).

    It needs ``numba``, ``np``, ``State`` and ``address_as_voidptr`` in its module's globals.
    """
    lines = [
        "def state_view(buf, n, e):",
        "    base = buf.ctypes.data",
        "    o = 0",
    ]
    names = []
    for i, (_name, shape, dtype, _doc) in enumerate(FIELDS):
        dims = ["n"] + ["e" if d == "E" else str(int(d)) for d in shape]
        count = " * ".join(dims)
        item = np.dtype(dtype).itemsize
        dt = f"np.{np.dtype(dtype).name}"
        lines.append(
            f"    a{i} = numba.carray(address_as_voidptr(base + o), ({', '.join(dims)},), {dt})"
        )
        lines.append(f"    o += ({count} * {item} + {_ALIGN - 1}) // {_ALIGN} * {_ALIGN}")
        names.append(f"a{i}")
    lines.append(f"    return State({', '.join(names)})")
    return "\n".join(lines) + "\n"
