"""Shared helpers of the mjai seat tests (no tests here): the test bots of ``tests/data/mjai_bots``
and the check of an answer where the seat has no decision."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from riichi_env import selfplay
from riichi_env.mjai.seat import MjaiBot, MjaiBotError

BOTS = Path(__file__).resolve().parents[2] / "data" / "mjai_bots"
APP_BOT = BOTS / "app_bot.py"
BAD_BOT = BOTS / "bad_bot.py"


def app_bot(mode: str, *extra: str, **kw) -> MjaiBot:
    """``app_bot.py`` in ``mode`` over mjai.app's dialect, one process per seat."""
    return MjaiBot([sys.executable, str(APP_BOT), mode, "{seat}", *extra], dialect="mjaiapp", **kw)


def check_answer_without_decision(app, mode: str, match: str) -> None:
    """``app(mode)`` at seat 0 answers a line where it has no decision: an ``MjaiBotError``
    matching ``match`` (stop), or one error counted per game (substitute), the games those of
    ``app("ok")``."""
    with pytest.raises(MjaiBotError, match=match):
        selfplay([app(mode), "random", "random", "random"], games=1)
    ok = selfplay([app("ok"), "random", "random", "random"], games=2, records="events")
    out = selfplay(
        [app(mode), "random", "random", "random"],
        games=2,
        records="events",
        bot_errors="substitute",
    )
    assert [r["bot_errors"] for r in out["results"]] == [[1, 0, 0, 0]] * 2
    for a, b in zip(ok["records"], out["records"], strict=True):
        np.testing.assert_array_equal(a, b)
