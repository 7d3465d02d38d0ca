"""Shared helpers of the record tests (no tests here): the copied logs and their index."""

from __future__ import annotations

import re
from pathlib import Path

from engine.tiles import red_ids
from riichi_env.records.convert import read_file
from riichi_env.records.mjlog import load_walls

LOGS = Path(__file__).resolve().parents[1] / "data" / "logs"
WALLS = load_walls(LOGS / "tenhou-mjlog" / "walls.jsonl")


def index_rows() -> list[dict]:
    """Rows of ``INDEX.md``'s table for the files copied into ``tests/data/logs``."""
    rows = []
    for line in (LOGS / "INDEX.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 7 or not re.match(r"^[\w-]+/", cells[0]):
            continue
        path = LOGS / cells[0]
        if not path.exists():
            continue
        rows.append(
            {
                "file": cells[0],
                "path": path,
                "hands": int(cells[1]),
                "wins": int(cells[2]),
                "draws": int(cells[3]),
                "rules": cells[5],
                "required": cells[6].startswith("yes"),
            }
        )
    return rows


def load(path: Path):
    """Read one copied log (mjlog files with their walls)."""
    walls = None
    if path.suffix == ".xml":
        walls = {k: v for (name, k), v in WALLS.items() if name == path.name}
    return read_file(path, walls=walls)


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
                    if e.type != "dora"
                ],
                [(w.seat, w.from_seat, w.deltas, w.pao_seat) for w in h.wins],
                (h.draw.kind, h.draw.deltas) if h.draw else None,
            )
        )
    return out
