"""One measurement of ``compare_revisions.py``, run in a fresh process against one revision's tree.

    python _revision_child.py ROW SIZE [RECORDS_DIR]

The revision's checkout comes first on ``PYTHONPATH`` and its Numba cache is ``RIICHI_ENV_CACHE``
(the parent sets both). Only the public API is used (``riichi_env.env``, ``raw_env``,
``vector_env``, ``selfplay``, ``read_file``, ``pack_game``, the ``riichi-env`` command line), so
that older revisions run the same code. Prints one JSON line: ``{"work": n, "seconds": s}`` (decisions, hanchan or runs), or
``{"missing": why}`` when the revision has no such API. Kept free of project imports at module
level: it must import the revision's project, not this checkout's.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np


def _aec(make_env, games: int) -> tuple[int, float]:
    """Random masked play in PettingZoo's loop (``docs/environment.md``'s loop with a cheap
    chooser: Python's ``random`` over ``np.flatnonzero(mask)``, as RiichiEnv's own loop)."""
    rng = random.Random(0)
    env = make_env()
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        env.reset(seed=1000 + g)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * legal.size)]))
            decisions += 1
    return decisions, time.perf_counter() - start


def env_row(size: int) -> dict:
    import riichi_env

    _aec(riichi_env.env, 1)  # the import and the cache load, untimed
    work, seconds = _aec(riichi_env.env, size)
    return {"work": work, "seconds": seconds}


def raw_row(size: int) -> dict:
    import riichi_env

    _aec(riichi_env.raw_env, 1)
    work, seconds = _aec(riichi_env.raw_env, size)
    return {"work": work, "seconds": seconds}


def _vector(size: int, dtype, threads: int = 1) -> dict:
    import inspect

    import riichi_env

    if not hasattr(riichi_env, "vector_env"):
        return {"missing": "no riichi_env.vector_env"}
    tables = 256 if size >= 50 else 16
    kwargs = (
        {"num_tables": tables}
        if dtype is np.float32
        else {"num_tables": tables, "obs_dtype": dtype}
    )
    if threads > 1:
        from riichi_env.batch.vector import RiichiVectorEnv

        if "threads" not in inspect.signature(RiichiVectorEnv).parameters:
            return {"missing": "no threads option"}
        kwargs["threads"] = threads
    venv = riichi_env.vector_env(**kwargs)
    obs, _ = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5):  # untimed
        mask = obs["action_mask"]
        obs, *_ = venv.step((rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1))
    start = time.perf_counter()
    for _ in range(size):
        mask = obs["action_mask"]
        obs, *_ = venv.step((rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1))
    return {"work": size * tables, "seconds": time.perf_counter() - start}


def vector_row(size: int) -> dict:
    return _vector(size, np.float32)


def vector_u8_row(size: int) -> dict:
    return _vector(size, np.uint8)


def vector_t2_row(size: int) -> dict:
    return _vector(size, np.float32, threads=2)


def selfplay_row(size: int) -> dict:
    import riichi_env

    if not hasattr(riichi_env, "selfplay"):
        return {"missing": "no riichi_env.selfplay"}
    try:
        riichi_env.selfplay("random", games=1, seed=0, progress=False)
        out = riichi_env.selfplay("random", games=size, seed=0, workers=1, progress=False)
    except TypeError:  # older signatures
        riichi_env.selfplay("random", games=1, seed=0)
        out = riichi_env.selfplay("random", games=size, seed=0)
    return {"work": out["decisions"], "seconds": out["seconds"]}


def _cli(args: list[str], env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "riichi_env", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
    )


def dataset_row(size: int, records: str, workers: int = 1, copies: int = 1) -> dict:
    """``riichi-env dataset RECORDS --out DIR`` with its defaults and ``workers`` workers over
    the first ``size`` records, each linked ``copies`` times: the documented path, end to end
    (interpreter start, reading, converting, writing), hanchan per second."""
    files = sorted(os.listdir(records))[:size]
    with tempfile.TemporaryDirectory() as tmp:
        subset = os.path.join(tmp, "in")
        os.mkdir(subset)
        for k in range(copies):
            for name in files:
                os.symlink(os.path.join(records, name), os.path.join(subset, f"{k:03d}-{name}"))
        probe = _cli(["dataset", "--help"])
        if probe.returncode != 0:
            return {"missing": "no `riichi-env dataset` command"}
        args = ["dataset", subset, "--out", os.path.join(tmp, "out")]
        if "--workers" in probe.stdout:
            args += ["--workers", str(workers)]
        elif workers > 1:
            return {"missing": "no --workers"}
        _cli(["dataset", os.path.join(records, files[0]), "--out", os.path.join(tmp, "warm")])
        start = time.perf_counter()
        proc = _cli(args)
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            return {"missing": f"dataset failed: {proc.stderr.strip().splitlines()[-1:]}"}
        size_bytes = sum(
            os.path.getsize(os.path.join(root, f))
            for root, _, names in os.walk(os.path.join(tmp, "out"))
            for f in names
        )
    return {"work": len(files) * copies, "seconds": seconds, "bytes": size_bytes}


def dataset_w2_row(size: int, records: str) -> dict:
    """``dataset_row`` with two workers over the records linked 10 times (many files, where a
    second worker pays off)."""
    return dataset_row(size, records, workers=2, copies=10)


def _record_files(records: str, size: int) -> list[str]:
    return [os.path.join(records, f) for f in sorted(os.listdir(records))[:size]]


def _cpu_pass(files: list[str], one) -> dict:
    """CPU seconds of ``one`` over ``files``, after a pass that loads the kernels and warms the
    page cache (the parent keeps the best of its rounds)."""
    for path in files:
        one(path)
    start = time.process_time()
    for path in files:
        one(path)
    return {"work": len(files), "seconds": time.process_time() - start}


def read_row(size: int, records: str) -> dict:
    """``riichi_env.records.read_file`` of each mjai record: hanchan per CPU second."""
    from riichi_env.records import read_file

    return _cpu_pass(_record_files(records, size), read_file)


def pack_row(size: int, records: str) -> dict:
    """Each record read and packed for the replay (``pack_game(read_file(p), rules_for(game,
    "auto"))``, what the dataset does before replaying): hanchan per CPU second."""
    from riichi_env.dataset.pack import pack_game
    from riichi_env.records import read_file
    from riichi_env.records.replay import rules_for

    def one(path: str) -> None:
        game = read_file(path)
        pack_game(game, rules_for(game, "auto"))

    return _cpu_pass(_record_files(records, size), one)


COLD_STEP = (
    "import riichi_env; e = riichi_env.env(); e.reset(seed=0); "
    "a = e.agent_selection; m = e.observe(a)['action_mask']; e.step(int(m.nonzero()[0][0]))"
)


def cold_row(size: int) -> dict:
    """Seconds from an empty cache to the first env step, then the first compiled self-play
    hanchan (two processes, one cache): what a new user waits for."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "RIICHI_ENV_CACHE": cache}
        env.pop("NUMBA_CACHE_DIR", None)
        start = time.perf_counter()
        first = subprocess.run(
            [sys.executable, "-c", COLD_STEP],
            env=env,
            capture_output=True,
            cwd=tempfile.gettempdir(),
        )
        if first.returncode != 0:
            return {"missing": "the env step failed"}
        second = _cli(["selfplay", "--games", "1"], env)
        seconds = time.perf_counter() - start
        if second.returncode != 0:
            return {"missing": "`riichi-env selfplay --games 1` failed"}
    return {"work": 1, "seconds": seconds}


ROWS = {
    "env": env_row,
    "raw": raw_row,
    "vector": vector_row,
    "vector_u8": vector_u8_row,
    "vector_t2": vector_t2_row,
    "selfplay": selfplay_row,
    "dataset": dataset_row,
    "dataset_w2": dataset_w2_row,
    "read": read_row,
    "pack": pack_row,
    "cold": cold_row,
}
ON_RECORDS = ("dataset", "dataset_w2", "read", "pack")
"""Rows that take the records folder as a third argument."""


def main() -> None:
    row, size = sys.argv[1], int(sys.argv[2])
    try:
        out = ROWS[row](size, sys.argv[3]) if row in ON_RECORDS else ROWS[row](size)
    except (ImportError, AttributeError) as exc:
        out = {"missing": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
