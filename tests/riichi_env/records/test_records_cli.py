"""``riichi-env replay`` and ``riichi-env convert`` on real files: the rules a replay chooses and
says it used, and clear answers to a missing wall file, ``--url`` with ``--to mjai`` and files that
are not game records."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_records_3p import KNOWN_DIFFERENCES as KNOWN_DIFFERENCES_3P
from test_records_3p import RULES_GIVEN as RULES_GIVEN_3P
from test_records_helpers import LOGS, index_rows

from riichi_env.cli.main import main
from riichi_env.cli.replay import why_failed
from riichi_env.records.convert import detect_format, read_file, read_text
from riichi_env.records.model import NotARecordError, RecordError
from riichi_env.records.replay import explain_rules, record_preset

MJLOG = LOGS / "tenhou-mjlog"


def _to_mjai(name: str, tmp_path) -> str:
    out = tmp_path / (name.rsplit(".", 1)[0] + ".jsonl")
    assert main(["convert", str(MJLOG / name), "--to", "mjai", "-o", str(out)]) == 0
    return str(out)


@pytest.mark.parametrize(
    ("name", "preset"),
    [("bug1.xml", "tenhou-2009"), ("pao.xml", "tenhou"), ("shuffle.xml", "tenhou-2009")],
)
def test_tenhou_game_converted_to_mjai_replays_without_rules(name, preset, tmp_path, capsys):
    """The mjai output keeps what dates the game (``start_game.mjlog_shuffle``): bug1.xml and
    shuffle.xml have no SHUFFLE element, so they replay with ``tenhou-2009`` as they do as mjlog."""
    path = _to_mjai(name, tmp_path)
    capsys.readouterr()
    assert main(["replay", path]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2, lines  # one line for the file, then the summary
    assert lines[0].startswith(f"{path}: ") and f", 0 mismatched; rules {preset} (" in lines[0]
    assert "a Tenhou game: rules '鳳" in lines[0]
    assert lines[1].endswith(" 0 mismatched")


def test_rules_option_overrides_the_record(tmp_path, capsys):
    """bug1.xml (2009): its S4-1 dealer is tenpai and first at the draw and plays on, so it
    replays with ``tenhou-2009``; ``--rules tenhou`` (tenpai-yame) ends the game there."""
    path = _to_mjai("bug1.xml", tmp_path)
    capsys.readouterr()
    assert main(["replay", "--rules", "mahjongsoul", path]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert any("hand S4-2: the engine ended the game before this hand" in x for x in out)
    assert out[-2].startswith(f"{path}: 11 hands, 1 mismatched; rules mahjongsoul (--rules ")
    assert main(["replay", "--rules", "tenhou", path]) == 1
    out = capsys.readouterr().out
    assert "hand S4-2: the engine ended the game before this hand" in out
    assert "rules tenhou (--rules tenhou)" in out
    assert main(["replay", "--rules", "tenhou-2009", path]) == 0
    assert "rules tenhou-2009 (--rules tenhou-2009)" in capsys.readouterr().out


def _replay_lines(capsys, files) -> list[str]:
    """The output lines of ``riichi-env replay FILES``, which must exit 0."""
    assert main(["replay", *map(str, files)]) == 0
    return capsys.readouterr().out.strip().splitlines()


def test_one_rules_line_per_file(capsys):
    files = [
        MJLOG / "shuffle.xml",
        LOGS / "tenhou6" / "confusing_nakis_7.json",
        LOGS / "riichienv" / "mjsoul_seed186.jsonl",
    ]
    lines = _replay_lines(capsys, files)
    assert lines[0] == (
        f"{files[0]}: 5 hands, 0 mismatched; rules tenhou-2009 (a Tenhou game: rules '鳳東喰赤'; "
        "no SHUFFLE element: an mjlog record from before August 2009, before tenpai-yame "
        "(June 2010); tonpuusen, uma 10/5/-5/-10 from the record)"
    )
    assert lines[1] == (
        f"{files[1]}: 1 hands, 0 mismatched; rules mahjongsoul (a Mahjong Soul game: "
        "rules 'Gold Room South')"
    )
    assert lines[2] == (
        f"{files[2]}: 15 hands, 0 mismatched; rules mahjongsoul "
        "(the record names no rules: the default preset)"
    )
    assert lines[3] == "3 games, 21 hands, 0 mismatched"


def test_record_preset():
    mjai = (LOGS / "riichienv" / "tenhou_seed7.jsonl").read_text()
    plain = read_text(mjai)
    assert record_preset(plain) == (
        "mahjongsoul",
        "the record names no rules: the default preset",
    )
    for disp, want in (
        ("鳳南喰赤", "tenhou"),
        ("般東喰", "tenhou"),
        ("上東喰赤速", "tenhou"),
        ("南喰赤 tenhou", "tenhou"),
        ("Gold Room South", "mahjongsoul"),
        ("南喰赤 mahjongsoul", "mahjongsoul"),
    ):
        lines = mjai.splitlines()
        lines[0] = json.dumps({"type": "start_game", "rule_disp": disp})
        game = read_text("\n".join(lines) + "\n")
        assert record_preset(game)[0] == want, disp
    assert record_preset(read_file(MJLOG / "bug1.xml"))[0] == "tenhou-2009"
    assert record_preset(read_file(MJLOG / "example.xml"))[0] == "tenhou"
    assert record_preset(read_file(LOGS / "tenhou6" / "chankan.json"))[0] == "tenhou"
    rules, text = explain_rules(read_file(LOGS / "tenhou6" / "chankan.json"))
    assert rules.game_length == "tonpuusen" and text.startswith("tenhou (a Tenhou game")


def test_missing_walls_file_is_an_error(capsys, tmp_path):
    missing = tmp_path / "missing.jsonl"
    assert main(["replay", "--walls", str(missing), str(MJLOG / "bug1.xml")]) == 2
    err = capsys.readouterr().err
    assert f"--walls {missing}: no such file" in err


def test_bad_walls_file_names_it(capsys, tmp_path):
    walls = tmp_path / "walls.jsonl"
    walls.write_text('{"file": "bug1.xml"}\n')
    assert main(["replay", "--walls", str(walls), str(MJLOG / "bug1.xml")]) == 1
    assert f"{walls}, line 1: bad wall entry" in capsys.readouterr().out


def test_non_record_files_are_skipped_with_a_reason(capsys):
    files = [
        MJLOG / "walls.jsonl",
        LOGS / "riichienv" / "generate.py",
        LOGS / "INDEX.md",
        LOGS / "tenhou6" / "rinshan.json",
    ]
    out = _replay_lines(capsys, files)
    assert out[0] == (
        f"{files[0]}: skipped: a wall file (walls.jsonl: the full walls of the mjlog records "
        "beside it), not a game record"
    )
    assert out[1].startswith(f"{files[1]}: skipped: not a game record")
    assert out[2].startswith(f"{files[2]}: skipped: not a game record")
    assert out[-1] == "1 games, 1 hands, 0 mismatched, 3 files skipped (not game records)"
    assert main(["replay", str(files[0])]) == 1
    captured = capsys.readouterr()
    assert "no game records among the files" in captured.err
    assert detect_format(files[0].read_text()) == "walls"
    with pytest.raises(NotARecordError, match="a wall file"):
        read_file(files[0])
    assert issubclass(NotARecordError, RecordError)


def test_replay_whole_folder_glob(capsys):
    """``riichi-env replay tests/data/logs/*/*``: records replay, the rest is skipped."""
    files = sorted(str(p) for p in LOGS.glob("*/*"))
    main(["replay", *files])
    captured = capsys.readouterr()
    out = captured.out.strip().splitlines()
    assert f"{MJLOG / 'walls.jsonl'}: skipped: a wall file" in captured.out
    assert "could not be read" not in captured.err
    assert out[-1].endswith(", 3 files skipped (not game records)")  # walls, two generators
    assert sum(": skipped: " in x for x in out) == 3
    # the last line says why the status is 1: the records that differ, each one INDEX.md does
    # not require to match (with the rules the record names)
    differ = [
        (Path(m[1]), int(m[2]))
        for m in map(re.compile(r"(.*): \d+ hands, (\d+) mismatched; rules ").match, out)
        if m and m[2] != "0"
    ]
    last = captured.err.strip().splitlines()[-1]
    assert differ and last == why_failed(0, differ, len(files) - 3)
    names = ", ".join(f"{p.name} ({k})" for p, k in differ[:10])
    assert last.startswith(f"exit status 1: {sum(k for _, k in differ)} mismatched hands in ")
    assert names in last
    rows = {r["file"]: r for r in index_rows()}
    three = {**KNOWN_DIFFERENCES_3P, **RULES_GIVEN_3P}  # files (the 3p replay tests list them)
    for path, _ in differ:
        name = path.relative_to(LOGS).as_posix()
        if name in rows:
            assert rows[name]["required_text"] != "yes", path
        else:  # three-player: test_records_3p.py gives its rules or lists the hand; RiichiEnv's
            # games need the rules of test_records_riichienv.py, which they do not name
            assert name in three or name.startswith("riichienv/"), path


def test_index_lists_exactly_the_records():
    """Every record under tests/data/logs has one INDEX.md row, and every row its file."""
    listed = re.findall(r"^\| ([\w-]+/[^ |]+) \|", (LOGS / "INDEX.md").read_text(), re.M)
    present = [
        p.relative_to(LOGS).as_posix()
        for p in LOGS.glob("*/*")
        if p.name not in ("walls.jsonl", "generate.py", "generate_3p.py")
    ]
    assert sorted(listed) == sorted(present)


def test_why_failed_names_the_records():
    assert why_failed(2, [], 0) == "exit status 1: 2 files could not be read"
    assert why_failed(0, [], 0) == "exit status 1: no game records among the files"
    one = [(Path("a/x.xml"), 1)]
    assert why_failed(1, one, 3) == (
        "exit status 1: 1 file could not be read; 1 mismatched hand in 1 of 3 games: x.xml (1)"
    )
    same = [(Path("a/x.xml"), 1), (Path("b/x.xml"), 2)]
    assert why_failed(0, same, 2).endswith("in 2 of 2 games: a/x.xml (1), b/x.xml (2)")
    many = [(Path(f"g{i}.json"), 1) for i in range(12)]
    assert why_failed(0, many, 20).endswith("g8.json (1), g9.json (1) and 2 more")


def test_convert_url_only_with_tenhou6(capsys, tmp_path):
    src = str(LOGS / "tenhou6" / "rinshan.json")
    assert main(["convert", "--to", "mjai", "--url", src]) == 2
    err = capsys.readouterr().err
    assert "--url prints the tenhou.net/6 viewer address" in err and "--to mjai" in err
    for args in (["--url"], ["--to", "tenhou6", "--url"]):
        assert main(["convert", *args, src]) == 0
        assert capsys.readouterr().out.startswith("https://tenhou.net/6/#json=")
    folder = tmp_path / "urls"
    assert main(["convert", "--url", "-o", str(folder), src, str(MJLOG / "pao.xml")]) == 0
    assert (folder / "rinshan.url").read_text().startswith("https://tenhou.net/6/#json=")
    assert main(["convert", src]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["type"] == "start_game"


def test_convert_into_a_folder_names_each_output_after_its_input(capsys, tmp_path):
    """``game.json.gz`` becomes ``game.jsonl`` (not ``game.json.jsonl``); two inputs that would
    write one output are refused before anything is written."""
    from riichi_env.cli.convert import output_stem

    assert [output_stem(n) for n in ("a/g.json.gz", "g.MJSON", "g.txt", "g.v2", ".json")] == [
        "g",
        "g",
        "g",
        "g.v2",
        ".json",
    ]
    soul = LOGS.parent / "mahjongsoul" / "nagashi_4p.json.gz"
    folder = tmp_path / "out"
    assert main(["convert", "-o", str(folder), str(soul), str(MJLOG / "pao.xml")]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["nagashi_4p.jsonl", "pao.jsonl"]
    twin = tmp_path / "pao.mjlog"
    twin.write_bytes((MJLOG / "pao.xml").read_bytes())
    assert main(["convert", "-o", str(tmp_path / "two"), str(MJLOG / "pao.xml"), str(twin)]) == 2
    err = capsys.readouterr().err
    assert "would both be written to" in err and "pao.jsonl" in err
    assert not (tmp_path / "two").exists()
