"""The flat action space: every legal move of riichi mahjong as one id in ``0 .. N_ACTIONS - 1``.

This module is the one place the ids are defined (``docs/internals.md`` shows the same table).

| ids | action | meaning |
|---|---|---|
| 0–33 | ``DISCARD + tile34`` | discard a plain (non-red) copy of that kind; the drawn tile if it is one |
| 34–36 | ``DISCARD_RED + suit`` | discard a red five of 5m / 5p / 5s; the drawn tile if it is one |
| 37 | ``RIICHI`` | declare riichi; the same seat's next decision is the declaration discard |
| 38 | ``OPEN_RIICHI`` | declare open riichi (only with the ``open_riichi`` rule) |
| 39 | ``TSUMO`` | win on the drawn tile |
| 40 | ``RON`` | win on the offered tile (a discard, or a kan tile for chankan) |
| 41 | ``CHI_LOW`` | chi with the called tile lowest: called ``t`` + ``t+1, t+2`` from hand |
| 42 | ``CHI_MID`` | chi with the called tile in the middle: ``t-1, t+1`` from hand |
| 43 | ``CHI_HIGH`` | chi with the called tile highest: ``t-2, t-1`` from hand |
| 44 | ``PON`` | pon the offered discard |
| 45–78 | ``KAN + tile34`` | kan of that kind: daiminkan on a discard; ankan or kakan on one's turn |
| 79 | ``KYUUSHU`` | kyuushu kyuuhai (abortive draw) on the first uninterrupted draw |
| 80 | ``PASS`` | decline every claim on the offered tile |
| 81–83 | ``CHI_LOW_PLAIN``, ``CHI_MID_PLAIN``, ``CHI_HIGH_PLAIN`` | the same chi with a plain five |
| 84 | ``PON_PLAIN`` | the same pon with plain fives |
| 85 | ``KITA`` | three players only: set a North aside (nuki dora), then a replacement draw |

Action table "v1" is ids 0-84 (``N_ACTIONS``, the four-player table, unchanged); "v2" adds
``KITA`` (``N_ACTIONS_3P`` = 86) and is the table of three-player rules: their masks have 86
entries, four-player masks keep 85 and never hold ``KITA`` (``n_actions(players)``).

A plain-kind discard is legal only when a non-red copy is held; a red five has its own id, so no
two ids ever name the same move. ``CHI_*`` and ``PON`` use a held red five whenever they can;
the ``*_PLAIN`` ids make the same call with plain fives and keep the red one, and are legal only
when the call would use a red five and enough plain copies are held too. ``KAN + t`` is never ambiguous: a kind is either
held four times (ankan), held once next to an own pon of it (kakan), or held three times when
it is discarded (daiminkan).
"""

from __future__ import annotations

DISCARD = 0
"""First discard id: ``DISCARD + tile34`` discards a plain copy of that kind."""
DISCARD_RED = 34
"""``DISCARD_RED + suit`` (0 m, 1 p, 2 s) discards a red five."""
RIICHI = 37
OPEN_RIICHI = 38
TSUMO = 39
RON = 40
CHI_LOW = 41
CHI_MID = 42
CHI_HIGH = 43
PON = 44
KAN = 45
"""First kan id: ``KAN + tile34``."""
KYUUSHU = 79
PASS = 80
CHI_LOW_PLAIN = 81
CHI_MID_PLAIN = 82
CHI_HIGH_PLAIN = 83
PON_PLAIN = 84
PLAIN_OFFSET = CHI_LOW_PLAIN - CHI_LOW
"""``CHI_LOW + PLAIN_OFFSET`` is ``CHI_LOW_PLAIN``; likewise for mid, high and pon."""
N_ACTIONS = 85
"""Size of the four-player action space (table "v1") and of its legal-action masks."""
KITA = 85
"""Three players: set a North aside as nuki dora (kita) and draw a replacement tile."""
N_ACTIONS_3P = 86
"""Size of the three-player action space (table "v2": v1 and ``KITA``)."""


def n_actions(players: int) -> int:
    """Size of the action table of ``players`` seats: 85 (v1) for four, 86 (v2) for three."""
    return N_ACTIONS_3P if players == 3 else N_ACTIONS


N_DISCARD_ACTIONS = 37
"""Ids ``0 .. 36`` are discards."""


def action_name(action: int) -> str:
    """A readable name such as ``"discard 5m"``, ``"discard 0p"``, ``"kan 7z"``, ``"pass"``."""
    from engine.tiles import tile34_to_str

    a = int(action)
    if not 0 <= a < N_ACTIONS_3P:
        raise ValueError(f"action must be 0-{N_ACTIONS_3P - 1}, got {action}")
    if a < DISCARD_RED:
        return f"discard {tile34_to_str(a)}"
    if a < RIICHI:
        return f"discard 0{'mps'[a - DISCARD_RED]}"
    if KAN <= a < KAN + 34:
        return f"kan {tile34_to_str(a - KAN)}"
    return {
        RIICHI: "riichi",
        OPEN_RIICHI: "open riichi",
        TSUMO: "tsumo",
        RON: "ron",
        CHI_LOW: "chi (called tile lowest)",
        CHI_MID: "chi (called tile middle)",
        CHI_HIGH: "chi (called tile highest)",
        PON: "pon",
        CHI_LOW_PLAIN: "chi (called tile lowest, plain five)",
        CHI_MID_PLAIN: "chi (called tile middle, plain five)",
        CHI_HIGH_PLAIN: "chi (called tile highest, plain five)",
        PON_PLAIN: "pon (plain fives)",
        KITA: "kita",
        KYUUSHU: "kyuushu kyuuhai",
        PASS: "pass",
    }[a]
