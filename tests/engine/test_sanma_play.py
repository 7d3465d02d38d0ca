"""Three-player riichi played by the engine (issue 26; docs/rules.md "Three-player riichi"), kita
aside (not implemented yet: these tests play the presets with ``kita=False``).

The wall of 108 tiles (2m-8m removed) in the 136-slot layout, the deal to three seats, turn
order E, S, W with seat 3 absent, no chi, riichi with 3 live tiles, 1m indicating 9m, North never
a seat wind, tsumo loss (two payers), honba 100 per payer, noten payments of 2,000, three hands a
wind, the 40,000 target and each preset's final scores.
"""

from __future__ import annotations

import pytest
from scenario_helpers import (
    A,
    act,
    assert_legal,
    assert_not_legal,
    by_rules,
    by_seat,
    describe,
    discard,
    hand_events,
    last_draw_kind,
    last_wins,
    live_left,
    pass_claims,
    play_out,
    random_game,
    sanma_haku_tsumo,
    sanma_nagashi,
    sanma_presets,
    sanma_ron,
    tsumogiri,
)

from engine.events import DRAW_EXHAUSTIVE, DRAW_KYUUSHU, DRAW_NAGASHI, EV_DRAW
from engine.game import Game
from engine.harness.invariants import validate
from engine.harness.scenario import build_wall, start_hand
from engine.rules import MAHJONGSOUL_3P, TENHOU_3P
from engine.state import LIVE_START, SANMA_REMOVED, SANMA_UNUSED_SLOTS
from engine.visibility import seat_view

MS3, T3 = sanma_presets("nokita", kita=False)
BOTH = by_rules(MS3, T3)
"""Both three-player presets (kita off)."""

WIN = "45p789p123s99s555z"  # waits 3p-6p, haku: ron 1 han 40 fu (1,300)
WIN2 = "123p456s789s1177z"  # waits 1z / 7z (shanpon), tenpai
DEALER = "39p19m147s123467z"  # discards 3p
THIRD = "1m258p369s123467z"
QA = "1m147p258s123467z"  # far from tenpai
QB = "9m369p147s123467z"


# -- the wall and the deal ---------------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize("seed", [0, 1, 2])
@BOTH
def test_wall_of_108_tiles_and_the_deal(seed, rules):
    """W-Sanma: 108 tiles (no 2m-8m), 13 to each of three seats, 55 live draws, dead wall 14."""
    g = Game(rules, seed=seed)
    st = g.state
    wall = st.wall[0]
    assert sorted(wall.tolist()) == list(range(136))
    assert [int(wall[i]) for i in SANMA_UNUSED_SLOTS] == list(SANMA_REMOVED)
    used = [int(wall[i]) for i in range(136) if i not in set(SANMA_UNUSED_SLOTS)]
    assert len(used) == 108 and not any(4 <= x < 32 for x in used)
    assert [int(st.closed[0, s].sum()) for s in range(4)] == [14, 13, 13, 0]
    assert not st.closed[0, :, 4:32].any(), "no 2m-8m in any hand"
    assert g.points == [35000, 35000, 35000, 0]
    assert int(st.wall_pos[0]) == LIVE_START + 1 and live_left(g) == 54
    assert (g.actor, g.phase) == (0, "turn")
    assert not validate(g.state)


@pytest.mark.nojit
def test_build_wall_refuses_2m_to_8m_and_a_fourth_hand():
    with pytest.raises(ValueError, match="5m is not in the three-player wall"):
        build_wall(["5m" + QA[2:], QB, THIRD], rules=MS3)
    with pytest.raises(ValueError, match="three mpsz strings"):
        build_wall([QA, QB, THIRD, WIN], rules=MS3)


@pytest.mark.nojit
@BOTH
def test_turn_order_skips_the_absent_seat(rules):
    """Seats play 0, 1, 2, 0 ...; with dealer seat 2 (East 3) seat 0 plays next."""
    g = start_hand(hands=[QA, QB, THIRD, ""], rules=rules)
    order = []
    for _ in range(7):
        order.append(g.actor)
        tsumogiri(g)
        pass_claims(g)
    assert order == [0, 1, 2, 0, 1, 2, 0], describe(g)
    g = start_hand(hands=[QA, QB, THIRD, ""], kyoku=2, rules=rules)
    assert g.actor == 2
    tsumogiri(g)
    pass_claims(g)
    assert g.actor == 0, describe(g, "after the East 3 dealer (seat 2) comes seat 0")


@pytest.mark.nojit
@BOTH
def test_exhaustive_draw_after_55_draws_one_tenpai(rules):
    """No kan: 55 live draws; one tenpai seat takes 1,000 from each noten seat (2,000 in all)."""
    g = start_hand(hands=[WIN, QA, QB, ""], dora="4z", rules=rules, seed=3)
    play_out(g)
    rows = [r for r in hand_events(g) if r[0] == EV_DRAW]
    assert len(rows) == 55, describe(g, f"{len(rows)} draws")
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE
    assert [int(x) for x in g.state.last_delta[0]] == [2000, -1000, -1000, 0], describe(g)
    assert g.points == [37000, 34000, 34000, 0]
    assert int(g.state.kyoku[0]) == 0 and int(g.state.honba[0]) == 1, "dealer tenpai: renchan"


@pytest.mark.nojit
@BOTH
def test_exhaustive_draw_two_tenpai(rules):
    """Two tenpai seats take 1,000 each from the noten seat."""
    g = start_hand(hands=[QA, WIN, WIN2, ""], dora="4z", rules=rules, seed=3)
    play_out(g)
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE
    assert [int(x) for x in g.state.last_delta[0]] == [-2000, 1000, 1000, 0], describe(g)
    assert int(g.state.kyoku[0]) == 1 and int(g.state.honba[0]) == 1, (
        "dealer noten: the deal passes"
    )


# -- calls and riichi ----------------------------------------------------------------------------


@pytest.mark.nojit
@BOTH
def test_no_chi(rules):
    """W-Sanma: no chi. Seat 1 holds 12p and 45p; the dealer's 3p is not offered to it."""
    g = start_hand(hands=[DEALER, "12p45p99s123s5557z", THIRD, ""], draws="9m", rules=rules)
    discard(g, 0, "3p")
    assert (g.phase, g.actor) == ("turn", 1), describe(g, "nobody is asked: seat 1 draws")


@pytest.mark.nojit
@BOTH
def test_riichi_needs_three_live_tiles(rules):
    """WP-ja: riichi needs 3 tiles left in the live wall with three players (4 with four)."""
    g = start_hand(hands=[WIN, WIN2, QA, ""], dora="4z", rules=rules, seed=5)
    while not (g.phase == "turn" and g.actor == 0 and live_left(g) == 3):
        pass_claims(g)
        tsumogiri(g)
    assert_legal(g, 0, A.RIICHI, "3 live tiles left")
    tsumogiri(g)
    pass_claims(g)
    assert g.actor == 1 and live_left(g) == 2
    assert_not_legal(g, 1, A.RIICHI, "2 live tiles left")


# -- scoring -------------------------------------------------------------------------------------


@pytest.mark.nojit
@BOTH
def test_ron_and_honba_200(rules):
    """A ron pays as with four; honba 200 each (100 per payer, W-MS19)."""
    g = sanma_ron(0, honba=2, rules=rules)
    assert [int(x) for x in g.state.last_delta[0]] == [-1700, 1700, 0, 0], describe(g)


@pytest.mark.nojit
@BOTH
def test_double_ron_honba_to_the_first_winner(rules):
    """W-MS24: both seats ron; honba to the first winner after the discarder (no triple ron)."""
    hands = [DEALER, WIN, "1299p456s789s666z", ""]
    g = start_hand(hands=hands, draws="9m", dora="4z", honba=1, rules=rules)
    discard(g, 0, "3p")
    act(g, 1, A.RON)
    act(g, 2, A.RON)
    assert [w["winner"] for w in last_wins(g)] == [1, 2]
    assert [int(x) for x in g.state.last_delta[0]] == [-2800, 1500, 1300, 0], describe(g)


@pytest.mark.nojit
@BOTH
def test_nondealer_tsumo_is_paid_by_two_seats(rules):
    """Tsumo loss: 2 han 30 fu (haku, menzen tsumo), base 480: dealer 1,000 + 500 (not 2,000)."""
    g = sanma_haku_tsumo(rules, dealer=False)
    assert [int(x) for x in g.state.last_delta[0]] == [-1000, 1500, -500, 0], describe(g)


@pytest.mark.nojit
@BOTH
def test_dealer_tsumo_is_paid_by_two_seats_with_honba(rules):
    """Dealer 2 han 30 fu tsumo: 1,000 from each of the two others, +100 each per honba."""
    g = sanma_haku_tsumo(rules, dealer=True)
    assert [int(x) for x in g.state.last_delta[0]] == [-1100, 2200, -1100, 0], describe(g)


@pytest.mark.nojit
@BOTH
def test_indicator_1m_makes_9m_dora(rules):
    """W-Sanma: 1m indicates 9m (no 2m-8m). A 99m pair is two dora: 3 han 40 fu, 5,200."""
    hand = "45p789p123s99m555z"
    g = start_hand(hands=[DEALER.replace("19m", "1m1s"), hand, THIRD, ""], draws="9p",
                   dora="1m", rules=rules)  # fmt: skip
    discard(g, 0, "3p")
    act(g, 1, A.RON)
    (win,) = last_wins(g)
    assert win["yaku"].get("dora") == 2 and win["han"] == 3, describe(g, str(win))
    assert [int(x) for x in g.state.last_delta[0]] == [-5200, 5200, 0, 0]


@pytest.mark.nojit
@BOTH
def test_seat_winds_east_south_west_north_never(rules):
    """North is nobody's seat wind: with the dealer at seat 1, seat 0 is West, so a West triplet
    is its seat-wind yakuhai (with four players seat 0 would be North)."""
    hands = by_seat(1, [DEALER, "1m258p369s124567z", "45p789p123s99s333z"])
    g = start_hand(hands=hands, draws="9m", dora="4z", kyoku=1, rules=rules)
    assert [seat_view(g.state, s).seat_wind for s in range(3)] == [29, 27, 28]
    discard(g, 1, "3p")
    act(g, 0, A.RON)
    (win,) = last_wins(g)
    assert win["winner"] == 0 and win["han"] == 1, describe(g, str(win))


@pytest.mark.nojit
@BOTH
def test_kyuushu_kyuuhai_exists(rules):
    """W-MS19, MP: kyuushu kyuuhai is an abortive draw with three players (dealer keeps it)."""
    g = start_hand(hands=["19m12569p159s123z", QB, THIRD, ""], draws="9m", rules=rules)
    act(g, 0, A.KYUUSHU)
    assert last_draw_kind(g) == DRAW_KYUUSHU
    assert (int(g.state.kyoku[0]), int(g.state.honba[0])) == (0, 1)


# -- the game: three hands a wind, the target, final scores ------------------------------------


@pytest.mark.nojit
@BOTH
def test_three_hands_a_wind(rules):
    """After East 3 (dealer seat 2) comes South 1 (kyoku 4, dealer seat 0)."""
    g = sanma_ron(2, rules=rules)
    assert (int(g.state.kyoku[0]), int(g.state.honba[0]), g.actor) == (4, 0, 0), describe(g)


@pytest.mark.nojit
@BOTH
def test_south_3_is_the_last_hand_and_40000_ends_it(rules):
    """MP, T-EN: South 3 ends the game when someone has 40,000; else West 1 (sudden death)."""
    g = sanma_ron(6, rules=rules, points=[40000, 33000, 32000, 0])
    assert g.done, describe(g, "41,300 after South 3: game over")
    g = sanma_ron(6, rules=rules, points=[38000, 35000, 32000, 0])
    assert not g.done and int(g.state.kyoku[0]) == 8, describe(g, "39,300 < 40,000: West 1")


@pytest.mark.nojit
@BOTH
def test_the_extension_has_three_hands(rules):
    g = sanma_ron(9, rules=rules)
    assert not g.done and int(g.state.kyoku[0]) == 10, describe(g, "West 2 -> West 3")
    g = sanma_ron(10, rules=rules)
    assert g.done, describe(g, "West 3 is the last hand")


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("rules", "scores"),
    [(MS3, [26.3, -5.0, -21.3, 0.0]), (T3, [41.3, -10.0, -31.3, 0.0])],
    ids=["mahjongsoul-3p", "tenhou-3p"],
)
def test_final_scores(rules, scores):
    """W-MS24: (points - 35,000) / 1000 + 15 / 0 / -15, no oka; T-EN: (points - 40,000) / 1000
    + 20 / 0 / -20, oka 15 to first. South 3: seat 0 rons the dealer (seat 2) to 46,300."""
    g = sanma_ron(6, rules=rules, points=[45000, 30000, 30000, 0])
    assert g.done and g.points == [46300, 30000, 28700, 0], describe(g)
    assert g.final_scores == pytest.approx(scores)
    assert [int(r) for r in g.state.final_ranks[0]] == [0, 1, 2, 3]
    assert abs(sum(g.final_scores)) < 1e-9


@pytest.mark.nojit
@BOTH
def test_random_games_keep_points_and_tiles(rules):
    """Random play to the end: every state valid, points plus sticks 105,000, seat 3 at 0."""
    for seed in range(2):
        g, _ = random_game(rules, seed)
        assert g.points[3] == 0 and sum(g.points) == 105_000
        assert abs(sum(g.final_scores)) < 1e-9


@pytest.mark.nojit
@BOTH
def test_agari_yame_in_south_3(rules):
    """MP, T-EN: the South 3 dealer (seat 2) who wins in first place with 40,000+ ends the game;
    not first: renchan."""
    g = sanma_ron(6, rules=rules, points=[30000, 30000, 45000, 0], dealer_wins=True)
    assert g.points == [28000, 30000, 47000, 0] and g.done, describe(g)
    g = sanma_ron(6, rules=rules, points=[40000, 32000, 33000, 0], dealer_wins=True)
    assert not g.done and (int(g.state.kyoku[0]), int(g.state.honba[0])) == (6, 1), describe(g)


@pytest.mark.nojit
@BOTH
def test_busting_ends_the_game(rules):
    """R-tenhou sanma2.xml (a bust in East 3): a seat below 0 ends the game."""
    g = sanma_ron(0, points=[1000, 52000, 52000, 0], rules=rules)
    assert g.points[0] == -300 and g.done, describe(g)
    assert [int(r) for r in g.state.final_ranks[0]] == [2, 0, 1, 3]


@pytest.mark.nojit
@BOTH
def test_nagashi_mangan_with_tsumo_loss(rules):
    """Decision (docs/rules.md): nagashi mangan is paid as a mangan tsumo with tsumo loss: the
    non-dealer gets 4,000 from the dealer and 2,000 from the other seat."""
    hands = ["2345678p234567s", "2345678s234567p", "234567p234567s8p", ""]
    g = sanma_nagashi(1, hands, "9s", rules)  # seat 1 draws every third tile from the second
    assert last_draw_kind(g) == DRAW_NAGASHI, describe(g)
    assert [int(x) for x in g.state.last_delta[0]] == [-4000, 6000, -2000, 0], describe(g)


@pytest.mark.parametrize("preset", ["mahjongsoul-3p", "tenhou-3p"])
@pytest.mark.parametrize("policy", ["greedy", "efficiency"])
def test_checked_self_play(preset, policy):
    """Self-play invariants for three seats (issue 26): every state valid and every masked action
    accepted (``check=2``), points plus sticks conserved, seat 3 at 0, final scores summing to 0."""
    from engine.harness.selfplay import POLICY_EFFICIENCY, POLICY_GREEDY, selfplay

    rules = {"mahjongsoul-3p": MAHJONGSOUL_3P, "tenhou-3p": TENHOU_3P}[preset]
    pol = POLICY_GREEDY if policy == "greedy" else POLICY_EFFICIENCY
    out = selfplay(40, seed=3_000, rules=rules, check=2, policy=pol)
    assert out["errors"] == [], out["errors"][:3]
    for r in out["results"]:
        assert r["points"][3] == 0 and sum(r["points"]) == 3 * rules.start_points, r
        assert abs(sum(r["final_scores"])) < 1e-6, r


@pytest.mark.nojit
@BOTH
def test_tenpai_yame_in_south_3(rules):
    """The South 3 dealer (seat 2) tenpai at the exhaustive draw, first with 40,000+: game over."""
    g = start_hand(hands=by_seat(2, [WIN, QA, QB]), dora="4z", kyoku=6,
                   points=[30000, 30000, 45000, 0], rules=rules, seed=3)  # fmt: skip
    play_out(g)
    assert last_draw_kind(g) == DRAW_EXHAUSTIVE and g.points == [29000, 29000, 47000, 0]
    assert g.done, describe(g, "tenpai-yame")
