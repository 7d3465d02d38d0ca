"""The dataset's worker processes: their start, their first code and their stop, in a module that
imports nothing heavy.

``riichi-env dataset --workers N`` starts its workers from here before it parses its arguments
(the parse imports Numba and the engine, 0.4 s): a worker's start (interpreter, imports, kernel
loads: about a second) then overlaps all of this process's own instead of half of it. A worker
learns its options and layout from its first message, so it can be started before they are known.
A worker started by ``forkserver`` or ``spawn`` imports its target's module before it runs it;
Ctrl-C is its parent's to handle, so the worker ignores SIGINT before it imports NumPy, Numba and
the engine (a Ctrl-C during that import would end it with a traceback).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import secrets
import signal
import sys
import threading

ENV_KEYS = ("RIICHI_ENV_CACHE", "XDG_CACHE_HOME", "HOME")
"""Environment variables a worker takes from the parent at its start (with every ``NUMBA_*``),
so it uses the parent's Numba cache even when the forkserver was started before they changed."""

JOIN_SECONDS = 5.0
"""How long a stopping worker may take to end before it is killed."""

EARLY: list[tuple] = []
"""Workers started ahead of a run (``start_early``): ``(options, mode, prefixes, this process's
ends, processes)``, options and mode ``None`` while not yet sent; taken by the next run
(``take_early``)."""


def dataset_worker(env: dict, conn, prefix: str, inherited: tuple = ()) -> None:
    """A worker's first code: ignore SIGINT, close the ``inherited`` connections (a forked
    worker's copies of the others' ends: the parent's exit must close its connection), take the
    parent's ``env``, then run ``riichi_env.dataset.io._worker_main(conn, prefix)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # blocked by ``start`` for a forked worker
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    for other in inherited:
        other.close()
    for key in list(os.environ):
        if (key in ENV_KEYS or key.startswith("NUMBA_")) and key not in env:
            del os.environ[key]
    os.environ.update(env)
    from riichi_env.dataset.io import _worker_main  # after the lines above, on purpose

    _worker_main(conn, prefix)


def context():
    """A start method that never forks a process with threads or heavy imports: ``fork`` on
    Linux while this process has neither (NumPy not imported, one thread: the child starts at
    once instead of 0.1 s later), else forkserver, else spawn."""
    methods = multiprocessing.get_all_start_methods()
    light = "numpy" not in sys.modules and threading.active_count() == 1
    if light and sys.platform.startswith("linux") and "fork" in methods:
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()  # one tracker for the blocks the workers make
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def prefixes(count: int) -> list[str]:
    """The shared-memory block names of ``count`` new workers: this process's id, a random part,
    the worker's number."""
    prefix = f"rie_{os.getpid()}_{secrets.token_hex(3)}_"
    return [f"{prefix}{i}_" for i in range(count)]


def new_workers(names: list[str]) -> tuple[list, list, list]:
    """A worker process for each block prefix in ``names``, not started, each with a connection:
    ``(this process's ends, the workers' ends, the processes)``. A started worker waits for
    ``(options, mode)`` (``None``: stop) before it makes its converter."""
    ctx = context()
    env = {k: v for k, v in os.environ.items() if k in ENV_KEYS or k.startswith("NUMBA_")}
    pipes = [ctx.Pipe(duplex=True) for _ in names]
    conns, theirs = [mine for mine, _ in pipes], [their for _, their in pipes]
    procs = []
    for i, prefix in enumerate(names):
        args = (env, theirs[i], prefix)
        if ctx.get_start_method() == "fork":  # it has every end this process has
            args += (tuple(c for c in conns + theirs if c is not theirs[i]),)
        procs.append(
            ctx.Process(
                target=dataset_worker, args=args, name=f"riichi_env-dataset-{i}", daemon=True
            )
        )
    return conns, theirs, procs


def start(procs: list, theirs: list) -> None:
    """Start the worker processes and close their ends of the connections here (only the worker
    holds its end then: its exit closes it). SIGINT is blocked meanwhile, so that a forked worker
    takes none before it ignores them (``dataset_worker``); one that came is handled after."""
    mask = hasattr(signal, "pthread_sigmask")
    if mask:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        for p, their in zip(procs, theirs, strict=True):
            p.start()
            their.close()
    finally:
        if mask:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


def start_early(count: int, mode: str | None = None, options: dict | None = None) -> None:
    """Have ``count`` workers running for the next run: their start overlaps this process's own
    imports and kernel loads instead of following them. ``options`` and ``mode`` are sent to
    them now, or by :func:`take_early` when ``None``; workers already started ahead that have
    none yet and are enough are given these (the others stopped), else new ones are started.
    ``riichi-env dataset`` calls it before converting, and :func:`stop_early` after."""
    if EARLY and EARLY[-1][0] is None and len(EARLY[-1][4]) >= count:
        _, _, names, conns, procs = EARLY.pop()
        stop(procs[count:], conns[count:])
        names, conns, procs = names[:count], conns[:count], procs[:count]
    else:
        stop_early()
        names = prefixes(count)
        conns, theirs, procs = new_workers(names)
        start(procs, theirs)
    if options is not None:
        send_options(conns, options, mode)
        options = dict(options)
    EARLY.append((options, mode, names, conns, procs))


def take_early(count: int, options: dict, mode: str) -> tuple | None:
    """``(prefixes, connections, processes)`` of ``count`` workers started ahead, sent these
    ``options`` and ``mode`` (the others stopped), or None (all stopped) when there are fewer or
    they were sent other options."""
    if not EARLY:
        return None
    opts, mode_, names, conns, procs = EARLY.pop()
    if len(procs) < count or (opts is not None and (opts != dict(options) or mode_ != mode)):
        stop(procs, conns)
        return None
    stop(procs[count:], conns[count:])
    names, conns, procs = names[:count], conns[:count], procs[:count]
    if opts is None:
        send_options(conns, options, mode)
    return names, conns, procs


def send_options(conns: list, options: dict, mode: str) -> None:
    """Send each worker its ``(options, mode)``; a worker already gone is reported by the run
    that takes it (its process ended)."""
    for c in conns:
        with contextlib.suppress(OSError):
            c.send((dict(options), mode))


def stop_early() -> None:
    """Stop the workers started ahead that no run took."""
    while EARLY:
        *_, conns, procs = EARLY.pop()
        stop(procs, conns)


def stop(procs: list, conns: list) -> None:
    """End the worker processes (terminate any still running) and close the connections."""
    for p in procs:
        if p.pid is not None and p.exitcode is None:
            p.terminate()
    for p in procs:
        if p.pid is None:
            continue
        p.join(JOIN_SECONDS)
        if p.exitcode is None:
            p.kill()
            p.join()
    for c in conns:
        c.close()


def workers_asked(argv: list[str]) -> int:
    """The ``--workers N`` (or ``--workers=N``) of a ``riichi-env dataset`` command line, read
    without its parser; 1 when it gives none, or none this reading is sure of (the parser then
    says what is wrong, and the workers start after it)."""
    workers = 1
    args = iter(argv)
    for arg in args:
        if arg == "--":
            break
        if arg in ("-h", "--help"):
            return 1
        value = None
        if arg == "--workers":
            value = next(args, None)
        elif arg.startswith("--workers="):
            value = arg.partition("=")[2]
        if value is not None:
            if not (value.isascii() and value.isdigit()):
                return 1
            workers = int(value)
    return workers
