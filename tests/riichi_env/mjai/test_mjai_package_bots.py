"""The ``mjai`` package's bots (mjai.app's reference bots, on Mortal's libriichi) in the arena,
in both dialects: run as mjai.app runs a submission (``mjaiapp:``) and as Mortal's ``mortal.py
<ID>`` runs (``mjai:``), each taking its seat from ``{seat}`` in its command."""

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("mjai")

from riichi_env.batch.arena import arena  # noqa: E402
from riichi_env.cli.main import main  # noqa: E402
from riichi_env.mjai.seat import MjaiBot, MjaiBotError  # noqa: E402

BOTS = Path(__file__).resolve().parent.parent.parent / "data" / "mjai_bots"
PY = sys.executable


def _mortal(name: str, seat: str = "{seat}") -> str:
    return f"mjai:{PY} {BOTS / 'mortal_style_bot.py'} {name} {seat}"


def _app(name: str) -> str:
    return f"mjaiapp:{PY} {BOTS / 'mjaiapp_bot.py'} {name} {{seat}}"


def _arena_json(capsys, seats: list[str], *args: str) -> dict:
    argv = ["arena", "--seats", ",".join(seats), "--games", "4", "--json", *args]
    assert main([*argv, "--bot-timeout", "30", "--bot-startup-timeout", "120"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "rules, mortal, app", [("mahjongsoul", "rulebase", "riichi"), ("tenhou", "riichi", "rulebase")]
)
def test_package_bots_play_a_duplicate_set_in_both_dialects(capsys, rules, mortal, app):
    """RulebaseBot and RiichiBot, one in each dialect, play all four rotations of a set of
    walls: every bot sits in every seat, where its process was started with that seat."""
    seats = [_mortal(mortal), _app(app), "efficiency", "greedy"]
    doc = _arena_json(capsys, seats, "--rules", rules, "--bot-errors", "substitute")
    assert doc["games"] == 4
    assert [a["seat_spec"] for a in doc["agents"]] == seats
    for a in doc["agents"]:
        assert a["games"] == 4 and sum(a["rank_counts"]) == 4 and "bot_errors" in a
    assert sum(a["bot_errors"] for a in doc["agents"][2:]) == 0


def test_a_mortal_style_bot_with_a_fixed_seat_fails_where_it_is_seated_elsewhere():
    """Without ``{seat}`` the process keeps the seat of its command: libriichi fails at the
    first draw of the seat it really plays (duplicate rotation 1 seats it at seat 3)."""
    bot = MjaiBot(f"{PY} {BOTS / 'mortal_style_bot.py'} tsumogiri 0", name="fixed")
    with pytest.raises(MjaiBotError, match=r"'fixed' \(seat 3, table 0\): exited with code"):
        arena([bot, "greedy", "greedy", "greedy"], games=4, seed=1)


@pytest.mark.parametrize("rules", ["mahjongsoul", "tenhou"])
def test_rulebase_bots_bad_moves_are_counted_or_stop_the_run(capsys, rules):
    """Seed 74: RulebaseBot declares riichi and then discards a tile that breaks its tenpai,
    twice. ``substitute`` plays the first legal discard instead and counts both; ``stop`` ends
    the run at the first with the illegal answer named."""
    seats = [_app("rulebase"), "greedy", "greedy", "greedy"]
    doc = _arena_json(capsys, seats, "--seed", "74", "--rules", rules, "--bot-errors", "substitute")
    rows = {a["seat_spec"]: a for a in doc["agents"]}
    assert rows[seats[0]]["bot_errors"] == 2 and rows["greedy"]["bot_errors"] == 0
    assert rows[seats[0]]["games"] == 4
    argv = ["arena", "--seats", ",".join(seats), "--games", "4", "--seed", "74", "--rules", rules]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"error: mjai bot '{seats[0]}' (seat 0, table 0): answered with an illegal move: " in err
    assert "is illegal here; legal: discard" in err and 'last event sent: {"type":"reach"' in err
