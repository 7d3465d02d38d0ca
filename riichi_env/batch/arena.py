"""The arena: which of four seat policies is stronger, measured with duplicate play.

With three-player rules (``rules="mahjongsoul-3p"`` / ``"tenhou-3p"``, issue 26) it takes three
seats and plays sets of three games (three rotations), ranks 1-3; ``log_dir`` gets three-player
records.

```python
from riichi_env.batch.arena import arena, format_table

out = arena(["efficiency-agent-object", "random", "random", "random"], games=400, seed=0)
print(format_table(out))
```

Duplicate play: the games come in sets of four that share their walls (one game seed), each
played with the seats rotated, so every policy sits in every seat of the same deal and the luck
of the walls cancels. ``games`` is rounded up to a multiple of four; set ``k`` is seed
``seed + k``. A policy is anything ``riichi_env.selfplay`` takes (a compiled policy name, a batched
callable, an agent object); policies with the same ``names`` entry are pooled into one row.

Per row: ``games`` (seat-games played), ``avg_rank`` (1 = first) with a 95 % interval
(``avg_rank_interval``: a Wilson score interval on the rank scale, inside [1, 4] by construction
and close to the normal approximation once the games are many), ``rank_counts``,
``avg_final_score`` (``(points - return) / 1000 + uma + oka``), ``win_rate`` / ``deal_in_rate`` / ``riichi_rate`` / ``call_rate`` (shares
of the hands the policy played: won, dealt into a ron, declared riichi, made an open call) and
``avg_win`` (points gained by a win, honba and riichi sticks included), and ``bot_errors``: the
bad answers of an external bot (``riichi_env.mjai.seat``) that were replaced by a default move
with ``bot_errors="substitute"`` (always 0 for other policies, and with ``"stop"``, where the
first one ends the run). ``draw_rate`` is the share of hands that ended in an exhaustive draw
(nagashi mangan included).
"""

from __future__ import annotations

import functools
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

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
from engine.validation import check_bool, check_int, describe
from riichi_env.batch.play import ProgressLine, _name, _policies, selfplay
from riichi_env.batch.policy import PolicyLike
from riichi_env.mjai.seat import check_bot_errors, is_log_policy

LOG_FORMATS = {"mjai": ".mjson", "tenhou6": ".json"}
"""Formats ``log_dir`` writes, with their file suffixes."""


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
    The result has ``external_bots``: True when a seat is an external bot (``format_table`` then
    shows the ``bot_errors`` column). ``progress`` draws one live line on stderr for the whole
    run, ``arena: done/total games`` (default: when stderr is a terminal).
    """
    from engine.rules import as_rules

    players = as_rules(rules).players
    word = {3: "three", 4: "four"}[players]
    if players == 3 and isinstance(seats, (list, tuple)) and len(seats) == 3:
        policies = _policies([*seats, "random"])[:3]  # selfplay's checks of each seat
    else:
        policies = _policies(list(seats) if isinstance(seats, (list, tuple)) else seats)
        if players == 3:
            raise ValueError(f"three-player rules take three seats, got {len(policies)}")
    if names is None:
        names = [_name(p) for p in policies]
    names = list(names)
    if len(names) != players or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names must be {word} strings, got {describe(names)}")
    games = check_int("games", games, 1)
    bot_errors = check_bot_errors(bot_errors)
    show = sys.stderr.isatty() if progress is None else check_bool("progress", progress)
    sets = math.ceil(games / players)
    if log_format not in LOG_FORMATS:
        raise ValueError(f"unknown log format {log_format!r}; choose from {sorted(LOG_FORMATS)}")
    out_dir = None
    if log_dir is not None:
        from riichi_env.records.files import log_directory

        names_out = (_log_name(k, r, log_format) for k in range(sets) for r in range(players))
        out_dir = log_directory(log_dir, names_out, overwrite=overwrite)
    run = runner if runner is not None else functools.partial(selfplay, workers=workers)
    labels = list(dict.fromkeys(names))  # distinct seat specs, first-seat order
    acc = {
        label: {k: [] for k in ("ranks", "scores")}
        | {
            k: 0
            for k in ("hands", "wins", "deal_ins", "riichi", "calls", "win_points", "bot_errors")
        }
        for label in labels
    }
    total_hands = 0
    total_draws = 0
    seconds = 0.0
    line = ProgressLine("arena", players * sets) if show else None
    try:
        for rotation in range(players):
            at_seat = [
                (s + rotation) % players for s in range(players)
            ]  # seat s: seats[at_seat[s]]
            out = run(
                [policies[i] for i in at_seat],
                games=sets,
                seed=seed,
                rules=rules,
                records="events",
                progress=functools.partial(_report, line, rotation * sets) if line else False,
                bot_errors=bot_errors,
            )
            seconds += out["seconds"]
            for k, (res, rows) in enumerate(zip(out["results"], out["records"], strict=True)):
                stats = seat_stats(rows)
                total_hands += int(stats["hands"][0])
                total_draws += int(stats["draws"])
                for s in range(players):
                    a = acc[names[at_seat[s]]]
                    a["ranks"].append(res["ranks"][s] + 1)
                    a["scores"].append(res["final_scores"][s])
                    a["bot_errors"] += int(res["bot_errors"][s])
                    for key in ("hands", "wins", "deal_ins", "riichi", "calls", "win_points"):
                        a[key] += int(stats[key][s])
                if out_dir is not None:
                    _write_log(
                        out_dir,
                        log_format,
                        rows,
                        rules,
                        [names[i] for i in at_seat],
                        k,
                        rotation,
                        overwrite,
                    )
    finally:
        if line is not None:
            line.close()  # one line for the whole run, ended once
    agents = []
    for label in labels:
        a = acc[label]
        ranks = np.array(a["ranks"], dtype=np.float64)
        n = ranks.size
        mean = float(ranks.mean())
        rank_counts = [int((ranks == r).sum()) for r in range(1, players + 1)]
        hands = max(a["hands"], 1)
        agents.append(
            {
                "name": label,
                "seat_spec": label,
                "games": n,
                "avg_rank": mean,
                "avg_rank_ci95": list(avg_rank_interval(rank_counts, places=players)),
                "rank_counts": rank_counts,
                "avg_final_score": float(np.mean(a["scores"])),
                "win_rate": a["wins"] / hands,
                "deal_in_rate": a["deal_ins"] / hands,
                "riichi_rate": a["riichi"] / hands,
                "call_rate": a["calls"] / hands,
                "avg_win": a["win_points"] / a["wins"] if a["wins"] else 0.0,
                "bot_errors": a["bot_errors"],
            }
        )
    return {
        "players": players,
        "games": players * sets,
        "hands": total_hands,
        "draw_rate": total_draws / max(total_hands, 1),
        "seconds": seconds,
        "agents": agents,
        "external_bots": any(is_log_policy(p) for p in policies),
    }


def _report(line: ProgressLine, before: int, done: int) -> None:
    """The arena's one progress line: the games of the rotations before, and this one's."""
    line(before + done)


def _log_name(k: int, rotation: int, fmt: str) -> str:
    return f"set-{k:05d}-rotation-{rotation}{LOG_FORMATS[fmt]}"


def _write_log(
    out_dir: Path, fmt: str, rows, rules, names, k: int, rotation: int, overwrite: bool = False
) -> None:
    from engine.rules import as_rules
    from riichi_env.records import write_text
    from riichi_env.records.export import game_from_events
    from riichi_env.records.files import create_file

    game = game_from_events(rows, as_rules(rules), names=tuple(names), source="riichi_env arena")
    create_file(out_dir / _log_name(k, rotation, fmt), write_text(game, fmt), overwrite=overwrite)


def format_table(result: dict[str, Any]) -> str:
    """The arena's result as a plain-text table, one row per seat spec (a ``bot errors`` column
    when a seat is an external bot)."""
    w = max([5] + [len(a["name"]) for a in result["agents"]])
    bots = bool(result.get("external_bots"))
    players = result.get("players", 4)
    places = "1st/2nd/3rd/4th" if players == 4 else "1st/2nd/3rd"
    head = (
        f"{'agent':<{w}} {'games':>6} {'avg rank':>9} {'95% CI':>13} {places:>19} "
        f"{'score':>7} {'win':>6} {'deal-in':>7} {'riichi':>6} {'call':>6} {'avg win':>7}"
    )
    if bots:
        head += f" {'bot errors':>10}"
    lines = [head, "-" * len(head)]
    for a in result["agents"]:
        lo, hi = a["avg_rank_ci95"]
        counts = "/".join(str(c) for c in a["rank_counts"])
        lines.append(
            f"{a['name']:<{w}} {a['games']:>6} {a['avg_rank']:>9.3f} "
            f"{f'{lo:.2f}-{hi:.2f}':>13} {counts:>19} {a['avg_final_score']:>7.1f} "
            f"{a['win_rate']:>6.1%} {a['deal_in_rate']:>7.1%} {a['riichi_rate']:>6.1%} "
            f"{a['call_rate']:>6.1%} {a['avg_win']:>7.0f}"
            + (f" {a['bot_errors']:>10}" if bots else "")
        )
    lines.append(
        f"{result['games']} games ({result['games'] // players} walls x {players} seat rotations), "
        f"{result['hands']} hands, exhaustive draws {result['draw_rate']:.1%}, "
        f"{result['seconds']:.1f} s of play"
    )
    return "\n".join(lines)


__all__ = ["LOG_FORMATS", "arena", "avg_rank_interval", "format_table", "seat_stats"]
