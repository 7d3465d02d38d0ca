"""Mahjong Soul's own records: engine games written and read back, the games of
``tests/data/mahjongsoul`` replayed, converted and turned into dataset rows, and the wall layout."""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from test_records_roundtrip import _full, _in_common_order

from engine.events import event_rows
from engine.harness.selfplay import play_one
from engine.rules import MAHJONGSOUL, MAHJONGSOUL_3P, TENHOU, TENHOU_3P, Rules
from engine.tiles import red_ids
from riichi_env.cli.main import main
from riichi_env.records.convert import detect_format, read_file, read_text, write_text
from riichi_env.records.export import game_from_events
from riichi_env.records.mahjongsoul import (
    FAN_KEYS,
    dora_position,
    engine_to_paishan,
    live_position,
    paishan_to_engine,
    replacement_position,
    write_mahjongsoul,
)
from riichi_env.records.replay import explain_rules, replay_game
from riichi_env.records.wall import wall_slots

DATA = Path(__file__).resolve().parents[2] / "data"
GAMES = sorted((DATA / "mahjongsoul").glob("*.json.gz"))
FOUR = [p for p in GAMES if "_4p" in p.name]
THREE = [p for p in GAMES if "_3p" in p.name]
PRESETS = [MAHJONGSOUL, TENHOU, MAHJONGSOUL_3P, TENHOU_3P]


def _games(rules: Rules, seeds, policies=(0, 1, 2, 3)):
    """Engine self-play games (the uniform, greedy, simple and efficiency policies in turn)."""
    for seed in seeds:
        state = play_one(seed, rules, 16384, policies[seed % len(policies)])
        assert not state.ev_overflow[0]
        yield seed, game_from_events(event_rows(state, 0), rules)


def _wall_kinds(game, hand):
    red = frozenset(red_ids(game.red_fives))
    return [(t // 4, t in red) for t in hand.wall]


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_engine_games_round_trip(rules):
    """Engine game → Mahjong Soul record → read: the same game (kan dora where the format puts
    them), and the same wall (four players: all of it; three: every tile the hand reveals)."""
    kinds: Counter = Counter()
    for seed, game in _games(rules, range(40)):
        got = read_text(write_text(game, "mahjongsoul"), source=f"seed {seed}")
        assert got.format == "mahjongsoul" and got.players == rules.players
        assert _full(got) == _full(_in_common_order(game)), f"seed {seed}"
        for h, g in zip(game.hands, got.hands, strict=True):
            kinds.update(e.type for e in h.events)
            kinds.update(["several winners"] if len(h.wins) > 1 else [])
            if rules.players == 4:
                assert _wall_kinds(got, g) == _wall_kinds(game, h), f"seed {seed} {h.label}"
            else:
                for p, t, what in wall_slots(h):
                    assert g.wall[p] // 4 == t // 4, f"seed {seed} {h.label} {what}"
    want = {"pon", "daiminkan", "kakan", "ankan", "riichi", "dora"}
    want |= {"chi"} if rules.players == 4 else {"kita"}
    assert want <= set(kinds), kinds


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_engine_games_replay(rules):
    """The engine replays its own games written in this format exactly; the Mahjong Soul presets
    are what the record's own rules give."""
    for seed, game in _games(rules, range(100, 110)):
        got = read_text(write_text(game, "mahjongsoul"), source=f"seed {seed}")
        result = replay_game(got, rules if rules.name.startswith("tenhou") else None)
        assert result.ok, "\n".join(str(m) for m in result.mismatches)
        if rules.name.startswith("mahjongsoul"):
            assert explain_rules(got)[0] == rules


# --------------------------------------------------------------------------- the fixtures


def test_fixtures_cover_every_record_kind():
    """Between them the games of tests/data/mahjongsoul show every record kind and result."""
    seen: Counter = Counter()
    for path in GAMES:
        game = read_file(path)
        for hand in game.hands:
            seen.update(e.type for e in hand.events)
            seen.update([f"draw {hand.draw.kind}"] if hand.draw else [])
            seen.update([f"{len(hand.wins)} winners"] if hand.wins else [])
            seen.update("pao" for w in hand.wins if w.pao_seat >= 0)
            seen.update(
                f"ron on {hand.events[-1].type}"
                for w in hand.wins
                if not w.tsumo and hand.events[-1].type != "discard"
            )
            for w in hand.wins:
                seen.update(k for k, _ in w.yaku if k in ("rinshan_kaihou", "chankan"))
    want = {
        "chi", "pon", "daiminkan", "kakan", "ankan", "kita", "riichi", "dora",
        "1 winners", "2 winners", "3 winners", "pao", "ron on kita", "ron on kakan",
        "rinshan_kaihou", "chankan", "draw exhaustive", "draw nagashi_mangan",
        "draw kyuushu_kyuuhai", "draw suufon_renda", "draw suucha_riichi", "draw suukaikan",
    }  # fmt: skip
    assert want <= set(seen), want - set(seen)
    assert len(FOUR) >= 7 and len(THREE) >= 3


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_fixture_replays_with_its_own_rules(path):
    """0 mismatched hands with the preset the record names, the final points those of
    head.result (the replay compares them)."""
    game = read_file(path)
    assert game.complete and game.final_scores is not None
    rules, why = explain_rules(game)
    assert rules.name == ("mahjongsoul" if game.players == 4 else "mahjongsoul-3p"), why
    result = replay_game(game)
    assert result.ok and result.hands == len(game.hands), [str(m) for m in result.mismatches]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
@pytest.mark.parametrize("fmt", ["tenhou6", "mjai"])
def test_fixture_converts_and_back(path, fmt):
    """To tenhou.net/6 and mjai and back: the same game, replayed with the same (clean) result;
    and back into this format from there."""
    game = read_file(path)
    rules = explain_rules(game)[0]
    other = read_text(write_text(game, fmt), fmt=fmt)
    if fmt == "tenhou6":  # it has no place for the tenpai seats of a nagashi mangan draw
        for hand in game.hands:
            if hand.draw is not None and hand.draw.kind == "nagashi_mangan":
                hand.draw.tenpai = None
    assert _full(other, dora_positions=False) == _full(game, dora_positions=False)
    assert replay_game(other, rules).ok
    again = read_text(write_text(other, "mahjongsoul"))
    assert _full(again, dora_positions=False) == _full(other, dora_positions=False)
    assert replay_game(again).ok


def test_gzip_and_plain_read_alike(tmp_path):
    path = FOUR[0]
    plain = tmp_path / path.name.removesuffix(".gz")
    plain.write_bytes(gzip.decompress(path.read_bytes()))
    assert _full(read_file(plain)) == _full(read_file(path))


def test_dataset_rows_from_the_records_wall():
    """Every fixture converts to rows with no illegal move; the oracle column sees the record's
    own wall: the rows of a game's Mahjong Soul record are those of the engine's own log."""
    from riichi_env.dataset.convert import Converter

    for encoder, paths in (("basic_v0", FOUR), ("basic3_v0", THREE)):
        conv = Converter(encoder, oracle=True)
        rows = [conv.convert(p) for p in paths]
        assert conv.stats.illegal == 0 and not conv.stats.skipped, conv.stats.skipped
        assert all(r is not None and len(r["action"]) for r in rows)
    for rules, encoder in ((MAHJONGSOUL, "basic_v0"), (MAHJONGSOUL_3P, "basic3_v0")):
        for _, game in _games(rules, [5, 6], policies=(2,)):
            record = read_text(write_text(game, "mahjongsoul"))
            conv = Converter(encoder, rules=rules, oracle=True, strict=True)
            want, got = conv.convert(game), conv.convert(record)
            for key in ("obs", "mask", "action", "oracle"):
                assert np.array_equal(got[key], want[key]), key


# ----------------------------------------------------------------------------- the command line


def test_replay_and_convert_commands(tmp_path, capsys):
    files = [str(p) for p in GAMES]
    assert main(["replay", *files]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert (
        out[-1]
        == f"{len(GAMES)} games, {sum(len(read_file(p).hands) for p in GAMES)} hands, 0 mismatched"
    )
    assert "0 mismatched; rules mahjongsoul (a Mahjong Soul game: rules 'Mahjong Soul " in out[-2]
    # a Tenhou hand (tenhou.net/6, a double ron) written as a Mahjong Soul record, a wall built
    src = DATA / "logs" / "tenhou6" / "double_ron.json"
    target = tmp_path / "double_ron.json"
    assert main(["convert", str(src), "--to", "mahjongsoul", "-o", str(target)]) == 0
    assert detect_format(target.read_text()) == "mahjongsoul"
    assert main(["replay", "--rules", "tenhou", str(target)]) == 0
    folder = tmp_path / "out"
    assert main(["convert", *files[:2], "--to", "mjai", "-o", str(folder)]) == 0
    assert len(list(folder.glob("*.jsonl"))) == 2


# ----------------------------------------------------------------------------- the wall layout


def test_wall_positions():
    """Four players: the deal in blocks of four from the dealer (then one each, then the dealer's
    14th at 52), replacement draws from the end, dora at 131, 129, …; three players: dora at 99."""
    from riichi_env.records.mahjongsoul import deal_positions

    deal = deal_positions(4)
    assert deal[0][:5] == [0, 1, 2, 3, 16] and deal[1][:4] == [4, 5, 6, 7]
    assert deal[0][12] == 48 and deal[3][12] == 51 and live_position(4, 0) == 52
    assert [replacement_position(4, r) for r in range(4)] == [135, 134, 133, 132]
    assert [dora_position(4, i) for i in range(5)] == [131, 129, 127, 125, 123]
    assert deal_positions(3)[2][12] == 38 and live_position(3, 0) == 39
    assert [replacement_position(3, r) for r in (0, 7)] == [107, 100]
    assert [dora_position(3, i) for i in range(5)] == [99, 97, 95, 93, 91]


@pytest.mark.parametrize("players", [4, 3])
def test_paishan_and_engine_walls_agree(players):
    """For any number of replacement draws, every tile a hand can reveal keeps its place."""
    from engine.state import SANMA_REMOVED

    rng = random.Random(players)
    ids = [t for t in range(136) if players == 4 or t not in SANMA_REMOVED]
    for k in range(0, 9 if players == 3 else 5):
        rng.shuffle(ids)
        eng = paishan_to_engine(ids, players, k)
        assert sorted(eng) == list(range(136))
        back = engine_to_paishan(eng, players, k)
        assert sorted(back) == sorted(ids)
        live = 70 if players == 4 else 55 - k
        for j in range(live):
            assert back[live_position(players, j)] == ids[live_position(players, j)]
        for r in range(k):
            assert back[replacement_position(players, r)] == ids[replacement_position(players, r)]
        if players == 4:
            assert back == ids


def test_detect_format():
    assert detect_format(gzip.decompress(FOUR[0].read_bytes()).decode()) == "mahjongsoul"
    assert detect_format('{"data": {"name": ".lq.GameDetailRecords"}, "head": {}}') == "mahjongsoul"
    assert detect_format('\ufeff {\n  "head": {"uuid": "x"}') == "mahjongsoul"
    assert detect_format('{"title": ["", ""], "name": [], "log": []}') == "tenhou6"


def test_fan_table_maps_to_yaku_keys():
    """Every fan id in the table names one of our yaku (docs/records.md lists it)."""
    from engine.scoring.yaku import YAKU_KEYS
    from riichi_env.records.model import NUKI_DORA

    keys = set(YAKU_KEYS) | {NUKI_DORA, "renhou", "seat_wind", "round_wind"}
    assert set(FAN_KEYS.values()) <= keys
    assert len(set(FAN_KEYS.values())) == len(FAN_KEYS)


def test_writer_keeps_uuid_names_and_result():
    game = read_file(FOUR[0])
    obj = write_mahjongsoul(game)
    assert obj["head"]["uuid"] == game.record_id
    assert [a["nickname"] for a in obj["head"]["accounts"]] == list(game.names)
    result = {p["seat"]: p for p in obj["head"]["result"]["players"]}
    assert [result[s]["part_point_1"] for s in range(4)] == list(game.final_scores)
    assert json.loads(write_text(game, "mahjongsoul")) == obj


# ------------------------------------------------------- hand-written records: layouts, damage

HAND = DATA / "mahjongsoul" / "handwritten"


def _record(name: str = "one_hand_4p.json") -> dict:
    return json.loads((HAND / name).read_text())


def _at(rec: dict, kind: str, n: int = 0) -> int:
    """Index of the ``n``-th record of ``kind`` in the actions."""
    found = [
        i
        for i, a in enumerate(rec["data"]["data"]["actions"])
        if a.get("result", {}).get("name") == f".lq.Record{kind}"
    ]
    return found[n]


def _data(rec: dict, i: int) -> dict:
    return rec["data"]["data"]["actions"][i]["result"]["data"]


@pytest.mark.parametrize("name", sorted(p.name for p in HAND.glob("*.json")))
def test_handwritten_records_replay(name):
    """Records in the shapes the platform saves: default values left out (proto3), user inputs
    between the records, the older ``records`` layout with a wall without the deal (``md5``,
    a single ``dora``), three players with kita (fan 34, nuki dora)."""
    game = read_file(HAND / name)
    assert game.format == "mahjongsoul" and len(game.hands) == 1 and game.complete is None
    assert game.hands[0].wall is not None
    result = replay_game(game)
    assert result.ok, [str(m) for m in result.mismatches]


def test_layouts_read_alike():
    new, old = read_file(HAND / "one_hand_4p.json"), read_file(HAND / "one_hand_4p_records.json")
    assert _full(new) == _full(old)
    win = new.hands[0].wins[0]
    assert dict(win.yaku) == {
        "menzen_tsumo": 1, "ippatsu": 1, "double_riichi": 2, "pinfu": 1, "dora": 2
    }  # fmt: skip
    assert (win.seat, win.han, win.fu, win.limit, win.deltas) == (
        1, 7, 20, "haneman", (-6000, 13000, -3000, -3000)
    )  # fmt: skip
    assert ("nuki_dora", 1) in read_file(HAND / "one_hand_3p.json").hands[0].wins[0].yaku


def _drop(key):
    def f(rec):
        del _data(rec, 0)[key]

    return f


def _set(kind, key, value, n=0):
    def f(rec):
        _data(rec, _at(rec, kind, n))[key] = value

    return f


def _discard(n, tile, moqie):
    def f(rec):
        d = _data(rec, _at(rec, "DiscardTile", n))
        d["tile"], d["moqie"] = tile, moqie

    return f


def _swap_wall(a, b):
    def f(rec):
        d = _data(rec, 0)
        tiles = [d["paishan"][i : i + 2] for i in range(0, len(d["paishan"]), 2)]
        tiles[a], tiles[b] = tiles[b], tiles[a]
        d["paishan"] = "".join(tiles)

    return f


def _rename(kind, new):
    def f(rec):
        rec["data"]["data"]["actions"][_at(rec, kind)]["result"]["name"] = new

    return f


def _bytes(rec):
    rec["data"]["data"]["actions"][_at(rec, "DealTile")]["result"] = "CgJ4eBIDMm0="


def _truncate(rec):
    del rec["data"]["data"]["actions"][_at(rec, "Hule") :]


def _no_hules(rec):
    del _data(rec, _at(rec, "Hule"))["hules"]


def _ron_without_discard(rec):
    _data(rec, _at(rec, "Hule"))["hules"][0]["zimo"] = False


def _head(key, value):
    def f(rec):
        rec["head"]["config"]["mode"][key] = value

    return f


DAMAGED = [
    (_drop("tiles1"), 'actions[0] RecordNewRound: no "tiles1"'),
    (_drop("scores"), 'actions[0] RecordNewRound: "scores" must list 4 ints, got None'),
    (_set("DiscardTile", "tile", ""), 'actions[1] RecordDiscardTile: no "tile"'),
    (_no_hules, 'actions[21] RecordHule: no "hules" (the winners)'),
    (
        _swap_wall(0, 60),
        "actions[0] RecordNewRound: the wall (paishan) contradicts the deal: tiles0 is 1m 4m 7m "
        "2p 5p 8p 3s 6s 9s 1z 2z 3z 4z 5z but the wall deals 4m 7m 2p 5p 8p 3s 6s 9s 9s 1z 2z 3z "
        "4z 5z",
    ),
    (
        _swap_wall(53, 54),
        "actions[3] RecordDealTile: seat 1 draws 9s but the wall (paishan) has 6z at position 53",
    ),
    (
        _swap_wall(131, 130),
        "actions[0] RecordNewRound: dora indicator 4s but the wall (paishan) has 6s at "
        "position 131",
    ),
    (
        _set("DealTile", "tile", "3x"),
        "actions[3] RecordDealTile: tile: '3x' is not a Mahjong Soul tile (1m-9m, 0m, …, 1z-7z)",
    ),
    (
        _rename("DealTile", ".lq.RecordChangeTile"),
        "actions[3]: unknown record kind '.lq.RecordChangeTile' (read: .lq.RecordNewRound, ",
    ),
    (_bytes, "actions[3]: undecoded protobuf bytes: save the record with its records decoded"),
    (
        _truncate,
        "hand E1-0, actions[19]: the last hand has no result (RecordHule, RecordNoTile "
        "or RecordLiuJu): truncated file?",
    ),
    (
        _discard(1, "1m", False),
        "actions[5] RecordDiscardTile: seat 1 discards 1m, which it does not hold",
    ),
    (
        _discard(2, "5z", True),
        "actions[9] RecordDiscardTile: seat 2 discards 5z as tsumogiri (moqie) but drew 6z",
    ),
    (
        _ron_without_discard,
        "actions[21] RecordHule: seat 1 wins by ron but no other seat just discarded",
    ),
    (
        _head("mode", 3),
        "head.config.mode.mode: mode 3: expected 1 or 2 (East or South), 11 or 12 (three players)",
    ),
    (
        _head("detail_rule", {"muyu_mode": 1}),
        "head.config.mode.detail_rule: detail_rule.muyu_mode is set: a special mode",
    ),
]


@pytest.mark.parametrize(("damage", "message"), DAMAGED, ids=[m[:40] for _, m in DAMAGED])
def test_damaged_record_is_a_one_line_error_naming_the_action(damage, message):
    from riichi_env.records.mahjongsoul import read_mahjongsoul
    from riichi_env.records.model import RecordError

    rec = _record()
    damage(rec)
    with pytest.raises(RecordError) as exc:
        read_mahjongsoul(json.dumps(rec), source="one_hand.json")
    text = str(exc.value)
    assert "\n" not in text and text.startswith("one_hand.json, ")
    assert message in text, text


def test_rules_from_the_head():
    """Players and length from mode.mode, the room from meta.mode_id (rule text and preset), red
    fives from the walls or, without them, a friendly room's dora_count."""
    from riichi_env.records.mahjongsoul import read_mahjongsoul

    rec = _record()
    rec["head"]["config"]["meta"] = {"mode_id": 11}
    rec["head"]["config"]["mode"]["mode"] = 1
    del rec["head"]["accounts"][3]
    game = read_mahjongsoul(rec)
    assert game.rules_text == "Mahjong Soul Jade Room East" and game.game_length == "tonpuusen"
    assert game.names == ("A", "B", "C", "AI") and game.red_fives == (1, 1, 1)
    assert explain_rules(game)[1].startswith("mahjongsoul (a Mahjong Soul game: rules 'Mahjong")
    rec = _record()
    del rec["head"]["config"]["mode"]["mode"]
    assert read_mahjongsoul(rec).game_length == "hanchan"
    del _data(rec, 0)["paishan"]
    assert read_mahjongsoul(rec).hands[0].wall is None
    assert replay_game(read_mahjongsoul(rec)).ok  # a wall built to fit the record
    rec["head"]["config"]["mode"]["detail_rule"] = {"dora_count": 4}
    assert read_mahjongsoul(rec).red_fives == (1, 2, 1)
    rec["head"]["config"]["mode"]["detail_rule"] = {}
    assert read_mahjongsoul(rec).red_fives == (1, 1, 1)
    three = _record("one_hand_3p.json")
    assert read_mahjongsoul(three).red_fives == (0, 1, 1)
    rec["head"]["config"]["mode"]["mode"] = 12
    with pytest.raises(ValueError, match="mode 12 is a 3-player game but the first hand deals 4"):
        read_mahjongsoul(rec)


def test_calls_without_froms_read_alike():
    """A ``ChiPengGang`` without ``froms`` (the called tile listed last) reads the same."""
    from riichi_env.records.mahjongsoul import read_mahjongsoul

    rec = json.loads(gzip.decompress(FOUR[0].read_bytes()))
    n = 0
    for a in rec["data"]["data"]["actions"]:
        if a["result"]["name"] == ".lq.RecordChiPengGang":
            del a["result"]["data"]["froms"]
            n += 1
    assert n > 10 and _full(read_mahjongsoul(rec)) == _full(read_file(FOUR[0]))
