"""A bot of the ``mjai`` package run the way mjai.app runs a submission, for tests.

``python mjaiapp_bot.py NAME SEAT``: NAME is ``rulebase`` (``mjai.bot.rulebase.RulebaseBot``),
``riichi`` (``mjai.bot.riichibot.RiichiBot``) or ``tsumogiri`` (``mjai.Bot`` itself). The bot is
built with the fixed player id SEAT and runs its own ``start()`` loop: one JSON array of events
per input line, one answer per line (``{"type":"none"}`` when it has nothing to do).
"""

import sys

from loguru import logger
from mjai import Bot
from mjai.bot.riichibot import RiichiBot
from mjai.bot.rulebase import RulebaseBot

logger.remove()  # RulebaseBot logs every discard; keep stderr for its errors
BOTS = {"rulebase": RulebaseBot, "riichi": RiichiBot, "tsumogiri": Bot}
BOTS[sys.argv[1]](player_id=int(sys.argv[2])).start()
