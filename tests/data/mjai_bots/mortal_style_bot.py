"""A bot of the ``mjai`` package run the way Mortal's ``mortal.py <ID>`` runs, for tests.

``python mortal_style_bot.py NAME SEAT``: NAME is ``rulebase`` (``mjai.bot.rulebase.RulebaseBot``),
``riichi`` (``mjai.bot.riichibot.RiichiBot``) or ``tsumogiri`` (``mjai.Bot`` itself), built
with the fixed player id SEAT (libriichi's ``PlayerState(SEAT)``; ``start_game``'s ``id`` is
ignored). Mortal's dialect: one mjai event per input line, and an answer only when libriichi
says the seat can act. Seated anywhere but SEAT, libriichi fails at the first ``tsumo`` of that
seat and the process exits.
"""

import sys

from loguru import logger
from mjai import Bot
from mjai.bot.riichibot import RiichiBot
from mjai.bot.rulebase import RulebaseBot

logger.remove()  # RulebaseBot logs every discard; keep stderr for its errors
BOTS = {"rulebase": RulebaseBot, "riichi": RiichiBot, "tsumogiri": Bot}
bot = BOTS[sys.argv[1]](player_id=int(sys.argv[2]))
for line in sys.stdin:
    if not line.strip():
        continue
    answer = bot.react("[" + line.strip() + "]")  # libriichi's panic is no Exception: it exits
    if bot.action_candidate is not None and bot.action_candidate.can_act:
        print(answer, flush=True)
