"""The first code a dataset worker process runs, in a module that imports nothing heavy.

A worker started by ``forkserver`` or ``spawn`` imports its target's module before it runs it.
Ctrl-C is its parent's to handle, so the worker must ignore SIGINT before it imports NumPy,
Numba and the engine (half a second): a Ctrl-C during that import would end it with a traceback.
"""

from __future__ import annotations

import signal


def dataset_worker(*args: object) -> None:
    """Ignore SIGINT, then run ``riichi_env.dataset.io._worker_main(*args)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from riichi_env.dataset.io import _worker_main  # after the line above, on purpose

    _worker_main(*args)
