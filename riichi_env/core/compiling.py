"""The first-run compile, announced: one line before Numba compiles, progress while it does.

The engine's kernels are compiled on first use and cached on disk (``engine/_numba.py``). A cold
compile takes a minute or more on a small machine, so before it starts ``ensure_compiled(kind)``
prints one line to stderr saying what happens and roughly how long it takes (``estimate``: the
measured cost of the parts whose kernels are not cached yet, ``STAGES``), shows the elapsed time
while it runs, and records in the cache directory that this kind of kernel is compiled for these
sources, so a warm run prints nothing. One process at a time compiles into a cache
(``_compile_lock``): another one waits, saying so, then loads what the first compiled. ``kind`` is
one of ``KINDS``: ``"env"`` (reset, mask, step, the default encoder), ``"encoders"`` (the other
encoders, for an env that observes with one), ``"selfplay"`` (compiled self-play,
``riichi_env.selfplay``), ``"vector"`` (the vector env), ``"checked"`` (self-play that validates
every step), ``"agents"`` (self-play of the compiled agents, the arena), ``"score"`` (hand
scoring), ``"replay"`` (the ``Game`` facade that records replay through); and the groups the
packages above add with their kernels (``add_group``): ``"records"`` (the mjai reader's lines,
``riichi_env.records.mjai_kernels``) and ``"dataset"`` (the record replay of
``riichi_env.dataset``, with its packing kernels). The core imports nothing above it.
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
from typing import Any

import numba
import numpy as np

from engine._numba import cache_roots, compile_kernel, jit_disabled, python_argv, source_digest
from engine.compile_parts import PARTS, PIECES, compile_part, game_arguments, signature
from engine.kernels import _play_games, _score_hand

# The runner and the encoders are imported by the parts that compile them, not here: the record
# readers and the dataset import this module to add their groups (``add_group``) and need neither
# (their kernels' decoration is about 60 ms of every such import).

KINDS: dict[str, tuple[str, str]] = {
    "env": (
        "the environment's kernels (reset, masks, step, the basic_v0 encoder)",
        "20 to 60 s on 2 cores",
    ),
    "encoders": (
        "the observation encoders other than basic_v0 (the three-seat ones too)",
        "5 to 15 s",
    ),
    "selfplay": ("the compiled self-play loop", "20 to 60 s on 2 cores"),
    "score": ("the hand-scoring kernels", "5 to 15 s"),
    "replay": ("the game kernels records replay through", "25 to 60 s"),
    "vector": ("the vector env's kernels", "40 to 90 s"),
    "agents": ("the compiled agents' self-play loop", "20 to 60 s on 2 cores"),
    "checked": ("the checked self-play loop (--check)", "40 to 100 s"),
}
"""Kernel groups: what the notice calls them and how long a cold compile of the group takes from an
empty cache (the groups share the engine's kernels, so the first one pays most; the notice
estimates what is left, ``estimate``)."""

Entry = tuple[str, Any, tuple]
"""``(name, kernel, signature)``: a kernel object and the Numba argument types it is compiled for,
``signature(*example_arguments)`` (the types the kernel's callers pass; ``engine.compile_parts``)."""


def _engine_part(name: str) -> Callable[[], list[Entry]]:
    """A part of the game's core from ``engine.compile_parts`` (the helper process compiles the
    same entries)."""

    def entries() -> list[Entry]:
        return PARTS[name]()

    entries.__name__ = f"{name}_part"
    return entries


def _runner_part() -> list[Entry]:
    """The runner without the compiled agents and the encoders
    (``riichi_env.core.runner._run_random``: the AEC env's step, random self-play), for the
    types its callers pass (``example_arguments``)."""
    from riichi_env.core.runner import _run_random, example_arguments

    return [("_run_random", _run_random, signature(*example_arguments()))]


def _agents_runner_part() -> list[Entry]:
    """The runner with every compiled policy, the teacher mode and the encoders
    (``riichi_env.core.runner._run``: the arena, self-play of the agents, the learner env, the
    vector env)."""
    from riichi_env.core.runner import _run, example_arguments

    return [("_run", _run, signature(*example_arguments()))]


def _vector_part() -> list[Entry]:
    """Both runners: the vector env plays in ``_run`` (it writes observations, whatever its
    seats), and ``_run_random`` comes along so that random self-play finds it cached; and the
    check that queues a batch of Python actions (``_queue_actions``)."""
    from riichi_env.core.runner import N_ACTIONS, _queue_actions, new_tables

    ti, _ = new_tables(1)
    masks = np.zeros((1, N_ACTIONS), dtype=np.int8)
    idx = np.zeros(1, dtype=np.int64)
    queue = ("_queue_actions", _queue_actions, signature(masks, idx, idx, ti))
    return [*_runner_part(), *_agents_runner_part(), queue]


def _observe_entries() -> list[Entry]:
    """The default encoder's kernel, with the types ``raw_env`` passes: the env observes through
    it (the runner the env steps with writes no observation)."""
    from riichi_env.core.encoders import DEFAULT_ENCODER, KERNELS, N_ROWS

    st, _, tables, i, _ = game_arguments()
    obs = np.zeros((N_ROWS[DEFAULT_ENCODER], 34), dtype=np.float32)
    encode = KERNELS[DEFAULT_ENCODER]
    suit, honor = tables.shanten_suit, tables.shanten_honor
    return [("_encode_" + DEFAULT_ENCODER, encode, signature(st, i, i, suit, honor, obs))]


def _encode_entries() -> list[Entry]:
    """``_encode`` (every encoder, by id: what ``_run`` and the replay call), with the types the
    runner passes."""
    from riichi_env.core.encoders import DEFAULT_ENCODER, N_ROWS, _encode

    st, _, tables, i, _ = game_arguments()
    obs = np.zeros((N_ROWS[DEFAULT_ENCODER], 34), dtype=np.float32)
    suit, honor = tables.shanten_suit, tables.shanten_honor
    return [("_encode", _encode, signature(st, i, i, i, suit, honor, obs))]


def _step_part() -> list[Entry]:
    """The env's step (the random runner) and the default encoder's kernel, with the types
    ``raw_env`` passes."""
    return [*_runner_part(), *_observe_entries()]


def _encoders_part() -> list[Entry]:
    """Every encoder's own kernel but the default one (an env observing with another), the
    three-seat encoders included (a three-player env observes with one of them)."""
    from riichi_env.core.encoders import ALL_ENCODERS, DEFAULT_ENCODER, KERNELS, N_ROWS

    st, _, tables, i, _ = game_arguments()
    suit, honor = tables.shanten_suit, tables.shanten_honor
    return [
        (
            "_encode_" + name,
            kernel,
            signature(st, i, i, suit, honor, np.zeros((N_ROWS[name], 34), dtype=np.float32)),
        )
        for name, kernel in KERNELS.items()
        if name != DEFAULT_ENCODER and name in ALL_ENCODERS
    ]


def _checked_part() -> list[Entry]:
    """Self-play that validates every step (``riichi-env selfplay --check``)."""
    st, ev, tables, i, _ = game_arguments()
    i64 = np.zeros(1, dtype=np.int64)
    i32 = np.zeros(1, dtype=np.int32)
    rows32 = np.zeros((1, 4), dtype=np.int32)
    rows64 = np.zeros((1, 4), dtype=np.float64)
    types = signature(st, i, ev, tables, i64, i, i, i, rows32, rows64, i32, i64, i32, i64)
    return [("_play_games", _play_games, types)]


def _score_part() -> list[Entry]:
    """Hand scoring (``score_hand``, ``riichi-env score``)."""
    a = np.zeros(1, dtype=np.int32)
    closed = np.zeros(34, dtype=np.uint8)
    melds = np.zeros((4, 2), dtype=np.int32)
    i = np.int64(0)
    return [("_score_hand", _score_hand, signature(closed, melds, i, i, a, a, a, a, a, a, a))]


def _dataset_part() -> list[Entry]:
    """The runner's replay kernel that writes dataset rows (``riichi_env.core.runner._run_replay``),
    for the types the converter passes (``replay_example_arguments``)."""
    from riichi_env.core.runner import _run_replay, replay_example_arguments

    return [("_run_replay", _run_replay, signature(*replay_example_arguments()))]


STAGES: dict[str, tuple[Callable[[], list[Entry]], float]] = {
    "deal": (_engine_part("deal"), 7.0),
    "scoring": (_engine_part("scoring"), 16.0),
    "mask": (_engine_part("mask"), 4.5),
    "apply": (_engine_part("apply"), 10.1),
    "step": (_step_part, 6.0),
    "selfplay": (_runner_part, 0.5),
    "agents": (_engine_part("agents"), 6.8),
    "agents_loop": (_agents_runner_part, 9.3),
    "vector": (_vector_part, 0.5),
    "checked": (_checked_part, 15.6),
    "score": (_score_part, 5.9),
    "dataset": (_dataset_part, 25.0),
    "encoders": (_encoders_part, 3.6),
}
"""Parts of the warm-ups: a function listing the part's kernels (``Entry``; a renamed kernel fails
in ``tests/riichi_env/core/test_warmup.py``) and the CPU seconds of its cold compile with the
parts before it cached (``python benchmarks/bench_compile_stages.py``; ``score`` alone, which the
game's compile includes).
Measured on the project's idle 2-core VM (CPU seconds, which a busy machine inflates far less
than wall seconds; ``selfplay``, 0.0, is given 0.5 s). On two processes ``estimate`` adds the
parts as one process would compile them, so it overstates a cold env's compile (about 39 s
estimated, 25-27 s measured with ``bench_cold_start.py``): the two processes split finer than
the parts (``_on_two_cores``). A part is left to compile until its marker
(``<cache root>/compiled/part-<name>-<hash of the sources>``) exists. A new kernel of a game
path is one more ``(name, kernel, signature(*example arguments))`` entry in its part. These are
the core's parts (``"dataset"``: the runner's replay); the packages above add their own
(``add_group``)."""

IMPLIES = {
    "scoring": ("score",),
    "step": ("selfplay",),
    "agents_loop": ("agents",),
    "vector": ("selfplay", "agents_loop", "agents"),
}
"""Parts another part compiles along: the game's scoring compiles the hand scorer for the
argument types ``score_hand`` passes too; the env's step compiles the runner random self-play
plays through (``_run_random``); the runner with the agents (``_run``) compiles them."""

CORE = ("deal", "scoring", "mask", "apply")
KIND_STAGES: dict[str, tuple[str, ...]] = {
    "env": (*CORE, "step"),
    "encoders": ("encoders",),
    "selfplay": (*CORE, "selfplay"),
    "score": ("score",),
    "replay": CORE,
    "vector": (*CORE, "agents", "vector"),
    "agents": (*CORE, "agents", "agents_loop"),
    "checked": (*CORE, "agents", "checked"),
}
"""The parts each warm-up compiles in one process. On two (``_on_two_cores``) the env's and
self-play's also compile the self-play loop here and the agents on the helper."""

PROCESS_SECONDS = 2.0
"""What a warm-up costs besides compiling: imports, loading cached kernels, playing a game."""

PROGRESS_EVERY = 10.0
"""Seconds between progress lines when stderr is not a terminal (a terminal gets a live line)."""

_ROOT = Path(__file__).resolve().parents[2]
_done: set[str] = set()


@contextlib.contextmanager
def _progress(stream, label: str, doing: str = "still compiling") -> Iterator[None]:
    """Elapsed seconds on ``stream`` while the block runs: a live line on a terminal."""
    stop = threading.Event()
    tty = hasattr(stream, "isatty") and stream.isatty()
    start = time.perf_counter()

    def tick() -> None:
        every = 1.0 if tty else PROGRESS_EVERY
        while not stop.wait(every):
            elapsed = time.perf_counter() - start
            if tty:
                stream.write(f"\r  {label}: {elapsed:.0f} s")
            else:
                stream.write(f"  {label}: {doing}, {elapsed:.0f} s\n")
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
    keyed by (``engine._numba.source_digest``: engine and every module that uses Numba, the kernel
    modules that add their groups' signatures included, ``add_group``) and this module (the
    signatures of the core's warm-ups). Editing any other module (a docstring in the
    CLI) leaves the kernels cached and compiled, and the markers valid."""
    digest = hashlib.sha256(numba.__version__.encode())
    digest.update(source_digest().encode())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:16]


def _marker(kind: str) -> Path | None:
    """The file that says ``kind`` is compiled for these sources, in the first usable cache root."""
    roots = [Path(os.environ["NUMBA_CACHE_DIR"])] if os.environ.get("NUMBA_CACHE_DIR") else []
    for root in roots + cache_roots():
        folder = root / "compiled"
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        return folder / f"{kind}-{_sources_digest()}"
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


def ensure_compiled(kind: str, stream=None) -> float:
    """Compile ``kind``'s kernels now if the cache lacks them, announcing it on stderr.

    One process at a time compiles into a cache (``_compile_lock``): another one waits for it,
    saying so, and then loads what it compiled. Returns the seconds spent compiling (0.0 when
    the cache was warm). Safe to call often: after the first call in a process it returns at once.
    """
    if kind in _done:
        return 0.0
    if is_compiled(kind):
        _done.add(kind)
        _load(kind)
        return 0.0
    _done.add(kind)
    stream = sys.stderr if stream is None else stream
    try:
        with _compile_lock(stream) as waited:
            if waited and is_compiled(kind):
                stream.write(f"riichi_env: {kind} was compiled by the other process; loading it\n")
                stream.flush()
                _load(kind)
                return 0.0
            return _compile(kind, stream)
    except BaseException:
        _done.discard(kind)
        raise


def _load(kind: str) -> None:
    """Load ``kind``'s compiled parts from the disk cache now (what their first calls would do),
    through ``compile_kernel``: a damaged cache file is dropped, with one line on stderr, and that
    kernel compiled again instead of failing at its first call."""
    if jit_disabled():
        return
    for stage in KIND_STAGES[kind]:
        if _part_cached(stage):
            for _, kernel, types in STAGES[stage][0]():
                compile_kernel(kernel, types)


def _compile(kind: str, stream) -> float:
    """Run ``kind``'s warm-up with a notice and progress, then mark it compiled; silently when its
    kernels are all cached already (only the marker was missing: it loads them)."""
    seconds_left, cold = estimate(kind)
    start = time.perf_counter()
    if seconds_left == 0.0:
        _WARM_UPS[kind]()
        _mark(kind, time.perf_counter() - start)
        return 0.0
    what, how_long = KINDS[kind]
    about = f"roughly {_round(seconds_left)} s of compiling left"
    if cold:
        about += f"; {how_long} from an empty cache, more on a busy machine"
    stream.write(
        f"riichi_env: compiling {what} for this machine, once ({about}; later runs load them "
        "from the cache in about a second)\n"
    )
    stream.flush()
    with _progress(stream, kind):
        _WARM_UPS[kind]()
    seconds = time.perf_counter() - start
    _mark(kind, seconds)
    stream.write(f"riichi_env: compiled {kind} in {seconds:.0f} s\n")
    stream.flush()
    return seconds


def compile(*groups: str, stream=None) -> float:  # noqa: A001 (riichi_env.compile)
    """Compile kernel groups now (``KINDS``; default: all of them), announced with one line on
    ``stream`` (stderr) and progress; returns the seconds spent compiling (0.0 when cached).

    Each group's kernels are compiled for the argument types their callers pass
    (``kernel.compile(signature)``, ``STAGES``; nothing is played), and loaded from the disk
    cache when it holds them. First use (the env's constructor, ``selfplay()``, the vector env,
    the CLI) compiles its own group the same way (``ensure_compiled``). A cold compile of the
    game may use a second process (``RIICHI_ENV_COMPILE_JOBS``, docs/internals.md "Compiling on
    two cores")."""
    for group in groups:
        if not isinstance(group, str):
            raise TypeError(f"groups must be group names (str), got {type(group).__name__}")
        if group not in KINDS:
            raise ValueError(f"unknown kernel group {group!r}; choose from {sorted(KINDS)}")
    todo = [g for g in dict.fromkeys(groups or KINDS) if g not in _done and not is_compiled(g)]
    if len(todo) <= 1:
        return sum(ensure_compiled(g, stream) for g in todo)
    stream = sys.stderr if stream is None else stream
    _done.update(todo)
    try:
        with _compile_lock(stream) as waited:
            if waited:
                todo = [g for g in todo if not is_compiled(g)]
            return _compile_many(todo, stream) if todo else 0.0
    except BaseException:
        _done.difference_update(todo)
        raise


def _compile_many(kinds: list[str], stream) -> float:
    """Several groups under one notice (``compile``)."""
    left = list(dict.fromkeys(s for kind in kinds for s in stages_left(kind)))
    start = time.perf_counter()
    if left:
        seconds_left = PROCESS_SECONDS + sum(STAGES[s][1] for s in left)
        what = "; ".join(KINDS[kind][0] for kind in kinds)
        stream.write(
            f"riichi_env: compiling {what} for this machine, once (roughly "
            f"{_round(seconds_left)} s of compiling left; later runs load them from the cache in "
            "about a second)\n"
        )
        stream.flush()
    with _progress(stream, "compile") if left else contextlib.nullcontext():
        for kind in kinds:
            kind_start = time.perf_counter()
            _WARM_UPS[kind]()
            _mark(kind, time.perf_counter() - kind_start)
    if not left:
        return 0.0
    seconds = time.perf_counter() - start
    stream.write(f"riichi_env: compiled {', '.join(kinds)} in {seconds:.0f} s\n")
    stream.flush()
    return seconds


def _round(seconds: float) -> int:
    return max(5, int(5 * round(seconds / 5)))


def _part_cached(stage: str) -> bool:
    """True when part ``stage`` (``STAGES``) was compiled for the current sources (its marker)."""
    marker = _marker(f"part-{stage}")
    return marker is not None and marker.exists()


def _mark_part(stage: str) -> None:
    """Record that part ``stage`` (and the parts it implies) is compiled for these sources."""
    for name in (stage, *IMPLIES.get(stage, ())):
        _mark(f"part-{name}", 0.0)


def compile_stage(stage: str) -> None:
    """Compile part ``stage``'s kernels for their signatures (loading what the disk cache holds;
    nothing runs), then mark it."""
    for _, kernel, types in STAGES[stage][0]():
        compile_kernel(kernel, types)
    _mark_part(stage)


def _stages(kind: str) -> list[str]:
    """The parts (``STAGES``) ``kind``'s warm-up compiles."""
    stages = KIND_STAGES[kind]
    if _two_processes(kind) and kind != "agents":  # the helper compiles the agents meanwhile
        stages = (*stages, "selfplay", "agents")
    return list(dict.fromkeys(stages))


def stages_left(kind: str) -> list[str]:
    """The parts of ``kind``'s warm-up (``STAGES``) whose kernels are not all cached."""
    return [s for s in _stages(kind) if not _part_cached(s)]


def _two_processes(kind: str) -> bool:
    """True when ``kind``'s warm-up would compile the core on two processes (``_on_two_cores``)."""
    return kind in ("env", "selfplay", "agents") and compile_jobs() >= 2 and not _core_is_cached()


def estimate(kind: str) -> tuple[float, bool]:
    """``(seconds, cold)``: about how long ``kind``'s warm-up takes, from what is left to compile
    (``stages_left``, at ``STAGES``' measured costs), 0.0 when nothing is; ``cold`` when all of
    it is left. On two processes the helper's part (scoring, then the agents) runs beside this
    one's (the deal, then the mask and ``_apply``, which wait for its scoring, then the rest)."""
    left = stages_left(kind)
    if not left:
        return 0.0, False
    cost = {s: STAGES[s][1] for s in left}
    cold = len(left) == len(_stages(kind))
    if not _two_processes(kind):
        return PROCESS_SECONDS + sum(cost.values()), cold
    helper = cost.get("scoring", 0.0) + cost.get("agents", 0.0)
    here = max(cost.get("deal", 0.0), cost.get("scoring", 0.0))
    here += sum(cost.get(s, 0.0) for s in ("mask", "apply", "step", "selfplay"))
    seconds = max(here, helper)  # nothing but the arena's loop waits for the helper's agents
    if kind == "agents":
        seconds += cost.get("agents_loop", 0.0)
    return PROCESS_SECONDS + seconds, cold


LOCK_WAIT = 900.0
"""The longest wait for another process compiling into the same cache; then this one compiles
too (a process that hangs while holding the lock never blocks the others for good)."""
LOCK_POLL = 0.25
"""Seconds between attempts to take the compile lock while another process holds it."""

_lock_guard = threading.RLock()
_lock_depth = 0


def _lock_path() -> Path | None:
    """The compile lock of the first usable cache root (one per root: all sources share it)."""
    marker = _marker("lock")
    return None if marker is None else marker.with_name("lock")


def _try_lock(handle) -> bool:
    """Take the exclusive lock on the open file ``handle`` without waiting; False if held."""
    try:
        if os.name == "nt":
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError as exc:
        if os.name == "nt" or exc.errno in (errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def _unlock(handle) -> None:
    with contextlib.suppress(OSError):
        if os.name == "nt":
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


@contextlib.contextmanager
def _compile_lock(stream) -> Iterator[bool]:
    """Hold the cache's compile lock while the block runs; yields whether another process held it
    first (this one waited, with a notice and progress, up to ``LOCK_WAIT`` seconds).

    Two processes compiling into one cache would each spend the whole compile and write the same
    entries; one at a time, the second loads what the first compiled. Re-entrant within a
    process; without a usable lock file it does nothing.
    """
    global _lock_depth
    with _lock_guard:
        if _lock_depth:
            _lock_depth += 1
            try:
                yield False
            finally:
                _lock_depth -= 1
            return
        handle = None
        path = _lock_path()
        if path is not None:
            try:
                handle = open(path, "a+")  # noqa: SIM115 (held across the yield)
            except OSError:
                handle = None
        waited = False
        locked = False
        try:
            if handle is not None:
                locked = _try_lock(handle)
                if not locked:
                    waited = True
                    locked = _wait_for_lock(handle, stream)
            _lock_depth += 1
            try:
                yield waited
            finally:
                _lock_depth -= 1
        finally:
            if handle is not None:
                if locked:
                    _unlock(handle)
                handle.close()


def _wait_for_lock(handle, stream) -> bool:
    """Poll for the lock another process holds, with a notice and progress; False after
    ``LOCK_WAIT`` seconds (then this process compiles without it)."""
    stream.write(
        "riichi_env: another process is compiling into this cache; waiting for it, then "
        "loading what it compiled\n"
    )
    stream.flush()
    deadline = time.perf_counter() + LOCK_WAIT
    with _progress(stream, "waiting", "still waiting for the other process"):
        while time.perf_counter() < deadline:
            if _try_lock(handle):
                return True
            time.sleep(LOCK_POLL)
    stream.write(f"riichi_env: still locked after {LOCK_WAIT:.0f} s; compiling here too\n")
    stream.flush()
    return False


COMPILE_JOBS = "RIICHI_ENV_COMPILE_JOBS"
"""Environment variable: processes a cold compile of the game (``"env"``, ``"selfplay"``,
``"agents"``) may use (``1``: this one alone). Default: 2 on a machine with two cores or more."""


def compile_jobs() -> int:
    """Processes for a cold compile of the game: ``$RIICHI_ENV_COMPILE_JOBS``, else 2 (1 on one
    core)."""
    raw = os.environ.get(COMPILE_JOBS)
    if raw is None or raw == "":
        frozen = getattr(sys, "frozen", False)  # sys.executable is then no Python to run -m with
        return 2 if (os.cpu_count() or 1) >= 2 and not frozen else 1
    try:
        jobs = int(raw)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise ValueError(
            f"{COMPILE_JOBS} must be a whole number of processes, 1 or more; got {raw!r}"
        )
    return jobs


HELPER_ORDER = ("scoring", "wins", "kita", "random", "observe", "agents")
"""The parts the helper compiles, in order (``riichi_env.core.compile_helper.HELPER_PARTS``): what
this process waits for first comes first (``_on_two_cores``)."""


class _Helper:
    """A second process (``riichi_env.core.compile_helper``) compiling parts of the game into the
    shared cache: the scoring part, the encoders, the agents, then each part ``ask`` names.

    It prints each kernel's name once that kernel is cached; ``wait(name)`` blocks until then, or
    until the helper ended for whatever reason (this process then compiles what is missing
    itself, as without a helper).
    """

    def __init__(self) -> None:
        self.done: set[str] = set()
        self._changed = threading.Condition()
        self.ended = False
        try:
            self._proc = subprocess.Popen(
                python_argv("riichi_env.core.compile_helper", *HELPER_ORDER),
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                stdin=subprocess.PIPE,
                text=True,
            )
        except OSError:
            self._proc = None
            self.ended = True
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

    def ask(self, part: str) -> None:
        """Have the helper compile ``part`` next (``engine.compile_parts.PARTS``)."""
        if not self.ended:
            with contextlib.suppress(OSError):
                self._proc.stdin.write(part + "\n")
                self._proc.stdin.flush()

    def wait(self, name: str, timeout: float | None = None) -> bool:
        """Until the helper has cached kernel ``name`` (True), ended, or ``timeout`` s passed
        (default ``HELPER_TIMEOUT``: a helper that hangs never stalls the compile)."""
        if timeout is None:
            timeout = HELPER_TIMEOUT
        with self._changed:
            self._changed.wait_for(lambda: name in self.done or self.ended, timeout)
            return name in self.done

    def stop(self) -> None:
        """End the helper (its reader thread closes stdout when the pipe ends)."""
        if self._proc is None:
            return
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        with contextlib.suppress(OSError):
            self._proc.stdin.close()


HELPER_TIMEOUT = 300.0
"""The longest wait for one of the helper's kernels; then this process compiles it itself."""


def _core_is_cached() -> bool:
    """True once the game's core (deal, mask, ``_apply``) was compiled for these sources."""
    marker = _marker("core")
    return marker is not None and marker.exists()


def _on_two_cores(finish: Callable[[_Helper], None]) -> bool:
    """Compile the game's core with a helper, then ``finish(helper)`` here; False (nothing done)
    with one job or when the core is cached already.

    The helper compiles the parts of ``HELPER_ORDER``: the scoring part, ``_ron`` and ``_win``,
    ``_kita``, the random policies' choice, the default encoder's kernel, then the agents (what
    it has not finished when this process is done compiles on first use). This process compiles
    the deal, the tenpai check and the exhaustive draw (which the helper's ``_discard_passes``
    then loads), the mask once the helper has ``_can_win``, ``_own_kan`` and ``_end_hand``, and
    ``_apply`` once the helper has ``_discard_passes``, ``_win`` and ``_kita``; then ``finish``
    (the runner, once the helper has the random choice). Measured on the idle 2-core VM, the
    order keeps both processes busy: neither waits more than about a second for the other
    (docs/internals.md, "Compiling on two cores").
    """
    if compile_jobs() < 2 or _core_is_cached():
        return False
    start = time.perf_counter()
    helper = _Helper()
    try:
        compile_stage("deal")
        compile_part(PIECES["draw"]())
        helper.wait("_can_win")
        compile_stage("mask")
        compile_part(PIECES["kans_end"]())
        if helper.wait("_discard_passes"):
            _mark_part("scoring")
        helper.wait("_win")
        helper.wait("_kita")
        compile_stage("apply")  # compiles (or loads) the scoring part too, if the helper failed
        _mark_part("scoring")
        _mark("core", time.perf_counter() - start)
        helper.wait("_choose_random")  # every runner calls it: loaded, not compiled again here
        finish(helper)
        if "_choose" in helper.done:
            _mark_part("agents")
    finally:
        helper.stop()
    return True


def _warm_env() -> None:
    """The env's kernels; from a cold cache on two processes (``_on_two_cores``): the env's step
    (the random runner and the default encoder) here, then the random self-play loop (the same
    runner), while the helper compiles the agents after its part, so that ``riichi-env selfplay``
    and ``arena`` find them if it finished."""

    def finish(helper: _Helper) -> None:
        (observe,) = _observe_entries()  # the env observes through it: loaded, not compiled here
        helper.wait(observe[0])
        compile_stage("step")
        _selfplay_here()

    if not _on_two_cores(finish):
        _compile_stages("env")


def _compile_stages(kind: str) -> None:
    """Compile ``kind``'s parts (``KIND_STAGES``) in this process, skipping those marked."""
    for stage in KIND_STAGES[kind]:
        if not _part_cached(stage):
            compile_stage(stage)


def _selfplay_here() -> None:
    """The random self-play loop, in this process, marked compiled (``"selfplay"``)."""
    start = time.perf_counter()
    _done.add("selfplay")  # within this warm-up: no second notice
    _selfplay_game("random")
    _mark("selfplay", time.perf_counter() - start)


def _selfplay_game(policy: str) -> None:
    """Compile the self-play loop of ``policy`` (``"random"``: the random policies' loop, else
    every policy's) for its signature."""
    compile_stage("selfplay" if policy == "random" else "agents_loop")


def _warm_selfplay() -> None:
    """The random self-play loop; from a cold cache the core on two processes, the agents on the
    helper's core meanwhile."""

    def finish(helper: _Helper) -> None:
        _selfplay_game("random")

    if not _on_two_cores(finish):
        _compile_stages("selfplay")


def _warm_agents() -> None:
    """The compiled agents' loop (the arena); from a cold cache the core and then every encoder
    (``_encode``: the agents' loop writes observations) here while the helper compiles the
    agents, then the agents' loop. The random self-play loop is left to its first use (the
    arena plays in the agents' loop alone)."""

    def finish(helper: _Helper) -> None:
        compile_part(_encode_entries())
        if helper.wait("_choose"):
            _mark_part("agents")
        _selfplay_game("efficiency")

    if not _on_two_cores(finish):
        _compile_stages("agents")


_WARM_UPS: dict[str, Callable[[], None]] = {
    **{kind: functools.partial(_compile_stages, kind) for kind in KIND_STAGES},
    "env": _warm_env,
    "selfplay": _warm_selfplay,
    "agents": _warm_agents,
}

_CORE_GROUPS = frozenset(KINDS)
_CORE_PARTS = frozenset(STAGES)


def add_group(
    kind: str,
    what: str,
    how_long: str,
    stages: tuple[str, ...],
    parts: dict[str, tuple[Callable[[], list[Entry]], float]],
) -> None:
    """Add kernel group ``kind`` of a package above the core, whose kernels the core does not
    import: ``what`` and ``how_long`` for the notice (``KINDS``), the parts it compiles in order
    (``KIND_STAGES``: the core's parts and its own) and its own parts (``STAGES``: the entries
    and the CPU seconds of a cold compile). The package calls it when its kernel module is
    imported (``riichi_env.records.mjai_kernels``: ``"records"``;
    ``riichi_env.dataset.pack_kernels``: ``"dataset"``); ``riichi_env.compile`` imports those
    modules, so that it knows every group."""
    if kind in _CORE_GROUPS or _CORE_PARTS.intersection(parts):
        raise ValueError(f"group {kind!r} would replace the core's group or parts")
    missing = [s for s in stages if s not in STAGES and s not in parts]
    if missing:
        raise ValueError(f"group {kind!r} names unknown parts {missing}")
    STAGES.update(parts)
    KINDS[kind] = (what, how_long)
    KIND_STAGES[kind] = stages
    _WARM_UPS[kind] = functools.partial(_compile_stages, kind)
