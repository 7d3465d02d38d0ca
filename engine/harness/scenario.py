"""Scenarios: start a hand from given hands, draws and dead wall (tests, replaying records).

``start_hand(hands=[...], draws="...", dora="...")`` builds a full 136-tile wall in the layout of
``engine/state.py`` and deals it: ``hands[s]`` is seat ``s``'s 13 tiles (absolute seats, seat 0
the starting dealer), ``draws`` are the live-wall tiles in draw order (the dealer's first draw
first; without calls seats draw in turn order from the dealer), ``rinshan`` the kan replacement
tiles in order, ``dora`` / ``ura`` the indicators in reveal order. Every tile not named fills the
remaining slots in an order shuffled from ``seed``. In ``draws`` a ``"?"`` (list form) or ``?``
between tiles leaves one slot to the filler, e.g. ``"1m ? ? ? 2m"``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine import actions
from engine.actions import CHI_HIGH, CHI_LOW, DISCARD_RED, KAN, KYUUSHU, action_name
from engine.deal import deal_hand
from engine.game import Game
from engine.rules import MAHJONGSOUL, Rules, as_rules
from engine.state import (
    DORA_START,
    LIVE_START,
    N_LIVE,
    N_LIVE_3P,
    RINSHAN_START,
    SANMA_REMOVED,
    SANMA_UNUSED_SLOTS,
    URA_START,
    WALL_SIZE,
)
from engine.tiles import _parse_groups, parse_tile, red_ids, tile34_to_str


def _tokens(spec: str | Sequence[str], what: str) -> list[tuple[int, bool] | None]:
    """(tile34, red) per tile in order; ``None`` for a ``?`` slot."""
    parts = spec if not isinstance(spec, str) else spec.replace("?", " ? ").split()
    out: list[tuple[int, bool] | None] = []
    for part in parts:
        if not isinstance(part, str):
            raise TypeError(f"{what} must be mpsz strings, got {type(part).__name__}")
        if part.strip() == "?":
            out.append(None)
        elif part.strip():
            try:
                out.extend(_parse_groups(part))
            except ValueError as exc:
                raise ValueError(f"{what}: {exc}") from None
    return out


def build_wall(
    hands: Sequence[str],
    draws: str | Sequence[str] = "",
    dora: str = "",
    ura: str = "",
    rinshan: str = "",
    dealer: int = 0,
    rules: Rules | str = MAHJONGSOUL,
    seed: int = 0,
) -> np.ndarray:
    """The ``int32[136]`` wall for these hands, draws and dead wall (module doc).

    With three players (``rules.players == 3``) ``hands`` has three strings (or four, the last
    empty), no tile may be 2m-8m, and the removed ids fill the unused slots (engine/state.py).
    """
    rules = as_rules(rules)
    n = rules.players
    if not isinstance(hands, str) and n == 3 and len(hands) == 4 and hands[3] == "":
        hands = hands[:3]
    if isinstance(hands, str) or len(hands) != n:
        count = "four" if n == 4 else "three"
        raise ValueError(f"hands must be {count} mpsz strings, one per seat (seat 0 first)")
    if not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat 0-{n - 1}, got {dealer}")
    reds = set(red_ids(rules.red_fives))
    used = np.zeros(WALL_SIZE, dtype=bool)
    wall = np.full(WALL_SIZE, -1, dtype=np.int32)
    if n == 3:
        used[list(SANMA_REMOVED)] = True
        wall[list(SANMA_UNUSED_SLOTS)] = SANMA_REMOVED

    def take(tile: tuple[int, bool], what: str) -> int:
        kind, red = tile
        if n == 3 and 1 <= kind <= 7:
            raise ValueError(f"{what}: {tile34_to_str(kind)} is not in the three-player wall")
        ids = [4 * kind + j for j in range(4) if not used[4 * kind + j]]
        pool = [i for i in ids if (i in reds) == red]
        if not pool:
            if red:
                have = sum(4 * kind + j in reds for j in range(4))
                raise ValueError(
                    f"{what}: no red {tile34_to_str(kind)} left (the rules have {have})"
                )
            raise ValueError(f"{what}: more than four {tile34_to_str(kind)} (a red five counts)")
        used[pool[0]] = True
        return pool[0]

    for s in range(n):
        tiles = _tokens(hands[s], f"hand of seat {s}")
        if len(tiles) != 13 or None in tiles:
            raise ValueError(f"hand of seat {s} must have 13 tiles, got {len(tiles)}: {hands[s]!r}")
        i = (s - dealer) % n
        for j, tile in enumerate(tiles):
            wall[13 * i + j] = take(tile, f"hand of seat {s}")
    for text, start, size, what in (
        (draws, LIVE_START, N_LIVE if n == 4 else N_LIVE_3P, "draws"),
        (rinshan, RINSHAN_START, 4, "rinshan"),
        (dora, DORA_START, 5, "dora"),
        (ura, URA_START, 5, "ura"),
    ):
        tiles = _tokens(text, what)
        if len(tiles) > size:
            raise ValueError(f"{what} has {len(tiles)} tiles, at most {size} fit")
        for j, tile in enumerate(tiles):
            if tile is not None:
                wall[start + j] = take(tile, what)
    rest = np.flatnonzero(~used)
    np.random.default_rng(seed).shuffle(rest)
    wall[wall < 0] = rest
    return wall


def start_hand(
    hands: Sequence[str] | None = None,
    draws: str | Sequence[str] = "",
    dora: str = "",
    ura: str = "",
    rinshan: str = "",
    dealer: int = 0,
    kyoku: int | None = None,
    honba: int = 0,
    kyotaku: int = 0,
    points: Sequence[int] | None = None,
    rules: Rules | str = MAHJONGSOUL,
    seed: int = 0,
    wall: Sequence[int] | np.ndarray | None = None,
) -> Game:
    """A ``Game`` at the dealer's first decision of a hand built from the arguments.

    ``kyoku`` (0 = East 1, 4 = South 1, ...) sets the round; its dealer is ``kyoku % 4``. Without
    it, ``kyoku = dealer`` (East round). ``points`` default to the start points; points plus
    1000 x ``kyotaku`` must equal players x start points (three players: ``hands`` has three
    strings, ``points`` four with the absent seat's 0). ``wall`` (136 tile136 ids in the layout) may
    replace ``hands``/``draws``/``dora``/``ura``/``rinshan``. Later hands are shuffled from ``seed``.
    """
    rules = as_rules(rules)
    if kyoku is None:
        kyoku = dealer
    if not isinstance(kyoku, int) or kyoku < 0:
        raise ValueError(f"kyoku must be a non-negative int, got {kyoku!r}")
    if wall is None:
        if hands is None:
            raise ValueError("give hands (four mpsz strings) or a 136-tile wall")
        wall = build_wall(hands, draws, dora, ura, rinshan, kyoku % 4, rules, seed)
    game = Game(rules, seed=None)
    deal_hand(
        game.state,
        wall,
        kyoku=kyoku,
        honba=honba,
        kyotaku=kyotaku,
        points=points,
        seed=seed,
    )
    return game


_WORDS = {
    words: getattr(actions, words.upper().replace(" ", "_"))
    for words in (
        "riichi",
        "open riichi",
        "tsumo",
        "ron",
        "pon",
        "pass",
        "kyuushu",
        "kita",
        "chi low",
        "chi mid",
        "chi high",
        "pon plain",
        "chi low plain",
        "chi mid plain",
        "chi high plain",
    )
}
"""The moves ``action_id`` reads as words: each names its ``engine.actions`` constant
(``"chi low plain"`` is ``CHI_LOW_PLAIN``)."""


def action_id(game: Game, text: str) -> int:
    """The action id of a move written as text, for the seat to act in ``game``.

    ``"5m"`` discards a plain 5m, ``"0p"`` a red 5p; ``"riichi"``, ``"open riichi"``,
    ``"tsumo"``, ``"ron"``, ``"pon"``, ``"pass"``, ``"kyuushu"``, ``"kita"``, ``"chi low"`` / ``"chi mid"`` /
    ``"chi high"`` (or ``"chi"`` when one shape is legal), ``"pon plain"`` / ``"chi low plain"`` …
    (the call with plain fives, keeping a held red five), ``"kan 5m"`` (or ``"kan"`` when one
    kan is legal).
    """
    words = " ".join(text.strip().lower().split())
    if words in _WORDS:
        return _WORDS[words]
    legal = game.legal_actions()
    if words in ("chi", "kan"):
        ids = [
            a
            for a in legal
            if (CHI_LOW <= a <= CHI_HIGH if words == "chi" else a >= KAN and a < KYUUSHU)
        ]
        if len(ids) != 1:
            raise ValueError(f"{words!r} is ambiguous or illegal here; legal: {legal_names(game)}")
        return ids[0]
    if words.startswith("kan "):
        return KAN + parse_tile(words[4:])
    tiles = _parse_groups(words)
    if len(tiles) != 1:
        raise ValueError(f"cannot read move {text!r}")
    kind, red = tiles[0]
    return DISCARD_RED + kind // 9 if red else kind


def legal_names(game: Game) -> list[str]:
    """Names of the legal actions of the seat to act."""
    return [action_name(a) for a in game.legal_actions()]


def play(game: Game, *moves: str) -> Game:
    """Apply moves (``action_id`` text) in order; an illegal one raises naming the seat and why."""
    for text in moves:
        a = action_id(game, text)
        if not game.legal_mask()[a]:
            raise ValueError(
                f"move {text!r}: {game.explain(a)}; legal for seat {game.actor}: {legal_names(game)}"
            )
        game.step(a)
    return game


def describe(game: Game, last_events: int = 8) -> str:
    """The table in mpsz for failure messages: phase, each seat's hand, melds, river, points."""
    from engine.events import render
    from engine.melds import MELD_NAMES
    from engine.tiles import tiles136_to_str

    st = game.state
    reds = game.rules.red_fives
    lines = [f"phase {game.phase}, actor S{game.actor}, turn S{game.turn}"]
    for s in range(4):
        melds = []
        for i in range(int(st.n_melds[0, s])):
            tiles = [int(x) for x in st.meld_tiles[0, s, i] if x >= 0]
            melds.append(f"{MELD_NAMES[int(st.meld_type[0, s, i])]} {tiles136_to_str(tiles, reds)}")
        river = " ".join(
            tiles136_to_str([int(x)], reds) for x in st.river[0, s, : int(st.n_river[0, s])]
        )
        lines.append(
            f"S{s} {int(st.points[0, s])}: {game.hand(s)}"
            + (f" [{', '.join(melds)}]" if melds else "")
            + f" | river {river or '-'}"
        )
    if not game.done:
        lines.append(f"legal for S{game.actor}: {legal_names(game)}")
    lines += render(game.events(), reds)[-last_events:]
    return "\n".join(lines)
