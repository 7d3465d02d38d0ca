"""The arena: which of four seat policies is stronger, measured with duplicate play.

With three-player rules (``rules="mahjongsoul-3p"`` / ``"tenhou-3p"``) it takes three seats and
plays sets of three games (three rotations), ranks 1-3; ``log_dir`` gets three-player records.

```python
from riichi_env.batch.arena import arena, challenge, format_table

out = arena(["efficiency", "simple", "simple", "simple"], games=400, seed=0)
print(format_table(out))
duel = challenge(["efficiency", "simple"], ["simple", "simple", "simple"], games=400)
duel["comparisons"][0]["figures"]["avg_rank"]  # efficiency - simple on the same walls
```

Duplicate play: the games come in *deal sets* of four that share their walls (one game seed),
each played with the seats rotated, so every policy sits in every seat of the same deal and the
luck of the walls cancels. ``games`` is rounded up to a multiple of four; set ``k`` is seed
``seed + k``. A policy is anything ``riichi_env.selfplay`` takes (a compiled policy name, a batched
callable, an agent object); policies with the same ``names`` entry are pooled into one row.

Per row: ``games`` (seat-games played), ``avg_rank`` (1 = first), ``rank_counts``,
``avg_final_score`` (the preset's final score, ``(points - return) / 1000 + uma + oka``),
``avg_points`` (with a ``points`` table: the mean of ``points[rank]``, as Tenhou's dan points
``(90, 45, 0, -135)``), ``win_rate`` / ``deal_in_rate`` / ``riichi_rate`` / ``call_rate`` (shares
of the hands the policy played: won, dealt into a ron, declared riichi, made an open call),
``avg_win`` (points gained by a win, honba and riichi sticks included) and ``bot_errors`` (the
bad answers of an external bot, ``riichi_env.mjai.seat``, replaced by a default move with
``bot_errors="substitute"``). Each figure ``F`` has a 95 % interval ``F_ci95`` computed with the
deal set as the unit (``riichi_env.batch.stats``: cluster-robust over deal sets, Student's t with
one degree of freedom fewer than the deal sets; nan with fewer than two deal sets), and
``stderr[F]`` and ``min_detectable[F]`` (the smallest true difference a 5 % test finds with 80 %
power). ``comparisons`` has every pair of rows: the difference on the same walls, its interval
and p-value. ``draw_rate`` is the share of hands that ended in an exhaustive draw (nagashi mangan
included).

``target_ci=X`` plays deal sets in batches until the interval of ``target`` (a figure of the
first row, or of the ``compare`` pair's difference) is narrower than ``X``, at most ``games``
games; the result's ``target`` says where it stopped and whether it got there.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from engine.arguments import check_bool, check_int, describe
from engine.events import (
    DRAW_EXHAUSTIVE,
    DRAW_NAGASHI,
    EV_CALL,
    EV_DELTA,
    EV_HAND_START,
    EV_RIICHI,
    EV_RYUUKYOKU,
    EV_WIN,
)
from engine.melds import MELD_ANKAN
from riichi_env.batch.play import _name, _policies, selfplay
from riichi_env.batch.policy import PolicyLike
from riichi_env.batch.stats import Estimate, deal_sets_for, ratio_difference, ratio_estimate
from riichi_env.mjai.seat import check_bot_errors, is_log_policy
from riichi_env.progress import ProgressLine

LOG_FORMATS = {"mjai": ".mjson", "tenhou6": ".json"}
"""Formats ``log_dir`` writes, with their file suffixes."""

FIGURES: dict[str, tuple[str, str]] = {
    "avg_rank": ("rank_sum", "seat_games"),
    "avg_final_score": ("score_sum", "seat_games"),
    "avg_points": ("points_sum", "seat_games"),
    "win_rate": ("wins", "hands"),
    "deal_in_rate": ("deal_ins", "hands"),
    "riichi_rate": ("riichi", "hands"),
    "call_rate": ("calls", "hands"),
    "avg_win": ("win_points", "wins"),
}
"""Every figure with an interval: the per-deal-set totals it is the ratio of (``avg_points``
only with a ``points`` table)."""
FIGURE_NAMES = {
    "rank": "avg_rank",
    "score": "avg_final_score",
    "points": "avg_points",
    "win": "win_rate",
    "deal-in": "deal_in_rate",
    "riichi": "riichi_rate",
    "call": "call_rate",
    "avg-win": "avg_win",
}
"""Short names of the figures (``--target``, ``--by``), each also taken by its key."""
_COUNTS = ("seat_games", "rank_sum", "score_sum", "points_sum", "hands", "wins", "deal_ins")
_COUNTS += ("riichi", "calls", "win_points", "bot_errors")
CHALLENGER = "\0challenger"
"""The row key of the challenger's seat in ``challenge`` (never a seat name)."""


def avg_rank_interval(
    rank_counts: Sequence[int], level: float = 0.95, places: int = 4
) -> tuple[float, float]:
    """A ``level`` interval for the average rank of seat-games with ``rank_counts`` (of 1st-4th;
    with ``places=3``, three-player games, of 1st-3rd and ``4`` below reads ``3``).

    A Wilson score interval on the rank scale: the average ranks ``m`` in [1, 4] with
    ``(mean - m) ** 2 <= z**2 * phi * (m - 1) * (4 - m) / n``. ``(m - 1) * (4 - m)`` is the largest
    variance ranks averaging ``m`` can have, ``phi`` the share of it the ranks show (their
    variance over that bound at their mean, both taken with half a game added to each rank, so
    all-first results still leave room above 1). Inside [1, 4] by construction, it holds the
    mean, and for many games it is the normal approximation ``mean +- z * sd / sqrt(n)``; in
    simulation its coverage stays near the nominal level where the normal one falls far short (a
    strong policy over few games). ``(nan, nan)`` for no games.
    """
    counts = np.asarray(rank_counts, dtype=np.float64)
    if places not in (3, 4):
        raise ValueError(f"places must be 3 or 4, got {describe(places)}")
    if counts.shape != (places,) or not np.isfinite(counts).all() or (counts < 0).any():
        word = {3: "three", 4: "four"}[places]
        raise ValueError(f"rank_counts must be {word} counts >= 0, got {describe(rank_counts)}")
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {describe(level)}")
    n = float(counts.sum())
    if n == 0:
        return (float("nan"), float("nan"))
    ranks = np.arange(1.0, places + 1.0)
    smoothed = counts + 0.5
    m = float(smoothed @ ranks / smoothed.sum())
    var = float(smoothed @ (ranks - m) ** 2 / smoothed.sum())
    phi = min(var / ((m - 1.0) * (float(places) - m)), 1.0)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    k = z * z * phi / n
    p = (float(counts @ ranks) / n - 1.0) / (places - 1)  # the mean on [0, 1]
    centre = (p + k / 2) / (1 + k)
    half = math.sqrt(k * p * (1 - p) + k * k / 4) / (1 + k)
    # exact at the ends and around the mean (rounding only moves the bounds by an ulp or two)
    lo = 0.0 if p == 0.0 else min(max(centre - half, 0.0), p)
    hi = 1.0 if p == 1.0 else max(min(centre + half, 1.0), p)
    return (1.0 + (places - 1) * lo, 1.0 + (places - 1) * hi)


def seat_stats(rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per-seat counts of one game's event log: hands, wins, deal-ins, riichi, calls, win points.

    Also ``draws`` (a scalar array): hands that ended in an exhaustive draw.
    """
    kind = rows[:, 0]
    seat = rows[:, 1]
    hand_id = np.cumsum(kind == EV_HAND_START)
    hands = int((kind == EV_HAND_START).sum())
    wins = np.zeros(4, dtype=np.int64)
    deal_ins = np.zeros(4, dtype=np.int64)
    riichi = np.zeros(4, dtype=np.int64)
    calls = np.zeros(4, dtype=np.int64)
    win_points = np.zeros(4, dtype=np.int64)
    for r in rows[kind == EV_WIN]:
        winner, source = int(r[1]), int(r[2])
        wins[winner] += 1
        if source != winner:
            deal_ins[source] += 1
    for r in rows[kind == EV_DELTA]:
        if r[1] >= 0:
            win_points[r[1]] += r[2 + r[1]]
    for s in range(4):
        riichi[s] = int(((kind == EV_RIICHI) & (seat == s)).sum())
        open_calls = (kind == EV_CALL) & (seat == s) & (rows[:, 2] != MELD_ANKAN)
        calls[s] = np.unique(hand_id[open_calls]).size
    draws = ((kind == EV_RYUUKYOKU) & np.isin(rows[:, 2], (DRAW_EXHAUSTIVE, DRAW_NAGASHI))).sum()
    return {
        "hands": np.full(4, hands, dtype=np.int64),
        "wins": wins,
        "deal_ins": deal_ins,
        "riichi": riichi,
        "calls": calls,
        "win_points": win_points,
        "draws": np.array(int(draws)),
    }


def figure_key(name: str) -> str:
    """The key of a figure (``FIGURES``) given by its key or its short name (``FIGURE_NAMES``)."""
    key = FIGURE_NAMES.get(name, name) if isinstance(name, str) else None
    if key not in FIGURES:
        raise ValueError(
            f"unknown figure {describe(name)}; choose from {', '.join(FIGURE_NAMES)} "
            f"(or {', '.join(FIGURES)})"
        )
    return key


def check_points(points: Sequence[float] | None, players: int) -> tuple[float, ...] | None:
    """A placement-points table (points for 1st, 2nd, ...; ``players`` finite numbers), or None."""
    if points is None:
        return None
    values = list(points) if isinstance(points, (list, tuple, np.ndarray)) else None
    ok = values is not None and len(values) == players
    ok = ok and all(
        not isinstance(v, (bool, np.bool_))
        and isinstance(v, (int, float, np.integer, np.floating))
        and math.isfinite(v)
        for v in values
    )
    if not ok:
        word = {3: "three", 4: "four"}[players]
        raise ValueError(
            f"points must be {word} finite numbers, the points of 1st, 2nd, ... (such as "
            f"{'90, 45, 0, -135' if players == 4 else '90, 0, -90'}), got {describe(points)}"
        )
    return tuple(float(v) for v in values)


def _bounds(key: str, players: int, points: tuple[float, ...] | None):
    """The range a figure cannot leave (its interval is clipped to it), or None."""
    if key == "avg_rank":
        return (1.0, float(players))
    if key.endswith("_rate"):
        return (0.0, 1.0)
    if key == "avg_points" and points is not None:
        return (min(points), max(points))
    if key == "avg_win":
        return (0.0, math.inf)
    return None


class _Lineup:
    """One table's seats, played on every deal set in every rotation."""

    def __init__(self, policies: list, labels: list[str], rows: list[int], prefix: str = ""):
        self.policies = policies
        self.labels = labels
        """Names by seat (in the records)."""
        self.rows = rows
        """The row each seat's results go to."""
        self.prefix = prefix
        """Prefix of its record files."""


class _Tally:
    """Per deal set and row totals, grown as deal sets are played."""

    def __init__(self, rows: int, players: int, lineups: int, points):
        self.n_rows, self.players, self.lineups, self.points = rows, players, lineups, points
        self.sets = 0
        self.c = {q: np.zeros((0, rows)) for q in _COUNTS}
        self.ranks = np.zeros((0, rows, players), dtype=np.int64)
        self.games = np.zeros((0, lineups), dtype=np.int64)
        self.hands = np.zeros(0, dtype=np.int64)
        self.draws = np.zeros(0, dtype=np.int64)
        self.seconds = 0.0
        self.hashes: list[dict[tuple[int, int], str]] = [{} for _ in range(lineups)]

    def grow(self, sets: int) -> None:
        extra = sets - self.sets
        if extra <= 0:
            return
        for q in _COUNTS:
            self.c[q] = np.concatenate([self.c[q], np.zeros((extra, self.n_rows))])
        self.ranks = np.concatenate([self.ranks, np.zeros((extra, *self.ranks.shape[1:]), int)])
        self.games = np.concatenate([self.games, np.zeros((extra, self.lineups), int)])
        self.hands = np.concatenate([self.hands, np.zeros(extra, int)])
        self.draws = np.concatenate([self.draws, np.zeros(extra, int)])
        self.sets = sets

    def add(self, li: int, k: int, rotation: int, res: dict, rows, seat_rows: list[int]):
        stats = seat_stats(rows)
        c = self.c
        self.games[k, li] += 1
        self.hands[k] += int(stats["hands"][0])
        self.draws[k] += int(stats["draws"])
        for s in range(self.players):
            r = seat_rows[s]
            rank = int(res["ranks"][s])
            c["seat_games"][k, r] += 1
            c["rank_sum"][k, r] += rank + 1
            c["score_sum"][k, r] += float(res["final_scores"][s])
            if self.points is not None:
                c["points_sum"][k, r] += self.points[rank]
            c["bot_errors"][k, r] += int(res["bot_errors"][s])
            self.ranks[k, r, rank] += 1
            for key in ("hands", "wins", "deal_ins", "riichi", "calls", "win_points"):
                c[key][k, r] += int(stats[key][s])
        self.hashes[li][k, rotation] = record_hash(rows)

    def complete(self) -> np.ndarray:
        """The deal sets played in every rotation of every lineup (a lost game drops its set)."""
        return (self.games == self.players).all(axis=1)

    def estimate(self, row: int, key: str) -> Estimate:
        num, den = FIGURES[key]
        m = self.complete()
        bounds = _bounds(key, self.players, self.points)
        return ratio_estimate(self.c[num][m, row], self.c[den][m, row], bounds=bounds)

    def difference(self, a: int, b: int, key: str) -> Estimate:
        num, den = FIGURES[key]
        m = self.complete()
        c = self.c
        return ratio_difference(c[num][m, a], c[den][m, a], c[num][m, b], c[den][m, b])


def record_hash(rows: np.ndarray) -> str:
    """SHA-256 of a game's engine event log (``int32`` little-endian rows, in order): the same
    games give the same hashes on any machine, backend and number of workers."""
    data = np.ascontiguousarray(rows, dtype="<i4").tobytes()
    return hashlib.sha256(data).hexdigest()


def _nan(x: float) -> float:
    """``x`` as a float, every nan the one ``math.nan`` (so equal rows compare equal)."""
    x = float(x)
    return math.nan if x != x else x


def _figures(tally: _Tally, keys: list[str], row: int) -> dict[str, Any]:
    """A row's figures, intervals, standard errors and smallest detectable differences."""
    out: dict[str, Any] = {}
    se: dict[str, float] = {}
    mde: dict[str, float] = {}
    for key in keys:
        e = tally.estimate(row, key)
        value = e.value if math.isfinite(e.value) else 0.0  # no hands, no wins: 0 as ever
        out[key] = _nan(value)
        out[f"{key}_ci95"] = [_nan(e.lo), _nan(e.hi)]
        se[key], mde[key] = _nan(e.se), _nan(e.min_detectable)
    return {"figures": out, "stderr": se, "min_detectable": mde}


def _row(tally: _Tally, keys: list[str], row: int, name: str) -> dict[str, Any]:
    m = tally.complete()
    f = _figures(tally, keys, row)
    fig = f["figures"]
    out: dict[str, Any] = {
        "name": name,
        "seat_spec": name,
        "games": int(tally.c["seat_games"][m, row].sum()),
        "avg_rank": fig["avg_rank"],
        "avg_rank_ci95": fig["avg_rank_ci95"],
        "rank_counts": [int(x) for x in tally.ranks[m, row].sum(axis=0)],
    }
    for key in keys:
        if key != "avg_rank":
            out[key] = fig[key]
            out[f"{key}_ci95"] = fig[f"{key}_ci95"]
    out["bot_errors"] = int(tally.c["bot_errors"][:, row].sum())
    out["stderr"] = f["stderr"]
    out["min_detectable"] = f["min_detectable"]
    return out


def _comparison(tally: _Tally, keys: list[str], a: int, b: int, names: list[str]) -> dict:
    figures = {}
    for key in keys:
        e = tally.difference(a, b, key)
        figures[key] = {
            "difference": _nan(e.value),
            "ci95": [_nan(e.lo), _nan(e.hi)],
            "p_value": _nan(e.p_value),
            "stderr": _nan(e.se),
            "min_detectable": _nan(e.min_detectable),
        }
    return {
        "a": names[a],
        "b": names[b],
        "deal_sets": int(tally.complete().sum()),
        "figures": figures,
    }


def _keys(points) -> list[str]:
    return [k for k in FIGURES if k != "avg_points" or points is not None]


class _Progress:
    """The arena's one progress line over its many self-play runs: games and bot errors."""

    def __init__(self, line: ProgressLine | None):
        self.line = line
        self.games = 0
        self.errors = 0

    def part(self) -> Callable[[int], None] | bool:
        """The ``progress`` of the next self-play run (its games add to those before)."""
        if self.line is None:
            return False
        return _Part(self.line, self.games, self.errors)

    def add(self, games: int, errors: int) -> None:
        self.games += games
        self.errors += errors
        if self.line is not None:
            self.line.bot_errors(self.errors)
            self.line(self.games)


class _Part:
    """One self-play run's share of the arena's progress line (``selfplay`` reports its games
    and, through ``bot_errors``, the bad answers substituted so far)."""

    def __init__(self, line: ProgressLine, games: int, errors: int):
        self.line, self.before, self.errors_before = line, games, errors

    def __call__(self, done: int) -> None:
        self.line(self.before + done)

    def bot_errors(self, n: int) -> None:
        self.line.bot_errors(self.errors_before + n)


def _log_name(k: int, rotation: int, fmt: str, prefix: str = "") -> str:
    return f"{prefix}set-{k:05d}-rotation-{rotation}{LOG_FORMATS[fmt]}"


def _write_log(
    out_dir: Path,
    fmt: str,
    rows,
    rules,
    names,
    k: int,
    rotation: int,
    overwrite: bool = False,
    prefix: str = "",
) -> None:
    from engine.rules import as_rules
    from riichi_env.records import write_text
    from riichi_env.records.export import game_from_events
    from riichi_env.records.files import create_file

    game = game_from_events(rows, as_rules(rules), names=tuple(names), source="riichi_env arena")
    path = out_dir / _log_name(k, rotation, fmt, prefix)
    create_file(path, write_text(game, fmt), overwrite=overwrite)


TARGET_FIRST_SETS = 10
"""Deal sets of ``target_ci``'s first batch."""
TARGET_MARGIN = 1.1
"""A batch of ``target_ci`` aims at this many times the deal sets the last interval projects."""


class _Run:
    """The deal sets of one or more lineups, played in batches, and their tally."""

    def __init__(
        self,
        lineups,
        names,
        *,
        players,
        rules,
        seed,
        run,
        bot_errors,
        points,
        line,
        out_dir,
        log_format,
        overwrite,
    ):
        self.lineups = lineups
        self.names = names
        self.players = players
        self.rules = rules
        self.seed = seed
        self.run = run
        self.bot_errors = bot_errors
        self.tally = _Tally(len(names), players, len(lineups), points)
        self.progress = _Progress(line)
        self.out_dir, self.log_format, self.overwrite = out_dir, log_format, overwrite

    def play(self, start: int, count: int) -> None:
        """Deal sets ``start .. start + count - 1`` in every lineup and rotation."""
        tally, p = self.tally, self.players
        tally.grow(start + count)
        for li, lineup in enumerate(self.lineups):
            for rotation in range(p):
                at_seat = [(s + rotation) % p for s in range(p)]  # seat s: policies[at_seat[s]]
                out = self.run(
                    [lineup.policies[i] for i in at_seat],
                    games=count,
                    seed=self.seed + start,
                    rules=self.rules,
                    records="events",
                    progress=self.progress.part(),
                    bot_errors=self.bot_errors,
                )
                tally.seconds += out["seconds"]
                seat_rows = [lineup.rows[i] for i in at_seat]
                errors = 0
                for res, rows in zip(out["results"], out["records"], strict=True):
                    k = int(res["seed"]) - self.seed
                    tally.add(li, k, rotation, res, rows, seat_rows)
                    errors += sum(int(x) for x in res["bot_errors"])
                    if self.out_dir is not None:
                        _write_log(
                            self.out_dir,
                            self.log_format,
                            rows,
                            self.rules,
                            [lineup.labels[i] for i in at_seat],
                            k,
                            rotation,
                            self.overwrite,
                            lineup.prefix,
                        )
                self.progress.add(len(out["results"]), errors)

    def target_estimate(self, key: str, subject: tuple[int, int] | int) -> Estimate:
        if isinstance(subject, tuple):
            return self.tally.difference(*subject, key)
        return self.tally.estimate(subject, key)

    def play_to(self, sets: int, target_ci: float | None, key: str, subject) -> dict | None:
        """Play ``sets`` deal sets, or with ``target_ci`` batches until the target's interval is
        narrower than it (at most ``sets``); the ``target`` summary, or None."""
        if target_ci is None:
            self.play(0, sets)
            return None
        done = 0
        batch = min(sets, TARGET_FIRST_SETS)
        checks = []
        while True:
            self.play(done, batch)
            done += batch
            e = self.target_estimate(key, subject)
            checks.append({"deal_sets": int(e.deal_sets), "width": _nan(e.width)})
            reached = bool(math.isfinite(e.width) and e.width < target_ci)
            if reached or done >= sets:
                break
            need = deal_sets_for(e.se, e.deal_sets, target_ci)
            if need == 0:  # no interval yet (too few deal sets, no hands): twice as many
                need = 2 * done
            step = max(math.ceil(need * TARGET_MARGIN) - done, max(2, done // 4))
            batch = min(step, sets - done)
        of = (
            f"{self.names[subject[0]]} - {self.names[subject[1]]}"
            if isinstance(subject, tuple)
            else self.names[subject]
        )
        need = 0 if reached else deal_sets_for(e.se, e.deal_sets, target_ci)
        return {
            "figure": key,
            "of": of,
            "target_ci": float(target_ci),
            "ci95": [_nan(e.lo), _nan(e.hi)],
            "width": _nan(e.width),
            "reached": reached,
            "deal_sets": int(e.deal_sets),
            "games": int(e.deal_sets) * self.players,
            "deal_sets_needed": int(need) if need else None,
            "games_needed": int(need) * self.players if need else None,
            "min_detectable": _nan(e.min_detectable),
            "checks": checks,
        }

    def summary(self) -> dict[str, Any]:
        """What every result has: games, hands, draws, deal sets, seconds, bot flags."""
        t = self.tally
        m = t.complete()
        hands = int(t.hands[m].sum())
        lost = [self.seed + int(k) for k in np.flatnonzero(~m)]
        return {
            "players": self.players,
            "games": int(t.games[m].sum()),
            "deal_sets": int(m.sum()),
            "hands": hands,
            "draw_rate": int(t.draws[m].sum()) / max(hands, 1),
            "seconds": t.seconds,
            "incomplete_deal_sets": lost,
            "external_bots": any(
                is_log_policy(p) for lineup in self.lineups for p in lineup.policies
            ),
            "interval": INTERVAL,
        }


INTERVAL = (
    "95 % intervals with the deal set as the unit: cluster-robust standard errors over deal "
    "sets, Student's t with deal sets - 1 degrees of freedom"
)
"""How every interval of the arena is computed (``riichi_env.batch.stats``)."""


@dataclass(frozen=True)
class _Options:
    """The arguments ``arena`` and ``challenge`` share, as given (``_setup`` checks them)."""

    games: int
    seed: int
    workers: int
    rules: Any
    log_dir: str | os.PathLike | None
    log_format: str
    overwrite: bool
    progress: bool | None
    runner: Callable[..., dict[str, Any]] | None
    bot_errors: str


def _setup(opts: _Options, players: int, lineups: list[_Lineup]):
    """Check the options every run shares; its deal sets, checked ``bot_errors``, records
    directory (or None) and progress line (or None)."""
    from engine.arguments import check_seed_run

    games = check_int("games", opts.games, 1)
    bot_errors = check_bot_errors(opts.bot_errors)
    show = sys.stderr.isatty() if opts.progress is None else check_bool("progress", opts.progress)
    sets = math.ceil(games / players)
    check_seed_run(sets, opts.seed)
    if opts.log_format not in LOG_FORMATS:
        raise ValueError(
            f"unknown log format {opts.log_format!r}; choose from {sorted(LOG_FORMATS)}"
        )
    out_dir = None
    if opts.log_dir is not None:
        from riichi_env.records.files import log_directory

        names = (
            _log_name(k, r, opts.log_format, lineup.prefix)
            for lineup in lineups
            for k in range(sets)
            for r in range(players)
        )
        out_dir = log_directory(opts.log_dir, names, overwrite=opts.overwrite)
    external = any(is_log_policy(p) for lineup in lineups for p in lineup.policies)
    line = ProgressLine("arena", len(lineups) * players * sets, errors=external) if show else None
    return sets, bot_errors, out_dir, line


def _play(
    opts: _Options,
    lineups: list[_Lineup],
    row_names: list[str],
    points: tuple[float, ...] | None,
    target_ci: float | None,
    key: str,
    subject: int | tuple[int, int],
) -> tuple[_Run, dict[str, Any] | None]:
    """Play the deal sets of ``lineups`` on one progress line, to ``target_ci`` if given (of
    figure ``key``, of a row or a pair: ``subject``); the run and its ``target`` summary."""
    players = len(lineups[0].policies)  # a table's seats
    sets, bot_errors, out_dir, line = _setup(opts, players, lineups)
    play = opts.runner
    if play is None:
        play = functools.partial(selfplay, workers=opts.workers)
    run = _Run(
        lineups,
        row_names,
        players=players,
        rules=opts.rules,
        seed=opts.seed,
        run=play,
        bot_errors=bot_errors,
        points=points,
        line=line,
        out_dir=out_dir,
        log_format=opts.log_format,
        overwrite=opts.overwrite,
    )
    try:
        target_out = run.play_to(sets, target_ci, key, subject)
    finally:
        if line is not None:
            line.close()  # one line for the whole run, ended once
    return run, target_out


def _ending(
    tally: _Tally,
    names: list[str],
    pairs: list[tuple[int, int]],
    compare: list[str] | None,
    target_out: dict[str, Any] | None,
) -> dict[str, Any]:
    """The keys every result ends with: the comparisons of ``pairs`` of rows (``names``), the
    ``compare`` pair, the points table and the ``target`` summary."""
    keys = _keys(tally.points)
    return {
        "comparisons": [_comparison(tally, keys, a, b, names) for a, b in pairs],
        "compare": compare,
        "points_table": list(tally.points) if tally.points is not None else None,
        "target": target_out,
    }


def _all_pairs(n: int) -> list[tuple[int, int]]:
    """Every pair ``(a, b)`` of ``n`` rows, ``a < b``, in order."""
    return [(a, b) for a in range(n) for b in range(a + 1, n)]


def _policy_list(arg: str, value: Any, what: str, ok: Callable[[int], bool]) -> list:
    """``value`` (a list or tuple) as a list of policies; ``ValueError`` naming ``arg`` unless
    ``ok`` of its length."""
    items = list(value) if isinstance(value, (list, tuple)) else None
    if items is None or not ok(len(items)):
        raise ValueError(f"{arg} must be a list of {what} policies, got {describe(items)}")
    return items


def _labels(arg: str, labels: Any, policies: list, count: str) -> list[str]:
    """``labels`` (default: the policies' names) as ``count`` strings, one per policy."""
    if labels is None:
        labels = [_name(p) for p in policies]
    labels = list(labels)
    if len(labels) != len(policies) or not all(isinstance(n, str) for n in labels):
        raise ValueError(f"{arg} must be {count} strings, got {describe(labels)}")
    return labels


def _check_target(target_ci, target, points) -> tuple[float | None, str]:
    """``target_ci`` checked (a width > 0, or None) and the key of the ``target`` figure."""
    key = figure_key(target)
    if key == "avg_points" and points is None:
        raise ValueError("target 'points' needs a points table (points=..., --points)")
    if target_ci is None:
        return None, key
    if (
        isinstance(target_ci, bool)
        or not isinstance(target_ci, (int, float))
        or not (target_ci > 0 and math.isfinite(target_ci))
    ):
        raise ValueError(
            f"target_ci must be a width > 0 (the 95 % interval's hi - lo), got "
            f"{describe(target_ci)}"
        )
    return float(target_ci), key


def arena(
    seats: Sequence[PolicyLike],
    *,
    games: int,
    seed: int = 0,
    workers: int = 1,
    names: Sequence[str] | None = None,
    rules: Any = "mahjongsoul",
    log_dir: str | os.PathLike | None = None,
    log_format: str = "mjai",
    overwrite: bool = False,
    progress: bool | None = None,
    runner: Callable[..., dict[str, Any]] | None = None,
    bot_errors: str = "stop",
    points: Sequence[float] | None = None,
    compare: Sequence[str] | None = None,
    target_ci: float | None = None,
    target: str = "avg_rank",
) -> dict[str, Any]:
    """Duplicate games of the four ``seats`` (three with three-player ``rules``: sets of three
    games, three rotations); see the module docstring; the summary dict.

    ``names`` labels the seats (default: the policy names); ``log_dir`` writes each game's record
    in ``log_format`` (``"mjai"`` or ``"tenhou6"``) as ``set-K-rotation-R`` files, never through a
    symbolic link and, unless ``overwrite``, never over an existing file (both checked before the
    first game: ``ValueError``; ``riichi_env.records.files.create_file``). ``runner``
    plays the games in place of ``riichi_env.selfplay`` with ``workers`` (the Ray backend's
    ``riichi_env.integrations.ray.RayPool.selfplay``: same arguments, same results). ``bot_errors``
    (``"stop"`` or ``"substitute"``) is what an external bot's bad answer does (``selfplay``).
    ``points`` is a placement-points table (1st, 2nd, ...) for ``avg_points``. ``compare`` names
    two rows whose paired difference the table shows first (and ``target_ci`` aims at).
    ``target_ci`` and ``target`` (a figure, ``FIGURE_NAMES``): see the module docstring; then
    ``games`` is the most games played. The result has ``external_bots``: True when a seat is
    an external bot (``format_table`` then shows the ``bot_errors`` column), and
    ``records_sha256`` (by deal set, by rotation: ``record_hash`` of each game). ``progress`` draws
    one live line on stderr for the whole run, ``arena: done/total games`` (with the bot errors
    when a seat is an external bot; default: when stderr is a terminal).
    """
    from engine.rules import as_rules

    opts = _Options(
        games, seed, workers, rules, log_dir, log_format, overwrite, progress, runner, bot_errors
    )
    players = as_rules(rules).players
    policies = _arena_policies(seats, players)
    names = _labels("names", names, policies, {3: "three", 4: "four"}[players])
    points = check_points(points, players)
    target_ci, key = _check_target(target_ci, target, points)
    labels = list(dict.fromkeys(names))  # distinct seat specs, first-seat order
    subject = _compare_subject(compare, labels)
    lineup = _Lineup(policies, names, [labels.index(n) for n in names])
    run, target_out = _play(opts, [lineup], labels, points, target_ci, key, subject)
    tally = run.tally
    out = run.summary()
    out["agents"] = [_row(tally, _keys(points), r, label) for r, label in enumerate(labels)]
    pairs = _all_pairs(len(labels))
    compared = None
    if isinstance(subject, tuple):
        pairs = [subject] + [p for p in pairs if set(p) != set(subject)]
        compared = [labels[subject[0]], labels[subject[1]]]
    out |= _ending(tally, labels, pairs, compared, target_out)
    out["records_sha256"] = _hashes(tally, 0, players)
    return out


def _arena_policies(seats: Sequence[PolicyLike], players: int) -> list[PolicyLike]:
    """The seats' policies, checked as ``selfplay`` checks them: four, or three with
    three-player rules."""
    if players == 3 and isinstance(seats, (list, tuple)) and len(seats) == 3:
        return _policies([*seats, "random"])[:3]  # selfplay's checks of each seat
    policies = _policies(list(seats) if isinstance(seats, (list, tuple)) else seats)
    if players == 3:
        raise ValueError(f"three-player rules take three seats, got {len(policies)}")
    return policies


def _compare_subject(compare: Sequence[str] | None, labels: list[str]) -> int | tuple[int, int]:
    """What the arena's target aims at: the first row, or the pair of rows ``compare`` names
    (the table shows its difference first)."""
    if compare is None:
        return 0
    pair = list(compare) if isinstance(compare, (list, tuple)) else None
    if pair is None or len(pair) != 2 or pair[0] == pair[1] or not set(pair) <= set(labels):
        raise ValueError(
            f"compare must name two different seat specs of this arena ({', '.join(labels)}), "
            f"got {describe(compare)}"
        )
    return (labels.index(pair[0]), labels.index(pair[1]))


def _hashes(tally: _Tally, li: int, players: int) -> list[list[str | None]]:
    """Lineup ``li``'s record hashes by deal set and rotation (None for a game not played)."""
    return [[tally.hashes[li].get((k, r)) for r in range(players)] for k in range(tally.sets)]


def challenge(
    challengers: Sequence[PolicyLike],
    opponents: Sequence[PolicyLike],
    *,
    games: int,
    seed: int = 0,
    workers: int = 1,
    names: Sequence[str] | None = None,
    opponent_names: Sequence[str] | None = None,
    rules: Any = "mahjongsoul",
    log_dir: str | os.PathLike | None = None,
    log_format: str = "mjai",
    overwrite: bool = False,
    progress: bool | None = None,
    runner: Callable[..., dict[str, Any]] | None = None,
    bot_errors: str = "stop",
    points: Sequence[float] | None = None,
    target_ci: float | None = None,
    target: str = "avg_rank",
) -> dict[str, Any]:
    """Each challenger in one seat against the same ``opponents`` on the same walls.

    Challenger ``i`` plays the duplicate games of ``[challenger, *opponents]`` (every rotation of
    every deal set, seeds ``seed + k``), so the challengers meet the same walls and the same
    opponents, and their difference on each deal set is what the walls and the opponents left:
    the fewest games for "is my new checkpoint better than the old one?". ``games`` is per
    challenger (rounded up to deal sets); ``names`` labels the challengers (a repeated name gets
    ``" #2"``...), ``opponent_names`` the opponents. ``agents`` has the challengers' rows (each
    against the opponents), ``opponents`` each challenger's opponents' rows, ``comparisons`` every
    pair of challengers (the first pair first; ``target_ci`` aims at its difference). Records go to
    ``challenger-I-set-K-rotation-R`` files. Other arguments as ``arena``.
    """
    from engine.rules import as_rules

    opts = _Options(
        games, seed, workers, rules, log_dir, log_format, overwrite, progress, runner, bot_errors
    )
    players = as_rules(rules).players
    word = {3: "two", 4: "three"}[players]
    challengers = _policy_list("challengers", challengers, "two or more", lambda n: n >= 2)
    opponents = _policy_list("opponents", opponents, word, lambda n: n == players - 1)
    policies = [
        _policies([c, *opponents, *(["random"] if players == 3 else [])])[:players]
        for c in challengers
    ]
    names = _labels("names", names, [p[0] for p in policies], str(len(challengers)))
    opponent_names = _labels("opponent_names", opponent_names, policies[0][1:], word)
    names = _numbered(names)
    points = check_points(points, players)
    target_ci, key = _check_target(target_ci, target, points)
    lineups, row_names, opponent_rows = _challenge_lineups(policies, names, opponent_names)
    run, target_out = _play(opts, lineups, row_names, points, target_ci, key, (0, 1))
    tally, keys = run.tally, _keys(points)
    out = run.summary()
    out["games"] = out["games"] // len(lineups)  # per challenger
    out["challengers"] = list(names)
    out["agents"] = [_row(tally, keys, i, n) for i, n in enumerate(names)]
    out["opponents"] = [
        [dict(_row(tally, keys, r, o), against=names[i]) for o, r in rows]
        for i, rows in enumerate(opponent_rows)
    ]
    out |= _ending(tally, names, _all_pairs(len(names)), [names[0], names[1]], target_out)
    out["records_sha256"] = [_hashes(tally, li, players) for li in range(len(lineups))]
    return out


def _numbered(names: list[str]) -> list[str]:
    """``names`` with a repeated name numbered (``" #2"``, ``" #3"``...)."""
    seen: dict[str, int] = {}
    out = list(names)
    for i, n in enumerate(names):
        seen[n] = seen.get(n, 0) + 1
        if seen[n] > 1:
            out[i] = f"{n} #{seen[n]}"
    return out


def _challenge_lineups(
    policies: list[list[PolicyLike]], names: list[str], opponent_names: list[str]
) -> tuple[list[_Lineup], list[str], list[list[tuple[str, int]]]]:
    """Each challenger's lineup; the row names (the challengers, then each one's distinct
    opponents) and each challenger's opponent rows (name, row)."""
    row_names = list(names)
    lineups = []
    opponent_rows: list[list[tuple[str, int]]] = []
    distinct = list(dict.fromkeys(opponent_names))
    for i, pol in enumerate(policies):
        base = len(row_names)
        row_names += [f"{o} (vs {names[i]})" for o in distinct]
        opponent_rows.append([(o, base + j) for j, o in enumerate(distinct)])
        rows = [i] + [base + distinct.index(o) for o in opponent_names]
        lineups.append(_Lineup(pol, [names[i], *opponent_names], rows, f"challenger-{i}-"))
    return lineups, row_names, opponent_rows


def _pm(e_lo: float, e_hi: float, value: float, scale: float = 1.0, fmt: str = ".1f") -> str:
    """``±half`` of an interval (its larger side when clipped), or ``-`` without one."""
    if not (math.isfinite(e_lo) and math.isfinite(e_hi)):
        return "-"
    half = max(value - e_lo, e_hi - value) * scale
    return f"±{half:{fmt}}"


def _signed(x: float, fmt: str) -> str:
    return f"{x:+{fmt}}" if math.isfinite(x) else "-"


_SHOWN = {
    "avg_rank": ("rank", ".3f", 1.0),
    "avg_final_score": ("score", ".1f", 1.0),
    "avg_points": ("points", ".1f", 1.0),
    "win_rate": ("win", ".2%", 1.0),
    "deal_in_rate": ("deal-in", ".2%", 1.0),
    "riichi_rate": ("riichi", ".2%", 1.0),
    "call_rate": ("call", ".2%", 1.0),
    "avg_win": ("avg win", ".0f", 1.0),
}


def _difference_text(key: str, f: dict) -> str:
    label, fmt, _ = _SHOWN[key]
    lo, hi = f["ci95"]
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{label} {_signed(f['difference'], fmt)} (no interval: fewer than two deal sets)"
    p_text = _p_text(f["p_value"])
    mde = f["min_detectable"]
    mde_text = f"{mde:{fmt}}".lstrip("+") if math.isfinite(mde) else "-"
    return (
        f"{label} {_signed(f['difference'], fmt)} ({_signed(lo, fmt)} to {_signed(hi, fmt)}, "
        f"{p_text}, detects {mde_text})"
    )


def _p_text(p: float) -> str:
    """A p-value as the tables show it (``p<0.0001``, ``p=0.0012``, ``p=0.034``)."""
    return "p<0.0001" if p < 1e-4 else f"p={p:.4f}" if p < 0.01 else f"p={p:.3f}"


def _sets(n: int) -> str:
    return f"{n} deal set{'' if n == 1 else 's'}"


def format_table(result: dict[str, Any]) -> str:
    """The arena's result as a plain-text table, one row per seat spec (per challenger for
    ``challenge``; a ``bot errors`` column when a seat is an external bot), then the paired
    differences and what ``target_ci`` reached."""
    rows = result["agents"]
    w = max([5] + [len(a["name"]) for a in rows])
    bots = bool(result.get("external_bots"))
    players = result.get("players", 4)
    has_points = result.get("points_table") is not None
    head = _table_head(w, players, has_points, bots)
    lines = [head, "-" * len(head)]
    lines += [_table_row(a, w, has_points, bots) for a in rows]
    lines += _totals_lines(result, players)
    lines += _comparison_lines(result, has_points)
    lines += _target_lines(result.get("target"))
    return "\n".join(lines)


def _table_head(w: int, players: int, has_points: bool, bots: bool) -> str:
    """The table's header line (``w``: the width of the agent column)."""
    places = "1st/2nd/3rd/4th" if players == 4 else "1st/2nd/3rd"
    head = (
        f"{'agent':<{w}} {'games':>6} {'avg rank':>9} {'95% CI':>11} {places:>19} "
        f"{'score':>7} {'±95%':>6}"
    )
    if has_points:
        head += f" {'points':>7} {'±95%':>6}"
    head += (
        f" {'win':>6} {'±95%':>6} {'deal-in':>7} {'±95%':>6} {'riichi':>6} {'call':>6}"
        f" {'avg win':>7}"
    )
    if bots:
        head += f" {'bot errors':>10}"
    return head


def _table_row(a: dict[str, Any], w: int, has_points: bool, bots: bool) -> str:
    """One row of the table: a seat spec's (or challenger's) figures."""
    lo, hi = a["avg_rank_ci95"]
    ci = f"{lo:.2f}-{hi:.2f}" if math.isfinite(lo) and math.isfinite(hi) else "-"
    counts = "/".join(str(c) for c in a["rank_counts"])
    text = (
        f"{a['name']:<{w}} {a['games']:>6} {a['avg_rank']:>9.3f} {ci:>11} {counts:>19} "
        f"{a['avg_final_score']:>+7.1f} "
        f"{_pm(*a['avg_final_score_ci95'], a['avg_final_score']):>6}"
    )
    if has_points:
        text += f" {a['avg_points']:>+7.1f} {_pm(*a['avg_points_ci95'], a['avg_points']):>6}"
    text += (
        f" {a['win_rate']:>6.1%} {_pm(*a['win_rate_ci95'], a['win_rate'], 100):>6}"
        f" {a['deal_in_rate']:>7.1%} {_pm(*a['deal_in_rate_ci95'], a['deal_in_rate'], 100):>6}"
        f" {a['riichi_rate']:>6.1%} {a['call_rate']:>6.1%} {a['avg_win']:>7.0f}"
    )
    if bots:
        text += f" {a['bot_errors']:>10}"
    return text


def _totals_lines(result: dict[str, Any], players: int) -> list[str]:
    """The lines under the rows: games, hands and draws, how the intervals were computed, the
    deal sets left out."""
    sets = result.get("deal_sets", result["games"] // players)
    if "challengers" in result:
        lines = [
            f"{result['games']} games per challenger ({_sets(sets)} x {players} seat rotations), "
            f"{len(result['challengers'])} challengers on the same walls against the same "
            f"opponents, {result['hands']} hands, exhaustive draws {result['draw_rate']:.1%}, "
            f"{result['seconds']:.1f} s of play"
        ]
    else:
        lines = [
            f"{result['games']} games ({_sets(sets)} x {players} seat rotations), "
            f"{result['hands']} hands, exhaustive draws {result['draw_rate']:.1%}, "
            f"{result['seconds']:.1f} s of play"
        ]
    lines.append(
        f"95 % intervals over the {sets} deal sets (each set of walls in every rotation is one "
        "draw; win and deal-in ± in points of %)"
        if sets >= 2
        else "no intervals: they need two deal sets or more"
    )
    lost = result.get("incomplete_deal_sets") or []
    if lost:
        lines.append(
            f"left out: {len(lost)} deal sets with a game lost (seeds {', '.join(map(str, lost[:10]))}"
            + (", ..." if len(lost) > 10 else "")
            + ")"
        )
    return lines


def _comparison_lines(result: dict[str, Any], has_points: bool) -> list[str]:
    """The paired differences of the result's comparisons (rank, score, points, the target's
    figure)."""
    comparisons = result.get("comparisons") or []
    if not comparisons:
        return []
    target = result.get("target") or {}
    keys = ["avg_rank", "avg_final_score"] + (["avg_points"] if has_points else [])
    if target.get("figure") and target["figure"] not in keys:
        keys.append(target["figure"])
    lines = [
        "paired differences on the same walls (A - B, 95 % interval, p-value of no "
        "difference, the smallest difference these games detect 80 % of the time):"
    ]
    for c in comparisons:
        lines.append(f"  {c['a']} - {c['b']}")
        for key in keys:
            lines.append(f"    {_difference_text(key, c['figures'][key])}")
    return lines


def _target_lines(target: dict[str, Any] | None) -> list[str]:
    """What ``target_ci`` reached (or did not) and the difference these games detect."""
    if not target:
        return []
    label, fmt, _ = _SHOWN[target["figure"]]
    width = target["width"]
    w_text = f"{width:{fmt}}" if math.isfinite(width) else "none"
    if target["reached"]:
        lines = [
            f"target: {label} of {target['of']}, 95 % interval narrower than "
            f"{target['target_ci']:{fmt}}: reached after {target['games']} games "
            f"({target['deal_sets']} deal sets; width {w_text})"
        ]
    else:
        more = (
            f"; about {target['games_needed']} games would reach it"
            if target["games_needed"]
            else ""
        )
        lines = [
            f"target: {label} of {target['of']}, 95 % interval narrower than "
            f"{target['target_ci']:{fmt}}: NOT reached, width {w_text} after "
            f"{target['games']} games (the cap: games, --games){more}"
        ]
    mde = target["min_detectable"]
    if math.isfinite(mde):
        lines.append(
            f"these games detect a true difference in {label} of {mde:{fmt}} "
            "(80 % of the time, at the 5 % level)"
        )
    return lines


def jsonable(value: Any) -> Any:
    """``value`` with every nan (an interval there was too little to compute) as None, for JSON."""
    if isinstance(value, float):
        return None if value != value else value
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


__all__ = [
    "FIGURES",
    "FIGURE_NAMES",
    "INTERVAL",
    "LOG_FORMATS",
    "arena",
    "avg_rank_interval",
    "challenge",
    "check_points",
    "figure_key",
    "format_table",
    "jsonable",
    "record_hash",
    "seat_stats",
]
