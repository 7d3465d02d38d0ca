"""Intervals with the deal set as the unit (``riichi_env.batch.stats``) and the arena's use of them.

The coverage checks: over many independent runs, the 95 % interval of a figure holds the value a
long reference run gives about 95 % of the time, on simulated duplicate play (many runs, a tight
band) and on real duplicate games of the compiled agents (four and three players), where the
intervals that treat seat-games as independent hold it less often.
"""

import math

import numpy as np
import pytest

from riichi_env import selfplay
from riichi_env.batch.arena import arena, avg_rank_interval, challenge
from riichi_env.batch.stats import (
    beta_inc,
    deal_sets_for,
    ratio_difference,
    ratio_estimate,
    t_cdf,
    t_quantile,
    t_sf2,
)

# ---------------------------------------------------------------------- Student's t


@pytest.mark.parametrize(
    ("df", "q975"),
    [(1, 12.7062047), (2, 4.3026527), (4, 2.7764451), (9, 2.2621572), (29, 2.0452296)]
    + [(99, 1.9842169), (1e9, 1.9599640)],
)
def test_t_quantiles_match_the_tables(df, q975):
    assert t_quantile(0.975, df) == pytest.approx(q975, abs=1e-6)
    assert t_quantile(0.025, df) == pytest.approx(-q975, abs=1e-6)
    assert t_cdf(q975, df) == pytest.approx(0.975, abs=1e-8)
    assert t_sf2(q975, df) == pytest.approx(0.05, abs=1e-8)


def test_t_against_scipy_where_it_is_installed():
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 1.5, 3, 7, 20, 150, 5000):
        for p in (0.6, 0.8, 0.9, 0.975, 0.999, 0.01):
            assert t_quantile(p, df) == pytest.approx(stats.t.ppf(p, df), rel=1e-8)
        for t in (0.0, 0.3, 2.0, 6.0):
            assert t_sf2(t, df) == pytest.approx(2 * stats.t.sf(t, df), rel=1e-8)
    assert beta_inc(2.5, 0.5, 0.3) == pytest.approx(stats.beta.cdf(0.3, 2.5, 0.5), rel=1e-10)


def test_t_refuses_what_it_cannot_take():
    for p in (0, 1, -0.1, 1.5):
        with pytest.raises(ValueError, match="p must be between 0 and 1"):
            t_quantile(p, 3)
    with pytest.raises(ValueError, match="df must be > 0"):
        t_quantile(0.9, 0)
    with pytest.raises(ValueError, match="x must be in"):
        beta_inc(1, 1, 1.5)
    assert t_quantile(0.5, 3) == 0.0 and t_sf2(math.inf, 3) == 0.0


# ---------------------------------------------------------------------- the estimators


def test_constant_counts_give_the_t_interval_of_the_deal_sets_means():
    rng = np.random.default_rng(1)
    means = rng.normal(2.5, 0.4, 25)
    e = ratio_estimate(means * 4, np.full(25, 4))
    half = t_quantile(0.975, 24) * means.std(ddof=1) / math.sqrt(25)
    assert e.value == pytest.approx(means.mean())
    assert (e.lo, e.hi) == pytest.approx((means.mean() - half, means.mean() + half))
    assert e.deal_sets == 25 and math.isnan(e.p_value)
    b = rng.normal(2.4, 0.4, 25)
    d = ratio_difference(means * 4, np.full(25, 4), b * 12, np.full(25, 12))
    diff = means - b  # a paired t-test
    t = diff.mean() / (diff.std(ddof=1) / 5)
    assert d.value == pytest.approx(diff.mean())
    assert d.p_value == pytest.approx(t_sf2(t, 24))
    assert d.se == pytest.approx(diff.std(ddof=1) / 5)


def test_ratio_estimate_is_the_linearised_one():
    y = np.array([3.0, 0, 5, 2, 1])
    n = np.array([10.0, 8, 12, 9, 11])
    e = ratio_estimate(y, n)
    r = y.sum() / n.sum()
    u = (y - r * n) / n.mean()
    assert e.value == pytest.approx(r)
    assert e.se == pytest.approx(math.sqrt((u @ u) / (5 * 4)))
    assert e.min_detectable == pytest.approx((t_quantile(0.975, 4) + t_quantile(0.8, 4)) * e.se)


def test_too_little_to_say_is_nan_and_bounds_clip():
    one = ratio_estimate([3.0], [4.0])
    assert one.value == 0.75 and math.isnan(one.lo) and math.isnan(one.se)
    none = ratio_estimate([0.0, 0.0], [0.0, 0.0])
    assert math.isnan(none.value) and math.isnan(none.hi)
    e = ratio_estimate([4.0, 5.0, 4.0], [4.0, 4.0, 4.0], bounds=(1.0, 4.0))
    assert e.lo == 1.0 and e.lo <= e.value <= e.hi <= 4.0
    # every deal set at the edge: the rule of three, 3/K of the range from it
    first = ratio_estimate(np.full(100, 4.0), np.full(100, 4.0), bounds=(1.0, 4.0))
    assert (first.lo, first.hi) == (1.0, pytest.approx(1.09)) and first.se == 0
    none = ratio_estimate(np.zeros(50), np.full(50, 40.0), bounds=(0.0, 1.0))
    assert (none.lo, none.hi) == (0.0, pytest.approx(0.06))
    inside = ratio_estimate(np.full(10, 10.0), np.full(10, 4.0), bounds=(1.0, 4.0))
    assert (inside.lo, inside.hi) == (2.5, 2.5)  # a constant of the design (one spec everywhere)
    same = ratio_difference([10.0, 10.0], [4.0, 4.0], [10.0, 10.0], [4.0, 4.0])
    assert (same.value, same.lo, same.hi, same.p_value) == (0.0, 0.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="same length"):
        ratio_estimate([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="same deal sets"):
        ratio_difference([1.0], [1.0], [1.0, 2.0], [1.0, 1.0])


def test_deal_sets_for_a_width():
    # se 0.05 over 100 deal sets (interval width about 0.2): width 0.1 needs about four times
    need = deal_sets_for(0.05, 100, 0.1)
    assert 380 <= need <= 400
    assert deal_sets_for(math.nan, 1, 0.1) == 0


# ---------------------------------------------------------------------- coverage, simulated


def _simulate(rng, sets: int, players: int, runs: int):
    """``runs`` independent duplicate runs of ``sets`` deal sets: a challenger against identical
    opponents. Each deal set gives each seat its luck (the walls) and the challenger a "fit"
    (walls that suit its play or not) that holds in every rotation, so the rotations of a set
    share more than the walls' luck, as real games do: the variance of a set's mean rank is
    about 1.5 times (three players: 1.25 times) what independent games would give. Returns the
    challenger's ranks ``(runs, sets, rotations)``, its wins and hands ``(runs, sets)``."""
    shape = (runs, sets)
    fit = rng.normal(0.0, 0.8, shape)
    luck = rng.normal(0.0, 0.5, (*shape, players))
    hands = rng.poisson(9.0, (*shape, players)) + 4
    win_p = np.clip(0.22 + 0.05 * fit, 0.02, 0.9)
    ranks = np.zeros((*shape, players))
    wins = np.zeros(shape)
    for r in range(players):  # rotation r: the challenger in seat r
        score = luck + rng.normal(0.0, 1.0, (*shape, players))
        score[..., r] += 0.3 + fit
        ranks[..., r] = 1 + (score > score[..., r : r + 1]).sum(axis=-1)
        wins += rng.binomial(hands[..., r], win_p)
    return ranks, wins, hands.sum(axis=-1)


def _coverage(y, n, truth, bounds=None):
    """The share of runs (rows of ``y`` / ``n``: deal sets) whose interval holds ``truth``."""
    hits = 0
    for yy, nn in zip(y, n, strict=True):
        e = ratio_estimate(yy, nn, bounds=bounds)
        hits += e.lo <= truth <= e.hi
    return hits / len(y)


@pytest.mark.parametrize("players", [4, 3])
def test_coverage_on_simulated_duplicate_play(players):
    """3,000 runs each of 10 and of 30 deal sets: rank and win-rate intervals hold the reference
    run's value (200,000 deal sets) 93.5-96.5 % of the time."""
    rng = np.random.default_rng(players)
    ref_ranks, ref_wins, ref_hands = _simulate(rng, 200_000, players, 1)
    truth_rank = ref_ranks.mean()
    truth_win = ref_wins.sum() / ref_hands.sum()
    for sets in (10, 30):
        ranks, wins, hands = _simulate(rng, sets, players, 3000)
        y = ranks.sum(axis=-1)
        cover_rank = _coverage(y, np.full(y.shape, players), truth_rank, (1.0, float(players)))
        cover_win = _coverage(wins, hands, truth_win, (0.0, 1.0))
        assert 0.935 <= cover_rank <= 0.965, (sets, cover_rank)
        assert 0.935 <= cover_win <= 0.965, (sets, cover_win)


@pytest.mark.parametrize("players", [4, 3])
def test_the_deal_set_is_the_unit_and_seat_games_are_not(players):
    """Counting each seat-game as independent (the same estimator with one game per cluster, or
    the Wilson interval the arena used before) covers clearly less than 95 %."""
    rng = np.random.default_rng(10 + players)
    ref, _, _ = _simulate(rng, 200_000, players, 1)
    truth = ref.mean()
    ranks, _, _ = _simulate(rng, 10, players, 3000)
    runs = ranks.shape[0]
    flat = ranks.reshape(runs, -1)
    by_sets = _coverage(ranks.sum(axis=-1), np.full((runs, 10), players), truth)
    by_games = _coverage(flat, np.ones(flat.shape), truth)
    wilson = 0
    for run in flat:
        counts = np.bincount(run.astype(int) - 1, minlength=players)
        lo, hi = avg_rank_interval(counts, places=players)
        wilson += lo <= truth <= hi
    assert 0.935 <= by_sets <= 0.965
    limit = 0.925 if players == 4 else 0.94
    assert by_games < limit and wilson / runs < limit, (by_games, wilson / runs)


# ---------------------------------------------------------------------- coverage, real games

CHALLENGER = {
    4: ["efficiency", "simple", "simple", "simple"],
    3: ["efficiency", "simple", "simple"],
}
PRESET = {4: "mahjongsoul", 3: "mahjongsoul-3p"}
POOL = {4: 100, 3: 150}  # deal sets of the reference pool


def _deal_sets(players: int, sets: int, seed: int):
    """Per deal set: the challenger's rank sum, final-score sum, wins, deal-ins and hands, and
    the opponents' rank sum, computed from self-play directly (not through the arena)."""
    seats = CHALLENGER[players]
    out = {k: np.zeros(sets) for k in ("rank", "score", "wins", "deal_ins", "hands", "opp")}
    out["counts"] = np.zeros((sets, players), dtype=int)  # the challenger's ranks
    from riichi_env.batch.arena import seat_stats

    for rotation in range(players):
        order = [seats[(s + rotation) % players] for s in range(players)]
        me = (-rotation) % players  # the seat where the challenger (seats[0]) sits
        res = selfplay(order, games=sets, seed=seed, rules=PRESET[players], records="events")
        for k, (r, rows) in enumerate(zip(res["results"], res["records"], strict=True)):
            st = seat_stats(rows)
            out["rank"][k] += r["ranks"][me] + 1
            out["counts"][k, r["ranks"][me]] += 1
            out["score"][k] += r["final_scores"][me]
            out["wins"][k] += st["wins"][me]
            out["deal_ins"][k] += st["deal_ins"][me]
            out["hands"][k] += st["hands"][me]
            out["opp"][k] += sum(r["ranks"][s] + 1 for s in range(players) if s != me)
    return out


@pytest.mark.parametrize("players", [4, 3])
def test_coverage_on_real_duplicate_games(players):
    """A pool of real deal sets (efficiency against simple): (1) runs of deal sets drawn from it
    (the pool is then the truth) cover its value about 95 % of the time, for rank, final score,
    win and deal-in rates and the paired difference, where the seat-game interval does not; (2)
    disjoint runs of it, each against the rest as the reference, cover it too; (3) the arena's
    own intervals are these, computed from its games."""
    sets = POOL[players]
    d = _deal_sets(players, sets, seed=1000)
    p = float(players)
    opp_games = players * (players - 1)
    rng = np.random.default_rng(11)
    runs, k = 2000, 10
    figures = {
        "rank": (d["rank"], np.full(sets, p), (1.0, p)),
        "score": (d["score"], np.full(sets, p), None),
        "win": (d["wins"], d["hands"], (0.0, 1.0)),
        "deal_in": (d["deal_ins"], d["hands"], (0.0, 1.0)),
    }
    draws = rng.integers(0, sets, (runs, k))
    for name, (y, n, bounds) in figures.items():
        truth = y.sum() / n.sum()
        cover = _coverage(y[draws], n[draws], truth, bounds)
        assert 0.93 <= cover <= 0.97, (name, cover)
    # the paired difference challenger - opponents on the same walls
    truth = d["rank"].sum() / (sets * p) - d["opp"].sum() / (sets * opp_games)
    hits = 0
    for idx in draws:
        e = ratio_difference(d["rank"][idx], np.full(k, p), d["opp"][idx], np.full(k, opp_games))
        hits += e.lo <= truth <= e.hi
    assert 0.93 <= hits / runs <= 0.97
    # the interval that counts seat-games as independent (the arena's before) covers less with
    # four players (a deal set's mean rank varies more than independent games' would); with
    # three the two are closer
    truth = d["rank"].sum() / (sets * p)
    games = 0
    for idx in draws:
        lo, hi = avg_rank_interval(d["counts"][idx].sum(axis=0), places=players)
        games += lo <= truth <= hi
    by_sets = _coverage(d["rank"][draws], np.full(draws.shape, p), truth, (1.0, p))
    print(f"{players} players: coverage {by_sets:.3f} by deal sets, {games / runs:.3f} by games")
    if players == 4:
        assert games / runs < by_sets - 0.02, (by_sets, games / runs)
    # (2) disjoint runs of 5 deal sets (independent seeds) against the pool's other deal sets
    hits = 0
    chunks = d["rank"].reshape(-1, 5)
    for i, chunk in enumerate(chunks):
        rest = np.delete(chunks, i, axis=0)
        e = ratio_estimate(chunk, np.full(5, p), bounds=(1.0, p))
        hits += e.lo <= rest.sum() / (rest.size * p) <= e.hi
    assert hits / len(chunks) >= 0.85, hits / len(chunks)
    # (3) the arena's intervals on its first 10 deal sets are these
    out = arena(CHALLENGER[players], games=10 * players, seed=1000, rules=PRESET[players])
    row = out["agents"][0]
    e = ratio_estimate(d["rank"][:10], np.full(10, p), bounds=(1.0, p))
    assert row["avg_rank"] == pytest.approx(e.value)
    assert row["avg_rank_ci95"] == pytest.approx([e.lo, e.hi])
    e = ratio_estimate(d["wins"][:10], d["hands"][:10], bounds=(0.0, 1.0))
    assert row["win_rate_ci95"] == pytest.approx([e.lo, e.hi])
    e = ratio_estimate(d["score"][:10], np.full(10, p))
    assert row["avg_final_score_ci95"] == pytest.approx([e.lo, e.hi])
    comp = out["comparisons"][0]
    assert (comp["a"], comp["b"]) == ("efficiency", "simple")
    e = ratio_difference(d["rank"][:10], np.full(10, p), d["opp"][:10], np.full(10, opp_games))
    assert comp["figures"]["avg_rank"]["ci95"] == pytest.approx([e.lo, e.hi])
    assert comp["figures"]["avg_rank"]["p_value"] == pytest.approx(e.p_value)


# ---------------------------------------------------------------------- the zero check


@pytest.mark.parametrize("rules", ["mahjongsoul", "mahjongsoul-3p"])
def test_the_same_spec_in_every_seat_reads_no_difference(rules):
    """Four (three) seats of one policy under two names: the rotations of a deal set are the
    same game, so each name's mean over a deal set is the same and every difference is 0."""
    players = 3 if rules.endswith("3p") else 4
    names = ["a"] + ["b"] * (players - 1)
    out = arena(["efficiency"] * players, games=6 * players, seed=3, names=names, rules=rules)
    (comp,) = out["comparisons"]
    rank = comp["figures"]["avg_rank"]
    assert (rank["difference"], rank["ci95"], rank["p_value"]) == (0.0, [0.0, 0.0], 1.0)
    for key in ("avg_final_score", "win_rate", "deal_in_rate"):
        assert comp["figures"][key]["difference"] == pytest.approx(0.0, abs=1e-9)
        assert comp["figures"][key]["ci95"] == pytest.approx([0.0, 0.0], abs=1e-9)
    a, b = out["agents"]
    assert a["avg_rank"] == b["avg_rank"] == (players + 1) / 2
    assert a["avg_rank_ci95"] == [(players + 1) / 2] * 2  # no spread at all
    duel = challenge(
        ["simple", "simple"], ["efficiency"] * (players - 1), games=3 * players, seed=5, rules=rules
    )
    assert duel["challengers"] == ["simple", "simple #2"]
    rank = duel["comparisons"][0]["figures"]["avg_rank"]
    assert (rank["difference"], rank["ci95"], rank["p_value"]) == (0.0, [0.0, 0.0], 1.0)
    assert duel["agents"][0] == {**duel["agents"][1], "name": "simple", "seat_spec": "simple"}
