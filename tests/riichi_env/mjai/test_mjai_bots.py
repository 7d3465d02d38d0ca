"""External bots over mjai: the protocol's mapping, the reference bot, misbehaving bots, the CLI;
four and three players.

Three players (issue 26): kita answers in both dialects (``nukidora``, ``kita``), the reference bot
in three-player games, mjai seats in three-player self-play and the arena. Mortal's libriichi (the
``mjai`` package) has no three-player events, so these games have no second referee: the reference
bot's games are checked against the in-process agent's, and the invariants (points, kita, seat 3
empty) against the engine's records.
"""

import io
import json
import sys

import numpy as np
import pytest
from mjai_helpers import APP_BOT, BAD_BOT, app_bot, check_answer_without_decision

from agents import EfficiencyAgent, RandomAgent
from engine.actions import KAN, KITA, N_ACTIONS, PASS, PON, PON_PLAIN, TSUMO, action_name
from engine.game import Game
from engine.harness.scenario import play, start_hand
from engine.rules import MAHJONGSOUL, MAHJONGSOUL_3P, TENHOU_3P, Rules
from riichi_env import selfplay
from riichi_env.batch.arena import arena
from riichi_env.cli.main import main
from riichi_env.mjai.bot import MjaiPlayer, WorldError
from riichi_env.mjai.protocol import action_to_answer, answer_to_action, seat_events
from riichi_env.mjai.seat import MjaiBot, MjaiBotError, game_events

REFERENCE = "python -m riichi_env.mjai.bot"
STARTUP = 900.0  # the reference bot may compile the engine's kernels on a cold cache
KITA_BOT = BAD_BOT.parent / "kita_bot.py"
PRESETS = {"mahjongsoul-3p": MAHJONGSOUL_3P, "tenhou-3p": TENHOU_3P}


def _logs(out):
    return [np.asarray(r) for r in out["records"]]


# ---------------------------------------------------------------------- the protocol


# per player count: Game's rules (four players: its default), the width of the mask, the kita
# dialects each answer is asked in (four players: the default), whether kita answers are seen
ROUND_TRIPS = {4: ((), 85, (None,), False), 3: ((MAHJONGSOUL_3P,), 86, ("nukidora", "kita"), True)}


@pytest.mark.parametrize(("players", "seed"), [(4, 0), (4, 1), (4, 2), (3, 0), (3, 1)])
def test_every_legal_action_round_trips_through_its_mjai_answer(players, seed):
    """action -> answer -> action is the identity for every legal action of every decision; with
    three players kita included, its answer in the dialect asked for."""
    rules, width, dialects, kita_seen = ROUND_TRIPS[players]
    game = Game(*rules, seed=seed)
    agent = RandomAgent(seed=seed)
    checked = kitas = 0
    while not game.done:
        mask = game.legal_mask().astype(np.int8)
        assert mask.shape == (width,)
        seat = game.actor
        for a in np.flatnonzero(mask):
            for dialect in dialects:
                given = () if dialect is None else (dialect,)
                answer = action_to_answer(int(a), game.state, 0, seat, *given)
                json.dumps(answer)  # plain JSON
                if a == KITA:
                    assert answer == {"type": dialect, "actor": seat, "pai": "N"}
                    kitas += 1
                back = answer_to_action(answer, game.state, 0, seat, mask)
                assert back == a, (action_name(int(a)), answer, action_name(back))
                checked += 1
        game.step(agent.act(None, mask))
    assert checked > 500
    assert (kitas > 0) == kita_seen


def test_red_five_calls_answer_with_the_tiles_they_take():
    """Seat 2 holds 0m 5m 5m when 5m is discarded: pon with the red, pon plain, or daiminkan."""
    game = start_hand(
        hands=["5m123456789p112s", "123789m456789s1z", "055m2223334446z", "19m19p339s555777z"],
        draws="3z",
    )
    play(game, "5m")
    assert game.actor == 2
    mask = game.legal_mask().astype(np.int8)
    answers = {a: action_to_answer(a, game.state, 0, 2) for a in (PON, PON_PLAIN, KAN + 4)}
    assert sorted(answers[PON]["consumed"]) == ["5m", "5mr"]
    assert answers[PON_PLAIN]["consumed"] == ["5m", "5m"]
    assert answers[KAN + 4]["type"] == "daiminkan"
    assert sorted(answers[KAN + 4]["consumed"]) == ["5m", "5m", "5mr"]
    for a, answer in answers.items():
        assert answer["target"] == 0 and answer["pai"] == "5m"
        assert answer_to_action(answer, game.state, 0, 2, mask) == a
    with pytest.raises(ValueError, match="does not hold"):
        answer_to_action({"type": "dahai", "pai": "5pr"}, game.state, 0, 2, mask)


def test_answers_that_are_wrong_say_what_is_wrong():
    game = Game(seed=5)
    mask = game.legal_mask().astype(np.int8)
    seat = game.actor
    st = game.state
    cases = [
        ([1, 2], "JSON object"),
        ({"pai": "1m"}, "JSON object"),
        ({"type": "fly"}, "unknown answer type 'fly'"),
        ({"type": "dahai"}, 'needs "pai"'),
        ({"type": "dahai", "pai": "0m"}, "not an mjai tile"),
        ({"type": "dahai", "pai": "1m", "actor": (seat + 1) % 4}, "plays seat"),
        ({"type": "none"}, "pass is illegal here; legal: discard"),
        ({"type": "pon", "pai": "1m", "consumed": ["1m"]}, "list of 2 tiles"),
        ({"type": "chi", "pai": "1m", "consumed": ["5m", "7m"]}, "make a run"),
        ({"type": "ankan", "consumed": ["1m", "1m", "1m", "2m"]}, "one kind"),
    ]
    for answer, message in cases:
        with pytest.raises(ValueError, match=message.replace("(", r"\(")):
            answer_to_action(answer, st, 0, seat, mask)


def test_a_seat_sees_only_its_own_hand_and_draws():
    out = selfplay("random", games=1, seed=3, records="events")
    events = game_events(out["records"][0], MAHJONGSOUL)
    for seat in range(4):
        seen = seat_events(events, seat)
        assert seen[0]["type"] == "start_game" and seen[0]["id"] == seat
        for ev in seen:
            if ev["type"] == "start_kyoku":
                for s, hand in enumerate(ev["tehais"]):
                    assert (hand == ["?"] * 13) == (s != seat)
            if ev["type"] == "tsumo":
                assert (ev["pai"] == "?") == (ev["actor"] != seat)
    assert events[-1]["type"] == "end_game"
    assert "id" not in events[0]  # the seat's copy is a copy


# ---------------------------------------------------------------------- the reference bot


def test_reference_bot_plays_exactly_the_in_process_games():
    """Four EfficiencyAgents over mjai (two workers) give the in-process event logs, row for row."""
    ref = selfplay(EfficiencyAgent(), games=2, seed=100, records="events", num_tables=1)
    bot = MjaiBot(REFERENCE, startup_timeout=STARTUP)
    out = selfplay(bot, games=2, seed=100, records="events", workers=2)
    assert out["results"] == ref["results"]
    for a, b in zip(_logs(ref), _logs(out), strict=True):
        np.testing.assert_array_equal(a, b)
    assert not bot._procs  # closed after the run


@pytest.mark.parametrize(
    "seat, opponents, rules", [(1, "random", "mahjongsoul"), (3, "greedy", "tenhou")]
)
def test_reference_bot_against_callers_and_kans(seat, opponents, rules):
    """Random and greedy opponents call, kan and win on kans: the bot's world keeps up."""
    seats = [opponents] * 4
    seats[seat] = EfficiencyAgent()
    ref = selfplay(seats, games=2, seed=40 + seat, records="events", num_tables=1, rules=rules)
    seats[seat] = MjaiBot(f"{REFERENCE} --rules {rules}", startup_timeout=STARTUP)
    out = selfplay(seats, games=2, seed=40 + seat, records="events", rules=rules)
    for a, b in zip(_logs(ref), _logs(out), strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("seed", [302, 305])
def test_reference_bot_follows_calls_on_a_riichi_declaration_tile(seed):
    """Games where another seat calls the bot's riichi tile (``reach_accepted`` comes between
    the ``dahai`` and the call): in-process, each answer is the move the seat then made."""
    seats = ["random"] * 4
    seats[2] = EfficiencyAgent()
    rows = selfplay(seats, games=1, seed=seed, records="events")["records"][0]
    events = seat_events(game_events(rows, MAHJONGSOUL), 2)
    player = MjaiPlayer()
    checked = 0
    for i, ev in enumerate(events):
        answer = player.react(ev)
        if answer is None or answer["type"] == "none":
            continue
        made = next(e for e in events[i + 1 :] if e.get("actor") == 2 or e["type"] == "ryukyoku")
        assert made["type"] == answer["type"] and made.get("pai") == answer.get("pai")
        checked += 1
    assert checked > 50
    assert any(e["type"] in ("chi", "pon") and e.get("target") == 2 for e in events)


def test_reference_bot_takes_a_json_list_of_events_per_line():
    """mjai.app's style: one line holds a list of events; the answer is to the last of them."""
    out = selfplay("random", games=1, seed=8, records="events")
    events = seat_events(game_events(out["records"][0], MAHJONGSOUL), 0)
    player = MjaiPlayer()
    answers = [player.react(ev) for ev in events[:3]]  # start_game, start_kyoku, dealer's tsumo
    assert answers[:2] == [None, None]
    assert answers[2]["type"] in ("dahai", "reach", "hora", "ankan", "ryukyoku")


def test_reference_bot_refuses_a_stream_it_cannot_follow():
    player = MjaiPlayer()
    with pytest.raises(WorldError, match="before start_game"):
        player.react({"type": "start_kyoku"})
    with pytest.raises(WorldError, match='"id"'):
        player.react({"type": "start_game"})
    with pytest.raises(WorldError, match="object"):
        player.react([1])


# ---------------------------------------------------------------------- misbehaving bots


@pytest.mark.parametrize(
    "mode, messages",
    [
        ("badjson", ["answered with invalid JSON", "{this is not json"]),
        ("illegal", ["answered with an illegal move", "pass is illegal here", '{"type": "none"}']),
        ("unknown", ["unknown answer type 'fly'"]),
        ("silent", ["no answer within 1 s"]),
        ("exit", ["exited with code 3 before answering", "crashing on purpose"]),
    ],
)
def test_a_misbehaving_bot_ends_the_run_with_its_message(mode, messages):
    bot = MjaiBot(
        [sys.executable, str(BAD_BOT), mode], name="bad", timeout=1.0, startup_timeout=1.0
    )
    with pytest.raises(MjaiBotError) as info:
        selfplay([bot, "random", "random", "random"], games=2, seed=0)
    text = str(info.value)
    assert text.startswith("mjai bot 'bad' (seat 0, table 0): ")
    assert 'last event sent: {"type":"tsumo","actor":0,' in text
    for m in messages:
        assert m in text, text
    assert not bot._procs  # every process ended


def test_a_bot_that_talks_out_of_turn_is_stopped():
    bot = MjaiBot([sys.executable, str(BAD_BOT), "chatty"], timeout=2.0, startup_timeout=5.0)
    with pytest.raises(MjaiBotError, match="no decision|illegal move"):
        selfplay(["random", bot, "random", "random"], games=1, seed=0)


def test_bot_arguments_are_checked():
    with pytest.raises(ValueError, match="empty"):
        MjaiBot("")
    with pytest.raises(TypeError, match="command"):
        MjaiBot(3)
    with pytest.raises(ValueError, match="timeout"):
        MjaiBot("x", timeout=0)
    bot = MjaiBot("/nonexistent/bot --flag", name="ghost")
    with pytest.raises(MjaiBotError, match="ghost.*cannot start"):
        selfplay([bot, "random", "random", "random"], games=1)
    with pytest.raises(ValueError, match="skip_forced"):
        selfplay([MjaiBot(REFERENCE), "random", "random", "random"], games=1, skip_forced=True)


# ---------------------------------------------------------------------- the arena CLI


def _strip_names(text: str) -> list[str]:
    lines = text.splitlines()
    first = json.loads(lines[0])
    first.pop("names")
    return [json.dumps(first), *lines[1:]]


# per player count: the seats beside the mjai one, the games (and record files), further options,
# what every record shows of the game or None (three players: the log's own kita dialect)
ARENA_SEATS = {
    4: ("random,random,random", 4, [], None),
    3: (
        "efficiency,simple",
        3,
        ["--rules", "mahjongsoul-3p", "--sanma-dialect", "kita"],
        '"type":"nukidora"',
    ),
}


@pytest.mark.parametrize("players", [4, 3])
def test_arena_with_an_mjai_seat_matches_the_in_process_agent(tmp_path, capsys, players):
    """The same duplicate games, stats and records with the reference bot over mjai and with
    efficiency-py (``riichi-env arena [--rules mahjongsoul-3p] --seats "mjai:...",...``)."""
    others, games, options, shown = ARENA_SEATS[players]
    runs = {}
    for label, spec in (("mjai", f"mjai:{REFERENCE}"), ("py", "efficiency-py")):
        log = tmp_path / label
        argv = ["arena", "--seats", f"{spec},{others}", "--games", str(games), "--seed", "7"]
        argv += ["--json", "--log", str(log), "--bot-startup-timeout", str(STARTUP), *options]
        assert main(argv) == 0
        doc = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        runs[label] = (doc, sorted(log.iterdir()))
    (doc_m, files_m), (doc_p, files_p) = runs["mjai"], runs["py"]
    assert doc_m["games"] == games and len(doc_m["agents"][0]["rank_counts"]) == players
    for a, b in zip(doc_m["agents"], doc_p["agents"], strict=True):
        assert {k: v for k, v in a.items() if k not in ("name", "seat_spec")} == {
            k: v for k, v in b.items() if k not in ("name", "seat_spec")
        }
    assert doc_m["agents"][0]["name"] == f"mjai:{REFERENCE}"
    assert doc_m["agents"][0]["bot_errors"] == 0
    assert [f.name for f in files_m] == [f.name for f in files_p] and len(files_m) == games
    for fm, fp in zip(files_m, files_p, strict=True):
        assert _strip_names(fm.read_text()) == _strip_names(fp.read_text())
    if shown is not None:
        assert any(shown in f.read_text() for f in files_m)


def test_arena_stops_cleanly_on_a_failing_bot(capsys):
    seat = f"mjai:{sys.executable} {BAD_BOT} silent"
    argv = ["arena", "--seats", f"random,{seat},random,random", "--games", "4"]
    assert main(argv + ["--bot-timeout", "1", "--bot-startup-timeout", "1"]) == 2
    err = capsys.readouterr().err
    assert "riichi-env arena: error: mjai bot" in err and "no answer within 1 s" in err


def test_arena_refuses_an_empty_mjai_seat(capsys):
    assert main(["arena", "--seats", "mjai:,random,random,random", "--games", "4"]) == 2
    assert "give the bot's command" in capsys.readouterr().err


def test_pass_and_tsumo_answers():
    """``none`` is a pass on a claim; ``hora`` on one's own turn is tsumo."""
    game = start_hand(
        hands=["123456789m1234p", "111222333444z5z", "555666777z1234s", "256789s1156789p"],
        draws="4p",
    )
    mask = game.legal_mask().astype(np.int8)
    assert mask[TSUMO]
    assert answer_to_action({"type": "hora"}, game.state, 0, 0, mask) == TSUMO
    assert action_to_answer(TSUMO, game.state, 0, 0) == {
        "type": "hora",
        "actor": 0,
        "target": 0,
        "pai": "4p",
    }
    assert action_to_answer(PASS, game.state, 0, 0) == {"type": "none"}


# ---------------------------------------------------------------------- seats and dialects

LATE = BAD_BOT.parent / "late_wrapper.py"


def _app(mode: str, *extra: str, **kw) -> MjaiBot:
    return app_bot(mode, *extra, timeout=5.0, startup_timeout=60.0, **kw)


def test_seat_field_is_the_seat_each_process_plays():
    """``{seat}``: one process per seat index, started with it, wherever duplicate play seats
    the bot (app_bot exits when start_game seats it elsewhere than its command says)."""
    bot = _app("ok")
    assert bot.argv_for(2)[-1] == "2" and bot.argv[-1] == "{seat}"
    out = arena([bot, "random", "random", "random"], games=4, seed=1, names=["app", "r", "r", "r"])
    assert out["agents"][0]["games"] == 4 and out["external_bots"]
    fixed = MjaiBot([sys.executable, str(APP_BOT), "ok", "0"], dialect="mjaiapp", timeout=5.0)
    with pytest.raises(MjaiBotError, match="started as seat 0, seated at 3"):
        arena([fixed, "random", "random", "random"], games=4, seed=1)


def test_mjaiapp_lines_are_the_events_since_the_seats_previous_line(tmp_path):
    """mjai.app's dialect: ``[start_game]`` alone, then a line at each decision and after each
    ``end_kyoku`` and ``end_game``; together they are the seat's events, each sent once."""
    log = tmp_path / "lines.jsonl"
    bot = _app("ok", str(log))
    out = selfplay(["random", bot, "random", "random"], games=1, seed=4, records="events")
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    events = seat_events(game_events(out["records"][0], MAHJONGSOUL), 1)
    assert [ev for line in lines for ev in line] == events
    assert lines[0] == [events[0]] and [ev["type"] for ev in lines[-1]] == ["end_game"]
    ends = [line[-1] for line in lines]
    assert sum(ev["type"] == "end_kyoku" for ev in ends) == out["results"][0]["hands"]
    own_draws = [ev for ev in events if ev["type"] == "tsumo" and ev["actor"] == 1]
    assert [ev for ev in ends if ev["type"] == "tsumo"] == own_draws  # each draw a decision
    offers = [ev for ev in ends if ev["type"] in ("dahai", "kakan")]
    assert offers and all(ev["actor"] != 1 for ev in offers)  # a claim it may make
    assert len(own_draws) + len(offers) + out["results"][0]["hands"] + 2 == len(lines)
    for line in lines:
        if line[-1]["type"] == "end_kyoku":
            assert line[-2]["type"] in ("hora", "ryukyoku")  # the hand's end comes first


def test_reference_bot_in_mjaiapp_dialect_plays_exactly_the_in_process_games():
    """The reference bot answers every JSON-array line: seated in mjai.app's dialect it plays
    the in-process agent's game, row for row."""
    ref = selfplay([EfficiencyAgent(), *["efficiency"] * 3], games=1, seed=100, records="events")
    bot = MjaiBot(REFERENCE, dialect="mjaiapp", startup_timeout=STARTUP)
    out = selfplay([bot, *["efficiency"] * 3], games=1, seed=100, records="events")
    assert out["results"] == ref["results"]
    np.testing.assert_array_equal(_logs(ref)[0], _logs(out)[0])


# ---------------------------------------------------------------------- bot errors


def _own_draws(rows, seat: int) -> int:
    return sum(
        ev["type"] == "tsumo" and ev["actor"] == seat for ev in game_events(rows, MAHJONGSOUL)
    )


@pytest.mark.parametrize("workers", [1, 2])
def test_substitute_plays_the_default_move_and_counts_it(workers):
    """app_bot ``every3`` answers none (illegal) at every third draw: with ``substitute`` the
    engine plays tsumogiri there, which is what the ``ok`` bot plays, so the games are the same
    and each game counts its errors at the bot's seat (with worker copies of the bot too)."""
    seats = ["random", None, "greedy", "random"]
    ok = selfplay(
        [_app("ok") if s is None else s for s in seats], games=2, seed=9, records="events"
    )
    bad = _app("every3")
    out = selfplay(
        [bad if s is None else s for s in seats],
        games=2,
        seed=9,
        records="events",
        workers=workers,
        bot_errors="substitute",
    )
    for a, b in zip(_logs(ok), _logs(out), strict=True):
        np.testing.assert_array_equal(a, b)
    for res, rows in zip(out["results"], _logs(out), strict=True):
        assert res["bot_errors"] == [0, _own_draws(rows, 1) // 3, 0, 0]
    assert all(r["bot_errors"] == [0, 0, 0, 0] for r in ok["results"])
    with pytest.raises(MjaiBotError, match="answered with an illegal move: pass is illegal"):
        selfplay([_app("every3") if s is None else s for s in seats], games=1, seed=9)


def test_substituted_errors_are_logged_first_as_a_warning(caplog):
    with caplog.at_level("INFO", logger="riichi_env.mjai.seat"):
        selfplay([_app("every3"), "random", "random", "random"], games=1, bot_errors="substitute")
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and len(caplog.records) > 1
    text = warnings[0].getMessage()
    assert "pass is illegal here" in text and "played discard" in text and "instead" in text


@pytest.mark.parametrize("dialect", ["mjai", "mjaiapp"])
def test_a_late_answer_is_dropped_and_the_next_ones_stay_in_step(dialect):
    """The reference bot's third line comes 3 s late (timeout 2 s; the lines after it wait
    behind it): one error, the default move, and every later answer answers its own decision."""
    late = [sys.executable, str(LATE), "3", "3", sys.executable, "-m", "riichi_env.mjai.bot"]
    seats = [*["efficiency"] * 3]
    bot = MjaiBot(late, dialect=dialect, timeout=2.0, startup_timeout=STARTUP)
    out = selfplay([*seats[:2], bot, seats[2]], games=1, seed=3, bot_errors="substitute")
    assert out["results"][0]["bot_errors"] == [0, 0, 1, 0]


def test_mjaiapp_output_where_the_seat_has_no_decision():
    """app_bot ``chatty`` answers its start_game line with a discard (``chattyend`` its end_game
    line): an error (stop), or one counted per game and ignored (substitute: the games are the
    ``ok`` bot's)."""
    check_answer_without_decision(_app, "chatty", 'something else than {"type":"none"}')
    # the same at the end of a game (game_over): counted in the game that ended
    with pytest.raises(MjaiBotError, match='last event sent: {"type":"end_game"'):
        selfplay(["random", _app("chattyend"), "random", "random"], games=1)
    out = selfplay(
        ["random", _app("chattyend"), "random", "random"], games=2, bot_errors="substitute"
    )
    assert [r["bot_errors"] for r in out["results"]] == [[0, 1, 0, 0]] * 2


def test_bot_errors_option_is_checked(capsys):
    with pytest.raises(ValueError, match="bot_errors must be 'stop' or 'substitute'"):
        selfplay("random", games=1, bot_errors="ignore")
    with pytest.raises(ValueError, match="bot_errors must be"):
        arena(["random"] * 4, games=4, bot_errors=True)
    with pytest.raises(ValueError, match="dialect must be 'mjai'"):
        MjaiBot("x", dialect="tenhou")
    with pytest.raises(SystemExit):
        main(["arena", "--games", "4", "--bot-errors", "skip"])
    assert "--bot-errors: invalid choice: 'skip'" in capsys.readouterr().err


# ---------------------------------------------------------------------- the reference bot's input


def _first_events():
    """Seat 0's first events of a game: start_game, start_kyoku, its tsumo, its dahai, ..."""
    out = selfplay("random", games=1, seed=8, records="events")
    return seat_events(game_events(out["records"][0], MAHJONGSOUL), 0)[:8]


def _run_reference(monkeypatch, capsys, events, *args):
    from riichi_env.mjai import bot as mjai_bot

    text = "".join(json.dumps(ev) + "\n" for ev in events)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    capsys.readouterr()  # what came before (a compile notice, say)
    code = mjai_bot.main(list(args))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def _changed(events, i, **fields):
    events = [dict(ev) for ev in events]
    events[i].update(fields)
    return events


@pytest.mark.parametrize(
    "case, message",
    [
        ("tile 9z", '{"type":"tsumo","actor":0,"pai":"9z"}: \'9z\' is not an mjai tile name'),
        ("tile QQ", '"pai":"QQ"}: \'QQ\' is not an mjai tile name'),
        ("not held", '"pai":"1s","tsumogiri":false}: the seat\'s hand holds no 1s'),
        ("actor string", '"actor":"0","pai":"C"}: "actor" must be a seat 0-3 (an integer), got'),
        ("two tsumo", '{"type":"tsumo","actor":0,"pai":"C"}: a tsumo of seat 0 while seat 0 has'),
    ],
)
def test_reference_bot_refuses_bad_events_in_one_line(monkeypatch, capsys, case, message):
    """Each bad event ends the bot with status 2 and one stderr line naming it: no traceback,
    no wrapped tile count, no other seat's move taken for its own, no second answer."""
    events = _first_events()
    assert events[2] == {"type": "tsumo", "actor": 0, "pai": "C"}
    assert events[3]["type"] == "dahai" and events[3]["actor"] == 0
    bad = {
        "tile 9z": _changed(events[:3], 2, pai="9z"),
        "tile QQ": _changed(events[:3], 2, pai="QQ"),
        "not held": _changed(events, 3, pai="1s", tsumogiri=False),
        "actor string": _changed(events[:3], 2, actor="0"),
        "two tsumo": [*events[:3], events[2]],
    }[case]
    code, out, err = _run_reference(monkeypatch, capsys, bad)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("mjai_bot: {") and message in err, err
    assert len(out) == (1 if case in ("not held", "two tsumo") else 0)  # the first draw only


def test_reference_bot_refuses_unknown_rules_in_one_line(monkeypatch, capsys):
    code, out, err = _run_reference(monkeypatch, capsys, [], "--rules", "nope")
    assert code == 2 and out == []
    assert err == (
        "mjai_bot: --rules 'nope': unknown rules preset 'nope'; choose from "
        "['mahjongsoul', 'tenhou', 'tenhou-2009']\n"
    )


def test_reference_bot_answers_every_json_list_line(monkeypatch, capsys):
    """mjai.app's dialect: a list line without a decision is answered none."""
    from riichi_env.mjai import bot as mjai_bot

    events = _first_events()
    lines = [[events[0]], events[1:3], [events[3]]]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    capsys.readouterr()
    assert mjai_bot.main([]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0] == {"type": "none"} and out[2] == {"type": "none"}
    assert out[1]["type"] == "dahai" and len(out) == 3


# ---------------------------------------------------------------------- the arena CLI's bot errors


def test_arena_cli_counts_bot_errors_per_seat_spec(capsys):
    spec = f"mjaiapp:{sys.executable} {APP_BOT} every3 {{seat}}"
    argv = ["arena", "--seats", f"{spec},random,greedy,random", "--games", "4", "--seed", "2"]
    assert main([*argv, "--bot-errors", "substitute", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= {"games", "draw_rate", "agents"}
    rows = {a["seat_spec"]: a for a in doc["agents"]}
    assert rows[spec]["bot_errors"] > 4 and rows["random"]["bot_errors"] == 0
    assert rows["greedy"]["bot_errors"] == 0
    assert main([*argv, "--bot-errors", "substitute"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].endswith("bot errors")
    assert table[2].startswith(spec) and table[2].split()[-1] == str(rows[spec]["bot_errors"])
    assert main([*argv]) == 2
    err = capsys.readouterr().err
    assert f"riichi-env arena: error: mjai bot '{spec}' (seat 0, table 0): answered with" in err
    assert main(["arena", "--seats", "greedy,random,random,random", "--games", "4"]) == 0
    assert "bot errors" not in capsys.readouterr().out  # no external bot: no column


def test_bot_errors_survive_pickled_copies_and_merged_chunks():
    """The Ray backend's path (``riichi_env.integrations.ray``): each chunk of games is played by an
    unpickled copy of the policies and the outputs are merged; the arena's counts are the same."""
    import pickle

    from riichi_env.integrations.ray import _merge

    def runner(policies, *, games, seed, **kwargs):
        outs = []
        for k in range(games):
            copies = pickle.loads(pickle.dumps(policies))
            outs.append(selfplay(copies, games=1, seed=seed + k, **kwargs))
        return _merge(outs, games, 0.0, [], [], [])

    seats = [_app("every3"), "random", "greedy", "random"]
    local = arena(seats, games=8, seed=5, bot_errors="substitute")
    out = arena(seats, games=8, seed=5, bot_errors="substitute", runner=runner)
    assert out["agents"] == local["agents"] and local["agents"][0]["bot_errors"] > 0


# ---------------------------------------------------------------------- three players only: the protocol


def _kita_game(seed: int) -> Game:
    """A three-player game played by random moves up to a decision where kita is legal."""
    game = Game(MAHJONGSOUL_3P, seed=seed)
    agent = RandomAgent(seed=seed)
    while not game.done:
        mask = game.legal_mask().astype(np.int8)
        if mask[KITA]:
            return game
        a = agent.act(None, mask)
        game.step(a if a != KITA else int(np.flatnonzero(mask)[0]))
    raise AssertionError("no kita offered")


def test_bad_kita_answers_say_what_is_wrong():
    game = _kita_game(3)
    seat, st = game.actor, game.state
    mask = game.legal_mask().astype(np.int8)
    assert answer_to_action({"type": "kita"}, st, 0, seat, mask) == KITA  # pai may be left out
    with pytest.raises(ValueError, match='a nukidora sets a North aside: "pai" must be "N"'):
        answer_to_action({"type": "nukidora", "pai": "E"}, st, 0, seat, mask)
    with pytest.raises(ValueError, match="is not an mjai tile name"):
        answer_to_action({"type": "kita", "pai": "9z"}, st, 0, seat, mask)
    without = mask.copy()
    without[KITA] = 0
    with pytest.raises(ValueError, match="kita is illegal here; legal: "):
        answer_to_action({"type": "nukidora", "pai": "N"}, st, 0, seat, without)
    with pytest.raises(ValueError, match=r"one of .*kakan, ryukyoku, nukidora, kita"):
        answer_to_action({"type": "fly"}, st, 0, seat, mask)
    # a four-player game knows no kita answer: the message it always gave
    four = Game(MAHJONGSOUL, seed=0)
    m4 = four.legal_mask().astype(np.int8)
    assert m4.shape == (N_ACTIONS,)
    with pytest.raises(ValueError, match="unknown answer type 'nukidora'; expected none or one"):
        answer_to_action({"type": "nukidora", "pai": "N"}, four.state, 0, four.actor, m4)
    with pytest.raises(ValueError, match="sanma_dialect"):
        action_to_answer(KITA, st, 0, seat, "kitadora")


@pytest.mark.parametrize("dialect", ["nukidora", "kita"])
def test_a_seat_sees_three_player_games_in_its_dialect(dialect):
    out = selfplay("efficiency", games=1, seed=2, records="events", rules="tenhou-3p")
    events = game_events(out["records"][0], TENHOU_3P, sanma_dialect=dialect)
    n = 4 if dialect == "nukidora" else 3
    kitas = [ev for ev in events if ev["type"] in ("nukidora", "kita")]
    assert kitas and all(ev["type"] == dialect and ev["pai"] == "N" for ev in kitas)
    for seat in range(3):
        seen = seat_events(events, seat)
        assert seen[0]["id"] == seat
        for i, ev in enumerate(seen):
            if ev["type"] == "start_kyoku":
                assert len(ev["scores"]) == len(ev["tehais"]) == n
                for s, hand in enumerate(ev["tehais"]):
                    assert (hand == ["?"] * 13) == (s != seat)
                if n == 4:
                    assert ev["scores"][3] == 0
            if ev["type"] == "tsumo":
                assert (ev["pai"] == "?") == (ev["actor"] != seat)
            if ev["type"] == dialect:  # the replacement draw follows
                assert seen[i + 1]["type"] in ("tsumo", "hora")


# ---------------------------------------------------------------------- the reference bot, 3 players


@pytest.mark.parametrize("preset", ["mahjongsoul-3p", "tenhou-3p"])
@pytest.mark.parametrize("dialect", ["nukidora", "kita"])
@pytest.mark.parametrize("given", [False, True])
def test_reference_bot_answers_each_move_the_agent_made(preset, dialect, given):
    """Fed each seat's events of the agent's own three-player games (with ``--rules`` or told
    from the events), every answer is the move the seat then made, kita in the dialect sent."""
    rules = PRESETS[preset]
    out = selfplay(EfficiencyAgent(), games=1, seed=11, rules=rules, records="events")
    events = game_events(out["records"][0], rules, sanma_dialect=dialect)
    kitas = 0
    for seat in range(3):
        seen = seat_events(events, seat)
        player = MjaiPlayer(rules=preset if given else None)
        checked = 0
        for i, ev in enumerate(seen):
            answer = player.react(ev)
            if answer is None or answer["type"] == "none":
                continue
            ends = ("hora", "ryukyoku")
            made = next(e for e in seen[i + 1 :] if e.get("actor") == seat or e["type"] in ends)
            if made["type"] == "hora" and made["actor"] != seat:
                continue  # another seat's ron came first
            assert made["type"] == answer["type"] and made.get("pai") == answer.get("pai")
            checked += 1
            kitas += answer["type"] == dialect
        assert checked > 30
        assert player.players == 3 and player.sanma_dialect == dialect
        assert player.rules.players == 3
    assert kitas > 0


def _first_hand(preset: str, dialect: str, seat: int = 0) -> list[dict]:
    rules = PRESETS[preset]
    out = selfplay("efficiency", games=1, seed=11, rules=rules, records="events")
    return seat_events(game_events(out["records"][0], rules, sanma_dialect=dialect), seat)


def test_reference_bot_refuses_what_contradicts_its_rules():
    three = _first_hand("mahjongsoul-3p", "kita")
    player = MjaiPlayer(rules="tenhou")
    player.react(three[0])
    with pytest.raises(WorldError, match="a three-player game, but the bot plays the rules 'ten"):
        player.react(three[1])
    four = seat_events(
        game_events(
            selfplay("random", games=1, seed=1, records="events")["records"][0], MAHJONGSOUL
        ),
        0,
    )
    player = MjaiPlayer(rules="tenhou-3p")
    player.react(four[0])
    with pytest.raises(
        WorldError, match="a four-player game, but the bot plays the rules 'tenhou-3p'"
    ):
        player.react(four[1])
    auto = MjaiPlayer()
    auto.react(four[0])
    auto.react(four[1])
    assert auto.players == 4 and auto.rules is MAHJONGSOUL
    # a kita in a four-player game, a kita of another tile, seat 3 acting with three players
    with pytest.raises(WorldError, match=r"a kita \(kita\) in a four-player game"):
        auto.react({"type": "kita", "actor": 0, "pai": "N"})
    nuki = _first_hand("mahjongsoul-3p", "nukidora")
    cases = [
        ({"type": "nukidora", "actor": 0, "pai": "E"}, 'sets a North aside: "pai" must be "N"'),
        ({"type": "tsumo", "actor": 3, "pai": "?"}, '"actor" is 3, the empty seat'),
    ]
    for bad, message in cases:
        player = MjaiPlayer()
        for ev in nuki[:3]:
            player.react(ev)
        with pytest.raises(WorldError, match=message):
            player.react(bad)
    player = MjaiPlayer()
    player.react({**nuki[0], "id": 3})
    with pytest.raises(WorldError, match="the bot's seat .* is 3"):
        player.react(nuki[1])
    with pytest.raises(WorldError, match="2m is not in a three-player wall"):
        player = MjaiPlayer()
        player.react(nuki[0])
        player.react(nuki[1])
        player.react({**nuki[2], "pai": "2m"})


def test_reference_bot_cli_plays_three_players_in_both_dialects(monkeypatch, capsys):
    """The bot's command line: three-player events in one line each, answered; ``--rules``
    of four players refuses them in one stderr line."""
    import io

    from riichi_env.mjai import bot as mjai_bot

    for dialect in ("nukidora", "kita"):
        events = _first_hand("tenhou-3p", dialect)[:3]
        text = "".join(json.dumps(ev) + "\n" for ev in events)
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        capsys.readouterr()
        assert mjai_bot.main(["--rules", "tenhou-3p"]) == 0
        out = capsys.readouterr().out.splitlines()
        assert len(out) == 1 and json.loads(out[0])["type"] in ("dahai", dialect, "hora")
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        assert mjai_bot.main(["--rules", "mahjongsoul"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "three-player game, but the bot plays the rules" in err


# ---------------------------------------------------------------------- seated over mjai, 3 players


@pytest.mark.parametrize("preset", ["mahjongsoul-3p", "tenhou-3p"])
@pytest.mark.parametrize("sanma_dialect", ["nukidora", "kita"])
@pytest.mark.parametrize("dialect", ["mjai", "mjaiapp"])
def test_reference_bot_seated_three_times_plays_the_in_process_games(
    preset, sanma_dialect, dialect
):
    """The reference bot in all three seats (both presets, both kita dialects, both seat
    dialects; with ``--rules`` or telling three players from the events): the event logs are
    the in-process agent's, row for row; the games finish, points are conserved and kita are
    declared."""
    rules = PRESETS[preset]
    given = (sanma_dialect == "nukidora") != (dialect == "mjai")
    bot_rules = f" --rules {preset}" if given else ""
    ref = selfplay(EfficiencyAgent(), games=2, seed=60, records="events", rules=rules)
    bot = MjaiBot(
        REFERENCE + bot_rules,
        dialect=dialect,
        sanma_dialect=sanma_dialect,
        startup_timeout=STARTUP,
    )
    out = selfplay(bot, games=2, seed=60, records="events", rules=rules)
    assert out["results"] == ref["results"]
    for a, b in zip(_logs(ref), _logs(out), strict=True):
        np.testing.assert_array_equal(a, b)
    kitas = 0
    for res, rows in zip(out["results"], _logs(out), strict=True):
        assert len(res["final_scores"]) == 3 and sorted(res["ranks"]) == [0, 1, 2]
        assert sum(res["points"]) == 3 * rules.start_points  # no sticks left after the game
        assert res["bot_errors"] == [0, 0, 0]
        events = game_events(rows, rules, sanma_dialect=sanma_dialect)
        kitas += sum(ev["type"] == sanma_dialect for ev in events)
        assert events[-1]["type"] == "end_game"
    assert kitas > 0
    assert not bot._procs


def _own_draws_3p(rows, rules: Rules, seat: int, without_north: bool) -> int:
    n, north = 0, False
    for ev in seat_events(game_events(rows, rules), seat):
        if ev["type"] == "start_kyoku":
            north = "N" in ev["tehais"][seat]
        elif ev["type"] == "tsumo" and ev["actor"] == seat:
            n += not (without_north and (north or ev["pai"] == "N"))
    return n


@pytest.mark.parametrize("dialect", ["mjai", "mjaiapp"])
@pytest.mark.parametrize(
    "mode, message",
    [
        ("illegal", "answered with an illegal move: kita is illegal here; legal: "),
        ("wrongpai", 'answered with an illegal move: a kita sets a North aside: "pai" must be'),
    ],
)
def test_a_bad_kita_answer_names_the_bot_seat_and_answer(dialect, mode, message):
    argv = [sys.executable, str(KITA_BOT), mode, "{seat}", "kita", dialect]
    bot = MjaiBot(argv, name="kb", dialect=dialect, sanma_dialect="kita", timeout=5.0)
    with pytest.raises(MjaiBotError) as info:
        selfplay([bot, "efficiency", "efficiency"], games=1, seed=1, rules="mahjongsoul-3p")
    text = str(info.value)
    assert text.startswith("mjai bot 'kb' (seat 0, table 0): "), text
    assert message in text and 'its answer: {"type": "kita", "actor": 0, "pai": ' in text
    assert not bot._procs


@pytest.mark.parametrize("mode", ["illegal", "wrongpai"])
def test_bad_kita_answers_are_substituted_and_counted(mode):
    """With ``substitute`` each bad kita becomes tsumogiri, what app_bot ``ok`` plays: the same
    games, and one error per such draw at the bot's seat."""
    seats = ["efficiency", None, "greedy"]

    def seated(bot, **kw):
        table = [bot if s is None else s for s in seats]
        return selfplay(table, games=2, seed=5, records="events", rules="tenhou-3p", **kw)

    ok = seated(app_bot("ok"))
    argv = [sys.executable, str(KITA_BOT), mode, "{seat}", "nukidora", "mjaiapp"]
    out = seated(MjaiBot(argv, dialect="mjaiapp", timeout=5.0), bot_errors="substitute")
    for a, b in zip(_logs(ok), _logs(out), strict=True):
        np.testing.assert_array_equal(a, b)
    for res, rows in zip(out["results"], _logs(out), strict=True):
        want = _own_draws_3p(rows, TENHOU_3P, 1, without_north=mode == "illegal")
        assert want > 0 and res["bot_errors"] == [0, want, 0]


def test_sanma_dialect_option_is_checked():
    with pytest.raises(ValueError, match="sanma_dialect must be 'nukidora'"):
        MjaiBot("x", sanma_dialect="mortal")
    bot = MjaiBot("x", sanma_dialect="kita")
    assert "sanma_dialect='kita'" in repr(bot)
    import copy
    import pickle

    assert copy.deepcopy(bot).sanma_dialect == "kita"
    assert pickle.loads(pickle.dumps(bot)).sanma_dialect == "kita"
    assert repr(MjaiBot("x")) == "MjaiBot('x', dialect='mjai')"


# ---------------------------------------------------------------------- the arena, 3 players


def test_arena_cli_checks_the_sanma_dialect(capsys):
    argv = ["arena", "--rules", "tenhou-3p", "--seats", "random,random,random"]
    with pytest.raises(SystemExit):
        main([*argv, "--sanma-dialect", "mortal"])
    assert "--sanma-dialect: invalid choice: 'mortal'" in capsys.readouterr().err
