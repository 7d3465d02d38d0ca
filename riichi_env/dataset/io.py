"""Many record files as training batches, in worker processes, and as shards on disk.

:func:`iter_batches` streams batches of rows (the columns of :class:`riichi_env.dataset.Converter`
plus ``file``) from many record files, converting them in this process or in ``workers`` worker
processes; the rows and their order are the same for any number of workers, shuffled or not.
:func:`write_shards` writes the same rows to ``shard-00000.npz`` ... with a ``manifest.json``;
:func:`load_shards`, :func:`iter_shards` and :func:`read_manifest` read them back. The
``riichi-env dataset`` command (``riichi_env.cli.dataset``) runs :func:`write_shards`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import json
import math
import mmap
import os
import selectors
import signal
import sys
import time
import weakref
import zipfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from engine.arguments import check_bool, check_int, check_seed, describe
from riichi_env import _worker
from riichi_env.progress import ProgressLine
from riichi_env.records.scan import RECORD_SUFFIXES, is_record_name, scan_paths

FILE_COLUMN = "file"
"""The column :func:`iter_batches` adds: the index (int32) of the row's record in ``files``."""

MANIFEST = "manifest.json"
SHARD_FORMAT = "riichi_env dataset shards"
SHARD_VERSION = 1
SHARD_ROWS = 65536
"""Rows a shard of the ``rows`` layout holds by default."""
_SHARD_NAME = "shard-{:05d}.npz"
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_INFLIGHT_PER_WORKER = 4
_AHEAD = 32
"""Files this process converts ahead of their turn while a worker has the one wanted, at most
(packed games are a few KB each)..."""
_AHEAD_BYTES = 64 << 20
"""... and at most this many bytes of them (a float32 hanchan's rows are about 14 MB)."""
_REDRAW_SECONDS = 0.25
_MIN_BLOCK_BYTES = 1 << 20
_PIECE_ROWS = 1024
_POOL_BLOCKS = 2


def record_files(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> list[Path]:
    """The record files named by ``paths``: files as given, directories as every record file under
    them (by name, :func:`is_record_name`, or by content whatever the name; searched
    recursively, sorted by path), in the order given (``riichi_env.records.scan``, whose
    ``scan_paths`` also names the files of the folders it ignored).

    Raises:
        TypeError: ``paths`` or one of them is not a path.
        ValueError: a path does not exist, or there is no record file at all.
    """
    return scan_paths(paths).files


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
    ``workers=K > 1`` the files are converted by ``K`` processes, this one and ``K - 1`` workers
    (at most four files a worker in flight); the rows and their order are the same for every
    ``K``. Only the last batch may be shorter (``drop_last=True`` drops it). ``progress`` is
    called with the number of files done after each one.

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
        ignored: ``(file, reason)`` of each file of the directories given that is not a record
            (``riichi_env.records.scan``).
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
        scan = scan_paths(paths)
        self.files = scan.files
        self.ignored = [(str(p), why) for p, why in scan.ignored]
        self.options = dict(converter_options)
        self._converter = _converter_class()(**converter_options)  # checks the options
        self.stats = _fresh_stats(self._converter)
        self._procs: list = []
        self._gen: Iterator[dict[str, np.ndarray]] | None = None
        self._mode = "rows"  # what a file becomes: its rows, or a packed game (shards.GAMES)

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
        self.mode = it._mode

    def batches(self) -> Iterator[dict[str, np.ndarray]]:
        return self._fill()

    def parts(self) -> Iterator[list[dict[str, np.ndarray]]]:
        return ([batch] for batch in self._fill())

    def _fill(self) -> Iterator[dict[str, np.ndarray]]:
        """The batches: each file's rows (views of a converter's or a worker's buffers) copied
        once, in file order, into the batch arrays (or into the shuffle ring, then out of it);
        merges the stats."""
        filler = _Filler(self.batch_size)
        ring = None
        if self.shuffle_buffer:
            ring = _Ring(self.shuffle_buffer, np.random.default_rng(self.seed))
        results = self.results()
        rows = None
        try:
            for index, (rows, delta) in enumerate(results):
                _add_stats(self.stats, delta)
                if self.progress is not None:
                    self.progress(index + 1)
                if rows is not None and _rows_of(rows):
                    if ring is None:
                        yield from filler.push(rows, index)
                    else:
                        yield from ring.push(rows, index, filler)
                rows = None  # the buffers are the next file's now
            if ring is not None:
                yield from ring.drain(filler)
            last = filler.rest()
            if last is not None and not self.drop_last:
                yield last
        finally:
            rows = None
            results.close()

    def results(self) -> Iterator[tuple]:
        """Each file's ``(rows, stats delta)`` in file order (``(game, delta)`` in the ``games``
        mode): converted by worker processes when there are several workers and files."""
        parallel = self.workers > 1 and len(self.files) > 1
        return self._convert_in_workers() if parallel else self._convert_here()

    def _convert_here(self) -> Iterator[tuple]:
        for path in self.files:
            yield _convert_one(self._converter, path, reuse=True, mode=self.mode)

    def _convert_in_workers(self) -> Iterator[tuple]:
        """The files converted by ``workers`` processes, this one included, their results in
        file order.

        This process starts ``workers - 1`` worker processes and converts every file itself
        until a worker says it is ready (its imports done and its kernels loaded). From then on
        the ready workers are given the next files, at most ``_INFLIGHT_PER_WORKER`` each ahead
        of the consumer, and this process converts the file the consumer wants when no worker
        has it; when a worker has it and has not answered yet, this process converts the next
        file nobody has instead of waiting (holding at most ``_AHEAD`` such results, and
        ``_AHEAD_BYTES``, as fresh arrays). So the files split by speed: this process, which also
        takes every file's rows, converts fewer. Each worker has its own connection (a socket
        pair on POSIX) and ``_INFLIGHT_PER_WORKER`` slots, each a shared-memory block
        (:class:`_Blocks`): this process sends it ``(index, path, slot)``, it writes the rows
        into that slot's block (a new, larger one when they do not fit) and answers with a small
        header; this process reads the rows as views of the block, copies them once into the
        batches, and only then gives that slot a file again.
        """
        count = min(self.workers - 1, len(self.files) - 1)
        early = _worker.take_early(count, self.options, self.mode)
        if early is None:
            blocks = _Blocks(_worker.prefixes(count))
            conns, theirs, procs = self._worker_processes(blocks, count)
        else:  # started ahead of the run (``_worker.start_early``), their ends closed
            blocks, conns, procs = _Blocks(early[0]), early[1], early[2]
            theirs = []
            self._procs[:] = procs
        book = _Book(count, blocks)
        payload = None
        n = len(self.files)
        window = _INFLIGHT_PER_WORKER * count + _AHEAD
        try:
            if theirs:  # not when started ahead
                _worker.start(procs, theirs)
                _worker.send_options(conns, self.options, self.mode)
            for want in range(n):
                book.take(self._receive(conns, procs, book, block=False))
                book.next = self._give(conns, procs, book, book.next, min(n, want + window))
                while True:
                    if want >= book.next:  # nobody has it: converted here, in turn
                        book.next = want + 1
                        payload = _convert_one(
                            self._converter, self.files[want], reuse=True, mode=self.mode
                        )
                        yield payload
                        payload = None  # the converter's buffers are the next file's now
                        break
                    # converted here ahead of its turn, or by a worker
                    result = book.release(want) if want in book.mine else book.done.pop(want, None)
                    if result is not None:
                        status, payload = result
                        if status == "error":  # raised in file order, after the files before it
                            raise payload
                        yield payload
                        payload = None  # copied out: a worker's slot is free again
                        if want in book.where:
                            w, slot = book.where.pop(want)
                            book.free[w].append(slot)
                        break
                    # a worker has it: convert the next file nobody has rather than wait
                    ahead = book.next
                    if ahead < min(n, want + window) and book.room():
                        book.next = ahead + 1
                        book.hold(ahead, self._convert_ahead(ahead))
                        book.take(self._receive(conns, procs, book, block=False))
                    else:
                        book.take(self._receive(conns, procs, book))
            for w, c in enumerate(conns):  # a worker still starting is stopped, not awaited
                if book.ready[w]:
                    c.send(None)
            for w, p in enumerate(procs):
                if book.ready[w]:
                    p.join(_worker.JOIN_SECONDS)
        finally:
            book.done.clear()
            book.mine.clear()
            if book.selector is not None:
                book.selector.close()
            payload = None
            _worker.stop(procs, conns + theirs)
            blocks.close()

    def _convert_ahead(self, index: int) -> tuple[str, Any]:
        """``("ok", (rows, delta))`` of a file converted here before its turn (fresh arrays,
        not the converter's buffers), or ``("error", exc)`` to raise at its turn."""
        try:
            return "ok", _convert_one(self._converter, self.files[index], mode=self.mode)
        except Exception as exc:  # noqa: BLE001 - raised in file order, as a worker's would be
            return "error", exc

    def _worker_processes(self, blocks: _Blocks, count: int) -> tuple[list, list, list]:
        """``count`` worker processes, not started, each with a connection: ``(this process's
        ends, the workers' ends, the processes)``."""
        conns, theirs, procs = _worker.new_workers(blocks.prefixes)
        self._procs[:] = procs
        return conns, theirs, procs

    def _give(self, conns, procs, book: _Book, nxt: int, stop: int) -> int:
        """Send files ``nxt``, ``nxt + 1``, ... before ``stop`` to the ready workers with a free
        slot, the freest first; the first file not given."""
        while nxt < stop:
            ok = [w for w in range(len(conns)) if book.ready[w] and book.free[w]]
            if not ok:
                break
            w = max(ok, key=lambda i: len(book.free[i]))
            slot = book.free[w].pop()
            try:
                path = self.files[nxt]  # a path, or a run of them as text
                conns[w].send((nxt, path if isinstance(path, tuple) else str(path), slot))
            except OSError:  # the worker is gone: _receive says so
                self._receive(conns, procs, book)
                raise
            book.inflight[w].append(nxt)
            book.where[nxt] = (w, slot)
            nxt += 1
        return nxt

    def _receive(self, conns, procs, book: _Book, block: bool = True) -> list[tuple[int, tuple]]:
        """The results ready (waits for one unless not ``block``); a worker that ended is a
        ``RuntimeError``."""
        if book.selector is None:  # one selector for the run: a new one each call cost 20 us
            book.selector = selectors.DefaultSelector()
            for obj in (*conns, *(p.sentinel for p in procs)):
                book.selector.register(obj, selectors.EVENT_READ)
        ready = {key.fileobj for key, _ in book.selector.select(None if block else 0)}
        inflight = book.inflight
        out = []
        for w, conn in enumerate(conns):
            if conn in ready or (procs[w].sentinel in ready and conn.poll()):
                try:
                    out.append((w, conn.recv()))
                    continue
                except (EOFError, OSError):
                    procs[w].join(_worker.JOIN_SECONDS)
            elif procs[w].sentinel not in ready:
                continue
            files = ", ".join(_named(self.files[i]) for i in inflight[w]) or "none"
            raise RuntimeError(
                f"dataset worker process {procs[w].name} ended unexpectedly (exit code "
                f"{procs[w].exitcode}); the files it was converting: {files}"
            )
        return out


def _named(item) -> str:
    """A file, or a run of files, as text."""
    return ", ".join(map(str, item)) if isinstance(item, tuple) else str(item)


class _Book:
    """The parent's bookkeeping of its worker processes: which are ready, each one's free slots
    and files in flight, where each file given went, the results received (``done``), the
    files converted here ahead of their turn (``mine``) and the first file nobody has
    (``next``)."""

    def __init__(self, count: int, blocks: _Blocks) -> None:
        self.blocks = blocks
        self.ready = [False] * count
        self.free = [list(range(_INFLIGHT_PER_WORKER - 1, -1, -1)) for _ in range(count)]
        self.inflight: list[deque[int]] = [deque() for _ in range(count)]
        self.where: dict[int, tuple[int, int]] = {}
        self.done: dict[int, tuple] = {}
        self.mine: dict[int, tuple] = {}  # converted here ahead of their turn
        self.held = 0  # their bytes
        self.selector: selectors.BaseSelector | None = None  # the connections and sentinels
        self.next = 0  # the first file nobody has yet (a worker or this process)

    def room(self) -> bool:
        """Whether this process may hold another file converted ahead of its turn."""
        return len(self.mine) < _AHEAD and self.held < _AHEAD_BYTES

    def hold(self, index: int, result: tuple) -> None:
        """Keep ``("ok", (rows, delta))`` or ``("error", exc)`` of a file converted ahead."""
        self.mine[index] = result
        self.held += _nbytes(result)

    def release(self, index: int) -> tuple:
        """The result of a file converted ahead, no longer held."""
        result = self.mine.pop(index)
        self.held -= _nbytes(result)
        return result

    def take(self, results) -> None:
        """File the results of :meth:`_Run._receive`: a worker's start (ready, or its error
        raised here), or a file's rows (as views of its block) or error."""
        for w, (index, status, payload, name) in results:
            if index < 0:
                if status != "ready":
                    raise payload
                self.ready[w] = True
                continue
            self.inflight[w].remove(index)
            if status == "ok":
                payload = self.blocks.rows(w, self.where[index][1], payload, name)
            self.done[index] = (status, payload)


def _nbytes(result: tuple) -> int:
    """The bytes of the arrays of a ``("ok", (rows, delta))`` result (0 for an error)."""
    status, payload = result
    rows = payload[0] if status == "ok" else None
    return sum(v.nbytes for v in rows.values()) if rows else 0


def _converter_class():
    from riichi_env.dataset.convert import Converter

    return Converter


def _worker_main(conn, prefix: str) -> None:
    """A worker process (after ``riichi_env._worker.dataset_worker``): imports the converter, waits
    for its ``(options, mode)``, then converts the ``(index, path, slot)`` it receives until
    ``None``, or until the parent is gone (its end of the connection closed), writing each file's
    rows into the slot's shared-memory block (``{prefix}{n}``, a new one when they do not fit);
    the parent unlinks each block when it first reads it, this process any left at its end."""
    from multiprocessing.shared_memory import SharedMemory

    blocks: dict[int, Any] = {}
    made = 0
    try:
        try:
            converter_class = _converter_class()  # its imports overlap the parent's
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it
            conn.send((-1, "error", _portable_error(exc), None))
            return
        task = conn.recv()
        if task is None:
            return
        options, mode = task
        try:
            converter = converter_class(**options)
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it
            conn.send((-1, "error", _portable_error(exc), None))
            return
        conn.send((-1, "ready", None, None))
        while True:
            task = conn.recv()
            if task is None:
                return
            index, path, slot = task
            try:
                rows, delta = _convert_one(converter, path, reuse=True, mode=mode)
            except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it
                conn.send((index, "error", _portable_error(exc), None))
                continue
            name = specs = None
            if rows is not None and _rows_of(rows):
                specs, need = _layout(rows)
                block = blocks.get(slot)
                if block is None or block.size < need:
                    size = max(need + need // 4, _MIN_BLOCK_BYTES)
                    new = SharedMemory(f"{prefix}{made}", create=True, size=size)
                    made += 1
                    if block is not None:
                        block.close()
                    blocks[slot] = block = new
                    name = new.name
                _write_rows(block.buf, rows, specs)
            rows = None
            conn.send((index, "ok", (specs, delta), name))
    except (EOFError, OSError):  # the parent is gone
        return
    finally:
        for block in blocks.values():
            block.close()
            with contextlib.suppress(FileNotFoundError):  # the parent unlinked it
                block.unlink()
        conn.close()


def _portable_error(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a ``RuntimeError`` with its type and message."""
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any pickling problem
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _layout(rows: dict[str, np.ndarray]) -> tuple[list[tuple], int]:
    """``([(column, dtype, shape, offset)], bytes)``: the columns one after the other in a
    block, each at a multiple of 64 bytes."""
    specs, offset = [], 0
    for name, array in rows.items():
        offset = -(-offset // 64) * 64
        specs.append((name, array.dtype.str, array.shape, offset))
        offset += array.nbytes
    return specs, offset


def _write_rows(buf: memoryview, rows: dict[str, np.ndarray], specs: list[tuple]) -> None:
    for name, dtype, shape, offset in specs:
        np.ndarray(shape, np.dtype(dtype), buffer=buf, offset=offset)[...] = rows[name]


def _view_rows(buf: memoryview, specs: list[tuple]) -> dict[str, np.ndarray]:
    return {
        name: np.ndarray(shape, np.dtype(dtype), buffer=buf, offset=offset)
        for name, dtype, shape, offset in specs
    }


class _Blocks:
    """The parent's side of the workers' shared-memory blocks (one per worker and slot).

    A block a worker names for the first time is attached and at once unlinked: both processes
    keep their mapping, the name is gone, so nothing is left in ``/dev/shm`` whatever happens
    to either process afterwards. ``close`` unmaps them and unlinks the blocks a stopped worker
    made but the parent never read (their names are the worker's ``prefix`` and a counter).
    """

    def __init__(self, prefixes: list[str]) -> None:
        self.prefixes = prefixes
        self.attached: dict[tuple[int, int], Any] = {}
        self.named = [0] * len(prefixes)
        self.stale: list = []

    def rows(self, w: int, slot: int, payload: tuple, name: str | None) -> tuple:
        """``(rows, delta)``: the rows as views of the worker's block for ``slot``."""
        from multiprocessing.shared_memory import SharedMemory

        specs, delta = payload
        if specs is None:
            return None, delta
        if name is not None:
            block = SharedMemory(name)
            block.unlink()
            self.named[w] = max(self.named[w], int(name.rsplit("_", 1)[1]) + 1)
            old = self.attached.pop((w, slot), None)
            if old is not None:
                self._close(old)
            self.attached[(w, slot)] = block
        return _view_rows(self.attached[(w, slot)].buf, specs), delta

    def _close(self, block) -> None:
        try:
            block.close()
        except BufferError:  # a view is still referenced: unmapped once it is collected
            self.stale.append(block)

    def close(self) -> None:
        """Unmap the blocks; unlink any a (stopped) worker made that was never read."""
        from multiprocessing.shared_memory import SharedMemory

        for block in [*self.attached.values(), *self.stale]:
            with contextlib.suppress(BufferError):
                block.close()
        self.attached.clear()
        self.stale.clear()
        for w, prefix in enumerate(self.prefixes):
            for n in range(self.named[w], self.named[w] + _INFLIGHT_PER_WORKER):
                try:
                    block = SharedMemory(f"{prefix}{n}")
                except (FileNotFoundError, OSError, ValueError):
                    continue
                block.close()
                with contextlib.suppress(FileNotFoundError):
                    block.unlink()


def _convert_one(converter, path, reuse: bool = False, mode: str = "rows") -> tuple:
    """``(rows or None, stats delta)`` of one file; ``reuse``: the rows may be views of the
    converter's buffers, valid until its next conversion (a worker sends them at once). With
    ``mode="games"``, ``path`` is a run of files: their games as one block and ``(stats delta,
    error)`` (``shards.pack_files``)."""
    if mode != "rows":  # ``path``: a run of files (``shards._runs``)
        from riichi_env.dataset.shards import pack_files

        return pack_files(converter, path, stop=_signal_noted)
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


def row_shapes(rows: dict[str, np.ndarray]) -> dict[str, tuple[str, tuple[int, ...]]]:
    """Each column's dtype and the shape of one row: what rows mixed into one batch share."""
    return {k: (v.dtype.str, tuple(v.shape[1:])) for k, v in rows.items()}


def check_row_shapes(
    shapes: dict[str, tuple[str, tuple[int, ...]]], rows: dict[str, np.ndarray], what: str
) -> None:
    """``ValueError`` naming ``what`` when ``rows`` do not have the columns of ``shapes``
    (:func:`row_shapes`); rows of three- and four-player records (masks of 86 and 85 actions, the
    encoders' rows) never mix."""
    got = row_shapes(rows)
    if got == shapes:
        return
    if sorted(got) != sorted(shapes):
        raise ValueError(f"{what}: columns {sorted(got)}, the rows before it {sorted(shapes)}")
    for k, (dtype, shape) in shapes.items():
        if got[k] != (dtype, shape):
            hint = ""
            masks = got.get("mask"), shapes.get("mask")
            if masks[0] and masks[1] and masks[0][1] != masks[1][1]:
                hint = (
                    f" (mask width {masks[0][1][0]}, {mask_players(masks[0][1][0])}-player rows, "
                    f"after mask width {masks[1][1][0]}, {mask_players(masks[1][1][0])}-player "
                    "rows: three- and four-player rows cannot be mixed; keep them in shard sets "
                    "and batches of their own)"
                )
            raise ValueError(
                f"{what}: column {k!r} is {np.dtype(got[k][0]).name} {list(got[k][1])} a row, the "
                f"rows before it {np.dtype(dtype).name} {list(shape)}{hint}"
            )


def mask_players(width: int) -> int:
    """The players of rows whose masks have ``width`` entries (86: three, else four)."""
    from engine.actions import N_ACTIONS_3P

    return 3 if width == N_ACTIONS_3P else 4


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
    (``drop_last=True`` drops it). Unshuffled, a batch within one chunk is a view of it.
    """
    batch_size = check_int("batch_size", batch_size, 1)
    shuffle_buffer = check_int("shuffle_buffer", shuffle_buffer, 0)
    seed = check_seed(seed)
    drop_last = check_bool("drop_last", drop_last)
    return _rebatch(chunks, batch_size, shuffle_buffer, seed, drop_last)


def _rebatch(
    chunks: Iterable[dict[str, np.ndarray]],
    batch_size: int,
    shuffle_buffer: int,
    seed: int,
    drop_last: bool,
) -> Iterator[dict[str, np.ndarray]]:
    filler = _Filler(batch_size, views=True)
    ring = _Ring(shuffle_buffer, np.random.default_rng(seed)) if shuffle_buffer else None
    shapes = None
    for n, rows in enumerate(chunks):
        if not _rows_of(rows):
            continue
        if shapes is None:
            shapes = row_shapes(rows)
        else:
            check_row_shapes(shapes, rows, f"chunk {n}")
        if ring is None:
            yield from filler.push(rows)
        else:
            yield from ring.push(rows, None, filler)
    if ring is not None:
        yield from ring.drain(filler)
    last = filler.rest()
    if last is not None and not drop_last:
        yield last


class _Filler:
    """Cuts a stream of rows into batches of ``size`` rows: each batch is a set of arrays the
    caller owns (from a :class:`_Pool`, its rows copied in once, then handed over); with
    ``views``, a batch that lies within one chunk is a slice of it instead (for chunks the
    caller owns)."""

    def __init__(self, size: int, views: bool = False) -> None:
        self.size = size
        self.views = views
        self.pool = _Pool()
        self.batch: dict[str, np.ndarray] | None = None
        self.at = 0

    def _open(self, columns: dict[str, np.ndarray], file: bool) -> dict[str, np.ndarray]:
        specs = [(k, v.dtype, (self.size, *v.shape[1:])) for k, v in columns.items()]
        if file:
            specs.append((FILE_COLUMN, np.dtype(np.int32), (self.size,)))
        self.batch = self.pool.arrays(specs)
        self.at = 0
        return self.batch

    def _step(self, n: int) -> dict[str, np.ndarray] | None:
        self.at += n
        if self.at < self.size:
            return None
        batch, self.batch, self.at = self.batch, None, 0
        return batch

    def push(
        self, rows: dict[str, np.ndarray], index: int | None = None
    ) -> Iterator[dict[str, np.ndarray]]:
        """Copy ``rows`` in (``index``: the value of their ``file`` column, None for none)."""
        n, start = _rows_of(rows), 0
        while start < n:
            if self.views and self.batch is None and n - start >= self.size:
                yield {k: v[start : start + self.size] for k, v in rows.items()}
                start += self.size
                continue
            batch = self.batch or self._open(rows, index is not None)
            take = min(self.size - self.at, n - start)
            for k, v in rows.items():
                batch[k][self.at : self.at + take] = v[start : start + take]
            if index is not None:
                batch[FILE_COLUMN][self.at : self.at + take] = index
            start += take
            full = self._step(take)
            if full is not None:
                yield full

    def take(self, store: dict[str, np.ndarray], slots: np.ndarray) -> Iterator[dict]:
        """Copy rows ``slots`` of ``store`` in, in that order."""
        n, start = len(slots), 0
        while start < n:
            batch = self.batch or self._open(store, False)
            take = min(self.size - self.at, n - start)
            part = slots[start : start + take]
            for k, v in store.items():
                np.take(v, part, axis=0, out=batch[k][self.at : self.at + take], mode="clip")
            start += take
            full = self._step(take)
            if full is not None:
                yield full

    def rest(self) -> dict[str, np.ndarray] | None:
        """The rows left over (fewer than ``size``), or None."""
        if self.batch is None or not self.at:
            return None
        batch, n, self.batch, self.at = self.batch, self.at, None, 0
        if 2 * n >= self.size:
            return {k: v[:n] for k, v in batch.items()}
        return {k: v[:n].copy() for k, v in batch.items()}


class _Pool:
    """Memory for batches: the arrays of a batch are views of one block, and once none of them
    is referenced any more (the caller dropped the batch) the block is reused for a later one
    instead of fresh memory, whose first touch (page faults) can cost more than the copy into
    it. At most ``_POOL_BLOCKS`` free blocks are kept."""

    def __init__(self) -> None:
        self.free: list[mmap.mmap] = []

    def arrays(self, specs: list[tuple[str, np.dtype, tuple]]) -> dict[str, np.ndarray]:
        """New arrays ``{name: array of dtype and shape}`` for ``(name, dtype, shape)``."""
        offsets, need = [], 0
        for _, dtype, shape in specs:
            need = -(-need // 64) * 64
            offsets.append(need)
            need += dtype.itemsize * math.prod(shape)
        block = next((m for m in self.free if need <= len(m) <= 2 * need), None)
        if block is None:
            block = mmap.mmap(-1, max(need, 1))
        else:
            self.free.remove(block)
        base = np.frombuffer(block, np.uint8)  # every view's base: collected with the last one
        done = weakref.finalize(base, self._put, block)
        done.atexit = False
        return {
            name: base[at : at + dtype.itemsize * math.prod(shape)].view(dtype).reshape(shape)
            for (name, dtype, shape), at in zip(specs, offsets, strict=True)
        }

    def _put(self, block: mmap.mmap) -> None:
        if len(self.free) < _POOL_BLOCKS:
            self.free.append(block)


class _Ring:
    """A shuffle buffer of ``size`` rows: each row that leaves is drawn uniformly from it.

    The store is allocated once with ``size`` rows and room for one more piece
    (``_PIECE_ROWS``); rows come in a piece at a time, each copied once into free slots, and
    once more than ``size`` rows are held the excess is drawn at random (in random order) and
    copied once into the batches, which frees their slots. ``slots`` is a permutation of the
    store's rows, the first ``n`` of it the ones held. The draws depend only on the rows pushed
    and the generator, so the same stream gives the same order.
    """

    def __init__(self, size: int, rng: np.random.Generator) -> None:
        self.size = size
        self.rng = rng
        self.piece = min(size, _PIECE_ROWS)
        self.store: dict[str, np.ndarray] | None = None
        self.slots = np.zeros(0, np.intp)
        self.n = 0

    def _open(self, rows: dict[str, np.ndarray], file: bool) -> None:
        capacity = self.size + self.piece
        self.store = {k: np.empty((capacity, *v.shape[1:]), v.dtype) for k, v in rows.items()}
        if file:
            self.store[FILE_COLUMN] = np.empty(capacity, np.int32)
        self.slots = np.arange(capacity, dtype=np.intp)
        self.n = 0

    def push(
        self, rows: dict[str, np.ndarray], index: int | None, filler: _Filler
    ) -> Iterator[dict[str, np.ndarray]]:
        """Add rows (``index``: their ``file`` value, None for none); yields the batches the
        rows drawn out complete."""
        if self.store is None:
            self._open(rows, index is not None)
        n, start = _rows_of(rows), 0
        while start < n:
            take = min(n - start, len(self.slots) - self.n)
            free = self.slots[self.n : self.n + take]
            for k, v in rows.items():
                self.store[k][free] = v[start : start + take]
            if index is not None:
                self.store[FILE_COLUMN][free] = index
            self.n += take
            start += take
            if self.n > self.size:
                yield from self._draw(self.n - self.size, filler)

    def _draw(self, count: int, filler: _Filler) -> Iterator[dict[str, np.ndarray]]:
        picked = self.rng.choice(self.n, size=count, replace=False)
        out = self.slots[picked]
        taken = np.zeros(self.n, bool)
        taken[picked] = True
        kept = self.slots[: self.n][~taken]
        self.slots[: len(kept)] = kept
        self.slots[len(kept) : self.n] = out
        self.n = len(kept)
        yield from filler.take(self.store, out)

    def drain(self, filler: _Filler) -> Iterator[dict[str, np.ndarray]]:
        """All rows left, in random order."""
        if not self.n:
            return
        order = self.slots[: self.n][self.rng.permutation(self.n)]
        self.n = 0
        yield from filler.take(self.store, order)
        self.store = None


# ---------------------------------------------------------------- shards


def write_shards(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    out_dir: str | os.PathLike,
    *,
    layout: str = "games",
    shard_games: int | None = None,
    shard_rows: int | None = None,
    workers: int = 1,
    progress: bool | Callable[[int], Any] | None = None,
    overwrite: bool = False,
    **converter_options: Any,
) -> dict[str, Any]:
    """Convert record files into ``out_dir/shard-00000.npz`` ... and ``out_dir/manifest.json``.

    ``layout="games"`` (the default) keeps the records: each shard holds ``shard_games`` packed
    games (default 1024; about 10 KB a hanchan), every hand checked once by the replay, and the rows are made
    when the shards are read (:func:`iter_shards`, :func:`load_shards`,
    ``riichi_env.dataset.shards.iter_shard_batches``), with the converter options given here or
    others (``shards.ROW_OPTIONS``). ``layout="rows"`` writes the rows themselves: ``shard_rows``
    rows (default 65536) of every column of :func:`iter_batches` a shard (``obs`` is 21 KB a row
    in float32). Each of the two options belongs to its layout (given with the other: an error).
    Either way the shards are uncompressed ``.npz`` files (``np.load`` reads them) with fixed zip
    timestamps, in file order, so the same files and options give byte-identical shards for any
    ``workers``; each is written under ``NAME.tmp`` and renamed, and no ``.tmp`` file outlives
    the call (also when it is interrupted or terminated). The manifest (written last: a
    directory without one is incomplete) records the layout, the encoder, dtype, options, the
    columns of the rows, the shards, the files and the :class:`riichi_env.dataset.Stats`
    (games, hands, decisions, illegal, skipped records and hands with their reasons, records
    cut short, files of the folders that are not records). ``progress``: a callable given the
    number of files done, or True / False for a progress line on stderr (None: when stderr is
    a terminal).

    Returns the manifest (a dict).

    Raises:
        TypeError, ValueError: a bad argument or option; ``out_dir`` is not empty and
            ``overwrite`` is False (with ``overwrite=True`` its old shards and manifest are
            removed first; other files are left alone).
    """
    from riichi_env.dataset.shards import LAYOUTS, ROWS, SHARD_GAMES, write_game_shards

    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {describe(layout)}")
    other = "shard_games" if layout == ROWS else "shard_rows"
    if (shard_games if layout == ROWS else shard_rows) is not None:
        raise ValueError(
            f"{other} is an option of the {'games' if layout == ROWS else 'rows'} layout, not of "
            f"layout={layout!r}: shard_games for games (packed records), shard_rows for rows"
        )
    shard_rows = check_int("shard_rows", SHARD_ROWS if shard_rows is None else shard_rows, 1)
    shard_games = check_int("shard_games", SHARD_GAMES if shard_games is None else shard_games, 1)
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
    try:
        with _terminate_as_exit(report) as report:
            if layout == ROWS:
                manifest = _write_row_shards(batches, out, shard_rows, report)
            else:
                manifest = write_game_shards(batches, out, shard_games, report)
            tmp = out / (MANIFEST + ".tmp")
            text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, out / MANIFEST)
    finally:
        if line is not None:
            line.close()
        _remove_partials(out)
    return manifest


def _write_row_shards(batches: BatchIterator, out: Path, shard_rows: int, report) -> dict:
    """The ``rows`` layout: shards of ``shard_rows`` rows; the manifest."""
    batches.progress = report
    shards = []
    with batches:
        for i, parts in enumerate(batches._parts()):
            name = _SHARD_NAME.format(i)
            _write_npz(out / name, parts)
            shards.append({"file": name, "rows": sum(_rows_of(p) for p in parts)})
    return _manifest(batches, shard_rows, shards)


_NOTED: list[int] = []
"""The signals ``_terminate_as_exit`` noted and has not raised yet."""


def _signal_noted() -> bool:
    """Whether a SIGTERM or Ctrl-C was noted: a run of files stops after the file it is in."""
    return bool(_NOTED)


@contextlib.contextmanager
def _terminate_as_exit(report: Callable[[int], Any] | None) -> Iterator[Callable[[int], Any]]:
    """SIGTERM (``kill``, a job scheduler's stop) ends this block with ``SystemExit(143)`` after
    the file being converted, so that its clean-ups run (workers stopped, no ``.tmp`` file left)
    before the process ends. Yields the progress callback to use: ``report`` (if any) after a
    check for the signals. The SIGTERM handler only takes note (an exception raised at any
    bytecode could be caught by code that handles a record's errors); a second SIGTERM raises at
    once. Ctrl-C raises ``KeyboardInterrupt`` at once, as before the block, and is noted too:
    C code that clears errors (in NumPy's or Numba's argument handling) can lose that
    exception, and the check raises it again after the file."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield report if report is not None else (lambda done: None)
        return
    came: list[int] = []
    interrupted: list[bool] = []

    def stop(signum, frame):
        came.append(signum)
        _NOTED.append(signum)
        if len(came) > 1:
            raise SystemExit(128 + signum)

    before = signal.getsignal(signal.SIGINT)

    def interrupt(signum, frame):
        interrupted.append(True)
        _NOTED.append(signum)
        before(signum, frame)  # the handler of the caller (Python's raises KeyboardInterrupt)

    def checked(done: int) -> None:
        if came:
            raise SystemExit(128 + came[0])
        if interrupted:
            raise KeyboardInterrupt
        if report is not None:
            report(done)

    previous = signal.signal(signal.SIGTERM, stop)
    if callable(before):  # not when Ctrl-C is ignored
        signal.signal(signal.SIGINT, interrupt)
    try:
        yield checked
        if came:  # after the last file
            raise SystemExit(128 + came[0])
        if interrupted:
            raise KeyboardInterrupt
    finally:
        _NOTED.clear()
        signal.signal(signal.SIGTERM, previous)
        if callable(before):
            signal.signal(signal.SIGINT, before)


def _remove_partials(out: Path) -> None:
    """Delete the shard and manifest files a write left under a temporary name."""
    with contextlib.suppress(OSError):
        for entry in out.iterdir():
            name = entry.name
            if name.endswith(".tmp") and (name.startswith("shard-") or name == MANIFEST + ".tmp"):
                with contextlib.suppress(OSError):
                    entry.unlink()


class _ThrottledLine:
    """The project's progress line (``riichi_env.progress.ProgressLine``, counting files as games)
    redrawn at most every ``_REDRAW_SECONDS``; ``close`` draws the last count."""

    def __init__(self, total: int) -> None:
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
    _remove_partials(out)  # what a run that was killed left under a temporary name
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
    width = columns["mask"]["shape"][0]
    return {
        "format": SHARD_FORMAT,
        "format_version": SHARD_VERSION,
        "layout": "rows",
        "riichi_env_version": __version__,
        "encoder": options.get("encoder"),
        "game_players": mask_players(width),
        "mask_width": width,
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
        "truncated": [_skip_dict(s) for s in stats.get("truncated", [])],
        "ignored": [{"file": f, "reason": why} for f, why in batches.ignored],
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
    from riichi_env.dataset.shards import GAMES, GAMES_VERSION, ROWS

    version = manifest.get("format_version")
    if version not in (SHARD_VERSION, GAMES_VERSION):
        raise ValueError(
            f"{path}: shard format version {version!r}; this riichi_env reads versions "
            f"{SHARD_VERSION} (rows) and {GAMES_VERSION} (games): write the shards again with "
            "this riichi_env's riichi-env dataset"
        )
    manifest.setdefault("layout", ROWS if version == SHARD_VERSION else GAMES)
    if "mask_width" not in manifest:  # written before three-player rows: four players
        width = manifest.get("columns", {}).get("mask", {}).get("shape", [85])[0]
        manifest["mask_width"] = width
        manifest["game_players"] = mask_players(width)
    return manifest


def iter_shards(
    directory: str | os.PathLike,
    *,
    indices: Iterable[int] | None = None,
    **options: Any,
) -> Iterator[dict[str, np.ndarray]]:
    """Each shard of a shard directory as a dict of row arrays (the converter's columns and
    ``file``), in order (one shard in memory at a time); ``indices``: only these shards
    (0-based), in the order given. A ``games`` shard set makes its rows as it reads them, with
    the manifest's converter options or those given (``shards.ROW_OPTIONS``); a ``rows`` set
    gives the rows it holds (and takes no options).

    Raises:
        ValueError: not a complete shard directory, an index out of range, a shard that does
            not match the manifest, or options a ``rows`` shard set cannot take.
    """
    manifest = read_manifest(directory)
    count = len(manifest["shards"])
    if indices is None:
        indices = range(count)
    indices = [check_int("shard index", i, 0, max(count - 1, 0)) for i in indices]
    if indices and not count:
        raise ValueError(f"{directory}: has no shards, got shard indices {indices}")
    from riichi_env.dataset.shards import GAMES, iter_game_shards

    if manifest["layout"] == GAMES:
        return iter_game_shards(directory, manifest, indices, options)
    if options:
        raise ValueError(
            f"{directory}: a rows shard set holds its rows as they were written; "
            f"{', '.join(sorted(options))} can only be chosen when reading a games shard set "
            "(riichi-env dataset's default layout)"
        )
    return _iter_row_shards(directory, manifest, indices)


def _iter_row_shards(
    directory: str | os.PathLike, manifest: dict[str, Any], indices: list[int]
) -> Iterator[dict[str, np.ndarray]]:
    names = list(manifest["columns"])
    for i in indices:
        shard = manifest["shards"][i]
        path = Path(directory) / shard["file"]
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        if sorted(arrays) != sorted(names):
            raise ValueError(
                f"{path}: columns {sorted(arrays)}, the manifest lists {sorted(names)}"
            )
        for k in names:
            want = manifest["columns"][k]
            got = arrays[k]
            if got.dtype.name != want["dtype"] or list(got.shape[1:]) != list(want["shape"]):
                players = ""
                width = arrays["mask"].shape[1] if "mask" in arrays else None
                if width is not None and width != manifest["mask_width"]:
                    players = (
                        f" ({mask_players(width)}-player rows in a "
                        f"{manifest['game_players']}-player shard set: they cannot be mixed)"
                    )
                raise ValueError(
                    f"{path}: column {k!r} is {got.dtype.name} {list(got.shape[1:])} a row, the "
                    f"manifest says {want['dtype']} {want['shape']}{players}"
                )
        rows = {len(v) for v in arrays.values()}
        if rows != {shard["rows"]}:
            raise ValueError(f"{path}: {sorted(rows)} rows, the manifest says {shard['rows']}")
        yield {k: arrays[k] for k in names}


def load_shards(directory: str | os.PathLike, **options: Any) -> dict[str, np.ndarray]:
    """All rows of a shard directory as one dict of arrays (every shard's rows in memory at
    once); ``options`` as for :func:`iter_shards`."""
    manifest = read_manifest(directory)
    parts = [p for p in iter_shards(directory, **options) if _rows_of(p)]
    if parts:
        return _concat(parts) if len(parts) > 1 else parts[0]
    if manifest["layout"] != "rows":
        from riichi_env.dataset.shards import GameRows

        empty = GameRows(directory, manifest, options).converter.empty()
        empty[FILE_COLUMN] = np.zeros(0, np.int32)
        return empty
    return {
        k: np.zeros((0, *c["shape"]), np.dtype(c["dtype"])) for k, c in manifest["columns"].items()
    }


__all__ = [
    "FILE_COLUMN",
    "RECORD_SUFFIXES",
    "BatchIterator",
    "check_row_shapes",
    "is_record_name",
    "iter_batches",
    "iter_shards",
    "load_shards",
    "mask_players",
    "read_manifest",
    "record_files",
    "row_shapes",
    "write_shards",
]
