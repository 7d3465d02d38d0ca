"""Many record files as training batches, in worker processes, and as shards on disk.

:func:`iter_batches` streams batches of rows (the columns of :class:`riichi_env.dataset.Converter`
plus ``file``) from many record files, converting them in this process or in ``workers`` worker
processes; the rows and their order are the same for any number of workers, shuffled or not.
:func:`write_shards` writes the same rows to ``shard-00000.npz`` ... with a ``manifest.json``;
:func:`load_shards`, :func:`iter_shards` and :func:`read_manifest` read them back. The
``riichi-env dataset`` command (``riichi_env.cli_dataset``) runs :func:`write_shards`.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
import multiprocessing
import os
import signal
import sys
import time
import zipfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

import numpy as np

from engine.validation import check_bool, check_int, check_seed, describe

RECORD_SUFFIXES = (".xml", ".mjlog", ".json", ".jsonl", ".mjson")
"""Names of the record files taken from a directory (also with ``.gz`` after them); the project's
``walls.jsonl`` wall files are left out."""

FILE_COLUMN = "file"
"""The column :func:`iter_batches` adds: the index (int32) of the row's record in ``files``."""

MANIFEST = "manifest.json"
SHARD_FORMAT = "riichi_env dataset shards"
SHARD_VERSION = 1
_SHARD_NAME = "shard-{:05d}.npz"
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_INFLIGHT_PER_WORKER = 2
_JOIN_SECONDS = 5.0
_REDRAW_SECONDS = 0.25
_CHUNK_BYTES = 1 << 24
_ENV_KEYS = ("RIICHI_ENV_CACHE", "XDG_CACHE_HOME", "HOME")
"""Environment variables a worker takes from the parent at its start (with every ``NUMBA_*``),
so it uses the parent's Numba cache even when the forkserver was started before they changed."""


def is_record_name(name: str) -> bool:
    """True for a file name :func:`record_files` takes from a directory (``RECORD_SUFFIXES``)."""
    lower = name.lower()
    if lower.startswith("."):
        return False
    if lower.endswith(".gz"):
        lower = lower[:-3]
    stem, dot, suffix = lower.rpartition(".")
    return bool(dot) and f".{suffix}" in RECORD_SUFFIXES and stem != "walls"


def record_files(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> list[Path]:
    """The record files named by ``paths``: files as given, directories as every record file under
    them (:func:`is_record_name`, searched recursively, sorted by path), in the order given.

    Raises:
        TypeError: ``paths`` or one of them is not a path.
        ValueError: a path does not exist, or there is no record file at all.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    elif not isinstance(paths, Iterable) or isinstance(paths, (bytes, dict)):
        raise TypeError(f"paths must be a path or a list of paths, got {describe(paths)}")
    out: list[Path] = []
    given = []
    for p in paths:
        if not isinstance(p, (str, os.PathLike)) or isinstance(p, bytes):
            raise TypeError(f"each path must be a str or os.PathLike, got {describe(p)}")
        given.append(p)
        path = Path(p)
        if path.is_dir():
            out.extend(
                sorted(
                    q
                    for q in path.rglob("*")
                    if is_record_name(q.name) and q.is_file() and not _hidden(q, path)
                )
            )
        elif path.is_file():
            out.append(path)
        elif path.exists():
            raise ValueError(f"{p}: not a regular file or a directory")
        else:
            raise ValueError(f"{p}: no such file or directory")
    if not given:
        raise ValueError("paths is empty: expected record files or directories of them")
    if not out:
        suffixes = ", ".join(RECORD_SUFFIXES)
        raise ValueError(
            f"no record files ({suffixes}, optionally .gz) in the directories given: "
            + ", ".join(str(p) for p in given)
        )
    return out


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def iter_batches(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    batch_size: int = 1024,
    *,
    shuffle_buffer: int = 0,
    seed: int = 0,
    workers: int = 1,
    drop_last: bool = False,
    progress: Callable[[int], Any] | None = None,
    **converter_options: Any,
) -> BatchIterator:
    """Batches of rows of many record files: dicts of NumPy arrays, ``batch_size`` rows each.

    Each file is converted by a :class:`riichi_env.dataset.Converter` built with
    ``converter_options``; a batch has its columns plus ``file`` (int32: the row's record as an
    index into the iterator's ``files``: ``paths`` with directories expanded by
    :func:`record_files`). Rows come in file order, then row order, unless ``shuffle_buffer=N``:
    then each row is drawn uniformly from a buffer of ``N`` rows (seeded with ``seed``). With
    ``workers=K > 1`` the files are converted in ``K`` worker processes (at most ``2 K`` files in
    flight); the rows and their order are the same for every ``K``. Only the last batch may be
    shorter (``drop_last=True`` drops it). ``progress`` is called with the number of files
    done after each one.

    Returns a :class:`BatchIterator`: once iterated, its ``stats`` counts the files, games,
    decisions and skipped records. Worker processes start on the first batch and stop when the
    iteration ends, breaks or raises (``close()`` or a ``with`` block stops them early).

    Raises:
        TypeError, ValueError: a bad argument or converter option (checked here, before any
            conversion).
    """
    return BatchIterator(
        paths,
        batch_size,
        shuffle_buffer=shuffle_buffer,
        seed=seed,
        workers=workers,
        drop_last=drop_last,
        progress=progress,
        **converter_options,
    )


class BatchIterator:
    """The iterator :func:`iter_batches` returns.

    Attributes:
        files: the record files, in order (``file`` indexes this list).
        stats: a :class:`riichi_env.dataset.Stats` over the files converted so far (all of them
            once the iteration ended).
        options: the converter options.
    """

    def __init__(
        self,
        paths: str | os.PathLike | Iterable[str | os.PathLike],
        batch_size: int = 1024,
        *,
        shuffle_buffer: int = 0,
        seed: int = 0,
        workers: int = 1,
        drop_last: bool = False,
        progress: Callable[[int], Any] | None = None,
        **converter_options: Any,
    ) -> None:
        self.batch_size = check_int("batch_size", batch_size, 1)
        self.shuffle_buffer = check_int("shuffle_buffer", shuffle_buffer, 0)
        self.seed = check_seed(seed)
        self.workers = check_int("workers", workers, 1)
        self.drop_last = check_bool("drop_last", drop_last)
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be None or a callable, got {describe(progress)}")
        self.progress = progress
        self.files = record_files(paths)
        self.options = dict(converter_options)
        self._converter = _converter_class()(**converter_options)  # checks the options
        self.stats = _fresh_stats(self._converter)
        self._procs: list = []
        self._gen: Iterator[dict[str, np.ndarray]] | None = None

    def __iter__(self) -> BatchIterator:
        return self

    def __next__(self) -> dict[str, np.ndarray]:
        if self._gen is None:
            self._gen = _Run(self).batches()
        return next(self._gen)

    def close(self) -> None:
        """Stop the iteration and its worker processes (iterating afterwards yields nothing)."""
        if self._gen is None:
            self._gen = iter(())
        else:
            self._gen.close()

    def __enter__(self) -> BatchIterator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _parts(self) -> Iterator[list[dict[str, np.ndarray]]]:
        """Iterate the batches as lists of pieces of the files' rows (not concatenated)."""
        if self._gen is not None:
            raise RuntimeError("this BatchIterator is already being iterated")
        self._gen = _Run(self).parts()
        return self._gen

    def empty(self) -> dict[str, np.ndarray]:
        """A batch with 0 rows: every column with its dtype and shape."""
        out = dict(self._converter.empty())
        out[FILE_COLUMN] = np.zeros(0, np.int32)
        return out


class _Run:
    """One iteration of a :class:`BatchIterator` (which it does not reference: dropping the
    iterator closes the generator at once, and with it the worker processes)."""

    def __init__(self, it: BatchIterator) -> None:
        self.files = it.files
        self.options = it.options
        self.batch_size = it.batch_size
        self.shuffle_buffer = it.shuffle_buffer
        self.seed = it.seed
        self.workers = it.workers
        self.drop_last = it.drop_last
        self.progress = it.progress
        self.stats = it.stats
        self._converter = it._converter
        self._procs = it._procs

    def batches(self) -> Iterator[dict[str, np.ndarray]]:
        return rebatch(
            self._file_rows(),
            self.batch_size,
            shuffle_buffer=self.shuffle_buffer,
            seed=self.seed,
            drop_last=self.drop_last,
        )

    def parts(self) -> Iterator[list[dict[str, np.ndarray]]]:
        return _batch_parts(
            self._file_rows(), self.batch_size, self.shuffle_buffer, self.seed, self.drop_last
        )

    def _file_rows(self) -> Iterator[dict[str, np.ndarray]]:
        """Each converted file's rows (with ``file``), in file order; merges the stats."""
        parallel = self.workers > 1 and len(self.files) > 1
        results = self._convert_in_workers() if parallel else self._convert_here()
        for index, (rows, delta) in enumerate(results):
            _add_stats(self.stats, delta)
            if self.progress is not None:
                self.progress(index + 1)
            if rows is not None:
                n = len(rows["action"])
                if n:
                    rows = dict(rows)
                    rows[FILE_COLUMN] = np.full(n, index, np.int32)
                    yield rows

    def _convert_here(self) -> Iterator[tuple]:
        for path in self.files:
            yield _convert_one(self._converter, path)

    def _convert_in_workers(self) -> Iterator[tuple]:
        """The files converted in worker processes, their results in file order.

        Each worker has its own connection (a socket pair on POSIX): the parent sends it
        ``(index, path)``, it answers with a header (pickled) and then the bytes of each column,
        which the parent reads straight into new arrays. Files go to the worker with the fewest
        in flight; at most ``_INFLIGHT_PER_WORKER`` per worker are ahead of the consumer.
        """
        ctx = _context()
        env = {k: v for k, v in os.environ.items() if k in _ENV_KEYS or k.startswith("NUMBA_")}
        count = min(self.workers, len(self.files) - 1)
        conns, theirs, procs = [], [], []
        for i in range(count):
            mine, their = ctx.Pipe(duplex=True)
            conns.append(mine)
            theirs.append(their)
            procs.append(
                ctx.Process(
                    target=_worker_main,
                    args=(self.options, env, their),
                    name=f"riichi_env-dataset-{i}",
                    daemon=True,
                )
            )
        self._procs[:] = procs
        try:
            for p, their in zip(procs, theirs, strict=True):
                p.start()
                their.close()  # only the worker holds its end now: its exit closes it
            # The first file here while the workers start (importing, loading the kernels from
            # the Numba cache: this process's Converter compiled any that were not there, and
            # its first conversion loads them before any worker has a file to convert).
            first = _convert_one(self._converter, self.files[0])
            limit = _INFLIGHT_PER_WORKER * count
            sent = 1
            done: dict[int, tuple] = {0: ("ok", first)}
            inflight: list[deque[int]] = [deque() for _ in procs]
            for want in range(len(self.files)):
                while sent < len(self.files) and sent < want + limit:
                    w = min(range(count), key=lambda i: len(inflight[i]))
                    try:
                        conns[w].send((sent, str(self.files[sent])))
                    except OSError:  # the worker is gone: _receive says so
                        self._receive(conns, procs, inflight)
                        raise
                    inflight[w].append(sent)
                    sent += 1
                while want not in done:
                    for w, (index, status, payload) in self._receive(conns, procs, inflight):
                        if index < 0:  # a worker could not start
                            raise payload
                        inflight[w].remove(index)
                        done[index] = (status, payload)
                status, payload = done.pop(want)
                if status == "error":  # raised in file order, after the files before it
                    raise payload
                yield payload
            for c in conns:
                c.send(None)
            for p in procs:
                p.join(_JOIN_SECONDS)
        finally:
            _stop(procs, conns + theirs)

    def _receive(self, conns, procs, inflight) -> list[tuple[int, tuple]]:
        """The results ready (waits for one); a worker that ended is a ``RuntimeError``."""
        ready = set(wait([*conns, *(p.sentinel for p in procs)]))
        out = []
        for w, conn in enumerate(conns):
            if conn in ready or (procs[w].sentinel in ready and conn.poll()):
                try:
                    out.append((w, _recv_result(conn)))
                    continue
                except (EOFError, OSError):
                    procs[w].join(_JOIN_SECONDS)
            elif procs[w].sentinel not in ready:
                continue
            files = ", ".join(str(self.files[i]) for i in inflight[w]) or "none"
            raise RuntimeError(
                f"dataset worker process {procs[w].name} ended unexpectedly (exit code "
                f"{procs[w].exitcode}); the files it was converting: {files}"
            )
        return out


def _converter_class():
    from riichi_env.dataset import Converter

    return Converter


def _context():
    """A start method that never forks a process with threads: forkserver, else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _stop(procs: list, conns: list) -> None:
    """End the worker processes (terminate any still running) and close the connections."""
    for p in procs:
        if p.pid is not None and p.exitcode is None:
            p.terminate()
    for p in procs:
        if p.pid is None:
            continue
        p.join(_JOIN_SECONDS)
        if p.exitcode is None:
            p.kill()
            p.join()
    for c in conns:
        c.close()


def _worker_main(options: dict, env: dict, conn) -> None:
    """A worker process: converts the ``(index, path)`` it receives until ``None``, or until the
    parent is gone (its end of the connection closed)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    for key in list(os.environ):
        if (key in _ENV_KEYS or key.startswith("NUMBA_")) and key not in env:
            del os.environ[key]
    os.environ.update(env)
    try:
        try:
            converter = _converter_class()(**options)
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it
            _send_result(conn, -1, "error", _portable_error(exc))
            return
        while True:
            task = conn.recv()
            if task is None:
                return
            index, path = task
            try:
                result = _convert_one(converter, path, reuse=True)
            except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it
                _send_result(conn, index, "error", _portable_error(exc))
            else:
                _send_result(conn, index, "ok", result)
    except (EOFError, OSError):  # the parent is gone
        return
    finally:
        conn.close()


def _portable_error(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a ``RuntimeError`` with its type and message."""
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any pickling problem
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _bytes_of(array: np.ndarray) -> memoryview:
    """The bytes of a C-contiguous array (no copy)."""
    return memoryview(array.reshape(-1).view(np.uint8))


def _send_result(conn, index: int, status: str, payload: Any) -> None:
    """A header ``(index, status, payload without arrays, column specs)``, then each column's
    bytes, written straight from the arrays."""
    arrays: list[np.ndarray] = []
    if status == "ok":
        rows, delta = payload
        if rows is not None:
            arrays = [np.ascontiguousarray(v) for v in rows.values()]
            specs = [(k, v.dtype.str, v.shape) for k, v in zip(rows, arrays, strict=True)]
            payload = (specs, delta)
        else:
            payload = (None, delta)
    conn.send((index, status, payload))
    for array in arrays:
        _write_all(conn, _bytes_of(array))


def _recv_result(conn) -> tuple:
    """``(index, status, payload)`` sent by :func:`_send_result`; the columns are read straight
    into new arrays."""
    index, status, payload = conn.recv()
    if status == "ok":
        specs, delta = payload
        rows = None
        if specs is not None:
            rows = {}
            for name, dtype, shape in specs:
                array = np.empty(shape, np.dtype(dtype))
                _read_all(conn, _bytes_of(array))
                rows[name] = array
        payload = (rows, delta)
    return index, status, payload


_RAW = hasattr(os, "readv") and sys.platform != "win32"
"""POSIX: array bytes go through the connection's socket with ``os.write`` / ``os.readv`` (one
copy each way); elsewhere as messages of the connection."""


def _write_all(conn, data: memoryview) -> None:
    if not _RAW:
        conn.send_bytes(data)
        return
    fd, pos = conn.fileno(), 0
    while pos < len(data):
        pos += os.write(fd, data[pos : pos + _CHUNK_BYTES])


def _read_all(conn, into: memoryview) -> None:
    if not _RAW:
        if len(into) and conn.recv_bytes_into(into) != len(into):
            raise EOFError("a column's bytes ended early")
        return
    fd, pos = conn.fileno(), 0
    while pos < len(into):
        got = os.readv(fd, [into[pos : pos + _CHUNK_BYTES]])
        if not got:
            raise EOFError("the worker's connection closed in the middle of a result")
        pos += got


def _convert_one(converter, path, reuse: bool = False) -> tuple:
    """``(rows or None, stats delta)`` of one file; ``reuse``: the rows may be views of the
    converter's buffers, valid until its next conversion (a worker sends them at once)."""
    before = _snapshot(converter.stats)
    rows = converter.convert(path, reuse=True) if reuse else converter.convert(path)
    return rows, _delta(before, converter.stats)


def _fresh_stats(converter):
    """Zero stats of the converter's type (never sharing its ``skipped`` list)."""
    return type(converter.stats)()


def _fields(stats) -> dict[str, Any]:
    if dataclasses.is_dataclass(stats):
        return {f.name: getattr(stats, f.name) for f in dataclasses.fields(stats)}
    return dict(vars(stats))


def _snapshot(stats) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in _fields(stats).items()}


def _delta(before: dict[str, Any], stats) -> dict[str, Any]:
    out = {}
    for key, value in _fields(stats).items():
        old = before.get(key)
        if isinstance(value, list):
            out[key] = value[len(old or ()) :]
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = value - (old or 0)
    return out


def _add_stats(stats, delta: dict[str, Any]) -> None:
    for key, value in delta.items():
        if isinstance(value, list):
            setattr(stats, key, [*getattr(stats, key), *value])
        else:
            setattr(stats, key, getattr(stats, key) + value)


def _rows_of(chunk: dict[str, np.ndarray]) -> int:
    return len(next(iter(chunk.values())))


def _concat(chunks: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    if len(chunks) == 1:
        return chunks[0]
    return {k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]}


def rebatch(
    chunks: Iterable[dict[str, np.ndarray]],
    batch_size: int,
    *,
    shuffle_buffer: int = 0,
    seed: int = 0,
    drop_last: bool = False,
) -> Iterator[dict[str, np.ndarray]]:
    """Rows given in chunks (dicts of arrays, one row per index) as batches of ``batch_size``
    rows: in order, or through a shuffle buffer of ``shuffle_buffer`` rows seeded with ``seed``
    (the same chunks and seed give the same batches). Only the last batch may be shorter
    (``drop_last=True`` drops it).
    """
    batch_size = check_int("batch_size", batch_size, 1)
    shuffle_buffer = check_int("shuffle_buffer", shuffle_buffer, 0)
    seed = check_seed(seed)
    drop_last = check_bool("drop_last", drop_last)
    return (
        _concat(parts)
        for parts in _batch_parts(chunks, batch_size, shuffle_buffer, seed, drop_last)
    )


def _batch_parts(
    chunks: Iterable[dict[str, np.ndarray]],
    batch_size: int,
    shuffle_buffer: int,
    seed: int,
    drop_last: bool,
) -> Iterator[list[dict[str, np.ndarray]]]:
    """As :func:`rebatch`, each batch as the list of the pieces of chunks it is made of."""
    batcher = _Batcher(batch_size)
    buffer = _ShuffleBuffer(shuffle_buffer, np.random.default_rng(seed)) if shuffle_buffer else None
    for rows in chunks:
        if buffer is not None:
            rows = buffer.push(rows)
        if rows is not None:
            yield from batcher.push(rows)
    if buffer is not None:
        rows = buffer.drain()
        if rows is not None:
            yield from batcher.push(rows)
    last = batcher.rest()
    if last is not None and not drop_last:
        yield last


class _Batcher:
    """Cuts a stream of row chunks into batches of ``size`` rows, each a list of slices of the
    chunks (views: nothing is copied)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.parts: list[dict[str, np.ndarray]] = []
        self.rows = 0

    def push(self, chunk: dict[str, np.ndarray]) -> Iterator[list[dict[str, np.ndarray]]]:
        n = _rows_of(chunk)
        start = 0
        while start < n:
            take = min(self.size - self.rows, n - start)
            if start == 0 and take == n:
                self.parts.append(chunk)
            else:
                self.parts.append({k: v[start : start + take] for k, v in chunk.items()})
            self.rows += take
            start += take
            if self.rows == self.size:
                parts, self.parts, self.rows = self.parts, [], 0
                yield parts

    def rest(self) -> list[dict[str, np.ndarray]] | None:
        """The rows left over (fewer than ``size``), or None."""
        if not self.rows:
            return None
        parts, self.parts, self.rows = self.parts, [], 0
        return parts


class _ShuffleBuffer:
    """A shuffle buffer of ``size`` rows: each row that leaves is drawn uniformly from it.

    Rows are pushed a chunk (a file) at a time; once more than ``size`` rows are held, the excess
    is drawn at random (in random order) and returned. The draws depend only on the rows pushed
    and the generator, so the same stream gives the same order.
    """

    def __init__(self, size: int, rng: np.random.Generator) -> None:
        self.size = size
        self.rng = rng
        self.store: dict[str, np.ndarray] | None = None
        self.n = 0

    def _reserve(self, need: int, chunk: dict[str, np.ndarray]) -> None:
        capacity = 0 if self.store is None else _rows_of(self.store)
        if need <= capacity:
            return
        capacity = max(need, min(2 * capacity, self.size + need))
        store = {k: np.empty((capacity, *v.shape[1:]), v.dtype) for k, v in chunk.items()}
        if self.store is not None:
            for k, v in self.store.items():
                store[k][: self.n] = v[: self.n]
        self.store = store

    def push(self, chunk: dict[str, np.ndarray]) -> dict[str, np.ndarray] | None:
        """Add rows; returns the rows drawn out (None while the buffer is not full)."""
        m = _rows_of(chunk)
        if not m:
            return None
        total = self.n + m
        self._reserve(total, chunk)
        for k, v in chunk.items():
            self.store[k][self.n : total] = v
        if total <= self.size:
            self.n = total
            return None
        drawn = self.rng.choice(total, size=total - self.size, replace=False)
        out = {k: v[drawn] for k, v in self.store.items()}
        taken = np.zeros(total, bool)
        taken[drawn] = True
        holes = np.flatnonzero(taken[: self.size])
        movers = self.size + np.flatnonzero(~taken[self.size :])
        for v in self.store.values():
            v[holes] = v[movers]
        self.n = self.size
        return out

    def drain(self) -> dict[str, np.ndarray] | None:
        """All rows left, in random order (None when empty)."""
        if not self.n:
            return None
        order = self.rng.permutation(self.n)
        out = {k: v[order] for k, v in self.store.items()}
        self.store, self.n = None, 0
        return out


# ---------------------------------------------------------------- shards


def write_shards(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    out_dir: str | os.PathLike,
    *,
    shard_rows: int = 65536,
    workers: int = 1,
    progress: bool | Callable[[int], Any] | None = None,
    overwrite: bool = False,
    **converter_options: Any,
) -> dict[str, Any]:
    """Convert record files into ``out_dir/shard-00000.npz`` ... and ``out_dir/manifest.json``.

    Each shard holds ``shard_rows`` rows (the last one fewer) of every column of
    :func:`iter_batches` (``obs``, ``mask``, ``action``, ..., ``file``), in file order; it is an
    uncompressed ``.npz`` (``np.load`` reads it) written with fixed zip timestamps, so the same
    files and options give byte-identical shards for any ``workers``. The manifest (written last:
    a directory without one is incomplete) records the encoder, dtype, options, columns, rows per
    shard, the files and the :class:`riichi_env.dataset.Stats` (games, hands, decisions, illegal,
    skipped records with their reasons). ``progress``: a callable given the number of files done,
    or True / False for a progress line on stderr (None: when stderr is a terminal).

    Returns the manifest (a dict).

    Raises:
        TypeError, ValueError: a bad argument or option; ``out_dir`` is not empty and
            ``overwrite`` is False (with ``overwrite=True`` its old shards and manifest are
            removed first; other files are left alone).
    """
    shard_rows = check_int("shard_rows", shard_rows, 1)
    overwrite = check_bool("overwrite", overwrite)
    if not isinstance(out_dir, (str, os.PathLike)) or isinstance(out_dir, bytes):
        raise TypeError(f"out_dir must be a str or os.PathLike, got {describe(out_dir)}")
    line = None
    report = None
    if callable(progress):
        report = progress
    elif progress is not None:
        check_bool("progress", progress)
    batches = iter_batches(paths, shard_rows, workers=workers, progress=None, **converter_options)
    out = Path(out_dir)
    _prepare_out_dir(out, overwrite)
    if report is None and (sys.stderr.isatty() if progress is None else progress):
        line = report = _ThrottledLine(len(batches.files))
    batches.progress = report
    shards = []
    try:
        with batches:
            for i, parts in enumerate(batches._parts()):
                name = _SHARD_NAME.format(i)
                _write_npz(out / name, parts)
                shards.append({"file": name, "rows": sum(_rows_of(p) for p in parts)})
    finally:
        if line is not None:
            line.close()
    manifest = _manifest(batches, shard_rows, shards)
    tmp = out / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, out / MANIFEST)
    return manifest


class _ThrottledLine:
    """The project's progress line (``riichi_env.play.ProgressLine``, counting files as games)
    redrawn at most every ``_REDRAW_SECONDS``; ``close`` draws the last count."""

    def __init__(self, total: int) -> None:
        from riichi_env.play import ProgressLine

        self.line = ProgressLine("dataset", total)
        self.done = 0
        self.drawn = -math.inf

    def __call__(self, done: int) -> None:
        self.done = done
        now = time.monotonic()
        if now - self.drawn >= _REDRAW_SECONDS:
            self.drawn = now
            self.line(done)

    def close(self) -> None:
        if self.line.done != self.done:
            self.line(self.done)
        self.line.close()


def _prepare_out_dir(out: Path, overwrite: bool) -> None:
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out}: exists and is not a directory (expected a directory for shards)")
    out.mkdir(parents=True, exist_ok=True)
    entries = sorted(out.iterdir())
    if entries and not overwrite:
        raise ValueError(
            f"{out}: directory is not empty ({len(entries)} entries); choose an empty or new "
            "directory, or overwrite=True (--overwrite) to replace its shards"
        )
    for entry in entries:
        name = entry.name
        ours = name == MANIFEST or (name.startswith("shard-") and ".npz" in name)
        if ours and entry.is_file():
            entry.unlink()


def _write_npz(path: Path, parts: list[dict[str, np.ndarray]]) -> None:
    """The rows of ``parts`` (pieces of one batch, in order) as an uncompressed ``.npz``, each
    column written straight from the pieces (never concatenated in memory): the bytes of
    ``np.savez(path, **columns)`` but with fixed zip timestamps and file modes, so identical rows
    give identical files. Written under a temporary name, then renamed."""
    tmp = path.with_name(path.name + ".tmp")
    rows = sum(_rows_of(p) for p in parts)
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for name, first in parts[0].items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o600 << 16
            header = {
                "descr": np.lib.format.dtype_to_descr(first.dtype),
                "fortran_order": False,
                "shape": (rows, *first.shape[1:]),
            }
            with zf.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array_header_1_0(f, header)
                for part in parts:
                    data = np.ascontiguousarray(part[name])
                    f.write(memoryview(data.reshape(-1).view(np.uint8)))
    os.replace(tmp, path)


def _json_value(value: Any) -> Any:
    """An option's value as JSON: collections as (sorted) lists, a dtype by name, a dataclass
    (``engine.Rules``) as its fields."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.dtype):
        return value.name
    if isinstance(value, (set, frozenset)):
        return sorted(_json_value(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _json_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return str(value)


def manifest_options(converter: Any, options: dict[str, Any]) -> dict[str, Any]:
    """Every option of ``converter`` as JSON: the value it uses (its attribute of that name), else
    the one given in ``options``, else its signature's default. ``walls`` (full Tenhou walls) is
    recorded as the number of walls given, or null."""
    out = {}
    for name, p in inspect.signature(type(converter)).parameters.items():
        if p.kind not in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
            continue
        value = getattr(converter, name, options.get(name, p.default))
        if name == "walls" and value is not None:
            out[name] = len(value) if hasattr(value, "__len__") else True
        else:
            out[name] = _json_value(value)
    return out


def _manifest(batches: BatchIterator, shard_rows: int, shards: list[dict]) -> dict[str, Any]:
    from riichi_env import __version__

    options = manifest_options(batches._converter, batches.options)
    stats = _fields(batches.stats)
    columns = {
        k: {"dtype": v.dtype.name, "shape": list(v.shape[1:])} for k, v in batches.empty().items()
    }
    return {
        "format": SHARD_FORMAT,
        "format_version": SHARD_VERSION,
        "riichi_env_version": __version__,
        "encoder": options.get("encoder"),
        "dtype": options.get("dtype"),
        "options": options,
        "columns": columns,
        "rows": sum(s["rows"] for s in shards),
        "shard_rows": shard_rows,
        "shards": shards,
        "files": [str(p) for p in batches.files],
        "games": stats.get("games", 0),
        "hands": stats.get("hands", 0),
        "decisions": stats.get("decisions", 0),
        "illegal": stats.get("illegal", 0),
        "skipped": [_skip_dict(s) for s in stats.get("skipped", [])],
    }


def _skip_dict(skip: Any) -> dict[str, str]:
    if isinstance(skip, dict):
        return {"file": str(skip["file"]), "reason": str(skip["reason"])}
    return {"file": str(skip.file), "reason": str(skip.reason)}


def read_manifest(directory: str | os.PathLike) -> dict[str, Any]:
    """The ``manifest.json`` of a shard directory written by :func:`write_shards`.

    Raises:
        ValueError: no manifest (not a shard directory, or its writing did not finish) or one
            this version cannot read.
    """
    if not isinstance(directory, (str, os.PathLike)) or isinstance(directory, bytes):
        raise TypeError(f"directory must be a str or os.PathLike, got {describe(directory)}")
    path = Path(directory) / MANIFEST
    if not path.is_file():
        raise ValueError(
            f"{directory}: no {MANIFEST} (not a shard directory written by write_shards / "
            "riichi-env dataset, or its writing did not finish)"
        )
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a readable manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != SHARD_FORMAT:
        raise ValueError(f"{path}: not a riichi_env shard manifest")
    if manifest.get("format_version") != SHARD_VERSION:
        raise ValueError(
            f"{path}: shard format version {manifest.get('format_version')!r}; this riichi_env "
            f"reads version {SHARD_VERSION}"
        )
    return manifest


def iter_shards(
    directory: str | os.PathLike, *, indices: Iterable[int] | None = None
) -> Iterator[dict[str, np.ndarray]]:
    """Each shard of a shard directory as a dict of arrays, in order (one shard in memory at a
    time); ``indices``: only these shards (0-based), in the order given.

    Raises:
        ValueError: not a complete shard directory, an index out of range, or a shard that does
            not match the manifest.
    """
    manifest = read_manifest(directory)
    names = list(manifest["columns"])
    count = len(manifest["shards"])
    if indices is None:
        indices = range(count)
    indices = [check_int("shard index", i, 0, max(count - 1, 0)) for i in indices]
    if indices and not count:
        raise ValueError(f"{directory}: has no shards, got shard indices {indices}")
    for i in indices:
        shard = manifest["shards"][i]
        path = Path(directory) / shard["file"]
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        if sorted(arrays) != sorted(names):
            raise ValueError(
                f"{path}: columns {sorted(arrays)}, the manifest lists {sorted(names)}"
            )
        rows = {len(v) for v in arrays.values()}
        if rows != {shard["rows"]}:
            raise ValueError(f"{path}: {sorted(rows)} rows, the manifest says {shard['rows']}")
        yield {k: arrays[k] for k in names}


def load_shards(directory: str | os.PathLike) -> dict[str, np.ndarray]:
    """All rows of a shard directory as one dict of arrays (every shard in memory at once)."""
    manifest = read_manifest(directory)
    parts = list(iter_shards(directory))
    if parts:
        return _concat(parts) if len(parts) > 1 else parts[0]
    return {
        k: np.zeros((0, *c["shape"]), np.dtype(c["dtype"])) for k, c in manifest["columns"].items()
    }


__all__ = [
    "FILE_COLUMN",
    "RECORD_SUFFIXES",
    "BatchIterator",
    "is_record_name",
    "iter_batches",
    "iter_shards",
    "load_shards",
    "read_manifest",
    "record_files",
    "write_shards",
]
