"""The mjai reader's fast path gives the Game the checked reader gives, field by field.

``read_mjai`` reads a well-formed record on a fast path and hands anything else to the checked
reader (the reader as it was before the fast path). Here both read every record in
``tests/data/logs`` (as mjai: its own text, or written by ``dumps_mjai`` from the mjlog and
tenhou.net/6 ones), about 50 fresh arena games (mjai and tenhou.net/6 records), and a few hundred
damaged copies: the results (a Game, or the same error) must be equal.
"""

from __future__ import annotations

import functools
import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest

from riichi_env.batch.arena import arena
from riichi_env.records import mjai, mjai_kernels, model
from riichi_env.records.convert import detect_format, read_file, read_text
from riichi_env.records.mjai import _read_checked, _read_fast, dumps_mjai, read_mjai
from riichi_env.records.mjai_kernels import LINE_TSUMOGIRI, lex_lines
from riichi_env.records.model import RecordError, compact_events

LOGS = Path(__file__).resolve().parents[2] / "data" / "logs"
SEATS = ["random", "greedy", "efficiency", "simple"]
NAMES = ["1m", "5m", "5mr", "5p", "5pr", "9s", "E", "C", "0m", "1mr", "x", 5, None, ["5m"]]


@functools.lru_cache(maxsize=1)
def record_texts() -> tuple[str, ...]:
    """mjai texts of every record in ``tests/data/logs`` (the mjai ones also as written)."""
    texts = []
    for path in sorted(LOGS.rglob("*")):
        if not path.is_file() or path.suffix in (".md", ".py") or path.name == "walls.jsonl":
            continue
        game = read_file(path)
        texts.append(dumps_mjai(game))
        text = path.read_text(encoding="utf-8-sig")
        if detect_format(text) == "mjai":
            texts.append(text)
    return tuple(texts)


def outcome(read, text: str) -> tuple:
    """A reader's result: the Game, or the error's type and text."""
    try:
        return ("game", read(text))
    except Exception as exc:  # the readers raise RecordError, and a few a TypeError: compare all
        return (type(exc).__name__, str(exc))


def mutations(text: str, rng: random.Random, n: int) -> list[str]:
    """``n`` damaged or unusual copies of an mjai record (one change each)."""
    lines = text.splitlines()
    rare = [  # lines at and just after an event other than a draw or discard: damage them more
        j + k
        for j, line in enumerate(lines)
        if not any(f'"type":"{t}"' in line.replace(" ", "") for t in ("tsumo", "dahai"))
        for k in (0, 1, 2)
        if j + k < len(lines)
    ]
    out = []
    for _ in range(n):
        ls = list(lines)
        i = rng.choice(rare) if rng.random() < 0.5 else rng.randrange(len(ls))
        op = rng.randrange(14)
        if op == 0:
            del ls[i]
        elif op == 1:
            ls.insert(i, ls[i])
        elif op == 2 and i + 1 < len(ls):
            ls[i], ls[i + 1] = ls[i + 1], ls[i]
        elif op == 3:
            ls.insert(i, rng.choice(["", " ", "\t", "{}", "[]", "null", "{", "}"]))
        elif op == 4:
            ls[i] = rng.choice([" ", ""]) + ls[i] + rng.choice([" ", "", "\r", "x"])
        elif op == 5:
            ls[i] = ls[i][: rng.randrange(len(ls[i]) + 1)]
        else:
            ev = json.loads(ls[i])
            key = rng.choice([k for k in ev if k != "type"] or ["type"])
            if op == 6 and "pai" in ev:
                ev["pai"] = rng.choice(NAMES)
            elif op == 7 and "tsumogiri" in ev:
                ev["tsumogiri"] = rng.choice([not ev["tsumogiri"], 1, "yes", None])
            elif op == 8 and "actor" in ev:
                ev["actor"] = rng.choice([0, 1, 2, 3, 4, -1, True, 1.0, "1"])
            elif op == 9:
                ev["type"] = rng.choice(["tsumo", "dahai", "pon", "end_kyoku", "bogus", 3])
            elif op == 10 and ev["type"] == "start_kyoku":
                s = rng.randrange(4)
                ev["tehais"][s][rng.randrange(13)] = rng.choice(NAMES)
            elif op == 11:
                ev[key] = rng.choice([None, [], 1.5, "5m", {"a": 1}, True])
            elif op == 12:
                ls[0] = json.dumps({**json.loads(ls[0]), "aka_flag": False, "red_fives": [2, 0, 1]})
                ev = None
            else:  # every red five named as a plain one from here on (a plain five read as red)
                ls[i:] = [line.replace('r"', '"') for line in ls[i:]]
                ev = None
            if ev is not None:
                ls[i] = json.dumps(ev, ensure_ascii=False)
        out.append(("\ufeff" if rng.random() < 0.05 else "") + "\n".join(ls) + "\n")
    return out


def _checked(text: str):
    return _read_checked(text, "x.mjson", (1, 1, 1))


@pytest.fixture(scope="module")
def arena_texts(tmp_path_factory) -> list[str]:
    """52 arena games: 28 written as mjai, 24 as tenhou.net/6 (re-written as mjai)."""
    out = tmp_path_factory.mktemp("arena")
    arena(SEATS, games=28, seed=11, log_dir=out / "mjai", log_format="mjai", progress=False)
    arena(SEATS, games=24, seed=12, log_dir=out / "t6", log_format="tenhou6", progress=False)
    texts = [p.read_text(encoding="utf-8") for p in sorted((out / "mjai").iterdir())]
    texts += [dumps_mjai(read_file(p)) for p in sorted((out / "t6").iterdir())]
    assert len(texts) == 52
    return texts


def test_fast_path_equals_checked_reader_on_stored_records():
    texts = record_texts()
    assert len(texts) > 40
    fast = 0
    for text in texts:
        game = _read_fast(text, "x.mjson", (1, 1, 1))
        want = _checked(text)
        if game is None:  # only a record that reads a plain five as a red one leaves the fast path
            assert any(hand.plain_reds for hand in want.hands)
            continue
        fast += 1
        assert game == want
    assert fast >= len(texts) - 2


def test_fast_path_equals_checked_reader_on_arena_games(arena_texts):
    for text in arena_texts:
        game = _read_fast(text, "x.mjson", (1, 1, 1))
        assert game is not None
        assert game == _checked(text)


def test_damaged_records_read_as_the_checked_reader_reads_them(arena_texts):
    rng = random.Random(24)
    short = sorted(record_texts(), key=len)
    base = [*short[:20], short[-1], *arena_texts[::26]]  # the one-hand records, whole games
    kinds = set()
    for text in base:
        for bad in mutations(text, rng, 16):
            got = outcome(lambda t: read_mjai(t, source="x.mjson"), bad)
            assert got == outcome(_checked, bad)
            kinds.add(got[0])
    assert {"game", "RecordError"} <= kinds  # both outcomes occur


def test_plain_five_read_as_red_leaves_the_fast_path():
    text = next(t for t in record_texts() if '"5mr"' in t)
    plain = text.replace('"5mr"', '"5m"')
    assert _read_fast(plain, "", (1, 1, 1)) is None
    game = read_mjai(plain, source="x.mjson")
    assert any(hand.plain_reds for hand in game.hands)
    assert game == _checked(plain)


def test_errors_still_name_the_line():
    text = record_texts()[0].splitlines()
    text[5] = text[5].replace('"actor":', '"actor":7,"x":')
    with pytest.raises(RecordError, match="line 6: .* must be a seat 0-3, got 7"):
        read_mjai("\n".join(text), source="x.mjson")


def test_a_draw_after_another_seats_kan_is_no_replacement_draw():
    kans = ('"type":"ankan"', '"type":"daiminkan"', '"type":"kakan"')
    tried = 0
    for text in sorted(record_texts(), key=len):  # the short records first
        lines = text.splitlines()
        for i, line in enumerate(lines[:-1]):
            if tried >= 12:
                break
            after = json.loads(lines[i + 1])
            if any(k in line for k in kans) and after["type"] == "tsumo":
                after["actor"] = (after["actor"] + 1) % 4
                bad = "\n".join([*lines[: i + 1], json.dumps(after), *lines[i + 2 :]])
                assert outcome(read_mjai, bad) == outcome(
                    lambda t: _read_checked(t, "", (1, 1, 1)), bad
                )
                tried += 1
    assert tried >= 5


def test_unusual_spellings_stay_on_the_fast_path():
    """Lines the compiled part does not read (spaces, other key orders, extra keys, CRLF, a
    start_kyoku it does not recognise) are read by ``json`` and still give the checked reader's
    Game without leaving the fast path."""
    texts = [t for t in record_texts() if _read_fast(t, "x.mjson", (1, 1, 1)) is not None]
    texts = sorted(texts, key=len)[:8] + [max(texts, key=len)]
    spellings = [
        lambda ev: json.dumps(ev),  # ", " and ": "
        lambda ev: json.dumps(ev, sort_keys=True, separators=(",", ":")),  # RiichiEnv's order
        lambda ev: json.dumps({**ev, "meta": 1}, separators=(",", ":")),  # an extra key
        lambda ev: json.dumps(ev, separators=(" ,\t", " :  ")),  # blanks around separators
    ]
    for text in texts:
        want = _checked(text)
        for spell in spellings:
            respelled = "\n".join(spell(json.loads(line)) for line in text.splitlines() if line)
            game = _read_fast(respelled, "x.mjson", (1, 1, 1))
            assert game is not None and game == want
        crlf = text.replace("\n", "\r\n")
        assert _read_fast(crlf, "x.mjson", (1, 1, 1)) == want


def test_lines_are_those_of_str_splitlines():
    rng = random.Random(3)
    pieces = ["a", "é", "{}", '{"type":"reach","actor":1}', "\n", "\r", "\r\n", "\x0b", "\x0c"]
    pieces += ["\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", " ", "南"]
    texts = ["", "\n", "\n\n", "x", "x\n", "\r\n\r\n", "a\rb"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randrange(12))) for _ in range(300)]
    for text in texts:
        data = text.encode()
        lines, _ = lex_lines(np.frombuffer(data, dtype=np.uint8))
        got = [data[a:b].decode() for a, b in lines[:, :2].tolist()]
        assert got == text.splitlines(), repr(text)


def test_plain_lines_are_recognised_exactly():
    """The compiled part recognises a line only when ``json`` reads the same event from it."""
    plain = [
        ('{"type":"tsumo","actor":2,"pai":"5mr"}', mjai_kernels.LINE_TSUMO, 2, 34),
        ('{"pai":"E","actor":0,"type":"tsumo"}', mjai_kernels.LINE_TSUMO, 0, 27),
        ('{"type": "dahai", "actor": 3, "pai": "9s", "tsumogiri": true}', LINE_TSUMOGIRI, 3, 26),
        ('{"type":"dahai","actor":1,"pai":"C","tsumogiri":false}', mjai_kernels.LINE_DAHAI, 1, 33),
        ('{"type":"dahai","actor":1,"pai":"C"}', mjai_kernels.LINE_DAHAI, 1, 33),
        ('{"type":"reach","actor":3}', mjai_kernels.LINE_REACH, 3, 0),
        ('{"actor":0,"type":"reach_accepted"}', mjai_kernels.LINE_ACCEPTED, 0, 0),
    ]
    other = [
        '{"type":"tsumo","actor":2,"pai":"5mr"} ',
        ' {"type":"tsumo","actor":2,"pai":"5mr"}',
        '{"type":"tsumo","actor":2,"pai":"5mr","pai":"5m"}',
        '{"type":"tsumo","actor":4,"pai":"5m"}',
        '{"type":"tsumo","actor":10,"pai":"5m"}',
        '{"type":"tsumo","actor":1.0,"pai":"5m"}',
        '{"type":"tsumo","actor":true,"pai":"5m"}',
        '{"type":"tsumo","actor":1,"pai":"1mr"}',
        '{"type":"tsumo","actor":1,"pai":"0m"}',
        '{"type":"tsumo","actor":1,"pai":"?"}',
        '{"type":"tsumo","actor":1,"pai":"\\u0045"}',
        '{"type":"tsumo","actor":1}',
        '{"type":"tsumo","actor":1,"pai":"E","tsumogiri":false}',
        '{"type":"dahai","actor":1,"pai":"E","tsumogiri":1}',
        '{"type":"dahai","actor":1,"pai":"E","tsumogiri":falsey}',
        '{"type":"reach","actor":1,"pai":"E"}',
        '{"type":"reach_accepted","actor":1,"deltas":[0,0,0,-1000]}',
        '{"type":"reach","actor":1}}',
        '{"type":"reach","actor":1',
    ]
    for line, kind, seat, name in plain:
        rows, _ = lex_lines(np.frombuffer(line.encode(), dtype=np.uint8))
        assert rows[0, 2:].tolist() == [kind, seat, name], line
    for line in other:
        rows, _ = lex_lines(np.frombuffer(line.encode(), dtype=np.uint8))
        assert rows[0, 2] == mjai_kernels.LINE_OTHER, line


def test_start_kyoku_lines_are_recognised_exactly():
    line = record_texts()[0].splitlines()[1]
    ev = json.loads(line)
    assert ev["type"] == "start_kyoku" and len(ev["tehais"]) == 4

    def kind(text: str) -> int:
        rows, starts = lex_lines(np.frombuffer(text.encode(), dtype=np.uint8))
        if rows[0, 2] == mjai_kernels.LINE_START:
            fields = starts[rows[0, 4]].tolist()
            assert fields[6:10] == list(map(int, json.loads(text)["scores"]))
        return int(rows[0, 2])

    assert kind(line) == kind(json.dumps(ev)) == mjai_kernels.LINE_START
    assert kind(json.dumps(ev, sort_keys=True)) == mjai_kernels.LINE_START
    assert kind(json.dumps({**ev, "scores": [-1200, 0, 10, 999999999]})) == mjai_kernels.LINE_START
    for bad in (
        {**ev, "scores": [25000.0, 25000, 25000, 25000]},
        {**ev, "scores": [1e4, 25000, 25000, 25000]},
        {**ev, "scores": [25000, 25000, 25000]},
        {**ev, "scores": [1234567890, 0, 0, 0]},
        {**ev, "honba": -0.5},
        {**ev, "bakaze": "X"},
        {**ev, "tehais": [*ev["tehais"][:3], ["?"] * 13]},
        {**ev, "tehais": [*ev["tehais"][:3], ev["tehais"][3][:12]]},
        {**ev, "extra": 1},
        {k: v for k, v in ev.items() if k != "kyotaku"},
    ):
        assert kind(json.dumps(bad)) == mjai_kernels.LINE_OTHER, bad
    assert kind(line.replace('"honba":0', '"honba":00')) == mjai_kernels.LINE_OTHER
    assert kind(line.replace('"honba":0', '"honba":0,"honba":0')) == mjai_kernels.LINE_OTHER


def test_three_player_arena_games_read_the_same(tmp_path):
    arena(SEATS[:3], games=6, seed=5, rules="mahjongsoul-3p", log_dir=tmp_path, progress=False)
    texts = [p.read_text(encoding="utf-8") for p in sorted(tmp_path.iterdir())]
    assert len(texts) == 6
    kinds = set()
    for text in texts:
        want = _checked(text)
        assert want.players == 3
        for dialect in mjai.SANMA_DIALECTS:
            again = dumps_mjai(want, sanma_dialect=dialect)
            game = _read_fast(again, "x.mjson", (1, 1, 1))
            assert game is not None and game == _checked(again)
        game = _read_fast(text, "x.mjson", (1, 1, 1))
        assert game is not None and game == want
        kinds |= {e.type for h in want.hands for e in h.events}
    assert "kita" in kinds


def test_records_cut_anywhere_read_as_the_checked_reader_reads_them(arena_texts):
    rng = random.Random(7)
    fast = 0
    for text in [*sorted(record_texts(), key=len)[:6], arena_texts[0], arena_texts[-1]]:
        lines = text.splitlines()
        for _ in range(12):  # between lines: the fast path reads what the checked reader reads
            cut = "\n".join(lines[: rng.randrange(len(lines))]) + rng.choice(["", "\n"])
            got = outcome(lambda t: _read_fast(t, "x.mjson", (1, 1, 1)), cut)
            if got != ("game", None):  # None: left to the checked reader (no hand at all)
                assert got == outcome(_checked, cut)
                fast += 1
        for _ in range(6):  # inside a line
            cut = text[: rng.randrange(len(text))]
            assert outcome(lambda t: read_mjai(t, source="x.mjson"), cut) == outcome(_checked, cut)
    assert fast >= 80


def test_a_ryukyoku_without_a_reason_reads_the_same():
    """Records without a ``reason`` (Mortal's): the draw kind comes from the hand's events."""
    done = 0
    for text in record_texts():
        if '"ryukyoku"' not in text:
            continue
        lines = [json.loads(line) for line in text.splitlines()]
        for ev in lines:
            if ev["type"] == "ryukyoku":
                ev.pop("reason", None)
        plain = "\n".join(json.dumps(ev, separators=(",", ":")) for ev in lines)
        game = _read_fast(plain, "x.mjson", (1, 1, 1))
        assert game is not None and game == _checked(plain)
        done += 1
    assert done >= 5


def test_hand_events_are_built_when_first_read(arena_texts):
    game = _read_fast(arena_texts[0], "x.mjson", (1, 1, 1))
    want = _checked(arena_texts[0])
    hand = game.hands[0]
    assert compact_events(hand) is not None
    events = hand.events
    assert compact_events(hand) is None and hand.events is events
    assert events == want.hands[0].events
    hand.events = []
    assert hand.events == [] and compact_events(hand) is None
    again = pickle.loads(pickle.dumps(game))
    assert compact_events(again.hands[1]) is not None
    assert again.hands[1].events == want.hands[1].events
    old = want.hands[2].__reduce_ex__(2)  # a hand pickled when events was a plain attribute
    state = {k: v for k, v in old[2].items() if k not in ("_events", "_compact")}
    state["events"] = want.hands[2].events
    hand = old[0](*old[1])
    hand.__setstate__(state)
    assert hand == want.hands[2] and compact_events(hand) is None


def test_the_kernels_use_the_models_event_codes():
    for name in ("OP_DRAW", "OP_RINSHAN", "OP_DISCARD", "OP_TSUMOGIRI", "OP_RIICHI", "OP_EVENT"):
        assert getattr(mjai_kernels, name) == getattr(model, name)
    assert model.OP_RIICHI_ACCEPTED == mjai_kernels.OP_RIICHI_ACCEPTED


def test_a_file_reads_as_its_text(tmp_path, arena_texts):
    """``read_file`` hands the mjai reader the file's bytes as well: with a byte-order mark,
    CRLF line ends and names beyond ASCII, the Game (or the error) is the text's."""
    lines = arena_texts[0].splitlines()
    start = json.loads(lines[0])
    path = tmp_path / "x.mjson"
    for name in ("南家", "Zoë", "a\u2028b"):  # U+2028 breaks a line, inside a string too
        lines[0] = json.dumps({**start, "names": [name, "b", "c", "d"]}, ensure_ascii=False)
        for ending in ("\n", "\r\n"):
            text = ending.join(lines) + ending
            path.write_bytes(b"\xef\xbb\xbf" + text.encode())
            got = outcome(read_file, path)
            if "\u2028" in name:
                assert got[0] == "RecordError"
            else:  # read on the fast path (comparing builds the events: checked first)
                assert all(compact_events(h) is not None for h in got[1].hands)
                assert got[1].names[0] == name
            assert got == outcome(lambda t: read_text(t, source=str(path)), text)
