"""Shard sets of packed games (``riichi_env.dataset.shards``, the default layout): the rows read
back are bit for bit the converter's, with any row options; the files, the manifest, the batches
and the clean-up of a write that stops."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from engine._numba import python_argv
from engine.rules import Rules
from riichi_env.dataset.convert import Converter, concat_rows
from riichi_env.dataset.io import FILE_COLUMN, iter_shards, load_shards, read_manifest, write_shards
from riichi_env.dataset.shards import GAMES, ROW_OPTIONS, iter_shard_batches, shard_bytes

LOGS = Path(__file__).resolve().parents[2] / "data" / "logs"
FOUR = [
    LOGS / "tenhou6" / "ranked_game.json",
    LOGS / "tenhou-mjlog" / "pao.xml",
    LOGS / "tenhou-mjlog" / "chip.xml",  # a hand the engine scores differently: skipped
    LOGS / "tenhou6" / "double_ron.json",
    LOGS / "mjai" / "126_204_0_mjai.jsonl",
    LOGS / "riichienv" / "mjsoul_seed186.jsonl",
    LOGS / "tenhou6" / "four_reach.json",
]
THREE = [
    LOGS / "tenhou6" / "nukidora_doubleron.json",
    LOGS / "tenhou6" / "kokushi_ankan.json",
    LOGS / "riichienv" / "mjsoul3p_seed15.jsonl",
]


def converted(files: list[Path], **options) -> dict[str, np.ndarray]:
    """The converter's rows of ``files`` in order, with the ``file`` column (their index)."""
    conv = Converter(**options)
    parts = []
    for i, path in enumerate(files):
        rows = conv.convert(path)
        if rows is not None and len(rows["action"]):
            rows[FILE_COLUMN] = np.full(len(rows["action"]), i, dtype=np.int32)
            parts.append(rows)
    return concat_rows(parts)


def assert_same_rows(got: dict[str, np.ndarray], want: dict[str, np.ndarray]) -> None:
    assert sorted(got) == sorted(want)
    for k, v in want.items():
        assert got[k].dtype == v.dtype, k
        assert np.array_equal(got[k], v, equal_nan=v.dtype.kind == "f"), k


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    out = tmp_path_factory.mktemp("four") / "shards"
    manifest = write_shards(FOUR, out, shard_games=3, progress=False)
    return out, manifest


def test_rows_read_back_are_the_converters(four):
    out, manifest = four
    assert_same_rows(load_shards(out), converted(FOUR))
    assert manifest["rows"] == sum(s["rows"] for s in manifest["shards"]) > 2000


@pytest.mark.parametrize(
    "options",
    [
        {"encoder": "rich_v0", "dtype": "uint8"},
        {"oracle": True, "kinds": ["discard", "riichi"]},
        {"augment": "mp", "seats": [1, 2], "skip_forced": True},
        {"encoder": "basic_v1", "players": ["A", "B"]},
    ],
)
def test_any_row_options_when_reading(four, options):
    out, _ = four
    assert_same_rows(load_shards(out, **options), converted(FOUR, **options))


def test_three_player_shards_with_another_three_seat_encoder(tmp_path):
    manifest = write_shards(THREE, tmp_path / "s", encoder="basic3_v0", progress=False)
    assert (manifest["game_players"], manifest["mask_width"]) == (3, 86)
    assert_same_rows(load_shards(tmp_path / "s"), converted(THREE, encoder="basic3_v0"))
    got = load_shards(tmp_path / "s", encoder="rich3_v0", oracle=True)
    assert_same_rows(got, converted(THREE, encoder="rich3_v0", oracle=True))
    with pytest.raises(ValueError, match="3-player games: choose one of basic3_v0"):
        load_shards(tmp_path / "s", encoder="basic_v0")


def test_the_manifest_and_the_files(four):
    out, manifest = four
    conv = Converter()
    for path in FOUR:
        conv.convert(path)
    assert read_manifest(out) == manifest == json.loads((out / "manifest.json").read_text())
    assert manifest["layout"] == GAMES and manifest["format_version"] == 2
    assert manifest["shard_games"] == 3
    assert [s["games"] for s in manifest["shards"]] == [3, 3, 1]
    assert sum(s["hands"] for s in manifest["shards"]) == manifest["hands"] == conv.stats.hands
    for key in ("games", "decisions", "illegal"):
        assert manifest[key] == getattr(conv.stats, key), key
    assert manifest["rows"] == conv.stats.decisions
    assert manifest["skipped"] == [s.as_dict() for s in conv.stats.skipped]
    assert any("chip.xml" in s["file"] for s in manifest["skipped"])
    assert manifest["files"] == [str(p) for p in FOUR]
    rules = [Rules(**fields) for fields in manifest["rules"]]  # each distinct rule set once
    assert len(rules) == len(set(rules)) >= 2 and {r.players for r in rules} == {4}
    assert set(manifest["columns"]) == {*Converter().empty(), FILE_COLUMN}
    with np.load(out / "shard-00000.npz") as npz:  # a plain .npz, no pickled objects
        assert npz["game_file"].tolist() == [0, 1, 2]
        assert npz["moves"].dtype == np.int16 and npz["hand_wall"].dtype == np.uint8
    # a hanchan's packed record is a few KB, not megabytes of rows
    assert shard_bytes(out) / manifest["games"] < 30_000


def test_the_same_shards_for_any_workers(four, tmp_path):
    out, manifest = four
    two = write_shards(FOUR, tmp_path / "two", shard_games=3, workers=2, progress=False)
    assert two["rows"] == manifest["rows"]
    for shard in manifest["shards"]:
        name = shard["file"]
        assert (tmp_path / "two" / name).read_bytes() == (out / name).read_bytes(), name


def test_the_same_shards_from_runs_of_files_for_any_workers(four, tmp_path, monkeypatch):
    """Files converted in runs (several files a worker's message, their games one block) give
    the shards of one file at a time, whatever the runs' size and the shards' boundaries."""
    import riichi_env.dataset.shards as shards

    out, manifest = four
    monkeypatch.setattr(shards, "RUNS_PER_PROCESS", 1)  # 7 files: runs of 3 (2 workers), of 7
    for workers in (2, 1):
        assert {len(r) for r in shards._runs(FOUR, workers)} == ({3, 1} if workers == 2 else {7})
        got = write_shards(
            FOUR, tmp_path / str(workers), shard_games=3, workers=workers, progress=False
        )
        assert got == {**manifest, "files": got["files"]} and got["files"] == manifest["files"]
        for shard in manifest["shards"]:
            name = shard["file"]
            assert (tmp_path / str(workers) / name).read_bytes() == (out / name).read_bytes()


def test_the_writer_gives_the_same_bytes_however_the_games_are_grouped(four, tmp_path):
    """A shard is the same bytes whether its games came one by one or in blocks that cross the
    shards' boundaries."""
    from riichi_env.dataset.shards import ShardWriter, games_block, pack_one

    conv = Converter()
    games = [(i, g) for i, f in enumerate(FOUR) if (g := pack_one(conv, f)[0]) is not None]
    one = ShardWriter(tmp_path / "one", 3)
    (tmp_path / "one").mkdir()
    for i, g in games:
        one.add(i, g)
    one.flush()
    for sizes in ([7], [2, 5], [4, 1, 2], [1, 6]):
        name = "-".join(map(str, sizes))
        (tmp_path / name).mkdir()
        writer, at = ShardWriter(tmp_path / name, 3), 0
        for size in sizes:
            part = [(i - games[at][0], g) for i, g in games[at : at + size]]
            writer.add_block(games_block(part), first_file=games[at][0])
            at += size
        writer.flush()
        assert writer.shards == one.shards and writer.rules == one.rules, sizes
        for shard in one.shards:
            f = shard["file"]
            assert (tmp_path / name / f).read_bytes() == (tmp_path / "one" / f).read_bytes()
    assert [s["games"] for s in one.shards] == [3, 3, 1]


def test_a_run_of_files_stops_at_an_error_after_the_games_before_it(tmp_path, monkeypatch):
    """A file that raises (a 3-player record with ``strict``) inside a run: the games before it
    are kept, the files after it are not read, and the error is raised in file order, as one
    file at a time does."""
    import riichi_env.dataset.shards as shards
    from riichi_env.dataset.convert import DatasetError

    files = [FOUR[0], FOUR[1], FOUR[3], THREE[0], FOUR[4]]  # not chip.xml: strict refuses it
    calls = []
    real = shards.pack_one

    def pack_one(converter, path):
        calls.append(Path(path).name)
        return real(converter, path)

    monkeypatch.setattr(shards, "pack_one", pack_one)
    conv = Converter(strict=True)
    block, (delta, error) = shards.pack_files(conv, tuple(map(str, files)))
    assert isinstance(error, DatasetError) and "3-player" in str(error)
    assert calls == [p.name for p in files[:4]]
    assert block["game_file"].tolist() == [0, 1, 2] and delta["files"] == 3  # as file by file
    monkeypatch.setattr(shards, "RUNS_PER_PROCESS", 1)
    with pytest.raises(DatasetError, match="3-player"):
        write_shards(files, tmp_path / "o", shard_games=2, strict=True, progress=False)


def test_batches_in_order_shuffled_and_in_parts(four):
    out, _ = four
    whole = load_shards(out)
    ordered = list(iter_shard_batches(out, 700))
    assert all(b["action"].dtype == np.int64 for b in ordered)
    assert [len(b["action"]) for b in ordered[:-1]] == [700] * (len(ordered) - 1)
    joined = concat_rows([{**b, "action": b["action"].astype(np.int16)} for b in ordered])
    assert_same_rows(joined, whole)

    def rows_of(batches) -> np.ndarray:
        n = sum(len(b["action"]) for b in batches)
        keys = np.concatenate(
            [np.stack([b["file"], b["hand"], b["step"], b["seat"]], 1) for b in batches]
        )
        assert len(keys) == n
        return keys

    def shuffled(seed: int, part=(0, 1)):
        return list(
            iter_shard_batches(out, 500, shuffle=True, shuffle_buffer=3000, seed=seed, part=part)
        )

    a, b, c = shuffled(1), shuffled(1), shuffled(2)
    assert all(np.array_equal(x["action"], y["action"]) for x, y in zip(a, b, strict=True))
    key = rows_of(ordered)
    for run in (a, c):
        got = rows_of(run)
        assert not np.array_equal(got, key)
        assert sorted(map(tuple, got)) == sorted(map(tuple, key))  # every row once
    parts = [rows_of(shuffled(3, (i, 3))) for i in range(3)]
    assert sorted(map(tuple, np.concatenate(parts))) == sorted(map(tuple, key))
    assert all(len(p) for p in parts)
    assert len(list(iter_shard_batches(out, 700, drop_last=True))) == len(ordered) - 1


def test_iter_shards_gives_each_shards_rows(four):
    out, manifest = four
    shards = list(iter_shards(out))
    assert [len(s["action"]) for s in shards] == [s["rows"] for s in manifest["shards"]]
    second = next(iter_shards(out, indices=[1], kinds=["discard"]))
    assert set(np.unique(second["kind"])) == {0}
    assert set(np.unique(second[FILE_COLUMN])) <= {3, 4, 5}


def test_bad_options_are_refused_with_their_names(four, tmp_path):
    out, _ = four
    with pytest.raises(ValueError, match="rules: not an option of reading shards"):
        load_shards(out, rules="tenhou")
    with pytest.raises(ValueError, match="unknown encoder"):
        load_shards(out, encoder="nope")
    with pytest.raises(ValueError, match="part must be"):
        iter_shard_batches(out, part=(3, 3))
    with pytest.raises(ValueError, match="shard_rows is an option of the rows layout"):
        write_shards(FOUR, tmp_path / "x", shard_rows=10)
    with pytest.raises(ValueError, match="shard_games is an option of the games layout"):
        write_shards(FOUR, tmp_path / "x", layout="rows", shard_games=10)
    with pytest.raises(ValueError, match="layout must be one of games, rows"):
        write_shards(FOUR, tmp_path / "x", layout="npz")
    rows = write_shards(FOUR[:1], tmp_path / "rows", layout="rows", progress=False)
    assert rows["layout"] == "rows"
    with pytest.raises(ValueError, match="a rows shard set holds its rows"):
        load_shards(tmp_path / "rows", encoder="rich_v0")
    assert set(ROW_OPTIONS) == {
        "encoder",
        "seats",
        "players",
        "kinds",
        "skip_forced",
        "augment",
        "oracle",
        "dtype",
    }


def test_a_killed_runs_temporary_files_are_removed_by_the_next(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "shard-00003.npz.tmp").write_bytes(b"half a shard")
    (out / "manifest.json.tmp").write_text("{")
    manifest = write_shards(FOUR[:2], out, progress=False)
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "shard-00000.npz"]
    assert manifest["games"] == 2


def test_sigterm_leaves_no_temporary_file(tmp_path):
    """A terminated ``riichi-env dataset`` stops its write cleanly: exit status 143, no ``.tmp``
    file and no manifest (the directory is incomplete and says so)."""
    many = tmp_path / "many"
    many.mkdir()
    # Enough files that the run is still writing seconds after its third shard (a few thousand
    # hanchan a second would finish a few hundred before the signal arrives).
    for i in range(4000):
        os.symlink(FOUR[5], many / f"g{i:04d}.jsonl")
    out = tmp_path / "out"
    argv = python_argv("riichi_env", "dataset", str(many), "--out", str(out), "--shard-games", "2")
    proc = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 600
    while not (out / "shard-00002.npz").exists():
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM
    left = sorted(p.name for p in out.iterdir())
    assert not [n for n in left if n.endswith(".tmp")] and "manifest.json" not in left
    assert left and all(n.startswith("shard-") for n in left)


def test_sigterm_inside_code_that_swallows_errors_still_ends_the_run(tmp_path, monkeypatch):
    """A SIGTERM that arrives inside a conversion which catches every error (as the fast record
    reader's fallback did, where the exception came out of a kernel) still ends the write with
    ``SystemExit(143)`` after that file: the handler only takes note."""
    import riichi_env.dataset.shards as shards

    real = shards.pack_one
    calls = []

    def pack_one(converter, path):
        calls.append(path)
        if len(calls) == 2:
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.01)  # the handler runs here
            except BaseException:  # noqa: BLE001 - what the signal must survive
                pass
        return real(converter, path)

    monkeypatch.setattr(shards, "pack_one", pack_one)
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as stopped:
        write_shards(FOUR[:4], out, shard_games=1, progress=False)
    assert stopped.value.code == 128 + signal.SIGTERM
    assert len(calls) == 2  # the file being converted, no more
    left = sorted(p.name for p in out.iterdir())
    assert "manifest.json" not in left and not [n for n in left if n.endswith(".tmp")]
    assert signal.getsignal(signal.SIGTERM) is not None  # the previous handler is back


def test_sigterm_inside_a_run_of_files_ends_it_after_that_file(tmp_path, monkeypatch):
    """Files converted as one run: a SIGTERM noted in the second file ends the run after it, the
    files after it not read."""
    import riichi_env.dataset.shards as shards

    real = shards.pack_one
    calls = []

    def pack_one(converter, path):
        calls.append(path)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.01)  # the handler runs here
        return real(converter, path)

    monkeypatch.setattr(shards, "pack_one", pack_one)
    monkeypatch.setattr(shards, "RUNS_PER_PROCESS", 1)  # the 4 files in one run
    with pytest.raises(SystemExit) as stopped:
        write_shards(FOUR[:4], tmp_path / "out", shard_games=1, progress=False)
    assert stopped.value.code == 128 + signal.SIGTERM
    assert len(calls) == 2


def test_the_cli_refuses_an_option_of_the_other_layout(tmp_path, capsys):
    from riichi_env.cli.main import main

    for args, message in (
        (["--shard-rows", "100"], "--shard-rows is an option of --layout rows"),
        (
            ["--layout", "rows", "--shard-games", "4"],
            "--shard-games is an option of --layout games",
        ),
        (["--shard-games", "0"], "--shard-games must be >= 1, got 0"),
    ):
        status = main(["dataset", str(FOUR[0]), "--out", str(tmp_path / "o"), *args])
        err = capsys.readouterr().err
        assert status == 2 and message in err, err
    assert not (tmp_path / "o").exists()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
