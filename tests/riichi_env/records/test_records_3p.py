"""Three-player (sanma) records: the real games of ``tests/data/logs`` (its three-player records) (Tenhou mjlog, tenhou.net/6)
replay with 0 mismatched hands except the listed converter quirks; both mjai kita dialects are read
and written; engine-played games of both three-player presets round-trip through every format."""

from __future__ import annotations

import json
import re

import pytest
from test_records_helpers import (
    LOGS,
    assert_index_counts,
    assert_known_differences,
    index_table,
    normalized,
)
from test_records_roundtrip import _full, _in_common_order, _play

from engine.rules import MAHJONGSOUL_3P, TENHOU, TENHOU_3P
from riichi_env.records.convert import read_file, read_text, write_text
from riichi_env.records.export import export_mjai, export_tenhou6, game_from_events
from riichi_env.records.mjai import SANMA_DIALECTS, dumps_mjai, write_mjai
from riichi_env.records.mjlog import decode_meld, encode_meld, rules_text
from riichi_env.records.model import RecordError
from riichi_env.records.replay import explain_rules, record_preset, replay_game
from riichi_env.records.tenhou6 import write_tenhou6

SANMA2 = LOGS / "tenhou-mjlog" / "sanma2.xml"

EAST = MAHJONGSOUL_3P.replace(game_length="tonpuusen")
RULES_GIVEN = {
    "tenhou6/nukidora_doubleron.json": EAST,
    "tenhou6/kan3_nuki_rinshan.json": EAST,
}
"""Records whose length the file does not say: Mahjong Soul games converted to tenhou.net/6 with
the room's name alone (``三金の間赤``), which the reader takes as hanchan. Both end in East 3
without a bust, with first place at 40,000 or more (agari-yame): East games (INDEX.md)."""

KNOWN_DIFFERENCES = {
    "tenhou6/kokushi_peinuki.json": {
        "E3-0": (
            "the converter's deltas of the last hand leave out the riichi stick of the seat that "
            "dealt in (kokushi robbing a kita): 48,000 in the deltas, 49,000 with the stick, which "
            "the record's own final points (sc) count; the engine's final points match sc",
            "point changes record [-48000, 0, 48000, 0], engine [-48000, 0, 49000, 0]",
        ),
    },
}
"""File → {hand: (reason, text the mismatch must contain)}."""


def index_rows_3p() -> list[dict]:
    """Rows of ``tests/data/logs/INDEX.md``'s three-player tables: file, hands, wins, draws, kita."""
    return [{**row, "kita": int(cells[4])} for cells, row in index_table(8)]


ROWS = index_rows_3p()


def test_the_records_are_all_listed():
    listed = {r["file"] for r in ROWS}
    on_disk = {
        str(p.relative_to(LOGS))
        for p in LOGS.rglob("*")
        if p.is_file()
        and p.suffix in (".xml", ".json", ".jsonl")
        and p.parent.name not in ("riichienv", "mjai")
        and p.name != "walls.jsonl"
        and read_file(p).players == 3  # the three-player records among the four-player ones
    }
    assert listed == on_disk and len(ROWS) == 7
    assert set(RULES_GIVEN) | set(KNOWN_DIFFERENCES) <= listed


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_real_three_player_record_replays(row):
    game = read_file(row["path"])
    assert game.players == 3 and game.complete
    assert_index_counts(game, row)
    assert sum(e.type == "kita" for h in game.hands for e in h.events) == row["kita"]
    assert all(h.players == 3 and h.haipai[3] == [] and h.scores[3] == 0 for h in game.hands)
    result = replay_game(game, RULES_GIVEN.get(row["file"]))
    assert result.hands == row["hands"]
    assert_known_differences(result, KNOWN_DIFFERENCES.get(row["file"], {}))


def test_the_record_chooses_the_three_player_preset():
    want = {
        "tenhou-mjlog/sanma2.xml": "tenhou-3p",
        "tenhou6/double_nukidora.json": "tenhou-3p",
    }
    for row in ROWS:
        game = read_file(row["path"])
        assert record_preset(game)[0] == want.get(row["file"], "mahjongsoul-3p"), row["file"]
    game = read_file(SANMA2)
    assert game.rules_text == "三鳳南喰赤" == rules_text(185)
    assert game.red_fives == (0, 1, 1) and game.names == ("A", "B", "C", "D")
    assert game.final_scores == (27400, 83100, -5500, 0)
    assert game.final_results == (-13.0, 79.0, -66.0, 0.0)
    rules, why = explain_rules(game)
    assert (
        rules is TENHOU_3P and why == "tenhou-3p (a three-player Tenhou game: rules '三鳳南喰赤')"
    )


def test_sanma2_kita_and_payments():
    """``sanma2.xml``: kita on the first turn (hand 1), a replacement draw after each, tsumo loss
    (mangan 2,000 + 4,000), and the 16 kita of INDEX.md."""
    game = read_file(SANMA2)
    hand = game.hands[0]
    kita = [i for i, e in enumerate(hand.events) if e.type == "kita"]
    assert hand.events[kita[0]].seat == 0 and hand.events[kita[0]].tile // 4 == 30
    for i in kita:
        nxt = hand.events[i + 1]
        assert nxt.type == "draw" and nxt.rinshan and nxt.seat == hand.events[i].seat
    (win,) = hand.wins
    assert win.tsumo and win.deltas == (-4000, 7000, -2000, 0)  # with a riichi stick


def test_a_three_player_record_needs_three_player_rules():
    game = read_file(SANMA2)
    with pytest.raises(RecordError, match=r"3-player record .* 4-player rules 'tenhou'.*tenhou-3p"):
        replay_game(game, TENHOU)
    with pytest.raises(RecordError, match="3-player record"):
        replay_game(game, "mahjongsoul")


def test_kita_meld_code():
    ev = decode_meld(2, 31264)
    assert (ev.type, ev.seat, ev.tile) == ("kita", 2, 122)
    assert encode_meld(ev) == 31264
    with pytest.raises(ValueError, match="not a North"):
        decode_meld(0, (40 << 8) | 0x20)


def test_mjlog_three_player_errors():
    text = SANMA2.read_text()
    with pytest.raises(RecordError, match="hai3 has 13 tiles, expected none"):
        read_text(text.replace('hai3=""', f'hai3="{",".join(["4"] * 13)}"', 1), fmt="mjlog")
    four = text.replace('<GO type="185"', '<GO type="169"')
    with pytest.raises(RecordError, match="hai3"):
        read_text(four, fmt="mjlog")


def _kita_line(dialect: str) -> str:
    return json.dumps({"type": dialect, "actor": 0, "pai": "N"}, separators=(",", ":"))


@pytest.mark.parametrize("dialect", SANMA_DIALECTS)
def test_both_mjai_kita_dialects_are_written_and_read(dialect):
    game = read_file(SANMA2)
    text = dumps_mjai(game, sanma_dialect=dialect)
    lines = [json.loads(x) for x in text.splitlines()]
    start = next(e for e in lines if e["type"] == "start_kyoku")
    kitas = [e for e in lines if e["type"] in SANMA_DIALECTS]
    assert len(kitas) == 16 and all(e["type"] == dialect and e["pai"] == "N" for e in kitas)
    hora = next(e for e in lines if e["type"] == "hora")
    if dialect == "nukidora":  # the Mortal-3p forks, mjai-reviewer3p: four seats, seat 3 empty
        assert len(start["scores"]) == len(hora["deltas"]) == 4 and start["scores"][3] == 0
        assert start["tehais"][3] == ["?"] * 13 and len(lines[0]["names"]) == 4
    else:  # RiichiEnv: three seats
        assert len(start["scores"]) == len(start["tehais"]) == len(hora["deltas"]) == 3
        assert len(lines[0]["names"]) == 3
    got = read_text(text, fmt="mjai")
    assert got.players == 3 and _full(got) == _full(_in_common_order(game))
    assert replay_game(got, TENHOU_3P).ok


def test_mjai_kita_errors():
    game = read_file(SANMA2)
    lines = dumps_mjai(game).splitlines()
    i = next(i for i, x in enumerate(lines) if '"nukidora"' in x)
    bad = lines[:i] + [lines[i].replace('"N"', '"E"')] + lines[i + 1 :]
    with pytest.raises(RecordError, match="only a North"):
        read_text("\n".join(bad), fmt="mjai")
    four = read_file(LOGS / "mjai" / "126_204_0_mjai.jsonl")
    lines = dumps_mjai(four).splitlines()
    j = next(i for i, x in enumerate(lines) if '"tsumo"' in x)
    bad = lines[: j + 1] + [_kita_line("kita")] + lines[j + 1 :]
    with pytest.raises(RecordError, match="kita.*four-player"):
        read_text("\n".join(bad), fmt="mjai")


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_real_records_convert_and_read_back(row):
    """Each real record as mjai (both dialects) and tenhou.net/6 reads back as the same game and
    replays with the same result."""
    game = read_file(row["path"])
    mismatched = replay_game(game, RULES_GIVEN.get(row["file"])).mismatched_hands
    obj = write_tenhou6(game)
    assert "三" in obj["rule"]["disp"] and obj["rule"]["aka51"] == 0
    assert all(k[13] == [] and k[1][3] == 0 for k in obj["log"])
    texts = [("mjai", dumps_mjai(game, sanma_dialect=d)) for d in SANMA_DIALECTS]
    texts.append(("tenhou6", write_text(game, "tenhou6")))
    for fmt, text in texts:
        got = read_text(text, fmt=fmt)
        assert got.players == 3 and normalized(got) == normalized(game), fmt
        assert (got.final_scores, got.final_results) == (game.final_scores, game.final_results)
        rules = RULES_GIVEN.get(row["file"], explain_rules(game)[0])
        assert replay_game(got, rules).mismatched_hands == mismatched, fmt


@pytest.mark.parametrize("rules", [MAHJONGSOUL_3P, TENHOU_3P], ids=lambda r: r.name)
def test_engine_three_player_games_round_trip_and_replay(rules):
    """Self-play of each preset (random, and the efficiency policy, which declares kita and wins)
    exported as mjai (both dialects) and tenhou.net/6 reads back as the same game and replays
    with 0 mismatches."""
    kita = wins = 0
    for policy in (0, 2):
        for seed, rows in _play(rules, range(8), policy):
            game = game_from_events(rows, rules)
            assert game.players == 3 and game.complete
            kita += sum(e.type == "kita" for h in game.hands for e in h.events)
            wins += sum(len(h.wins) for h in game.hands)
            texts = [("mjai", dumps_mjai(game, sanma_dialect=d)) for d in SANMA_DIALECTS]
            texts.append(("tenhou6", export_tenhou6(rows, rules)))
            assert texts[0][1] == export_mjai(rows, rules)
            for fmt, text in texts:
                got = read_text(text, fmt=fmt, source=f"seed {seed}")
                want = _in_common_order(game) if fmt == "mjai" else game
                assert _full(got) == _full(want), f"{fmt}, seed {seed}"
                result = replay_game(got, rules)
                assert result.ok, "\n".join(str(m) for m in result.mismatches)
                assert record_preset(got)[0] == rules.name
    assert kita > 50 and wins > 20


def test_write_mjai_refuses_an_unknown_dialect():
    with pytest.raises(ValueError, match="sanma_dialect"):
        write_mjai(read_file(SANMA2), sanma_dialect="kita3")


def test_cli_replays_and_converts_three_player_records(tmp_path, capsys):
    """``riichi-env replay`` picks the three-player preset by itself and refuses a four-player
    one in one line; ``convert --sanma-dialect kita`` writes RiichiEnv's dialect."""
    from riichi_env.cli.main import main

    assert main(["replay", str(SANMA2)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].endswith(
        "6 hands, 0 mismatched; rules tenhou-3p (a three-player Tenhou game: rules '三鳳南喰赤')"
    )
    assert main(["replay", "--rules", "mahjongsoul", str(SANMA2)]) == 1
    out = capsys.readouterr().out
    assert "3-player record cannot be replayed with the 4-player rules 'mahjongsoul'" in out
    assert main(["replay", "--rules", "tenhou-3p", str(SANMA2)]) == 0
    capsys.readouterr()
    target = tmp_path / "sanma2.jsonl"
    assert main(["convert", str(SANMA2), "--sanma-dialect", "kita", "-o", str(target)]) == 0
    text = target.read_text()
    assert '"type":"kita"' in text and '"nukidora"' not in text
    assert main(["replay", str(target)]) == 0
    assert "rules tenhou-3p" in capsys.readouterr().out


@pytest.mark.parametrize("dialect", SANMA_DIALECTS)
def test_fast_and_checked_mjai_readers_agree_on_three_players(dialect):
    from riichi_env.records.mjai import _read_checked, _read_fast

    for path in [SANMA2, *sorted(r["path"] for r in ROWS if r["file"].startswith("tenhou6/"))]:
        text = dumps_mjai(read_file(path), sanma_dialect=dialect)
        fast = _read_fast(text, "x", (1, 1, 1))
        assert fast is not None, path.name  # the fast path reads three-player records too
        checked = _read_checked(text, "x", (1, 1, 1))
        assert _full(fast) == _full(checked) and fast.players == checked.players == 3


def test_tenhou6_with_three_seat_lists_reads_the_same():
    """A tenhou.net/6 writer that lists three names, scores, deltas and six ``sc`` entries (no
    empty fourth seat) gives the same game as Tenhou's four-entry layout; mjai-reviewer3p's
    convlog reads the four-entry layout the writer keeps (four names and points, an empty
    fourth haipai, four deltas)."""
    path = LOGS / "tenhou6" / "double_nukidora.json"
    obj = json.loads(path.read_text())
    obj["name"] = obj["name"][:3]
    obj["sc"] = obj["sc"][:6]
    for k in obj["log"]:
        k[1] = k[1][:3]
        for item in k[16][1:]:
            if isinstance(item, list) and len(item) == 4 and all(isinstance(x, int) for x in item):
                item.pop()
    three = read_text(json.dumps(obj, ensure_ascii=False), fmt="tenhou6")
    game = read_file(path)
    assert three.players == 3 and normalized(three) == normalized(game)
    assert (three.final_scores, three.final_results) == (game.final_scores, game.final_results)
    out = write_tenhou6(three)
    assert len(out["name"]) == 4 and len(out["sc"]) == 8
    for k in out["log"]:
        assert len(k[1]) == 4 and k[13:16] == [[], [], []]
        deltas = k[16][1::2] if k[16][0] == "和了" else k[16][1:2]
        assert all(len(x) == 4 and x[3] == 0 for x in deltas)


@pytest.mark.nojit
def test_replay_small_three_player_records():
    """Also without JIT: a one-hand Mahjong Soul record, and sanma2.xml's first hand (four kita,
    a tsumo with tsumo loss)."""
    result = replay_game(read_file(LOGS / "tenhou6" / "kokushi_ankan.json"))
    assert result.ok and result.hands == 1, "\n".join(str(m) for m in result.mismatches)
    game = read_file(SANMA2)
    game.hands, game.complete, game.final_scores, game.final_results = (
        game.hands[:1],
        False,
        None,
        None,
    )
    result = replay_game(game, TENHOU_3P)
    assert result.ok and result.hands == 1, "\n".join(str(m) for m in result.mismatches)


def test_mjlog_sc_and_owari_with_three_seats_read_the_same():
    """Tenhou writes four entries (``sc`` 8 numbers, ``owari`` 8, seat 3's zeros: sanma2.xml);
    six, the three seats alone, read the same."""
    text = SANMA2.read_text()
    for attr in ("sc", "owari"):
        text = re.sub(rf'{attr}="([^"]*),0,0(\.0)?"', rf'{attr}="\1"', text)
    assert text.count(',0,0"') == 0
    game, short = read_file(SANMA2), read_text(text, fmt="mjlog")
    assert normalized(short) == normalized(game)
    assert (short.final_scores, short.final_results) == (game.final_scores, game.final_results)
