"""The hand-score calculator's I/O (riichi_env.cli.hand_score): validation, results, streaming."""

from __future__ import annotations

import copy
import json
import sys
import types
from pathlib import Path

import pytest

from riichi_env.cli.hand_score import (
    FIELDS,
    InputError,
    parse_input,
    score_input,
    score_line,
    score_lines,
)

CASES = Path(__file__).parents[2] / "data" / "hand_score_cli_cases.jsonl"
"""A selection of the project's hand-score sample lines (``input`` + ``expected``)."""

BASE = {
    "closed": "234m567s345p22p",
    "win_tile": "5p",
    "melds": [{"type": "pon", "tiles": "555z"}],
    "win_type": "tsumo",
    "seat_wind": "S",
    "round_wind": "E",
}
"""Spec 004's open worked example: 1 han 30 fu, 500 / 300."""
RIICHI = {
    "closed": "234567m234567p55s",
    "win_tile": "7m",
    "win_type": "ron",
    "seat_wind": "S",
    "round_wind": "E",
    "riichi": True,
    "kyotaku": 1,
}
"""Riichi pinfu tanyao, ron: 3 han 30 fu, 3,900."""


def _with(base: dict, **changes) -> dict:
    obj = copy.deepcopy(base)
    for k, v in changes.items():
        if v is _DROP:
            obj.pop(k, None)
        else:
            obj[k] = v
    return obj


_DROP = object()

INVALID = [
    # (base, changes, field named first in the message)
    (BASE, {"closed": _DROP}, "closed"),
    (BASE, {"win_tile": _DROP}, "win_tile"),
    (BASE, {"win_type": _DROP}, "win_type"),
    (BASE, {"seat_wind": _DROP}, "seat_wind"),
    (BASE, {"round_wind": _DROP}, "round_wind"),
    (BASE, {"closed": 123}, "closed"),
    (BASE, {"closed": "234m567s345x22p"}, "closed"),
    (BASE, {"closed": "234m567s345p22p8z"}, "closed"),
    (BASE, {"closed": "234m567s345p2p"}, "closed"),
    (BASE, {"closed": ""}, "closed"),
    (BASE, {"win_tile": "7p"}, "win_tile"),
    (BASE, {"win_tile": "0p"}, "win_tile"),
    (BASE, {"win_tile": "5p5p"}, "win_tile"),
    (BASE, {"win_tile": 5}, "win_tile"),
    (BASE, {"win_type": "draw"}, "win_type"),
    (BASE, {"seat_wind": "X"}, "seat_wind"),
    (BASE, {"seat_wind": 0}, "seat_wind"),
    (BASE, {"round_wind": "east"}, "round_wind"),
    (BASE, {"melds": "555z"}, "melds"),
    (BASE, {"melds": [["pon", "555z"]]}, "melds[0]"),
    (BASE, {"melds": [{"type": "pong", "tiles": "555z"}]}, "melds[0].type"),
    (BASE, {"melds": [{"type": "pon"}]}, "melds[0].tiles"),
    (BASE, {"melds": [{"type": "pon", "tiles": "556z"}]}, "melds[0].tiles"),
    (BASE, {"melds": [{"type": "chi", "tiles": "555z"}]}, "melds[0].tiles"),
    (BASE, {"melds": [{"type": "chi", "tiles": "891m"}]}, "melds[0].tiles"),
    (BASE, {"melds": [{"type": "chi", "tiles": "123z"}]}, "melds[0].tiles"),
    (BASE, {"melds": [{"type": "kakan", "tiles": "555z"}]}, "melds[0].tiles"),
    (BASE, {"melds": [{"type": "pon", "tiles": "5q"}]}, "melds[0].tiles"),
    (BASE, {"melds": [{"type": "pon", "tiles": "222p"}]}, "melds[0].tiles"),
    (BASE, {"riichi": "yes"}, "riichi"),
    (BASE, {"haitei": 1}, "haitei"),
    (BASE, {"dora_indicators": "1m"}, "dora_indicators"),
    (BASE, {"dora_indicators": ["1m", "2m2m"]}, "dora_indicators[1]"),
    (BASE, {"dora_indicators": ["1m"] * 6}, "dora_indicators"),
    (BASE, {"ura_dora_indicators": [7]}, "ura_dora_indicators[0]"),
    (BASE, {"dora_indicators": ["5z", "5z"]}, "dora_indicators"),
    (BASE, {"honba": -1}, "honba"),
    (BASE, {"honba": 1.5}, "honba"),
    (BASE, {"honba": 10**8}, "honba"),
    (BASE, {"kyotaku": 1001}, "kyotaku"),
    (BASE, {"kyotaku": True}, "kyotaku"),
    (BASE, {"ruleset": "ema"}, "ruleset"),
    (BASE, {"riichii": True}, "riichii"),
    (BASE, {"riichi": True, "kyotaku": 1}, "riichi"),
    (BASE, {"double_riichi": True, "kyotaku": 1}, "double_riichi"),
    (BASE, {"ippatsu": True}, "ippatsu"),
    (BASE, {"rinshan": True}, "rinshan"),
    (BASE, {"chankan": True}, "chankan"),
    (BASE, {"houtei": True}, "houtei"),
    (BASE, {"tenhou": True}, "tenhou"),
    (BASE, {"chiihou": True}, "chiihou"),
    (RIICHI, {"kyotaku": 0}, "kyotaku"),
    (RIICHI, {"open_riichi": True}, "open_riichi"),
    (RIICHI, {"haitei": True}, "haitei"),
    (RIICHI, {"closed": "234567m234567p00s"}, "closed"),
    (RIICHI, {"closed": "234567m234567p5555s", "win_tile": "5s"}, "closed"),
    (RIICHI, {"closed": "234567m234567p05s", "dora_indicators": ["0s"]}, "dora_indicators"),
    (RIICHI, {"dora_indicators": ["2m"] * 4}, "dora_indicators"),
    (RIICHI, {"win_type": "tsumo", "tenhou": True, "riichi": False}, "tenhou"),
    (RIICHI, {"win_type": "tsumo", "chiihou": True, "riichi": False, "seat_wind": "E"}, "chiihou"),
    (RIICHI, {"win_type": "tsumo", "ippatsu": True, "rinshan": True}, "ippatsu"),
]


@pytest.mark.parametrize(
    ("base", "changes", "field"), INVALID, ids=[f"{i}-{c[2]}" for i, c in enumerate(INVALID)]
)
def test_invalid_field_is_named(base, changes, field):
    """Every malformed field gives invalid_input whose message starts with that field."""
    obj = _with(base, **changes)
    with pytest.raises(InputError) as info:
        parse_input(obj)
    assert info.value.field == field, str(info.value)
    assert str(info.value).startswith(f"{field}: ")
    result = score_input(obj)
    assert result == {"valid": False, "error": "invalid_input", "message": str(info.value)}


def test_not_an_object():
    for obj in ([1, 2], "x", 3, None):
        result = score_input(obj)
        assert result["error"] == "invalid_input"
        assert result["message"].startswith("input: ")


def test_defaults_and_kwargs():
    """Optional fields default as the format says; implied riichi is passed on."""
    kwargs = parse_input(BASE)
    assert kwargs["melds"] == (("pon", "555z"),)
    assert kwargs["dora_indicators"] == () and kwargs["ura_dora_indicators"] == ()
    assert kwargs["honba"] == 0 and kwargs["kyotaku"] == 0
    assert kwargs["rules"].name == "mahjongsoul"
    assert not any(kwargs[f] for f in ("riichi", "ippatsu", "tenhou", "chiihou"))
    kwargs = parse_input(_with(RIICHI, riichi=False, double_riichi=True, ruleset="tenhou"))
    assert kwargs["riichi"] and kwargs["double_riichi"]
    assert kwargs["rules"].name == "tenhou"
    assert set(FIELDS) >= set(RIICHI) | set(BASE)


def test_meld_extra_keys_are_ignored():
    obj = _with(BASE, melds=[{"type": "pon", "tiles": "555z", "from": 2, "called": "5z"}])
    assert parse_input(obj)["melds"] == (("pon", "555z"),)


def test_sample_line_uses_its_input():
    line = json.loads(CASES.read_text().splitlines()[0])
    assert parse_input(line) == parse_input(line["input"])


def test_every_sample_line_validates():
    for text in CASES.read_text().splitlines():
        parse_input(json.loads(text))


# -- streaming, with a stand-in scorer so it is checked whatever the kernel's state ----------------


class _FakeResult:
    def __init__(self, closed):
        self.closed = closed

    def to_dict(self):
        return {"valid": True, "closed": self.closed}


@pytest.fixture
def fake_scorer(monkeypatch):
    calls = []

    def score_hand(closed, win_tile, **kwargs):
        calls.append((closed, win_tile, kwargs))
        if kwargs.get("honba") == 99:
            raise ValueError("honba: the scorer refused it")
        return _FakeResult(closed)

    module = types.ModuleType("engine.scoring.hand_score")
    module.score_hand = score_hand
    monkeypatch.setitem(sys.modules, "engine.scoring.hand_score", module)
    return calls


def test_stream_keeps_going_after_bad_lines(fake_scorer):
    lines = [
        json.dumps(BASE),
        "{not json",
        "",
        json.dumps(_with(BASE, win_type="draw")),
        "[1, 2]",
        json.dumps(_with(BASE, honba=99)),
        json.dumps({"id": "x", "input": RIICHI, "expected": {}}),
    ]
    results = list(score_lines(lines))
    assert len(results) == 7  # one per line, the blank one included: line N answers line N
    assert results[0] == {"valid": True, "closed": BASE["closed"]}
    assert results[1]["error"] == "invalid_input" and results[1]["message"].startswith("line: ")
    assert results[2]["error"] == "invalid_input"
    assert results[2]["message"].startswith("line: blank line")
    assert results[3]["message"].startswith("win_type: ")
    assert results[4]["message"].startswith("input: ")
    assert results[5] == {
        "valid": False,
        "error": "invalid_input",
        "message": "honba: the scorer refused it",
    }
    assert results[6] == {"valid": True, "closed": RIICHI["closed"]}
    assert len(fake_scorer) == 3


def test_hostile_json_lines_are_invalid_input(fake_scorer):
    """A line nested 200,000 deep (a RecursionError) or with a 5,000-digit number (a ValueError
    outside JSONDecodeError) is one bad line, not a traceback that ends the stream."""
    lines = ["[" * 200_000, '{"closed": ' + "1" * 5000 + "}", json.dumps(BASE)]
    results = list(score_lines(lines))
    assert results[0]["message"] == "line: JSON nested deeper than Python's recursion limit"
    assert results[1]["message"].startswith("line: not valid JSON (Exceeds the limit (4300 digits)")
    assert results[2] == {"valid": True, "closed": BASE["closed"]}


def test_score_line_passes_arguments(fake_scorer):
    score_line(json.dumps(_with(RIICHI, dora_indicators=["1m"], honba=2)))
    closed, win, kwargs = fake_scorer[0]
    assert (closed, win) == (RIICHI["closed"], "7m")
    assert kwargs["win_type"] == "ron" and kwargs["seat_wind"] == "S"
    assert kwargs["dora_indicators"] == ("1m",) and kwargs["honba"] == 2
    assert kwargs["kyotaku"] == 1 and kwargs["riichi"]


# -- with the real scorer -------------------------------------------------------------------------


def test_sample_lines_score_as_expected():
    """Each selected sample line (every limit, meld type, both presets) gives its expected result."""
    failures = []
    for text in CASES.read_text().splitlines():
        line = json.loads(text)
        got, want = score_line(text), dict(line["expected"])
        if want.get("yakuman_multiplier") and "fu" in got:
            got["fu"] = want["fu"]  # the format: fu is not compared for yakuman hands
        if got != want:
            failures.append(f"{line['id']}: got {got}\n   expected {line['expected']}")
    assert not failures, "\n".join(failures)


@pytest.mark.nojit
def test_worked_examples_through_io():
    """Spec 004's open worked example and a 3 han 30 fu ron, through the JSON path."""
    r = score_input(BASE)
    assert (r["han"], r["fu"]) == (1, 30)
    assert r["payments"] == {"tsumo_dealer": 500, "tsumo_nondealer": 300}
    assert r["winner_gain"] == 1100
    assert r["yaku"] == [{"key": "yakuhai_haku", "han": 1}]
    r = score_input(RIICHI)
    assert (r["han"], r["fu"], r["payments"], r["winner_gain"]) == (3, 30, {"ron": 3900}, 4900)
    assert {y["key"] for y in r["yaku"]} == {"riichi", "pinfu", "tanyao"}


def test_no_yaku_and_not_agari():
    no_yaku = _with(BASE, melds=[{"type": "pon", "tiles": "999s"}])
    assert score_input(no_yaku) == {"valid": False, "error": "no_yaku"}
    not_agari = _with(RIICHI, closed="234567m234567p56s", win_tile="6s")
    assert score_input(not_agari) == {"valid": False, "error": "not_agari"}
