"""A tsumogiri bot in mjai.app's dialect, for tests: ``python app_bot.py MODE SEAT [LOG]``.

It reads one JSON array of events per line and answers every line: the drawn tile after its own
``tsumo``, ``{"type":"none"}`` otherwise (so it never calls or wins). It is built for seat SEAT,
as a bot on ``mjai.Bot(player_id)`` is, and exits with code 3 when ``start_game`` seats it
elsewhere. LOG, if given, is a file each input line is appended to. MODE: ``ok``; ``every3``
(answers ``none``, which is illegal there, at every third of its own draws in a game);
``chatty`` (answers its ``start_game`` line with a discard); ``chattyend`` (answers its
``end_game`` line with a discard); ``long3``, ``deep3``, ``digits3`` (at every third of its own
draws: its answer padded past 1 MiB with spaces, a line of 200,000 nested arrays, an answer with a
5,000-digit number); ``longnone`` (its ``{"type":"none"}`` to ``start_game`` padded past 1 MiB);
``silent`` (reads every line, answers none); ``stall5`` (answers until its fifth own draw, then
never again); ``slow2`` (at its second and fourth own draws of a game it sleeps ``APP_BOT_DELAY``
seconds, default 1.5, before answering); ``nomodule`` (exits at once with
``ModuleNotFoundError``).
"""

import json
import os
import sys
import time

mode, seat = sys.argv[1], int(sys.argv[2])
if mode == "nomodule":
    import loguru_that_is_not_installed  # noqa: F401
delay = float(os.environ.get("APP_BOT_DELAY", "1.5"))
stalled = False
log = open(sys.argv[3], "a", encoding="utf-8") if len(sys.argv) > 3 else None  # noqa: SIM115
draws = 0
for line in sys.stdin:
    if log is not None:
        log.write(line)
        log.flush()
    events = json.loads(line)
    last = events[-1]
    if mode == "silent" or stalled:
        continue
    answer = {"type": "none"}
    if last["type"] == "start_game":
        if last["id"] != seat:
            print(f"app_bot: started as seat {seat}, seated at {last['id']}", file=sys.stderr)
            sys.exit(3)
        draws = 0
        if mode == "chatty":
            answer = {"type": "dahai", "actor": seat, "pai": "1m", "tsumogiri": False}
    elif last["type"] == "end_game" and mode == "chattyend":
        answer = {"type": "dahai", "actor": seat, "pai": "1m", "tsumogiri": False}
    elif last["type"] == "tsumo" and last["actor"] == seat:
        draws += 1
        if mode == "stall5" and draws == 5:
            stalled = True
            continue
        if mode == "slow2" and draws in (2, 4):
            time.sleep(delay)
        if not (mode == "every3" and draws % 3 == 0):
            answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
        if draws % 3 == 0 and mode in ("long3", "deep3", "digits3"):
            text = {
                "long3": json.dumps(answer) + " " * (2 << 20),
                "deep3": "[" * 200_000 + "]" * 200_000,
                "digits3": json.dumps(answer)[:-1] + ', "n": ' + "9" * 5000 + "}",
            }[mode]
            print(text, flush=True)
            continue
    if mode == "longnone" and last["type"] == "start_game":
        print(json.dumps(answer) + " " * (2 << 20), flush=True)
        continue
    print(json.dumps(answer), flush=True)
