"""Compiled kernels of the mjai reader's fast path: lines, draws, discards and riichi.

:func:`lex_lines` splits a record's UTF-8 bytes into lines exactly as ``str.splitlines`` splits
its text and recognises the lines that are a draw (``tsumo``), a discard (``dahai``) or a riichi
(``reach``, ``reach_accepted``) written plainly: one flat JSON object with only the keys these
events have, any key order, no escapes, a single-digit seat and an mjai tile name; every other
line is left to ``json`` (kind ``LINE_OTHER``). :func:`run_plays` then gives each recognised line
its tile id as the checked reader would (the lowest unused id of the name for a draw; the tile
just drawn for a ``tsumogiri`` discard, else the seat's lowest id of the name) and stops at the
next line left to ``json``; the state it shares with the Python side is one int32 array
(``ST_*`` offsets).
"""

from __future__ import annotations

import numpy as np

from engine._numba import njit
from riichi_env.core.compiling import add_group

N_NAMES = 37
"""mjai tile names by index: tile34 0-33 (``1m`` … ``C``), then red ``5mr``, ``5pr``, ``5sr``."""

LINE_EMPTY, LINE_OTHER, LINE_TSUMO, LINE_DAHAI, LINE_TSUMOGIRI, LINE_REACH, LINE_ACCEPTED = range(7)
LINE_START = 7
"""Line kinds of :func:`lex_lines` (column 2 of its rows); ``LINE_START``: a four-player
``start_kyoku`` written plainly, its fields in a row of the second table ``lex_lines`` returns."""
START_WIDTH = 62
"""Columns of a ``start_kyoku`` row: bakaze (0-3 for E S W N), dora marker (name index), kyoku,
honba, kyotaku, oya, the four scores, the 52 tile names of the four hands."""

ST_NEXT = 0
"""Per name, how many of its ids are handed out in this hand (``N_NAMES`` entries)."""
ST_HELD = ST_NEXT + N_NAMES
"""Per seat and id (``seat * 136 + id``), 1 when the seat holds that tile."""
ST_LAST_DRAW = ST_HELD + 4 * 136
"""Per seat, the id it just drew and still holds, else -1 (4 entries)."""
ST_KAN_SEAT = ST_LAST_DRAW + 4
"""The seat whose next draw is a replacement draw (the last event but dora its kan or kita), -1."""
ST_DISCARD_SEAT = ST_KAN_SEAT + 1
"""Seat and id of the last discard (or kakan, kita) another seat may call; -1 -1."""
ST_DISCARD_TILE = ST_DISCARD_SEAT + 1
ST_IN_HAND = ST_DISCARD_TILE + 1
"""1 while a hand is running (draws, discards and riichi may come), else 0."""
ST_LAST_TILE = ST_IN_HAND + 1
"""The tile of the hand's last event when it is a draw, discard, kakan or kita, else -1."""
ST_ROWS = ST_LAST_TILE + 1
"""How many rows :func:`run_plays` and the Python side have written to the events' array."""
ST_IDS = ST_ROWS + 1
"""Per name, its ids in ascending order, -1 after the last (4 a name)."""
ST_NAME_OF = ST_IDS + 4 * N_NAMES
"""Per id, its name's index (136 entries)."""
ST_SIZE = ST_NAME_OF + 136

OP_DRAW, OP_RINSHAN, OP_DISCARD, OP_TSUMOGIRI, OP_RIICHI, OP_RIICHI_ACCEPTED, OP_EVENT = range(1, 8)
"""Row codes of compact events (``riichi_env.records.model``'s ``OP_*``, the same numbers: here
for the kernels, whose cache this file's contents key)."""

_KEY_TYPE, _KEY_ACTOR, _KEY_PAI, _KEY_TSUMOGIRI = 1, 2, 4, 8


@njit
def _separator(buf, i, n):
    """Length of the line break at ``buf[i]`` (``str.splitlines``' breaks in UTF-8), else 0."""
    b = buf[i]
    if b == 10 or b == 11 or b == 12 or b == 28 or b == 29 or b == 30:
        return 1
    if b == 13:
        return 2 if i + 1 < n and buf[i + 1] == 10 else 1
    if b == 0xC2:
        return 2 if i + 1 < n and buf[i + 1] == 0x85 else 0
    if b == 0xE2 and i + 2 < n and buf[i + 1] == 0x80 and (buf[i + 2] in (0xA8, 0xA9)):
        return 3
    return 0


@njit
def _skip_space(buf, p, b):
    while p < b and (buf[p] == 32 or buf[p] == 9):
        p += 1
    return p


@njit
def _word(buf, p, b, word):
    """``p`` after ``word`` (bytes) at ``p``, else -1."""
    m = len(word)
    if p + m > b:
        return -1
    for k in range(m):
        if buf[p + k] != word[k]:
            return -1
    return p + m


_TSUMO = np.frombuffer(b'"tsumo"', dtype=np.uint8)
_DAHAI = np.frombuffer(b'"dahai"', dtype=np.uint8)
_REACH = np.frombuffer(b'"reach"', dtype=np.uint8)
_ACCEPTED = np.frombuffer(b'"reach_accepted"', dtype=np.uint8)
_K_TYPE = np.frombuffer(b'"type"', dtype=np.uint8)
_K_ACTOR = np.frombuffer(b'"actor"', dtype=np.uint8)
_K_PAI = np.frombuffer(b'"pai"', dtype=np.uint8)
_K_TSUMOGIRI = np.frombuffer(b'"tsumogiri"', dtype=np.uint8)
_START = np.frombuffer(b'"start_kyoku"', dtype=np.uint8)
_K_BAKAZE = np.frombuffer(b'"bakaze"', dtype=np.uint8)
_K_DORA = np.frombuffer(b'"dora_marker"', dtype=np.uint8)
_K_KYOKU = np.frombuffer(b'"kyoku"', dtype=np.uint8)
_K_HONBA = np.frombuffer(b'"honba"', dtype=np.uint8)
_K_KYOTAKU = np.frombuffer(b'"kyotaku"', dtype=np.uint8)
_K_OYA = np.frombuffer(b'"oya"', dtype=np.uint8)
_K_SCORES = np.frombuffer(b'"scores"', dtype=np.uint8)
_K_TEHAIS = np.frombuffer(b'"tehais"', dtype=np.uint8)
_WINDS = np.frombuffer(b"ESWN", dtype=np.uint8)
_TRUE = np.frombuffer(b"true", dtype=np.uint8)
_P_TYPE = np.frombuffer(b'{"type":"', dtype=np.uint8)
_P_TSUMO = np.frombuffer(b'tsumo","actor":', dtype=np.uint8)
_P_DAHAI = np.frombuffer(b'dahai","actor":', dtype=np.uint8)
_P_REACH = np.frombuffer(b'reach","actor":', dtype=np.uint8)
_P_ACCEPTED = np.frombuffer(b'reach_accepted","actor":', dtype=np.uint8)
_P_PAI = np.frombuffer(b',"pai":', dtype=np.uint8)
_P_TSUMOGIRI = np.frombuffer(b',"tsumogiri":', dtype=np.uint8)
_FALSE = np.frombuffer(b"false", dtype=np.uint8)
_HONORS = np.frombuffer(b"ESWNPFC", dtype=np.uint8)


@njit
def _tile_name(buf, p, b):
    """(index of the mjai tile name in quotes at ``p``, ``p`` after it), or (-1, -1)."""
    if p + 3 > b or buf[p] != 34:
        return -1, -1
    c = buf[p + 1]
    if buf[p + 2] == 34:
        for k in range(7):
            if c == _HONORS[k]:
                return 27 + k, p + 3
        return -1, -1
    if p + 4 > b or c < 49 or c > 57:
        return -1, -1
    s = buf[p + 2]
    suit = 0 if s == 109 else 1 if s == 112 else 2 if s == 115 else -1
    if suit < 0:
        return -1, -1
    if buf[p + 3] == 34:
        return suit * 9 + c - 49, p + 4
    if c == 53 and buf[p + 3] == 114 and p + 5 <= b and buf[p + 4] == 34:
        return 34 + suit, p + 5
    return -1, -1


@njit
def _classify_compact(buf, a, b):
    """:func:`_classify` of the lines written as this project and Mortal write them (``type``,
    ``actor``, ``pai``, ``tsumogiri`` in this order, no blanks), the most common layout."""
    p = _word(buf, a, b, _P_TYPE)
    if p < 0 or p >= b:
        return LINE_OTHER, 0, 0, -1
    c = buf[p]
    if c == 116:  # t
        kind = LINE_TSUMO
        p = _word(buf, p, b, _P_TSUMO)
    elif c == 100:  # d
        kind = LINE_DAHAI
        p = _word(buf, p, b, _P_DAHAI)
    elif c == 114:  # r
        kind = LINE_REACH
        q = _word(buf, p, b, _P_REACH)
        if q < 0:
            kind = LINE_ACCEPTED
            q = _word(buf, p, b, _P_ACCEPTED)
        p = q
    else:
        return LINE_OTHER, 0, 0, -1
    if p < 0 or p + 1 >= b or buf[p] < 48 or buf[p] > 51:
        return LINE_OTHER, 0, 0, -1
    seat = buf[p] - 48
    p += 1
    if kind in (LINE_REACH, LINE_ACCEPTED):
        return (kind, seat, 0, p + 1) if buf[p] == 125 else (LINE_OTHER, 0, 0, -1)
    p = _word(buf, p, b, _P_PAI)
    if p < 0:
        return LINE_OTHER, 0, 0, -1
    name, p = _tile_name(buf, p, b)
    if name < 0 or p >= b:
        return LINE_OTHER, 0, 0, -1
    if kind == LINE_DAHAI:
        p = _word(buf, p, b, _P_TSUMOGIRI)
        if p < 0 or p >= b:
            return LINE_OTHER, 0, 0, -1
        if buf[p] == 116:
            kind = LINE_TSUMOGIRI
            p = _word(buf, p, b, _TRUE)
        else:
            p = _word(buf, p, b, _FALSE)
        if p < 0 or p >= b:
            return LINE_OTHER, 0, 0, -1
    if buf[p] != 125:  # }
        return LINE_OTHER, 0, 0, -1
    return kind, seat, name, p + 1


@njit
def _classify(buf, a, b):
    """(kind, seat, name, end) of the draw, discard or riichi written plainly from ``a`` on (see
    the module docstring), ``end`` the offset after its closing brace; kind ``LINE_OTHER`` (and
    ``end`` -1) when there is none. ``b``: the end of ``buf``."""
    if a == b or buf[a] != 123:  # {
        return LINE_OTHER, 0, 0, -1
    kind, seat, name, end = _classify_compact(buf, a, b)
    if kind != LINE_OTHER:
        return kind, seat, name, end
    p = _skip_space(buf, a + 1, b)
    seen = 0
    typ = -1
    seat = -1
    name = -1
    tsumogiri = 0
    while True:
        if p + 1 >= b:
            return LINE_OTHER, 0, 0, -1
        c = buf[p + 1]  # the key's first letter tells which it can be
        if c == 116:  # t
            key = _KEY_TYPE if p + 2 < b and buf[p + 2] == 121 else _KEY_TSUMOGIRI  # y
            q = _word(buf, p, b, _K_TYPE if key == _KEY_TYPE else _K_TSUMOGIRI)
        elif c == 97:  # a
            key = _KEY_ACTOR
            q = _word(buf, p, b, _K_ACTOR)
        elif c == 112:  # p
            key = _KEY_PAI
            q = _word(buf, p, b, _K_PAI)
        else:
            return LINE_OTHER, 0, 0, -1
        if q < 0 or seen & key:
            return LINE_OTHER, 0, 0, -1
        seen |= key
        p = _skip_space(buf, q, b)
        if p >= b or buf[p] != 58:  # :
            return LINE_OTHER, 0, 0, -1
        p = _skip_space(buf, p + 1, b)
        if key == _KEY_TYPE:
            c = buf[p + 1] if p + 1 < b else 0
            if c == 116:  # t
                q = _word(buf, p, b, _TSUMO)
                typ = LINE_TSUMO
            elif c == 100:  # d
                q = _word(buf, p, b, _DAHAI)
                typ = LINE_DAHAI
            elif c == 114:  # r
                q = _word(buf, p, b, _REACH)
                typ = LINE_REACH
                if q < 0:
                    q = _word(buf, p, b, _ACCEPTED)
                    typ = LINE_ACCEPTED
            else:
                q = -1
            if q < 0:
                return LINE_OTHER, 0, 0, -1
        elif key == _KEY_ACTOR:
            if p >= b or buf[p] < 48 or buf[p] > 51:
                return LINE_OTHER, 0, 0, -1
            seat = buf[p] - 48
            q = p + 1
        elif key == _KEY_PAI:
            name, q = _tile_name(buf, p, b)
            if name < 0:
                return LINE_OTHER, 0, 0, -1
        else:
            tsumogiri = 1 if p < b and buf[p] == 116 else 0  # t
            q = _word(buf, p, b, _TRUE if tsumogiri else _FALSE)
            if q < 0:
                return LINE_OTHER, 0, 0, -1
        p = _skip_space(buf, q, b)
        if p >= b:
            return LINE_OTHER, 0, 0, -1
        if buf[p] == 44:  # ,
            p = _skip_space(buf, p + 1, b)
            continue
        if buf[p] != 125:  # }
            return LINE_OTHER, 0, 0, -1
        break
    p += 1
    if typ == LINE_TSUMO and seen == _KEY_TYPE | _KEY_ACTOR | _KEY_PAI:
        return LINE_TSUMO, seat, name, p
    if typ == LINE_DAHAI and (seen | _KEY_TSUMOGIRI) == 15:
        return LINE_TSUMOGIRI if tsumogiri else LINE_DAHAI, seat, name, p
    if typ in (LINE_REACH, LINE_ACCEPTED) and seen == _KEY_TYPE | _KEY_ACTOR:
        return typ, seat, 0, p
    return LINE_OTHER, 0, 0, -1


@njit
def _integer(buf, p, b):
    """(value, offset after it) of the JSON integer of at most nine digits at ``p``, else (0, -1)
    (a fraction, an exponent, a leading zero: -1 as well)."""
    negative = p < b and buf[p] == 45  # -
    if negative:
        p += 1
    if p >= b or buf[p] < 48 or buf[p] > 57:
        return 0, -1
    value = 0
    digits = 0
    while p < b and 48 <= buf[p] <= 57:
        if digits and value == 0:  # a leading zero
            return 0, -1
        value = 10 * value + buf[p] - 48
        digits += 1
        p += 1
        if digits > 9:
            return 0, -1
    if p < b and buf[p] in (46, 69, 101):  # . E e
        return 0, -1
    return -value if negative else value, p


@njit
def _start_line(buf, a, b, row):
    """Whether ``buf[a:b]`` is a four-player ``start_kyoku`` written plainly (one flat object with
    exactly its nine keys, in any order; plain integers, four scores, four hands of 13 mjai tile
    names); its fields then go to ``row`` (``START_WIDTH``)."""
    if buf[a] != 123:  # {
        return False
    p = _skip_space(buf, a + 1, b)
    seen = 0
    while True:
        if p + 4 >= b or buf[p] != 34:
            return False
        c = buf[p + 1]
        if c == 116:  # t
            key = 1 if buf[p + 2] == 121 else 256  # y: type, else tehais
            q = _word(buf, p, b, _K_TYPE if key == 1 else _K_TEHAIS)
        elif c == 98:  # b
            key = 2
            q = _word(buf, p, b, _K_BAKAZE)
        elif c == 100:  # d
            key = 4
            q = _word(buf, p, b, _K_DORA)
        elif c == 107:  # k
            key = 8 if buf[p + 4] == 107 else 32  # kyoku, kyotaku
            q = _word(buf, p, b, _K_KYOKU if key == 8 else _K_KYOTAKU)
        elif c == 104:  # h
            key = 16
            q = _word(buf, p, b, _K_HONBA)
        elif c == 111:  # o
            key = 64
            q = _word(buf, p, b, _K_OYA)
        elif c == 115:  # s
            key = 128
            q = _word(buf, p, b, _K_SCORES)
        else:
            return False
        if q < 0 or seen & key:
            return False
        seen |= key
        p = _skip_space(buf, q, b)
        if p >= b or buf[p] != 58:  # :
            return False
        p = _skip_space(buf, p + 1, b)
        if key == 1:
            p = _word(buf, p, b, _START)
        elif key == 2:
            if p + 3 > b or buf[p] != 34 or buf[p + 2] != 34:
                return False
            wind = -1
            for w in range(4):
                if buf[p + 1] == _WINDS[w]:
                    wind = w
            if wind < 0:
                return False
            row[0] = wind
            p += 3
        elif key == 4:
            name, p = _tile_name(buf, p, b)
            row[1] = name
        elif key in (128, 256):
            if buf[p] != 91:  # [
                return False
            p = _skip_space(buf, p + 1, b)
            for s in range(4):
                if s:
                    if p >= b or buf[p] != 44:  # ,
                        return False
                    p = _skip_space(buf, p + 1, b)
                if key == 128:
                    value, p = _integer(buf, p, b)
                    if p < 0:
                        return False
                    row[6 + s] = value
                else:
                    if p >= b or buf[p] != 91:
                        return False
                    p = _skip_space(buf, p + 1, b)
                    for t in range(13):
                        if t:
                            if p >= b or buf[p] != 44:
                                return False
                            p = _skip_space(buf, p + 1, b)
                        name, p = _tile_name(buf, p, b)
                        if name < 0:
                            return False
                        row[10 + 13 * s + t] = name
                        p = _skip_space(buf, p, b)
                    if p >= b or buf[p] != 93:  # ]
                        return False
                    p += 1
                p = _skip_space(buf, p, b)
            if p >= b or buf[p] != 93:
                return False
            p += 1
        else:  # kyoku, honba, kyotaku, oya
            value, p = _integer(buf, p, b)
            row[2 if key == 8 else 3 if key == 16 else 4 if key == 32 else 5] = value
        if p < 0:
            return False
        p = _skip_space(buf, p, b)
        if p >= b:
            return False
        if buf[p] == 44:  # ,
            p = _skip_space(buf, p + 1, b)
            continue
        return buf[p] == 125 and p + 1 == b and seen == 511  # } ending the line, every key


@njit(example=lambda x: (np.frombuffer(b"{}", dtype=np.uint8),))  # the reader's read-only bytes
def lex_lines(buf):
    """The lines of ``buf`` (those of ``str.splitlines`` of the decoded text): int32 (lines, 5),
    each line's start and end offsets, kind (``LINE_*``), seat and tile name index (for a
    ``LINE_START``: its row in the second array); and int32 (starts, ``START_WIDTH``), the fields
    of the ``LINE_START`` lines."""
    n = buf.shape[0]
    out = np.empty((n // 32 + 16, 5), dtype=np.int32)
    starts = np.empty((16, START_WIDTH), dtype=np.int32)
    n_starts = 0
    row = 0
    i = 0
    while i < n:
        kind, seat, name, end = _classify(buf, i, n)
        k = 0
        if kind != LINE_OTHER and end < n:
            k = _separator(buf, end, n)
            if k == 0:  # more after the brace: not a line of its own
                kind = LINE_OTHER
        if kind == LINE_OTHER:
            end = i
            while end < n:
                c = buf[end]
                if c >= 32 and c != 0xC2 and c != 0xE2:
                    end += 1
                    continue
                k = 1 if c == 10 else _separator(buf, end, n)
                if k:
                    break
                end += 1
            if end == i:
                kind = LINE_EMPTY
            else:
                if n_starts == starts.shape[0]:
                    grown = np.empty((2 * n_starts, START_WIDTH), dtype=np.int32)
                    grown[:n_starts] = starts
                    starts = grown
                if _start_line(buf, i, end, starts[n_starts]):
                    kind = LINE_START
                    name = n_starts
                    n_starts += 1
        if row == out.shape[0]:
            grown = np.empty((2 * row, 5), dtype=np.int32)
            grown[:row] = out
            out = grown
        out[row, 0] = i
        out[row, 1] = end
        out[row, 2] = kind
        out[row, 3] = seat
        out[row, 4] = name
        row += 1
        i = end + k
    return out[:row], starts[:n_starts]


@njit(
    example=lambda x: (
        np.zeros((1, 1), np.int32),
        np.int64(0),
        np.zeros(1, np.int32),
        np.zeros((1, 1), np.int32),
    )
)
def run_plays(lines, i, st, out):
    """Read lines from ``i`` up to the next one it does not read (``LINE_OTHER``,
    ``LINE_START``), whose index it returns (the number of lines at the end); -1 when a line
    cannot be read so (no hand running, no such tile, a ``tsumogiri`` of a tile not just drawn).
    Appends the ``(code, seat, tile)`` row of each event to ``out`` (``st[ST_ROWS]`` rows so far)
    and updates ``st``."""
    n = lines.shape[0]
    while i < n:
        kind = lines[i, 2]
        if kind in (LINE_OTHER, LINE_START):
            return i
        if kind == LINE_EMPTY:
            i += 1
            continue
        if st[ST_IN_HAND] == 0:
            return -1
        s = lines[i, 3]
        name = lines[i, 4]
        tile = -1
        if kind == LINE_TSUMO:
            k = st[ST_NEXT + name]
            if k >= 4:
                return -1
            tile = st[ST_IDS + 4 * name + k]
            if tile < 0:
                return -1
            st[ST_NEXT + name] = k + 1
            st[ST_HELD + 136 * s + tile] = 1
            code = OP_RINSHAN if st[ST_KAN_SEAT] == s else OP_DRAW
            st[ST_LAST_DRAW + s] = tile
        elif kind in (LINE_DAHAI, LINE_TSUMOGIRI):
            if kind == LINE_TSUMOGIRI:
                tile = st[ST_LAST_DRAW + s]
                if tile < 0 or st[ST_NAME_OF + tile] != name:
                    return -1
                code = OP_TSUMOGIRI
            else:  # the lowest id: the tile just drawn only when the seat holds no other copy
                for k in range(4):
                    t = st[ST_IDS + 4 * name + k]
                    if t >= 0 and st[ST_HELD + 136 * s + t]:
                        tile = t
                        break
                if tile < 0:
                    return -1
                code = OP_DISCARD
            st[ST_HELD + 136 * s + tile] = 0
            st[ST_LAST_DRAW + s] = -1
            st[ST_DISCARD_SEAT] = s
            st[ST_DISCARD_TILE] = tile
        elif kind == LINE_REACH:
            code = OP_RIICHI
        else:
            code = OP_RIICHI_ACCEPTED
        st[ST_KAN_SEAT] = -1
        st[ST_LAST_TILE] = tile
        row = st[ST_ROWS]
        out[row, 0] = code
        out[row, 1] = s
        out[row, 2] = tile
        st[ST_ROWS] = row + 1
        i += 1
    return n


@njit(example=lambda x: (np.zeros(1, np.int32), np.zeros(1, np.int32), np.int64(0)))
def deal(st, names, players):
    """A hand's deal: no tile handed out or held before it, then the lowest id of each name
    (``names``: int32 indices) in turn, the first 13 held by seat 0, the next 13 by seat 1, …
    (``players`` seats). -1 in place of an id when a name has none left (and the rest not
    dealt)."""
    st[:ST_LAST_DRAW] = 0
    ids = np.full(names.shape[0], -1, dtype=np.int32)
    for j in range(names.shape[0]):
        name = names[j]
        k = st[ST_NEXT + name]
        if k >= 4:
            return ids
        tile = st[ST_IDS + 4 * name + k]
        if tile < 0:
            return ids
        st[ST_NEXT + name] = k + 1
        seat = j // 13
        if seat < players:
            st[ST_HELD + 136 * seat + tile] = 1
        ids[j] = tile
    return ids


add_group(
    "records",
    "the record readers' kernels (mjai lines)",
    "5 to 15 s",
    lambda: [lex_lines, run_plays, deal],
)
