"""Kita (nuki dora), three players (issue 26; docs/rules.md "Three-player riichi", the kita rows):
action ``KITA`` (85, action table v2), when it may be declared, the replacement draw (rinshan),
the live wall it shortens, ron on it (no chankan), furiten after passing it, ippatsu and the
first go-around, no dora indicator, and its nuki dora han.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    A,
    act,
    assert_legal,
    assert_not_legal,
    by_rules,
    describe,
    hand_events,
    last_draw_kind,
    last_wins,
    live_left,
    pass_claims,
    play_out,
    random_game,
    tsumogiri,
)

from engine.actions import KITA, N_ACTIONS, N_ACTIONS_3P, action_name
from engine.events import DRAW_EXHAUSTIVE, EV_DRAW, EV_KITA
from engine.game import Game
from engine.harness.invariants import validate
from engine.harness.scenario import start_hand
from engine.rules import MAHJONGSOUL, MAHJONGSOUL_3P, TENHOU_3P

K3 = MAHJONGSOUL_3P
BOTH = by_rules(K3, TENHOU_3P)
"""Both three-player presets (kita on)."""

TENPAI = "45p789p123s99s555z"  # waits 3p-6p, haku
QA = "19m147p258s12367z"  # quiet hands: no North, no 5z
QB = "19m369p147s12367z"
NORTH_TANKI = "123p456p789p555z4z"  # waits 4z (tanki): haku, ittsuu
NA = "19m147p258s1236z4z"  # QA with a North for 7z
THIRD = "19m258p369s12367z"


@pytest.mark.nojit
def test_action_table_v2():
    """KITA is id 85 of the three-player table (86 ids); four-player masks keep 85 ids."""
    assert (KITA, N_ACTIONS, N_ACTIONS_3P, action_name(KITA)) == (85, 85, 86, "kita")
    assert Game(MAHJONGSOUL, seed=0).legal_mask().shape == (85,)
    assert Game(K3, seed=0).legal_mask().shape == (86,)


@pytest.mark.nojit
@BOTH
def test_kita_sets_a_north_aside_and_draws_a_replacement(rules):
    """W-Sanma, W-MS19: a North set aside after a draw (the dealer's first turn too), then a
    replacement draw from the dead wall; one live tile less; no dora indicator; not a kan."""
    g = start_hand(hands=[NA, QB, THIRD, ""], draws="9m",
                   rinshan="9p", dora="1z", rules=rules)  # fmt: skip
    assert live_left(g) == 54
    assert_legal(g, 0, KITA, "a North in hand after the first draw")
    act(g, 0, KITA)
    st = g.state
    assert (g.phase, g.actor) == ("turn", 0), describe(g)
    assert int(st.n_kita[0, 0]) == 1 and int(st.kita_tiles[0, 0, 0]) // 4 == 30
    assert int(st.closed34[0, 0, 30]) == 0 and int(st.drawn[0]) // 4 == 9 + 8, "drew 9p"
    assert int(st.rinshan[0]) == 1 and live_left(g) == 53
    assert int(st.n_kans[0]) == 0 and int(st.n_dora[0]) == 1
    assert int(st.discarded34[0, 0, 30]) == 0 and int(st.n_river[0, 0]) == 0, "not a discard (MP)"
    rows = [r for r in g.events() if r[0] in (EV_KITA, EV_DRAW)]
    assert [int(r[0]) for r in rows[-2:]] == [EV_KITA, EV_DRAW] and int(rows[-1][3]) == 1
    assert not validate(st)


@pytest.mark.nojit
@BOTH
def test_kita_twice_in_a_row(rules):
    """R-tenhou sanma2.xml hand 2: a replacement North may be set aside again."""
    g = start_hand(hands=["19m147p258s123z44z", QB, THIRD, ""], draws="9m",
                   rinshan="4z 9p", rules=rules)  # fmt: skip
    act(g, 0, KITA)
    act(g, 0, KITA)
    act(g, 0, KITA)
    assert int(g.state.n_kita[0, 0]) == 3 and live_left(g) == 51, describe(g)
    assert_not_legal(g, 0, KITA, "no North left")
    assert not validate(g.state)


@pytest.mark.nojit
@BOTH
def test_no_kita_right_after_a_pon(rules):
    """T-EN: not after a pon (no draw)."""
    g = start_hand(hands=[QA, "19m369p147s1126z4z", "1m258p369s234567z", ""], draws="1z",
                   rules=rules)  # fmt: skip
    tsumogiri(g)
    act(g, 1, A.PON)
    assert g.actor == 1 and g.phase == "turn"
    assert_not_legal(g, 1, KITA, "right after a pon")


@pytest.mark.nojit
@BOTH
def test_kita_in_riichi_only_the_north_just_drawn(rules):
    """R-tenhou sanma2.xml hand 3, RE: in riichi only a drawn North may be set aside."""
    hand = "45p789p123s55z444z"  # waits 3p-6p; 444z kept in riichi
    g = start_hand(hands=[QA, hand, QB, ""], draws="7s 9p 7s 7s 4z", rules=rules)
    tsumogiri(g)
    pass_claims(g)
    assert_legal(g, 1, KITA, "not in riichi: a North of the triplet may be set aside")
    act(g, 1, A.RIICHI)
    tsumogiri(g, 1)
    pass_claims(g)
    while not (g.phase == "turn" and g.actor == 1):
        tsumogiri(g)
        pass_claims(g)
    assert int(g.state.drawn[0]) // 4 == 30, describe(g)
    assert_legal(g, 1, KITA, "the North just drawn")


@pytest.mark.nojit
@BOTH
def test_no_kita_with_an_empty_live_wall(rules):
    """Decision (docs/rules.md): like a kan, kita needs a live tile to move to the dead wall."""
    g = start_hand(hands=[NA, QB, THIRD, ""], rules=rules, seed=4)
    while not (g.phase == "turn" and g.actor == 0 and live_left(g) == 0):
        if g.phase == "turn" and g.actor == 0:
            assert_legal(g, 0, KITA)
        if g.phase == "claim":
            pass_claims(g)
        else:
            tsumogiri(g)
    assert int(g.state.closed34[0, 0, 30]) == 1
    assert_not_legal(g, 0, KITA, "empty live wall")


@pytest.mark.nojit
@BOTH
def test_ron_on_a_kita_without_chankan(rules):
    """W-MS19, MP, R-mjs nukidora_doubleron.json: any seat waiting on North may ron a kita (no
    chankan yaku); the declarer pays as for a ron."""
    g = start_hand(hands=[NA, NORTH_TANKI, THIRD, ""],
                   draws="9m", dora="1z", rules=rules)  # fmt: skip
    act(g, 0, KITA)
    assert (g.phase, g.actor) == ("claim", 1), describe(g)
    act(g, 1, A.RON)
    (win,) = last_wins(g)
    assert win["winner"] == 1 and win["from"] == 0 and win["tile"] == "4z", describe(g)
    assert "chankan" not in win["yaku"] and set(win["yaku"]) >= {"yakuhai_haku", "ittsu"}
    assert [int(x) for x in g.state.last_delta[0]][:2] == [-win["delta"][1], win["delta"][1]]


@pytest.mark.nojit
@BOTH
def test_passing_a_kita_makes_furiten(rules):
    """Decision (docs/rules.md, as for an added kan): a seat that could ron the kita and passes
    is furiten; the declarer then draws its replacement tile."""
    g = start_hand(hands=[NA, NORTH_TANKI, THIRD, ""],
                   draws="9m", rules=rules)  # fmt: skip
    act(g, 0, KITA)
    act(g, 1, A.PASS)
    assert (g.phase, g.actor) == ("turn", 0) and int(g.state.rinshan[0]) == 1
    assert int(g.state.furiten_temp[0, 1]) == 1, describe(g)
    assert not validate(g.state)


@pytest.mark.nojit
@BOTH
def test_kita_ends_ippatsu_and_the_first_go_around(rules):
    """W-MS19, T-EN: a kita breaks every seat's ippatsu (like a call) and ends tenhou."""
    hand = "45p789p123s99s555z"
    g = start_hand(hands=[QA, hand, "19m369p147s1236z4z", ""], draws="9m 9p 4z", rules=rules)
    tsumogiri(g)
    pass_claims(g)
    act(g, 1, A.RIICHI)
    tsumogiri(g, 1)
    pass_claims(g)
    assert int(g.state.ippatsu[0, 1]) == 1
    act(g, 2, KITA)
    assert int(g.state.ippatsu[0, 1]) == 0 and int(g.state.first_go[0]) == 0, describe(g)


@pytest.mark.nojit
@BOTH
def test_rinshan_kaihou_on_the_kita_replacement_and_nuki_dora(rules):
    """R-mjs kan3_nuki_rinshan.json: a tsumo on the replacement tile is rinshan kaihou; the
    kita is one han of nuki dora (counted with the dora); the dealer's tsumo after a kita is no
    tenhou. 4 han (haku, tsumo, rinshan, 1 dora) 30 fu: 3,900 from each of two for the dealer."""
    g = start_hand(hands=[TENPAI, QA, QB, ""], draws="4z", rinshan="3p", dora="1z", rules=rules)
    act(g, 0, KITA)
    act(g, 0, A.TSUMO)
    (win,) = last_wins(g)
    assert win["yaku"].get("rinshan_kaihou") == 1 and win["yaku"].get("dora") == 1, describe(
        g, str(win)
    )
    assert "tenhou" not in win["yaku"] and win["han"] == 4
    assert [int(x) for x in g.state.last_delta[0]] == [7800, -3900, -3900, 0]


@pytest.mark.nojit
@BOTH
def test_west_indicator_makes_each_kita_two_dora(rules):
    """mahjong-rule.jp: with a West indicator a North is dora, so each kita is worth 2 han."""
    g = start_hand(hands=[TENPAI, QA, QB, ""], draws="4z", rinshan="3p", dora="3z", rules=rules)
    act(g, 0, KITA)
    act(g, 0, A.TSUMO)
    (win,) = last_wins(g)
    assert win["yaku"].get("dora") == 2 and win["han"] == 5, describe(g, str(win))


@pytest.mark.nojit
@BOTH
def test_exhaustive_draw_after_a_kita(rules):
    """W-Sanma, R-tenhou sanma2.xml hand 3: 55 draws in all, the replacement draw included."""
    g = start_hand(hands=[NA, QB, THIRD, ""], dora="1z",
                   rules=rules, seed=6)  # fmt: skip
    act(g, 0, KITA)
    play_out(g)
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE
    rows = [r for r in hand_events(g) if r[0] == EV_DRAW]
    assert len(rows) == 55 and sum(int(r[3]) for r in rows) == 1, describe(g)


@pytest.mark.nojit
@BOTH
def test_random_games_with_kita(rules):
    """Random play with kita: every state valid, points plus sticks 105,000."""
    for seed in range(2):
        g, kita = random_game(rules, seed, prefer=KITA)
        assert kita > 0 and g.points[3] == 0 and sum(g.points) == 105_000


@pytest.mark.nojit
@BOTH
def test_fifth_replacement_draw_comes_from_the_live_wall_end(rules):
    """W-Sanma, T-EN: eight replacement tiles (four kita, four kans); the first four are the
    dead wall's rinshan tiles, the next ones the live wall's last tiles (engine/state.py)."""
    draws = ["9m"] + ["?"] * 53 + ["7p"]
    g = start_hand(hands=["1m1111p9999s4444z", QB, "19m258p258s12367z", ""], draws=draws,
                   rinshan="2p 3p 5p 6p",
                   rules=rules)  # fmt: skip
    for _ in range(4):
        act(g, 0, KITA)
    assert live_left(g) == 50 and int(g.state.drawn[0]) // 4 == 9 + 5, describe(g, "drew 6p")
    act(g, 0, A.KAN + 9)  # ankan 1p: the fifth replacement draw
    assert int(g.state.drawn[0]) // 4 == 9 + 6 and live_left(g) == 49, describe(g, "drew 7p")
    assert int(g.state.n_dora[0]) == 2 and not validate(g.state)


@pytest.mark.nojit
@BOTH
def test_kita_on_the_last_live_tile_makes_the_next_discard_the_last(rules):
    """Decision (docs/rules.md, as after a kan): a kita with one live tile left empties the live
    wall; its replacement tile's discard is the last (no pon on it), then the exhaustive draw."""
    hands = ["19m369p147s11236z", "19m258p369s23567z", NA, ""]
    g = start_hand(hands=hands, rinshan="1z", dora="9s", rules=rules, seed=8)
    while not (g.phase == "turn" and g.actor == 2 and live_left(g) == 1):
        pass_claims(g)
        tsumogiri(g)
    act(g, 2, KITA)
    assert live_left(g) == 0 and int(g.state.drawn[0]) // 4 == 27, describe(g, "drew 1z")
    assert_not_legal(g, 2, KITA, "empty live wall")
    tsumogiri(g, 2)
    assert g.phase != "claim" or not g.legal_mask()[A.PON], describe(g, "no pon on the last tile")
    pass_claims(g)
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE, describe(g)


@pytest.mark.nojit
@BOTH
def test_double_ron_on_a_kita(rules):
    """R-mjs nukidora_doubleron.json E1: two seats ron the same kita; both are paid, honba to
    the first after the declarer."""
    hands = ["19m258p258s1236z4z", NORTH_TANKI, "123456789s111p4z", ""]
    g = start_hand(hands=hands, draws="9m", dora="1z", honba=1, rules=rules)
    act(g, 0, KITA)
    act(g, 1, A.RON)
    act(g, 2, A.RON)
    wins = last_wins(g)
    assert [w["winner"] for w in wins] == [1, 2] and all(w["from"] == 0 for w in wins)
    assert not any("chankan" in w["yaku"] for w in wins), describe(g)
    # S1 haneman (haku, ittsu, honitsu) 12,000 + 200 honba; S2 ittsu 2 han 40 fu 2,600
    assert [int(x) for x in g.state.last_delta[0]] == [-14800, 12200, 2600, 0], describe(g)
