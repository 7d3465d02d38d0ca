"""Corrupt records: every reader answers with a RecordError naming file, hand and position."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_records_helpers import LOGS

from riichi_env.cli.main import main
from riichi_env.records.convert import read_file, read_text
from riichi_env.records.model import RecordError

MJLOG = (LOGS / "tenhou-mjlog" / "pao.xml").read_text()
T6 = (LOGS / "tenhou6" / "rinshan.json").read_text()
MJAI = (LOGS / "mjai" / "126_204_0_mjai.jsonl").read_text()


def _err(text: str, fmt: str, *, source: str = "bad.rec") -> RecordError:
    with pytest.raises(RecordError) as info:
        read_text(text, source=source, fmt=fmt)
    assert str(info.value).startswith(source)
    return info.value


# mjlog XML


def test_mjlog_truncated():
    """A record cut short is read up to the cut (its last hand without a result), with a note."""
    game = read_text(MJLOG[: len(MJLOG) // 2], source="cut.xml", fmt="mjlog")
    last = game.hands[-1]
    assert game.complete is False and not last.finished
    assert game.truncated.startswith(f"the record stops inside hand {last.label}")


def test_mjlog_cut_inside_a_tag():
    cut = MJLOG.index("<AGARI")
    game = read_text(MJLOG[: cut + 20], fmt="mjlog")
    assert [h.label for h in game.hands] == ["E1-0"] and not game.hands[0].finished
    assert "inside hand E1-0 (the file ends in the middle of an element)" in game.truncated
    # text that is not the start of a tag is still an error
    assert "unreadable text" in str(_err(MJLOG[:cut] + "AGARI", "mjlog"))


def test_mjlog_missing_attribute():
    exc = _err(MJLOG.replace('hai1="', 'xx1="', 1), "mjlog")
    assert "hai1" in str(exc) and exc.position.startswith("tag ")


def test_mjlog_wrong_tile_count():
    text = re.sub(r'hai2="(\d+),', 'hai2="', MJLOG, count=1)
    exc = _err(text, "mjlog")
    assert "hai2 has 12 tiles" in str(exc)


def test_mjlog_tile_twice():
    m = re.search(r'hai0="(\d+),(\d+),', MJLOG)
    text = MJLOG.replace(m.group(0), f'hai0="{m.group(1)},{m.group(1)},', 1)
    assert "repeats a tile" in str(_err(text, "mjlog"))


def test_mjlog_illegal_call():
    m = re.search(r'<N who="(\d)" m="(\d+)" />', MJLOG)
    text = MJLOG.replace(
        m.group(0), f'<N who="{m.group(1)}" m="{int(m.group(2)) ^ (1 << 10)}" />', 1
    )
    exc = _err(text, "mjlog")
    assert "last discard" in str(exc) and exc.hand == "E1-1"


def test_mjlog_discard_not_held():
    exc = _err(MJLOG.replace("<D105/>", "<D106/>", 1), "mjlog")
    assert "seat 0 does not hold tile 106" in str(exc) and exc.hand == "E1-0"


def test_mjlog_tile_drawn_twice():
    exc = _err(MJLOG.replace("<U52/>", "<U6/>", 1), "mjlog")
    assert "already in play" in str(exc)


def test_mjlog_garbage():
    text = MJLOG.replace("<T6/>", "<T6/>junk", 1)
    assert "unreadable text" in str(_err(text, "mjlog"))


def test_mjlog_bad_tile_id():
    text = MJLOG.replace("<T6/>", "<T136/>", 1)
    assert "0-135" in str(_err(text, "mjlog"))


# tenhou.net/6 JSON


def _t6(mutate) -> str:
    obj = json.loads(T6)
    mutate(obj["log"][0])
    return json.dumps(obj, ensure_ascii=False)


def test_tenhou6_truncated():
    exc = _err(T6[: len(T6) // 2], "tenhou6")
    assert "not valid JSON" in str(exc) and "line 1" in exc.position
    assert "the file ends early: a cut file?" in str(exc)
    assert "ends early" not in str(_err(T6.replace("]", "}", 1), "tenhou6"))


def test_tenhou6_missing_entry():
    exc = _err(_t6(lambda k: k.pop(3)), "tenhou6")
    assert "17 entries" in str(exc) and exc.position == "log[0]"


def test_tenhou6_missing_log():
    assert 'no "log"' in str(_err('{"name": ["a","b","c","d"]}', "tenhou6"))


def test_tenhou6_wrong_tile_count():
    exc = _err(_t6(lambda k: k[7].pop()), "tenhou6")
    assert "13 tiles" in str(exc) and exc.position == "log[0][7]" and exc.hand == "S2-0"


def test_tenhou6_bad_tile_code():
    def mutate(k):
        k[5][0] = 48

    exc = _err(_t6(mutate), "tenhou6")
    assert "48" in str(exc) and exc.position == "log[0][5][0]"


def test_tenhou6_discard_not_held():
    def mutate(k):
        k[6][0] = 47 if 47 not in k[4] else 46

    exc = _err(_t6(mutate), "tenhou6")
    assert "does not hold" in str(exc) and exc.position.startswith("log[0][6]")


def test_tenhou6_five_copies():
    def mutate(k):
        k[4][:4] = [11, 11, 11, 11]
        k[7][:1] = [11]

    assert "too many" in str(_err(_t6(mutate), "tenhou6"))


def test_tenhou6_call_that_fits_no_discard():
    def mutate(k):
        k[5].insert(2, "p474747")

    assert "pon" in str(_err(_t6(mutate), "tenhou6"))


def test_tenhou6_bad_call_string():
    def mutate(k):
        k[5].insert(2, "x11")

    assert "call string" in str(_err(_t6(mutate), "tenhou6"))


def test_tenhou6_missing_take():
    exc = _err(_t6(lambda k: k[5].pop()), "tenhou6")
    assert exc.hand == "S2-0" and exc.position.startswith("log[0]")


def test_tenhou6_unknown_result():
    def mutate(k):
        k[16] = ["勝ち", [0, 0, 0, 0]]

    assert "unknown result" in str(_err(_t6(mutate), "tenhou6"))


def test_tenhou6_bad_win_detail():
    def mutate(k):
        k[16][2] = [3, 3, 3, "三千点", "立直(1飜)"]

    assert "win header" in str(_err(_t6(mutate), "tenhou6"))


# mjai


def _mjai(edit) -> str:
    events = [json.loads(line) for line in MJAI.splitlines()]
    edit(events)
    return "\n".join(json.dumps(e) for e in events) + "\n"


def test_mjai_truncated_line():
    """A file cut inside its last line: the line is left out, the rest read, with a note."""
    cut = MJAI.index('{"type":"dahai"', len(MJAI) // 2) + 20
    game = read_text(MJAI[:cut], fmt="mjai")
    n = MJAI[:cut].count("\n") + 1
    assert game.complete is False and not game.hands[-1].finished
    assert f"(the file ends in the middle of line {n})" in game.truncated
    # a line that does not read is still an error when the file goes on after it
    exc = _err(MJAI[:cut] + "\n" + MJAI[cut:], "mjai")
    assert "not valid JSON" in str(exc) and exc.position == f"line {n}"


def test_mjai_truncated_between_lines():
    lines = MJAI.splitlines()
    game = read_text("\n".join(lines[: len(lines) // 2]) + "\n", fmt="mjai")
    assert game.truncated.startswith(f"the record stops inside hand {game.hands[-1].label}")


def test_mjai_missing_field():
    def edit(events):
        del events[1]["tehais"]

    exc = _err(_mjai(edit), "mjai")
    assert "tehais" in str(exc) and exc.position == "line 2"


def test_mjai_wrong_tile_count():
    def edit(events):
        events[1]["tehais"][2].pop()

    assert "13 tiles" in str(_err(_mjai(edit), "mjai"))


def test_mjai_discard_not_held():
    def edit(events):
        i = next(i for i, e in enumerate(events) if e["type"] == "dahai" and not e["tsumogiri"])
        held = set(events[1]["tehais"][events[i]["actor"]]) | {events[i - 1]["pai"]}
        events[i]["pai"] = next(t for t in ("C", "F", "P", "N", "W", "S", "E") if t not in held)

    exc = _err(_mjai(edit), "mjai")
    assert "does not hold" in str(exc) and exc.hand == "E1-0"


def test_mjai_illegal_call():
    def edit(events):
        i = next(i for i, e in enumerate(events) if e["type"] == "pon")
        events[i]["target"] = (events[i]["target"] + 1) % 4
        if events[i]["target"] == events[i]["actor"]:
            events[i]["target"] = (events[i]["target"] + 1) % 4

    assert "does not match the last discard" in str(_err(_mjai(edit), "mjai"))


def test_mjai_unknown_event():
    def edit(events):
        events.insert(3, {"type": "teleport", "actor": 0})

    exc = _err(_mjai(edit), "mjai")
    assert "teleport" in str(exc) and exc.position == "line 4"


def test_mjai_bad_tile():
    def edit(events):
        events[2]["pai"] = "0m"

    assert "'0m'" in str(_err(_mjai(edit), "mjai"))


def test_mjai_bad_seat():
    def edit(events):
        events[2]["actor"] = 7

    assert "seat 0-3" in str(_err(_mjai(edit), "mjai"))


def test_unknown_format_and_missing_file(tmp_path):
    assert "unknown record format" in str(_err("hello", "auto"))
    with pytest.raises(RecordError, match="cannot read"):
        read_file(tmp_path / "nope.json")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="UTF-8"):
        read_file(binary)


def test_cli_convert(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    assert (
        main(["convert", str(LOGS / "tenhou-mjlog" / "pao.xml"), "--to", "mjai", "-o", str(out)])
        == 0
    )
    assert json.loads(out.read_text().splitlines()[0])["type"] == "start_game"
    assert main(["convert", str(LOGS / "tenhou6" / "rinshan.json"), "--url"]) == 0
    assert capsys.readouterr().out.startswith("https://tenhou.net/6/#json=")
    bad = tmp_path / "bad.json"
    bad.write_text('{"log": [[1, 2]]}')
    folder = tmp_path / "many"
    code = main(
        [
            "convert",
            str(bad),
            str(LOGS / "tenhou6" / "chankan.json"),
            "--to",
            "tenhou6",
            "-o",
            str(folder),
        ]
    )
    assert code == 1
    assert "bad.json" in capsys.readouterr().err
    assert json.loads((folder / "chankan.json").read_text())["log"]


def _mutate_json(obj, rng):
    """Replace or delete one value somewhere inside a JSON object."""
    cur = obj
    for _ in range(rng.randint(1, 6)):
        keys = list(range(len(cur))) if isinstance(cur, list) else list(cur)
        if not keys:
            return
        k = rng.choice(keys)
        if isinstance(cur[k], (list, dict)) and cur[k] and rng.random() < 0.6:
            cur = cur[k]
            continue
        if rng.random() < 0.3:
            del cur[k]
        else:
            cur[k] = rng.choice(["x", -1, 10**12, None, [], 1.5, True, "r99", "c1", 60, 0])
        return


@pytest.mark.parametrize(
    "name", ["tenhou-mjlog/bug7.xml", "tenhou6/suukantsu_1.json", "mjai/126_204_0_mjai.jsonl"]
)
def test_random_corruption_never_crashes(name):
    """Truncations, flipped characters and changed values: a RecordError or a readable record."""
    import random

    from riichi_env.records.convert import write_text

    text = (LOGS / name).read_text()
    rng = random.Random(name)
    for _ in range(300):
        r = rng.random()
        if r < 0.25:
            bad = text[: rng.randrange(len(text))]
        elif r < 0.5:
            i = rng.randrange(len(text))
            bad = text[:i] + rng.choice('",0<>x9-{]') + text[i + 1 :]
        elif name.endswith(".xml"):
            values = list(re.finditer(r'"[^"]*"', text))
            m = rng.choice(values)
            bad = (
                text[: m.start()]
                + rng.choice(['""', '"-1"', '"x"', '"1,2"', '"999"'])
                + text[m.end() :]
            )
        elif name.endswith(".jsonl"):
            lines = text.splitlines()
            i = rng.randrange(len(lines))
            obj = json.loads(lines[i])
            _mutate_json(obj, rng)
            lines[i] = json.dumps(obj)
            bad = "\n".join(lines)
        else:
            obj = json.loads(text)
            _mutate_json(obj, rng)
            bad = json.dumps(obj)
        try:
            game = read_text(bad, source="fuzz")
        except RecordError as exc:
            assert str(exc).startswith("fuzz")
            continue
        write_text(game, "tenhou6")
        write_text(game, "mjai")


# byte-order mark and records that stop between hands


@pytest.mark.parametrize(
    "name", ["tenhou-mjlog/pao.xml", "tenhou6/rinshan.json", "mjai/126_204_0_mjai.jsonl"]
)
def test_utf8_byte_order_mark_is_accepted(name, tmp_path):
    from riichi_env.records.convert import detect_format

    text = (LOGS / name).read_text()
    plain = read_text(text)
    with_bom = tmp_path / Path(name).name
    with_bom.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert detect_format("\ufeff" + text) == detect_format(text) != "unknown"
    for game in (read_file(with_bom), read_text("\ufeff" + text)):
        assert len(game.hands) == len(plain.hands)
        assert [h.deltas for h in game.hands] == [h.deltas for h in plain.hands]


def test_walls_file_with_byte_order_mark(tmp_path):
    from riichi_env.records.mjlog import load_walls

    walls = tmp_path / "walls.jsonl"
    walls.write_bytes(b"\xef\xbb\xbf" + (LOGS / "tenhou-mjlog" / "walls.jsonl").read_bytes())
    assert load_walls(walls) == load_walls(LOGS / "tenhou-mjlog" / "walls.jsonl")


def test_utf16_text_is_named(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(T6.encode("utf-16"))
    with pytest.raises(RecordError, match="UTF-16 .*save the record as UTF-8"):
        read_file(path)


def test_mjai_ending_between_hands_is_incomplete():
    lines = MJAI.splitlines()
    second = [i for i, line in enumerate(lines) if '"start_kyoku"' in line][1]
    assert '"end_kyoku"' in lines[second - 1]
    game = read_text("\n".join(lines[:second]) + "\n", fmt="mjai")
    assert game.complete is False and game.hands[0].finished and len(game.hands) == 1
    assert game.truncated.startswith("the record stops after hand E1-0, before the game's end")


@pytest.mark.parametrize("closing", ["", "</mjloggm>", "</mjlo"])
def test_mjlog_ending_between_hands_is_incomplete(closing):
    end = MJLOG.index("/>", MJLOG.index("<AGARI")) + 2
    game = read_text(MJLOG[:end] + closing, fmt="mjlog")
    assert game.complete is False and game.hands[0].finished  # a tsumo: nothing can follow
    assert "stops after hand E1-0" in game.truncated and "owari" in game.truncated


def test_a_running_game_exported_between_hands_reads_as_incomplete():
    from riichi_env.records.mjai import dumps_mjai

    game = read_text(MJAI)
    game.hands = game.hands[:2]
    game.final_scores = game.final_results = None
    game.complete = False
    text = dumps_mjai(game)
    assert '"end_game"' not in text
    again = read_text(text, fmt="mjai")
    assert again.complete is False and len(again.hands) == 2
    assert "stops after hand" in again.truncated
    game.complete = None  # unknown (tenhou.net/6 without "sc"): written as a whole game
    assert len(read_text(dumps_mjai(game), fmt="mjai").hands) == 2


MJX_LINE = json.dumps(
    {
        "hiddenState": {"wall": [52, 31, 7], "uraDoraIndicators": [12]},
        "publicObservation": {
            "playerIds": ["A", "B", "C", "D"],
            "initScore": {"tens": [25000, 25000, 25000, 25000]},
            "doraIndicators": [101],
            "events": [{"type": "EVENT_TYPE_DISCARD", "who": 1, "tile": 39}],
        },
        "privateObservations": [{"who": 0, "initHand": {"closedTiles": [0, 5, 9]}}],
        "roundTerminal": {"finalScore": {"tens": [25000, 25000, 25000, 25000]}},
    }
)
UNSUPPORTED = {
    "mjx": (MJX_LINE + "\n") * 2,
    "html": "<!DOCTYPE html>\n<html><head><title>tenhou.net</title></head><body></body></html>\n",
    "xml": '<?xml version="1.0"?><game><round/></game>',
    "address": "https://tenhou.net/0/?log=2009022011gm-00a9-0000-ff1a5aa4&tw=0\n",
    "array": "[" + ",".join(MJAI.splitlines()[:3]) + "]\n",
}
LOOKS = {
    "mjx": "this looks like mjx JSON: mjxproto states, a hand a line; mjx's converter writes them "
    "as mjlog (--to-mjlog), which riichi-env reads",
    "html": "this looks like an HTML page, not the record",
    "xml": "this looks like XML, but not Tenhou's mjlog (no <mjloggm> root)",
    "address": "this looks like a Tenhou log address, not the record",
    "array": "this looks like mjai events in one JSON array: mjai is one event object a line",
}


@pytest.mark.parametrize("kind", sorted(UNSUPPORTED))
def test_an_unsupported_format_is_named_as_such(kind, tmp_path, capsys):
    """A record of a format this project does not read says what it looks like, not a parse
    error of another format (mjx's JSON lines were 'an event must be an object with a type')."""
    from riichi_env.dataset.convert import Converter
    from riichi_env.records.convert import detect_format
    from riichi_env.records.model import NotARecordError

    text = UNSUPPORTED[kind]
    assert detect_format(text) == "unknown"
    with pytest.raises(NotARecordError) as info:
        read_text(text, source="game.json")
    message = str(info.value)
    assert message.startswith(f"game.json: not a supported record format ({LOOKS[kind]}")
    assert message.endswith(
        "; riichi-env reads mjlog XML, tenhou.net/6 JSON, mjai events and Mahjong Soul records"
    )
    path = tmp_path / "game.json"
    path.write_text(text)
    conv = Converter()
    assert conv.convert(path) is None
    assert conv.stats.skipped[0].reason.startswith("not a supported record format (this looks")
    assert main(["replay", str(path)]) == 1
    assert f"{path}: skipped: not a supported record format ({LOOKS[kind]}" in (
        capsys.readouterr().out
    )
