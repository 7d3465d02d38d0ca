"""The first-run compile of a kernel group (``KINDS``), announced on stderr, with progress.

A group lists kernels callees first, each with its warm-up example (``engine._numba``). A compiled
group leaves a marker in the kernels' cache folder (a warm run says nothing); one process at a
time compiles into a cache (``_compile_lock``); with two cores a helper process compiles the
kernels of ``_second()`` meanwhile (``_warm``). Packages above the core add groups (``add_group``).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numba

from engine._numba import (
    cache_dir,
    compile_kernel,
    jit_disabled,
    python_argv,
    signatures,
    source_digest,
)
from engine.kernels import AGENTS, GAME, SCORING, _choose_random, _play_games, _score_hand
from engine.state import examples


def _second() -> set:
    """What a helper compiles on two cores: the scoring side of the game, the policies and the
    env's encoder, none of which calls the deal."""
    from riichi_env.core.encoders import DEFAULT_ENCODER, KERNELS

    return {*SCORING, *AGENTS, KERNELS[DEFAULT_ENCODER]}


def _core(kind: str) -> list:
    """The kernels of the core's groups that play through the runner or encode: imported when a
    group needs them (the record readers and the dataset import this module and need neither)."""
    from riichi_env.core.encoders import ALL_ENCODERS, DEFAULT_ENCODER, KERNELS, _encode
    from riichi_env.core.runner import _queue_actions, _run, _run_random

    agents = [*GAME, _encode, *AGENTS, _run]
    return {
        "env": [*GAME, _choose_random, KERNELS[DEFAULT_ENCODER], _run_random],
        "selfplay": [*GAME, _choose_random, _run_random],
        "agents": agents,
        "vector": [*agents, _run_random, _queue_actions],
        "encoders": [f for n, f in KERNELS.items() if n != DEFAULT_ENCODER and n in ALL_ENCODERS],
    }[kind]


KINDS: dict[str, tuple[str, str, Callable[[], list]]] = {
    "env": (
        "the environment's kernels (reset, masks, step, the basic_v0 encoder)",
        "20 to 60 s on 2 cores",
        lambda: _core("env"),
    ),
    "encoders": (
        "the observation encoders other than basic_v0 (the three-seat ones too)",
        "5 to 15 s",
        lambda: _core("encoders"),
    ),
    "selfplay": ("the compiled self-play loop", "20 to 60 s on 2 cores", lambda: _core("selfplay")),
    "score": ("the hand-scoring kernels", "5 to 15 s", lambda: [_score_hand]),
    "replay": ("the game kernels records replay through", "25 to 60 s", lambda: [*GAME]),
    "vector": ("the vector env's kernels", "40 to 90 s", lambda: _core("vector")),
    "agents": (
        "the compiled agents' self-play loop",
        "20 to 60 s on 2 cores",
        lambda: _core("agents"),
    ),
    "checked": (
        "the checked self-play loop (--check)",
        "40 to 100 s",
        lambda: [*GAME, *AGENTS, _play_games],
    ),
}
"""Kernel groups: what the notice calls each, how long its compile takes from an empty cache, its
kernels in the order a warm-up compiles them, callees first."""
_CORE_GROUPS = frozenset(KINDS)

PROGRESS_EVERY = 10.0
"""Seconds between progress lines when stderr is not a terminal (a terminal gets a live line)."""

_ROOT = Path(__file__).resolve().parents[2]
_done: set[str] = set()


def add_group(kind: str, what: str, how_long: str, kernels: Callable[[], list]) -> None:
    """Add the kernel group of a package above the core, when its kernel module is imported
    (``riichi_env.compile`` imports those modules, so that it knows every group)."""
    if kind in _CORE_GROUPS:
        raise ValueError(f"group {kind!r} would replace the core's group")
    KINDS[kind] = (what, how_long, kernels)


def name(kernel) -> str:
    """A kernel's qualified name: what the helper prints once it is cached."""
    return f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__}"


def entries(kind: str) -> list[tuple]:
    """``kind``'s kernels, each with the signature of its example: ``(kernel, types)``."""
    kernels = KINDS[kind][2]()
    return list(zip(kernels, signatures([f.example(examples()) for f in kernels]), strict=True))


def helper_entries(kind: str) -> list[tuple]:
    """What a helper compiles for ``kind``: its kernels of ``_second()``, in order."""
    return [e for e in entries(kind) if e[0] in _second()]


@contextlib.contextmanager
def _progress(stream, label: str, doing: str = "still compiling") -> Iterator[None]:
    """Elapsed seconds on ``stream`` while the block runs: a live line on a terminal."""
    stop = threading.Event()
    tty = hasattr(stream, "isatty") and stream.isatty()
    start = time.perf_counter()

    def tick() -> None:
        while not stop.wait(1.0 if tty else PROGRESS_EVERY):
            s = time.perf_counter() - start
            stream.write(f"\r  {label}: {s:.0f} s" if tty else f"  {label}: {doing}, {s:.0f} s\n")
            stream.flush()

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        if tty:
            stream.write("\r")


@functools.cache
def _sources_digest() -> str:
    """What the markers are keyed by: Numba's version, the sources the kernels' cache folder is
    keyed by (``engine._numba.source_digest``) and this module (the groups)."""
    digest = hashlib.sha256(numba.__version__.encode())
    digest.update(source_digest().encode())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:16]


def _marker(kind: str) -> Path | None:
    """The file that says ``kind`` is compiled for these sources, in the kernels' cache folder
    (emptied with it when a cache file is damaged)."""
    folder = cache_dir()
    if folder is not None:
        with contextlib.suppress(OSError):
            (folder / "compiled").mkdir(exist_ok=True)
            return folder / "compiled" / f"{kind}-{_sources_digest()}"
    return None


def _mark(kind: str, seconds: float) -> None:
    """Record that ``kind`` is compiled for the current sources."""
    marker = _marker(kind)
    if marker is not None:
        with contextlib.suppress(OSError):
            marker.write_text(f"{seconds:.1f}\n")


def is_compiled(kind: str) -> bool:
    """True when ``kind``'s kernels were compiled and cached for the current sources."""
    if kind not in KINDS:
        raise ValueError(f"unknown kernel group {kind!r}; choose from {sorted(KINDS)}")
    marker = _marker(kind)
    return jit_disabled() or (marker is not None and marker.exists())


def _cached() -> set[tuple]:
    """The entries of the groups compiled for these sources."""
    return {e for kind in KINDS if is_compiled(kind) for e in entries(kind)}


def ensure_compiled(kind: str, stream=None) -> float:
    """Compile ``kind``'s kernels now if the cache lacks them, announcing it on stderr
    (``compile``); at once after the first call in a process."""
    return compile(kind, stream=stream)


def compile(*groups: str, stream=None) -> float:  # noqa: A001 (riichi_env.compile)
    """Compile kernel groups now (``KINDS``; default: all), for their examples' types (nothing
    runs), announced on ``stream`` (stderr) with progress; returns the seconds spent compiling
    (0.0 when cached). Another process compiling into the cache is waited for, then loaded."""
    for group in groups:
        if not isinstance(group, str):
            raise TypeError(f"groups must be group names (str), got {type(group).__name__}")
        if group not in KINDS:
            raise ValueError(f"unknown kernel group {group!r}; choose from {sorted(KINDS)}")
    todo = [g for g in dict.fromkeys(groups or KINDS) if g not in _done]
    for group in [g for g in todo if is_compiled(g)]:
        _done.add(group)
        _load(group)
        todo.remove(group)
    if not todo:
        return 0.0
    stream = sys.stderr if stream is None else stream
    _done.update(todo)
    try:
        with _compile_lock(stream) as waited:
            for group in [g for g in todo if waited and is_compiled(g)]:
                stream.write(f"riichi_env: {group} was compiled by the other process; loading it\n")
                stream.flush()
                _load(group)
                todo.remove(group)
            return _compile(todo, stream) if todo else 0.0
    except BaseException:
        _done.difference_update(todo)
        raise


def _load(kind: str) -> None:
    """Load ``kind``'s kernels Python calls from the disk cache now (a cached kernel holds its
    callees: the game's and the policies' load alone in ``replay`` and ``score`` only), through
    ``compile_kernel``: a damaged cache is emptied, with a line on stderr, and compiled again."""
    listed = [] if jit_disabled() else entries(kind)
    for kernel, types in [e for e in listed if e[0] not in {*GAME, *AGENTS}] or listed:
        compile_kernel(kernel, types)


def _compile(kinds: list[str], stream) -> float:
    """Run the warm-ups of ``kinds`` with a notice and progress, then mark them compiled; silently
    when other groups compiled all their kernels (it loads them)."""
    cached = _cached()
    wanted = list(dict.fromkeys(e for kind in kinds for e in entries(kind)))
    left = [e for e in wanted if e not in cached]
    start = time.perf_counter()
    if left:
        how_long = "; ".join(KINDS[kind][1] for kind in kinds)
        about = f"{len(left)} of its {len(wanted)} kernels left: less than {how_long}"
        if not cached:
            about = f"{how_long} from an empty cache, more on a busy machine"
        stream.write(
            f"riichi_env: compiling {'; '.join(KINDS[kind][0] for kind in kinds)} for this "
            f"machine, once ({about}; later runs load them from the cache in about a second)\n"
        )
        stream.flush()
    with _progress(stream, ", ".join(kinds)) if left else contextlib.nullcontext():
        for kind in kinds:
            kind_start = time.perf_counter()
            _warm(kind)
            _mark(kind, time.perf_counter() - kind_start)
    if not left:
        return 0.0
    seconds = time.perf_counter() - start
    stream.write(f"riichi_env: compiled {', '.join(kinds)} in {seconds:.0f} s\n")
    stream.flush()
    return seconds


def _warm(kind: str) -> None:
    """Compile (or load) ``kind``'s kernels in order. With two jobs, and kernels of ``_second()``
    and others to compile, a helper compiles the first: this process compiles the others, each
    once the helper's listed before it are cached, then loads the helper's."""
    todo, cached, second = entries(kind), _cached(), _second()
    lanes = {f in second for f, types in todo if (f, types) not in cached}
    helper = _Helper(kind) if compile_jobs() >= 2 and lanes == {True, False} else None
    try:
        for i, (kernel, types) in enumerate(todo):
            if helper is not None:
                if kernel in second:
                    continue
                for f in [f for f, _ in todo[:i] if f in second]:
                    helper.wait(f)
            compile_kernel(kernel, types)
        for kernel, types in todo if helper is not None else []:
            if kernel in second:  # loaded from the cache (compiled here if the helper failed)
                helper.wait(kernel)
                compile_kernel(kernel, types)
    finally:
        if helper is not None:
            helper.stop()


LOCK_WAIT = 900.0
"""The longest wait for another process compiling into the cache; then this one compiles too."""
LOCK_POLL = 0.25
"""Seconds between attempts to take the compile lock while another process holds it."""

_lock_guard = threading.RLock()
_lock_depth = 0


def _try_lock(handle, take: bool = True) -> bool:
    """Take (``take=False``: release) the exclusive lock on the open file ``handle`` without
    waiting; False if another process holds it."""
    try:
        if os.name == "nt":
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK if take else msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB if take else fcntl.LOCK_UN)
    except OSError as exc:
        if os.name == "nt" or exc.errno in (errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


@contextlib.contextmanager
def _compile_lock(stream) -> Iterator[bool]:
    """Hold the cache's compile lock while the block runs; yields whether another process held it
    first (this one waited, with a notice and progress, up to ``LOCK_WAIT`` seconds; then it
    compiles too). Re-entrant within a process; without a usable lock file it does nothing."""
    global _lock_depth
    with _lock_guard:
        marker = None if _lock_depth else _marker("lock")
        path = None if marker is None else marker.with_name("lock")  # beside the markers
        handle = None
        if path is not None:
            with contextlib.suppress(OSError):
                handle = open(path, "a+")  # noqa: SIM115 (held across the yield)
        waited = locked = False
        if handle is not None and not (locked := _try_lock(handle)):
            waited = True
            stream.write(
                "riichi_env: another process is compiling into this cache; waiting for it, then "
                "loading what it compiled\n"
            )
            stream.flush()
            deadline = time.perf_counter() + LOCK_WAIT
            with _progress(stream, "waiting", "still waiting for the other process"):
                while not (locked := _try_lock(handle)) and time.perf_counter() < deadline:
                    time.sleep(LOCK_POLL)
            if not locked:
                stream.write(
                    f"riichi_env: still locked after {LOCK_WAIT:.0f} s; compiling here too\n"
                )
                stream.flush()
        _lock_depth += 1
        try:
            yield waited
        finally:
            _lock_depth -= 1
            if handle is not None:
                if locked:
                    with contextlib.suppress(OSError):
                        _try_lock(handle, take=False)
                handle.close()


COMPILE_JOBS = "RIICHI_ENV_COMPILE_JOBS"
"""Environment variable: processes a compile may use (``1``: this one alone; default 2 on 2 cores)."""


def compile_jobs() -> int:
    """Processes for a cold compile: ``$RIICHI_ENV_COMPILE_JOBS``, else 2 (1 on one core)."""
    raw = os.environ.get(COMPILE_JOBS)
    if not raw:  # a frozen program's sys.executable is no Python to run -m with
        return 2 if (os.cpu_count() or 1) >= 2 and not getattr(sys, "frozen", False) else 1
    jobs = int(raw) if raw.strip().isdecimal() else 0  # isdigit() passes '²', int() refuses it
    if jobs < 1:
        raise ValueError(
            f"{COMPILE_JOBS} must be a whole number of processes, 1 or more; got {raw!r}"
        )
    return jobs


HELPER_TIMEOUT = 300.0
"""The longest wait for one of the helper's kernels; then this process compiles it itself."""


class _Helper:
    """A second process (``riichi_env.core.compile_helper``) compiling ``helper_entries(kind)``
    into the shared cache, printing each kernel's ``name`` once it is cached. ``wait(kernel)``
    blocks until then, until the helper ended, or ``HELPER_TIMEOUT`` passed (this process then
    compiles what is missing itself)."""

    def __init__(self, kind: str) -> None:
        self.done: set[str] = set()
        self.ended = False
        self._changed = threading.Condition()
        argv = python_argv("riichi_env.core.compile_helper", kind)
        try:
            self._proc = subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
            )
        except OSError:
            self._proc, self.ended = None, True
            return
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with self._proc.stdout:
            for line in self._proc.stdout:
                with self._changed:
                    self.done.add(line.strip())
                    self._changed.notify_all()
        with self._changed:
            self.ended = True
            self._changed.notify_all()

    def wait(self, kernel) -> bool:
        """Until the helper has cached ``kernel`` (True), ended, or ``HELPER_TIMEOUT`` passed."""
        with self._changed:
            self._changed.wait_for(lambda: name(kernel) in self.done or self.ended, HELPER_TIMEOUT)
            return name(kernel) in self.done

    def stop(self) -> None:
        """End the helper (its reader thread closes stdout when the pipe ends)."""
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
