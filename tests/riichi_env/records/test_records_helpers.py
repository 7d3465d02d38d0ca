"""Shared helpers of the record tests (no tests here): the copied logs and their index."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from engine.tiles import red_ids
from riichi_env.records.convert import read_file
from riichi_env.records.mjlog import load_walls

LOGS = Path(__file__).resolve().parents[2] / "data" / "logs"
WALLS = load_walls(LOGS / "tenhou-mjlog" / "walls.jsonl")

NAMES = [f"set-00000-rotation-{r}.mjson" for r in range(4)]
"""The record files of an arena's first set (four rotations)."""

needs_symlinks = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")


def plant_victim(tmp_path: Path) -> Path:
    """A file a planted symbolic link may point at: ``victim.txt``, reading ``precious``."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    return victim


def index_table(n_cells: int) -> list[tuple[list[str], dict]]:
    """The cells of each row of ``INDEX.md``'s tables of ``n_cells`` cells that names a file copied
    into ``tests/data/logs`` (four-player tables: 7 cells, three-player ones: 8), with the row's
    file, path, hands, wins and draws."""
    rows = []
    for line in (LOGS / "INDEX.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != n_cells or not re.match(r"^[\w-]+/", cells[0]):
            continue
        path = LOGS / cells[0]
        if not path.exists():  # a row must not outlive its file (it once hid sanma2.xml)
            raise FileNotFoundError(f"INDEX.md lists {cells[0]}, which is not in {LOGS}")
        row = {
            "file": cells[0],
            "path": path,
            "hands": int(cells[1]),
            "wins": int(cells[2]),
            "draws": int(cells[3]),
        }
        rows.append((cells, row))
    return rows


def index_rows() -> list[dict]:
    """Rows of ``INDEX.md``'s table for the files copied into ``tests/data/logs``."""
    return [
        {
            **row,
            "rules": cells[5],
            "required": cells[6].startswith("yes"),
            "required_text": cells[6],
        }
        for cells, row in index_table(7)
    ]


def assert_index_counts(game, row: dict) -> None:
    """The game has the hands, wins and draws of its ``INDEX.md`` row."""
    assert len(game.hands) == row["hands"]
    assert sum(len(h.wins) for h in game.hands) == row["wins"]
    assert sum(h.draw is not None for h in game.hands) == row["draws"]


def assert_known_differences(result, known: dict) -> None:
    """A replay's mismatches are in the hands of ``known`` (hand → (reason, text the mismatch
    must contain)) alone, and each of those hands shows its text."""
    unexpected = [m for m in result.mismatches if m.hand not in known]
    assert not unexpected, "\n".join(str(m) for m in unexpected)
    assert result.mismatched_hands == set(known), "a listed difference no longer shows"
    for hand, (_, text) in known.items():
        assert any(m.hand == hand and text in m.what for m in result.mismatches), hand


def load(path: Path):
    """Read one copied log (mjlog files with their walls)."""
    walls = None
    if path.suffix == ".xml":
        walls = {k: v for (name, k), v in WALLS.items() if name == path.name}
    return read_file(path, walls=walls)


def hand_fields(h, t, *, dora_positions: bool = False) -> tuple:
    """A hand's label, sticks, scores, indicators, haipai and events, tiles mapped by ``t``; kan
    dora events left out unless ``dora_positions`` (their place in the stream is a format
    convention)."""
    return (
        h.label,
        h.kyotaku,
        h.scores,
        [t(x) for x in h.dora_indicators],
        [t(x) for x in h.ura_indicators],
        [sorted(t(x) for x in hp) for hp in h.haipai],
        [
            (
                e.type,
                e.seat,
                t(e.tile),
                sorted(t(x) for x in e.consumed),
                e.from_seat,
                e.tsumogiri,
                e.rinshan,
            )
            for e in h.events
            if dora_positions or e.type != "dora"
        ],
    )


def normalized(game) -> list:
    """A game's hands with tiles as (kind, red) and kan dora events left out (their place in the
    stream is a format convention), for comparing records across formats."""
    red = frozenset(red_ids(game.red_fives))
    out = []
    for h in game.hands:
        reds = red - h.plain_reds

        def t(x, reds=reds):
            return (x // 4, x in reds) if x >= 0 else None

        out.append(
            (
                *hand_fields(h, t),
                [(w.seat, w.from_seat, w.deltas, w.pao_seat) for w in h.wins],
                (h.draw.kind, h.draw.deltas) if h.draw else None,
            )
        )
    return out


RESULTS = (
    "流局",
    "全員聴牌",
    "全員不聴",
    "流し満貫",
    "九種九牌",
    "四家立直",
    "四風連打",
    "四槓散了",
    "三家和了",
)
"""How tenhou.net/6 spells the results (``kyoku[16][0]``) of a hand that ends without a win."""


def _tile_ok(x) -> bool:
    return isinstance(x, int) and (
        11 <= x <= 19 or 21 <= x <= 29 or 31 <= x <= 39 or 41 <= x <= 47 or x in (51, 52, 53)
    )


def check_convlog_structure(obj: dict) -> None:
    """Assert the tenhou.net/6 layout that mjai-reviewer's converter (convlog) reads: four names,
    17-entry hands, 13-tile haipai, call strings of its lengths and letter places, results."""
    assert isinstance(obj["name"], list) and len(obj["name"]) == 4
    assert isinstance(obj["rule"], dict) and isinstance(obj["rule"].get("disp", ""), str)
    for kyoku in obj["log"]:
        assert len(kyoku) == 17
        assert len(kyoku[0]) == 3 and all(isinstance(x, int) and x >= 0 for x in kyoku[0])
        assert len(kyoku[1]) == 4 and all(isinstance(x, int) for x in kyoku[1])
        assert 1 <= len(kyoku[2]) <= 5 and all(_tile_ok(x) for x in kyoku[2])
        assert len(kyoku[3]) <= 5 and all(_tile_ok(x) for x in kyoku[3])
        for s in range(4):
            haipai, takes, discards = kyoku[4 + 3 * s], kyoku[5 + 3 * s], kyoku[6 + 3 * s]
            assert len(haipai) == 13 and all(_tile_ok(x) for x in haipai)
            for x in takes:
                if isinstance(x, str):
                    letter = next(c for c in x if c.isalpha())
                    i = x.index(letter)
                    assert (letter, len(x)) in (("c", 7), ("p", 7), ("m", 9)), x
                    assert i in {"c": (0,), "p": (0, 2, 4), "m": (0, 2, 6)}[letter], x
                else:
                    assert _tile_ok(x), x
            for x in discards:
                if isinstance(x, str):
                    letter = next(c for c in x if c.isalpha())
                    i = x.index(letter)
                    if letter == "r":
                        assert len(x) == 3 and i == 0 and (x[1:] == "60" or _tile_ok(int(x[1:]))), x
                    else:
                        assert (letter, len(x)) in (("k", 9), ("a", 9)), x
                        assert i in {"k": (0, 2, 4), "a": (6,)}[letter], x
                else:
                    assert x in (0, 60) or _tile_ok(x), x
        result = kyoku[16]
        if result[0] == "和了":
            assert len(result) >= 3 and len(result) % 2 == 1
            for deltas, detail in zip(result[1::2], result[2::2], strict=True):
                assert len(deltas) == 4 and all(isinstance(x, int) for x in deltas)
                assert len(detail) >= 3 and all(
                    isinstance(x, int) and 0 <= x < 4 for x in detail[:3]
                )
                assert all(isinstance(x, str) for x in detail[3:])
        else:
            assert result[0] in RESULTS
            assert len(result) == 1 or (len(result) == 2 and len(result[1]) == 4)
