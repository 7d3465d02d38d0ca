"""PyTorch datasets of game records: :class:`RecordDataset` (record files) and
:class:`ShardDataset` (a shard directory of ``riichi-env dataset``).

Both are ``torch.utils.data.IterableDataset`` that yield whole batches (dicts of tensors), so a
``DataLoader`` must be given ``batch_size=None``::

    loader = DataLoader(RecordDataset(["logs/"], batch_size=1024), batch_size=None, num_workers=4)

Needs PyTorch (``pip install "riichi-env[train]"``); importing this module without it raises an
``ImportError`` saying so.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

try:
    import torch
    from torch.utils.data import IterableDataset, get_worker_info
except ImportError as exc:  # pragma: no cover - exercised with torch hidden
    raise ImportError(
        "riichi_env.dataset.torch needs PyTorch, which is not installed: "
        'pip install "riichi-env[train]" (or pip install torch)'
    ) from exc

from engine.arguments import check_bool, check_int, check_seed
from riichi_env.dataset.io import FILE_COLUMN, BatchIterator, read_manifest, record_files
from riichi_env.dataset.shards import ShardBatches, iter_shard_batches


def _worker() -> tuple[int, int]:
    """``(worker id, number of workers)`` of the ``DataLoader`` worker running this, or (0, 1)."""
    info = get_worker_info()
    return (0, 1) if info is None else (info.id, info.num_workers)


def _seed(seed: int, epoch: int, worker: int) -> int:
    """The shuffle seed of one worker in one epoch, derived from ``seed``."""
    state = np.random.SeedSequence([seed, epoch, worker]).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))


def _tensors(batch: dict[str, np.ndarray]) -> dict[str, torch.Tensor]:
    """The batch as tensors, ``action`` as int64 (what a loss takes as its target)."""
    out = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in batch.items()}
    out["action"] = out["action"].long()
    return out


class _BatchDataset(IterableDataset):
    """What both datasets share: the batching options, checked, and the epoch."""

    def _set_batching(
        self, batch_size: int, shuffle_buffer: int, seed: int, drop_last: bool
    ) -> None:
        """Check and keep the batching options; the epoch starts at 0."""
        self.batch_size = check_int("batch_size", batch_size, 1)
        self.shuffle_buffer = check_int("shuffle_buffer", shuffle_buffer, 0)
        self.seed = check_seed(seed)
        self.drop_last = check_bool("drop_last", drop_last)
        self.epoch = 0

    def set_epoch(self, epoch: int) -> None:
        """Shuffle differently in each epoch (call before iterating; a non-negative int)."""
        self.epoch = check_int("epoch", epoch, 0)


class RecordDataset(_BatchDataset):
    """Batches of rows of record files, converted as they are read.

    ``paths`` are record files or directories of them (:func:`riichi_env.dataset.io.record_files`);
    ``converter_options`` go to :class:`riichi_env.dataset.Converter`. In a ``DataLoader`` with
    ``num_workers=W`` worker ``i`` converts files ``i, i + W, ...`` (each file's rows come from
    exactly one worker) and yields batches of ``batch_size`` rows as ``torch`` tensors (the
    columns plus ``file``: the index of the row's record in ``files``); pass ``batch_size=None``
    to the ``DataLoader``. With ``shuffle_buffer=N`` each worker shuffles its rows through a
    buffer of ``N`` rows, seeded from ``seed``, the worker and the epoch (:meth:`set_epoch`).

    Raises:
        TypeError, ValueError: a bad argument or converter option.
    """

    def __init__(
        self,
        paths: str | os.PathLike | Iterable[str | os.PathLike],
        *,
        batch_size: int = 1024,
        shuffle_buffer: int = 0,
        seed: int = 0,
        drop_last: bool = False,
        **converter_options: Any,
    ) -> None:
        super().__init__()
        self.files = record_files(paths)
        self._set_batching(batch_size, shuffle_buffer, seed, drop_last)
        self.options = dict(converter_options)
        self._iterator(self.files, 0)  # checks the converter options now

    @classmethod
    def from_shards(
        cls,
        directory: str | os.PathLike,
        *,
        batch_size: int = 1024,
        shuffle_buffer: int = 0,
        seed: int = 0,
        drop_last: bool = False,
        **options: Any,
    ) -> ShardDataset:
        """A :class:`ShardDataset` over a shard directory written by ``riichi-env dataset``."""
        return ShardDataset(
            directory,
            batch_size=batch_size,
            shuffle_buffer=shuffle_buffer,
            seed=seed,
            drop_last=drop_last,
            **options,
        )

    def _iterator(self, files: list, worker: int) -> BatchIterator:
        return BatchIterator(
            files,
            self.batch_size,
            shuffle_buffer=self.shuffle_buffer,
            seed=_seed(self.seed, self.epoch, worker),
            drop_last=self.drop_last,
            **self.options,
        )

    def __iter__(self) -> Iterator[dict[str, torch.Tensor]]:
        worker, workers = _worker()
        files = self.files[worker::workers]
        if not files:
            return
        with self._iterator(files, worker) as batches:
            for batch in batches:
                # the file index among this worker's files, as an index into self.files
                batch[FILE_COLUMN] = batch[FILE_COLUMN] * np.int32(workers) + np.int32(worker)
                yield _tensors(batch)


class ShardDataset(_BatchDataset):
    """Batches of the rows of a shard directory (``riichi-env dataset --out DIR``).

    In a ``DataLoader`` with ``num_workers=W`` worker ``i`` reads games ``i, i + W, ...`` of a
    ``games`` shard set (shards ``i, i + W, ...`` of a ``rows`` set), so every row comes from
    exactly one worker, and yields batches of ``batch_size`` rows as ``torch`` tensors (pass
    ``batch_size=None`` to the ``DataLoader``), ``action`` as int64. With ``shuffle_buffer=N``
    an epoch is shuffled: shards and games in an order drawn from ``seed``, the worker and the
    epoch (:meth:`set_epoch`), and each row drawn from a buffer of ``N`` rows. ``options``: the
    rows' converter options of a ``games`` shard set (``shards.ROW_OPTIONS``: ``encoder``,
    ``kinds``, ``dtype``, ...; default the manifest's).

    Raises:
        TypeError, ValueError: a bad argument or option, or ``directory`` holds no complete
            shard set.
    """

    def __init__(
        self,
        directory: str | os.PathLike,
        *,
        batch_size: int = 1024,
        shuffle_buffer: int = 0,
        seed: int = 0,
        drop_last: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        self.manifest = read_manifest(directory)
        self.directory = directory
        self.files = list(self.manifest["files"])
        self._set_batching(batch_size, shuffle_buffer, seed, drop_last)
        self.options = dict(options)
        self._batches(0, 1).close()  # checks the options now, in this process

    def _batches(self, worker: int, workers: int) -> ShardBatches:
        return iter_shard_batches(
            self.directory,
            self.batch_size,
            shuffle=self.shuffle_buffer > 0,
            shuffle_buffer=self.shuffle_buffer,
            seed=_seed(self.seed, self.epoch, worker),
            drop_last=self.drop_last,
            part=(worker, workers),
            **self.options,
        )

    def __iter__(self) -> Iterator[dict[str, torch.Tensor]]:
        worker, workers = _worker()
        with self._batches(worker, workers) as batches:
            for batch in batches:
                yield _tensors(batch)


__all__ = ["RecordDataset", "ShardDataset"]
