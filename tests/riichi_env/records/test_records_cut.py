"""Records cut short (a game still running, a file cut between hands, inside a hand or inside an
element): every reader keeps what is there, the replay goes up to the cut, and the dataset gives
the rows of every hand before the cut and of the hand it stops inside, up to the cut.

The truncated records are cut here from the copied logs, at every element (mjlog) or line (mjai)
of some hands and inside elements, never stored.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from test_records_helpers import LOGS

from riichi_env.cli.main import main
from riichi_env.dataset.convert import DELTA_UNKNOWN, Converter
from riichi_env.records.convert import read_text
from riichi_env.records.replay import replay_game, rules_for

EXACT = ("obs", "mask", "action", "seat", "kind", "forced", "hand", "step", "perm")
"""The columns a cut record's rows share with the whole record's first rows."""


def _element_ends(text: str, fmt: str) -> list[int]:
    if fmt == "mjlog":
        return [m.end() for m in re.finditer(r"/>", text)]
    return [m.end() for m in re.finditer(r"\n", text)]


def _cuts(text: str, fmt: str, hands: tuple[int, int], every: int) -> list[int]:
    """Cut points: every element end from the start of hand ``hands[0]`` to that of
    ``hands[1]``, every ``every``-th elsewhere, and 7 characters into each of those elements."""
    start = "<INIT" if fmt == "mjlog" else '"start_kyoku"'
    starts = [m.start() for m in re.finditer(re.escape(start), text)]
    lo, hi = starts[hands[0]], starts[min(hands[1], len(starts) - 1)]
    ends = _element_ends(text, fmt)
    dense = [e for e in ends if lo <= e <= hi]
    sparse = ends[::every]
    inside = [e + 7 for e in ends[::every] if e + 7 < len(text)]
    return sorted(set(dense + sparse + inside))


@pytest.fixture(scope="module")
def conv() -> Converter:
    return Converter()


@pytest.mark.parametrize(
    ("name", "fmt", "hands"),
    [
        ("tenhou-mjlog/bug1.xml", "mjlog", (1, 3)),  # chi, pon, ron, riichi, exhaustive draw
        ("riichienv/tenhou_seed7.jsonl", "mjai", (8, 9)),  # a double ron in E4
    ],
)
def test_a_cut_record_gives_the_rows_of_the_whole_record_up_to_the_cut(conv, name, fmt, hands):
    """At every cut: the rows are the whole record's first rows (observation, mask, action ...);
    every hand finished before the cut keeps all its rows; the hand cut inside has
    ``hand_delta`` ``DELTA_UNKNOWN``; no claim on a discard the record stops after is a row."""
    text = (LOGS / name).read_text()
    whole = {k: v.copy() for k, v in conv.convert(read_text(text, source=name)).items()}
    checked = partial = 0
    for cut in _cuts(text, fmt, hands, every=9):
        try:
            game = read_text(text[:cut], source=f"{name}@{cut}", fmt=fmt)
        except ValueError as exc:
            assert "no hands" in str(exc) or "no start_game" in str(exc), exc
            continue
        if game.complete:  # cut after the game's end: the whole game
            continue
        assert game.complete is False and game.truncated, cut
        rows = conv.convert(game)
        n = len(rows["action"])
        for k in EXACT:
            assert np.array_equal(rows[k], whole[k][:n]), f"cut at {cut}: column {k}"
        done = [i for i, h in enumerate(game.hands) if h.finished]
        cut_hand = [i for i, h in enumerate(game.hands) if not h.finished]
        assert np.count_nonzero(np.isin(rows["hand"], done)) == np.count_nonzero(
            np.isin(whole["hand"], done)
        ), f"cut at {cut}: a finished hand lost rows"
        in_cut = np.isin(rows["hand"], cut_hand)
        assert (rows["hand_delta"][in_cut] == DELTA_UNKNOWN).all()
        assert np.array_equal(rows["hand_delta"][~in_cut], whole["hand_delta"][:n][~in_cut])
        assert (rows["final_rank"] == -1).all() and np.isnan(rows["final_score"]).all()
        checked += 1
        partial += bool(cut_hand) and in_cut.any()
    assert checked > 100 and partial > 50
    assert not conv.stats.illegal


def test_a_cut_record_replays_up_to_the_cut():
    """``replay_game`` of a record cut anywhere finds no difference (the whole record has none)."""
    text = (LOGS / "tenhou-mjlog" / "bug2.xml").read_text()
    for cut in _cuts(text, "mjlog", (2, 3), every=25):
        try:
            game = read_text(text[:cut], source=f"bug2.xml@{cut}")
        except ValueError:
            continue
        result = replay_game(game, rules_for(game, "auto"))
        assert result.ok, (cut, result.mismatches[:3])


def _ron_end(text: str) -> int:
    """The end of the first AGARI element of a ron (who != fromWho)."""
    for m in re.finditer(r"<AGARI [^>]*/>", text):
        who = re.search(r' who="(\d)"', m.group(0)).group(1)
        if re.search(r' fromWho="(\d)"', m.group(0)).group(1) != who:
            return m.end()
    raise AssertionError("no ron")


def test_a_ron_at_the_cut_is_left_out_as_a_second_ron_may_follow():
    """Tenhou writes one AGARI per winner: a file that ends right after a ron (or inside the next
    AGARI) may have lost a second one, so that hand's result is left out (its rows go up to the
    winning discard); a closing tag or the next hand's INIT says the result is whole."""
    text = (LOGS / "tenhou-mjlog" / "bug1.xml").read_text()
    end = _ron_end(text)
    for tail in ("", "<AGA"):
        game = read_text(text[:end] + tail, fmt="mjlog")
        assert not game.hands[-1].finished and "a second ron may have been cut off" in (
            game.truncated
        )
    for tail in ("</mjloggm>", "<INIT se"):
        game = read_text(text[:end] + tail, fmt="mjlog")
        assert game.hands[-1].finished and game.hands[-1].wins, tail
    # mjai: a hora with no end_kyoku after it
    lines = (LOGS / "riichienv" / "tenhou_seed7.jsonl").read_text().splitlines()
    ron = next(
        i
        for i, line in enumerate(lines)
        if '"hora"' in line and json.loads(line)["actor"] != json.loads(line)["target"]
    )
    game = read_text("\n".join(lines[: ron + 1]) + "\n", fmt="mjai")
    assert not game.hands[-1].finished and "a second ron may have been cut off" in game.truncated
    ended = next(i for i in range(ron, len(lines)) if '"end_kyoku"' in lines[i])
    game = read_text("\n".join(lines[: ended + 1]) + "\n", fmt="mjai")
    assert game.hands[-1].finished


def test_replay_convert_and_dataset_read_a_cut_file(tmp_path, capsys):
    """The commands take a cut record with a note, never a failure of the whole file."""
    text = (LOGS / "tenhou-mjlog" / "bug3.xml").read_text()
    cut = text.index("<INIT", text.index("<INIT", text.index("<INIT") + 1) + 1) + 900
    path = tmp_path / "running.xml"
    path.write_text(text[:cut])
    game = read_text(text[:cut])
    label = game.hands[-1].label
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: note: the record stops inside hand {label}" in out
    assert "(replayed up to there)" in out and f"{path}: 3 hands, 0 mismatched" in out
    assert main(["convert", str(path)]) == 0
    cap = capsys.readouterr()
    assert f"riichi-env convert: note: {path}: the record stops inside hand {label}" in cap.err
    events = [json.loads(line) for line in cap.out.splitlines()]
    assert events[-1]["type"] not in ("end_kyoku", "end_game")
    assert sum(e["type"] == "start_kyoku" for e in events) == 3
    assert main(["convert", "--to", "tenhou6", str(path)]) == 0
    cap = capsys.readouterr()
    assert f"hand {label} is left out" in cap.err and len(json.loads(cap.out)["log"]) == 2
    rows = Converter().convert(path)
    assert set(rows["hand"].tolist()) == {0, 1, 2}
    out_dir = tmp_path / "shards"
    assert main(["dataset", str(path), "--out", str(out_dir), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rows"] == len(rows["action"]) and doc["skipped"] == []
    assert doc["truncated"] == [{"file": str(path), "reason": game.truncated}]
    assert main(["dataset", str(path), "--out", str(out_dir), "--overwrite"]) == 0
    assert f"cut short  {path}: the record stops inside hand {label}" in capsys.readouterr().out


def _stop(text: str, cut: int) -> str:
    """The record up to ``cut`` (its owari taken out), then the game's end as a RYUUKYOKU with
    owari only."""
    owari = re.search(r' owari="[^"]*"', text).group(0)
    return text[:cut].replace(owari, "") + f"<RYUUKYOKU{owari} /></mjloggm>"


def test_a_game_stopped_by_an_owari_only_ryuukyoku_is_read(tmp_path, capsys):
    """Tenhou ends a game it stopped with ``<RYUUKYOKU owari="..." />`` and no ``sc``: inside a
    hand (that hand keeps its moves and has no result) or after one; the game is complete, with
    its final points, and gives rows."""
    text = (LOGS / "tenhou-mjlog" / "bug3.xml").read_text()
    last = text.rindex("<INIT")
    inside = _stop(text, text.index("<D", last + 600))
    game = read_text(inside, fmt="mjlog")
    note = game.truncated
    whole = read_text(text)
    assert game.complete and game.final_scores == whole.final_scores
    assert game.final_results == whole.final_results
    assert [h.finished for h in game.hands] == [True] * (len(whole.hands) - 1) + [False]
    assert game.truncated == (
        f"the game ends inside hand {game.hands[-1].label}, which has no result (a RYUUKYOKU "
        "with owari only: Tenhou stopped the game there)"
    )
    rows = Converter(strict=True).convert(game)
    last_hand = rows["hand"] == len(game.hands) - 1
    assert last_hand.any() and (rows["hand_delta"][last_hand] == DELTA_UNKNOWN).all()
    assert (rows["final_rank"] >= 0).all()
    assert replay_game(game, rules_for(game, "auto")).ok
    # after a hand's result (the last AGARI, its owari taken out): the game's end, hands whole
    game = read_text(_stop(text, text.index("/>", text.rindex("<AGARI")) + 2))
    assert game.complete and not game.truncated and all(h.finished for h in game.hands)
    assert game.final_scores == whole.final_scores
    assert replay_game(game, rules_for(game, "auto")).ok
    # before the first hand: nothing to read
    with pytest.raises(ValueError, match="the game ends before its first hand"):
        read_text(_stop(text, text.index("<INIT")))
    # riichi-env dataset keeps the rows and lists the note
    path = tmp_path / "stopped.xml"
    path.write_text(inside)
    assert main(["dataset", str(path), "--out", str(tmp_path / "out"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rows"] == len(rows["action"]) and not doc["skipped"]
    assert doc["truncated"] == [{"file": str(path), "reason": note}]


def test_an_mjai_game_that_ends_inside_a_hand_is_read():
    """mjai: ``end_game`` inside a hand (before its ``end_kyoku``) ends a stopped game."""
    lines = (LOGS / "riichienv" / "tenhou_seed7.jsonl").read_text().splitlines()
    last = max(i for i, line in enumerate(lines) if '"start_kyoku"' in line)
    text = "\n".join([*lines[: last + 20], lines[-1]]) + "\n"
    assert '"end_game"' in lines[-1]
    game = read_text(text, fmt="mjai")
    assert game.complete and not game.hands[-1].finished
    assert "the game ends inside hand" in game.truncated
    rows = Converter(rules="tenhou").convert(game)
    assert (rows["hand"] == len(game.hands) - 1).any()
