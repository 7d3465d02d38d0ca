"""Ctrl-C: every command stops within seconds with one line and status 130, nothing left running;
``riichi_env.selfplay`` raises ``KeyboardInterrupt`` promptly and ends its worker threads."""

import _thread
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import riichi_env
from engine._numba import python_argv

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")

STOP_BOUND = 10.0
"""Seconds a command may take to end after Ctrl-C (it takes about one; these runs would play for
minutes)."""


class Command:
    """``python -m riichi_env ARGS`` in a child process, its stderr read as it comes."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen(
            python_argv("riichi_env", *args),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.err = b""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for chunk in iter(lambda: self.proc.stderr.read1(4096), b""):
            self.err += chunk

    def wait_for(self, marker: bytes, timeout: float = 300.0) -> None:
        """Until ``marker`` is on stderr (the run is playing)."""
        deadline = time.monotonic() + timeout
        while marker not in self.err:
            assert self.proc.poll() is None, self.err[-500:].decode()
            assert time.monotonic() < deadline, f"no {marker!r} on stderr: {self.err[-500:]!r}"
            time.sleep(0.05)

    def interrupt(self, times: int = 1) -> tuple[int, float, str]:
        """Send SIGINT (``times`` times, 50 ms apart); status, seconds to exit, stderr after."""
        before = len(self.err)
        start = time.monotonic()
        for i in range(times):
            if i:
                time.sleep(0.05)
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=STOP_BOUND + 20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        seconds = time.monotonic() - start
        self._reader.join(5)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return self.proc.returncode, seconds, self.err[before:].decode()


def _check_stopped(code: int, seconds: float, err: str, command: str) -> None:
    lines = [x.split("\r")[-1] for x in err.split("\n") if x.split("\r")[-1].strip()]
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert lines[-1] == f"riichi-env {command}: interrupted", err
    assert sum("interrupted" in x for x in lines) == 1, err
    # the progress line ends (one newline), then the one line; nothing else
    assert len(lines) <= 2 and all(x.startswith(f"{command}: ") for x in lines[:-1]), err
    assert code == 130
    assert seconds < STOP_BOUND, f"took {seconds:.1f} s to stop"


@pytest.mark.parametrize(("times", "extra"), [(1, []), (2, []), (1, ["--check"])])
def test_selfplay_with_workers_stops_at_ctrl_c(times, extra):
    run = Command("selfplay", "--games", "1000000", "--workers", "2", "--progress", *extra)
    run.wait_for(b"selfplay: ")
    _check_stopped(*run.interrupt(times), "selfplay")


def test_arena_stops_at_ctrl_c():
    run = Command("arena", "--seats", "efficiency,simple,simple,simple", "--games", "100000",
                  "--workers", "2", "--progress")  # fmt: skip
    run.wait_for(b"arena: ")
    _check_stopped(*run.interrupt(), "arena")


BOT = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
time.sleep(600)  # never answers, never reads: only a kill ends it
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_arena_with_bots_leaves_no_bot_running(tmp_path):
    (tmp_path / "bot.py").write_text(BOT)
    pids = tmp_path / "pids"
    pids.mkdir()
    seat = f"mjai:python {tmp_path / 'bot.py'} {pids}"
    run = Command("arena", "--seats", f"{seat},random,random,{seat}", "--games", "8",
                  "--workers", "2", "--progress")  # fmt: skip
    deadline = time.monotonic() + 120
    while len(list(pids.iterdir())) < 2:  # seat 0's bot on both tables, waiting for its answer
        assert time.monotonic() < deadline and run.proc.poll() is None, run.err[-500:].decode()
        time.sleep(0.05)
    started = [int(p.name) for p in pids.iterdir()]
    _check_stopped(*run.interrupt(), "arena")
    time.sleep(0.2)
    assert not [pid for pid in started if _alive(pid)]


def _interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def _first_legal(obs, mask, seat):
    return mask.argmax(axis=1)


@pytest.mark.parametrize(
    ("policy", "workers"),
    [("efficiency", 2), ("random", 1), ([_first_legal, "random", "random", "random"], 2)],
)
def test_selfplay_raises_keyboard_interrupt_and_ends_its_workers(policy, workers):
    riichi_env.selfplay(policy, games=2, workers=workers, progress=False)  # compiled, warm
    before = set(threading.enumerate())
    timer = _interrupt_after(1.0)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        riichi_env.selfplay(policy, games=1_000_000, workers=workers, progress=False)
    seconds = time.monotonic() - start
    timer.join()
    assert seconds < 1.0 + STOP_BOUND, f"took {seconds - 1:.1f} s to stop"
    left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert not left, f"threads still running: {left}"
    # a run after a stop plays as usual
    out = riichi_env.selfplay("random", games=3, seed=4, workers=2, progress=False)
    ref = riichi_env.selfplay("random", games=3, seed=4, progress=False)
    assert out["results"] == ref["results"]
    assert np.all([r["hands"] > 0 for r in out["results"]])
