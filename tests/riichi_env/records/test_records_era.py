"""Which Tenhou rules a record was played under (docs/records.md, "Replay: which rules"): Tenhou
ends the game on the all-last dealer's tenpai (tenpai-yame) since June 2010, so a record that
shows an older date replays with ``tenhou-2009``. The date comes from a Tenhou log id (tenhou.net/6
``ref``, mjai ``start_game.log_id`` or the file name), else from an mjlog record's missing
``SHUFFLE`` element (written before August 2009); conversions to mjai keep both."""

from __future__ import annotations

import json
import shutil

import pytest
from test_records_helpers import LOGS

from riichi_env.records.convert import read_file, read_text, write_text
from riichi_env.records.model import find_log_id
from riichi_env.records.replay import explain_rules, record_preset, replay_game, tenhou_era
from riichi_env.records.tenhou6 import write_tenhou6

MJLOG = LOGS / "tenhou-mjlog"


def test_bug1_is_a_2009_game_and_replays_exactly():
    """bug1.xml (2009-02-20, no SHUFFLE element): at S4-1 the dealer is tenpai at the draw and
    first with 37,400 and the game goes on to S4-2. ``tenhou-2009`` replays it exactly; today's
    Tenhou preset (tenpai-yame) ends the game after S4-1."""
    game = read_file(MJLOG / "bug1.xml")
    assert game.mjlog_shuffle is False and game.log_id == ""
    s41 = next(h for h in game.hands if h.label == "S4-1")
    assert s41.draw is not None and s41.draw.tenpai == (3,)
    assert record_preset(game)[0] == "tenhou-2009"
    assert replay_game(game).ok
    result = replay_game(game, "tenhou")
    assert [m.what for m in result.mismatches] == ["the engine ended the game before this hand"]
    assert result.mismatched_hands == {"S4-2"}


@pytest.mark.parametrize(
    "name", ["example.xml", "pao.xml", "bug8.xml", "bug9.xml", "chip.xml", "ratio1.xml"]
)
def test_an_mjlog_with_a_shuffle_element_gets_todays_preset(name):
    game = read_file(MJLOG / name)
    assert game.mjlog_shuffle is True
    assert record_preset(game) == ("tenhou", "a Tenhou game: rules " + repr(game.rules_text))


@pytest.mark.parametrize(
    ("log_id", "preset", "played"),
    [
        ("2009022022gm-00a9-0000-cd94aac8", "tenhou-2009", "2009-02-20"),
        ("2010053123gm-00a9-0000-0123abcd", "tenhou-2009", "2010-05-31"),
        ("2010060100gm-00a9-0000-0123abcd", "tenhou", "2010-06-01"),
        ("2016090816gm-0019-0000-c1eeb04f", "tenhou", "2016-09-08"),
        ("2017020203gm-000b-2873-x84f6522d33b4", "tenhou", "2017-02-02"),
    ],
)
def test_a_log_id_in_the_file_name_dates_the_game(log_id, preset, played, tmp_path):
    """The log id decides before the SHUFFLE element does (bug1.xml has none)."""
    path = tmp_path / f"{log_id}.mjlog"
    shutil.copy(MJLOG / "bug1.xml", path)
    game = read_file(path)
    assert game.log_id == log_id
    name, why = tenhou_era(game)
    assert name == preset and f"log id {log_id}: played {played}" in why
    assert record_preset(game)[0] == preset
    assert explain_rules(game)[1].startswith(f"{preset} (a Tenhou game: rules '鳳南喰赤'; log id")


def test_find_log_id():
    assert find_log_id("x/2009022022gm-00a9-0000-cd94aac8.mjlog") == (
        "2009022022gm-00a9-0000-cd94aac8"
    )
    url = "http://tenhou.net/0/?log=2017020203gm-000b-2873-x84f6522d33b4&tw=2"
    assert find_log_id(url) == "2017020203gm-000b-2873-x84f6522d33b4"
    assert find_log_id("2017022505gm-000b-17959-8f97ed43") == "2017022505gm-000b-17959-8f97ed43"
    assert find_log_id("bug1.xml") == "" and find_log_id("12009022022gm-00a9-0000-cd94aac8") == ""


def test_tenhou6_ref_dates_the_game_and_is_written_back():
    game = read_file(LOGS / "tenhou6" / "ranked_game.json")
    assert game.log_id == "2019050417gm-0029-0000-4f2a8622"
    name, why = record_preset(game)
    assert name == "tenhou" and why.endswith(
        "log id 2019050417gm-0029-0000-4f2a8622: played 2019-05-04"
    )
    assert write_tenhou6(game)["ref"] == game.log_id
    data = json.loads((LOGS / "tenhou6" / "ranked_game.json").read_text())
    data["ref"] = "2009120112gm-0029-0000-4f2a8622"
    old = read_text(json.dumps(data), fmt="tenhou6")
    assert record_preset(old)[0] == "tenhou-2009"


def test_no_date_no_shuffle_fact_means_todays_preset():
    game = read_file(LOGS / "tenhou6" / "chankan.json")
    assert game.log_id == "" and game.mjlog_shuffle is None
    assert tenhou_era(game) == ("tenhou", "")


@pytest.mark.parametrize("name", ["bug1.xml", "example.xml"])
def test_mjai_output_keeps_what_dates_the_game(name):
    game = read_file(MJLOG / name)
    text = write_text(game, "mjai")
    start = json.loads(text.splitlines()[0])
    assert start["mjlog_shuffle"] is game.mjlog_shuffle
    back = read_text(text, fmt="mjai")
    assert back.mjlog_shuffle is game.mjlog_shuffle
    assert record_preset(back)[0] == record_preset(game)[0]
    game.log_id = "2009022022gm-00a9-0000-cd94aac8"
    back = read_text(write_text(game, "mjai"), fmt="mjai")
    assert back.log_id == game.log_id and record_preset(back)[0] == "tenhou-2009"
