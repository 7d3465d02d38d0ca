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
import random
from pathlib import Path

import pytest

from riichi_env.batch.arena import arena
from riichi_env.records import mjai
from riichi_env.records.convert import detect_format, read_file
from riichi_env.records.mjai import _read_checked, _read_fast, dumps_mjai, read_mjai
from riichi_env.records.model import RecordError

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
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


def test_the_line_memo_stays_bounded(monkeypatch):
    monkeypatch.setattr(mjai, "_MAX_PLAYS", 3)
    monkeypatch.setattr(mjai, "_PLAYS", {})
    text = record_texts()[0]
    assert _read_fast(text, "", (1, 1, 1)) == _read_checked(text, "", (1, 1, 1))
    assert 0 < len(mjai._PLAYS) <= 3
