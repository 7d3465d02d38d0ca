"""Folder scans: record files by name, or by content whatever the name (mjlog saved as ``.txt``);
every other file of a folder is named as ignored, with the reason, never dropped without a word."""

from __future__ import annotations

import gzip
import json
import shutil

import pytest
from test_records_helpers import LOGS

from riichi_env.cli.main import main
from riichi_env.dataset.io import read_manifest, record_files
from riichi_env.records.scan import is_record_name, scan_paths, sniff

MJLOG = LOGS / "tenhou-mjlog" / "bug1.xml"
MJAI = LOGS / "mjai" / "126_204_0_mjai.jsonl"
T6 = LOGS / "tenhou6" / "ranked_game.json"


@pytest.fixture
def folder(tmp_path):
    """Records under names a folder scan cannot know them by, and files that are not records."""
    root = tmp_path / "games"
    (root / "sub").mkdir(parents=True)
    shutil.copy(MJLOG, root / "2009-game.txt")
    shutil.copy(MJAI, root / "sub" / "mjai-log")
    with gzip.open(root / "sub" / "t6.txt.gz", "wb") as f:
        f.write(T6.read_bytes())
    shutil.copy(LOGS / "tenhou-mjlog" / "walls.jsonl", root / "walls.jsonl")
    (root / "README.txt").write_text("Tenhou games of 2009\n")
    (root / "notes.json.txt").write_text('{"games": 3}\n')
    (root / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    (root / "empty.log").write_text("")
    (root / "broken.gz").write_bytes(b"\x1f\x8b\x08\x00garbage")
    (root / ".hidden.txt").write_text("<mjloggm/>")
    return root


def test_a_folder_scan_reads_records_by_content_and_names_what_it_ignored(folder):
    scan = scan_paths(folder)
    assert [p.relative_to(folder).as_posix() for p in scan.files] == [
        "2009-game.txt",
        "sub/mjai-log",
        "sub/t6.txt.gz",
    ]
    ignored = {p.relative_to(folder).as_posix(): why for p, why in scan.ignored}
    assert ignored == {
        "README.txt": "not a record: no mjlog XML, tenhou.net/6 JSON or mjai events at its start",
        "broken.gz": ignored["broken.gz"],
        "empty.log": "not a record: empty",
        "notes.json.txt": 'not a record: JSON, but neither tenhou.net/6 (no "log" at its start) '
        "nor mjai events",
        "picture.png": "not a record: binary data, not text",
        "walls.jsonl": "a wall file (walls.jsonl), not a record",
    }
    assert ignored["broken.gz"].startswith("not a record: gzip data that does not decompress")
    assert record_files(folder) == scan.files
    assert sniff(folder / "2009-game.txt") == ("mjlog", "")
    assert is_record_name("a.MJLOG.gz") and not is_record_name("game.txt")
    # a file given by name is taken whatever it holds (its conversion says what it is)
    assert scan_paths([folder / "README.txt"]).files == [folder / "README.txt"]


def test_a_folder_without_records_names_the_files_it_ignored(tmp_path):
    (tmp_path / "README.txt").write_text("nothing here\n")
    (tmp_path / "walls.jsonl").write_text("{}\n")
    with pytest.raises(ValueError) as info:
        scan_paths(tmp_path)
    message = str(info.value)
    assert message.startswith(f"no record files in {tmp_path}: 2 files ignored (")
    assert f"{tmp_path / 'README.txt'}: not a record: no mjlog XML" in message
    assert f"{tmp_path / 'walls.jsonl'}: a wall file" in message
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="the folders hold no files, or only hidden ones"):
        scan_paths(empty)


def test_the_dataset_command_converts_records_by_content_and_lists_the_ignored(folder, capsys):
    out = folder.parent / "shards"
    assert main(["dataset", str(folder), "--out", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["files"] == 3 and doc["games"] == 3 and doc["rows"] > 0
    assert len(doc["ignored"]) == 6
    assert {
        "file": str(folder / "picture.png"),
        "reason": "not a record: binary data, not text",
    } in (doc["ignored"])
    assert read_manifest(out)["ignored"] == doc["ignored"]
    assert main(["dataset", str(folder), "--out", str(out), "--overwrite"]) == 0
    text = capsys.readouterr().out
    assert "files      3 (6 ignored)" in text
    assert f"ignored    {folder / 'README.txt'}: not a record: no mjlog XML" in text
    # nothing but files that are not records: the error names them (status 2)
    lonely = folder.parent / "lonely"
    lonely.mkdir()
    (lonely / "README.txt").write_text("no games\n")
    assert main(["dataset", str(lonely), "--out", str(folder.parent / "o2")]) == 2
    err = capsys.readouterr().err
    assert f"no record files in {lonely}: 1 file ignored ({lonely / 'README.txt'}: not a" in err


def test_a_folder_scan_names_a_format_it_does_not_read(tmp_path):
    from test_records_errors import MJX_LINE

    (tmp_path / "game.mjx").write_text(MJX_LINE + "\n")
    shutil.copy(MJLOG, tmp_path / "game.txt")
    scan = scan_paths(tmp_path)
    assert scan.files == [tmp_path / "game.txt"]
    assert scan.ignored[0][1].startswith(
        "not a supported record format (this looks like mjx JSON: mjxproto states"
    )


def test_replay_takes_folders_like_dataset(folder, capsys):
    """``riichi-env replay DIR`` replays the record files under it (by name or content) and
    names each other file as skipped; an empty folder says so."""
    assert main(["replay", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    replayed = [line.split(":")[0] for line in out if " hands, 0 mismatched; rules" in line]
    assert replayed == [str(p) for p in scan_paths(folder).files]
    readme = f"{folder / 'README.txt'}: skipped: not a record: no mjlog XML, tenhou.net/6 JSON"
    assert f"{readme} or mjai events at its start" in out
    assert f"{folder / 'walls.jsonl'}: skipped: a wall file (walls.jsonl), not a record" in out
    assert out[-1] == "3 games, 26 hands, 0 mismatched, 6 files skipped (not game records)"
    empty = folder.parent / "empty"
    empty.mkdir()
    assert main(["replay", str(empty), str(MJLOG)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{empty}: skipped: a folder with no files (or only hidden ones)"


def test_a_folders_files_are_those_rglob_finds_in_path_order(tmp_path):
    """The scan lists what ``sorted(rglob("*"))`` keeps (regular files and links to them, not
    hidden, not inside a hidden or linked folder), in the same order, where part-by-part order
    and string order differ (``a/b`` before ``a-c``)."""
    from riichi_env.records.scan import _files_under

    for name in ("a/b", "a-c", "a/z/deep", "b", ".hidden", "a/.h", ".dir/x", "c d", "Z"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "b")
    (tmp_path / "dir-link").symlink_to(tmp_path / "a", target_is_directory=True)
    (tmp_path / "broken").symlink_to(tmp_path / "nothing")
    (tmp_path / "empty").mkdir()

    def hidden(q):
        return any(part.startswith(".") for part in q.relative_to(tmp_path).parts)

    want = sorted(q for q in tmp_path.rglob("*") if not hidden(q) and q.is_file())
    assert _files_under(tmp_path) == want
    assert [q.relative_to(tmp_path).as_posix() for q in want] == [
        "Z", "a/b", "a/z/deep", "a-c", "b", "c d", "link",
    ]  # fmt: skip
