"""The one compiled runner (``riichi_env.core.runner``): the games it plays, its records."""

import numpy as np
import pytest

from engine.actions import N_ACTIONS
from engine.game import Game
from engine.harness.selfplay import POLICY_EFFICIENCY, POLICY_GREEDY, POLICY_SIMPLE, POLICY_UNIFORM
from engine.rules import MAHJONGSOUL
from engine.state import new_state
from engine.tables import load_tables
from riichi_env.core import fields as fl
from riichi_env.core import runner as rn
from riichi_env.core.encoders import ENCODER_IDS, N_ROWS, bounds


class Tables:
    """``n`` tables and every buffer of ``_run`` (as the batch runners hold them); ``tab`` and
    ``opt`` are their fields by name."""

    def __init__(self, n, encoder=None, u8=False, final_obs=False, max_events=0):
        self.state = new_state(n, MAHJONGSOUL, max_events)
        self.tables = tuple(load_tables())
        self.ti, self.tf = rn.new_tables(n)
        self.tab, self.opt = rn.fields(self.ti, self.tf)
        self.masks = np.zeros((n, N_ACTIONS), dtype=np.int8)
        rows = N_ROWS[encoder] if encoder else 1
        self.opt["encoder"][...] = ENCODER_IDS[encoder] if encoder else rn.NO_ENCODER
        views = 2 if final_obs else 1 if encoder else 0
        self.obs = np.zeros((views, n, rows, 34), dtype=np.float32)
        self.obs_u8 = np.zeros((n if u8 else 0, rows, 34), dtype=np.uint8)
        self.opt["hi"][...] = n

    def run(self, kernel=None):
        return (kernel or rn._run)(
            self.state.records,
            self.state.events,
            self.tables,
            self.ti,
            self.tf,
            self.masks,
            self.obs,
            self.obs_u8,
        )


def _checked_loop(seeds, policy):
    """``engine.harness.selfplay._play_games`` (check 0): points, final scores, hands, decisions."""
    from engine.harness.selfplay import _play_games

    g = len(seeds)
    state = new_state(1, MAHJONGSOUL, 0)
    out = (
        np.zeros((g, 4), np.int32),
        np.zeros((g, 4), np.float64),
        np.zeros(g, np.int32),
        np.zeros(g, np.int64),
    )
    _play_games(
        state.records,
        0,
        state.events,
        load_tables(),
        np.asarray(seeds, dtype=np.int64),
        0,
        policy,
        -1,
        *out,
        np.zeros(g, np.int32),
        np.zeros(2, np.int64),
    )
    return out


@pytest.mark.parametrize(
    "policy", [POLICY_UNIFORM, POLICY_GREEDY, POLICY_SIMPLE, POLICY_EFFICIENCY]
)
def test_compiled_seats_play_the_checked_loops_games(policy):
    """Three tables, autoreset with stride 3 over games 0-6 of seed base 40: each game is the
    one ``engine.selfplay``'s loop plays with its seed (the table's ``final_*`` fields)."""
    b = Tables(3)
    b.tab["seat_policy"][...] = policy
    b.tab["seed_base"][...] = 40
    b.tab["game_index"][...] = [0, 1, 2]
    b.tab["start"][...] = True
    b.opt["stride"][...], b.opt["games_end"][...] = 3, 7
    b.opt["stop_at_game_end"][...] = True
    got = {}
    for _ in range(4):
        b.run()
        for t in np.flatnonzero(b.tab["terminated"]):
            got[int(b.tab["final_game"][t])] = {k: v[t].copy() for k, v in b.tab.items()}
    assert (b.tab["seat"] == rn.FINISHED).all()
    assert (b.tab["game_index"] == rn.FINISHED).all()
    assert int(b.opt["games_done"]) == 7 and sorted(got) == list(range(7))
    rows = {k: np.array([got[g][k] for g in range(7)]) for k in b.tab}
    points, final, hands, decisions = _checked_loop(40 + np.arange(7), policy)
    np.testing.assert_array_equal(rows["final_points"], points)
    np.testing.assert_array_equal(rows["final_scores"], final)
    np.testing.assert_array_equal(rows["final_hands"], hands)
    np.testing.assert_array_equal(rows["final_decisions"], decisions)
    np.testing.assert_array_equal(rows["final_seed"], 40 + np.arange(7))
    assert int(b.opt["played"]) == int(decisions.sum())


@pytest.mark.nojit
def test_python_seats_play_as_the_game_facade():
    """One table, every seat from Python: the caller's actions give the ``Game``'s game; the hand
    rewards are the point changes times the scale, the end comes once."""
    b = Tables(1)
    b.tab["seed_base"][...] = 9
    b.tab["game_index"][...] = 0
    b.tab["start"][...] = True
    b.opt["stop_at_game_end"][...] = True
    b.opt["reward_scale"][...] = 0.5
    b.run()
    game = Game(seed=9)
    rng = np.random.default_rng(0)
    total = np.zeros(4)
    while True:
        assert int(b.tab["seat"][0]) == game.actor
        np.testing.assert_array_equal(b.masks[0].astype(bool), game.legal_mask())
        a = int(rng.choice(np.flatnonzero(b.masks[0])))
        b.tab["action"][...] = a
        b.run()
        game.step(a)
        total += b.tab["rewards"][0]
        if b.tab["hand_ended"][0]:
            np.testing.assert_array_equal(b.tab["rewards"][0], b.tab["delta"][0] * 0.5)
        else:
            assert not b.tab["delta"][0].any()
        if b.tab["terminated"][0]:
            break
    assert game.done
    assert b.tab["need_reset"][0] and int(b.tab["seat"][0]) == rn.FINISHED
    assert not b.masks[0].any()  # the ended game has no legal action
    assert list(b.tab["final_points"][0]) == game.points
    np.testing.assert_allclose(total, (np.array(game.points) - 25000) * 0.5)
    b.run()  # the next call moves on to game 1 (seed 10)
    assert int(b.tab["game_index"][0]) == 1 and int(b.state.seed[0]) == 10
    assert int(b.tab["seat"][0]) >= 0


def test_autoreset_writes_the_final_view_and_starts_the_next_game():
    """Same-step autoreset: the step that ends a game sets ``terminated`` and returns the next
    game's first observation; ``obs[OBS_FINAL]`` holds the last view of the seat that acted."""
    b = Tables(2, encoder="basic_v0", final_obs=True)
    b.tab["seed_base"][...] = 3
    b.tab["game_index"][...] = [0, 1]
    b.tab["start"][...] = True
    b.opt["stride"][...] = 2
    b.run()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(4000):
        actions = (rng.random(b.masks.shape) * b.masks).argmax(axis=1)
        seats = b.tab["seat"].copy()
        b.tab["action"][...] = actions
        b.run()
        for t in np.flatnonzero(b.tab["terminated"]):
            ended += 1
            assert int(b.tab["final_seat"][t]) == seats[t]
            assert int(b.tab["game_index"][t]) in (2 + t, 4 + t)
            assert int(b.state.seed[t]) == 3 + int(b.tab["game_index"][t])
            assert int(b.tab["seat"][t]) == int(b.state.actor[t])
            assert b.masks[t].any() and b.obs[rn.OBS_FINAL, t].any()
        if ended >= 3:
            break
    assert ended >= 3


def test_skip_forced_asks_only_real_decisions():
    b = Tables(1)
    b.tab["seed_base"][...], b.tab["game_index"][...], b.tab["start"][...] = 5, 0, True
    b.opt["skip_forced"][...], b.opt["stop_at_game_end"][...] = True, True
    b.run()
    rng = np.random.default_rng(2)
    while not b.tab["terminated"][0]:
        assert b.masks[0].sum() > 1
        b.tab["action"][...] = int(rng.choice(np.flatnonzero(b.masks[0])))
        b.run()


def test_quantized_observations_are_the_float_ones_in_bytes():
    f = Tables(2, encoder="rich_v0")
    q = Tables(2, encoder="rich_v0", u8=True)
    for b in (f, q):
        b.tab["seed_base"][...], b.tab["game_index"][...], b.tab["start"][...] = 11, [0, 1], True
        b.tab["seat_policy"][:, 1:] = POLICY_GREEDY
        b.run()
    low, high = bounds("rich_v0")
    expected = np.clip(np.rint((f.obs[0] - low) / ((high - low) / 255.0)), 0, 255)
    assert np.abs(q.obs_u8.astype(np.int16) - expected).max() <= 1


@pytest.mark.nojit
def test_teacher_mode_plays_nothing_and_keeps_the_games_streams():
    b = Tables(2)
    b.tab["seed_base"][...], b.tab["game_index"][...], b.tab["start"][...] = 21, [0, 1], True
    b.run()
    before = b.state.records.copy(), b.tab["rng"].copy()
    b.tab["teacher_rng"][...] = [[7, 0], [8, 0]]
    b.opt["teacher"][...] = POLICY_SIMPLE
    b.run()
    acts = b.tab["teacher_action"]
    assert all(b.masks[t, acts[t]] for t in range(2))
    b.opt["teacher"][...] = POLICY_UNIFORM
    b.run()
    assert (b.tab["teacher_rng"][:, 1] == 1).all()
    assert (b.state.records == before[0]).all()
    np.testing.assert_array_equal(b.tab["rng"], before[1])


@pytest.mark.nojit
def test_refresh_recomputes_a_loaded_states_mask():
    b = Tables(1)
    b.tab["seed_base"][...], b.tab["game_index"][...], b.tab["start"][...] = 2, 0, True
    b.run()
    mask = b.masks[0].copy()
    b.masks[0] = 0
    b.tab["refresh"][...] = True
    b.run()
    np.testing.assert_array_equal(b.masks[0], mask)


@pytest.mark.nojit
def test_records_are_declared_field_by_field():
    args = rn.example_arguments()
    for fields, width in (
        (rn.TABLE_INTS, fl.T_WIDTH),
        (rn.TABLE_FLOATS, fl.F_WIDTH),
        (rn.OPTION_INTS, fl.O_WIDTH),
        (rn.OPTION_FLOATS, fl.P_WIDTH),
    ):
        assert sum(f[1] for f in fields) == width
        assert all(len(f) == 3 and f[2] for f in fields)
        assert len({f[0] for f in fields}) == len(fields)
    assert [a.shape[-1] for a in args[3:5]] == [fl.T_WIDTH, fl.F_WIDTH]
    assert fl.O_WIDTH <= fl.T_WIDTH and fl.P_WIDTH <= fl.F_WIDTH  # the options' row
    assert len(args) == 8
    assert rn._run(*rn.example_arguments()) == rn.GAME_OVER


@pytest.mark.parametrize("policy", [POLICY_UNIFORM, POLICY_GREEDY])
def test_the_random_runner_plays_the_same_games(policy):
    """``_run_random`` (no agents compiled) plays the random policies' games as ``_run`` does."""
    finals = []
    for kernel in (rn._run, rn._run_random):
        b = Tables(2)
        b.tab["seat_policy"][...] = policy
        b.tab["seed_base"][...], b.tab["game_index"][...], b.tab["start"][...] = 5, [0, 1], True
        b.opt["stop_at_game_end"][...] = True
        b.run(kernel)
        finals.append({k: b.tab[k].copy() for k in ("final_points", "final_decisions", "rng")})
    for k in finals[0]:
        np.testing.assert_array_equal(finals[0][k], finals[1][k])


def test_runner_for_picks_the_runner_with_the_agents_only_when_a_seat_needs_it():
    py = rn.PYTHON_SEAT
    assert rn.runner_for(np.array([py, POLICY_UNIFORM, POLICY_GREEDY, py])) is rn._run_random
    assert rn.runner_for(np.array([py, py, POLICY_SIMPLE, py])) is rn._run
    per_table = np.full((3, 4), POLICY_UNIFORM)
    assert rn.runner_for(per_table) is rn._run_random
    per_table[2, 1] = POLICY_EFFICIENCY
    assert rn.runner_for(per_table) is rn._run


def test_runner_for_picks_the_runner_with_the_encoders_when_the_call_writes_observations():
    """``_run_random`` writes no observation (the AEC env encodes with its encoder's kernel):
    a call that writes them plays in ``_run``, whatever its seats."""
    py = rn.PYTHON_SEAT
    assert rn.runner_for(np.array([py, py, py, py]), encodes=True) is rn._run
    assert rn.runner_for(np.array([py, POLICY_UNIFORM, py, py]), encodes=True) is rn._run
    assert rn.runner_for(np.array([py, py, py, py]), encodes=False) is rn._run_random


def test_the_random_runner_refuses_to_write_observations():
    """A bug that asks ``_run_random`` for observations raises, naming ``_run``; with no rows
    to write (the AEC env's call) the encoder's id is ignored."""
    b = Tables(1, encoder="basic_v0")
    b.tab["game_index"][...], b.tab["start"][...] = 0, True
    with pytest.raises(ValueError, match="observations are written by _run, not _run_random"):
        b.run(rn._run_random)
    b.obs = b.obs[:0]
    b.tab["game_index"][...], b.tab["start"][...] = 0, True
    assert b.run(rn._run_random) == 0  # seat 0, the dealer, acts first


def test_a_vector_env_of_python_seats_plays_in_the_runner_that_writes_observations():
    from riichi_env.batch.tables import Batch

    batch = Batch(2, MAHJONGSOUL, "basic_v0", ENCODER_IDS["basic_v0"], np.float32)
    assert batch._runner is rn._run
    assert Batch(2, MAHJONGSOUL, None, rn.NO_ENCODER, np.float32)._runner is rn._run_random


def test_the_random_runner_refuses_an_agent_seat_and_the_teacher_mode():
    """A bug that hands an agent or the teacher mode to ``_run_random`` raises, naming ``_run``."""
    b = Tables(1)
    b.tab["seat_policy"][...] = POLICY_SIMPLE
    b.tab["game_index"][...], b.tab["start"][...] = 0, True
    with pytest.raises(ValueError, match="a compiled agent plays in _run, not _run_random"):
        b.run(rn._run_random)
    b = Tables(1)
    b.tab["game_index"][...], b.tab["start"][...] = 0, True
    b.run(rn._run_random)
    b.opt["teacher"][...] = POLICY_UNIFORM
    with pytest.raises(ValueError, match="the teacher mode runs in _run, not _run_random"):
        b.run(rn._run_random)


def test_a_second_process_loads_the_runners_kernels_from_the_cache(
    tmp_path, numba_folder, run_python
):
    """Each runner kernel keeps one cache entry across processes: its cache key must not change
    from one process to the next (a closure holding a dispatcher once made it, and every process
    compiled the runner again)."""
    import os
    from pathlib import Path

    from engine._numba import cache_roots, jit_disabled, source_digest
    from riichi_env.core import runner

    if jit_disabled() or os.environ.get("NUMBA_CACHE_DIR"):
        pytest.skip("the project's cache layout, with JIT")
    code = (
        "import riichi_env; v = riichi_env.vector_env(2); o, _ = v.reset(seed=0); "
        "v.step(o['action_mask'].argmax(axis=1)); riichi_env.selfplay('efficiency', games=1, seed=0)"
    )
    for _ in range(2):
        run_python(code, tmp_path)  # each child shares this process's cache folder
    kernels = cache_roots()[0] / "numba" / source_digest()
    kernels = kernels / numba_folder(Path(runner.__file__).parent)
    for name in ("_run", "_run_random"):
        entries = list(kernels.glob(f"runner.{name}-*.nbc"))
        assert len(entries) == 1, entries
