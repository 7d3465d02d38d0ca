"""Full games written by another engine, RiichiEnv 0.4.11 (``tests/data/logs/riichienv/``), replay
in ours with zero mismatches, except the hands where the two engines' rules differ on purpose; each
such hand is listed below with the rule and the reason; four-player games and three-player ones
(``*3p*``, ``game_mode="3p-red-half"`` and ``"3p-red-east"``: docs/rules.md, "Three-player riichi":
the cross-check). Also: the ryukyoku spellings other tools write are read, and the documented list
of them is the one the reader accepts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_records_helpers import LOGS, assert_index_counts, assert_known_differences, index_rows

from engine.rules import MAHJONGSOUL, MAHJONGSOUL_3P, TENHOU, TENHOU_3P, TENHOU_2009
from engine.shanten import waits
from engine.tiles import tile136_to_str
from riichi_env.records.convert import read_file, read_text
from riichi_env.records.mjai import REASON_SPELLINGS, REASONS
from riichi_env.records.model import DRAW_KINDS, RecordError
from riichi_env.records.replay import replay_game

RIICHIENV_RULES = {
    "tenhou_seed": TENHOU,
    "mjsoul_seed": MAHJONGSOUL,
    "tenhou3p_seed": TENHOU_3P,
    "mjsoul3p_seed": MAHJONGSOUL_3P,
    "tenhou3pE_seed": TENHOU_3P.replace(game_length="tonpuusen"),
    "mjsoul3pE_seed": MAHJONGSOUL_3P.replace(game_length="tonpuusen"),
}
"""File name prefix → the rules its game is replayed with: the plain presets
(``GameRule.default_tenhou()`` is the Tenhou preset, tenpai-yame included;
``GameRule.default_mjsoul()`` the Mahjong Soul preset: double yakuman, no sanchahou; ``3p``: the
three-player presets, ``3pE``: RiichiEnv's three-player East games, tonpuusen)."""

KNOWN_DIFFERENCES: dict[str, dict[str, tuple[str, str]]] = {
    "riichienv/mjsoul_seed202.jsonl": {
        "E2-1": (
            "kan dora: seat 3 calls daiminkan on 8p and wins by tsumo on the replacement tile "
            "(rinshan kaihou); under the Mahjong Soul preset the open kan's indicator is revealed "
            "before a rinshan tsumo and counts (docs/rules.md, Kan dora), RiichiEnv's default_mjsoul "
            "reveals none, so the record has one indicator and a smaller win",
            "dora indicators: record 1, engine 2",
        ),
        "E3-0": (
            "follows from E2-1: the engine's larger win changes the points this hand starts with",
            "hand start:",
        ),
    },
    "riichienv/mjsoul_seed3241.jsonl": {
        "W1-1": (
            "West-round ending: W1-0 ends in a draw with the dealer (seat 0) tenpai and seat 3 at "
            "30,700; RiichiEnv lets the dealer's renchan go on, the Mahjong Soul preset ends the "
            "extension as soon as someone has 30,000 (docs/rules.md, End of the game; "
            "extension_renchan is Tenhou's rule)",
            "the engine ended the game before this hand",
        ),
    },
    "riichienv/mjsoul3p_seed15.jsonl": {
        "S1-0": (
            "kan dora: seat 0 adds a kan and wins by tsumo on the replacement tile (rinshan "
            "kaihou); the Mahjong Soul presets reveal the added kan's indicator before a rinshan "
            "tsumo and count it (docs/rules.md, Kan dora; rinshan_kan_dora), RiichiEnv reveals "
            "none, as with four players (docs/records.md)",
            "dora indicators: record 1, engine 2",
        ),
    },
    "riichienv/mjsoul3pE_seed10.jsonl": {
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

ROWS = [{**r, "players": 4} for r in index_rows() if r["file"].startswith("riichienv/")]
DOCS = Path(__file__).resolve().parents[3] / "docs" / "records.md"


def _rows_3p() -> list[dict]:
    """The three-player ``riichienv/`` rows of ``tests/data/logs/INDEX.md``."""
    rows = []
    text = (LOGS / "INDEX.md").read_text()
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].startswith("riichienv/"):
            rows.append(
                {
                    "file": cells[0],
                    "path": LOGS / cells[0],
                    "hands": int(cells[1]),
                    "wins": int(cells[2]),
                    "draws": int(cells[3]),
                    "kita": int(cells[4]),
                    "players": 3,
                }
            )
    return rows


ROWS_3P = _rows_3p()


def _rules(row):
    (rules,) = [r for prefix, r in RIICHIENV_RULES.items() if row["path"].name.startswith(prefix)]
    return rules


def test_the_games_are_there():
    names = {r["file"] for r in ROWS}
    assert len(ROWS) >= 4
    assert any(n.startswith("riichienv/tenhou_") for n in names)
    assert any(n.startswith("riichienv/mjsoul_") for n in names)
    assert {k for k in KNOWN_DIFFERENCES if "3p" not in k} <= names


def test_the_three_player_games_are_there():
    names = {r["file"] for r in ROWS_3P}
    assert names == {f"riichienv/{p.name}" for p in (LOGS / "riichienv").glob("*3p*.jsonl")}
    assert len(names) >= 6
    assert any(n.startswith("riichienv/tenhou3p_") for n in names)
    assert any(n.startswith("riichienv/mjsoul3p_") for n in names)
    assert {k for k in KNOWN_DIFFERENCES if "3p" in k} <= names


@pytest.mark.parametrize("row", ROWS + ROWS_3P, ids=[r["file"] for r in ROWS + ROWS_3P])
def test_riichienv_game_replays(row):
    game = read_file(row["path"])
    assert game.players == row["players"]
    assert game.complete and game.final_scores is None  # end_game without scores
    assert_index_counts(game, row)
    assert sum(e.type == "kita" for h in game.hands for e in h.events) == row.get("kita", 0)
    result = replay_game(game, _rules(row))
    assert result.hands == row["hands"]
    assert_known_differences(result, KNOWN_DIFFERENCES.get(row["file"], {}))


def test_tenpai_yame_decides_how_riichienv_tenhou_games_end():
    """tenhou_seed7 ends at S4 with the dealer tenpai and first: the Tenhou preset ends it there
    (tenpai-yame, Tenhou since June 2010); ``tenhou-2009`` goes on, and the replay says so
    although the record has no final points."""
    game = read_file(LOGS / "riichienv" / "tenhou_seed7.jsonl")
    assert replay_game(game, TENHOU).ok
    result = replay_game(game, TENHOU_2009)
    assert [str(m) for m in result.mismatches] == [
        f"{game.source}: hand {game.hands[-1].label}: "
        "the record ends the game here but the engine goes on"
    ]


def _tiles_at_the_end(hand, seat):
    """(concealed tile136 ids, meld tile136 ids) of a seat when the hand ends."""
    concealed, melds = list(hand.haipai[seat]), []
    for e in hand.events:
        if e.seat != seat:
            continue
        if e.type == "draw":
            concealed.append(e.tile)
        elif e.type == "discard":
            concealed.remove(e.tile)
        elif e.type in ("chi", "pon", "daiminkan", "ankan"):
            for x in e.consumed:
                concealed.remove(x)
            melds += [*e.consumed] if e.type == "ankan" else [*e.consumed, e.tile]
        elif e.type == "kakan":
            concealed.remove(e.tile)
            melds.append(e.tile)
    return concealed, melds


def test_a_wait_beside_its_own_kakan_is_tenpai_as_riichienv_scores_it():
    """mjsoul_seed250 S3-0: seat 3's only wait, 5s, is a kind it holds all four of, one concealed
    pair of neighbours and the kakan. Only concealed copies make a wait dead (docs/rules.md,
    Draws), so the engine pays it as tenpai, as RiichiEnv does; the rule ``karaten_melds`` (off in
    both presets) counts the kakan and pays it as noten."""
    game = read_file(LOGS / "riichienv" / "mjsoul_seed250.jsonl")
    hand = next(h for h in game.hands if h.label == "S3-0")
    assert hand.draw.kind == "exhaustive" and hand.draw.deltas == (1000, -3000, 1000, 1000)
    concealed, melds = _tiles_at_the_end(hand, 3)
    assert sorted(tile136_to_str(x) for x in concealed) == ["4s", "6s", "8m", "8m"]
    hand34 = [0] * 34
    for x in concealed:
        hand34[x // 4] += 1
    assert waits(hand34) == [22]  # 5s
    assert sum(1 for x in concealed + melds if x // 4 == 22) == 4
    assert replay_game(game, MAHJONGSOUL).ok
    result = replay_game(game, MAHJONGSOUL.replace(karaten_melds=True))
    assert sorted(m.what for m in result.mismatches if m.hand == "S3-0") == [
        "draw payments: record [1000, -3000, 1000, 1000], engine [1500, -1500, 1500, -1500]",
        "tenpai seats: record [0, 2, 3], engine [0, 2]",
    ]


def test_extension_renchan_decides_how_riichienv_tenhou_seed288_ends():
    """tenhou_seed288 W1-0: exhaustive draw, the dealer tenpai, seat 3 at 30,300. RiichiEnv plays
    W1-1 (its Tenhou mode lets the dealer's renchan go on); so does the Tenhou preset
    (``extension_renchan``), while without it the engine ends the game after W1-0."""
    game = read_file(LOGS / "riichienv" / "tenhou_seed288.jsonl")
    labels = [h.label for h in game.hands]
    assert labels[-2:] == ["W1-0", "W1-1"] and max(game.hands[-1].scores) >= 30000
    assert TENHOU.extension_renchan
    assert replay_game(game, TENHOU).ok
    result = replay_game(game, TENHOU.replace(extension_renchan=False))
    assert [str(m) for m in result.mismatches] == [
        f"{game.source}: hand W1-1: the engine ended the game before this hand"
    ]


def test_the_west_round_difference_is_extension_renchan():
    """mjsoul_seed3241 matches with ``extension_renchan``, the one rule it differs by."""
    game = read_file(LOGS / "riichienv" / "mjsoul_seed3241.jsonl")
    assert replay_game(game, MAHJONGSOUL.replace(extension_renchan=True)).ok


def test_riichienv_draws_are_read():
    kinds = set()
    for row in ROWS:
        for hand in read_file(row["path"]).hands:
            if hand.draw is not None:
                kinds.add(hand.draw.kind)
    assert {"exhaustive", "kyuushu_kyuuhai", "suukaikan"} <= kinds


def _with_reason(reason) -> str:
    lines = (LOGS / "riichienv" / "tenhou_seed7.jsonl").read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"ryukyoku"' in line)
    ev = json.loads(lines[i])
    if reason is None:
        del ev["reason"]
    else:
        ev["reason"] = reason
    lines[i] = json.dumps(ev)
    return "\n".join(lines) + "\n"


SPELLINGS = [(s, kind) for kind, spellings in REASON_SPELLINGS.items() for s in spellings]


@pytest.mark.parametrize(("spelling", "kind"), SPELLINGS, ids=[s for s, _ in SPELLINGS])
def test_every_ryukyoku_spelling_is_read(spelling, kind):
    for text in (spelling, spelling.upper()):
        game = read_text(_with_reason(text), fmt="mjai")
        draws = [h.draw for h in game.hands if h.draw is not None]
        assert draws[0].kind == kind


def test_spellings_cover_every_draw_kind_and_the_writer_reads_back():
    assert set(REASON_SPELLINGS) == set(DRAW_KINDS)
    for kind, written in REASONS.items():
        assert written in REASON_SPELLINGS[kind]
    for spelling in ("exhaustive_draw", "kyushu_kyuhai", "sufuurenta", "suucha_riichi"):
        assert spelling in {s for s, _ in SPELLINGS}
    assert "suukansansen" in REASON_SPELLINGS["suukaikan"]


def test_a_ryukyoku_without_reason_is_inferred():
    """Mortal, mjai-reviewer and mjai.app write no reason."""
    game = read_text(_with_reason(None), fmt="mjai")
    assert next(h.draw for h in game.hands if h.draw is not None).kind == "exhaustive"


def test_unknown_and_penalty_reasons_are_errors():
    with pytest.raises(RecordError, match="unknown ryukyoku reason 'teleport'; known: ") as info:
        read_text(_with_reason("teleport"), source="x.jsonl", fmt="mjai")
    assert "exhaustive_draw" in str(info.value) and str(info.value).startswith("x.jsonl")
    with pytest.raises(RecordError, match="penalty for a failed player"):
        read_text(_with_reason("error"), fmt="mjai")
    with pytest.raises(RecordError, match="reason must be a string"):
        read_text(_with_reason(3), fmt="mjai")


def test_docs_list_every_accepted_spelling():
    text = DOCS.read_text()
    section = text[text.index("## Ryukyoku reasons") :]
    section = section[: section.find("\n## ", 3)] if "\n## " in section[3:] else section
    listed = set(re.findall(r"`([a-z0-9_]+)`", section))
    missing = {s for s, _ in SPELLINGS} - listed
    assert not missing, f"docs/records.md does not list {sorted(missing)}"


# Three players


def test_the_differences_are_rinshan_kan_dora_and_extension_renchan():
    """mjsoul3p_seed15 matches once the Mahjong Soul preset's rinshan kan dora is off, and
    mjsoul3pE_seed10 with Tenhou's extension renchan."""
    game = read_file(LOGS / "riichienv" / "mjsoul3p_seed15.jsonl")
    assert replay_game(game, MAHJONGSOUL_3P.replace(rinshan_kan_dora=False)).ok
    game = read_file(LOGS / "riichienv" / "mjsoul3pE_seed10.jsonl")
    east = MAHJONGSOUL_3P.replace(game_length="tonpuusen")
    assert replay_game(game, east.replace(extension_renchan=True)).ok


def test_riichienv_kita_dialect():
    """RiichiEnv writes ``kita`` with three-seat lists; ron on a kita and rinshan after one read."""
    lines = [
        json.loads(x)
        for x in (LOGS / "riichienv" / "tenhou3p_seed109.jsonl").read_text().splitlines()
    ]
    start = next(e for e in lines if e["type"] == "start_kyoku")
    assert len(start["scores"]) == len(start["tehais"]) == 3
    kita = next(e for e in lines if e["type"] == "kita")
    assert set(kita) == {"type", "actor", "pai"} and kita["pai"] == "N"
    game = read_file(LOGS / "riichienv" / "tenhou3p_seed109.jsonl")
    hand = next(h for h in game.hands if h.label == "E3-0")
    (win,) = hand.wins
    last = [e for e in hand.events if e.type != "dora"][-1]
    assert last.type == "kita" and not win.tsumo and win.from_seat == last.seat
    assert win.win_tile == last.tile


def test_docs_list_the_cross_check():
    text = (Path(__file__).resolve().parents[3] / "docs" / "rules.md").read_text()
    assert re.search(r"RiichiEnv.*three-player.*cross-check", text, re.S)
    assert "test_records_riichienv.py" in text
