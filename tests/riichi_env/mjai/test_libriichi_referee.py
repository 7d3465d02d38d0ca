"""Mortal's libriichi as a second referee (issue 22): its view of every decision matches ours.

Self-play games of both presets with random, greedy and efficiency seats are fed, seat by seat,
to ``mjai.mlibriichi.state.PlayerState`` (the ``mjai`` package, test-only and AGPL: only the
tests import it) as a bot seat is sent them; ``libriichi_referee.py`` says what is compared. Every
difference must be a rule choice listed in ``docs/rules.md`` ("Differences with libriichi"), and
each rule choice is shown on a scenario, where the exception has to match exactly what libriichi
says.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("mjai.mlibriichi", reason="the referee extra (mjai) is not installed")

from libriichi_referee import (  # noqa: E402
    POLICY_NAMES,
    RULE_CHOICES,
    Kinds,
    Referee,
    explain,
    seat_policies,
)

from engine.actions import PON, PON_PLAIN, RIICHI, action_name  # noqa: E402
from engine.harness.scenario import start_hand  # noqa: E402
from engine.state import PHASE_CLAIM, PHASE_TURN  # noqa: E402
from engine.tiles import parse_tile34  # noqa: E402

GAMES = 200
"""Games per preset (seeds ``BASE[preset] ..``), in ``CHUNKS`` tests that xdist can spread."""
CHUNKS = 2
BASE = {"mahjongsoul": 0, "tenhou": 1_000_000}
SEEN_AT_LEAST = {
    "decision: riichi discard": 50,
    "decision: turn after chi or pon": 400,
    "riichi": 50,
    "tsumo": 10,
    "ron": 40,
    "chi low": 300,
    "chi mid": 300,
    "chi high": 300,
    "pon": 500,
    "daiminkan": 20,
    "ankan": 30,
    "kakan": 40,
    "kuikae": 80,
    "kyuushu kyuuhai": 2,
    "furiten": 8,
    "furiten from passing a winning tile without yaku": 2,
    "tenpai on a claim": 80,
    "a wait with all four copies seen": 5,
    "red five discard": 1000,
}
"""Situations each chunk of games must reach (about a quarter of what 100 games show), so the
comparison is never vacuous."""


def _report(differences) -> str:
    lines = [d.line() for d in differences[:25]]
    more = len(differences) - len(lines)
    return "\n".join(lines + ([f"... and {more} more"] if more > 0 else []))


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("preset", ["mahjongsoul", "tenhou"])
def test_libriichi_agrees_with_every_decision(preset, chunk):
    per = GAMES // CHUNKS
    first = BASE[preset] + chunk * per
    ref = Referee(preset).run(range(first, first + per))
    unexplained = ref.unexplained()
    if unexplained:
        pytest.fail(
            f"{len(unexplained)} differences with libriichi no rule choice explains "
            f"(of {ref.decisions} decisions in {ref.games} games):\n{_report(unexplained)}",
            pytrace=False,
        )
    short = {k: (ref.seen[k], n) for k, n in SEEN_AT_LEAST.items() if ref.seen[k] < n}
    assert not short, f"situations the games reached too rarely (seen, wanted): {short}"


def test_seat_policies_mix_random_greedy_and_efficiency():
    names = {tuple(int(p) for p in seat_policies(seed)) for seed in range(12)}
    assert len({p for ps in names for p in ps}) == 3
    assert any(len(set(ps)) == 1 for ps in names)  # an all-random table


# -- scenarios: each rule choice, and the referee itself ---------------------------------------

# S2 and S3 (and S1 in the first) hold filler: scattered tiles nothing is called from
RIICHI_ANKAN_HANDS = [
    "6677888999m111z",
    "15m48p37s2345677z",
    "135m48p37s234567z",
    "135m48p37s234567z",
]
KOKUSHI_HANDS = ["1111m234p567p888s", "99m19p19s1234567z", "59m48p37s1234567z", "35m48p37s1234567z"]


def _scenario(preset, hands, draws, moves, label, **kwargs):
    ref = Referee(preset)
    game = start_hand(hands=hands, draws=draws, rules=preset, seed=5, **kwargs)
    return ref, ref.scenario(game, moves, label)


@pytest.mark.parametrize("preset", ["mahjongsoul", "tenhou"])
def test_rule_choice_riichi_ankan_needs_the_tile_a_triplet_in_every_reading(preset):
    # S0 riichi on 6677888999m111z (waits 5m 6m 7m 8m, the same without 999m) draws the fourth
    # 9m: with 7m the hand also reads 66m 789m 789m 789m 111z, 9m in runs, so the engine refuses
    # the ankan (docs/rules.md, Riichi and ankan); libriichi only asks that the waits stay.
    moves = ["riichi", "2z", "*", "-", "*", "-", "*", "-", "*"]
    _, diffs = _scenario(preset, RIICHI_ANKAN_HANDS, "2z ? ? ? 9m", moves, "riichi ankan 9m")
    assert [(d.seat, d.what, d.ours, d.theirs) for d in diffs] == [
        (0, "ankan", Kinds(), Kinds(parse_tile34("9m")))
    ]
    assert diffs[0].rule == "riichi ankan: every reading a triplet", diffs[0].line()


@pytest.mark.parametrize("tile", ["1z", "8m"])
def test_riichi_ankan_both_referees_agree_elsewhere(tile):
    # the fourth 1z (an honor triplet) may be kanned by both; 8m is a wait (tsumo), so neither
    # allows its ankan
    draws = f"2z ? ? ? {tile}"
    moves = ["riichi", "2z", "*", "-", "*", "-", "*", "-", "*"]
    ref, diffs = _scenario("mahjongsoul", RIICHI_ANKAN_HANDS, draws, moves, f"riichi ankan {tile}")
    assert not diffs, "\n".join(d.line() for d in diffs)
    if tile == "1z":
        assert ref.seen["ankan in riichi"] == 1
    else:
        assert ref.seen["ankan in riichi"] == 0


@pytest.mark.parametrize("preset", ["mahjongsoul", "tenhou"])
def test_rule_choice_kokushi_robs_a_closed_kan(preset):
    # S0 kans 1111m; S1 (99m19p19s1234567z) waits on 1m with kokushi: the engine asks S1 for
    # ron (docs/rules.md, Calls: chankan); libriichi has no decision on an ankan. S1 passes,
    # S0 discards its replacement 9m and S1, asked for pon, is furiten for the engine only.
    moves = ["kan 1m", "pass", "9m"]
    _, diffs = _scenario(preset, KOKUSHI_HANDS, "5z", moves, "kokushi chankan", rinshan="9m")
    assert [(d.seat, d.what, d.ours, d.theirs) for d in diffs] == [
        (1, "ron", True, False),
        (1, "pass", True, False),
        (1, "furiten", True, False),
        (1, "furiten shown", True, False),
    ], "\n".join(d.line() for d in diffs)
    assert {d.rule for d in diffs} == {"kokushi robs a closed kan"}


CHANKAN_HANDS = [
    "19m059p19s234567z",  # S0 pons S1's 5p and kans it with the fourth
    "238m258p28s12345z",
    "123m456s789s46p11z",  # S2 waits on 5p, its only yaku would be chankan
    "478m1369p3467s67z",
]
CHANKAN_MOVES = ["-", "*", "5p", "pass", "pon", "9m", "*", "-", "*", "-", "*", "-", "*", "kan 5p"]


@pytest.mark.parametrize("then", [[], ["ron"], ["pass", "-", "*", "-", "*"]])
def test_chankan_agrees(then):
    ref, diffs = _scenario(
        "mahjongsoul", CHANKAN_HANDS, "8s 1s ? ? ? 5p", CHANKAN_MOVES + then, "chankan"
    )
    assert not diffs, "\n".join(d.line() for d in diffs)
    assert ref.seen["claim on an added kan (chankan)"] == 1
    assert ref.seen["ron"] == 1


@pytest.mark.parametrize("points", [900, 1000])
def test_riichi_needs_1000_points_in_both(points):
    hands = ["123m456p789s1122z", "159m48p37s123456z", "159m48p37s123456z", "1359m48p37s34567z"]
    ref, diffs = _scenario(
        "mahjongsoul",
        hands,
        "9p",
        [],
        "riichi points",
        points=[points, 33000, 33000, 34000 - points],
    )
    assert not diffs, "\n".join(d.line() for d in diffs)
    (turn,) = ref.scenario_decisions
    assert bool(turn.mask[RIICHI]) == (points >= 1000)


def test_riichi_needs_4_live_tiles_in_both():
    # S0, S1 and S2 are tenpai and discard every draw to the end of the wall: riichi is offered
    # with 5 (S0) and 4 (S1) tiles left, not with 3 (S2), 1 (S0) or 0 (S1, haitei)
    hands = ["123m456p789s1122z", "456m789p123s3344z", "789m123p456s5566z", "159m48p37s123456z"]
    ref, diffs = _scenario("mahjongsoul", hands, "", ["-", "*"] * 70, "end of the wall")
    assert not diffs, "\n".join(d.line() for d in diffs)
    turns = [(d.seat, int(d.mask[RIICHI])) for d in ref.scenario_decisions if d.phase == PHASE_TURN]
    assert turns[-7:-1] == [(0, 1), (1, 1), (2, 0), (3, 0), (0, 0), (1, 0)]


KARATEN = [
    # S0 holds all four 1m: the fifth 1m is no wait, so riichi only by discarding 1m
    (
        ["1111m234p567p789s", "59m48p37s1234567z", "59m48p37s1234567z", "35m48p37s1234567z"],
        "7z",
        "",
        ["riichi"],
        ["discard 1m"],
    ),
    # S0 waits on 8s (kanchan 79s) with all four 8s in its own ankan: only the concealed
    # copies make a wait dead (docs/rules.md, Draws), so riichi is allowed, discarding 5z
    (
        ["789m123p11p79s888s", "159m48p37s123456z", "159m48p37s123456z", "159m48p37s123456z"],
        "8s",
        "5z",
        ["kan 8s", "riichi"],
        ["discard 5z"],
    ),
]


@pytest.mark.parametrize("preset", ["mahjongsoul", "tenhou"])
@pytest.mark.parametrize("case", range(len(KARATEN)))
def test_karaten_riichi_agrees(preset, case):
    hands, draws, rinshan, moves, legal = KARATEN[case]
    ref = Referee(preset)
    game = start_hand(hands=hands, draws=draws, rinshan=rinshan, rules=preset, seed=5)
    diffs = ref.scenario(game, moves, "karaten riichi")
    assert not diffs, "\n".join(d.line() for d in diffs)
    assert [action_name(a) for a in game.legal_actions()] == legal
    assert ref.seen["decision: riichi discard"] == 1


def test_no_yaku_furiten_is_compared_after_the_pass():
    # S1 (closed, no yaku: 123m456p789s3344z waits on 3z-4z, neither a value wind for it) is
    # offered pon of S0's 3z, which it cannot ron: libriichi marks it furiten on the discard
    # itself, the engine once S1 passes it. The referee compares the state after the pass.
    hands = ["159m48p37s123567z", "123m456p789s3344z", "159m48p37s123456z", "159m48p37s124567z"]
    ref, diffs = _scenario("mahjongsoul", hands, "1s", ["3z", "*"], "no-yaku furiten")
    assert not diffs, "\n".join(d.line() for d in diffs)
    assert ref.seen["furiten from passing a winning tile without yaku"] == 1
    assert ref.seen["pon"] == 1


def _pon_offer(decisions):
    return next(i for i, d in enumerate(decisions) if d.phase == PHASE_CLAIM and d.mask[PON])


def _mutated(change):
    """The differences the referee finds in game 7 after ``change(decisions)``."""
    ref = Referee("mahjongsoul")
    rows, decisions = ref.table.play(7, seat_policies(7))
    change(decisions)
    ref.compare_log(rows, decisions, (7, "mutated"))
    return [(d.what, d.ours, d.theirs, d.rule) for d in map(explain, ref.differences)]


def test_the_referee_reports_a_wrong_mask():
    """A wrong flag, a decision not asked and a wrong view are differences no rule choice
    explains: the referee is not vacuous."""

    def no_pon(decisions):
        k = _pon_offer(decisions)
        mask = decisions[k].mask.copy()
        mask[PON] = mask[PON_PLAIN] = 0
        decisions[k] = decisions[k]._replace(mask=mask)

    def not_asked(decisions):
        del decisions[_pon_offer(decisions)]

    def furiten(decisions):
        k = _pon_offer(decisions)
        decisions[k] = decisions[k]._replace(furiten=True)

    assert _mutated(no_pon) == [("pon", False, True, "")]
    assert [x[:2] for x in _mutated(not_asked)] == [("decision", "none")]
    assert _mutated(furiten) == [("furiten", True, False, "")]


def test_every_rule_choice_is_documented():
    text = (Path(__file__).parents[3] / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text.split("## Differences with libriichi", 1)
    assert len(section) == 2, 'docs/rules.md has no "Differences with libriichi" section'
    for key in RULE_CHOICES:
        assert f"`{key}`" in section[1], f"rule choice {key!r} is not in docs/rules.md"


def test_a_referee_game_is_the_selfplay_game():
    """Seed and policies name the game: ``riichi_env.selfplay`` replays any game of the report."""
    from riichi_env import selfplay

    seed = 5
    rows, _ = Referee("tenhou").table.play(seed, seat_policies(seed))
    policies = [POLICY_NAMES[int(p)] for p in seat_policies(seed)]
    out = selfplay(policies, games=1, seed=seed, rules="tenhou", records="events")
    assert (out["records"][0] == rows).all()


def _indicator_before_its_discard(events):
    """The events with each ``dora`` that follows a ``dahai`` moved just before it (the order of
    Mortal's arena for an open kan's indicator)."""
    out = []
    for e in events:
        if e["type"] == "dora" and out and out[-1]["type"] == "dahai":
            out.insert(len(out) - 1, e)
        else:
            out.append(e)
    return out


def test_an_open_kan_indicator_before_its_discard_agrees_too():
    # game 3 (all random) has open kans; sent in Mortal's order, the claims on the discard see
    # the new indicator at once, and nothing else changes
    from riichi_env.mjai.seat import game_events

    ref = Referee("mahjongsoul")
    rows, decisions = ref.table.play(3, seat_policies(3))
    events = game_events(rows, ref.rules)
    moved = _indicator_before_its_discard(events)
    assert moved != events
    ref.compare_log(rows, decisions, (3, "indicator first"), events=moved)
    assert not ref.differences, _report(ref.differences)
