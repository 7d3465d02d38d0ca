"""``benchmarks/compare_revisions.py`` runs the hot paths at two revisions and prints their ratio.

A tiny budget only: the figures mean nothing here (performance is shown by the benchmarks, never
by timed tests); this checks that the script works on a committed revision and this checkout.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(os.path.abspath(__file__)).parents[1]
SCRIPT = ROOT / "benchmarks" / "compare_revisions.py"


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)


def _compare(tmp_path, *args: str, **kw) -> subprocess.CompletedProcess:
    """``compare_revisions.py ARGS --workdir TMP_PATH``, its output captured as text."""
    argv = [sys.executable, str(SCRIPT), *args, "--workdir", str(tmp_path)]
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def _cells(stdout: str, start: str) -> list[str]:
    """The cells of the table row that starts with ``start``."""
    row = next(line for line in stdout.splitlines() if line.startswith(start))
    return [c.strip() for c in row.strip("|").split("|")]


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
    args = ["HEAD", "--only", "raw", "--budget", "tiny", "--rounds", "2"]
    out = _compare(tmp_path, *args, timeout=900)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    header = next(line for line in lines if line.startswith("| row |"))
    assert "| HEAD (" in header and "| working tree |" in header
    cells = _cells(out.stdout, "| raw:")
    assert cells[1] == "decisions/s"
    assert cells[2][0].isdigit() and cells[3][0].isdigit()  # a rate at each revision
    assert cells[4].endswith("x")
    assert cells[5].endswith("x") and "| paired |" in header  # the median of the rounds' ratios
    assert "2 alternating rounds" in out.stdout


def test_a_bad_revision_or_row_is_refused_with_its_name(checkout, tmp_path):
    bad = _compare(tmp_path, "no-such-rev")
    assert bad.returncode != 0 and "'no-such-rev' is not a git revision" in bad.stderr
    row = _compare(tmp_path, "HEAD", "--only", "envv")
    assert row.returncode == 2 and "unknown rows ['envv']" in row.stderr


def test_the_record_rows_read_and_pack_the_same_records(checkout, tmp_path):
    args = ["HEAD", "--only", "read,pack", "--budget", "tiny", "--rounds", "1"]
    out = _compare(tmp_path, *args, timeout=900)
    assert out.returncode == 0, out.stderr
    assert len(list((tmp_path / "records-3").iterdir())) >= 3  # written once, for both rows
    for name in ("read", "pack"):
        cells = _cells(out.stdout, f"| {name}:")
        assert cells[1] == "hanchan/CPU s"
        assert cells[2][0].isdigit() and cells[3][0].isdigit() and cells[4].endswith("x")


def test_paired_is_the_median_of_each_rounds_own_ratio(monkeypatch):
    """A slow spell that hits one round's both measurements cancels out: the best rounds' ratio
    here would say 1.11x, the rounds' own ratios (1.11, 1.00, 0.80) have the median 1.00."""
    monkeypatch.syspath_prepend(str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("compare_revisions_under_test", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)

    def run(seconds: float) -> dict:
        return {"work": 100.0, "seconds": seconds}

    base, head = [run(1.0), run(2.0), run(1.0)], [run(0.9), run(2.0), run(1.25)]
    assert script.paired(base, head, "raw") == "1.000x"
    failed = {"missing": "failed"}  # a round that failed at either revision is left out
    assert script.paired([run(1.0), failed], [run(0.5), run(1.0)], "raw") == "2.000x"
    assert script.paired([failed], [run(1.0)], "raw") == "-"
