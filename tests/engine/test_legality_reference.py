"""The engine's legal-action mask against an independent plain-Python reference.

``selfplay(check=2)`` steps every masked action and refuses unmasked ones, but the step decides
with the same ``_legal_mask``, so that check cannot fail on a wrong rule. Here
``reference_legality`` (written from the rule text, no Numba, nothing of ``engine.game``) lists
the legal actions of every decision of random games under both presets and flipped options, and
of scripted scenarios for the rare rules (chankan, robbing a closed kan, riichi ankan, riichi
furiten, kyuushu kyuuhai). The comparison covers the seat's mask and the seats asked about every
discard and kan tile.

The mutation test shows the comparison catches a wrong rule: with ``NUMBA_DISABLE_JIT=1`` (in its
own process) it replaces one helper of ``engine.game`` by a wrong one and checks that differences
are reported. The first mutation is the one an audit found nothing to catch: chi offered from
every seat.

Run this file as a script (``python tests/engine/test_legality_reference.py mutations``) to see
the mutation results.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import reference_legality as ref
from scenario_helpers import PINLESS, QUIET

from engine.game import Game
from engine.harness.scenario import start_hand
from engine.rules import MAHJONGSOUL, TENHOU, Rules

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

CONFIGS: dict[str, Rules] = {
    "mahjongsoul": MAHJONGSOUL,
    "tenhou": TENHOU,
    "open riichi, red fives 1-2-1": MAHJONGSOUL.replace(open_riichi=True, red_fives=(1, 2, 1)),
    "kuitan off, no red fives, no abortive draws": MAHJONGSOUL.replace(
        open_tanyao=False, red_fives=(0, 0, 0), abortive_draws=False
    ),
    "tenhou, open riichi, kuitan off": TENHOU.replace(open_riichi=True, open_tanyao=False),
    "start at 2,000 points, no busting": MAHJONGSOUL.replace(start_points=2000, busting=False),
}
"""Rules of the random games compared decision by decision."""
DECISIONS = 4000
"""Decisions of random play (whole hanchan, seeds from 8,000 on) per configuration."""

ALWAYS_SEEN = {
    "claim on discard",
    "claim from a seat that may not chi",
    "chi",
    "pon",
    "daiminkan",
    "discard after a call",
    "kuikae",
    "ankan",
    "kakan",
    "riichi",
    "riichi discard",
    "riichi discard refused (breaks tenpai)",
    "riichi tsumogiri",
    "tsumo",
    "ron",
    "wait but no ron (no yaku)",
    "offer of a discard tile",
    "offer skips a permanent furiten wait",
}
"""Situations every configuration's random games reach (so the comparison exercised them)."""
ALSO_SEEN = {
    "open riichi, red fives 1-2-1": {"open riichi", "chi plain", "red five held"},
    "tenhou, open riichi, kuitan off": {"open riichi"},
    "mahjongsoul": {"red five held"},
    "start at 2,000 points, no busting": {"riichi refused: under 1,000 points"},
}


def _random_games(rules: Rules, decisions: int, seed: int) -> ref.Report:
    """Whole games from ``seed`` on until ``decisions`` decisions were compared."""
    report = ref.Report()
    while report.decisions < decisions:
        game = Game(rules, seed=seed)
        report.add(ref.play_and_compare(game, rules, np.random.default_rng(seed)))
        seed += 1
    return report


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_mask_matches_the_reference_in_random_games(name):
    rules = CONFIGS[name]
    report = _random_games(rules, DECISIONS, seed=8_000)
    assert report.differences == [], "\n".join(report.differences[:10])
    want = ALWAYS_SEEN | ALSO_SEEN.get(name, set())
    missing = sorted(want - set(report.seen))
    assert not missing, f"{report.decisions} decisions never reached {missing}: {report.seen}"
    if not rules.abortive_draws:
        assert "kyuushu" not in report.seen


# ---------------------------------------------------------------------------- scenarios

KAKAN_HANDS = ["147m147s123456z7p", "77p258m258s12345z", "56p234m567m234s88s", PINLESS[2]]
"""S1 pons S0's 7p and adds the drawn 4th 7p; S2 (tanyao 4p-7p) may rob it."""
KAKAN_MOVES = ("7p", "pon", "pass", "5z", "tsumogiri", "tsumogiri", "tsumogiri", "kan 7p")
ANKAN_HANDS = ["258m258p258s1234z", "111m47m47p47s1567z", "99m19p19s1234567z", "369m369p369s2347z"]
"""S1 ankans the drawn 4th 1m; S2 is kokushi tenpai on 1m."""
NO_1M = ["478m258p369s1234z", QUIET[1], QUIET[2]]
"""Seats 1-3 without 1m, so seat 0 can hold all four."""
RIICHI_TO_DRAW = ("riichi", "7z", "tsumogiri", "tsumogiri", "tsumogiri")


def _no_1m(hand0: str, **kwargs) -> Game:
    return start_hand(hands=[hand0, *NO_1M], **kwargs)


SCENARIOS = {
    "chankan taken": (
        lambda rules: start_hand(
            hands=KAKAN_HANDS, draws="9p 9m 9s 9p 7p", rinshan="9m", dora="6z", rules=rules
        ),
        (*KAKAN_MOVES, "ron"),
        {"claim on kakan", "chankan", "offer of a kakan tile"},
    ),
    "chankan passed, then temporary furiten": (
        lambda rules: start_hand(
            hands=KAKAN_HANDS, draws="9p 9m 9s 9p 7p", rinshan="9m", dora="6z", rules=rules
        ),
        (*KAKAN_MOVES, "pass"),
        {"claim on kakan", "chankan"},
    ),
    "chankan blocked by permanent furiten": (
        lambda rules: start_hand(
            hands=KAKAN_HANDS, draws="9p 4p 9s 9p 7p", rinshan="9m", dora="6z", rules=rules
        ),
        KAKAN_MOVES,
        {"offer of a kakan tile", "offer skips a permanent furiten wait"},
    ),
    "kokushi robs a closed kan": (
        lambda rules: start_hand(
            hands=ANKAN_HANDS, draws="5p 1m", rinshan="9p", dora="8p", rules=rules
        ),
        ("tsumogiri", "kan 1m", "ron"),
        {"claim on ankan", "chankan", "offer of a ankan tile"},
    ),
    "kokushi passes a closed kan": (
        lambda rules: start_hand(
            hands=ANKAN_HANDS, draws="5p 1m", rinshan="9p", dora="8p", rules=rules
        ),
        ("tsumogiri", "kan 1m", "pass"),
        {"claim on ankan"},
    ),
    "riichi ankan keeping the waits": (
        lambda rules: _no_1m("111m456p789s23s55z", draws="7z 1z 2z 3z 1m", dora="9p", rules=rules),
        (*RIICHI_TO_DRAW, "kan 1m"),
        {"riichi ankan"},
    ),
    "riichi ankan refused: waits change": (
        lambda rules: _no_1m("1112m456p789s567s", draws="7z 1z 2z 3z 1m", dora="9p", rules=rules),
        RIICHI_TO_DRAW,
        {"riichi ankan refused"},
    ),
    "riichi ankan refused: a reading without the triplet": (
        lambda rules: _no_1m("1112444m456p789s", draws="7z 1z 2z 3z 1m", dora="9p", rules=rules),
        RIICHI_TO_DRAW,
        {"riichi ankan refused"},
    ),
    "riichi ankan refused: a quad held before the riichi": (
        lambda rules: _no_1m("1111m23m456p789s5s", draws="7z 1z 2z 3z 9p", dora="9s", rules=rules),
        RIICHI_TO_DRAW,
        {"riichi ankan refused"},
    ),
    "riichi furiten after passing a ron": (
        lambda rules: start_hand(
            hands=[PINLESS[0], "234m678s234p45p88s", PINLESS[1], PINLESS[2]],
            draws="1z 2z 3p 9m 9s 1s 6p 9m 9s 6p",
            dora="9s",
            rules=rules,
        ),
        ("tsumogiri", "riichi", "2z", "tsumogiri", "pass", *(["tsumogiri"] * 4)),
        {"offer skips a riichi furiten wait", "riichi tsumogiri"},
    ),
    "kyuushu kyuuhai": (
        lambda rules: start_hand(
            hands=["192345m19p19s123z", *PINLESS], draws="7z", dora="9s", rules=rules
        ),
        (),
        {"kyuushu"},
    ),
}
"""Scripted starts for rules random play rarely reaches: (game, moves, situations they reach)."""


@pytest.mark.parametrize("rules", [MAHJONGSOUL, TENHOU], ids=["mahjongsoul", "tenhou"])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_mask_matches_the_reference_in_scenarios(name, rules):
    make, moves, tags = SCENARIOS[name]
    report = ref.play_and_compare(make(rules), rules, np.random.default_rng(1), moves, 400)
    assert report.differences == [], "\n".join(report.differences[:10])
    missing = sorted(tags - set(report.seen))
    assert not missing, f"scenario never reached {missing}: {report.seen}"


def test_kyuushu_needs_the_abortive_draws_rule():
    rules = MAHJONGSOUL.replace(abortive_draws=False)
    make, moves, _ = SCENARIOS["kyuushu kyuuhai"]
    report = ref.play_and_compare(make(rules), rules, np.random.default_rng(1), moves, 50)
    assert report.differences == [], "\n".join(report.differences[:10])
    assert "kyuushu" not in report.seen


# ---------------------------------------------------------------------------- mutations


def _engine_modules() -> list:
    """The engine's game modules (a kernel is looked up in the globals of the module calling it)."""
    import importlib

    names = ("claims", "deal", "hand_end", "seats", "kans", "legality", "settlement", "turn")
    return [importlib.import_module(f"engine.{n}") for n in names] + [
        importlib.import_module("engine.visibility")
    ]


def _defining_module(fn_name: str):
    return next(
        m
        for m in _engine_modules()
        if fn_name in vars(m) and getattr(m, fn_name).__module__ == m.__name__
    )


def _source_mutation(fn_name: str, old: str, new: str):
    """The engine's plain-Python ``fn_name`` with one line changed (NUMBA_DISABLE_JIT=1)."""
    module = _defining_module(fn_name)
    src = textwrap.dedent(inspect.getsource(getattr(module, fn_name)))
    if src.count(old) != 1:
        raise AssertionError(f"{fn_name} no longer contains {old!r} exactly once")
    src = src.replace(old, new).replace("@njit\n", "", 1)
    namespace = dict(vars(module))
    exec(compile(src, f"<mutated {fn_name}>", "exec"), namespace)
    return namespace[fn_name]


MUTATIONS = {
    "chi offered from every seat": (
        "_offer_discard",
        lambda: _source_mutation("_offer_discard", "if i == 1 and x < 27:", "if x < 27:"),
        None,
    ),
    "kuikae forgets the far end of an end chi": (
        "_chi_forbid",
        lambda: lambda x, shape: -1,
        None,
    ),
    "furiten never blocks ron": ("_furiten", lambda: lambda st, t, s: False, None),
    "houtei allows calls": (
        "_offer_discard",
        lambda: _source_mutation(
            "_offer_discard", "if live > 0 and rec.riichi[s] == 0:", "if rec.riichi[s] == 0:"
        ),
        None,
    ),
    "riichi ankan always allowed": (
        "_riichi_ankan_ok",
        lambda: lambda st, t, tables, s, k: True,
        "riichi ankan refused: a reading without the triplet",
    ),
}
"""A deliberately wrong rule: (engine function replaced, its replacement, scenario or None for
random play). The replacement is put in every engine module that calls the function."""


def run_mutation(name: str | None, max_decisions: int = 4000) -> dict:
    """Play with one mutation applied (``None``: none) until the comparison reports a difference."""
    from engine._numba import jit_disabled

    if not jit_disabled():
        raise RuntimeError("mutations replace plain-Python kernels: set NUMBA_DISABLE_JIT=1")
    rules = MAHJONGSOUL
    original = None
    scenario = None
    patched = []
    if name is not None:
        fn_name, make, scenario = MUTATIONS[name]
        original = getattr(_defining_module(fn_name), fn_name)
        wrong = make()
        for module in _engine_modules():
            if getattr(module, fn_name, None) is original:
                patched.append(module)
                setattr(module, fn_name, wrong)
    try:
        report = ref.Report()
        seed = 0
        while report.decisions < max_decisions and not report.differences:
            if scenario is not None:
                make_game, moves, _ = SCENARIOS[scenario]
                g, seed = make_game(rules), seed + 1
            else:
                g, moves, seed = Game(rules, seed=seed), (), seed + 1
            left = max_decisions - report.decisions
            report.add(ref.play_and_compare(g, rules, np.random.default_rng(seed), moves, left, 3))
            if scenario is not None:
                break
    finally:
        for module in patched:
            setattr(module, fn_name, original)
    return {
        "mutation": name,
        "decisions": report.decisions,
        "differences": report.differences[:3],
    }


def test_the_comparison_catches_wrong_mask_rules():
    """Each mutation is reported within a few thousand decisions; the unmutated engine is not."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    proc = subprocess.run(
        [sys.executable, str(Path(__file__)), "mutations"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = {r["mutation"]: r for r in map(json.loads, proc.stdout.splitlines())}
    assert set(results) == {None, *MUTATIONS}, proc.stdout
    control = results.pop(None)
    assert control["differences"] == [], control
    assert control["decisions"] >= 1000, control
    missed = [name for name, r in results.items() if not r["differences"]]
    assert not missed, f"mutations not caught: {missed}\n{proc.stdout}"


if __name__ == "__main__":
    if sys.argv[1:] != ["mutations"]:
        sys.exit(
            "usage: NUMBA_DISABLE_JIT=1 python tests/engine/test_legality_reference.py mutations"
        )
    print(json.dumps(run_mutation(None, 1000)), flush=True)
    for mutation in MUTATIONS:
        print(json.dumps(run_mutation(mutation)), flush=True)


# ---------------------------------------------------------------------------- three players

SANMA_CONFIGS: dict[str, Rules] = {
    "mahjongsoul-3p": Rules.preset("mahjongsoul-3p"),
    "tenhou-3p": Rules.preset("tenhou-3p"),
    "mahjongsoul-3p without kita": Rules.preset("mahjongsoul-3p").replace(kita=False),
}
"""Three-player rules of the random games compared decision by decision (issue 26)."""
SANMA_SEEN = {
    "claim on discard",
    "pon",
    "discard after a call",
    "riichi",
    "riichi discard",
    "tsumo",
    "ron",
    "offer of a discard tile",
}
"""Situations every three-player configuration's random games reach."""
SANMA_ALSO_SEEN = {
    "mahjongsoul-3p": {"kita", "kita in riichi", "offer of a kita tile"},
    "tenhou-3p": {"kita", "kita in riichi", "offer of a kita tile"},
}
KITA_HANDS = ["19m147p258s1236z4z", "123p456p789p555z4z", "19m258p369s12367z", ""]
"""S0 sets its North aside; S1 waits on North (tanki, haku and ittsuu) and may ron it."""
SANMA_SCENARIOS = {
    "ron on a kita": (("kita", "ron"), {"claim on kita", "ron on a kita", "offer of a kita tile"}),
    "a kita passed, then furiten": (("kita", "pass"), {"claim on kita"}),
}
"""Scripted starts for a ron on a kita, which random play rarely reaches: (moves, situations)."""


@pytest.mark.parametrize("name", sorted(SANMA_CONFIGS))
def test_mask_matches_the_reference_in_three_player_games(name):
    """No chi, the seats asked in turn order over three seats, riichi with 3 live tiles, kita
    (after a draw, in riichi the drawn North, a live tile left) and ron on a kita."""
    rules = SANMA_CONFIGS[name]
    report = _random_games(rules, DECISIONS, seed=9_000)
    assert report.differences == [], "\n".join(report.differences[:10])
    assert not {"chi", "chi plain"} & set(report.seen)
    want = SANMA_SEEN | SANMA_ALSO_SEEN.get(name, set())
    missing = sorted(want - set(report.seen))
    assert not missing, f"{report.decisions} decisions never reached {missing}: {report.seen}"


@pytest.mark.parametrize("preset", ["mahjongsoul-3p", "tenhou-3p"])
@pytest.mark.parametrize("name", sorted(SANMA_SCENARIOS))
def test_mask_matches_the_reference_on_a_kita_offered_for_ron(name, preset):
    rules = Rules.preset(preset)
    moves, tags = SANMA_SCENARIOS[name]
    game = start_hand(hands=KITA_HANDS, draws="9m", dora="9s", rules=rules)
    report = ref.play_and_compare(game, rules, np.random.default_rng(1), moves, 400)
    assert report.differences == [], "\n".join(report.differences[:10])
    missing = sorted(tags - set(report.seen))
    assert not missing, f"scenario never reached {missing}: {report.seen}"
