"""Self-play and the arena on Ray: actors each running ``riichi_env.selfplay`` on shares of the games.

```python
import ray
from riichi_env.integrations.ray import RayPool

ray.init()                      # this machine; ray.init(address="auto") joins a running cluster
with RayPool(num_actors=4) as pool:
    out = pool.selfplay("efficiency", games=10_000, seed=0)
    ref = pool.put_policy(model)  # a Python / torch policy, sent once to the object store
    out = pool.selfplay([ref, "efficiency", "efficiency", "efficiency"], games=1000)
    ref = pool.put_policy(model)  # new weights for the next round: put it again
```

The games are cut into chunks of consecutive seeds; each actor plays one chunk at a time (a
``selfplay`` call with one worker) and takes the next when it is done, so fast machines do more;
chunks shrink towards the end of the run so the actors finish together.
Game ``k`` is seed ``seed + k`` whatever actor plays it, so the results are those of
``riichi_env.selfplay`` with the same seeds (compiled policies, and Python policies that are
functions of their inputs), for any number of actors. ``seconds`` counts play: from the first
chunk sent to the last result, after every actor has started and loaded its kernels.

If an actor dies (its node fails, ``ray.kill``), the chunk it was playing is played again by a
fresh actor, up to ``max_retries`` times; games already finished are kept. The result says which
seeds were retried and which were lost (``"retried"``, ``"lost"``: lost games have no result
and are left out of ``results``). An exception raised by a policy inside an actor is not a failure
of the actor: it is raised here, as Ray raises it.

Needs the ``ray`` extra (``pip install "riichi-env[ray]"``).
"""

from __future__ import annotations

import copy
import dataclasses
import math
import socket
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.arguments import check_int, check_seed_run, describe
from engine.rules import Rules
from riichi_env.core.options import _make_rules
from riichi_env.progress import ProgressLine

DEFAULT_CHUNKS_PER_ACTOR = 4
"""The guided schedule's chunk: the games left / (this x actors), so chunks shrink as the run ends
and the actors finish together (balanced, with few calls)."""
MIN_CHUNK = 8
"""Smallest chunk the guided schedule makes (fewer, larger calls at the very end)."""
RESOURCE_WAIT = 10.0
"""Seconds a new pool waits for free CPUs (a pool just closed gives its CPUs back) before refusing
to start actors that could never be placed (which would wait forever)."""


def _ray():
    try:
        import ray
    except ImportError:
        raise ImportError(
            'riichi_env.integrations.ray needs Ray: pip install "riichi-env[ray]"'
        ) from None
    return ray


class _PolicyRef:
    """A policy put in Ray's object store once (``RayPool.put_policy``); actors fetch it once."""

    def __init__(self, ref, name: str):
        self.ref = [ref]  # in a list, so Ray passes the reference instead of resolving it per call
        self.key = ref.hex()
        self.__name__ = name

    def __repr__(self) -> str:
        return f"<policy {self.__name__} in the Ray object store>"


class _Actor:
    """One Ray actor: plays chunks of games with ``riichi_env.selfplay`` (one worker)."""

    def __init__(self) -> None:
        self.cache: dict[str, Any] = {}
        self.node = socket.gethostname()

    def _resolve(self, policies: list) -> list:
        import ray

        out = []
        for p in policies:
            if isinstance(p, _PolicyRef):
                if p.key not in self.cache:
                    # a writable copy: arrays from the object store are read-only views
                    self.cache = {p.key: copy.deepcopy(ray.get(p.ref[0]))}
                out.append(self.cache[p.key])
            else:
                out.append(p)
        return out

    def warm(self, policies: list, kwargs: dict) -> str:
        """Play one game so kernels are compiled or loaded before the clock starts."""
        from riichi_env.batch.play import selfplay

        selfplay(self._resolve(policies), games=1, seed=0, **kwargs)
        return self.node

    def play(self, policies: list, games: int, seed: int, kwargs: dict) -> dict:
        from riichi_env.batch.play import selfplay

        return selfplay(self._resolve(policies), games=games, seed=seed, workers=1, **kwargs)

    def crash(self) -> None:
        """Exit the actor's process at once (tests of lost actors)."""
        import os

        os._exit(1)


def _players(kwargs: dict[str, Any]) -> int:
    """Seats of the rules ``selfplay``'s ``kwargs`` give (``rules`` and rule options): 4 or 3."""
    rule_names = {f.name for f in dataclasses.fields(Rules)} - {"name"}
    overrides = {k: v for k, v in kwargs.items() if k in rule_names}
    return _make_rules(kwargs.get("rules", "mahjongsoul"), overrides, None, None).players


class _Chunks:
    """The chunks of consecutive seeds of one ``RayPool.selfplay`` run: made as actors ask
    (guided), played again when an actor dies, and what they gave."""

    def __init__(
        self,
        games: int,
        seed: int,
        chunk: int | None,
        num_actors: int,
        max_retries: int,
        nodes: list[str],
    ):
        self.games, self.seed, self.chunk = games, seed, chunk
        self.num_actors, self.max_retries = num_actors, max_retries
        self.chunks: list[tuple[int, int]] = []  # (lo, hi) game indices, made as actors ask
        self.todo: list[int] = []  # chunks to play again (their actor died)
        self.tries: list[int] = []
        self.outputs: list[dict | None] = []
        self.next_lo = 0
        self.per_actor = [{"node": n, "games": 0, "seconds": 0.0} for n in nodes]
        self.retried: list[int] = []
        self.lost: list[int] = []
        self.done = 0

    def more(self) -> bool:
        """Whether a chunk is left to play."""
        return bool(self.todo) or self.next_lo < self.games

    def take(self) -> int:
        """The next chunk to play: one to play again, else a new one (guided: big chunks first,
        smaller ones at the end so the actors finish together)."""
        if self.todo:
            return self.todo.pop()
        left = self.games - self.next_lo
        size = self.chunk or max(
            MIN_CHUNK, math.ceil(left / (DEFAULT_CHUNKS_PER_ACTOR * self.num_actors))
        )
        self.chunks.append((self.next_lo, min(self.next_lo + size, self.games)))
        self.tries.append(0)
        self.outputs.append(None)
        self.next_lo = self.chunks[-1][1]
        return len(self.chunks) - 1

    def failed(self, c: int) -> None:
        """Chunk ``c``'s actor died: it is played again, or its seeds are lost after
        ``max_retries`` tries."""
        lo, hi = self.chunks[c]
        self.tries[c] += 1
        seeds = list(range(self.seed + lo, self.seed + hi))
        if self.tries[c] > self.max_retries:
            self.lost.extend(seeds)
        else:
            self.retried.extend(seeds)
            self.todo.append(c)

    def finished(self, i: int, c: int, out: dict) -> int:
        """Actor ``i`` played chunk ``c`` (``out``: its ``selfplay`` output); the games done."""
        self.outputs[c] = out
        self.per_actor[i]["games"] += out["games"]
        self.per_actor[i]["seconds"] += out["seconds"]
        self.done += out["games"]
        return self.done


class RayPool:
    """``num_actors`` Ray actors playing self-play and arena games (module docstring).

    Args:
        num_actors: Actors to start (each takes ``num_cpus`` CPUs).
        num_cpus: CPUs Ray reserves per actor.
        max_retries: Times a chunk whose actor died is played again by a fresh actor.
        address: Passed to ``ray.init`` when Ray is not initialised yet (``None``: a local Ray,
            or the cluster named by ``RAY_ADDRESS``).
    """

    def __init__(
        self,
        num_actors: int,
        *,
        num_cpus: float = 1,
        max_retries: int = 2,
        address: str | None = None,
    ):
        ray = _ray()
        self.num_actors = check_int("num_actors", num_actors, 1, 4096)
        self.max_retries = check_int("max_retries", max_retries, 0, 100)
        if isinstance(num_cpus, bool) or not isinstance(num_cpus, (int, float)) or num_cpus <= 0:
            raise ValueError(f"num_cpus must be a number > 0, got {describe(num_cpus)}")
        if not ray.is_initialized():
            ray.init(address=address, logging_level="ERROR", log_to_driver=False)
        need = self.num_actors * num_cpus
        deadline = time.monotonic() + RESOURCE_WAIT
        free = ray.available_resources().get("CPU", 0.0)
        while free < need and time.monotonic() < deadline:  # a closed pool's CPUs come back
            time.sleep(0.1)
            free = ray.available_resources().get("CPU", 0.0)
        if free < need:
            raise ValueError(
                f"{self.num_actors} actors need {self.num_actors * num_cpus:g} CPUs, but Ray has "
                f"{free:g} free (of {ray.cluster_resources().get('CPU', 0.0):g}): use fewer "
                "workers, or close the other pools"
            )
        self._cls = ray.remote(num_cpus=num_cpus, max_restarts=0)(_Actor)
        self.actors = [self._cls.remote() for _ in range(self.num_actors)]
        self.nodes: list[str] = [""] * self.num_actors
        self._warm_for: set = set()

    def __enter__(self) -> RayPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """End the actors."""
        ray = _ray()
        for a in self.actors:
            ray.kill(a)
        self.actors = []

    def put_policy(self, policy: Any) -> _PolicyRef:
        """Put a Python policy (an agent object, a callable, a torch model) in the object store.

        Pass the result as a seat's policy; each actor fetches it once. Put it again after
        changing its weights: the next ``selfplay`` then plays the new version.
        """
        from riichi_env.batch.play import _name

        if isinstance(policy, (str, _PolicyRef)):
            raise TypeError(f"put_policy takes a Python policy object, got {describe(policy)}")
        return _PolicyRef(_ray().put(policy), _name(policy))

    def _policies(self, policy, players: int = 4) -> list:
        from riichi_env.batch.play import _policies

        seats = list(policy) if isinstance(policy, (list, tuple)) else [policy] * players
        if len(seats) != players:
            word = {3: "three", 4: "four"}[players]
            raise ValueError(
                f"policy must be one policy or a list of {word} (by seat), got {len(seats)}"
            )
        for p in seats:
            if not isinstance(p, _PolicyRef):
                _policies([p] * 4)  # the checks and messages of riichi_env.selfplay
        refs: dict[int, _PolicyRef] = {}
        out = []
        for p in seats:
            if isinstance(p, (str, _PolicyRef)):
                out.append(p)
            else:  # an object given directly: put once for this call, shared by its seats
                if id(p) not in refs:
                    refs[id(p)] = self.put_policy(p)
                out.append(refs[id(p)])
        return out

    def _replace(self, i: int, warm_args) -> None:
        ray = _ray()
        ray.kill(self.actors[i])
        self.actors[i] = self._cls.remote()
        self.nodes[i] = ray.get(self.actors[i].warm.remote(*warm_args))

    def selfplay(
        self,
        policy: Any = "random",
        *,
        games: int = 1,
        seed: int = 0,
        chunk: int | None = None,
        on_result: Callable[[dict], None] | None = None,
        progress: bool | Callable[[int], Any] | None = None,
        workers: int | None = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """``riichi_env.selfplay`` over the actors; the same dict plus per-actor figures.

        ``kwargs`` are ``selfplay``'s (``rules``, ``records``, ``encoder``, ``num_tables``, ...).
        ``chunk`` is the games per call (default: guided, the games left / (4 x actors) and at
        least 8, so the last chunks are small and the actors finish together). ``on_result`` is called
        with each finished chunk's output as it arrives (results stream back). ``progress`` is
        ``selfplay``'s: a line on stderr, or a callable given the games finished. Adds
        ``"actors"`` (per actor: ``node``, ``games``, ``seconds`` of play, ``games_per_s``),
        ``"retried"`` and ``"lost"`` (seeds). ``workers`` is accepted for the signature of
        ``selfplay`` and must equal the number of actors if given.
        """
        games, seed = check_seed_run(games, seed)
        if workers is not None and workers != self.num_actors:
            raise ValueError(f"workers={workers}, but this pool has {self.num_actors} actors")
        if "workers" in kwargs:
            raise TypeError("give workers as the pool's num_actors")
        if chunk is not None:
            chunk = check_int("chunk", chunk, 1)
        policies = self._policies(policy, _players(kwargs))
        warm_args = self._warm(policies, kwargs)
        kwargs = {**kwargs, "progress": False}
        chunks = _Chunks(games, seed, chunk, self.num_actors, self.max_retries, self.nodes)
        report = progress if callable(progress) else None
        line = None
        if report is None and (sys.stderr.isatty() if progress is None else bool(progress)):
            report = line = ProgressLine("selfplay (ray)", games)
        start = time.perf_counter()
        try:
            self._play_chunks(chunks, (policies, kwargs), warm_args, on_result, report)
            seconds = time.perf_counter() - start
        finally:
            if line is not None:
                line.close()
        return _merge(
            chunks.outputs,
            games,
            seconds,
            chunks.per_actor,
            sorted(chunks.retried),
            sorted(chunks.lost),
        )

    def _warm(self, policies: list, kwargs: dict[str, Any]) -> tuple[list, dict[str, Any]]:
        """Have every actor play one game with these policies and options (once per pool), so
        kernels are compiled or loaded before the clock starts; the arguments of ``warm``."""
        ray = _ray()
        warm_kwargs = {k: v for k, v in kwargs.items() if k != "records"}
        warm_kwargs["progress"] = False
        warm_args = (policies, warm_kwargs)
        key = repr((policies, sorted(warm_kwargs.items(), key=lambda kv: kv[0])))
        if key not in self._warm_for:
            # the first actor compiles (or loads) the kernels; the others then load them
            self.nodes[0] = ray.get(self.actors[0].warm.remote(*warm_args))
            rest = ray.get([a.warm.remote(*warm_args) for a in self.actors[1:]])
            self.nodes[1:] = rest
            self._warm_for.add(key)
        return warm_args

    def _play_chunks(
        self,
        chunks: _Chunks,
        play_args: tuple[list, dict[str, Any]],
        warm_args: tuple[list, dict[str, Any]],
        on_result: Callable[[dict], None] | None,
        report: Callable[[int], Any] | None,
    ) -> None:
        """Keep every actor playing chunks (``play_args``: the policies and ``selfplay``'s
        options) until none is left; a dead actor's chunk goes back, a fresh actor takes over."""
        ray = _ray()
        policies, kwargs = play_args
        running: dict = {}  # task -> (actor index, chunk index)

        def submit(i: int) -> None:
            c = chunks.take()
            lo, hi = chunks.chunks[c]
            task = self.actors[i].play.remote(policies, hi - lo, chunks.seed + lo, kwargs)
            running[task] = (i, c)

        for i in range(self.num_actors):
            if chunks.more():
                submit(i)
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            task = ready[0]
            i, c = running.pop(task)
            try:
                out = ray.get(task)
            except ray.exceptions.RayActorError:
                chunks.failed(c)
                self._replace(i, warm_args)
                if chunks.more():
                    submit(i)
                continue
            done = chunks.finished(i, c, out)
            if on_result is not None:
                on_result(out)
            if report is not None:
                report(done)
            if chunks.more():
                submit(i)

    def arena(self, seats: Sequence[Any], **kwargs: Any) -> dict[str, Any]:
        """``riichi_env.batch.arena.arena`` with its games played on the actors."""
        from riichi_env.batch.arena import arena

        kwargs.pop("workers", None)
        return arena(seats, runner=self.selfplay, **kwargs)


def _merge(outputs, games, seconds, per_actor, retried, lost) -> dict[str, Any]:
    results: list[dict] = []
    records: list = []
    has_records = False
    for out in outputs:
        if out is None:
            continue
        results.extend(out["results"])
        if "records" in out:
            has_records = True
            records.extend(out["records"])
    merged: dict[str, Any] = {
        "games": len(results),
        "hands": sum(r["hands"] for r in results),
        "decisions": sum(r["decisions"] for r in results),
        "seconds": seconds,
        "results": results,
    }
    if has_records:
        merged["records"] = records
    for a in per_actor:
        a["games_per_s"] = a["games"] / a["seconds"] if a["seconds"] > 0 else 0.0
    merged["actors"] = per_actor
    merged["retried"] = retried
    merged["lost"] = lost
    return merged


def selfplay(
    policy: Any = "random",
    *,
    games: int = 1,
    workers: int = 1,
    address: str | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """``riichi_env.selfplay`` on ``workers`` Ray actors (a pool for this call only)."""
    with RayPool(workers, address=address) as pool:
        return pool.selfplay(policy, games=games, **kwargs)


__all__ = ["RayPool", "selfplay"]
