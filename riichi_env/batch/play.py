"""Whole games of self-play over many tables: compiled policies inside the kernels, Python
policies (a torch model, say) called once per batch of tables.

```python
import riichi_env

out = riichi_env.selfplay("random", games=1000, seed=0, workers=2)  # all compiled
out["results"][0]  # {"seed": 0, "points": [...], "final_scores": [...], "ranks": [...], ...}

def learner(obs, mask, seat):  # obs (n, rows, 34), mask int8 (n, 85), seat int (n,)
    return mask.argmax(axis=1)  # one legal action id per table

riichi_env.selfplay([learner, "random", "random", "random"], games=100, num_tables=64)
```

``policy`` is one policy for every seat or a list of four, by seat (seat 0 is the first dealer).
A policy is the name of a compiled policy (``COMPILED_POLICIES``) or a callable ``(obs, mask,
seat) -> actions`` on a batch: the acting seats of the tables it owns, observed with
``encoder``. Game ``k`` (``0 <= k < games``) has seed ``seed + k`` and is the game
``riichi_env.env().reset(seed=seed + k)`` plays under the same actions; compiled policies draw
from a random stream keyed by that seed. So with compiled policies, and with Python policies that
are functions of their inputs, the results are the same for any ``num_tables`` and ``workers``.

With three-player rules (``rules="mahjongsoul-3p"`` / ``"tenhou-3p"``) ``policy`` is one
policy or a list of three, masks have 86 entries (85: kita), Python policies observe with the
three-seat encoders (``basic3_v0`` default), and each result's ``points``, ``final_scores``,
``ranks`` and ``bot_errors`` have three entries; ``records=True`` gives three-player records
(``riichi_env.records``); an ``MjaiBot`` seat is sent the game in its ``sanma_dialect``.

An agent object is a policy too (the agents of ``agents/`` and a user's own): its
``act_batch(observations, masks, seats, views) -> actions`` is called per batch, else its
``act(observation, action_mask, view) -> int`` per decision, with each table's ``SeatView``
(``engine.visibility.seat_view``), as the AEC env's ``env.view(agent)`` gives it. A policy with
``act_log(decision) -> int`` reads the game's event log instead (``riichi_env.mjai.seat``: an
external bot over mjai, given a ``LogDecision``); it is told when a game ends (``game_over(rows,
t, game, rules, bot_errors, errors)``) and closed after the run (``close``). With one, ``num_tables`` defaults to ``workers`` (a bot process
per table and seat) and ``skip_forced`` is refused (a bot answers every decision).
``bot_errors`` says what a bad answer of such a bot does: ``"stop"`` ends the run with
``MjaiBotError``, ``"substitute"`` plays a default move instead and counts it in the game's
result (``"bot_errors"``, by seat).

A Python policy may declare the observations it reads as an ``encoder`` attribute (a trained
network does: ``riichi_env.integrations.sb3.MaskablePPOAgent``); ``encoder=None`` then plays with it, and
policies that declare different encoders, or an ``encoder`` argument that differs from a
declared one, raise ``ValueError``.

``workers=K`` plays in K threads (the kernels release the GIL), each owning a share of the tables
and a contiguous share of the games; Python callables are then called from K threads at once,
while each worker gets its own ``copy.deepcopy`` of an agent object (agents need not be
thread-safe). Ctrl-C (``KeyboardInterrupt`` in the calling thread) stops every worker before its
next compiled call or batch step (a compiled call plays at most one game per table), kills
the bot processes of ``act_log`` policies, and is raised within about a second.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.arguments import (
    check_bool,
    check_int,
    check_seed_run,
    describe,
    is_int,
)
from engine.harness.selfplay import POLICY_EFFICIENCY, POLICY_GREEDY, POLICY_SIMPLE, POLICY_UNIFORM
from engine.rules import Rules
from engine.state import DEFAULT_MAX_EVENTS
from engine.visibility import seat_view
from riichi_env.batch.policy import METHODS, PolicyLike, is_python_policy
from riichi_env.batch.tables import FINISHED, PYTHON_SEAT, Batch
from riichi_env.core.compiling import ensure_compiled
from riichi_env.core.encoders import ENCODER_IDS, check_encoder, encoder_for
from riichi_env.core.options import _make_rules, check_obs_dtype, reward_spec
from riichi_env.mjai.seat import LogDecision, MjaiBot, check_bot_errors, is_log_policy
from riichi_env.progress import ProgressLine

POLICY_NAMES = ("random", "greedy", "simple", "efficiency")
"""The compiled policies' names: ``"random"`` (uniform over legal actions, the stream of
``engine.harness.selfplay``), ``"greedy"`` (wins, riichi, mostly shanten-keeping discards), ``"simple"``
and ``"efficiency"`` (``agents.SimpleEfficiencyAgent`` and ``agents.EfficiencyAgent``, the same
choices as the Python agents)."""
POLICY_ALIASES = {"uniform": "random"}
"""Other names of compiled policies, accepted wherever a policy name is (the API, the arena, the
command line)."""
COMPILED_POLICIES = {
    "random": POLICY_UNIFORM,
    "greedy": POLICY_GREEDY,
    "simple": POLICY_SIMPLE,
    "efficiency": POLICY_EFFICIENCY,
    "uniform": POLICY_UNIFORM,
}
"""Policies played inside the kernels, by name (``POLICY_NAMES``, then ``POLICY_ALIASES``): the
``engine.harness.selfplay`` policy each plays."""
MAX_PYTHON_TABLES = 256
"""Default ``num_tables`` with a Python policy: batches large enough for a network call."""

FAST_TABLES = 8
"""Tables per worker with compiled policies only: each compiled call plays one game at each of
them, so Python's share (a call and its results, about 4 % of random self-play's time at a
game per call: docs/internals.md) is spread over eight games; eight states (3.6 kB each)
stay in the core's cache."""


def _policies(policy: PolicyLike | Sequence[PolicyLike], players: int = 4) -> list[PolicyLike]:
    """Four per-seat policies, each a compiled name or a callable. With three players ``policy``
    is one or a list of three, and the absent seat 3 (it never acts) gets ``"random"``."""
    seats = list(policy) if isinstance(policy, (list, tuple)) else [policy] * players
    if len(seats) != players:
        word = {3: "three", 4: "four"}[players]
        raise ValueError(
            f"policy must be one policy or a list of {word} (by seat), got {len(seats)}"
        )
    if players == 3:
        seats = [*seats, "random"]
    for s, p in enumerate(seats):
        if isinstance(p, str):
            if p not in COMPILED_POLICIES:
                raise ValueError(
                    f"unknown compiled policy {p!r} for seat {s}; choose from "
                    f"{', '.join(POLICY_NAMES)} (or {_aliases()}) or pass a callable "
                    "(obs, mask, seat) -> actions"
                )
        elif not is_python_policy(p):
            raise TypeError(
                f"policy for seat {s} must be a compiled policy name, a callable or an agent "
                f"with act(), got {describe(p)}, which has none of the methods "
                f"{', '.join(m + '()' for m in METHODS)} or __call__ (riichi_env.Policy)"
            )
    return seats


def _aliases() -> str:
    return ", ".join(f"{a} for {p}" for a, p in POLICY_ALIASES.items())


def policy_encoder(
    policies: Sequence[PolicyLike], encoder: str | None = None, players: int = 4
) -> str:
    """The encoder to observe with: ``encoder``, else the one the policies declare, else the
    default of ``players`` (``basic_v0``, ``basic3_v0``).

    A policy declares one with an ``encoder`` attribute; ``ValueError`` if two policies declare
    different ones or ``encoder`` differs from a declared one.
    """
    declared: dict[str, str] = {}
    for p in policies:
        e = getattr(p, "encoder", None) if not isinstance(p, str) else None
        if e is not None:
            declared.setdefault(check_encoder(e, players), _name(p))
    if len(declared) > 1:
        (a, pa), (b, pb) = list(declared.items())[:2]
        raise ValueError(
            f"policies read different observations: {pa!r} encoder {a!r}, {pb!r} encoder {b!r}"
        )
    if encoder is None:
        return next(iter(declared), encoder_for(None, players))
    check_encoder(encoder, players)
    for e, who in declared.items():
        if e != encoder:
            raise ValueError(
                f"policy {who!r} reads encoder {e!r} observations, but encoder={encoder!r} was given"
            )
    return encoder


def _name(p: PolicyLike) -> str:
    return p if isinstance(p, str) else getattr(p, "__name__", type(p).__name__)


def selfplay(
    policy: PolicyLike | Sequence[PolicyLike] = "random",
    *,
    games: int = 1,
    num_tables: int | None = None,
    seed: int = 0,
    workers: int = 1,
    rules: str | Rules = "mahjongsoul",
    encoder: str | None = None,
    obs_dtype: Any = np.float32,
    skip_forced: bool = False,
    records: bool | str = False,
    progress: bool | Callable[[int], Any] | None = None,
    bot_errors: str = "stop",
    **rule_options: Any,
) -> dict[str, Any]:
    """Play ``games`` games (seeds ``seed .. seed + games - 1``); see the module docstring.

    Returns ``{"games", "hands", "decisions", "seconds", "results"}`` (and ``"records"``: a
    ``riichi_env.records.Game`` per game with ``records=True``, the engine's event-log rows,
    ``int32 (rows, 8)`` as in ``engine/events.py``, with ``records="events"``). Each result is
    ``{"seed", "points", "final_scores", "ranks", "hands", "decisions", "bot_errors"}`` (the last:
    by seat, an external bot's bad answers replaced with ``bot_errors="substitute"``), in seed
    order; ``seconds``
    counts play only. ``num_tables`` defaults to ``workers`` with compiled policies only, else to
    ``min(games, 256)`` (compiled policies alone play on ``FAST_TABLES`` tables per worker, a
    game at each per compiled call: ``num_tables`` only bounds ``workers`` there). ``progress=True``
    shows a live line on stderr (``ProgressLine``; default: when stderr is a terminal); a callable
    is given the games finished so far instead, about twice a second and once at the end (the
    arena draws one line for its four rotations so); with an external bot seated, a callable
    that has a ``bot_errors`` method is given the bot errors substituted so far before each call.
    """
    rules = _make_rules(rules, rule_options, selfplay, None)
    settings = _settings(
        rules,
        policy,
        games=games,
        num_tables=num_tables,
        seed=seed,
        workers=workers,
        encoder=encoder,
        obs_dtype=obs_dtype,
        skip_forced=skip_forced,
        records=records,
        progress=progress,
        bot_errors=bot_errors,
    )
    ensure_compiled(_kernel_group(settings))
    run = _Run(settings)
    seconds = run.play_all()
    return _output(settings, run, seconds)


@dataclass(frozen=True)
class _Settings:
    """A self-play run's checked arguments (``selfplay``'s), as its steps share them."""

    rules: Rules
    seats: list[PolicyLike]
    """Four per-seat policies (``_policies``)."""
    games: int
    seed: int
    workers: int
    """Worker threads, at most ``num_tables``."""
    num_tables: int
    encoder: str
    dtype: Any
    skip_forced: bool
    records: bool | str
    progress: bool | Callable[[int], Any] | None
    bot_errors: str
    python: list[PolicyLike]
    """The seats' Python policies, by seat."""
    log_policies: list[PolicyLike]
    """The distinct policies that read the event log (``act_log``)."""

    @property
    def fast(self) -> bool:
        """Compiled policies only: ``FAST_TABLES`` tables a worker, a game at each per call."""
        return not self.python

    @property
    def keep_log(self) -> bool:
        """An event log per table, read at each game end (records, or a policy reading it)."""
        return bool(self.records) or bool(self.log_policies)


def _settings(
    rules: Rules,
    policy: PolicyLike | Sequence[PolicyLike],
    *,
    games: int,
    num_tables: int | None,
    seed: int,
    workers: int,
    encoder: str | None,
    obs_dtype: Any,
    skip_forced: bool,
    records: bool | str,
    progress: bool | Callable[[int], Any] | None,
    bot_errors: str,
) -> _Settings:
    """Every check of ``selfplay``'s arguments, in its order; the run's settings."""
    players = rules.players
    seats = _policies(policy, players)
    games, seed = check_seed_run(games, seed)
    workers = check_int("workers", workers, 1, 1024)
    python = [p for p in seats if not isinstance(p, str)]
    log_policies = list(dict.fromkeys(p for p in python if is_log_policy(p)))
    if num_tables is None:
        many = python and not log_policies
        num_tables = min(max(games, 1), MAX_PYTHON_TABLES) if many else workers
    num_tables = check_int("num_tables", num_tables, 1, 1 << 20)
    encoder = policy_encoder(python, encoder, players)
    dtype = check_obs_dtype(obs_dtype)
    skip_forced = check_bool("skip_forced", skip_forced)
    if skip_forced and log_policies:
        raise ValueError(
            "skip_forced=True cannot be used with a policy that reads the event log "
            f"({_name(log_policies[0])!r}): an mjai bot answers every decision"
        )
    if records not in (False, True, "events"):
        raise ValueError(f"records must be False, True or 'events', got {describe(records)}")
    if progress is not None and not callable(progress):
        progress = check_bool("progress", progress)
    bot_errors = check_bot_errors(bot_errors)
    workers = min(workers, num_tables)
    if not python:  # compiled policies only: FAST_TABLES tables a worker, a game each a call
        num_tables = min(workers * FAST_TABLES, max(games, workers))
    return _Settings(
        rules=rules,
        seats=seats,
        games=games,
        seed=seed,
        workers=workers,
        num_tables=num_tables,
        encoder=encoder,
        dtype=dtype,
        skip_forced=skip_forced,
        records=records,
        progress=progress,
        bot_errors=bot_errors,
        python=python,
        log_policies=log_policies,
    )


def _kernel_group(s: _Settings) -> str:
    """The kernels a run compiles (or loads): compiled agents, random self-play, or the vector
    env's (Python policies)."""
    if not s.fast:
        return "vector"
    return "agents" if bool((seat_policy_of(s.seats) >= POLICY_SIMPLE).any()) else "selfplay"


class _Run:
    """One self-play run: each worker's tables, what they write (results, records, bot errors)
    and the flag that stops them."""

    def __init__(self, s: _Settings):
        self.s = s
        self.results_i = np.zeros((s.games, 10), dtype=np.int64)
        self.results_f = np.zeros((s.games, 4), dtype=np.float64)
        self.bot_counts = np.zeros((s.games, 4), dtype=np.int64)  # substituted, by game, seat
        self.seat_policy = seat_policy_of(s.seats)
        self.reward = reward_spec("hand", 1e-3, (0.0, 0.0, 0.0, 0.0))
        self.game_log: list[np.ndarray | None] = [None] * s.games if s.records else []
        # a table stops at each game end (``need_reset``): its result is read, its log kept,
        # then the next call starts its next game; compiled seats never play more than a game
        # a call
        self.step_forced = s.skip_forced and not s.fast  # compiled-only play asks every decision
        self.shares = self._shares()
        self.stop = threading.Event()  # set on Ctrl-C: every worker returns before its next step
        owners = _owners(s.seats, s.python)
        self.owners = [owners if w == 0 else _copy_agents(owners) for w in range(len(self.shares))]

    def _shares(self) -> list[tuple[Batch, int]]:
        """Each worker's own batch of tables (threads never write to the same cache lines) and
        the end of its contiguous share of the games."""
        s = self.s
        table_cuts = np.linspace(0, s.num_tables, s.workers + 1).astype(int)
        game_cuts = np.linspace(0, s.games, s.workers + 1).astype(int)
        shares = []
        for w in range(s.workers):
            n = int(table_cuts[w + 1] - table_cuts[w])
            glo, ghi = int(game_cuts[w]), int(game_cuts[w + 1])
            batch = Batch(
                n,
                s.rules,
                s.encoder if s.python else None,
                ENCODER_IDS[s.encoder],
                s.dtype,
                max_events=DEFAULT_MAX_EVENTS if s.keep_log else 0,
            )
            batch.results_i, batch.results_f = self.results_i, self.results_f
            batch.seed_base[:] = s.seed
            j = np.arange(n)
            batch.game_index[:] = np.where(glo + j < ghi, glo + j, FINISHED)
            shares.append((batch, ghi))
        return shares

    def play(self, batch: Batch, ghi: int, own: list[tuple[PolicyLike, np.ndarray]]) -> None:
        """One worker's share: its tables play until their games are done or the run stops."""
        n = batch.n
        batch.start(0, n)
        stop, seat_policy, reward = self.stop, self.seat_policy, self.reward
        if self.s.fast and not self.s.keep_log:  # nothing to ask or keep: a game a table a call
            while not stop.is_set() and not (batch.game_index == FINISHED).all():
                batch.run(0, n, seat_policy, reward, n, ghi, False, True)
            return
        keep_log = self.s.keep_log
        while not stop.is_set():
            batch.run(0, n, seat_policy, reward, n, ghi, self.step_forced, True)
            waiting = batch.need_reset
            if keep_log and waiting.any():
                self._games_over(batch, waiting, own)
            seats_now = batch.seats
            acting = seats_now >= 0
            if not acting.any():
                if not waiting.any() and (batch.game_index == FINISHED).all():
                    return
                continue
            self._set_actions(batch, seats_now, acting, own)

    def _games_over(self, batch: Batch, waiting: np.ndarray, own) -> None:
        """Keep the event log of each table whose game ended; tell the policies that read it."""
        s = self.s
        for t in np.flatnonzero(waiting):
            rows = batch.ev[t, : int(batch.state.n_events[t])]
            if s.records:
                self.game_log[int(batch.game_index[t])] = rows.copy()
            g = int(batch.game_index[t])
            for p, _ in own:
                if is_log_policy(p) and hasattr(p, "game_over"):
                    p.game_over(rows, int(t), g, s.rules, s.bot_errors, self.bot_counts[g])

    def _set_actions(self, batch: Batch, seats_now: np.ndarray, acting: np.ndarray, own) -> None:
        """Ask each Python policy for the actions of the acting seats it owns."""
        for p, owned in own:
            idx = np.flatnonzero(acting & np.isin(seats_now, owned))
            if idx.size:
                actions = _ask(p, batch, idx, self.s.rules, self.s.bot_errors, self.bot_counts)
                batch.set_actions(idx, actions, f"policy {_name(p)!r}")

    def close_bots(self, at_once: bool = False) -> None:
        """Close the policies that read the event log (an mjai bot's processes end; ``at_once``:
        killed without waiting, after Ctrl-C)."""
        if not self.s.fast:
            for own in self.owners:
                for p, _ in own:
                    if isinstance(p, MjaiBot) and at_once:
                        p.close(grace=0.0)
                    elif is_log_policy(p) and hasattr(p, "close"):
                        p.close()

    def play_all(self) -> float:
        """Play every worker's share with the progress report, then close the bots; the seconds
        of play."""
        jobs = [
            functools.partial(self.play, batch, ghi, self.owners[w])
            for w, (batch, ghi) in enumerate(self.shares)
        ]
        batches = [batch for batch, _ in self.shares]
        # a call over no tables plays nothing: compile (or load) before the clock starts
        batches[0].run(0, 0, self.seat_policy, self.reward, 1, 0, self.step_forced, True)
        report, line = _reporter(self.s)
        done = threading.Event()
        ticker = None
        if report is not None:
            args = (done, batches, report, self.bot_counts if self.s.log_policies else None)
            ticker = threading.Thread(target=_tick, args=args, daemon=True)
            ticker.start()
        start = time.perf_counter()
        interrupted = False
        try:
            self._run_jobs(jobs)
        except KeyboardInterrupt:
            interrupted = True
            raise
        finally:
            seconds = time.perf_counter() - start
            try:
                with _interrupts_deferred():
                    self.close_bots(at_once=interrupted)
            finally:
                done.set()
                if ticker is not None:
                    ticker.join()
                if line is not None:
                    line.close()
        return seconds

    def _run_jobs(self, jobs: list[Callable[[], None]]) -> None:
        """The workers' jobs: one in this thread (Ctrl-C lands between two compiled calls), more
        in threads of their own; the first error raised here, Ctrl-C stops every worker."""
        if len(jobs) == 1:
            jobs[0]()
            return
        errors: list[BaseException] = []
        stop = self.stop

        def run_share(job) -> None:
            try:
                job()
            except BaseException as exc:  # re-raised in the caller's thread
                errors.append(exc)
                stop.set()  # the other workers end too

        threads = [threading.Thread(target=run_share, args=(job,), daemon=True) for job in jobs]
        for th in threads:
            th.start()
        try:
            for th in threads:
                while th.is_alive():
                    th.join(JOIN_POLL)  # a wait with a timeout: Ctrl-C is delivered
        except KeyboardInterrupt:
            with _interrupts_deferred():  # a second Ctrl-C while stopping ends nothing half-way
                stop.set()
                self.close_bots(at_once=True)  # a worker waiting for a bot's answer ends now
                deadline = time.monotonic() + STOP_WAIT
                for th in threads:
                    th.join(max(deadline - time.monotonic(), 0.0))
            raise
        if errors:
            raise errors[0]


def _owners(
    seats: list[PolicyLike], python: list[PolicyLike]
) -> list[tuple[PolicyLike, np.ndarray]]:
    """Each distinct Python policy (first-seat order) with the seats it plays."""
    return [
        (p, np.array([s for s in range(4) if seats[s] is p], dtype=np.int64))
        for p in dict.fromkeys(python, None)
    ]


def _reporter(s: _Settings) -> tuple[Callable[[int], Any] | None, ProgressLine | None]:
    """What is given the games finished (``progress``: a callable, or a ``ProgressLine`` when on,
    by default when stderr is a terminal), or None; and the line to close, or None."""
    if callable(s.progress):
        return s.progress, None
    if (sys.stderr.isatty() if s.progress is None else s.progress) and s.games:
        line = ProgressLine("selfplay", s.games, errors=bool(s.log_policies))
        return line, line
    return None, None


def _output(s: _Settings, run: _Run, seconds: float) -> dict[str, Any]:
    """``selfplay``'s result: the totals, each game's result in seed order, the records."""
    ri, rf, players = run.results_i, run.results_f, s.rules.players
    results = [
        {
            "seed": s.seed + k,
            "points": [int(x) for x in ri[k, 0:players]],
            "final_scores": [float(x) for x in rf[k, :players]],
            "ranks": [int(x) for x in ri[k, 4 : 4 + players]],
            "hands": int(ri[k, 8]),
            "decisions": int(ri[k, 9]),
            "bot_errors": [int(x) for x in run.bot_counts[k, :players]],
        }
        for k in range(s.games)
    ]
    out: dict[str, Any] = {
        "games": s.games,
        "hands": int(ri[:, 8].sum()),
        "decisions": int(ri[:, 9].sum()),
        "seconds": seconds,
        "results": results,
    }
    if s.records == "events":
        out["records"] = run.game_log
    elif s.records:
        from riichi_env.records.export import game_from_events

        out["records"] = [game_from_events(rows, s.rules) for rows in run.game_log]
    return out


def _copy_agents(
    owners: list[tuple[PolicyLike, np.ndarray]],
) -> list[tuple[PolicyLike, np.ndarray]]:
    """A worker's own copies of the agent objects (``act`` / ``act_batch``): agents keep scratch
    arrays and RNGs, so two threads must not share one. Plain callables are shared."""
    return [
        (copy.deepcopy(p) if any(hasattr(p, m) for m in AGENT_METHODS) else p, seats)
        for p, seats in owners
    ]


AGENT_METHODS = METHODS
"""Methods that make a policy an agent object (copied per worker)."""


def _ask(
    policy,
    batch: Batch,
    idx: np.ndarray,
    rules: Rules,
    bot_errors: str = "stop",
    errors: np.ndarray | None = None,
):
    """The actions of ``policy`` for tables ``idx``: a batched callable, an agent's ``act_batch``
    (with each table's ``SeatView``), its per-decision ``act(observation, mask, view)``, or its
    ``act_log(LogDecision)`` (the game's event log so far; ``errors``: the run's bot errors by
    game and seat)."""
    if is_log_policy(policy):
        out = np.empty(idx.shape[0], dtype=np.int64)
        for i, t in enumerate(idx.tolist()):
            rows = batch.ev[t, : int(batch.state.n_events[t])]
            g = int(batch.game_index[t])
            d = LogDecision(
                rows,
                batch.state,
                t,
                int(batch.seats[t]),
                batch.masks[t],
                g,
                rules,
                bot_errors,
                errors[g] if errors is not None else None,
            )
            out[i] = policy.act_log(d)
        return out
    obs, masks, seats = batch.obs[idx], batch.masks[idx], batch.seats[idx]
    batched = getattr(policy, "act_batch", None)
    single = getattr(policy, "act", None)
    if batched is None and single is None:
        return policy(obs, masks, seats)
    views = [seat_view(batch.state, int(s), int(t)) for s, t in zip(seats, idx, strict=True)]
    if batched is not None:
        return batched(obs, masks, seats, views)
    out = np.empty(idx.shape[0], dtype=np.int64)
    for i in range(idx.shape[0]):
        a = single(obs[i], masks[i], views[i])
        if not is_int(a):
            raise TypeError(
                f"policy {_name(policy)!r}: act() must return an int action id, got {describe(a)}"
            )
        out[i] = a
    return out


JOIN_POLL = 0.1
"""Seconds between the main thread's checks on its workers (Ctrl-C is delivered between them)."""
STOP_WAIT = 5.0
"""Seconds the main thread waits for its workers to end after a stop before it raises
``KeyboardInterrupt`` anyway (they are daemon threads: nothing waits for them at exit)."""


@contextlib.contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Ctrl-C held back while a run cleans up (in the main thread), so that it cannot cut the
    cleanup half-way (every worker told to stop, every bot process ended): one that came is
    raised as ``KeyboardInterrupt`` at the end. Only where Ctrl-C raises ``KeyboardInterrupt``
    (Python's own handler): a program's own handler, or an ignored SIGINT, is left alone."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    came: list[int] = []
    try:
        signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    except ValueError:  # not the main interpreter
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if came:
        raise KeyboardInterrupt


def seat_policy_of(seats: list[PolicyLike]) -> np.ndarray:
    """``int64[4]``: each seat's ``POLICY_*``, ``PYTHON_SEAT`` for a Python policy."""
    return np.array(
        [COMPILED_POLICIES[p] if isinstance(p, str) else PYTHON_SEAT for p in seats], np.int64
    )


def _tick(
    done: threading.Event,
    batches: list[Batch],
    report: Callable[[int], Any],
    bot_counts: np.ndarray | None = None,
) -> None:
    """``report(games finished)`` every ``TICK`` seconds until ``done`` is set, then once more;
    before each, a report with a ``bot_errors`` method is given the bot errors so far."""
    errors = getattr(report, "bot_errors", None) if bot_counts is not None else None
    while True:
        last = done.wait(TICK)
        if errors is not None:
            errors(int(bot_counts.sum()))
        report(sum(b.games_done for b in batches))
        if last:
            return


TICK = 0.5
"""Seconds between progress reports."""


__all__ = ["COMPILED_POLICIES", "POLICY_ALIASES", "POLICY_NAMES", "selfplay"]
