"""Every case of the hand-score sample file scores exactly as expected: han, fu (not for yakuman
hands), the yaku list in its order, yakuman multiplier, limit, payments and winner_gain."""

import json
from pathlib import Path

import pytest

from engine.scoring.hand_score import SITUATIONAL_FLAGS, score_hand

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "hand-score-sample.jsonl"

_FLAGS = SITUATIONAL_FLAGS


def input_to_kwargs(inp: dict) -> dict:
    """A hand-score ``input`` object as ``score_hand`` keyword arguments."""
    kwargs = {
        "closed": inp["closed"],
        "win_tile": inp["win_tile"],
        "melds": [(m["type"], m["tiles"]) for m in inp.get("melds", [])],
        "win_type": inp["win_type"],
        "seat_wind": inp["seat_wind"],
        "round_wind": inp["round_wind"],
        "dora_indicators": inp.get("dora_indicators", []),
        "ura_dora_indicators": inp.get("ura_dora_indicators", []),
        "honba": inp.get("honba", 0),
        "kyotaku": inp.get("kyotaku", 0),
        "rules": inp.get("ruleset", "mahjongsoul"),
    }
    for name in _FLAGS:
        kwargs[name] = bool(inp.get(name, False))
    return kwargs


def comparable(result: dict) -> dict:
    """The fields the samples pin down (yaku in order); fu is dropped for yakuman hands."""
    if not result.get("valid"):
        return {"valid": False, "error": result.get("error")}
    out = dict(result)
    if result["yakuman_multiplier"]:
        out.pop("fu")
    return out


def _load():
    with SAMPLES.open() as f:
        return [json.loads(line) for line in f if line.strip()]


CASES = _load()


def test_sample_file_has_all_cases():
    assert len(CASES) == 1500


def test_every_sample_case_scores_as_expected():
    failures = []
    for case in CASES:
        got = score_hand(**input_to_kwargs(case["input"])).to_dict()
        if comparable(got) != comparable(case["expected"]):
            failures.append((case["id"], case["input"], got, case["expected"]))
    msg = "\n".join(f"{cid}: input={i}\n  got={g}\n  exp={e}" for cid, i, g, e in failures[:10])
    assert not failures, f"{len(failures)} of {len(CASES)} cases differ:\n{msg}"


@pytest.mark.nojit
def test_first_sample_cases_without_jit():
    for case in CASES[:5]:
        got = score_hand(**input_to_kwargs(case["input"])).to_dict()
        assert comparable(got) == comparable(case["expected"]), case["id"]
