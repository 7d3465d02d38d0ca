"""``benchmarks/compare_revisions.py`` runs the hot paths at two revisions and prints their ratio.

A tiny budget only: the figures mean nothing here (performance is shown by the benchmarks, never
by timed tests); this checks that the script works on a committed revision and this checkout.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(os.path.abspath(__file__)).parents[1]
SCRIPT = ROOT / "benchmarks" / "compare_revisions.py"


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.fixture
def checkout(tmp_path):
    try:
        ok = _git("rev-parse", "--verify", "HEAD").returncode == 0
    except OSError:
        ok = False
    if not ok:
        pytest.skip("not a git checkout with a commit")
    yield
    listed = _git("worktree", "list", "--porcelain").stdout.splitlines()
    for line in listed:  # the test's worktrees, unregistered (pytest keeps tmp_path a while)
        if line.startswith("worktree ") and Path(line[9:]).is_relative_to(tmp_path):
            _git("worktree", "remove", "--force", line[9:])
    _git("worktree", "prune")


def test_two_revisions_give_a_table_with_their_ratio(checkout, tmp_path):
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "HEAD", "--only", "raw", "--budget", "tiny"]
        + ["--rounds", "2", "--workdir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    header = next(line for line in lines if line.startswith("| row |"))
    assert "| HEAD (" in header and "| working tree |" in header
    row = next(line for line in lines if line.startswith("| raw:"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "decisions/s"
    assert cells[2][0].isdigit() and cells[3][0].isdigit()  # a rate at each revision
    assert cells[4].endswith("x")
    assert "2 alternating rounds" in out.stdout


def test_a_bad_revision_or_row_is_refused_with_its_name(checkout, tmp_path):
    bad = subprocess.run(
        [sys.executable, str(SCRIPT), "no-such-rev", "--workdir", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert bad.returncode != 0 and "'no-such-rev' is not a git revision" in bad.stderr
    row = subprocess.run(
        [sys.executable, str(SCRIPT), "HEAD", "--only", "envv", "--workdir", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert row.returncode == 2 and "unknown rows ['envv']" in row.stderr


def test_the_record_rows_read_and_pack_the_same_records(checkout, tmp_path):
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "HEAD", "--only", "read,pack", "--budget", "tiny"]
        + ["--rounds", "1", "--workdir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr
    assert len(list((tmp_path / "records-3").iterdir())) >= 3  # written once, for both rows
    for name in ("read", "pack"):
        row = next(line for line in out.stdout.splitlines() if line.startswith(f"| {name}:"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == "hanchan/CPU s"
        assert cells[2][0].isdigit() and cells[3][0].isdigit() and cells[4].endswith("x")
