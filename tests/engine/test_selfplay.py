"""Random legal play in compiled code: invariants after every step, determinism, the CLI."""

import hashlib
import json
import subprocess
import sys

import numpy as np
import pytest

from engine.events import EV_GAME_END, event_rows
from engine.harness.selfplay import POLICY_GREEDY, POLICY_UNIFORM, play_one, selfplay
from engine.rules import MAHJONGSOUL, TENHOU

pytestmark = pytest.mark.quick  # also run at the Numba lower bound (.ci/run)

PRESETS = {"mahjongsoul": MAHJONGSOUL, "tenhou": TENHOU}


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("policy", [POLICY_UNIFORM, POLICY_GREEDY])
def test_random_hanchan_keep_every_invariant(name, policy):
    """2,000 hanchan per preset (half uniform, half greedy random play), validated every step."""
    out = selfplay(1000, seed=1_000_000, rules=PRESETS[name], threads=2, check=1, policy=policy)
    assert out["errors"] == [], out["errors"][:3]
    assert out["games"] == 1000
    for r in out["results"]:
        assert sum(r["points"]) == 4 * PRESETS[name].start_points
        assert abs(sum(r["final_scores"])) < 1e-6
        assert r["hands"] >= 1


def test_every_masked_action_is_accepted():
    """On a scratch copy of the table, each legal action of every decision is accepted."""
    out = selfplay(40, seed=77, check=2, max_events=64)
    assert out["errors"] == [], out["errors"][:3]


def _log_digest(seed: int) -> str:
    rows = event_rows(play_one(seed), 0)
    return hashlib.sha256(rows.tobytes()).hexdigest()


def test_same_seed_same_event_log_in_one_process():
    a = event_rows(play_one(123), 0)
    b = event_rows(play_one(123), 0)
    c = event_rows(play_one(124), 0)
    assert a[-1][0] != 0 and any(r[0] == EV_GAME_END for r in a)
    assert np.array_equal(a, b)
    assert not np.array_equal(a[: min(len(a), len(c))], c[: min(len(a), len(c))])


def test_same_seed_same_event_log_across_processes():
    code = (
        "import hashlib; from engine.events import event_rows; from engine.harness.selfplay import play_one;"
        "print(hashlib.sha256(event_rows(play_one(123), 0).tobytes()).hexdigest())"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == _log_digest(123)


def test_results_do_not_depend_on_threads_or_checks():
    one = selfplay(6, seed=5, threads=1)
    two = selfplay(6, seed=5, threads=2)
    checked = selfplay(6, seed=5, threads=1, check=1)
    assert one["results"] == two["results"] == checked["results"]


def test_cli_selfplay_json(capsys):
    from riichi_env.cli.main import main

    assert main(["selfplay", "--games", "3", "--seed", "9", "--rules", "tenhou", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= {"games", "hands", "decisions", "seconds", "results"}
    assert doc["games"] == 3 and len(doc["results"]) == 3
    first = doc["results"][0]
    assert first["seed"] == 9 and len(first["points"]) == 4 and len(first["final_scores"]) == 4
    assert first["hands"] >= 4


def test_cli_selfplay_text(capsys):
    from riichi_env.cli.main import main

    assert main(["selfplay", "--games", "2", "--check"]) == 0
    text = capsys.readouterr().out
    for word in ("games", "hands", "decisions", "seconds", "decisions/s"):
        assert word in text


def test_cli_selfplay_rejects_unknown_rules(capsys):
    from riichi_env.cli.main import main

    assert main(["selfplay", "--games", "1", "--rules", "nope"]) == 2
    assert "unknown rules preset" in capsys.readouterr().err


VARIANTS = {
    "every_option_flipped": MAHJONGSOUL.replace(
        red_fives=(1, 2, 1),
        open_tanyao=False,
        kiriage_mangan=True,
        nagashi_mangan=False,
        double_yakuman=False,
        kazoe_yakuman=False,
        open_riichi=True,
        sanchahou=True,
        game_length="tonpuusen",
        extension_round=False,
        extension_renchan=True,
        agari_yame=False,
        tenpai_yame=False,
        honba_on_pass="reset",
        start_points=30_000,
        return_points=30_000,
        uma=(30, 10, -10, -30),
        busting=False,
        pao=False,
        pao_honba="liable",
        kan_dora_on_declare=False,
        rinshan_kan_dora=False,
        abortive_draws=False,
        karaten_melds=True,
    ),
    "no_red_fives_short_extension": MAHJONGSOUL.replace(red_fives=(0, 0, 0), extension_hands=1),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_rule_variants_keep_every_invariant(name):
    rules = VARIANTS[name]
    for policy in (POLICY_UNIFORM, POLICY_GREEDY):
        out = selfplay(150, seed=42, rules=rules, threads=2, check=1, policy=policy)
        assert out["errors"] == [], out["errors"][:3]
        for r in out["results"]:
            assert sum(r["points"]) == 4 * rules.start_points
            assert abs(sum(r["final_scores"])) < 1e-6
