"""The first-run compile, announced: one line before Numba compiles, progress while it does.

The engine's kernels are compiled on first use and cached on disk (``engine/_numba.py``). A cold
compile takes a minute or more on a small machine, so before it starts ``ensure_compiled(kind)``
prints one line to stderr saying what happens and about how long it takes, shows the elapsed time
while it runs, and records in the cache directory that this kind of kernel is compiled for these
sources, so a warm run prints nothing. ``kind`` is one of ``KINDS``: ``"env"`` (reset, mask, step,
the encoders), ``"selfplay"`` (compiled self-play, ``riichi_env.selfplay``), ``"vector"`` (the vector env),
``"checked"`` (self-play that validates every step), ``"agents"`` (self-play of the compiled
agents, the arena), ``"score"`` (hand scoring), ``"replay"`` (the
``Game`` facade that records replay through).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numba

from engine._numba import cache_roots, jit_disabled

KINDS: dict[str, tuple[str, str]] = {
    "env": ("the environment's kernels (reset, masks, step, encoders)", "about 85 s"),
    "selfplay": ("the compiled self-play loop", "about 80 s, or 12 s after the env's"),
    "score": ("the hand-scoring kernels", "about 15 s"),
    "replay": (
        "the game kernels records replay through",
        "about 75 s, or seconds after the env's",
    ),
    "vector": ("the vector env's kernels", "about 2 minutes, or 40 s after the env's"),
    "agents": ("the compiled agents' self-play loop", "about 100 s, or 15 s after the env's"),
    "checked": ("the checked self-play loop (--check)", "about 2 minutes, or 40 s after the env's"),
}
"""Kernel groups: what the notice calls them and how long a cold compile takes on 2 cores (measured
from an empty cache; the groups share the engine's kernels, so the first one pays most)."""

PROGRESS_EVERY = 10.0
"""Seconds between progress lines when stderr is not a terminal (a terminal gets a live line)."""

_ROOT = Path(__file__).resolve().parent.parent
_done: set[str] = set()


@contextlib.contextmanager
def _progress(stream, label: str) -> Iterator[None]:
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
                stream.write(f"  {label}: still compiling, {elapsed:.0f} s\n")
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
    """Hash of numba's version and every project source (read once per process)."""
    digest = hashlib.sha256(numba.__version__.encode())
    for package in ("engine", "riichi_env", "agents"):
        for path in sorted((_ROOT / package).rglob("*.py")):
            digest.update(path.relative_to(_ROOT).as_posix().encode())
            digest.update(path.read_bytes())
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


def is_compiled(kind: str) -> bool:
    """True when ``kind``'s kernels were compiled and cached for the current sources."""
    if kind not in KINDS:
        raise ValueError(f"unknown kernel group {kind!r}; choose from {sorted(KINDS)}")
    marker = _marker(kind)
    return jit_disabled() or (marker is not None and marker.exists())


def ensure_compiled(kind: str, stream=None) -> float:
    """Compile ``kind``'s kernels now if the cache lacks them, announcing it on stderr.

    Returns the seconds spent compiling (0.0 when the cache was warm). Safe to call often: after
    the first call in a process it returns at once.
    """
    if kind in _done or is_compiled(kind):
        _done.add(kind)
        return 0.0
    _done.add(kind)  # the warm-up below builds an env, whose constructor calls this again
    stream = sys.stderr if stream is None else stream
    what, how_long = KINDS[kind]
    stream.write(
        f"riichi_env: compiling {what} for this machine, once ({how_long}, on 2 cores; "
        "later runs load them from the cache in about a second)\n"
    )
    stream.flush()
    start = time.perf_counter()
    try:
        with _progress(stream, kind):
            _WARM_UPS[kind]()
    except BaseException:
        _done.discard(kind)
        raise
    seconds = time.perf_counter() - start
    marker = _marker(kind)
    if marker is not None:
        with contextlib.suppress(OSError):
            marker.write_text(f"{seconds:.1f}\n")
    stream.write(f"riichi_env: compiled {kind} in {seconds:.0f} s\n")
    stream.flush()
    return seconds


def _warm_env() -> None:
    from riichi_env.encoders import ENCODERS
    from riichi_env.env import raw_env

    for encoder in ENCODERS:
        env = raw_env(encoder=encoder)
        env.reset(seed=0)
        for _ in range(40):
            if not env.agents:
                break
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(obs["action_mask"].argmax()))


def _warm_selfplay() -> None:
    from riichi_env.play import selfplay

    selfplay("random", games=1, num_tables=1, progress=False)


def _warm_agents() -> None:
    from riichi_env.play import selfplay

    selfplay("efficiency", games=1, num_tables=1, progress=False)


def _warm_checked() -> None:
    from engine.selfplay import selfplay

    selfplay(1, 0, check=1)


def _warm_vector() -> None:
    from riichi_env.vector import RiichiVectorEnv

    venv = RiichiVectorEnv(2, seed=0)
    obs, _ = venv.reset()
    for _ in range(40):
        obs, *_ = venv.step(obs["action_mask"].argmax(axis=1))


def _warm_score() -> None:
    from engine.scoring import score_hand

    score_hand("123m456p789s11z234m", "4m", win_type="tsumo", seat_wind="S", riichi=True)


def _warm_replay() -> None:
    from engine.game import Game

    game = Game(seed=0)
    for _ in range(40):
        if game.done:
            break
        game.step(game.legal_actions()[0])


_WARM_UPS: dict[str, Callable[[], None]] = {
    "env": _warm_env,
    "selfplay": _warm_selfplay,
    "score": _warm_score,
    "replay": _warm_replay,
    "vector": _warm_vector,
    "checked": _warm_checked,
    "agents": _warm_agents,
}
