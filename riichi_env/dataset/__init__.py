"""Learning from game records: records become rows (``convert``), shards and batches (``io``),
PyTorch datasets (``torch``, imported on first use of its names)."""

from riichi_env.dataset.convert import (
    AUGMENTS,
    COLUMNS,
    DELTA_UNKNOWN,
    KIND_IDS,
    KINDS,
    Converter,
    DatasetError,
    Skip,
    Stats,
    concat_rows,
    grp_game,
    record_arrays,
)
from riichi_env.dataset.io import (
    BatchIterator,
    iter_batches,
    iter_shards,
    load_shards,
    read_manifest,
    rebatch,
    record_files,
    write_shards,
)
from riichi_env.dataset.shards import iter_shard_batches

__all__ = [
    "AUGMENTS",
    "COLUMNS",
    "DELTA_UNKNOWN",
    "KIND_IDS",
    "KINDS",
    "BatchIterator",
    "Converter",
    "DatasetError",
    "RecordDataset",
    "ShardDataset",
    "Skip",
    "Stats",
    "concat_rows",
    "grp_game",
    "iter_batches",
    "iter_shard_batches",
    "iter_shards",
    "load_shards",
    "read_manifest",
    "rebatch",
    "record_arrays",
    "record_files",
    "write_shards",
]


def __getattr__(name: str):
    if name in ("RecordDataset", "ShardDataset"):  # PyTorch is an extra: imported on first use
        from riichi_env.dataset import torch as _torch

        return getattr(_torch, name)
    raise AttributeError(f"module 'riichi_env.dataset' has no attribute {name!r}")
