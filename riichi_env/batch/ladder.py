"""The ladder: every entrant against the same fixed field, on walls everyone can play again.

```python
from riichi_env.batch.ladder import ladder, format_ladder

out = ladder(["random", "simple", "efficiency", "greedy"], field=["random", "simple", "efficiency"],
             games=400)
print(format_ladder(out))
```

Each entrant sits in one seat against the ``field`` (one policy per other seat: by default the
anchors ``random``, ``simple`` and ``efficiency``; ``simple`` and ``efficiency`` with three
players) and plays the duplicate games of ``riichi_env.batch.arena.challenge``: every entrant
meets the same walls, in every seat rotation, against the same opponents, so two entrants'
difference on a deal set is what the walls and the field left, and a ladder played again with
the same seed key, games and rules plays the same games (``records_sha256`` says so, game by
game). The walls come from a published seed key (``DEFAULT_SEED_KEY``): its first seed is
``seed_of(key)``, deal set ``k`` is that plus ``k``.

The result ranks the entrants by ``by`` (``"score"``: the preset's final score with uma and oka;
``"points"``: a placement-points table; ``"rank"``: average rank), each with its 95 % interval
(deal sets as the unit, ``riichi_env.batch.stats``), and the paired difference of each entrant
with the next one down (interval and p-value). ``manifest`` lists what was run so the result can
be reproduced and checked; ``plot_ladder`` draws it (matplotlib, the ``plot`` extra).
"""

from __future__ import annotations

import hashlib
import math
import platform
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.arguments import SEED_MAX, describe
from riichi_env.batch.arena import _SHOWN, _p_text, _policy_list, challenge, jsonable
from riichi_env.batch.play import _name
from riichi_env.extras import MissingExtraError

DEFAULT_SEED_KEY = "riichi-env-ladder-1"
"""The published seed key of the ladder: anyone's ladder on it plays the same walls."""
ANCHORS = ("random", "simple", "efficiency")
"""Entrants every ladder has, so that ladders run apart can be read against each other."""
FIELD = {4: ("random", "simple", "efficiency"), 3: ("simple", "efficiency")}
"""The default opponents, by players: one per seat besides the entrant's."""
BY = {"score": "avg_final_score", "points": "avg_points", "rank": "avg_rank"}
"""What the ladder ranks by (``by``): the figure's key."""


def seed_of(key: str) -> int:
    """The first seed of a seed key: the first 8 bytes of its SHA-256, in the seed range with
    room for 2**40 deal sets after it."""
    if not isinstance(key, str) or not key:
        raise ValueError(f"seed_key must be a non-empty string, got {describe(key)}")
    value = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")
    return value % (SEED_MAX - (1 << 40))


def ladder(
    entrants: Sequence[Any],
    *,
    games: int,
    names: Sequence[str] | None = None,
    field: Sequence[Any] | None = None,
    field_names: Sequence[str] | None = None,
    seed_key: str = DEFAULT_SEED_KEY,
    rules: Any = "mahjongsoul",
    points: Sequence[float] | None = None,
    by: str = "score",
    workers: int = 1,
    runner: Callable[..., dict[str, Any]] | None = None,
    bot_errors: str = "stop",
    progress: bool | None = None,
    log_dir: Any = None,
    log_format: str = "mjai",
    overwrite: bool = False,
) -> dict[str, Any]:
    """Each of ``entrants`` (two or more policies, ``names`` their labels) against ``field``
    (default ``FIELD``) for ``games`` games each on the walls of ``seed_key``, ranked by ``by``
    (module docstring). ``points`` is a placement-points table (needed for ``by="points"``);
    the other arguments are ``challenge``'s.

    The result is ``challenge``'s with ``ladder``: the entrants' rows best first, each with
    ``place``, ``by``'s ``value`` and ``ci95``, and ``next``: its paired difference with the
    entrant placed below it (``difference``, ``ci95``, ``p_value``), and ``seed_key``, ``seed``,
    ``by``, ``field``.
    """
    from engine.rules import as_rules

    players = as_rules(rules).players
    entrants, names = _check_ladder(entrants, names, by, points)
    if field is None:
        field = list(FIELD[players])
        field_names = list(field) if field_names is None else field_names
    seed = seed_of(seed_key)
    out = challenge(
        entrants,
        list(field),
        games=games,
        seed=seed,
        workers=workers,
        names=names,
        opponent_names=field_names,
        rules=rules,
        log_dir=log_dir,
        log_format=log_format,
        overwrite=overwrite,
        progress=progress,
        runner=runner,
        bot_errors=bot_errors,
        points=points,
    )
    out["ladder"] = _ranking(out, BY[by], better_low=by == "rank")
    out["by"] = by
    out["seed_key"] = seed_key
    out["seed"] = seed
    out["field"] = list(field_names) if field_names is not None else [_label(p) for p in field]
    return out


def _check_ladder(
    entrants: Sequence[Any], names: Sequence[str] | None, by: str, points: Any
) -> tuple[list, list[str] | None]:
    """The checks ``ladder`` makes before ``challenge``'s: ``by``, the entrants and their
    names (distinct); the entrants and the names as lists."""
    if by not in BY:
        raise ValueError(f"by must be one of {', '.join(BY)}, got {describe(by)}")
    if by == "points" and points is None:
        raise ValueError("by='points' needs a points table (points=..., --points)")
    entrants = _policy_list("entrants", entrants, "two or more", lambda n: n >= 2)
    if names is not None:
        names = list(names)
        if len(set(names)) != len(names):
            raise ValueError(f"names must be distinct, got {describe(names)}")
    return entrants, names


def _ranking(out: dict[str, Any], key: str, better_low: bool) -> list[dict[str, Any]]:
    """The entrants' rows of ``challenge``'s result ``out`` ranked by figure ``key`` (lower is
    better with ``better_low``), each with its place and its difference with the next down."""
    agents = out["agents"]
    better = (lambda v: v) if better_low else (lambda v: -v)
    order = sorted(range(len(agents)), key=lambda i: (better(agents[i][key]), i))
    pairs = {(c["a"], c["b"]): c for c in out["comparisons"]}
    rows = []
    for place, i in enumerate(order, start=1):
        row = agents[i]
        entry = {
            "place": place,
            "name": row["name"],
            "value": row[key],
            "ci95": row[f"{key}_ci95"],
            "next": None,
        }
        if place < len(order):
            entry["next"] = _next_down(pairs, row["name"], agents[order[place]]["name"], key)
        rows.append(entry | {"row": row})
    return rows


def _next_down(pairs: dict[tuple[str, str], dict], name: str, below: str, key: str) -> dict:
    """The paired difference in ``key`` of entrant ``name`` with ``below``, whichever way round
    ``pairs`` (the comparisons by their two names) has it."""
    c = pairs.get((name, below))
    sign = 1.0
    if c is None:
        c, sign = pairs[(below, name)], -1.0
    f = c["figures"][key]
    lo, hi = f["ci95"]
    return {
        "name": below,
        "difference": sign * f["difference"],
        "ci95": [lo, hi] if sign > 0 else [-hi, -lo],
        "p_value": f["p_value"],
    }


def _label(policy: Any) -> str:
    return _name(policy)


def format_ladder(result: dict[str, Any]) -> str:
    """The ladder as a plain-text table, best first: the ranking figure with its interval, the
    average rank, and the difference with the next entrant down (its interval and p-value)."""
    key = BY[result["by"]]
    label, fmt, _ = _SHOWN[key]
    w = max([5] + [len(r["name"]) for r in result["ladder"]])
    head = (
        f"{'place':>5}  {'entrant':<{w}} {'games':>6} {label:>8} {'95% CI':>17} {'avg rank':>9}"
        f"  {'vs next: difference (95% CI), p':<40}"
    )
    lines = [head, "-" * len(head)]
    for r in result["ladder"]:
        lo, hi = r["ci95"]
        ci = f"{lo:{fmt}} to {hi:{fmt}}" if math.isfinite(lo) and math.isfinite(hi) else "-"
        nxt = ""
        if r["next"] is not None:
            n = r["next"]
            a, b = n["ci95"]
            if math.isfinite(a) and math.isfinite(b):
                p_text = _p_text(n["p_value"])
                nxt = f"{n['difference']:+{fmt}} ({a:+{fmt}} to {b:+{fmt}}), {p_text}"
            else:
                nxt = f"{n['difference']:+{fmt}} (no interval)"
        row = r["row"]
        value = f"{r['value']:{'+' if key != 'avg_rank' else ''}{fmt}}"
        lines.append(
            f"{r['place']:>5}  {r['name']:<{w}} {row['games']:>6} {value:>8} "
            f"{ci:>17} {row['avg_rank']:>9.3f}  {nxt}"
        )
    sets = result["deal_sets"]
    lines.append(
        f"each entrant: {result['games']} games ({sets} deal sets x {result['players']} seat "
        f"rotations) against {', '.join(result['field'])} on the walls of seed key "
        f"{result['seed_key']!r} (first seed {result['seed']}); 95 % intervals over the deal sets"
    )
    if result.get("points_table") is not None and result["by"] == "points":
        lines.append(f"points table: {', '.join(f'{p:g}' for p in result['points_table'])}")
    if result.get("incomplete_deal_sets"):
        lost = result["incomplete_deal_sets"]
        lines.append(f"left out: {len(lost)} deal sets with a game lost")
    return "\n".join(lines)


def ladder_json(result: dict[str, Any]) -> dict[str, Any]:
    """What ``riichi-env ladder --json`` prints: the ranking and how it was played (JSON-safe)."""
    doc = {
        "by": result["by"],
        "players": result["players"],
        "games": result["games"],
        "deal_sets": result["deal_sets"],
        "seed_key": result["seed_key"],
        "seed": result["seed"],
        "field": result["field"],
        "points_table": result["points_table"],
        "interval": result["interval"],
        "ladder": result["ladder"],
        "comparisons": result["comparisons"],
        "incomplete_deal_sets": result["incomplete_deal_sets"],
    }
    return jsonable(doc)


def versions() -> dict[str, str]:
    """The versions a result depends on: riichi_env, Python, numpy, numba, the platform."""
    import numba
    import numpy

    import riichi_env

    return {
        "riichi_env": riichi_env.__version__,
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "platform": platform.platform(),
    }


def manifest(
    result: dict[str, Any],
    *,
    specs: Sequence[str],
    command: Sequence[str] | None = None,
    rules: Any = "mahjongsoul",
) -> dict[str, Any]:
    """What was run, so a ladder can be played again and checked: the specs, the command, the
    versions, the seeds, the rules, and the SHA-256 of every game's event log
    (``riichi_env.batch.arena.record_hash``; by entrant, deal set and rotation) with one digest
    over them all in that order."""
    import dataclasses

    from engine.rules import as_rules

    r = as_rules(rules)
    games = []
    digest = hashlib.sha256()
    for name, by_set in zip(result["challengers"], result["records_sha256"], strict=True):
        for k, rotations in enumerate(by_set):
            for rotation, h in enumerate(rotations):
                if h is None:
                    continue
                digest.update(h.encode("ascii"))
                games.append(
                    {
                        "entrant": name,
                        "deal_set": k,
                        "seed": result["seed"] + k,
                        "rotation": rotation,
                        "sha256": h,
                    }
                )
    return jsonable(
        {
            "specs": list(specs),
            "entrants": list(result["challengers"]),
            "field": result["field"],
            "command": list(command) if command is not None else None,
            "versions": versions(),
            "created_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "rules": {"preset": r.name, **{k: v for k, v in dataclasses.asdict(r).items()}},
            "seed_key": result["seed_key"],
            "seeds": {"first": result["seed"], "deal_sets": result["deal_sets"]},
            "games_per_entrant": result["games"],
            "by": result["by"],
            "points_table": result["points_table"],
            "ladder": [
                {"place": x["place"], "name": x["name"], "value": x["value"], "ci95": x["ci95"]}
                for x in result["ladder"]
            ],
            "records": {
                "hash": "SHA-256 of each game's engine event log (int32 little-endian rows, in "
                "order); the same games give the same hashes on any machine and backend",
                "digest": digest.hexdigest(),
                "games": games,
            },
        }
    )


def import_pyplot() -> Any:
    """``matplotlib.pyplot`` on the file-only Agg backend; ``MissingExtraError`` without
    matplotlib (the ``plot`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ModuleNotFoundError as exc:
        raise MissingExtraError(
            "riichi-env ladder --plot needs matplotlib: install the plot extra: "
            "pip install -e '.[plot]'",
            name=exc.name,
        ) from exc
    return plt


def plot_ladder(result: dict[str, Any], path: Any, anchors: Sequence[str] = ANCHORS) -> None:
    """Draw the ladder into a PNG at ``path``: each entrant's figure with its 95 % interval, best
    at the top, the anchors in grey (matplotlib, the ``plot`` extra)."""
    plt = import_pyplot()
    key = BY[result["by"]]
    label = {"avg_final_score": "final score (uma, oka)", "avg_points": "placement points"}.get(
        key, "average rank (1 = first)"
    )
    rows = result["ladder"]
    y = list(range(len(rows)))[::-1]
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.45 * len(rows)))
    for yy, r in zip(y, rows, strict=True):
        lo, hi = r["ci95"]
        color = "0.55" if r["name"] in anchors else "C0"
        if math.isfinite(lo) and math.isfinite(hi):
            ax.errorbar(
                r["value"],
                yy,
                xerr=[[r["value"] - lo], [hi - r["value"]]],
                fmt="o",
                color=color,
                capsize=4,
            )
        else:
            ax.plot(r["value"], yy, "o", color=color)
    ax.set_yticks(y)
    ax.set_yticklabels(
        [r["name"] if len(r["name"]) <= 40 else r["name"][:37] + "..." for r in rows]
    )
    ax.set_xlabel(f"{label}, 95 % interval over {result['deal_sets']} deal sets")
    if key == "avg_rank":
        ax.invert_xaxis()
    ax.set_title(
        f"ladder: {result['games']} games each against {', '.join(result['field'])}", fontsize=10
    )
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


__all__ = [
    "ANCHORS",
    "BY",
    "DEFAULT_SEED_KEY",
    "FIELD",
    "format_ladder",
    "ladder",
    "ladder_json",
    "manifest",
    "plot_ladder",
    "seed_of",
]
