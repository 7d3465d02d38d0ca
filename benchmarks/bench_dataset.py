"""Game records to training arrays: games/s and decisions/s, next to RiichiEnv's own replay path.

    python benchmarks/bench_dataset.py [--records DIR] [--games 200] [--repeats 3]
        [--riichienv-python /tmp/renv/bin/python] [--workers 2] [--games-3p 100] [--many 10000]
        [--install-python /tmp/venv-user/bin/python]

Both sides convert the same mjai records (``--records``; generated once when the directory has
none: ``riichi-env arena --seats efficiency,simple,efficiency,simple --games 200 --seed 0
--format mjai --log DIR``). RiichiEnv's path (``_riichienv_dataset.py``, run by
``--riichienv-python``): ``MjaiReplay.from_jsonl(path).take_kyokus()``, ``kyoku.steps(seat)`` for
each hand and seat, ``obs.encode()`` and ``obs.mask()`` at each step. Ours:
``Converter(...).convert(path)`` per file in this process (one core), for ``basic_v0`` (also with
``reuse=True``: no copy out of the converter's buffers, and with ``skip_forced``), ``rich_v0``,
the oracle column and uint8 observations; ``riichi_env.dataset.io.iter_batches`` with 1 and
``--workers`` worker processes; and ``riichi-env dataset`` end to end, the documented path (a new
interpreter each run: shards of packed games, with 1 and ``--workers`` workers, and the rows
layout in float32 and uint8), with its disk a hanchan and the peak RSS of its largest process.
With ``--install-python PY``, ``riichi-env dataset`` also runs in another environment: ``PY`` is
the Python of a virtual environment where this checkout is installed, such as the README's
(``pip install -e ".[dev]"``) or a plain ``pip install .``, without the extras that bring SciPy
(Ray, RLlib), which Numba imports at its first kernel load (0.12 s); run outside the checkout
with a kernel cache of its own (filled by a first run that is not timed); its row says whether
that environment has SciPy.
With ``--many N``, another table times ``riichi-env dataset`` on
``N`` files (the records linked over and over) with 1 and ``--workers`` workers, alternating,
best of ``--repeats`` by wall time: how the workers scale once the fixed start is small beside
the work. A second table reads the packed shards back with ``iter_shard_batches`` on one core
(float32 batches in order and shuffled, uint8 shuffled). Each row is the best of ``--repeats``
passes over all files by CPU time (``time.process_time``: user + system time of this process);
the ``iter_batches`` rows by wall time. A second table splits one core's CPU time per hanchan into
reading, packing, the compiled replay (with the masks), encoding and the copy out.

Three players: ``--games-3p`` three-player hanchan (``riichi-env arena --rules
mahjongsoul-3p --seats efficiency,simple,efficiency --games 100 --seed 0 --format mjai --log DIR``,
generated once into a directory of their own, or ``--records-3p DIR``) converted with
``basic3_v0`` (also uint8); RiichiEnv's column stays empty for them (its path above is
four-player).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _bytecode import byte_compile

HERE = Path(__file__).resolve().parent
DEFAULT_PEER = "/tmp/renv/bin/python"
PEER_VERSION = "0.4.11"
SEATS = ["efficiency", "simple", "efficiency", "simple"]
SEATS_3P = ["efficiency", "simple", "efficiency"]
"""The three-player records' seats (three rotations of a set of walls: three different games)."""
"""Two compiled agents of each kind, so the four seat rotations of a set of walls are four
different games (four identical agents would play one game four times)."""
MAKE_PEER = (
    f"python3 -m venv /tmp/renv && /tmp/renv/bin/pip install riichienv=={PEER_VERSION} numpy"
)


def records(
    directory: Path | None, games: int, seed: int, players: int = 4
) -> tuple[list[Path], str]:
    """The mjai record files to convert, generated first when the directory has none (three
    players: ``mahjongsoul-3p`` games of ``SEATS_3P``)."""
    if directory is None:
        tag = "-3p" if players == 3 else ""
        directory = (
            Path(tempfile.gettempdir()) / f"riichi-env-bench-records{tag}-esg{games}-s{seed}"
        )
    found = sorted(p for p in directory.glob("*.mjson") if p.is_file())
    if found:
        return found, f"{len(found)} records in {directory}"
    from riichi_env.batch.arena import arena

    t0 = time.perf_counter()
    seats, rules = (SEATS_3P, "mahjongsoul-3p") if players == 3 else (SEATS, "mahjongsoul")
    arena(
        seats,
        games=games,
        seed=seed,
        rules=rules,
        log_dir=directory,
        log_format="mjai",
        progress=False,
    )
    found = sorted(directory.glob("*.mjson"))
    took = time.perf_counter() - t0
    return found, f"{len(found)} records generated into {directory} ({took:.0f} s)"


def peer(python: str, paths: list[Path], repeats: int) -> tuple[dict | None, str]:
    """RiichiEnv's result (``_riichienv_dataset.py``), or None and why not."""
    if not Path(python).exists():
        return None, f"{python} missing; make it with: {MAKE_PEER}"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("".join(f"{p}\n" for p in paths))
        listing = fh.name
    try:
        proc = subprocess.run(
            [python, str(HERE / "_riichienv_dataset.py"), listing, str(repeats)],
            capture_output=True,
            text=True,
            env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        )
    except OSError as exc:
        return None, f"{python} cannot run ({exc.strerror}); make it with: {MAKE_PEER}"
    finally:
        os.unlink(listing)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"RiichiEnv failed on the records: {last}"
    return json.loads(proc.stdout.strip().splitlines()[-1]), f"{python}"


def ours(paths: list[Path], repeats: int, reuse: bool = False, **options) -> dict:
    """The best of ``repeats`` passes of ``Converter(**options).convert`` over ``paths``."""
    from riichi_env.dataset import Converter

    Converter(**options).convert(paths[0])  # warm-up: loads (or compiles) the kernels
    best = None
    for _ in range(repeats):
        conv = Converter(**options)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for p in paths:
            conv.convert(p, reuse=reuse)
        run = {
            "games": conv.stats.games,
            "decisions": conv.stats.decisions,
            "skipped": len(conv.stats.skipped),
            "cpu": time.process_time() - cpu0,
            "wall": time.perf_counter() - wall0,
        }
        if best is None or run["cpu"] < best["cpu"]:
            best = run
    return best


def batches(paths: list[Path], workers: int, repeats: int, **options) -> dict:
    """The best of ``repeats`` passes of ``iter_batches(paths, workers=...)`` by wall time (the
    workers are the forkserver's children, so their CPU time is not this process's to read), with
    the time to the first batch and the rate over the second half of the files."""
    from riichi_env.dataset.io import iter_batches

    best = None
    for _ in range(repeats):
        done: dict[int, float] = {}
        wall0 = time.perf_counter()

        def progress(n: int, done=done, wall0=wall0) -> None:
            done.setdefault(n, time.perf_counter() - wall0)

        it = iter_batches(paths, 4096, workers=workers, progress=progress, **options)
        rows = first = 0
        for b in it:
            first = first or time.perf_counter() - wall0
            rows += len(b["action"])
        half = len(paths) // 2
        run = {
            "games": it.stats.games,
            "decisions": rows,
            "skipped": len(it.stats.skipped),
            "cpu": None,
            "wall": time.perf_counter() - wall0,
            "first": first,
            "steady": (len(paths) - half) / max(done[len(paths)] - done.get(half, 0.0), 1e-9),
        }
        if best is None or run["wall"] < best["wall"]:
            best = run
    return best


_MEASURE = (
    "import json, resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
    "wall = time.perf_counter() - t\n"
    "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(json.dumps({'status': p.returncode, 'wall': wall, 'cpu': u.ru_utime + u.ru_stime,"
    " 'maxrss_kb': u.ru_maxrss, 'err': p.stderr.decode()[-300:]}))\n"
)
"""Runs a command and prints its wall time, CPU time and the peak RSS of its largest process
(``ru_maxrss`` of the waited-for children: the command, its forkserver and the workers)."""


def cli(paths: list[Path], repeats: int, *args: str, python: str | None = None) -> dict:
    """``riichi-env dataset DIR --out OUT ARGS`` on the records (a folder of links to them), end
    to end: interpreter start, reading, checking, writing; the best of ``repeats`` by wall time,
    with the shard set's bytes and the peak RSS. ``python``: the interpreter of an install of
    riichi-env, run outside the checkout with a kernel cache of its own, after one untimed run
    (default: this interpreter and checkout)."""
    from riichi_env.dataset.shards import shard_bytes

    if python is None:
        byte_compile(HERE.parent)  # as installed: no module compiled again by each run
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "records"
        folder.mkdir()
        for i, p in enumerate(paths):  # numbered: a file may be linked more than once
            os.symlink(p.resolve(), folder / f"{i:06d}-{p.name}")
        env = None
        if python is not None:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            env["RIICHI_ENV_CACHE"] = str(Path(tmp) / "cache")
        best = None
        for k in range(repeats + (python is not None)):
            out = Path(tmp) / f"out{k}"
            cmd = [python or sys.executable, "-m", "riichi_env", "dataset", str(folder)]
            proc = subprocess.run(
                [sys.executable, "-c", _MEASURE, *cmd, "--out", str(out), *args],
                capture_output=True,
                text=True,
                cwd=tmp if python is not None else None,
                env=env,
            )
            run = json.loads(proc.stdout.strip().splitlines()[-1])
            if run["status"] != 0:
                raise RuntimeError(f"riichi-env dataset {' '.join(args)} failed: {run['err']}")
            manifest = json.loads((out / "manifest.json").read_text())
            run.update(
                games=manifest["games"],
                decisions=manifest["rows"],
                bytes=shard_bytes(out),
                skipped=len(manifest["skipped"]),
            )
            if python is not None and k == 0:
                continue  # the install's first run fills its kernel cache
            if best is None or run["wall"] < best["wall"]:
                best = run
        return best


def many_files(paths: list[Path], n: int, workers: int, repeats: int) -> dict[int, dict]:
    """``riichi-env dataset`` on ``n`` files (the records linked over and over) with 1 and
    ``workers`` workers, the two alternating ``repeats`` times; the best run of each by wall
    time."""
    files = [paths[i % len(paths)] for i in range(n)]
    best: dict[int, dict] = {}
    for _ in range(repeats):
        for w in sorted({1, workers}):
            run = cli(files, 1, "--workers", str(w))
            if w not in best or run["wall"] < best[w]["wall"]:
                best[w] = run
    return best


def loader(paths: list[Path], repeats: int) -> list[tuple[str, dict]]:
    """``iter_shard_batches`` over a games shard set of the records (written once): batches of
    1024 float32 rows in order and shuffled (a 65,536-row buffer), uint8 shuffled; rows/s by CPU
    and by wall time (one core, this process)."""
    from riichi_env.dataset.io import write_shards
    from riichi_env.dataset.shards import iter_shard_batches

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        write_shards(paths, Path(tmp) / "s", progress=False)
        for name, kw in (
            ("float32, in order", {}),
            ("float32, shuffled (65,536-row buffer)", {"shuffle": True, "shuffle_buffer": 65536}),
            (
                "uint8, shuffled (65,536-row buffer)",
                {"shuffle": True, "shuffle_buffer": 65536, "dtype": "uint8"},
            ),
        ):
            best = None
            for _ in range(repeats):
                cpu0, wall0 = time.process_time(), time.perf_counter()
                rows = 0
                with iter_shard_batches(Path(tmp) / "s", 1024, **kw) as batches:
                    for b in batches:
                        rows += len(b["action"])
                run = {
                    "rows": rows,
                    "cpu": time.process_time() - cpu0,
                    "wall": time.perf_counter() - wall0,
                }
                if best is None or run["cpu"] < best["cpu"]:
                    best = run
            out.append((name, best))
    return out


def stages(paths: list[Path], repeats: int, encoder: str = "basic_v0") -> dict[str, float]:
    """CPU milliseconds per hanchan of each stage of ``Converter.convert`` (best of ``repeats``)."""
    from riichi_env.dataset import Converter
    from riichi_env.dataset.pack import pack_game
    from riichi_env.records.convert import read_file
    from riichi_env.records.replay import rules_for

    games = [read_file(p) for p in paths]
    rules = [rules_for(g, "auto") for g in games]
    full = Converter(encoder)
    bare = Converter(encoder, kinds=["kyushu"])  # replays and masks, writes (almost) no rows
    full.convert_game(games[0])
    bare.convert_game(games[0])

    def best(step, items) -> float:  # each result is dropped at once, as in a conversion
        times = []
        for _ in range(repeats):
            t = time.process_time()
            for item in items:
                step(item)
            times.append(time.process_time() - t)
        return min(times) * 1000 / len(paths)

    t_read = best(read_file, paths)
    t_pack = best(lambda gr: pack_game(*gr), list(zip(games, rules, strict=True)))
    t_bare = best(lambda g: bare.convert_game(g, reuse=True), games)
    t_rows = best(lambda g: full.convert_game(g, reuse=True), games)
    t_full = best(full.convert_game, games)
    return {
        "read (read_file)": t_read,
        "pack (pack_game)": t_pack,
        "replay kernel + masks (and convert_game's own Python)": max(t_bare - t_pack, 0.0),
        f"encode {encoder} into the row buffers": max(t_rows - t_bare, 0.0),
        "copy out into fresh arrays (not with reuse=True)": max(t_full - t_rows, 0.0),
        "total": t_read + t_full,
    }


def machine() -> list[str]:
    """Lines describing the machine and the load on it."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            model = next(
                (ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")), model
            )
    except OSError:
        pass
    import numba
    import numpy

    return [
        f"CPU: {model}, {os.cpu_count()} logical cores; Python {platform.python_version()}, "
        f"NumPy {numpy.__version__}, Numba {numba.__version__}",
    ]


def load() -> str:
    """The 1-minute load average (``os.getloadavg``), or ``?``."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=Path, help="directory of .mjson records")
    parser.add_argument("--games", type=int, default=200, help="games to generate (200)")
    parser.add_argument("--seed", type=int, default=0, help="arena seed of generated games (0)")
    parser.add_argument("--repeats", type=int, default=3, help="passes per row, best kept (3)")
    parser.add_argument("--riichienv-python", default=DEFAULT_PEER, help=f"({DEFAULT_PEER})")
    parser.add_argument("--workers", type=int, default=2, help="iter_batches workers (2)")
    parser.add_argument("--no-stages", action="store_true", help="skip the per-stage table")
    parser.add_argument(
        "--games-3p", type=int, default=100, help="three-player games to generate (100; 0: none)"
    )
    parser.add_argument("--records-3p", type=Path, help="directory of three-player .mjson records")
    parser.add_argument(
        "--many",
        type=int,
        default=0,
        help="also time `riichi-env dataset` with 1 and --workers workers on this many files "
        "(the records linked over and over; 0: skip)",
    )
    parser.add_argument(
        "--install-python",
        help="also time `riichi-env dataset` (1 worker) with this Python: a virtual environment "
        "with this checkout installed, such as the README's (pip install -e '.[dev]')",
    )
    args = parser.parse_args()
    if args.games < 1 or args.repeats < 1 or args.workers < 1 or args.games_3p < 0:
        parser.error("--games, --repeats and --workers must be at least 1, --games-3p at least 0")

    paths, where = records(args.records, args.games, args.seed)
    load_start = load()
    rows: list[tuple[str, dict]] = []
    other, peer_note = peer(args.riichienv_python, paths, args.repeats)
    if other is not None:
        rows.append((f"RiichiEnv {other['version']}: steps + encode() + mask()", other))
    t0 = time.perf_counter()
    ours(paths[:1], 1)
    warm = time.perf_counter() - t0
    configs = [
        ("riichi_env Converter basic_v0", {}),
        ("riichi_env Converter basic_v0, reuse=True", {"reuse": True}),
        ("riichi_env Converter rich_v0", {"encoder": "rich_v0"}),
        ("riichi_env Converter basic_v0 + oracle", {"oracle": True}),
        ("riichi_env Converter basic_v0 uint8", {"dtype": "uint8"}),
        ("riichi_env Converter basic_v0 skip_forced", {"skip_forced": True}),
    ]
    for name, options in configs:
        rows.append((name, ours(paths, args.repeats, **options)))
    try:
        import riichi_env.dataset.io  # noqa: F401

        io_note = ""
    except ImportError:
        io_note = "iter_batches rows skipped: riichi_env.dataset.io is not on this branch yet"
    if not io_note:
        for w in sorted({1, args.workers}):
            rows.append(
                (
                    f"riichi_env iter_batches basic_v0, {w} worker(s)",
                    batches(paths, w, args.repeats),
                )
            )
    three_where = ""
    if args.games_3p or args.records_3p:
        paths3, three_where = records(args.records_3p, args.games_3p, args.seed, players=3)
        for name, options in [
            ("riichi_env Converter basic3_v0, three players", {"encoder": "basic3_v0"}),
            (
                "riichi_env Converter basic3_v0 uint8, three players",
                {"encoder": "basic3_v0", "dtype": "uint8"},
            ),
        ]:
            rows.append((name, {**ours(paths3, args.repeats, **options), "three": True}))
    for name, cli_args in (
        ("`riichi-env dataset` (games layout), 1 worker", ()),
        (
            f"`riichi-env dataset` (games layout), {args.workers} workers",
            ("--workers", str(args.workers)),
        ),
        ("`riichi-env dataset --layout rows` (float32 rows), 1 worker", ("--layout", "rows")),
        (
            "`riichi-env dataset --layout rows --dtype uint8`, 1 worker",
            ("--layout", "rows", "--dtype", "uint8"),
        ),
    ):
        rows.append((name, {**cli(paths, args.repeats, *cli_args), "cli": True}))
    if args.install_python:
        probe = "import importlib.util as u; print(u.find_spec('scipy') is not None)"
        scipy = subprocess.run(
            [args.install_python, "-c", probe], capture_output=True, text=True, cwd="/"
        ).stdout.strip()
        rows.insert(
            -3,
            (
                f"the same, --install-python's environment ({'with' if scipy == 'True' else 'no'}"
                " SciPy)",
                {**cli(paths, args.repeats, python=args.install_python), "cli": True},
            ),
        )
    many = many_files(paths, args.many, args.workers, args.repeats) if args.many else None
    loads = loader(paths, args.repeats)
    table = stages(paths, args.repeats) if not args.no_stages else None
    load_end = load()

    ref_cpu = other["games"] / other["cpu"] if other is not None else None
    ref_wall = other["games"] / other["wall"] if other is not None else None
    print(
        f"{len(paths)} hanchan (mjai, {where}); best of {args.repeats} by CPU time "
        f"(iter_batches: by wall time); warm-up incl. any compilation {warm:.1f} s"
    )
    print()
    print(
        "| path | decisions | per game | CPU s | wall s | games/s (CPU) | decisions/s (CPU) "
        "| games/s (wall) | x RiichiEnv (CPU) | x RiichiEnv (wall) | disk a hanchan | peak RSS |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in rows:
        g, d, cpu, wall = r["games"], r["decisions"], r["cpu"], r["wall"]
        skipped = f" ({r['skipped']} skipped)" if r.get("skipped") else ""
        cells = [f"{name}{skipped}", f"{d:,}", f"{d / max(g, 1):.0f}"]
        cells += [f"{cpu:.2f}" if cpu else "-", f"{wall:.2f}"]
        cells += [f"{g / cpu:,.1f}" if cpu else "-", f"{d / cpu:,.0f}" if cpu else "-"]
        cells += [f"{g / wall:,.1f}"]
        same = not r.get("three")  # RiichiEnv's row is four-player games
        cells += [f"{g / cpu / ref_cpu:.1f}x" if cpu and ref_cpu and same else "-"]
        cells += [f"{g / wall / ref_wall:.1f}x" if ref_wall and same else "-"]
        cells += [f"{r['bytes'] / max(g, 1) / 1e6:.3f} MB" if "bytes" in r else "-"]
        cells += [f"{r['maxrss_kb'] / 1024:.0f} MB" if "maxrss_kb" in r else "-"]
        print("| " + " | ".join(cells) + " |")
    print()
    print(
        "`riichi-env dataset` rows: the command line end to end (a new interpreter, its imports "
        "and kernel loads, reading, checking every hand, writing shards), CPU time of the process "
        "and its workers; its fixed start is in every figure (run it on one file to see it)"
    )
    print()
    if many is not None:
        print(f"| `riichi-env dataset` on {args.many:,} files | wall s | hanchan/s | vs 1 worker |")
        print("|---|---:|---:|---:|")
        for w, r in many.items():
            ratio = many[1]["wall"] / r["wall"]
            print(
                f"| {w} worker(s) | {r['wall']:.2f} | {r['games'] / r['wall']:,.0f} | {ratio:.2f}x |"
            )
        print()
    print(
        "| loader (one core): iter_shard_batches, batches of 1024 | rows | rows/s (CPU) | rows/s (wall) |"
    )
    print("|---|---:|---:|---:|")
    for name, r in loads:
        print(
            f"| {name} | {r['rows']:,} | {r['rows'] / r['cpu']:,.0f} | {r['rows'] / r['wall']:,.0f} |"
        )
    print()
    if three_where:
        print(f"three-player rows: {three_where} (mahjongsoul-3p hanchan, mjai)")
    if other is None:
        print(f"RiichiEnv skipped: {peer_note}")
    else:
        print(
            f"RiichiEnv {other['version']} from {peer_note}: {other['hands']} hands; a step is "
            "one of its decisions without the single-action ones (steps(seat)'s default), obs "
            f"{other['obs_bytes'] // 136}x34 float32"
        )
    if io_note:
        print(io_note)
    else:
        one = next(r for n, r in rows if n.endswith(", 1 worker(s)"))
        many = next(r for n, r in rows if n.endswith(f", {args.workers} worker(s)"))
        print(
            f"iter_batches, {args.workers} workers vs 1 (wall): {one['wall'] / many['wall']:.2f}x "
            f"the games/s over the whole run (first batch after {one['first']:.1f} s and "
            f"{many['first']:.1f} s); {many['steady'] / one['steady']:.2f}x over the second half "
            f"of the files ({one['steady']:.1f} and {many['steady']:.1f} games/s); 1 worker "
            "converts in this process; CPU time is not shown (the workers are the forkserver's "
            "children)"
        )
    print(
        "riichi_env rows: Converter(...).convert(path) per file, which returns fresh arrays "
        "(reuse=True: views of the converter's buffers, no copy); decisions are its rows, every "
        "seat, forced ones included unless skip_forced, passes only where the choice is known "
        "(docs/dataset.md)"
    )
    for line in machine():
        print(line)
    print(
        f"load average (1 min) {load_start} at the start, {load_end} at the end: the cores are "
        "shared with other jobs, so wall times vary; CPU times (time.process_time) less so"
    )
    if table is not None:
        print()
        print(f"one core, CPU ms per hanchan ({len(paths)} records, best of {args.repeats}):")
        print()
        print("| stage | ms/hanchan |")
        print("|---|---:|")
        for k, v in table.items():
            print(f"| {k} | {v:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
