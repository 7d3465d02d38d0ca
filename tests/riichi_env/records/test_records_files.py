"""Writing record files: never through a planted symbolic link, never over an earlier record
unless asked (``create_file``, ``log_directory``; the arena's use: ``test_arena_log.py``)."""

from __future__ import annotations

import os
import stat

import pytest
from test_records_helpers import NAMES, needs_symlinks, plant_victim

from riichi_env.records.files import create_file, log_directory


def test_create_file_makes_a_new_file(tmp_path):
    path = tmp_path / "a.jsonl"
    create_file(path, "one\n")
    assert path.read_text() == "one\n"
    with pytest.raises(FileExistsError) as info:
        create_file(path, "two\n")
    assert str(info.value) == (
        f"{path}: a file is already there; not replaced (overwrite=True, --overwrite, replaces "
        "a file)"
    )
    assert path.read_text() == "one\n"
    create_file(tmp_path / "b.bin", b"\x00\x01", overwrite=True)  # missing: created
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"


def test_overwrite_replaces_a_regular_file_keeping_its_mode(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text("old")
    path.chmod(0o640)
    other = tmp_path / "hard-link"
    os.link(path, other)
    create_file(path, "new", overwrite=True)
    assert path.read_text() == "new"
    assert other.read_text() == "old"  # a new file was renamed over it: a hard link keeps the old
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "hard-link"]  # no temp file


@needs_symlinks
@pytest.mark.parametrize("overwrite", [False, True])
def test_a_planted_symlink_is_never_followed(tmp_path, overwrite):
    victim = plant_victim(tmp_path)
    link = tmp_path / "set.jsonl"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling.jsonl"
    dangling.symlink_to(tmp_path / "created-through-the-link")
    for path in (link, dangling):
        with pytest.raises(FileExistsError, match=f"^{path}: a symbolic link is"):
            create_file(path, "hostile", overwrite=overwrite)
    assert victim.read_text() == "precious"
    assert not (tmp_path / "created-through-the-link").exists()
    assert link.is_symlink() and dangling.is_symlink()


def test_log_directory_checks(tmp_path):
    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(ValueError) as info:
        log_directory(file)
    assert str(info.value) == (
        f"log directory {file}: a file is there; records go into a directory (it is created if "
        "missing)"
    )
    with pytest.raises(ValueError, match="cannot create it"):
        log_directory(file / "below")
    out = log_directory(tmp_path / "new" / "dir", NAMES)
    assert out.is_dir()
    (out / NAMES[1]).write_text("earlier")
    (out / NAMES[3]).write_text("earlier")
    with pytest.raises(ValueError) as info:
        log_directory(out, NAMES)
    assert str(info.value) == (
        f"log directory {out}: {NAMES[1]} and 1 more already there; choose another directory or "
        "replace them with --overwrite (overwrite=True)"
    )
    assert log_directory(out, NAMES, overwrite=True) == out


@needs_symlinks
def test_log_directory_refuses_a_planted_link_even_with_overwrite(tmp_path):
    (tmp_path / NAMES[2]).symlink_to(plant_victim(tmp_path))
    with pytest.raises(ValueError, match=f"{NAMES[2]} is a symbolic link; records never replace"):
        log_directory(tmp_path, NAMES, overwrite=True)
