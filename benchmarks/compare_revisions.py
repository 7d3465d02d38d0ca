"""The hot paths at two git revisions, measured alternately in one run: rates and their ratio.

    python benchmarks/compare_revisions.py BASE [HEAD]
        [--only env,raw,vector,vector_u8,vector_t2,selfplay,dataset,dataset_w2,read,pack,cold]
        [--rounds 3] [--budget normal|tiny] [--workdir DIR]

``BASE`` and ``HEAD`` are git revisions (``main``, ``HEAD~3``, a hash); ``HEAD`` defaults to
``WORKTREE``, this checkout as it is on disk, uncommitted changes included. Each revision is
checked out once into a worktree of its own under ``--workdir`` (default
``<tmp>/riichi_env-compare``, kept for the next run) with a Numba cache of its own, and compiled
there before anything is timed. Then every round measures every row at both revisions, each
measurement in a fresh process (``_revision_child.py``), alternating which revision goes first
from round to round, so a slow spell of the machine hits both alike. A row keeps its best round;
the table also shows the slowest, the spread of the machine. ``ratio`` is of the best rounds;
``paired`` the median of each round's own ratio (its two measurements ran back to back), the one
to read for an effect of a few percent.

Rows (``--only``): ``env`` the wrapped PettingZoo ``env()`` with ``basic_v0`` and ``raw`` the
``raw_env``, random masked play in PettingZoo's loop (decisions/s); ``vector`` and ``vector_u8``
256 tables of ``vector_env`` with float32 and uint8 observations, random legal actions chosen in
NumPy (decisions/s), and ``vector_t2`` the float32 one in two threads (``threads=2``); ``selfplay`` compiled random self-play, one worker (decisions/s); ``dataset``
``riichi-env dataset DIR --out OUT`` with its defaults and one worker over mjai records of
compiled agents' hanchan, written once by this checkout (hanchan/s, and bytes a hanchan), and
``dataset_w2`` the same with ``--workers 2`` over each record linked 10 times; ``read``
``read_file`` of each of those records and ``pack`` ``pack_game(read_file(p), rules_for(game,
"auto"))`` of each, what the dataset does before the replay (hanchan a CPU second, in one process
after a warm-up pass);
``cold`` an empty cache to the first env step and then the first self-play hanchan (seconds; its
ratio is of speeds, so above 1 is faster too). A revision without a row's API shows ``n/a``.

Every change to one of these paths is compared against main before it lands
(``docs/internals.md``, "Guarding the hot paths"). ``--budget tiny`` runs each row for a moment
(the test suite checks that the script works; its figures mean nothing).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _bytecode import byte_compile

HERE = Path(
    os.path.abspath(__file__)
).parent  # symlinks kept: the kernel cache's folders follow them
ROOT = HERE.parent
CHILD = HERE / "_revision_child.py"
WORKTREE = "WORKTREE"

ROWS = {
    # row: (what it measures, unit, size at --budget normal, size at --budget tiny)
    "env": ("env() wrapped + basic_v0", "decisions/s", 20, 1),
    "raw": ("raw_env + basic_v0", "decisions/s", 20, 1),
    "vector": ("vector_env, 256 tables, float32", "decisions/s", 1500, 20),
    "vector_u8": ("vector_env, 256 tables, uint8", "decisions/s", 1500, 20),
    "vector_t2": ("vector_env, 256 tables, float32, threads=2", "decisions/s", 1500, 20),
    "selfplay": ("compiled random self-play, 1 worker", "decisions/s", 400, 2),
    "dataset": ("`riichi-env dataset`, defaults, 1 worker", "hanchan/s", 200, 3),
    "dataset_w2": ("`riichi-env dataset --workers 2`, each record 10 times", "hanchan/s", 200, 3),
    "read": ("`read_file` of mjai records", "hanchan/CPU s", 200, 3),
    "pack": ("`read_file` + `pack_game` of mjai records", "hanchan/CPU s", 200, 3),
    "cold": ("empty cache: env step + self-play hanchan", "s", 1, 1),
}
DEFAULT_ROWS = "env,raw,vector,vector_u8,vector_t2,selfplay,dataset,dataset_w2,read,pack,cold"
ON_RECORDS = ("dataset", "dataset_w2", "read", "pack")
"""Rows measured over the mjai records ``make_records`` writes."""


def git(*args: str, cwd: Path = ROOT) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"git {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout.strip()


class Revision:
    """A revision's checkout, its Numba cache and its label."""

    def __init__(self, spec: str, workdir: Path) -> None:
        self.spec = spec
        if spec == WORKTREE:
            self.label = "working tree"
            self.tree = ROOT
            self.cache = None  # this checkout's usual cache (RIICHI_ENV_CACHE or the default)
            byte_compile(self.tree)
            return
        found = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if found.returncode != 0:
            raise SystemExit(f"compare_revisions: {spec!r} is not a git revision of {ROOT}")
        sha = found.stdout.strip()
        self.label = f"{spec} ({sha[:9]})" if spec != sha else sha[:9]
        self.tree = workdir / f"tree-{sha[:12]}"
        self.cache = workdir / f"cache-{sha[:12]}"
        if not (self.tree / ".git").exists():
            git("worktree", "add", "--detach", "--force", str(self.tree), sha)
        elif git("rev-parse", "HEAD", cwd=self.tree) != sha:
            raise SystemExit(f"{self.tree} is not at {sha}: remove it and run again")
        byte_compile(self.tree)  # as installed: no module compiled again by each run

    def run(self, row: str, size: int, records: Path | None) -> dict:
        """One measurement in a fresh process at this revision."""
        env = {**os.environ, "PYTHONPATH": str(self.tree)}
        if self.cache is not None:
            env["RIICHI_ENV_CACHE"] = str(self.cache)
        env.pop("NUMBA_CACHE_DIR", None)
        args = [sys.executable, str(CHILD), row, str(size)]
        if records is not None:
            args.append(str(records))
        proc = subprocess.run(
            args, env=env, capture_output=True, text=True, cwd=tempfile.gettempdir()
        )
        if proc.returncode != 0:
            last = proc.stderr.strip().splitlines()[-1:] or ["no output"]
            return {"missing": f"failed: {last[0][:120]}"}
        return json.loads(proc.stdout.strip().splitlines()[-1])


def make_records(directory: Path, games: int) -> Path:
    """mjai records of ``games`` hanchan of compiled agents, written once by this checkout."""
    directory = directory / f"records-{games}"
    if directory.is_dir() and sum(1 for p in directory.iterdir() if p.is_file()) >= games:
        return directory
    directory.mkdir(parents=True, exist_ok=True)
    seats = "efficiency,simple,efficiency,simple"
    subprocess.run(
        [sys.executable, "-m", "riichi_env", "arena", "--seats", seats, "--games", str(games)]
        + ["--seed", "0", "--format", "mjai", "--log", str(directory)],
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    return directory


def rate(result: dict, row: str) -> float | None:
    """Work per second (for ``cold``: runs per second, the inverse of its seconds)."""
    if "missing" in result:
        return None
    return result["work"] / result["seconds"]


def show(values: list[float], row: str) -> str:
    if not values:
        return "n/a"
    unit = ROWS[row][1]
    if row == "cold":
        secs = sorted(1 / v for v in values)
        spread = f" (to {secs[-1]:.1f})" if len(secs) > 1 else ""
        return f"{secs[0]:.1f} s{spread}"
    fmt = "{:,.1f}" if unit.startswith("hanchan") else "{:,.0f}"
    best, worst = max(values), min(values)
    spread = f" (from {fmt.format(worst)})" if len(values) > 1 else ""
    return fmt.format(best) + spread


def paired(base: list[dict], head: list[dict], row: str) -> str:
    """The median over rounds of each round's head/base ratio of ``row``'s rates: a round's two
    measurements ran back to back, so a slow spell of the machine cancels out."""
    rates = [(rate(b, row), rate(h, row)) for b, h in zip(base, head, strict=True)]
    ratios = [h / b for b, h in rates if b and h]
    return f"{statistics.median(ratios):.3f}x" if ratios else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", help="the revision to compare against (e.g. main)")
    parser.add_argument("head", nargs="?", default=WORKTREE, help="default: this checkout as is")
    parser.add_argument("--only", default=DEFAULT_ROWS, help=f"rows (default {DEFAULT_ROWS})")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--budget", choices=("normal", "tiny"), default="normal")
    parser.add_argument("--workdir", type=Path, help="worktrees and caches (kept between runs)")
    args = parser.parse_args(argv)
    rows = [r for r in args.only.split(",") if r]
    unknown = [r for r in rows if r not in ROWS]
    if unknown or not rows:
        parser.error(f"unknown rows {unknown}; choose from {', '.join(ROWS)}")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    workdir = args.workdir or Path(tempfile.gettempdir()) / "riichi_env-compare"
    workdir.mkdir(parents=True, exist_ok=True)
    revisions = [Revision(args.base, workdir), Revision(args.head, workdir)]
    size = {r: ROWS[r][2 if args.budget == "normal" else 3] for r in rows}
    on_records = [r for r in rows if r in ON_RECORDS]
    records = make_records(workdir, max(size[r] for r in on_records)) if on_records else None

    start = time.perf_counter()
    load = os.getloadavg()[0]
    for rev in revisions:  # compile each revision's kernels before timing anything
        print(f"compiling {rev.label} ...", file=sys.stderr, flush=True)
        for row in rows:
            if row != "cold":
                rev.run(row, ROWS[row][3], records if row in ON_RECORDS else None)
    results: dict[str, list[list[dict]]] = {r: [[], []] for r in rows}
    for k in range(args.rounds):
        order = (0, 1) if k % 2 == 0 else (1, 0)
        for row in rows:
            for i in order:
                res = revisions[i].run(row, size[row], records if row in ON_RECORDS else None)
                results[row][i].append(res)
        print(f"round {k + 1}/{args.rounds} done", file=sys.stderr, flush=True)

    base, head = revisions
    print(
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
        f"{args.rounds} alternating rounds, best kept (the slowest in brackets); "
        f"load average {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end; "
        f"{time.perf_counter() - start:.0f} s\n"
    )
    print(f"| row | unit | {base.label} | {head.label} | ratio | paired |")
    print("|---|---|---:|---:|---:|---:|")
    failed = False

    for row in rows:
        what, unit = ROWS[row][:2]
        rates = [
            [v for res in results[row][i] if (v := rate(res, row)) is not None] for i in (0, 1)
        ]
        cells = [show(rates[i], row) for i in (0, 1)]
        for i in (0, 1):
            if not rates[i]:
                cells[i] += f" ({results[row][i][0]['missing']})"
        ratio = f"{max(rates[1]) / max(rates[0]):.2f}x" if rates[0] and rates[1] else "-"
        print(
            f"| {row}: {what} | {unit} | {cells[0]} | {cells[1]} | {ratio} | {paired(*results[row], row)} |"
        )
        failed |= not rates[1]
        if row == "dataset":
            per = [
                [res["bytes"] / res["work"] for res in results[row][i] if "bytes" in res]
                for i in (0, 1)
            ]
            if per[0] or per[1]:
                mb = [f"{p[0] / 1e6:.2f}" if p else "n/a" for p in per]
                print(f"| dataset: disk a hanchan | MB | {mb[0]} | {mb[1]} | | |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
