"""A bot that answers kita wrongly, for tests: ``python kita_bot.py MODE SEAT KITA DIALECT``.

KITA is the kita event type it answers with (``nukidora`` or ``kita``); DIALECT ``mjai`` (one
event per line, answered at its own draws only: seat it where its first decision is a draw) or
``mjaiapp`` (a JSON array of events per line, every line answered). At its own draw it answers a
kita and otherwise the drawn tile (tsumogiri), never calling or winning. MODE: ``illegal`` (the
kita when it holds no North: its dealt tiles and the drawn one, as it only ever discards the
drawn tile), ``wrongpai`` (a kita of ``"E"`` at every draw).
"""

import json
import sys

mode, seat, kita, dialect = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
north = False  # a North among its dealt tiles
for line in sys.stdin:
    data = json.loads(line)
    events = data if dialect == "mjaiapp" else [data]
    for ev in events:
        if ev["type"] == "start_kyoku":
            north = "N" in ev["tehais"][seat]
    last = events[-1]
    answer = {"type": "none"}
    if last["type"] == "tsumo" and last["actor"] == seat:
        answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
        if mode == "wrongpai":
            answer = {"type": kita, "actor": seat, "pai": "E"}
        elif mode == "illegal" and not north and last["pai"] != "N":
            answer = {"type": kita, "actor": seat, "pai": "N"}
    elif dialect == "mjai":
        continue
    print(json.dumps(answer), flush=True)
