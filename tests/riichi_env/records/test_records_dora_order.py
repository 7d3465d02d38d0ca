"""Where mjai output puts a kan's new dora indicator, and that the reader takes either place.

Common order (Tenhou's mjlog, Mortal's arena): a closed kan reveals at once (``ankan``, ``dora``,
``tsumo``); an open or added kan reveals with the replacement draw's discard, written after the
draw and before the discard (``daiminkan``/``kakan``, ``tsumo``, ``dora``, ``dahai``).
"""

from __future__ import annotations

import json

import pytest
from test_records_helpers import LOGS, load, normalized
from test_records_roundtrip import _play

from engine.rules import MAHJONGSOUL, TENHOU
from riichi_env.records.convert import read_text, write_text
from riichi_env.records.export import export_mjai
from riichi_env.records.replay import replay_game

SEEDS = range(3000, 3040)


def _kan_contexts(events: list[dict]):
    """(kan type, the events after it up to the next draw by someone else or the hand's end)."""
    for i, e in enumerate(events):
        if e["type"] in ("daiminkan", "kakan", "ankan"):
            yield e["type"], events[i + 1 : i + 6]


@pytest.mark.parametrize("rules", [MAHJONGSOUL, TENHOU], ids=lambda r: r.name)
def test_exported_kan_dora_in_the_common_order(rules):
    n_open = n_closed = 0
    for _, rows in _play(rules, SEEDS):
        events = [json.loads(x) for x in export_mjai(rows, rules).splitlines()]
        for kind, after in _kan_contexts(events):
            types = [e["type"] for e in after]
            if kind == "ankan":
                assert types[:2] == ["dora", "tsumo"], types
                n_closed += 1
            elif types[:2] == ["tsumo", "dahai"] or types[:3] == ["tsumo", "reach", "dahai"]:
                pytest.fail(f"open kan's indicator after the discard or missing: {types}")
            elif types[0] == "tsumo" and "dora" in types[1:2]:
                n_open += 1
        for a, b in zip(events, events[1:], strict=False):
            if a["type"] == "dahai" and b["type"] == "dora":
                pytest.fail("a dora right after a dahai")
    assert n_open > 10 and n_closed > 3


def _move_open_kan_dora_after_discard(text: str) -> str:
    """The other order some converters write: ``kan, tsumo, dahai, dora``."""
    events = [json.loads(x) for x in text.splitlines()]
    out: list[dict] = []
    held = None
    for e in events:
        if held is not None and e["type"] == "dahai":
            out += [e, held]
            held = None
            continue
        if (
            e["type"] == "dora"
            and len(out) >= 2
            and out[-1]["type"] == "tsumo"
            and out[-2]["type"] in ("daiminkan", "kakan")
        ):
            held = e
            continue
        if held is not None:
            out.append(held)
            held = None
        out.append(e)
    return "".join(json.dumps(e) + "\n" for e in out)


@pytest.mark.parametrize("rules", [MAHJONGSOUL, TENHOU], ids=lambda r: r.name)
def test_reader_takes_both_orders(rules):
    moved = 0
    for seed, rows in _play(rules, SEEDS):
        common = export_mjai(rows, rules)
        other = _move_open_kan_dora_after_discard(common)
        moved += common != other
        a = read_text(common, fmt="mjai", source=f"seed {seed}")
        b = read_text(other, fmt="mjai", source=f"seed {seed} (dora after dahai)")
        assert normalized(a) == normalized(b)
        for x, y in zip(a.hands, b.hands, strict=True):
            assert x.dora_indicators == y.dora_indicators
        for game in (a, b):
            result = replay_game(game, rules)
            assert result.ok, "\n".join(str(m) for m in result.mismatches)
        # writing either back gives the common order
        assert write_text(b, "mjai") == write_text(a, "mjai")
    assert moved > 5


def test_tenhou_mjlog_to_mjai_keeps_tenhous_place():
    """bug1.xml has ``N`` (open kan), ``T`` (replacement), ``DORA``, ``D``: mjai keeps that order."""
    text = write_text(load(LOGS / "tenhou-mjlog" / "bug1.xml"), "mjai")
    events = [json.loads(x) for x in text.splitlines()]
    found = 0
    for kind, after in _kan_contexts(events):
        if kind != "ankan":
            assert [e["type"] for e in after[:3]] == ["tsumo", "dora", "dahai"]
            found += 1
    assert found
