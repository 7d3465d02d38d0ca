"""``riichi-env score``: the readable one-hand form and the ``--jsonl`` stream."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from riichi_env.cli.main import main
from riichi_env.cli.score import format_result

ROOT = Path(__file__).parents[3]
CASES = ROOT / "tests" / "data" / "hand_score_cli_cases.jsonl"


def _run_jsonl(lines: list[str]) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "riichi_env", "score", "--jsonl"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def _same(got: dict, want: dict) -> bool:
    if want.get("yakuman_multiplier"):
        got = {**got, "fu": want["fu"]}  # fu is not compared for yakuman hands
    return got == want


def test_jsonl_stream_through_the_cli():
    """Sample lines in, one result per line out, in order; a malformed line does not stop it."""
    samples = CASES.read_text().splitlines()[:6]
    bad_field = json.loads(samples[0])["input"] | {"seat_wind": "X"}
    lines = [samples[0], "{this is not json", samples[1], json.dumps(bad_field), *samples[2:]]
    results = _run_jsonl(lines)
    assert len(results) == len(lines)
    assert results[1]["valid"] is False and results[1]["error"] == "invalid_input"
    assert results[1]["message"].startswith("line: not valid JSON")
    assert results[3] == {
        "valid": False,
        "error": "invalid_input",
        "message": results[3]["message"],
    }
    assert results[3]["message"].startswith("seat_wind: ")
    scored = [results[0], results[2], *results[4:]]
    for text, got in zip(samples, scored, strict=True):
        want = json.loads(text)["expected"]
        assert _same(got, want), (text, got)


def test_jsonl_accepts_bare_input_objects():
    line = json.loads(CASES.read_text().splitlines()[0])
    (got,) = _run_jsonl([json.dumps(line["input"])])
    assert _same(got, line["expected"])


def test_readable_output_lists_yaku(capsys):
    """The brief's example: 13 tiles plus --win; riichi, menzen tsumo and dora, dealer tsumo."""
    rc = main(["score", "123m456p789s1122z", "--win", "2z", "--tsumo", "--riichi", "--dora", "1m"])
    out = capsys.readouterr().out
    assert rc == 0
    for text in ("riichi", "menzen_tsumo", "dora", "1 han", "3 han 40 fu", "2,600 all"):
        assert text in out, out
    assert "winner gains 8,800" in out  # 3 x 2,600 + the winner's own riichi stick


def test_readable_output_with_melds_and_limits(capsys):
    rc = main(
        ["score", "234m66p11z", "--pon", "777z", "--chi", "456s", "--win", "1z", "--seat", "S"]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert "yakuhai_chun" in out and "round_wind_east" in out
    assert "2 han 30 fu" in out and "discarder pays 2,000" in out
    rc = main(
        ["score", "19m19p19s1234567z", "--win", "5z", "--tsumo", "--seat", "W", "--honba", "2"]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert "kokushi_musou_13_sided" in out and "double yakuman" in out and "2x yakuman" in out
    assert "dealer pays 32,200, each non-dealer 16,200" in out


def test_json_flag_and_exit_codes(capsys):
    args = ["score", "234567m234567p0s", "--win", "5s", "--riichi", "--kyotaku", "2"]
    assert main([*args, "--dora", "4s", "--ura", "1m", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["han"], result["fu"], result["limit"]) == (6, 40, "haneman")
    assert result["payments"] == {"ron": 18000} and result["winner_gain"] == 20000
    assert main(["score", "234m666p11z", "--pon", "999s", "--chi", "456s"]) == 1
    assert "no yaku" in capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        main(["score", "234m666p11z", "--pon", "999s", "--chi", "456s", "--seat", "X"])
    assert info.value.code == 2
    capsys.readouterr()
    assert main(["score", "234567m234567p0s", "--win", "5s", "--ippatsu"]) == 2
    assert "invalid input: ippatsu:" in capsys.readouterr().out
    assert main(["score", "234567m234567p0s"]) == 2  # one tile short and no --win
    assert "--win" in capsys.readouterr().err


def test_format_result_error_forms():
    assert format_result({"valid": False, "error": "not_agari"}) == "not a winning hand"
    text = format_result({"valid": False, "error": "invalid_input", "message": "closed: x"})
    assert text == "invalid input: closed: x"
