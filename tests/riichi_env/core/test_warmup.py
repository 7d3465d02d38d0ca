"""The first-run compile is announced on stderr, shows progress, and is silent once cached."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
import time

import pytest

import riichi_env.cli.main as cli
import riichi_env.core.compiling as warmup
import riichi_env.dataset.pack_kernels  # noqa: F401 (adds the records and dataset groups)
from engine.kernels import _can_win

REAL_WARM = warmup._warm


WARM_UPS = {}
"""The fixture's fake warm-ups, by group (``compiling._warm``)."""


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache root, a forgotten process state and a fake, quick 'selfplay' warm-up."""
    monkeypatch.setenv("RIICHI_ENV_CACHE", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(warmup, "_done", set())
    monkeypatch.setattr(warmup, "jit_disabled", lambda: False)
    monkeypatch.setattr(warmup, "_load", lambda kind: None)  # nothing compiled to load
    calls = []
    monkeypatch.setitem(WARM_UPS, "selfplay", lambda: calls.append(time.sleep(0.3)))
    monkeypatch.setattr(warmup, "_warm", lambda kind: WARM_UPS[kind]())
    return calls


def test_cold_cache_prints_one_line_before_and_progress(fresh, monkeypatch):
    monkeypatch.setattr(warmup, "PROGRESS_EVERY", 0.1)
    out = io.StringIO()
    assert not warmup.is_compiled("selfplay")
    seconds = warmup.ensure_compiled("selfplay", stream=out)
    lines = out.getvalue().splitlines()
    assert fresh == [None] and seconds >= 0.3
    assert lines[0].startswith("riichi_env: compiling the compiled self-play loop for this machine")
    assert warmup.KINDS["selfplay"][1] in lines[0]
    assert any("still compiling" in line for line in lines[1:-1]), lines
    assert lines[-1].startswith("riichi_env: compiled selfplay in")
    assert warmup.is_compiled("selfplay")


def test_warm_cache_prints_nothing(fresh, monkeypatch):
    warmup.ensure_compiled("selfplay", stream=io.StringIO())
    monkeypatch.setattr(warmup, "_done", set())  # a new process, the same cache
    out = io.StringIO()
    assert warmup.ensure_compiled("selfplay", stream=out) == 0.0
    assert out.getvalue() == "" and len(fresh) == 1


def test_an_edited_source_compiles_again(fresh, monkeypatch):
    warmup.ensure_compiled("selfplay", stream=io.StringIO())
    monkeypatch.setattr(warmup, "_done", set())
    monkeypatch.setattr(warmup, "_sources_digest", lambda: "edited")
    assert not warmup.is_compiled("selfplay")


def test_the_markers_follow_the_kernels_cache_not_every_source(monkeypatch):
    """A marker is keyed by what Numba's cache folder is keyed by (engine and the modules that
    use Numba) plus the warm-up signatures in compiling.py: editing another module (a CLI
    docstring) keeps the markers valid, editing a kernel's module does not."""
    from pathlib import Path

    warmup.source_digest()  # read once per process (at the kernels' decoration)
    read = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.name) or real(self))
    warmup._sources_digest.cache_clear()
    try:
        before = warmup._sources_digest()
        assert read == ["compiling.py"]
        warmup._sources_digest.cache_clear()
        monkeypatch.setattr(warmup, "source_digest", lambda: "a kernel module edited")
        assert warmup._sources_digest() != before
    finally:
        warmup._sources_digest.cache_clear()


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown kernel group 'gpu'"):
        warmup.is_compiled("gpu")


def test_ctrl_c_during_the_compile_prints_one_line(monkeypatch, capsys):
    def interrupted(kind):
        raise KeyboardInterrupt

    import riichi_env.batch.play  # noqa: F401 (imported now, it binds the real one for later tests)

    cli.build_parser()  # every command's module imported now too: `score` binds the real one
    monkeypatch.setattr(warmup, "ensure_compiled", interrupted)
    assert cli.main(["selfplay", "--games", "1"]) == 130  # it compiles after checking its input
    err = capsys.readouterr().err
    assert err == "riichi-env selfplay: interrupted\n"


def test_an_env_with_another_encoder_compiles_the_encoders_group(fresh, monkeypatch):
    """The env's own warm-up compiles basic_v0 only; any other encoder asks for "encoders"."""
    import importlib

    module = importlib.import_module("riichi_env.aec.raw_env")  # the env's module
    asked = []
    monkeypatch.setattr(module, "ensure_compiled", asked.append)
    raw_env = module.raw_env
    raw_env()
    assert asked == ["env"]
    raw_env(encoder="rich_v0")
    assert asked == ["env", "env", "encoders"]
    assert "encoders" in warmup.KINDS


def test_a_three_player_env_compiles_the_encoders_group(fresh, monkeypatch):
    """A three-player env observes with a three-seat encoder, whose kernel the env's warm-up does
    not compile: it asks for "encoders", whose part lists every encoder's kernel but basic_v0."""
    import importlib

    from riichi_env.core.encoders import ALL_ENCODERS, ENCODERS_3P

    module = importlib.import_module("riichi_env.aec.raw_env")
    asked = []
    monkeypatch.setattr(module, "ensure_compiled", asked.append)
    module.raw_env(rules="mahjongsoul-3p")
    assert asked == ["env", "encoders"]
    names = [warmup.name(kernel).rpartition(".")[2] for kernel, _ in warmup.entries("encoders")]
    assert names == ["_encode_" + e for e in ALL_ENCODERS if e != "basic_v0"]
    assert all("_encode_" + e in names for e in ENCODERS_3P)


def test_compile_jobs_default_and_override(monkeypatch):
    monkeypatch.delenv(warmup.COMPILE_JOBS, raising=False)
    monkeypatch.setattr(warmup.os, "cpu_count", lambda: 2)
    assert warmup.compile_jobs() == 2
    monkeypatch.setattr(warmup.os, "cpu_count", lambda: 1)
    assert warmup.compile_jobs() == 1
    monkeypatch.setenv(warmup.COMPILE_JOBS, "1")
    assert warmup.compile_jobs() == 1
    for bad in ("0", "two", "-3", "²"):
        monkeypatch.setenv(warmup.COMPILE_JOBS, bad)
        with pytest.raises(ValueError, match="RIICHI_ENV_COMPILE_JOBS must be a whole number"):
            warmup.compile_jobs()


def test_the_helper_takes_the_second_lane_of_the_group():
    """The helper compiles the kernels of ``_second()`` of the group's list, in its order; this
    process compiles the others (a helper that compiled nothing
    this process waits for would leave it alone, only slower: no other test would notice)."""
    second = warmup._second()
    env = [kernel for kernel, _ in warmup.entries("env")]
    helper = [kernel for kernel, _ in warmup.helper_entries("env")]
    assert helper == [k for k in env if k in second]
    assert any(k not in second for k in env) and env[-1] not in second  # the loop is here


def test_the_helper_prints_each_kernel_once_cached():
    """The helper names each kernel it cached, from the group's list; an unknown group ends it."""
    if warmup.jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    import riichi_env
    from engine._numba import python_argv

    riichi_env.env()  # warm: the helper below loads from the cache
    argv = python_argv("riichi_env.core.compile_helper", "env")  # this process's import path
    run = subprocess.run(argv, capture_output=True, text=True, check=True)
    assert run.stdout.split() == [warmup.name(k) for k, _ in warmup.helper_entries("env")]
    argv = python_argv("riichi_env.core.compile_helper", "gpu")
    run = subprocess.run(argv, capture_output=True, text=True)
    assert run.returncode != 0 and run.stdout == ""


def test_a_helper_that_fails_leaves_the_work_to_this_process(monkeypatch):
    """A helper that cannot run ends; waiting for it returns, and the caller compiles instead."""
    monkeypatch.setattr(warmup.sys, "executable", "/nonexistent/python")
    helper = warmup._Helper("env")
    assert helper.wait(_can_win) is False
    assert helper.ended and helper.done == set()
    helper.stop()


def test_the_core_compiles_on_two_cores_only_once_and_only_with_two_jobs(fresh, monkeypatch):
    started, compiled = [], []
    monkeypatch.setattr(warmup, "_Helper", lambda kind: started.append(kind))
    monkeypatch.setattr(warmup, "compile_kernel", lambda kernel, types: compiled.append(kernel))
    monkeypatch.setenv(warmup.COMPILE_JOBS, "1")
    monkeypatch.setattr(warmup, "_warm", REAL_WARM)
    warmup._warm("replay")
    monkeypatch.setenv(warmup.COMPILE_JOBS, "2")
    warmup._mark("replay", 1.0)  # the game's kernels are cached for these sources
    warmup._warm("replay")
    assert started == [] and compiled == [*warmup.GAME, *warmup.GAME]


def test_the_helper_imports_the_project_from_this_process_s_path(monkeypatch):
    """Numba files a kernel's cache entries under its file's path as imported: a helper importing
    the checkout from another path (its working directory, a resolved symlink) compiles into
    folders this process never reads (CI's checkout is reached through a symlink)."""
    from engine._numba import python_argv

    started = []

    def popen(argv, **kwargs):
        started.append(argv)
        raise OSError("not started in this test")

    monkeypatch.setattr(warmup.subprocess, "Popen", popen)
    helper = warmup._Helper("env")
    assert helper.ended
    assert started == [python_argv("riichi_env.core.compile_helper", "env")]


def test_a_helper_that_hangs_is_waited_for_at_most_the_timeout(monkeypatch, tmp_path):
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\nexec sleep 60\n")
    fake.chmod(0o755)
    monkeypatch.setattr(warmup.sys, "executable", str(fake))
    monkeypatch.setattr(warmup, "HELPER_TIMEOUT", 0.2)
    helper = warmup._Helper("env")
    start = time.perf_counter()
    try:
        assert helper.wait(_can_win) is False and not helper.ended
    finally:
        helper.stop()
    assert time.perf_counter() - start < 10


def test_the_self_play_loop_compiled_inside_another_warm_up_is_marked_and_not_announced(
    fresh, monkeypatch
):
    """The env's warm-up compiles the random loop too (its list holds self-play's): self-play's
    ``ensure_compiled("selfplay")`` after it prints nothing, and later runs skip it."""
    out = io.StringIO()
    monkeypatch.setitem(WARM_UPS, "env", lambda: None)
    warmup.ensure_compiled("env", stream=io.StringIO())
    monkeypatch.setitem(WARM_UPS, "selfplay", lambda: None)  # loads what the env compiled
    assert warmup.ensure_compiled("selfplay", stream=out) == 0.0
    assert out.getvalue() == "" and fresh == []  # no notice, no second warm-up
    monkeypatch.setattr(warmup, "_done", set())  # a later process
    assert warmup.is_compiled("selfplay")


# -- one process at a time compiles into a cache (issue 23) ----------------------------------------


def _hold_lock():
    """Take the compile lock of the fixture's cache as another process would (a second open file
    description: flock conflicts with it even within this process)."""
    handle = open(warmup._marker("lock").with_name("lock"), "a+")  # noqa: SIM115
    assert warmup._try_lock(handle)
    return handle


@pytest.mark.skipif(warmup.os.name == "nt", reason="flock semantics")
def test_a_second_process_waits_for_the_first_and_loads_what_it_compiled(fresh, monkeypatch):
    monkeypatch.setattr(warmup, "PROGRESS_EVERY", 0.1)
    handle = _hold_lock()

    def the_other_process_finishes():
        time.sleep(0.5)
        warmup._mark("selfplay", 9.0)
        warmup._try_lock(handle, take=False)
        handle.close()

    other = threading.Thread(target=the_other_process_finishes)
    other.start()
    out = io.StringIO()
    try:
        assert warmup.ensure_compiled("selfplay", stream=out) == 0.0
    finally:
        other.join()
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "riichi_env: another process is compiling into this cache; waiting for it, then "
        "loading what it compiled"
    )
    assert any("still waiting for the other process" in line for line in lines[1:-1]), lines
    assert lines[-1] == "riichi_env: selfplay was compiled by the other process; loading it"
    assert fresh == []  # nothing compiled here


@pytest.mark.skipif(warmup.os.name == "nt", reason="flock semantics")
def test_after_the_wait_what_the_other_process_did_not_compile_is_compiled_here(fresh, monkeypatch):
    handle = _hold_lock()
    threading.Timer(0.3, lambda: (warmup._try_lock(handle, take=False), handle.close())).start()
    out = io.StringIO()
    assert warmup.ensure_compiled("selfplay", stream=out) > 0.0
    assert fresh == [None] and "waiting for it" in out.getvalue()
    assert "riichi_env: compiled selfplay in" in out.getvalue()


@pytest.mark.skipif(warmup.os.name == "nt", reason="flock semantics")
def test_a_lock_held_too_long_is_given_up(fresh, monkeypatch):
    monkeypatch.setattr(warmup, "LOCK_WAIT", 0.3)
    handle = _hold_lock()
    try:
        out = io.StringIO()
        warmup.ensure_compiled("selfplay", stream=out)
    finally:
        handle.close()
    assert "still locked after 0 s; compiling here too" in out.getvalue() and fresh == [None]


def test_the_lock_is_reentrant_and_released(fresh):
    with warmup._compile_lock(io.StringIO()) as waited:
        assert waited is False
        with warmup._compile_lock(io.StringIO()) as again:  # a warm-up inside a warm-up
            assert again is False
    handle = _hold_lock()  # released: another process takes it at once
    handle.close()


TWO_PROCESSES = """
import sys, time
import riichi_env.core.compiling as warmup

def slow():
    with open(sys.argv[1], "a") as log:
        log.write(f"start {time.time()}\\n")
    time.sleep(3)
    with open(sys.argv[1], "a") as log:
        log.write(f"end {time.time()}\\n")

warmup._warm = lambda kind: slow()
warmup._load = lambda kind: None
warmup.jit_disabled = lambda: False
warmup.ensure_compiled("score")
"""


@pytest.mark.skipif(warmup.os.name == "nt", reason="flock semantics")
def test_two_processes_on_one_empty_cache_compile_once(tmp_path):
    env = {**warmup.os.environ, "RIICHI_ENV_CACHE": str(tmp_path / "cache")}
    env.pop("NUMBA_CACHE_DIR", None)
    log = tmp_path / "log"
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", TWO_PROCESSES, str(log)],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    errs = [run.communicate(timeout=120)[1] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], errs
    assert [line.split()[0] for line in log.read_text().splitlines()] == ["start", "end"]
    waited = [err for err in errs if "waiting for it" in err]
    assert len(waited) <= 1, errs  # (none: the second started after the first was done)
    for err in waited:
        assert "score was compiled by the other process; loading it" in err


# -- the notice estimates what is left to compile (issue 23) ---------------------------------------


def test_the_notice_counts_only_the_kernels_left_to_compile(fresh, monkeypatch):
    monkeypatch.setitem(WARM_UPS, "vector", lambda: None)
    out = io.StringIO()
    warmup.ensure_compiled("vector", stream=out)
    first = out.getvalue().splitlines()[0]
    assert f"({warmup.KINDS['vector'][1]} from an empty cache" in first  # nothing cached
    monkeypatch.setattr(warmup, "_done", set())
    for path in (warmup._marker("vector").parent).iterdir():
        path.unlink()
    warmup._mark("env", 1.0)  # what the env and the arena compiled before
    warmup._mark("agents", 1.0)
    cached = {*warmup.entries("env"), *warmup.entries("agents")}
    left = [e for e in warmup.entries("vector") if e not in cached]
    assert [warmup.name(kernel) for kernel, _ in left] == ["riichi_env.core.runner._queue_actions"]
    out = io.StringIO()
    warmup.ensure_compiled("vector", stream=out)
    first = out.getvalue().splitlines()[0]
    n = len(warmup.entries("vector"))
    assert f"(1 of its {n} kernels left: less than 40 to 90 s; later runs load" in first
    assert "from an empty cache" not in first  # the cold range is for a cold start only


def test_nothing_left_to_compile_runs_the_warm_up_silently_and_marks_it(fresh, monkeypatch):
    warmup._mark("env", 1.0)  # the env's kernels hold the game's, which records replay through
    ran = []
    monkeypatch.setitem(WARM_UPS, "replay", lambda: ran.append(1))
    out = io.StringIO()
    assert warmup.ensure_compiled("replay", stream=out) == 0.0
    assert out.getvalue() == "" and ran == [1] and warmup.is_compiled("replay")


def test_on_two_processes_each_kernel_here_waits_for_the_helpers_listed_before_it(
    fresh, monkeypatch
):
    """The helper takes the kernels of ``_second()``; this process compiles the others in the
    list's order, each once the helper's listed before it are cached, then loads the helper's."""
    log = []

    class Helper:
        def __init__(self, kind):
            log.append(("start", kind))

        def wait(self, kernel):
            log.append(("wait", kernel))
            return True

        def stop(self):
            log.append(("stop", None))

    monkeypatch.setattr(warmup, "_Helper", Helper)
    monkeypatch.setattr(
        warmup, "compile_kernel", lambda kernel, types: log.append(("here", kernel))
    )
    monkeypatch.setattr(warmup, "_warm", REAL_WARM)
    monkeypatch.setenv(warmup.COMPILE_JOBS, "2")
    warmup._warm("env")
    second, env = warmup._second(), [kernel for kernel, _ in warmup.entries("env")]
    assert log[0] == ("start", "env") and log[-1] == ("stop", None)
    mine = [k for k in env if k not in second]
    first_pass = log[1 : log.index(("here", mine[-1])) + 1]
    assert [k for what, k in first_pass if what == "here"] == mine  # the helper's: not here
    for kernel in mine:
        waited = {k for what, k in log[: log.index(("here", kernel))] if what == "wait"}
        assert waited == {k for k in env[: env.index(kernel)] if k in second}, warmup.name(kernel)
    loaded = [k for what, k in log[len(first_pass) + 1 :] if what == "here"]
    assert loaded == [k for k in env if k in second]


def test_every_group_lists_its_kernels_and_the_env_holds_replay_and_scoring():
    """Every group's kernels import and take their example's arguments (a renamed or re-typed
    kernel fails here, not in a cold start), and after the env's warm-up (this session's cache)
    what records replay and hand scoring need is compiled: their notices would promise nothing
    (they promised "about 75 s" and "about 15 s", and took seconds)."""
    if warmup.jit_disabled():
        pytest.skip("no compiled kernels without JIT")
    import riichi_env

    riichi_env.env()
    for kind in warmup.KINDS:
        for kernel, types in warmup.entries(kind):
            assert len(types) == kernel.py_func.__code__.co_argcount, warmup.name(kernel)
    cached = warmup._cached()
    assert set(warmup.entries("replay")) <= cached and set(warmup.entries("score")) <= cached


def test_compile_is_public_and_checks_its_groups(fresh, monkeypatch):
    """``riichi_env.compile(*groups)``: one notice for the groups left, each group's warm-up once,
    and a bad group name is refused before anything compiles."""
    import riichi_env

    assert riichi_env.compile is warmup.compile
    with pytest.raises(ValueError, match="unknown kernel group 'gpu'"):
        riichi_env.compile("env", "gpu")
    with pytest.raises(TypeError, match="group names"):
        riichi_env.compile(1)
    ran = []
    monkeypatch.setitem(WARM_UPS, "score", lambda: ran.append("score"))
    monkeypatch.setitem(WARM_UPS, "replay", lambda: ran.append("replay"))
    out = io.StringIO()
    riichi_env.compile("score", "replay", "score", stream=out)
    lines = out.getvalue().splitlines()
    assert ran == ["score", "replay"]
    assert lines[0].startswith("riichi_env: compiling the hand-scoring kernels; ")
    assert lines[-1].startswith("riichi_env: compiled score, replay in")
    assert warmup.is_compiled("score") and warmup.is_compiled("replay")
    out = io.StringIO()
    assert riichi_env.compile("score", "replay", stream=out) == 0.0 and out.getvalue() == ""


@pytest.mark.parametrize(
    "room", ["core.compiling", "aec", "batch", "cli", "dataset", "integrations", "mjai", "records"]
)
def test_each_room_imports_alone(room):
    """No import cycle: each sub-package (and the compile layer) imports in a fresh process."""
    run = subprocess.run(
        [sys.executable, "-c", f"import riichi_env.{room}"],
        capture_output=True,
        text=True,
        cwd=warmup._ROOT,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
