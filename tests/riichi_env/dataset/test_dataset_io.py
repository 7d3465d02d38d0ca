"""``riichi_env.dataset.io``: batches of many record files in worker processes (the same rows for
any number of workers, shuffled or not), shards on disk, and the PyTorch datasets."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import multiprocessing
import os
import shutil
import signal
import zipfile
from pathlib import Path

import numpy as np
import pytest

import riichi_env
from riichi_env.dataset.convert import Converter, DatasetError
from riichi_env.dataset.io import (
    BatchIterator,
    is_record_name,
    iter_batches,
    iter_shards,
    load_shards,
    read_manifest,
    rebatch,
    record_files,
    write_shards,
)

LOGS = Path(__file__).resolve().parents[2] / "data" / "logs"
KNOWN_SKIPS = {
    "mjsoul_seed202.jsonl",
    "chip.xml",
    "ratio1.xml",
    "confusing_nakis_1.json",
    "confusing_nakis_2.json",
}
"""Records with a hand the engine scores differently or cannot follow (``INDEX.md``: the rule
differences and broken test files the replay lists too); the Converter skips those hands."""
THREE_PLAYER_LOGS = sorted(
    [LOGS / "tenhou-mjlog" / "sanma2.xml"]
    + [p for p in (LOGS / "tenhou6").glob("*.json") if "nuki" in p.name or "kokushi" in p.name]
    + list((LOGS / "riichienv").glob("*3p*_seed*.jsonl"))
)
"""The real three-player records of ``tests/data/logs`` (``INDEX.md``, "Three-player games")."""
THREE_PLAYER = frozenset(p.name for p in THREE_PLAYER_LOGS)
"""Their names: a converter with a four-player encoder skips them (``REASON_3P``);
``test_dataset.py`` converts them with a three-seat encoder."""
REASON_3P = (
    "a 3-player record, but the encoder basic_v0 is for 4 players: convert 3-player records in a "
    "converter of their own, with a three-seat encoder (basic3_v0, rich3_v0, oracle3_v0)"
)
"""The skip reason of a three-player record under the default encoder."""


def three_player(directory: Path) -> Path:
    """A 3-player mjlog record: the real Tenhou sanma game ``logs/tenhou-mjlog/sanma2.xml`` (the records
    read three-player games; a converter with a four-player encoder skips it)."""
    text = (LOGS / "tenhou-mjlog" / "sanma2.xml").read_text(encoding="utf-8")
    assert '<GO type="' in text
    path = directory / "sanma3.xml"
    path.write_text(text, encoding="utf-8")
    return path


def _long_actions(rows: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The rows as the PyTorch datasets yield them: ``action`` as int64."""
    return {**rows, "action": rows["action"].astype(np.int64)}


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[Path]:
    """A few records of each format, a 3-player one among them (skipped with its reason)."""
    return [
        LOGS / "tenhou6" / "ranked_game.json",
        LOGS / "tenhou-mjlog" / "pao.xml",
        three_player(tmp_path_factory.mktemp("three")),
        LOGS / "tenhou6" / "double_ron.json",
        LOGS / "mjai" / "126_204_0_mjai.jsonl",
        LOGS / "tenhou-mjlog" / "sanma.xml",
        LOGS / "tenhou6" / "four_reach.json",
    ]


def _concat(batches: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([b[k] for b in batches]) for k in batches[0]}


def _assert_same_batches(a: list[dict], b: list[dict]) -> None:
    assert [len(x["action"]) for x in a] == [len(x["action"]) for x in b]
    for x, y in zip(a, b, strict=True):
        assert list(x) == list(y)
        for k in x:
            assert x[k].dtype == y[k].dtype, k
            assert np.array_equal(x[k], y[k], equal_nan=True), k


def _row_bytes(rows: dict[str, np.ndarray]) -> np.ndarray:
    """Each row as one byte string, sorted: the rows as a multiset."""
    n = len(rows["action"])
    parts = [np.ascontiguousarray(v).reshape(n, -1).view(np.uint8) for v in rows.values()]
    whole = np.ascontiguousarray(np.concatenate(parts, axis=1))
    return np.sort(whole.view(np.dtype((np.void, whole.shape[1]))).ravel())


@pytest.fixture(scope="module")
def reference(files):
    """The unshuffled batches of files in this process, and the iterator (its stats)."""
    it = iter_batches(files, 300)
    return list(it), it


def test_rows_are_each_files_rows_in_file_order_with_its_index(files, reference):
    batches, it = reference
    rows = _concat(batches)
    expected = []
    for i, path in enumerate(files):
        part = Converter().convert(path)
        if part is not None and len(part["action"]):
            part = dict(part)
            part["file"] = np.full(len(part["action"]), i, np.int32)
            expected.append(part)
    want = _concat(expected)
    assert list(rows) == [*Converter().empty(), "file"]
    for k in want:
        assert np.array_equal(rows[k], want[k], equal_nan=True), k
    assert it.files == files
    assert all(len(b["action"]) == 300 for b in batches[:-1]) and len(batches[-1]["action"]) <= 300


def test_stats_count_the_files_and_name_the_skipped_3_player_game(files, reference):
    _, it = reference
    stats = it.stats
    assert stats.files == len(files)
    assert stats.games == len(files) - 1
    assert stats.illegal == 0
    assert stats.decisions == sum(len(b["action"]) for b in reference[0])
    assert [s.file for s in stats.skipped] == [str(files[2])]
    assert stats.skipped[0].reason == REASON_3P


@pytest.mark.parametrize("shuffle_buffer", [0, 500])
def test_two_workers_give_the_same_batches_as_one(files, reference, shuffle_buffer):
    one = list(iter_batches(files, 300, workers=1, shuffle_buffer=shuffle_buffer, seed=7))
    it = iter_batches(files, 300, workers=2, shuffle_buffer=shuffle_buffer, seed=7)
    two = list(it)
    _assert_same_batches(one, two)
    assert it.stats == reference[1].stats
    if shuffle_buffer:
        # a permutation of the unshuffled rows, not the unshuffled order
        assert np.array_equal(_row_bytes(_concat(one)), _row_bytes(_concat(reference[0])))
        assert not np.array_equal(_concat(one)["file"], _concat(reference[0])["file"])
    else:
        _assert_same_batches(one, reference[0])


def test_shuffle_depends_on_the_seed_only(files, reference):
    a = _concat(list(iter_batches(files, 256, shuffle_buffer=400, seed=1)))
    b = _concat(list(iter_batches(files, 256, shuffle_buffer=400, seed=1)))
    c = _concat(list(iter_batches(files, 256, shuffle_buffer=400, seed=2)))
    assert all(np.array_equal(a[k], b[k], equal_nan=True) for k in a)
    assert not np.array_equal(a["step"], c["step"])


def test_shuffle_buffer_mixes_rows_across_files(files):
    """A buffer larger than every file draws rows of several files into one batch."""
    batch = next(iter(iter_batches(files, 64, shuffle_buffer=100_000, seed=0)))
    assert len(np.unique(batch["file"])) >= 3


def test_drop_last_drops_only_the_short_last_batch(files, reference):
    batches = list(iter_batches(files, 300, drop_last=True))
    assert len(batches) == len(reference[0]) - 1
    assert all(len(b["action"]) == 300 for b in batches)


def test_rebatch_keeps_every_row_once():
    chunks = [{"x": np.arange(a, b)} for a, b in ((0, 5), (5, 5), (5, 23), (23, 24))]
    out = list(rebatch(chunks, 7))
    assert [len(b["x"]) for b in out] == [7, 7, 7, 3]
    assert np.array_equal(np.concatenate([b["x"] for b in out]), np.arange(24))
    shuffled = np.concatenate([b["x"] for b in rebatch(chunks, 7, shuffle_buffer=6, seed=3)])
    assert sorted(shuffled) == list(range(24)) and list(shuffled) != list(range(24))


def test_a_skip_in_the_first_file_is_counted_once(files):
    it = iter_batches([files[2], files[3]], 100)
    list(it)
    assert [s.file for s in it.stats.skipped] == [str(files[2])]
    assert it.stats.files == 2 and it.stats.games == 1


def test_rebatch_checks_its_arguments():
    with pytest.raises(ValueError, match="batch_size must be >= 1"):
        rebatch([], 0)
    with pytest.raises(TypeError, match="drop_last must be True or False"):
        rebatch([], 1, drop_last=None)


def test_progress_is_called_with_the_files_done(files):
    seen = []
    list(iter_batches(files[:3], 10_000, progress=seen.append))
    assert seen == [1, 2, 3]


def _our_children() -> list:
    return [p for p in multiprocessing.active_children() if p.name.startswith("riichi_env-")]


def test_early_break_ends_the_worker_processes(files):
    done = []
    for _ in iter_batches(files, 50, workers=3, progress=done.append):  # two worker processes
        if len(done) >= 2:
            assert len(_our_children()) == 2
            break
    assert _our_children() == []


def test_close_and_an_error_in_the_loop_body_end_the_workers(files):
    done = []
    it = iter_batches(files, 50, workers=3, progress=done.append)  # two worker processes
    for _ in it:
        if len(done) >= 2:
            break
    assert len(_our_children()) == 2  # ``it`` is still referenced: its workers wait
    it.close()
    assert _our_children() == []
    assert list(it) == []
    done.clear()
    with pytest.raises(ZeroDivisionError):
        for _ in iter_batches(files, 50, workers=2, progress=done.append):
            if len(done) >= 2:
                1 / 0  # noqa: B018
    assert _our_children() == []


def test_a_worker_that_dies_is_an_error_naming_its_files(files):
    done = []
    it = iter_batches(files, 50, workers=2, progress=done.append)
    with pytest.raises(RuntimeError, match=r"ended unexpectedly \(exit code -9\)"):
        for _ in it:
            if len(done) == 1:
                it._procs[0].kill()  # noqa: SLF001 - the test reaches in to kill one
                it._procs[0].join()
    assert _our_children() == []


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")
def test_ctrl_c_reaching_a_starting_worker_is_left_to_the_parent(files):
    """A worker ignores SIGINT from its first moment (Ctrl-C is its parent's to handle), also
    while it still imports NumPy, Numba and the engine."""
    import time

    sent = []

    def progress(done: int) -> None:
        if not sent:  # this process converted the first file: the worker has just started
            time.sleep(0.05)
            os.kill(it._procs[0].pid, signal.SIGINT)  # noqa: SLF001 - the test reaches in
            sent.append(done)

    it = iter_batches(files, 300, workers=2, progress=progress)
    two = list(it)
    assert sent
    _assert_same_batches(two, list(iter_batches(files, 300)))
    assert _our_children() == []


def test_strict_error_from_a_worker_is_raised_in_file_order(files):
    it = iter_batches(files, 10_000, workers=2, strict=True)
    seen = []
    with pytest.raises(DatasetError, match="sanma3.xml.*3-player"):
        for batch in it:
            seen.extend(np.unique(batch["file"]).tolist())
    assert set(seen) <= {0, 1}  # the files before it
    assert it.stats.files == 2
    assert _our_children() == []


@pytest.fixture
def ahead(monkeypatch) -> list[int]:
    """This process holds its first file until the worker says it is ready, so the worker then
    has the next files and this process converts files ahead of their turn: their indices."""
    import riichi_env.dataset.io as dio

    conns, seen = [], []
    make, convert_one = dio._Run._worker_processes, dio._convert_one
    convert_ahead = dio._Run._convert_ahead

    def worker_processes(self, blocks, count):
        out = make(self, blocks, count)
        conns[:] = out[0]
        return out

    def first_held(converter, path, reuse=False, mode="rows"):
        if conns and not seen:
            assert conns[0].poll(120)  # the worker's "ready", left for the parent to read
            seen.append(-1)
        return convert_one(converter, path, reuse=reuse, mode=mode)

    def counted(self, index):
        seen.append(index)
        return convert_ahead(self, index)

    monkeypatch.setattr(dio._Run, "_worker_processes", worker_processes)
    monkeypatch.setattr(dio, "_convert_one", first_held)
    monkeypatch.setattr(dio._Run, "_convert_ahead", counted)
    return seen


def _error_after_the_workers_files(files) -> tuple[list[Path], int]:
    """The files with the 3-player one (an error when strict) where this process converts it
    ahead of its turn: after file 0 (this process's) and the worker's first slots-full; its
    index."""
    import riichi_env.dataset.io as dio

    k = dio._INFLIGHT_PER_WORKER + 1
    others = [f for i, f in enumerate(files) if i != 2]
    assert len(others) > k
    return [*others[:k], files[2], *others[k:]], k


def test_files_converted_here_ahead_of_their_turn_keep_file_order(files, ahead):
    order, _ = _error_after_the_workers_files(files)
    one = iter_batches(order, 300)
    two = iter_batches(order, 300, workers=2)
    _assert_same_batches(list(one), list(two))
    assert two.stats == one.stats
    assert ahead[0] == -1 and len(ahead) > 1  # the worker had the next files, this one more
    assert _our_children() == []


def test_game_shards_keep_a_workers_games_after_its_slots_are_reused(files, ahead, tmp_path):
    """The writer holds a worker's games past the reuse of the shared blocks they came in: it
    keeps copies of them (more files than the worker has slots)."""
    many = [f for f in files for _ in range(3)]
    one = write_shards(many, tmp_path / "one", layout="games", workers=1, progress=False)
    two = write_shards(many, tmp_path / "two", layout="games", workers=2, progress=False)
    assert one == two and ahead
    for p in sorted((tmp_path / "one").iterdir()):
        assert p.read_bytes() == (tmp_path / "two" / p.name).read_bytes(), p.name


def test_files_converted_ahead_are_held_up_to_a_count_and_a_size():
    import riichi_env.dataset.io as dio

    book = dio._Book(0, dio._Blocks([]))
    small = ("ok", ({"obs": np.zeros((2, 34), np.float32)}, {}))
    for i in range(dio._AHEAD):
        assert book.room()
        book.hold(i, small)
    assert not book.room()
    assert book.release(0) is small and book.room()
    book = dio._Book(0, dio._Blocks([]))
    book.hold(0, ("ok", ({"obs": np.zeros(dio._AHEAD_BYTES, np.uint8)}, {})))
    assert not book.room()  # one file's rows fill the bytes
    book.release(0)
    book.hold(1, ("error", ValueError("x")))
    book.hold(2, ("ok", (None, {})))  # a file without rows
    assert book.held == 0 and book.room()


def test_strict_error_in_a_file_converted_ahead_is_raised_in_file_order(files, ahead):
    order, k = _error_after_the_workers_files(files)
    it = iter_batches(order, 10_000, workers=2, strict=True)
    seen = []
    with pytest.raises(DatasetError, match="sanma3.xml.*3-player"):
        for batch in it:
            seen.extend(np.unique(batch["file"]).tolist())
    assert k in ahead  # converted here while the worker had the files before it
    assert set(seen) <= set(range(k))  # the files before it
    assert it.stats.files == k
    assert _our_children() == []


def test_record_files_expand_directories_sorted_without_wall_files(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "a.json").write_text("{}")
    (tmp_path / "b" / "c.xml").write_text("<x/>")
    (tmp_path / "b" / "walls.jsonl").write_text("{}")
    (tmp_path / "README.md").write_text("no")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "d.json").write_text("{}")
    with gzip.open(tmp_path / "e.mjlog.gz", "wt") as f:
        f.write("x")
    found = record_files([tmp_path, tmp_path / "README.md"])
    names = [p.relative_to(tmp_path).as_posix() for p in found]
    assert names == ["a.json", "b/c.xml", "e.mjlog.gz", "README.md"]
    assert record_files(str(tmp_path / "a.json")) == [tmp_path / "a.json"]
    assert is_record_name("x.JSONL") and not is_record_name("walls.jsonl.gz")
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "walls.jsonl").write_text("{}")
    with pytest.raises(ValueError, match="no record files"):
        record_files([tmp_path / "w"])


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"batch_size": 0}, ValueError, "batch_size must be >= 1"),
        ({"batch_size": 2.0}, TypeError, "batch_size must be an int"),
        ({"batch_size": True}, TypeError, "batch_size must be an int"),
        ({"workers": 0}, ValueError, "workers must be >= 1"),
        ({"shuffle_buffer": -1}, ValueError, "shuffle_buffer must be >= 0"),
        ({"seed": -1}, ValueError, "seed must be an int"),
        ({"drop_last": 1}, TypeError, "drop_last must be True or False"),
        ({"progress": "yes"}, TypeError, "progress must be None or a callable"),
        ({"encoder": "nope"}, ValueError, "encoder"),
        ({"seats": [7]}, ValueError, "seats"),
        ({"colour": "red"}, TypeError, "colour"),
    ],
)
def test_bad_arguments_are_refused_before_any_work(files, kwargs, error, match):
    with pytest.raises(error, match=match):
        iter_batches(files, **kwargs)


@pytest.mark.parametrize(
    ("paths", "error", "match"),
    [
        ([], ValueError, "paths is empty"),
        ([LOGS / "nope.json"], ValueError, "no such file or directory"),
        ([b"x.json"], TypeError, "str or os.PathLike"),
        (3, TypeError, "a path or a list of paths"),
    ],
)
def test_bad_paths_are_refused(paths, error, match):
    with pytest.raises(error, match=match):
        iter_batches(paths)


def test_batch_iterator_empty_has_every_column(files):
    it = iter_batches(files[:1], dtype="uint8")
    assert isinstance(it, BatchIterator)
    empty = it.empty()
    first = next(it)
    it.close()
    assert list(empty) == list(first)
    for k in empty:
        assert empty[k].dtype == first[k].dtype and empty[k].shape[1:] == first[k].shape[1:]
    assert first["obs"].dtype == np.uint8


# ---------------------------------------------------------------- shards


@pytest.fixture(scope="module")
def shards(files, tmp_path_factory):
    """files written as shards of 500 rows by one and by two workers."""
    base = tmp_path_factory.mktemp("shards")
    one = write_shards(
        files, base / "one", layout="rows", shard_rows=500, workers=1, progress=False
    )
    two = write_shards(
        files, base / "two", layout="rows", shard_rows=500, workers=2, progress=False
    )
    return base, one, two


def test_shards_are_byte_identical_for_any_workers(shards):
    base, one, two = shards
    assert one == two
    names = sorted(p.name for p in (base / "one").iterdir())
    assert names == sorted(p.name for p in (base / "two").iterdir())
    assert len(names) == len(one["shards"]) + 1 > 2
    for name in names:
        assert (base / "one" / name).read_bytes() == (base / "two" / name).read_bytes(), name


def test_manifest_describes_the_shards(files, shards, reference):
    base, one, _ = shards
    manifest = read_manifest(base / "one")
    assert manifest == one == json.loads((base / "one" / "manifest.json").read_text())
    stats = reference[1].stats
    assert manifest["riichi_env_version"] == riichi_env.__version__
    assert manifest["encoder"] == "basic_v0" and manifest["dtype"] == "float32"
    assert manifest["options"]["encoder"] == "basic_v0"
    assert manifest["options"]["rules"] == "auto"
    assert manifest["files"] == [str(p) for p in files]
    for key in ("games", "hands", "decisions", "illegal"):
        assert manifest[key] == getattr(stats, key), key
    assert manifest["skipped"] == [s.as_dict() for s in stats.skipped]
    assert manifest["shard_rows"] == 500
    assert [s["rows"] for s in manifest["shards"][:-1]] == [500] * (len(manifest["shards"]) - 1)
    assert manifest["rows"] == sum(s["rows"] for s in manifest["shards"]) == stats.decisions
    assert set(manifest["columns"]) == {*Converter().empty(), "file"}
    assert manifest["columns"]["obs"]["shape"][1] == 34


def test_shards_read_back_as_the_batches(shards, reference):
    base, _, _ = shards
    rows = load_shards(base / "one")
    want = _concat(reference[0])
    assert list(rows) == list(want)
    for k in want:
        assert rows[k].dtype == want[k].dtype
        assert np.array_equal(rows[k], want[k], equal_nan=True), k
    first = next(iter_shards(base / "one"))
    with np.load(base / "one" / "shard-00000.npz") as npz:  # a plain .npz
        assert np.array_equal(npz["obs"], first["obs"]) and len(first["obs"]) == 500
    with zipfile.ZipFile(base / "one" / "shard-00000.npz") as npz:
        assert npz.namelist() == [f"{k}.npy" for k in first]
        for k, v in first.items():  # each member as np.save (and so np.savez) writes it
            saved = io.BytesIO()
            np.save(saved, v)
            assert npz.read(f"{k}.npy") == saved.getvalue(), k
    third = next(iter_shards(base / "one", indices=[2]))
    assert np.array_equal(third["action"], want["action"][1000:1500])
    with pytest.raises(ValueError, match="shard index"):
        next(iter_shards(base / "one", indices=[99]))


def test_write_shards_refuses_a_non_empty_directory_unless_overwrite(files, shards, tmp_path):
    base, one, _ = shards
    out = tmp_path / "out"
    shutil.copytree(base / "one", out)
    (out / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not empty"):
        write_shards(files, out)
    small = write_shards(
        files[:2], out, layout="rows", shard_rows=1 << 20, overwrite=True, progress=False
    )
    assert len(small["shards"]) == 1
    left = sorted(p.name for p in out.iterdir())
    assert left == ["manifest.json", "notes.txt", "shard-00000.npz"]  # the old shards are gone
    assert len(load_shards(out)["action"]) == small["rows"]


def test_write_shards_checks_its_arguments_before_writing(files, tmp_path):
    out = tmp_path / "new"
    with pytest.raises(ValueError, match="shard_rows must be >= 1"):
        write_shards(files, out, layout="rows", shard_rows=0)
    with pytest.raises(ValueError, match="no such file"):
        write_shards([tmp_path / "missing.xml"], out)
    with pytest.raises(TypeError, match="overwrite must be True or False"):
        write_shards(files, out, overwrite="yes")
    assert not out.exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="not a directory"):
        write_shards(files, tmp_path / "file")


def test_read_manifest_of_an_incomplete_directory(tmp_path):
    with pytest.raises(ValueError, match="no manifest.json"):
        read_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text('{"format": "other"}')
    with pytest.raises(ValueError, match="not a riichi_env shard manifest"):
        load_shards(tmp_path)


def test_all_records_skipped_give_an_empty_shard_set(tmp_path):
    manifest = write_shards([three_player(tmp_path)], tmp_path / "out", progress=False)
    assert manifest["shards"] == [] and manifest["rows"] == 0
    rows = load_shards(tmp_path / "out")
    assert len(rows["action"]) == 0 and rows["obs"].shape[1:] == tuple(
        manifest["columns"]["obs"]["shape"]
    )


# ---------------------------------------------------------------- PyTorch


def test_dataloader_with_two_workers_gives_every_files_rows_once(files, reference):
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader

    from riichi_env.dataset.torch import RecordDataset

    dataset = RecordDataset(files, batch_size=128)
    batches = list(DataLoader(dataset, batch_size=None, num_workers=2))
    assert all(isinstance(v, torch.Tensor) for b in batches for v in b.values())
    got = {k: torch.cat([b[k] for b in batches]).numpy() for k in batches[0]}
    assert got["action"].dtype == np.int64  # what a loss takes, no .long() needed
    assert np.array_equal(_row_bytes(got), _row_bytes(_long_actions(_concat(reference[0]))))
    for i in range(len(files)):  # each file's rows in one piece, in order, from one worker
        want = _concat(reference[0])
        mine = got["file"] == i
        assert np.array_equal(got["step"][mine], want["step"][want["file"] == i])


def test_dataloader_over_shards(shards):
    torch = pytest.importorskip("torch")
    from torch.utils.data import DataLoader

    from riichi_env.dataset.torch import RecordDataset, ShardDataset

    base, one, _ = shards
    dataset = RecordDataset.from_shards(base / "one", batch_size=200, shuffle_buffer=300)
    assert isinstance(dataset, ShardDataset)
    batches = list(DataLoader(dataset, batch_size=None, num_workers=2))
    got = {k: torch.cat([b[k] for b in batches]).numpy() for k in batches[0]}
    assert got["action"].dtype == np.int64
    assert np.array_equal(_row_bytes(got), _row_bytes(_long_actions(load_shards(base / "one"))))


def test_record_dataset_in_this_process_and_its_epochs(files):
    pytest.importorskip("torch")
    from riichi_env.dataset.torch import RecordDataset

    dataset = RecordDataset(files[:2], batch_size=100, shuffle_buffer=200, seed=3)
    a = [b["step"].numpy() for b in dataset]
    b = [b["step"].numpy() for b in dataset]
    dataset.set_epoch(1)
    c = [b["step"].numpy() for b in dataset]
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(np.concatenate(a), np.concatenate(c))
    with pytest.raises(ValueError, match="batch_size"):
        RecordDataset(files, batch_size=0)
    with pytest.raises(ValueError, match="encoder"):
        RecordDataset(files, encoder="nope")


def test_torch_dataset_without_torch_says_what_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.delitem(sys.modules, "riichi_env.dataset.torch", raising=False)
    with pytest.raises(ImportError, match=r"needs PyTorch.*riichi-env\[train\]"):
        import riichi_env.dataset.torch  # noqa: F401


def _our_shm() -> list[str]:
    """Shared-memory blocks of this process's dataset workers left in ``/dev/shm``."""
    shm = Path("/dev/shm")
    prefix = f"rie_{os.getpid()}_"
    return (
        sorted(p.name for p in shm.iterdir() if p.name.startswith(prefix)) if shm.is_dir() else []
    )


@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="needs /dev/shm (Linux)")
def test_no_shared_memory_is_left_after_the_end_a_break_or_a_dead_worker(files):
    list(iter_batches(files, 300, workers=2))
    assert _our_shm() == []
    done = []
    for _ in iter_batches(files, 50, workers=2, progress=done.append):
        if len(done) >= 3:
            break
    assert _our_shm() == [] and _our_children() == []
    it = iter_batches(files, 50, workers=3, progress=done.append)  # two worker processes
    done.clear()
    with pytest.raises(RuntimeError, match="ended unexpectedly"):
        for _ in it:
            if len(done) == 1:
                it._procs[1].kill()  # noqa: SLF001 - the test reaches in to kill one
                it._procs[1].join()
    assert _our_shm() == [] and _our_children() == []


def test_uint8_rows_are_the_same_for_any_workers(files):
    one = list(iter_batches(files, 256, dtype="uint8"))
    two = list(iter_batches(files, 256, dtype="uint8", workers=2))
    _assert_same_batches(one, two)
    assert one[0]["obs"].dtype == np.uint8
    want = Converter(dtype="uint8").convert(files[0])
    assert np.array_equal(one[0]["obs"][: len(want["obs"])], want["obs"][:256])


def test_a_batch_kept_by_the_caller_is_never_overwritten(files, reference):
    """Batch memory is reused only once a batch is no longer referenced: keeping every batch
    (and a view of one) gives the same rows as the reference."""
    batches = list(iter_batches(files, 300))
    view = batches[0]["obs"][5:9]
    first = view.copy()
    del batches[0]
    _assert_same_batches(batches, reference[0][1:])
    assert np.array_equal(view, first)


def test_shuffle_ring_with_a_buffer_smaller_than_a_file(files, reference):
    a = _concat(list(iter_batches(files, 64, shuffle_buffer=10, seed=3)))
    assert np.array_equal(_row_bytes(a), _row_bytes(_concat(reference[0])))
    assert not np.array_equal(a["step"], _concat(reference[0])["step"])


def test_rebatch_gives_views_of_a_chunk_and_copies_across_chunks():
    chunks = [{"x": np.arange(10)}, {"x": np.arange(10, 13)}]
    out = list(rebatch(chunks, 4))
    assert np.shares_memory(out[0]["x"], chunks[0]["x"])
    assert [b["x"].tolist() for b in out] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12]]


# ---------------------------------------------------------------- workers started ahead


def _same_shard_sets(a: Path, b: Path) -> None:
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


@pytest.mark.parametrize("layout", ["games", "rows"])
def test_workers_started_ahead_are_the_runs_workers(files, tmp_path, layout):
    """Workers started ahead of a run (``riichi-env dataset`` starts them before it loads its own
    kernels) are the ones the run gives files to; the shards are one worker's, and nothing is
    left running."""
    from riichi_env import _worker

    one = write_shards(files, tmp_path / "one", layout=layout, workers=1, progress=False)
    _worker.start_early(2, layout, {})
    ahead = {p.pid for p in _our_children()}
    assert len(ahead) == 2
    seen: set[int] = set()
    two = write_shards(
        files,
        tmp_path / "two",
        layout=layout,
        workers=3,
        progress=lambda n: seen.update(p.pid for p in _our_children()),
    )
    assert seen == ahead
    assert _worker.EARLY == []
    assert one == two
    _same_shard_sets(tmp_path / "one", tmp_path / "two")
    assert _our_children() == []


def test_workers_started_ahead_for_other_options_are_stopped(files, tmp_path):
    """A run whose options or layout differ from those the workers were started ahead for stops
    them and starts its own; so does ``_stop_early``, and no shared memory is left."""
    from riichi_env import _worker

    _worker.start_early(1, "rows", {"encoder": "rich_v0"})
    ahead = {p.pid for p in _our_children()}
    seen: set[int] = set()
    write_shards(
        files,
        tmp_path / "two",
        workers=2,
        progress=lambda n: seen.update(p.pid for p in _our_children()),
    )
    assert seen and not seen & ahead
    write_shards(files, tmp_path / "one", workers=1, progress=False)
    _same_shard_sets(tmp_path / "one", tmp_path / "two")
    _worker.start_early(2, "games", {})
    assert len(_our_children()) == 2
    _worker.stop_early()
    assert _our_children() == [] and _worker.EARLY == []
    assert _our_shm() == []


def test_a_ctrl_c_lost_inside_a_conversion_is_raised_after_that_file(files, tmp_path, monkeypatch):
    """C code that clears errors can lose the ``KeyboardInterrupt`` of a Ctrl-C: ``write_shards``
    notes the signal and raises it again once that file is done, its clean-ups run."""
    from riichi_env.dataset import shards as dataset_shards

    real = dataset_shards.pack_one
    calls = []

    def pack_one(converter, path):
        calls.append(path)
        if len(calls) == 2:
            with contextlib.suppress(KeyboardInterrupt):  # lost, as in C code clearing errors
                signal.raise_signal(signal.SIGINT)
        return real(converter, path)

    monkeypatch.setattr(dataset_shards, "pack_one", pack_one)
    with pytest.raises(KeyboardInterrupt):
        write_shards(files, tmp_path / "o", workers=1, progress=False)
    assert len(calls) == 2
    assert list((tmp_path / "o").iterdir()) == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
