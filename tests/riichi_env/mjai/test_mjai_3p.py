"""mjai with three players (issue 26): kita answers in both dialects (``nukidora``, ``kita``),
the reference bot in three-player games, mjai seats in three-player self-play and the arena.

Mortal's libriichi (the ``mjai`` package) has no three-player events, so these games have no
second referee: the reference bot's games are checked against the in-process agent's, and the
invariants (points, kita, seat 3 empty) against the engine's records.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from agents import EfficiencyAgent, RandomAgent
from engine.actions import KITA, N_ACTIONS
from engine.game import Game
from engine.rules import MAHJONGSOUL, MAHJONGSOUL_3P, TENHOU_3P, Rules
from riichi_env import selfplay
from riichi_env.cli.main import main
from riichi_env.mjai.bot import MjaiPlayer, WorldError
from riichi_env.mjai.protocol import action_to_answer, answer_to_action, seat_events
from riichi_env.mjai.seat import MjaiBot, MjaiBotError, game_events

BOTS = Path(__file__).resolve().parent.parent.parent / "data" / "mjai_bots"
KITA_BOT = BOTS / "kita_bot.py"
APP_BOT = BOTS / "app_bot.py"
REFERENCE = "python -m riichi_env.mjai.bot"
STARTUP = 900.0  # the reference bot may compile the engine's kernels on a cold cache
PRESETS = {"mahjongsoul-3p": MAHJONGSOUL_3P, "tenhou-3p": TENHOU_3P}


def _logs(out):
    return [np.asarray(r) for r in out["records"]]


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


# ---------------------------------------------------------------------- the protocol


@pytest.mark.parametrize("seed", [0, 1])
def test_every_legal_three_player_action_round_trips_in_both_dialects(seed):
    """action -> answer -> action is the identity for every legal action of three-player games,
    kita included, its answer in the dialect asked for."""
    game = Game(MAHJONGSOUL_3P, seed=seed)
    agent = RandomAgent(seed=seed)
    kitas = 0
    while not game.done:
        mask = game.legal_mask().astype(np.int8)
        assert mask.shape == (86,)
        seat = game.actor
        for a in np.flatnonzero(mask):
            for dialect in ("nukidora", "kita"):
                answer = action_to_answer(int(a), game.state, 0, seat, dialect)
                json.dumps(answer)
                if a == KITA:
                    assert answer == {"type": dialect, "actor": seat, "pai": "N"}
                    kitas += 1
                assert answer_to_action(answer, game.state, 0, seat, mask) == a
        game.step(agent.act(None, mask))
    assert kitas > 0


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


# ---------------------------------------------------------------------- the reference bot


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


# ---------------------------------------------------------------------- seated over mjai


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


def _own_draws(rows, rules: Rules, seat: int, without_north: bool) -> int:
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
    ok_bot = MjaiBot([sys.executable, str(APP_BOT), "ok", "{seat}"], dialect="mjaiapp")
    ok = selfplay(
        [ok_bot if s is None else s for s in seats],
        games=2,
        seed=5,
        records="events",
        rules="tenhou-3p",
    )
    argv = [sys.executable, str(KITA_BOT), mode, "{seat}", "nukidora", "mjaiapp"]
    bad = MjaiBot(argv, dialect="mjaiapp", timeout=5.0)
    out = selfplay(
        [bad if s is None else s for s in seats],
        games=2,
        seed=5,
        records="events",
        rules="tenhou-3p",
        bot_errors="substitute",
    )
    for a, b in zip(_logs(ok), _logs(out), strict=True):
        np.testing.assert_array_equal(a, b)
    for res, rows in zip(out["results"], _logs(out), strict=True):
        want = _own_draws(rows, TENHOU_3P, 1, without_north=mode == "illegal")
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


# ---------------------------------------------------------------------- the arena


def _strip_names(text: str) -> list[str]:
    lines = text.splitlines()
    first = json.loads(lines[0])
    first.pop("names")
    return [json.dumps(first), *lines[1:]]


def test_arena_cli_with_an_mjai_seat_and_three_players(tmp_path, capsys):
    """``riichi-env arena --rules mahjongsoul-3p --seats "mjai:...",efficiency,simple``: the same
    duplicate games, stats and records as with ``efficiency-py`` in its place."""
    runs = {}
    for label, spec in (("mjai", f"mjai:{REFERENCE}"), ("py", "efficiency-py")):
        log = tmp_path / label
        argv = ["arena", "--rules", "mahjongsoul-3p", "--seats", f"{spec},efficiency,simple"]
        argv += ["--games", "3", "--seed", "7", "--json", "--log", str(log)]
        argv += ["--bot-startup-timeout", str(STARTUP), "--sanma-dialect", "kita"]
        assert main(argv) == 0
        doc = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        runs[label] = (doc, sorted(log.iterdir()))
    (doc_m, files_m), (doc_p, files_p) = runs["mjai"], runs["py"]
    assert doc_m["games"] == 3 and len(doc_m["agents"][0]["rank_counts"]) == 3
    for a, b in zip(doc_m["agents"], doc_p["agents"], strict=True):
        assert {k: v for k, v in a.items() if k not in ("name", "seat_spec")} == {
            k: v for k, v in b.items() if k not in ("name", "seat_spec")
        }
    assert doc_m["agents"][0]["bot_errors"] == 0
    assert [f.name for f in files_m] == [f.name for f in files_p] and len(files_m) == 3
    for fm, fp in zip(files_m, files_p, strict=True):
        assert _strip_names(fm.read_text()) == _strip_names(fp.read_text())
    assert any('"type":"nukidora"' in f.read_text() for f in files_m)  # the log's own dialect


def test_arena_cli_checks_the_sanma_dialect(capsys):
    argv = ["arena", "--rules", "tenhou-3p", "--seats", "random,random,random"]
    with pytest.raises(SystemExit):
        main([*argv, "--sanma-dialect", "mortal"])
    assert "--sanma-dialect: invalid choice: 'mortal'" in capsys.readouterr().err
