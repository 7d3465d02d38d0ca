"""``riichi-env dataset``: records to shards from the command line; its JSON report, errors
(one line, status 2), ``--strict`` and Ctrl-C (one line, status 130, no process left)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from test_dataset_io import KNOWN_SKIPS, REASON_3P, THREE_PLAYER, three_player

from engine._numba import python_argv
from riichi_env.cli.main import main
from riichi_env.dataset.io import load_shards, read_manifest, record_files

ROOT = Path(__file__).resolve().parents[3]
LOGS = ROOT / "tests" / "data" / "logs"


@pytest.fixture(scope="module")
def three(tmp_path_factory) -> Path:
    """A 3-player record (skipped with its reason)."""
    return three_player(tmp_path_factory.mktemp("three"))


@pytest.fixture(scope="module")
def some(three) -> list[str]:
    return [
        str(LOGS / "tenhou6" / "double_ron.json"),
        str(three),
        str(LOGS / "tenhou6" / "rinshan.json"),
    ]


KEYS = {
    "files",
    "games",
    "hands",
    "decisions",
    "rows",
    "seconds",
    "decisions_per_s",
    "illegal",
    "skipped",
    "truncated",
    "ignored",
    "shards",
}


def _run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["dataset", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_report_over_all_of_tests_data_logs(three, tmp_path, capsys):
    """Every real record: no illegal move, only the hands the replay knows to differ are
    skipped; a 3-player record is skipped with its reason (the encoder, basic_v0, is a
    four-player one), so are the real three-player records there. (``sanma.xml``, despite its name, is
    a 4-player game of a special lobby: it gives rows.)"""
    out_dir = tmp_path / "out"
    args = [str(LOGS), str(three), "--out", str(out_dir)]
    status, out, err = _run(capsys, *args, "--layout", "rows", "--shard-rows", "5000", "--json")
    assert status == 0, err
    assert "dataset: " not in err  # no progress line: stderr is not a terminal
    assert out.count("\n") == 1
    doc = json.loads(out)
    assert set(doc) == KEYS
    files = [*record_files([LOGS]), three]
    assert doc["files"] == len(files) > 40
    assert doc["illegal"] == 0
    assert doc["games"] == doc["files"] - 1 - len(THREE_PLAYER)
    assert doc["skipped"][-1] == {"file": str(three), "reason": REASON_3P}
    skipped = {Path(s["file"]).name: s["reason"] for s in doc["skipped"][:-1]}
    assert set(skipped) <= KNOWN_SKIPS | THREE_PLAYER  # the real three-player records
    assert all(skipped[name] == REASON_3P for name in THREE_PLAYER)  # (basic_v0 is four-player)
    assert doc["rows"] == doc["decisions"] > 10_000 and doc["hands"] > 200
    assert doc["decisions_per_s"] == pytest.approx(doc["decisions"] / doc["seconds"], rel=0.01)
    manifest = read_manifest(out_dir)
    assert doc["shards"] == len(manifest["shards"]) == -(-doc["rows"] // 5000)
    assert manifest["files"] == [str(p) for p in files]
    rows = load_shards(out_dir)
    assert len(rows["action"]) == doc["rows"]
    sanma = files.index(LOGS / "tenhou-mjlog" / "sanma.xml")
    with_rows = set(np.unique(rows["file"]).tolist())
    assert len(files) - 1 not in with_rows  # the 3-player record
    assert {files[i].name for i in set(range(len(files) - 1)) - with_rows} <= (
        KNOWN_SKIPS | THREE_PLAYER
    )
    assert (rows["file"] == sanma).sum() > 50


def test_options_reach_the_converter_and_the_manifest(some, tmp_path, capsys):
    out_dir = tmp_path / "out"
    status, out, err = _run(
        capsys,
        *some,
        "--out",
        str(out_dir),
        "--encoder",
        "rich_v0",
        "--rules",
        "tenhou",
        "--seats",
        "0,2",
        "--kinds",
        "discard,riichi",
        "--dtype",
        "uint8",
        "--skip-forced",
        "--json",
    )
    assert status == 0, err
    options = read_manifest(out_dir)["options"]
    assert options["encoder"] == "rich_v0" and options["rules"] == "tenhou"
    assert options["seats"] == [0, 2] and options["kinds"] == ["discard", "riichi"]
    assert options["dtype"] == "uint8" and options["skip_forced"] is True
    rows = load_shards(out_dir)
    assert rows["obs"].dtype == np.uint8
    assert set(np.unique(rows["seat"])) <= {0, 2}
    assert set(np.unique(rows["kind"])) <= {0, 1}
    assert not rows["forced"].any()


def test_human_summary(some, tmp_path, capsys):
    status, out, err = _run(capsys, *some, "--out", str(tmp_path / "o"), "--no-progress")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "files      3 (1 skipped)"
    assert lines[1] == "games      2"
    assert any(x.startswith("rows ") and "in 1 shard in" in x for x in lines)
    assert lines[-1].startswith(f"skipped    {some[1]}: ") and "3-player" in lines[-1]
    assert "dataset: " not in err


def test_a_run_that_writes_no_row_fails_with_the_reason(some, three, tmp_path, capsys):
    """Every record skipped, or filters no decision passes: status 1 and one line on stderr
    saying why, after the summary (or the JSON) that lists what was skipped."""
    status, out, err = _run(capsys, str(three), "--out", str(tmp_path / "a"), "--no-progress")
    assert status == 1
    assert out.splitlines()[0] == "files      1 (1 skipped)"
    assert f"skipped    {three}: " in out
    assert err == (
        "riichi-env dataset: no rows written: every record was skipped (1 of 1 file; the skipped "
        "lines say why)\n"
    )
    status, out, err = _run(
        capsys, *some, "--out", str(tmp_path / "b"), "--players", "nobody", "--json"
    )
    assert status == 1 and json.loads(out)["rows"] == 0
    assert err.startswith(
        "riichi-env dataset: no rows written: no decision of the 2 games read passed --players "
        "nobody (player names must be the records' own, exactly"
    )
    status, _, err = _run(
        capsys, some[0], "--out", str(tmp_path / "c"), "--seats", "1", "--kinds", "kita"
    )
    assert status == 1
    assert "no decision of the 1 game read passed --seats 1 --kinds kita\n" in err


def test_the_summary_counts_records_and_hands_skipped(tmp_path, capsys):
    chip = LOGS / "tenhou-mjlog" / "chip.xml"  # a special lobby: some hands score differently
    status, out, err = _run(capsys, str(chip), "--out", str(tmp_path / "o"), "--no-progress")
    assert status == 0, err
    lines = out.splitlines()
    hands = [line for line in lines if line.startswith(f"skipped    {chip}: hand ")]
    assert lines[0] == "files      1" and hands
    assert lines[2].startswith("hands      ") and lines[2].endswith(f" ({len(hands)} skipped)")


def test_progress_line_on_request(some, tmp_path, capsys):
    status, _, err = _run(capsys, *some, "--out", str(tmp_path / "o"), "--progress", "--json")
    assert status == 0
    assert err.startswith("\rdataset: ") and err.endswith("\n")
    assert "3/3 games" in err.split("\r")[-1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "0"], "--workers must be >= 1, got 0"),
        (["--shard-rows", "0"], "--shard-rows must be >= 1, got 0"),
        (["--kinds", "discard,bogus"], "bogus"),
        (["--players", ","], None),
        (["--seats", "4"], None),
        (["--encoder", "nope"], None),
        (["--dtype", "float16"], None),
    ],
)
def test_bad_options_give_one_line_and_status_2(some, args, message, tmp_path, capsys):
    out_dir = tmp_path / "o"
    try:
        status = main(["dataset", *some, "--out", str(out_dir), *args])
    except SystemExit as exc:  # refused by argparse
        status = exc.code
    _, err = capsys.readouterr()
    assert status == 2
    if message is not None:
        assert err.count("\n") == 1 and err.startswith("riichi-env dataset: error: "), err
        assert message in err
    assert not out_dir.exists()


def test_missing_file_and_non_empty_out(some, tmp_path, capsys):
    status, _, err = _run(capsys, str(tmp_path / "none.xml"), "--out", str(tmp_path / "o"))
    assert (
        status == 2
        and err
        == f"riichi-env dataset: error: {tmp_path / 'none.xml'}: no such file or directory\n"
    )
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "x").write_text("x")
    status, _, err = _run(capsys, *some, "--out", str(tmp_path / "o"))
    assert status == 2 and "not empty" in err and err.count("\n") == 1
    status, _, err = _run(capsys, *some, "--out", str(tmp_path / "o"), "--overwrite", "--json")
    assert status == 0, err


def test_strict_stops_at_the_3_player_game_with_status_1(some, tmp_path, capsys):
    status, out, err = _run(capsys, *some, "--out", str(tmp_path / "o"), "--strict", "--json")
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "sanma3.xml" in err and "3-player" in err
    assert not (tmp_path / "o" / "manifest.json").exists()


def _group_alive(pgid: int) -> list[int]:
    """Processes still in process group ``pgid`` (Linux /proc)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(entry.name))
    return alive


class Command:
    """``riichi-env dataset`` over minutes of work with ``--workers 2`` (the command converts and
    so does one worker process, forked as the command starts), in its own process group (so that
    they are counted in it); whatever of the group is left at the end is killed."""

    def __init__(self, out: Path):
        self.proc = subprocess.Popen(
            python_argv("riichi_env", "dataset", *[str(LOGS)] * 200, "--out", str(out))
            + ["--workers", "2", "--progress"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.err = b""
        os.set_blocking(self.proc.stderr.fileno(), False)

    def __enter__(self) -> Command:
        return self

    def __exit__(self, *exc) -> None:
        for pid in _group_alive(self.proc.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait()
        self.proc.stderr.close()

    def wait_for_files(self, n: int) -> None:
        """Until the progress line says ``n`` files are done (the workers are converting)."""
        deadline = time.monotonic() + 120
        while max(map(int, re.findall(rb"dataset: (\d+)/", self.err)), default=0) < n:
            assert self.proc.poll() is None, self.err
            assert time.monotonic() < deadline, self.err
            time.sleep(0.1)
            self.err += self.proc.stderr.read() or b""

    def wait_group_gone(self, seconds: float) -> list[int]:
        deadline = time.monotonic() + seconds
        while _group_alive(self.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        return _group_alive(self.proc.pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_ends_with_one_line_status_130_and_no_process_left(tmp_path):
    with Command(tmp_path / "o") as command:
        command.wait_for_files(3)
        assert len(_group_alive(command.proc.pid)) >= 3  # the command, the forkserver, a worker
        os.killpg(command.proc.pid, signal.SIGINT)  # as a terminal does: the whole group
        command.proc.wait(timeout=30)
        os.set_blocking(command.proc.stderr.fileno(), True)
        text = (command.err + command.proc.stderr.read()).decode()
        assert command.proc.returncode == 130, text
        assert "Traceback" not in text
        lines = [x.split("\r")[-1] for x in text.split("\n") if x.split("\r")[-1].strip()]
        assert lines[-1] == "riichi-env dataset: interrupted", text
        assert command.wait_group_gone(10) == []
    assert not (tmp_path / "o" / "manifest.json").exists()


EARLY_WORKERS = (
    "import os, sys\n"
    "import riichi_env._worker as w\n"
    "seen = []\n"
    "real_start, real_take, real_exit = w.start_early, w.take_early, os._exit\n"
    "def start_early(count, mode=None, options=None):\n"
    "    seen.append(('start', count, mode, 'numpy' in sys.modules, w.context().get_start_method()))\n"
    "    real_start(count, mode, options)\n"
    "def take_early(count, options, mode):\n"
    "    got = real_take(count, options, mode)\n"
    "    seen.append(('take', count, mode, got is not None))\n"
    "    return got\n"
    "def end(status):\n"
    "    print(seen, flush=True)\n"
    "    real_exit(status)\n"
    "w.start_early, w.take_early, os._exit = start_early, take_early, end\n"
    "from riichi_env.cli.main import main\n"
    "sys.argv = ['riichi-env', 'dataset', *{files!r}, '--out', {out!r}, '--workers', '2']\n"
    "main()\n"
)


def test_the_program_starts_its_workers_before_it_parses_its_arguments(run_python, tmp_path):
    """As the program, ``dataset --workers 2`` starts its worker before anything heavy is imported
    (forked on Linux), and the run takes that worker, sent its options: the shards are those of
    one worker."""
    files = [str(LOGS / "tenhou6" / "ranked_game.json"), str(LOGS / "tenhou6" / "four_reach.json")]
    out = tmp_path / "two"
    done = run_python(EARLY_WORKERS.format(files=files, out=str(out)), tmp_path)
    seen = eval(done.stdout.strip().splitlines()[-1])  # noqa: S307 - our own print of a list
    method = "fork" if sys.platform.startswith("linux") else seen[0][4]
    assert seen[0] == ("start", 1, None, False, method)
    assert seen[1][:3] == ("start", 1, "games")  # the run's call: the worker is given its options
    assert seen[2] == ("take", 1, "games", True)
    assert main(["dataset", *files, "--out", str(tmp_path / "one")]) == 0
    assert (out / "shard-00000.npz").read_bytes() == (
        tmp_path / "one" / "shard-00000.npz"
    ).read_bytes()


@pytest.mark.parametrize(
    ("argv", "workers"),
    [
        (["dataset", "a", "--workers", "3", "--out", "o"], 3),
        (["dataset", "a", "--workers=2"], 2),
        (["dataset", "a", "--workers", "2", "--workers", "4"], 4),
        (["dataset", "a"], 1),
        (["dataset", "a", "--workers", "x"], 1),
        (["dataset", "a", "--workers", "٣"], 1),
        (["dataset", "a", "--workers"], 1),
        (["dataset", "-h", "--workers", "2"], 1),
        (["dataset", "--", "--workers", "2"], 1),
    ],
)
def test_the_workers_a_command_line_asks_for_before_it_is_parsed(argv, workers):
    from riichi_env._worker import workers_asked

    assert workers_asked(argv) == workers


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_of_a_killed_command_exit(tmp_path):
    """SIGKILL leaves the command no chance to stop its workers: they see it is gone and exit."""
    with Command(tmp_path / "o") as command:
        command.wait_for_files(3)
        assert len(_group_alive(command.proc.pid)) >= 3
        command.proc.kill()
        command.proc.wait()
        assert command.wait_group_gone(15) == []


EXITS_AT_ONCE = (
    "import atexit, sys\n"
    "from riichi_env.cli.main import main\n"
    "atexit.register(print, 'TEARDOWN')\n"
    "sys.argv = ['riichi-env', 'dataset', {record!r}, '--out', {out!r}, '--json']\n"
    "sys.exit(main())\n"
)


def test_the_program_ends_at_once_with_its_output_flushed(run_python, tmp_path):
    """As the program (``argv`` from the command line), ``dataset`` ends its process as soon as
    its run returns: the JSON report is whole on stdout, the manifest is written, and the
    interpreter's exit handlers never run. Called with ``argv`` (here, in the tests) it returns."""
    record = str(LOGS / "tenhou6" / "rinshan.json")
    out = tmp_path / "out"
    done = run_python(EXITS_AT_ONCE.format(record=record, out=str(out)), tmp_path)
    assert "TEARDOWN" not in done.stdout
    assert json.loads(done.stdout)["games"] == 1
    assert read_manifest(out)["games"] == 1


PROFILED = (
    "import cProfile, sys\n"
    "from riichi_env.cli.main import main\n"
    "sys.argv = ['riichi-env', 'dataset', {record!r}, '--out', {out!r}, '--json']\n"
    "cProfile.run('main()', {stats!r})\n"
)


def test_a_profiled_program_exits_normally_and_keeps_the_profile(run_python, tmp_path):
    """Under a profiler the program does not end at once: the profile is written at exit."""
    stats = tmp_path / "run.prof"
    code = PROFILED.format(
        record=str(LOGS / "tenhou6" / "rinshan.json"), out=str(tmp_path / "out"), stats=str(stats)
    )
    run_python(code, tmp_path)
    assert stats.stat().st_size > 0


SEES_BLAS = (
    "import os, sys\n"
    "from riichi_env.cli import main as cli\n"
    "def seen(argv, **options):\n"
    "    print(os.environ.get('OPENBLAS_NUM_THREADS'), 'numpy' in sys.modules, flush=True)\n"
    "    return 0\n"
    "cli._main = seen\n"
    "sys.argv = ['riichi-env', *{argv!r}]\n"
    "sys.exit(cli.main())\n"
)


@pytest.mark.parametrize(
    ("argv", "env", "seen"),
    [
        (["dataset", "x", "--out", "y"], {}, "1 False"),
        (["replay", "x"], {}, "1 False"),
        (["dataset", "x", "--out", "y"], {"OPENBLAS_NUM_THREADS": "3"}, "3 False"),
        (["arena", "--games", "1"], {}, "None False"),
    ],
)
def test_record_tools_start_blas_with_one_thread_unless_told(tmp_path, argv, env, seen):
    """The record tools set ``OPENBLAS_NUM_THREADS=1`` before NumPy is imported (they do no
    linear algebra, and a thread pool costs a start 0.1 s), keeping a value the user set; the
    other commands leave it alone (a seat's own code may use BLAS)."""
    environ = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", SEES_BLAS.format(argv=argv)],
        env={**environ, "PYTHONPATH": str(ROOT), **env},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == seen


SEES_SCIPY_BLAS = (
    "import sys\n"
    "from riichi_env.cli import main as cli\n"
    "def seen(argv, **options):\n"
    "    print(sys.modules.get(cli.SCIPY_BLAS, 'absent'), flush=True)\n"
    "    return 0\n"
    "cli._main = seen\n"
    "sys.argv = ['riichi-env', *{argv!r}]\n"
    "sys.exit(cli.main())\n"
)


@pytest.mark.parametrize(
    ("argv", "seen"),
    [
        (["dataset", "x", "--out", "y"], "None"),
        (["convert", "x"], "None"),
        (["replay", "x"], "None"),
        (["arena", "--games", "1"], "absent"),
    ],
)
def test_record_tools_keep_scipy_blas_out(run_python, tmp_path, argv, seen):
    """The record tools mark SciPy's BLAS module as not importable before anything is imported
    (Numba's first kernel load would import ``scipy.linalg`` for it); the other commands leave
    it alone (a seat's own code may use SciPy)."""
    assert run_python(SEES_SCIPY_BLAS.format(argv=argv), tmp_path).stdout.strip() == seen


SEES_KEPT_OUT = (
    "import sys\n"
    "from riichi_env.cli import main as cli\n"
    "def seen(argv, **options):\n"
    "    print([sys.modules.get(m, 'absent') for m in ('scipy', 'yaml')], flush=True)\n"
    "    return 0\n"
    "cli._main = seen\n"
    "sys.argv = ['riichi-env', *{argv!r}]\n"
    "sys.exit(cli.main())\n"
)


@pytest.mark.parametrize(
    ("argv", "config", "seen"),
    [
        (["dataset", "x", "--out", "y"], False, "[None, None]"),
        (["replay", "x"], True, "[None, 'absent']"),  # Numba reads the file with PyYAML
        (["arena", "--games", "1"], False, "['absent', 'absent']"),
    ],
)
def test_record_tools_keep_scipy_and_pyyaml_out(run_python, tmp_path, argv, config, seen):
    """The record tools mark SciPy (Numba's import checks its version) and PyYAML (Numba's
    import loads it for a config file) as not importable, PyYAML only where the current
    directory has no ``.numba_config.yaml``; the other commands leave both alone."""
    if config:
        (tmp_path / ".numba_config.yaml").write_text("")
    assert run_python(SEES_KEPT_OUT.format(argv=argv), tmp_path).stdout.strip() == seen


CONVERTS_WITHOUT_SCIPY = (
    "import sys\n"
    "from riichi_env.cli import main as cli\n"
    "run = cli._main\n"
    "def watched(argv, **options):\n"
    "    status = run(argv, **options)\n"
    "    print(status, 'scipy.linalg' in sys.modules, flush=True)\n"
    "    return status\n"
    "cli._main = watched\n"
    "sys.argv = ['riichi-env', 'dataset', {record!r}, '--out', {out!r}]\n"
    "sys.exit(cli.main())\n"
)


def test_the_dataset_program_converts_without_importing_scipy_linalg(run_python, tmp_path):
    """As the program, ``dataset`` loads its kernels and converts a record without importing
    ``scipy.linalg`` (where SciPy is installed, Numba's BLAS check would)."""
    code = CONVERTS_WITHOUT_SCIPY.format(
        record=str(LOGS / "tenhou6" / "rinshan.json"), out=str(tmp_path / "out")
    )
    assert run_python(code, tmp_path).stdout.strip().splitlines()[-1] == "0 False"
    assert (tmp_path / "out" / "manifest.json").exists()


SEES_FROZEN = (
    "import gc, sys\n"
    "import riichi_env.cli.dataset as dataset\n"
    "from riichi_env.cli.main import main\n"
    "dataset.run = lambda args: print(gc.get_freeze_count() > 0, flush=True) or 0\n"
    "sys.argv = ['riichi-env', 'dataset', 'x', '--out', 'y']\n"
    "sys.exit(main())\n"
)


def test_a_record_tool_runs_with_the_imports_frozen(run_python, tmp_path):
    """As the program, a record tool's command runs with its imports' objects frozen
    (``gc.freeze``), out of the collector's scans."""
    assert run_python(SEES_FROZEN, tmp_path).stdout.strip() == "True"


SWALLOWS_CTRL_C = (
    "import sys, time\n"
    "import riichi_env.cli.dataset as dataset\n"
    "import riichi_env.cli.main as cli\n"
    "cli.INTERRUPT_GRACE = 1.0\n"
    "def run(args):\n"
    "    print('running', flush=True)\n"
    "    while True:\n"
    "        try:\n"
    "            time.sleep(0.05)\n"
    "        except KeyboardInterrupt:  # lost, as in a finalizer or __del__\n"
    "            pass\n"
    "dataset.run = run\n"
    "sys.argv = ['riichi-env', 'dataset', 'x', '--out', 'y']\n"
    "sys.exit(cli.main())\n"
)


def test_a_ctrl_c_the_run_loses_still_ends_it_with_status_130(tmp_path):
    """Python ignores a ``KeyboardInterrupt`` raised inside a finalizer: a record tool whose run
    does not act on Ctrl-C is ended ``INTERRUPT_GRACE`` seconds later, with its one line."""
    proc = subprocess.Popen(
        [sys.executable, "-c", SWALLOWS_CTRL_C],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "running"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130
    assert proc.stderr.read().strip().splitlines()[-1] == "riichi-env dataset: interrupted"
