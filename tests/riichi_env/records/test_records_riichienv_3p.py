"""Three-player games written by another engine, RiichiEnv 0.4.11 (``tests/data/logs/riichienv/*3p*``,
``game_mode="3p-red-half"`` and ``"3p-red-east"``), replay in ours with zero mismatches except the
hands where the two engines' rules differ on purpose, listed below with the rule (docs/rules.md,
"Three-player riichi": the cross-check)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.rules import MAHJONGSOUL_3P, TENHOU_3P
from riichi_env.records.convert import read_file
from riichi_env.records.replay import replay_game

FOLDER = Path(__file__).resolve().parents[2] / "data" / "logs" / "riichienv"
RULES = {
    "tenhou3p_seed": TENHOU_3P,
    "mjsoul3p_seed": MAHJONGSOUL_3P,
    "tenhou3pE_seed": TENHOU_3P.replace(game_length="tonpuusen"),
    "mjsoul3pE_seed": MAHJONGSOUL_3P.replace(game_length="tonpuusen"),
}
"""File name prefix → the preset its game is replayed with (``GameRule.default_tenhou()``,
``default_mjsoul()``; ``3pE``: RiichiEnv's East games, tonpuusen)."""

KNOWN_DIFFERENCES: dict[str, dict[str, tuple[str, str]]] = {
    "mjsoul3p_seed15.jsonl": {
        "S1-0": (
            "kan dora: seat 0 adds a kan and wins by tsumo on the replacement tile (rinshan "
            "kaihou); the Mahjong Soul presets reveal the added kan's indicator before a rinshan "
            "tsumo and count it (docs/rules.md, Kan dora; rinshan_kan_dora), RiichiEnv reveals "
            "none, as with four players (docs/records.md)",
            "dora indicators: record 1, engine 2",
        ),
    },
    "mjsoul3pE_seed10.jsonl": {
        "S2-3": (
            "extension ending: S2-2 ends in a draw with the dealer (seat 1) tenpai and seat 0 at "
            "40,700; RiichiEnv lets the dealer's renchan go on, the Mahjong Soul preset ends the "
            "extension as soon as someone has the 40,000 target (docs/rules.md, End of the game; "
            "extension_renchan is Tenhou's rule), as with four players (docs/records.md)",
            "the engine ended the game before this hand",
        ),
    },
}
"""File → {hand: (rule and reason, text the mismatch must contain)}."""


def _rows() -> list[dict]:
    """The three-player ``riichienv/`` rows of ``tests/data/logs/INDEX.md``."""
    rows = []
    text = (FOLDER.parent / "INDEX.md").read_text()
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].startswith("riichienv/"):
            rows.append(
                {
                    "file": cells[0].split("/")[1],
                    "hands": int(cells[1]),
                    "wins": int(cells[2]),
                    "draws": int(cells[3]),
                    "kita": int(cells[4]),
                }
            )
    return rows


ROWS = _rows()


def _rules(name: str):
    (rules,) = [r for prefix, r in RULES.items() if name.startswith(prefix)]
    return rules


def test_the_games_are_there():
    names = {r["file"] for r in ROWS}
    assert names == {p.name for p in FOLDER.glob("*3p*.jsonl")} and len(names) >= 6
    assert any(n.startswith("tenhou3p_") for n in names)
    assert any(n.startswith("mjsoul3p_") for n in names)
    assert set(KNOWN_DIFFERENCES) <= names


@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_riichienv_three_player_game_replays(row):
    game = read_file(FOLDER / row["file"])
    assert game.players == 3 and game.complete and game.final_scores is None
    assert len(game.hands) == row["hands"]
    assert sum(len(h.wins) for h in game.hands) == row["wins"]
    assert sum(h.draw is not None for h in game.hands) == row["draws"]
    assert sum(e.type == "kita" for h in game.hands for e in h.events) == row["kita"]
    result = replay_game(game, _rules(row["file"]))
    assert result.hands == row["hands"]
    known = KNOWN_DIFFERENCES.get(row["file"], {})
    unexpected = [m for m in result.mismatches if m.hand not in known]
    assert not unexpected, "\n".join(str(m) for m in unexpected)
    assert result.mismatched_hands == set(known), "a listed difference no longer shows"
    for hand, (_, text) in known.items():
        assert any(m.hand == hand and text in m.what for m in result.mismatches), hand


def test_the_differences_are_rinshan_kan_dora_and_extension_renchan():
    """mjsoul3p_seed15 matches once the Mahjong Soul preset's rinshan kan dora is off, and
    mjsoul3pE_seed10 with Tenhou's extension renchan."""
    game = read_file(FOLDER / "mjsoul3p_seed15.jsonl")
    assert replay_game(game, MAHJONGSOUL_3P.replace(rinshan_kan_dora=False)).ok
    game = read_file(FOLDER / "mjsoul3pE_seed10.jsonl")
    east = MAHJONGSOUL_3P.replace(game_length="tonpuusen")
    assert replay_game(game, east.replace(extension_renchan=True)).ok


def test_riichienv_kita_dialect():
    """RiichiEnv writes ``kita`` with three-seat lists; ron on a kita and rinshan after one read."""
    lines = [json.loads(x) for x in (FOLDER / "tenhou3p_seed109.jsonl").read_text().splitlines()]
    start = next(e for e in lines if e["type"] == "start_kyoku")
    assert len(start["scores"]) == len(start["tehais"]) == 3
    kita = next(e for e in lines if e["type"] == "kita")
    assert set(kita) == {"type", "actor", "pai"} and kita["pai"] == "N"
    game = read_file(FOLDER / "tenhou3p_seed109.jsonl")
    hand = next(h for h in game.hands if h.label == "E3-0")
    (win,) = hand.wins
    last = [e for e in hand.events if e.type != "dora"][-1]
    assert last.type == "kita" and not win.tsumo and win.from_seat == last.seat
    assert win.win_tile == last.tile


def test_docs_list_the_cross_check():
    text = (Path(__file__).resolve().parents[3] / "docs" / "rules.md").read_text()
    assert re.search(r"RiichiEnv.*three-player.*cross-check", text, re.S)
    assert "test_records_riichienv_3p.py" in text
