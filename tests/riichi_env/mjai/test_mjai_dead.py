"""Bots that misbehave for good: a bot that stops answering is declared dead after
``max_timeouts`` timeouts in a row and ends the run (``substitute`` too), timeouts that are not
in a row are not counted against it, the progress line counts the errors, and a bot that dies for
want of a module is told which interpreter ran it."""

import os
import sys
import time

import pytest
from mjai_helpers import APP_BOT, BAD_BOT, app_bot

from riichi_env import compile as compile_kernels
from riichi_env import selfplay
from riichi_env.batch.arena import arena
from riichi_env.cli.main import main
from riichi_env.mjai.seat import (
    DEFAULT_MAX_TIMEOUTS,
    DEFAULT_STARTUP_TIMEOUT,
    DEFAULT_TIMEOUT,
    MjaiBot,
    MjaiBotError,
)


def test_a_bot_that_never_answers_ends_a_run_within_a_minute_by_default():
    """The defaults: the first answer's wait (start-up) and two more timeouts."""
    assert DEFAULT_STARTUP_TIMEOUT + (DEFAULT_MAX_TIMEOUTS - 1) * DEFAULT_TIMEOUT < 60
    bot = MjaiBot("x")
    assert (bot.timeout, bot.startup_timeout, bot.max_timeouts) == (10.0, 30.0, 3)


@pytest.mark.parametrize(
    "bot",
    [
        lambda: app_bot("silent", timeout=0.3, startup_timeout=0.6, name="silent"),
        lambda: MjaiBot(
            [sys.executable, str(BAD_BOT), "silent"],
            timeout=0.3,
            startup_timeout=0.6,
            name="silent",
        ),
    ],
    ids=["mjaiapp", "mjai"],
)
def test_a_never_answering_bot_is_declared_dead_in_substitute_mode(bot):
    compile_kernels("vector")  # first: the time limit is on the bot's waits, not on a compile
    start = time.monotonic()
    b = bot()
    with pytest.raises(MjaiBotError) as info:
        selfplay([b, "random", "random", "random"], games=2, bot_errors="substitute")
    assert time.monotonic() - start < 10  # 0.6 + 0.3 + 0.3 s of waiting, then the processes end
    text = str(info.value)
    assert text.startswith("mjai bot 'silent' (seat 0, table 0): declared dead after 3 timeouts")
    assert "(the last: no answer within 0.3 s)" in text and "--bot-max-timeouts" in text
    assert not b._procs


def test_a_bot_that_stops_answering_is_dead_after_max_timeouts():
    bot = app_bot("stall5", timeout=0.3, startup_timeout=30.0, max_timeouts=2, name="stall")
    with pytest.raises(MjaiBotError, match="declared dead after 2 timeouts in a row"):
        selfplay([bot, "random", "random", "random"], games=1, bot_errors="substitute")


def test_timeouts_that_are_not_in_a_row_do_not_kill(monkeypatch):
    """slow2 is late at its 2nd and 4th draws, answering in time in between: two errors, the
    game played to its end with max_timeouts=2."""
    monkeypatch.setenv("APP_BOT_DELAY", "2.0")
    bot = app_bot("slow2", timeout=1.5, startup_timeout=30.0, max_timeouts=2)
    out = selfplay([bot, "random", "random", "random"], games=1, bot_errors="substitute")
    assert out["results"][0]["bot_errors"] == [2, 0, 0, 0]


def test_the_arena_ends_with_the_message_and_the_progress_line_counts_errors(capsys):
    spec = f"mjaiapp:{sys.executable} {APP_BOT} stall5 {{seat}}"
    argv = ["arena", "--seats", f"{spec},random,random,random", "--games", "4"]
    argv += ["--bot-timeout", "0.3", "--bot-max-timeouts", "2", "--bot-errors", "substitute"]
    assert main([*argv, "--progress"]) == 2
    err = capsys.readouterr().err
    assert "riichi-env arena: error: mjai bot" in err and "declared dead after 2 timeouts" in err
    assert "bot error" in err.split("riichi-env arena: error")[0]  # the progress line
    assert main([*argv[:-6], "--bot-max-timeouts", "0"]) == 2
    assert "--bot-max-timeouts must be >= 1" in capsys.readouterr().err
    every3 = app_bot("every3")
    arena(
        [every3, "random", "greedy", "random"],
        games=4,
        seed=2,
        bot_errors="substitute",
        progress=True,
    )
    line = [x for x in capsys.readouterr().err.split("\n") if "arena:" in x][-1]
    draws = line.split("\r")[1:]
    assert draws[-1].startswith("arena: 4/4 games, ") and " bot errors, " in draws[-1]
    assert int(draws[-1].split(", ")[1].split()[0]) > 4
    assert main(["selfplay", "--games", "1", "--progress"]) == 0
    assert "bot error" not in capsys.readouterr().err  # no external bot: no count


def test_stop_mode_ends_at_the_first_timeout_and_names_the_start_up():
    bot = app_bot("silent", timeout=0.3, startup_timeout=0.5)
    with pytest.raises(MjaiBotError, match=r"no answer within 0\.5 s \(its first, start-up"):
        selfplay([bot, "random", "random", "random"], games=1)


def test_a_missing_module_gets_the_interpreter_hint(capsys):
    with pytest.raises(MjaiBotError) as info:
        selfplay([app_bot("nomodule"), "random", "random", "random"], games=1)
    text = str(info.value)
    assert (
        "ModuleNotFoundError" in text
        and "Hint: a bot command runs with whatever interpreter" in text
    )
    assert f"'python' in a bot command is riichi_env's own interpreter ({sys.executable})" in text
    spec = f"mjaiapp:python {APP_BOT} nomodule {{seat}}"
    assert main(["arena", "--seats", f"{spec},random,random,random", "--games", "4"]) == 2
    err = capsys.readouterr().err
    assert "No module named 'loguru_that_is_not_installed'" in err and "Hint:" in err
    other = MjaiBot([os.path.realpath(sys.executable) + "-not-ours", "x"])
    assert "its interpreter (" in other._hint("ModuleNotFoundError: No module named 'x'")
    assert MjaiBot("x")._hint("Traceback: ValueError") == ""


def test_max_timeouts_is_checked_and_survives_copies():
    import copy
    import pickle

    for bad in (0, -1, 1.5, True, "3"):
        with pytest.raises(ValueError, match="max_timeouts must be an int >= 1"):
            MjaiBot("x", max_timeouts=bad)
    bot = MjaiBot("x", max_timeouts=7)
    assert copy.deepcopy(bot).max_timeouts == 7 == pickle.loads(pickle.dumps(bot)).max_timeouts
