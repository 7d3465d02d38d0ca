"""A misbehaving mjai bot for tests: ``python bad_bot.py MODE``; it misbehaves at its first draw.

MODE: ``badjson`` (answers text that is not JSON), ``illegal`` (answers ``none`` on its own turn),
``unknown`` (an answer type that does not exist), ``silent`` (never answers), ``exit`` (exits
with code 3 after a line on stderr), ``chatty`` (answers every event, asked or not), ``noread``
(stops reading its input).
"""

import json
import sys
import time

mode = sys.argv[1]
seat = -1
for line in sys.stdin:
    ev = json.loads(line)
    if mode == "chatty":
        print(json.dumps({"type": "none"}), flush=True)
        continue
    if ev["type"] == "start_game":
        seat = ev["id"]
        continue
    if ev["type"] != "tsumo" or ev["actor"] != seat:
        continue
    if mode == "badjson":
        print("{this is not json", flush=True)
    elif mode == "illegal":
        print(json.dumps({"type": "none"}), flush=True)
    elif mode == "unknown":
        print(json.dumps({"type": "fly", "actor": seat}), flush=True)
    elif mode == "silent":
        time.sleep(3600)
    elif mode == "exit":
        print("bad_bot: crashing on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
