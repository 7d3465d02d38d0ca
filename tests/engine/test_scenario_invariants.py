"""Rule invariants checked at every decision of seeded self-play games (a net under the directed
scenarios): the legal mask never offers what the rules forbid, points are conserved and draws pay
per the variant rules' table.

Checked: no call but ron on the last discard (houtei) or by a seat in riichi; chi only from the
left; ron only on a wait and never in permanent furiten; after riichi only the drawn tile is
discarded; riichi only closed, tenpai after a discard, 1,000+ points, 4+ live tiles; no kan with
an empty live wall or after four kans; kyuushu only on an uninterrupted first draw with 9+ kinds;
kuikae after chi/pon; points plus sticks constant; exhaustive draw payments 3000 split.
"""

from __future__ import annotations

import numpy as np
import pytest
from scenario_helpers import A

from engine.events import EV_RYUUKYOKU
from engine.game import Game
from engine.melds import MELD_CHI, MELD_PON
from engine.rules import MAHJONGSOUL, TENHOU
from engine.shanten import shanten, waits
from engine.state import LIVE_END
from engine.tiles import hand34_to_str

YAOCHUU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
RED_IDS = (16, 52, 88)


def _discard_kind(a: int) -> int:
    return a if a < A.DISCARD_RED else 4 + 9 * (a - A.DISCARD_RED)


def _check(g, errors: list[str]) -> None:
    st = g.state
    s = g.actor
    legal = g.legal_actions()
    live = LIVE_END - int(st.n_kans[0]) - int(st.wall_pos[0])
    h34 = st.closed34[0, s].copy()
    hand = hand34_to_str(h34)
    total = int(st.points[0].sum()) + 1000 * int(st.kyotaku[0])
    if total != 4 * g.rules.start_points:
        errors.append(f"points {g.points} + {int(st.kyotaku[0])} sticks != {total}")
    if g.phase == "claim":
        tile = int(st.claim_tile[0])
        x = tile // 4
        d = int(st.claim_from[0])
        calls = set(legal) - {A.RON, A.PASS}
        if calls and int(st.claim_kind[0]) == 0 and live == 0:
            errors.append(f"S{s} offered a call on the last discard: {legal}")
        if calls and st.riichi[0, s]:
            errors.append(f"S{s} in riichi offered {legal}")
        if {A.CHI_LOW, A.CHI_MID, A.CHI_HIGH} & set(legal) and s != (d + 1) % 4:
            errors.append(f"S{s} offered chi on S{d}'s discard")
        if A.RON in legal:
            w = waits(h34)
            river = {int(t) // 4 for t in st.river[0, s, : int(st.n_river[0, s])]}
            if x not in w:
                errors.append(f"S{s} offered ron on a non-wait: {hand} + {x}")
            if river & set(w):
                errors.append(f"S{s} offered ron in permanent furiten: {hand}")
    elif g.phase == "turn":
        drawn = int(st.drawn[0])
        discards = [a for a in legal if a < A.RIICHI]
        if st.riichi[0, s] and drawn >= 0:
            want = A.DISCARD_RED + drawn // 36 if drawn in RED_IDS else drawn // 4
            if discards != [want]:
                errors.append(f"S{s} in riichi may discard {discards}, drew {drawn}")
        if A.RIICHI in legal:
            n = int(st.n_melds[0, s])
            opened = any(int(st.meld_type[0, s, i]) in (1, 2, 3, 4) for i in range(n))
            tenpai = any(h34[k] and waits(_minus(h34, k)) for k in range(34))
            if opened or st.points[0, s] < 1000 or live < 4 or not tenpai:
                errors.append(f"S{s} offered riichi: {hand}, open {opened}, live {live}")
        if any(A.KAN <= a < A.KAN + 34 for a in legal) and (live <= 0 or st.n_kans[0] >= 4):
            errors.append(f"S{s} offered a kan with live {live}, kans {int(st.n_kans[0])}")
        if A.KYUUSHU in legal:
            kinds = sum(1 for y in YAOCHUU if h34[y])
            if kinds < 9 or not st.first_go[0] or st.n_river[0, s]:
                errors.append(f"S{s} offered kyuushu with {kinds} kinds")
        n = int(st.n_melds[0, s])
        if drawn < 0 and n and int(st.meld_type[0, s, n - 1]) in (MELD_CHI, MELD_PON):
            called = int(st.meld_called[0, s, n - 1]) // 4
            if called in {_discard_kind(a) for a in discards}:
                errors.append(f"S{s} may discard the called kind {called} (kuikae)")


def _minus(h34, k):
    h = h34.copy()
    h[k] -= 1
    return h


def _choose(g, rng) -> int:
    """A loosely efficient random policy: wins, riichi, some calls and kans, low-shanten discards."""
    legal = g.legal_actions()
    if g.phase == "claim":
        if A.RON in legal and rng.random() < 0.9:
            return A.RON
        calls = [a for a in legal if a not in (A.RON, A.PASS)]
        return calls[int(rng.integers(len(calls)))] if calls and rng.random() < 0.3 else A.PASS
    if A.TSUMO in legal and rng.random() < 0.9:
        return A.TSUMO
    if A.RIICHI in legal and rng.random() < 0.7:
        return A.OPEN_RIICHI if A.OPEN_RIICHI in legal and rng.random() < 0.3 else A.RIICHI
    kans = [a for a in legal if A.KAN <= a < A.KAN + 34]
    if kans and rng.random() < 0.5:
        return kans[0]
    discards = [a for a in legal if a < A.RIICHI]
    if not discards:
        return legal[0]
    h34 = g.state.closed34[0, g.actor]
    scored = [(shanten(_minus(h34, _discard_kind(a))), a) for a in discards]
    best = min(sc for sc, _ in scored)
    cands = [a for sc, a in scored if sc == best]
    return cands[int(rng.integers(len(cands)))]


RULESETS = [MAHJONGSOUL, TENHOU, MAHJONGSOUL.replace(open_riichi=True, game_length="tonpuusen")]


@pytest.mark.parametrize("game", range(12))
def test_rule_invariants_in_self_play(game):
    rng = np.random.default_rng(game)
    g = Game(RULESETS[game % 3], seed=500 + game)
    errors: list[str] = []
    seen = 0
    for _ in range(20000):
        if g.done:
            break
        _check(g, errors)
        assert not errors, f"game {game}: {errors[0]}\n" + "\n".join(g.render()[-15:])
        g.step(_choose(g, rng))
        rows = g.events()
        for i in range(seen, len(rows)):
            r = rows[i]
            if r[0] == EV_RYUUKYOKU and r[2] == 0:
                mask = int(r[3])
                n = bin(mask).count("1")
                got = [int(x) for x in rows[i + 1][2:6]]
                want = [0] * 4
                if 0 < n < 4:
                    want = [3000 // n if mask >> t & 1 else -(3000 // (4 - n)) for t in range(4)]
                assert got == want, f"game {game}: tenpai mask {mask:04b} paid {got}, want {want}"
        seen = len(rows)
    assert g.done, f"game {game} did not end"
    assert sum(g.final_scores) == pytest.approx(0.0), g.final_scores
