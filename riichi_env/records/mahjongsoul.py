"""Mahjong Soul's own game records (JSON): reading and writing.

A record as record viewers and downloader tools save it is ``{"head": …, "data": …}``. ``head``
holds the game's ``uuid``, ``config`` (``mode.mode``: 1 East, 2 South, 11 and 12 the same with
three players; ``mode.detail_rule``; ``meta.mode_id``, the ranked room), ``accounts`` (seat,
nickname) and ``result.players`` (each seat's ``part_point_1``, its final points, and
``total_point``, its final score times 1000). ``data`` is ``{"name": ".lq.GameDetailRecords",
"data": {"version": …, "actions": […]}}``: an action of ``type`` 1 holds ``result: {"name":
".lq.Record<Kind>", "data": {…}}``, the other types are user inputs and timing (skipped). The
older layout keeps the same name/data pairs as a list under ``records``. The kinds read:

- ``NewRound``: ``chang`` (round wind), ``ju`` (dealer), ``ben`` (honba), ``liqibang``,
  ``scores``, ``tiles0``…``tiles3`` (the dealer's 14), ``doras``, ``paishan``;
- ``DealTile``, ``DiscardTile`` (``is_liqi``, ``is_wliqi``, ``moqie``), ``ChiPengGang``
  (``type`` 0 chi, 1 pon, 2 open kan; ``tiles`` with ``froms``), ``AnGangAddGang`` (``type`` 3
  closed kan, 2 added kan), ``BaBei`` (kita); a newly revealed kan dora comes as a longer
  ``doras`` list on one of these;
- ``Hule`` (``hules``: ``seat``, ``zimo``, ``hu_tile``, ``fans`` as ``{id, val}``, ``fu``,
  ``count``, ``yiman``, ``li_doras``, ``point_*``; ``delta_scores`` of the whole hand),
  ``NoTile`` (exhaustive draw: ``players[].tingpai``, ``scores[].delta_scores``,
  ``liujumanguan``), ``LiuJu`` (abortive draw, ``type`` 1 to 5).

Tiles are ``1m``…``9m``, ``1p``…, ``1s``…, ``1z``…``7z``; ``0m``, ``0p``, ``0s`` are red fives.

The wall (``paishan``, one string of 2-character tiles; 136 tiles, 108 with three players) lists
the deal first (four tiles to each seat from the dealer on, three times, then one each, then the
dealer's 14th), then the live wall in draw order; its end is the dead wall: replacement draws
from the last tile backwards (four with four players, eight with three), then dora indicators and
ura indicators in pairs (four players: dora at 131, 129, …, ura at 130, 128, …; three players:
dora at 99, 97, …, ura at 98, 96, …). Each replacement draw shortens the live wall by one. Records
from before mid-2023 leave the deal out of ``paishan`` (83 tiles, 68 with three players); the
deal then comes from ``tiles0``…``tiles3``. The reader turns the wall into ``Hand.wall`` (the
Tenhou layout with four players, the engine's with three, :mod:`riichi_env.records.wall`), checked
against the deal, every draw and every indicator; the writer writes one for every hand
(``build_wall`` fits one to a record without a wall).
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from engine.rules import MAHJONGSOUL
from engine.state import LIVE_END_3P, RINSHAN_START, SANMA_REMOVED, SANMA_UNUSED_SLOTS
from engine.tiles import red_ids, tile34_to_str
from riichi_env.records.model import (
    DORA_KEYS,
    NUKI_DORA,
    YAKUMAN_KEYS,
    Draw,
    Event,
    Game,
    Hand,
    RecordError,
    TileAllocator,
    Win,
    clip,
    hand_label,
    load_json,
    tile_text,
)
from riichi_env.records.wall import from_engine_wall, hand_wall, to_engine_wall

FAN_KEYS: dict[int, str] = {
    1: "menzen_tsumo",
    2: "riichi",
    3: "chankan",
    4: "rinshan_kaihou",
    5: "haitei_raoyue",
    6: "houtei_raoyui",
    7: "yakuhai_haku",
    8: "yakuhai_hatsu",
    9: "yakuhai_chun",
    10: "seat_wind",
    11: "round_wind",
    12: "tanyao",
    13: "iipeikou",
    14: "pinfu",
    15: "chanta",
    16: "ittsu",
    17: "sanshoku_doujun",
    18: "double_riichi",
    19: "sanshoku_doukou",
    20: "sankantsu",
    21: "toitoi",
    22: "sanankou",
    23: "shousangen",
    24: "honroutou",
    25: "chiitoitsu",
    26: "junchan",
    27: "honitsu",
    28: "ryanpeikou",
    29: "chinitsu",
    30: "ippatsu",
    31: "dora",
    32: "aka_dora",
    33: "ura_dora",
    34: NUKI_DORA,
    35: "tenhou",
    36: "chiihou",
    37: "daisangen",
    38: "suuankou",
    39: "tsuuiisou",
    40: "ryuuiisou",
    41: "chinroutou",
    42: "kokushi_musou",
    43: "shousuushii",
    44: "suukantsu",
    45: "chuuren_poutou",
    47: "junsei_chuuren_poutou",
    48: "suuankou_tanki",
    49: "kokushi_musou_13_sided",
    50: "daisuushii",
    59: "renhou",
}
"""Mahjong Soul fan id → our yaku key (``docs/records.md`` lists the table). 10 and 11 (the seat's
and the round's wind) become ``seat_wind_<wind>`` and ``round_wind_<wind>`` for the winner. Ids not
here (46 paarenchan and the local yaku of special modes) are kept as ``mahjongsoul_fan_<id>``,
which the engine never gives, so a replay names them as a yaku difference."""
FAN_IDS: dict[str, int] = {
    k: i for i, k in FAN_KEYS.items() if k not in ("seat_wind", "round_wind")
}
for _w in ("east", "south", "west", "north"):
    FAN_IDS[f"seat_wind_{_w}"] = 10
    FAN_IDS[f"round_wind_{_w}"] = 11
PAO_FANS = frozenset({37, 50})
"""Daisangen and daisuushii: the yakuman with liability (pao)."""
UNKNOWN_FAN = "mahjongsoul_fan_"

LIUJU_KINDS = {
    1: "kyuushu_kyuuhai",
    2: "suufon_renda",
    3: "suukaikan",
    4: "suucha_riichi",
    5: "sanchahou",
}
"""``RecordLiuJu.type`` → draw kind."""
LIUJU_TYPES = {v: k for k, v in LIUJU_KINDS.items()}

MODES = {1: (4, "tonpuusen"), 2: (4, "hanchan"), 11: (3, "tonpuusen"), 12: (3, "hanchan")}
"""``head.config.mode.mode`` → (players, game length)."""
MODE_OF = {v: k for k, v in MODES.items()}

_ROOMS = {1: "Bronze", 4: "Silver", 7: "Gold", 10: "Jade", 13: "Melee", 15: "Throne"}
ROOMS: dict[int, str] = {}
"""Ranked and casual lobbies' ``head.config.meta.mode_id`` → room name."""
for _first, _room in _ROOMS.items():
    for _i, _len in enumerate(
        ("East", "South") if _room in ("Melee", "Throne") else ("", "East", "South")
    ):
        if _len:
            ROOMS[_first + _i] = f"{_room} Room {_len}"
for _i, _room in enumerate(("Bronze", "Silver", "Gold", "Jade", "Throne")):
    ROOMS[17 + 2 * _i] = f"3-Player {_room} Room East"
    ROOMS[18 + 2 * _i] = f"3-Player {_room} Room South"
ROOMS.update(
    {
        29: "Casual Match East",
        30: "Casual Match South",
        31: "3-Player Casual Match East",
        32: "3-Player Casual Match South",
    }
)

SPECIAL_MODES = (
    "chuanma",
    "xuezhandaodi",
    "huansanzhang",
    "guyi_mode",
    "dora3_mode",
    "muyu_mode",
    "jiuchao_mode",
    "field_spell_mode",
    "zhanxing",
    "tianming_mode",
    "yongchang_mode",
    "hunzhiyiji_mode",
    "wanxiangxiuluo_mode",
    "beishuizhizhan_mode",
)
"""``detail_rule`` switches of event modes whose rules the engine does not play; a record with one
set is refused (its record kinds would be too)."""

KINDS = (
    "NewRound",
    "DealTile",
    "DiscardTile",
    "ChiPengGang",
    "AnGangAddGang",
    "BaBei",
    "Hule",
    "NoTile",
    "LiuJu",
)
ENDS = ("Hule", "NoTile", "LiuJu")
WALL_SIZE = {4: 136, 3: 108}
N_LIVE = {4: 70, 3: 55}
"""Live draws (the dealer's first included) before any replacement draw."""
N_REPLACEMENTS = {4: 4, 3: 8}


# ----------------------------------------------------------------------------- wall layout


def deal_positions(players: int) -> list[list[int]]:
    """Paishan positions of the 13 dealt tiles of the dealer (index 0) and each seat after it."""
    pos: list[list[int]] = [[] for _ in range(players)]
    i = 0
    for rnd in range(4):
        for rel in range(players):
            n = 4 if rnd < 3 else 1
            pos[rel].extend(range(i, i + n))
            i += n
    return pos


def live_position(players: int, j: int) -> int:
    """Paishan position of live draw ``j`` (0: the dealer's 14th tile)."""
    return 13 * players + j


def replacement_position(players: int, r: int) -> int:
    """Paishan position of replacement draw ``r`` (kans and kita together): from the end."""
    return WALL_SIZE[players] - 1 - r


def dora_position(players: int, i: int) -> int:
    """Paishan position of dora indicator ``i`` (its ura indicator is the one before it)."""
    return WALL_SIZE[players] - (5 if players == 4 else 9) - 2 * i


def _engine_replacement_slot(players: int, r: int) -> int:
    if players == 4 or r < 4:
        return RINSHAN_START + r
    return LIVE_END_3P - 1 - (r - 4)


def _pairs(players: int, k: int) -> list[tuple[int, int]]:
    """(paishan position, engine slot) of every tile a hand with ``k`` replacement draws can
    reveal, in priority order (a later pair whose position or slot is taken is left out)."""
    out = []
    for rel, positions in enumerate(deal_positions(players)):
        out += [(p, 13 * rel + j) for j, p in enumerate(positions)]
    live = N_LIVE[players] - (0 if players == 4 else k)
    out += [(live_position(players, j), 52 + j) for j in range(live)]
    kmax = N_REPLACEMENTS[players] if players == 4 else k
    out += [
        (replacement_position(players, r), _engine_replacement_slot(players, r))
        for r in range(kmax)
    ]
    for i in range(5):
        out.append((dora_position(players, i), 126 + i))
        out.append((dora_position(players, i) - 1, 131 + i))
    return out


def paishan_to_engine(ids: list[int], players: int, k: int) -> list[int]:
    """A hand's wall in the engine's layout from its paishan (physical ids by paishan position),
    for a hand with ``k`` replacement draws (with three players the engine takes the fifth to
    eighth from the live wall's end, so which tile goes where depends on ``k``)."""
    eng = [-1] * 136
    taken = [False] * len(ids)
    for p, slot in _pairs(players, k):
        if not taken[p] and eng[slot] < 0:
            eng[slot], taken[p] = ids[p], True
    if players == 3:
        for slot, t in zip(SANMA_UNUSED_SLOTS, SANMA_REMOVED, strict=True):
            eng[slot] = t
    rest = iter(ids[p] for p in range(len(ids)) if not taken[p])
    return [t if t >= 0 else next(rest) for t in eng]


def engine_to_paishan(eng: list[int], players: int, k: int) -> list[int]:
    """The inverse of :func:`paishan_to_engine` for the tiles the hand reveals."""
    ids = [-1] * WALL_SIZE[players]
    used = [False] * 136
    for p, slot in _pairs(players, k):
        if ids[p] < 0 and not used[slot]:
            ids[p], used[slot] = eng[slot], True
    removed = set(SANMA_REMOVED) if players == 3 else set()
    placed = set(t for t in ids if t >= 0)
    rest = iter(t for t in eng if t not in placed and t not in removed)
    return [t if t >= 0 else next(rest) for t in ids]


# ------------------------------------------------------------------------------- tiles


_TILES: dict[str, tuple[int, bool]] = {
    **{f"{n}{suit}": (9 * i + n - 1, False) for i, suit in enumerate("mps") for n in range(1, 10)},
    **{f"0{suit}": (9 * i + 4, True) for i, suit in enumerate("mps")},
    **{f"{n}z": (26 + n, False) for n in range(1, 8)},
}


def parse_tile(text) -> tuple[int, bool]:
    """(tile34, is_red) of a Mahjong Soul tile (``"5m"``, ``"0p"``, ``"7z"``); ``ValueError``."""
    found = _TILES.get(text) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"{clip(repr(text), 40)} is not a Mahjong Soul tile (1m-9m, 0m, …, 1z-7z)")
    return found


def tile_name(tile136: int, red: frozenset[int]) -> str:
    """Mahjong Soul text of a physical tile (``0`` for a red five)."""
    return tile_text(tile136, red)


def _kind_name(kind: int, is_red: bool) -> str:
    return f"0{'mps'[kind // 9]}" if is_red else tile34_to_str(kind)


# ----------------------------------------------------------------------------- reading


def read_mahjongsoul(text_or_obj, *, source: str = "") -> Game:
    """Parse a Mahjong Soul record (JSON text or an already-loaded object) into a :class:`Game`."""
    return _Reader(load_json(text_or_obj, source), source).game


class _Reader:
    """One record's reading state; ``game`` is the result."""

    def __init__(self, data, source: str):
        self.source = source
        if not isinstance(data, dict) or "head" not in data or "data" not in data:
            self.fail('not a Mahjong Soul record: expected {"head": …, "data": …}', "")
        head = data["head"]
        if not isinstance(head, dict):
            self.fail('"head" must be an object', "head")
        actions, self.list_name = self._actions(data["data"])
        self.players, length, rules_text, red_config = self._config(head, actions)
        self.game = Game(
            hands=[],
            names=self._names(head),
            game_length=length,
            source=source,
            rules_text=rules_text,
            format="mahjongsoul",
            players=self.players,
        )
        self.game.record_id = str(head.get("uuid") or "")
        self.game.red_fives = self._red_fives(actions, red_config)
        self.red = frozenset(red_ids(self.game.red_fives))
        self._read_hands(actions)
        self._result(head)

    # ---- errors and fields

    def fail(self, msg: str, position: str, hand: str = ""):
        raise RecordError(msg, file=self.source, hand=hand, position=position)

    def _actions(self, data) -> tuple[list[tuple[int, str, dict]], str]:
        """(index in its list, kind without ``.lq.Record``, payload) of every record."""
        if isinstance(data, dict) and "name" in data and isinstance(data.get("data"), dict):
            data = data["data"]
        if not isinstance(data, dict):
            self.fail('"data" must be an object with "actions" or "records"', "data")
        if isinstance(data.get("actions"), list) and data["actions"]:
            name, items = "actions", data["actions"]
        elif isinstance(data.get("records"), list) and data["records"]:
            name, items = "records", data["records"]
        else:
            self.fail('"data" has no "actions" or "records" list (or it is empty)', "data")
        out = []
        for i, item in enumerate(items):
            where = f"{name}[{i}]"
            if not isinstance(item, dict):
                self.fail(f"an entry must be an object, got {type(item).__name__}", where)
            if name == "actions":
                if item.get("type", 0) != 1:
                    continue  # user inputs, timing
                item = item.get("result")
                if item is None:
                    self.fail('an action of type 1 has no "result"', where)
            if isinstance(item, str):
                self.fail(
                    "undecoded protobuf bytes: save the record with its records decoded to "
                    "name/data objects",
                    where,
                )
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                self.fail('a record must be {"name": ".lq.Record…", "data": {…}}', where)
            kind = item["name"].removeprefix(".lq.").removeprefix("Record")
            payload = item.get("data", {})
            if isinstance(payload, str):
                self.fail(
                    f"{item['name']}: undecoded protobuf bytes: save the record with its records "
                    "decoded to name/data objects",
                    where,
                )
            if not isinstance(payload, dict):
                self.fail(f'{item["name"]}: "data" must be an object', where)
            if kind not in KINDS:
                self.fail(
                    f"unknown record kind {clip(item['name'], 60)!r} (read: "
                    f"{', '.join('.lq.Record' + k for k in KINDS)}; special modes are not played)",
                    where,
                )
            out.append((i, kind, payload))
        if not out:
            self.fail(f'"{name}" holds no game records', "data")
        return out, name

    def _config(self, head: dict, actions) -> tuple[int, str, str, tuple | None]:
        config = head.get("config") or {}
        if not isinstance(config, dict):
            self.fail('"config" must be an object', "head.config")
        mode = config.get("mode") or {}
        meta = config.get("meta") or {}
        if not isinstance(mode, dict) or not isinstance(meta, dict):
            self.fail('"mode" and "meta" must be objects', "head.config")
        detail = mode.get("detail_rule") or {}
        if not isinstance(detail, dict):
            self.fail('"detail_rule" must be an object', "head.config.mode.detail_rule")
        for key in SPECIAL_MODES:
            if detail.get(key):
                self.fail(
                    f"detail_rule.{key} is set: a special mode whose rules the engine does not play",
                    "head.config.mode.detail_rule",
                )
        first = next((p for _, k, p in actions if k == "NewRound"), {})
        scores = first.get("scores")
        three = isinstance(scores, list) and len(scores) == 3
        seen = 3 if three and not first.get("tiles3") else 4
        code = mode.get("mode")
        if code is None:
            players, length = seen, "hanchan"
            text = "Mahjong Soul (no mode: hanchan assumed)"
        elif code in MODES:
            players, length = MODES[code]
            text = "Mahjong Soul"
        else:
            self.fail(
                f"mode {clip(repr(code), 40)}: expected 1 or 2 (East or South), 11 or 12 "
                "(three players)",
                "head.config.mode.mode",
            )
        if players != seen and first:
            self.fail(
                f"mode {code} is a {players}-player game but the first hand deals {seen} players",
                "head.config.mode.mode",
            )
        mode_id = meta.get("mode_id")
        if isinstance(mode_id, int) and mode_id in ROOMS:
            text += f" {ROOMS[mode_id]}"
        elif mode_id:
            text += f" mode_id {clip(repr(mode_id), 20)}"
        else:
            text += (
                " "
                + ("3-Player " if players == 3 else "")
                + (
                    "friendly room"
                    if meta.get("room_id") or not meta.get("contest_uid")
                    else "contest"
                )
            )
            text += " East" if length == "tonpuusen" else " South"
        red_config = None
        if not mode_id and "dora_count" in detail:
            n = detail["dora_count"]
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 4:
                self.fail(
                    f"dora_count {clip(repr(n), 20)}: expected 0 to 4 red fives",
                    "head.config.mode.detail_rule",
                )
            if players == 4:
                red_config = (0, 0, 0) if n == 0 else (1, 2, 1) if n == 4 else (1, 1, 1)
            else:
                red_config = (0, 0, 0) if n == 0 else (0, 1, 1)
        return players, length, text, red_config

    def _names(self, head: dict) -> tuple[str, str, str, str]:
        names = ["AI", "AI", "AI", "AI"] if self.players == 4 else ["AI", "AI", "AI", ""]
        for key in ("robots", "accounts"):
            for acc in head.get(key) or ():
                if isinstance(acc, dict):
                    seat = acc.get("seat", 0)
                    if isinstance(seat, int) and 0 <= seat < self.players:
                        names[seat] = str(acc.get("nickname", names[seat]))
        return tuple(names)

    def _red_fives(self, actions, red_config) -> tuple[int, int, int]:
        """Red fives per suit: counted in the walls when the record has them (every hand the
        same), else ``detail_rule.dora_count`` (friendly rooms), else the ranked lobbies' own."""
        counts = None
        for i, kind, p in actions:
            if kind != "NewRound" or not p.get("paishan"):
                continue
            text = p["paishan"]
            if not isinstance(text, str):
                self.fail('"paishan" must be a string', f"{self.list_name}[{i}] RecordNewRound")
            tiles = [text[j : j + 2] for j in range(0, len(text), 2)]
            if len(tiles) != WALL_SIZE[self.players]:
                for t in ("tiles0", "tiles1", "tiles2", "tiles3"):
                    tiles += [x for x in p.get(t) or () if isinstance(x, str)]
            got = tuple(tiles.count(f"0{s}") for s in "mps")
            if counts is not None and got != counts:
                self.fail(
                    f"this hand's wall has {_reds_text(got)} but an earlier hand's had "
                    f"{_reds_text(counts)}",
                    f"{self.list_name}[{i}] RecordNewRound",
                )
            counts = got
        if counts is not None:
            if self.players == 3 and counts[0]:
                self.fail("a three-player wall with a red 5m", f"{self.list_name}[0]")
            if max(counts) > 4:
                self.fail(f"a wall with {_reds_text(counts)}", f"{self.list_name}[0]")
            return counts
        if red_config is not None:
            return red_config
        return (1, 1, 1) if self.players == 4 else (0, 1, 1)

    def _result(self, head: dict) -> None:
        result = head.get("result")
        if result is None:
            return
        players = result.get("players") if isinstance(result, dict) else None
        if not isinstance(players, list) or len(players) != self.players:
            self.fail(f"result.players must list the {self.players} players", "head.result.players")
        points, scores = [0, 0, 0, 0], [0.0, 0.0, 0.0, 0.0]
        seats = set()
        for j, pl in enumerate(players):
            where = f"head.result.players[{j}]"
            seat = pl.get("seat", 0) if isinstance(pl, dict) else None
            if not isinstance(seat, int) or not 0 <= seat < self.players or seat in seats:
                self.fail(f"bad or repeated seat {clip(repr(seat), 20)}", where)
            seats.add(seat)
            for key in ("part_point_1", "total_point"):
                v = pl.get(key, 0)
                if not isinstance(v, int) or isinstance(v, bool):
                    self.fail(f"{key} must be an int, got {clip(repr(v), 40)}", where)
            points[seat] = pl.get("part_point_1", 0)
            scores[seat] = pl.get("total_point", 0) / 1000
        self.game.final_scores = tuple(points)
        self.game.final_results = tuple(scores)
        self.game.complete = True

    # ---- hands

    def _read_hands(self, actions) -> None:
        hand_actions: list[tuple[int, str, dict]] = []
        for item in actions:
            i, kind, _ = item
            if kind == "NewRound":
                if hand_actions:
                    self._hand(hand_actions)
                hand_actions = [item]
            elif not hand_actions:
                self.fail(f"Record{kind} before the first RecordNewRound", f"{self.list_name}[{i}]")
            elif hand_actions[-1][1] in ENDS:
                self.fail(
                    f"Record{kind} after the hand's result (expected RecordNewRound)",
                    f"{self.list_name}[{i}] Record{kind}",
                    hand=self.game.hands[-1].label if self.game.hands else "",
                )
            else:
                hand_actions.append(item)
        self._hand(hand_actions)
        last = self.game.hands[-1]
        if not last.finished:
            self.fail(
                "the last hand has no result (RecordHule, RecordNoTile or RecordLiuJu): "
                "truncated file?",
                f"{self.list_name}[{hand_actions[-1][0]}]",
                hand=last.label,
            )

    def _hand(self, items) -> None:
        hand = _HandReader(self, items).hand
        self.game.hands.append(hand)


def _reds_text(counts) -> str:
    return ", ".join(f"{n} red 5{s}" for n, s in zip(counts, "mps", strict=True))


class _HandReader:
    """Reads one hand's records into a :class:`Hand`."""

    def __init__(self, reader: _Reader, items):
        self.r = reader
        self.players = reader.players
        self.red = reader.red
        i0, _, nr = items[0]
        self.where = f"{reader.list_name}[{i0}] RecordNewRound"
        self.label = ""
        self.hand = self._new_round(nr)
        self.label = self.hand.label
        self.alloc = TileAllocator(reader.game.red_fives, lambda m: self.fail(m))
        self.last_draw = [-1, -1, -1, -1]
        self.pons: dict[tuple[int, int], Event] = {}
        self.melds: list[list[Event]] = [[], [], [], []]
        self.last_target = (-1, -1, "")  # (seat, tile id, kind of action) a ron would take
        self.rinshan_next = -1
        self.live = 0
        self.replacements = 0
        self.riichi_pending = -1
        self.riichi: set[int] = set()
        self.items = items
        self._deal(nr)
        for i, kind, payload in items[1:]:
            self.where = f"{reader.list_name}[{i}] Record{kind}"
            getattr(self, f"_{kind.lower()}")(payload)
        if self.ids is not None:
            self._set_wall()

    def fail(self, msg: str):
        self.r.fail(msg, self.where, hand=self.label)

    # ---- fields

    def _int(
        self, d: dict, key: str, default: int | None = 0, low: int = 0, high: int = 1 << 30
    ) -> int:
        if key not in d:
            if default is None:
                self.fail(f'no "{key}"')
            return default
        v = d[key]
        if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
            self.fail(f'"{key}" must be an int from {low} to {high}, got {clip(repr(v), 40)}')
        return v

    def _seat(self, d: dict, key: str = "seat") -> int:
        return self._int(d, key, 0, 0, self.players - 1)

    def _tile(self, d: dict, key: str) -> tuple[int, bool]:
        if key not in d or d[key] in ("", None):
            self.fail(f'no "{key}"')
        return self._parse(d[key], key)

    def _parse(self, text, what: str) -> tuple[int, bool]:
        try:
            kind, red = parse_tile(text)
        except ValueError as exc:
            self.fail(f"{what}: {exc}")
        if red and not self.r.game.red_fives[kind // 9]:
            self.fail(
                f"{what}: red {tile34_to_str(kind)} but the game has no red five of that suit"
            )
        if self.players == 3 and 1 <= kind <= 7:
            self.fail(f"{what}: {tile34_to_str(kind)} is not in a three-player game")
        return kind, red

    def _tiles(self, d: dict, key: str, required: bool = True) -> list[tuple[int, bool]]:
        v = d.get(key)
        if v is None or v == []:
            if required:
                self.fail(f'no "{key}"')
            return []
        if not isinstance(v, list):
            self.fail(f'"{key}" must be a list of tiles')
        return [self._parse(x, f"{key}[{j}]") for j, x in enumerate(v)]

    def _text(self, tid: int) -> str:
        return tile_name(tid, self.red)

    def _kr(self, tid: int) -> tuple[int, bool]:
        return tid // 4, self.alloc.is_red(tid)

    # ---- the deal and the wall

    def _new_round(self, d: dict) -> Hand:
        chang = self._int(d, "chang", 0, 0, 3)
        ju = self._int(d, "ju", 0, 0, self.players - 1)
        ben = self._int(d, "ben", 0)
        self.label = hand_label(chang, ju, ben)
        kyotaku = self._int(d, "liqibang", 0)
        scores = d.get("scores")
        if (
            not isinstance(scores, list)
            or len(scores) != self.players
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in scores)
        ):
            self.fail(f'"scores" must list {self.players} ints, got {clip(repr(scores), 80)}')
        return Hand(
            round_wind=chang,
            kyoku=ju,
            honba=ben,
            kyotaku=kyotaku,
            scores=tuple([*scores, 0][:4]),
            dora_indicators=[],
            haipai=[[], [], [], []],
            players=self.players,
        )

    def _deal(self, d: dict) -> None:
        n, dealer = self.players, self.hand.dealer
        tiles = []
        for s in range(4):
            got = self._tiles(d, f"tiles{s}", required=s < n)
            want = 0 if s >= n else 14 if s == dealer else 13
            if len(got) != want:
                self.fail(f'"tiles{s}" must hold {want} tiles, got {len(got)}')
            tiles.append(got)
        doras = self._tiles(d, "doras", required=False)
        if not doras and d.get("dora"):
            doras = [self._parse(d["dora"], "dora")]
        if len(doras) != 1:
            self.fail(f'"doras" must hold the first dora indicator, got {len(doras)} tiles')
        paishan = d.get("paishan")
        self.ids = None
        drawn = self._dealer_draw(tiles[dealer])
        if paishan:
            self.ids = self._wall_ids(paishan, tiles, drawn)
            dealt = deal_positions(n)
            for rel in range(n):
                s = (dealer + rel) % n
                self.hand.haipai[s] = [self.ids[p] for p in dealt[rel]]
                self.alloc.hands[s] = list(self.hand.haipai[s])
            first = self.ids[live_position(n, 0)]
            self.alloc.used.update(self.ids)
            self.live = 1
            pos = dora_position(n, 0)
            if (self.ids[pos] // 4, self.ids[pos] in self.red) != doras[0]:
                self.fail(
                    f"dora indicator {_kind_name(*doras[0])} but the wall (paishan) has "
                    f"{self._text(self.ids[pos])} at position {pos}"
                )
            self.hand.dora_indicators.append(self.ids[pos])
        else:
            for s in range(n):
                rest = list(tiles[s])
                if s == dealer:
                    rest.remove(drawn)
                self.hand.haipai[s] = [self.alloc.new(*t) for t in rest]
                self.alloc.hands[s] = list(self.hand.haipai[s])
            first = self.alloc.new(*drawn)
            self.hand.dora_indicators.append(self.alloc.new(*doras[0]))
        self.alloc.hands[dealer].append(first)
        self.last_draw[dealer] = first
        self.hand.events.append(Event("draw", dealer, first))
        self.plain_ids = None

    def _dealer_draw(self, tiles: list[tuple[int, bool]]) -> tuple[int, bool]:
        """Which of the dealer's 14 tiles is the first draw when the wall does not say: the one
        the dealer's first discard throws as tsumogiri (``moqie``), else the last one listed."""
        if len(self.items) > 1:
            _, kind, d = self.items[1]
            if kind == "DiscardTile" and d.get("moqie") and d.get("seat", 0) == self.hand.dealer:
                try:
                    t = parse_tile(d.get("tile"))
                except ValueError:
                    return tiles[-1]
                if t in tiles:
                    return t
        return tiles[-1]

    def _wall_ids(self, paishan, tiles, drawn) -> list[int]:
        """Physical ids of the whole wall by paishan position; checks it against the deal."""
        n, dealer = self.players, self.hand.dealer
        if not isinstance(paishan, str) or len(paishan) % 2:
            self.fail('"paishan" must be a string of 2-character tiles')
        kinds = [
            self._parse(paishan[j : j + 2], f"paishan tile {j // 2}")
            for j in range(0, len(paishan), 2)
        ]
        size = WALL_SIZE[n]
        deal = 13 * n + 1
        if len(kinds) == size - deal:  # an older record: the deal is not in the wall
            prefix: list[tuple[int, bool]] = [(-1, False)] * deal
            for rel, positions in enumerate(deal_positions(n)):
                s = (dealer + rel) % n
                rest = list(tiles[s])
                if s == dealer:
                    rest.remove(drawn)
                for p, t in zip(positions, rest, strict=True):
                    prefix[p] = t
            prefix[deal - 1] = drawn
            kinds = prefix + kinds
        elif len(kinds) != size:
            self.fail(
                f'"paishan" has {len(kinds)} tiles: expected {size} (the whole wall) or '
                f"{size - deal} (the wall without the deal, older records)"
            )
        per_kind = [0] * 34
        for kind, _ in kinds:
            per_kind[kind] += 1
        for kind in range(34):
            want = 0 if n == 3 and 1 <= kind <= 7 else 4
            if per_kind[kind] != want:
                self.fail(
                    f"the wall (paishan) holds {per_kind[kind]} of {tile34_to_str(kind)}, "
                    f"expected {want}"
                )
        ids = []
        nxt: dict[tuple[int, bool], int] = {}
        reds = self.r.game.red_fives
        for kind, red in kinds:
            base = kind * 4
            n_red = reds[kind // 9] if kind < 27 and kind % 9 == 4 else 0
            j = nxt.get((kind, red), 0)
            nxt[(kind, red)] = j + 1
            ids.append(base + j if red else base + n_red + j)
        dealt = deal_positions(n)
        for rel in range(n):
            s = (dealer + rel) % n
            got = sorted(kinds[p] for p in dealt[rel])
            want = sorted(tiles[s])
            if s == dealer:
                got = sorted([*got, kinds[deal - 1]])
            if got != want:
                self.fail(
                    f"the wall (paishan) contradicts the deal: tiles{s} is "
                    f"{_tiles_text(want)} but the wall deals {_tiles_text(got)}"
                )
        return ids

    def _set_wall(self) -> None:
        eng = paishan_to_engine(self.ids, self.players, self.replacements)
        if self.players == 4:
            self.hand.wall = from_engine_wall(eng, self.hand.dealer)
            self.hand.wall_layout = "tenhou"
        else:
            self.hand.wall, self.hand.wall_layout = eng, "engine"

    def _new_draw(self, seat: int, kind_red: tuple[int, bool], rinshan: bool) -> int:
        n = self.players
        if self.ids is None:
            return self.alloc.new(*kind_red)
        if rinshan:
            if self.replacements >= N_REPLACEMENTS[n]:
                self.fail(f"more than {N_REPLACEMENTS[n]} replacement draws")
            pos = replacement_position(n, self.replacements)
            self.replacements += 1
        else:
            if self.live >= N_LIVE[n] - self.replacements:
                self.fail("more live draws than the wall holds")
            pos = live_position(n, self.live)
            self.live += 1
        tid = self.ids[pos]
        if self._kr(tid) != kind_red:
            self.fail(
                f"seat {seat} draws {_kind_name(*kind_red)} but the wall (paishan) has "
                f"{self._text(tid)} at position {pos}"
            )
        return tid

    def _doras(self, d: dict) -> None:
        """New kan dora indicators given by this record's ``doras``."""
        doras = self._tiles(d, "doras", required=False)
        have = self.hand.dora_indicators
        if not doras:
            return
        if len(doras) > 5:
            self.fail(f"{len(doras)} dora indicators (at most 5)")
        for j, t in enumerate(doras[: len(have)]):
            if self._kr(have[j]) != t:
                self.fail(
                    f"doras[{j}] is {_kind_name(*t)} but dora indicator {j} was "
                    f"{self._text(have[j])}"
                )
        for j in range(len(have), len(doras)):
            if self.ids is not None:
                pos = dora_position(self.players, j)
                tid = self.ids[pos]
                if self._kr(tid) != doras[j]:
                    self.fail(
                        f"dora indicator {_kind_name(*doras[j])} but the wall (paishan) has "
                        f"{self._text(tid)} at position {pos}"
                    )
            else:
                tid = self.alloc.new(*doras[j])
            have.append(tid)
            self.hand.events.append(Event("dora", tile=tid))

    def _accept_riichi(self) -> None:
        if self.riichi_pending >= 0:
            self.hand.events.append(Event("riichi_accepted", self.riichi_pending))
            self.riichi_pending = -1

    # ---- records

    def _dealtile(self, d: dict) -> None:
        seat = self._seat(d)
        self._accept_riichi()
        self._doras(d)
        kind_red = self._tile(d, "tile")
        rinshan = self.rinshan_next >= 0
        if rinshan and self.rinshan_next != seat:
            self.fail(f"seat {seat} draws but seat {self.rinshan_next} takes the replacement tile")
        tid = self._new_draw(seat, kind_red, rinshan)
        self.alloc.hands[seat].append(tid)
        self.last_draw[seat] = tid
        self.rinshan_next = -1
        self.last_target = (-1, -1, "")  # the last discard passed
        self.hand.events.append(Event("draw", seat, tid, rinshan=rinshan))

    def _discardtile(self, d: dict) -> None:
        seat = self._seat(d)
        kind, red = self._tile(d, "tile")
        self._doras(d)
        riichi = bool(d.get("is_liqi")) or bool(d.get("is_wliqi"))
        if riichi:
            self.hand.events.append(Event("riichi", seat))
            self.riichi.add(seat)
        moqie = bool(d.get("moqie"))
        last = self.last_draw[seat]
        first = len(self.hand.events) == 1 or (riichi and len(self.hand.events) == 2)
        if moqie and last < 0:
            self.fail(f"seat {seat} discards as tsumogiri (moqie) without a drawn tile")
        if moqie and self._kr(last) != (kind, red) and not first:
            self.fail(
                f"seat {seat} discards {_kind_name(kind, red)} as tsumogiri (moqie) but drew "
                f"{self._text(last)}"
            )
        if moqie and self._kr(last) == (kind, red):
            tid = last
        else:
            tid = next(
                (t for t in self.alloc.hands[seat] if self._kr(t) == (kind, red) and t != last),
                -1,
            )
            if tid < 0:
                tid = next((t for t in self.alloc.hands[seat] if self._kr(t) == (kind, red)), -1)
            if tid < 0:
                self.fail(f"seat {seat} discards {_kind_name(kind, red)}, which it does not hold")
            moqie = moqie and tid == last
        self.alloc.hands[seat].remove(tid)
        self.last_draw[seat] = -1
        self.rinshan_next = -1
        self.hand.events.append(Event("discard", seat, tid, tsumogiri=moqie))
        self.last_target = (seat, tid, "discard")
        if riichi:
            self.riichi_pending = seat

    def _chipenggang(self, d: dict) -> None:
        seat = self._seat(d)
        self._accept_riichi()
        typ = self._int(d, "type", 0, 0, 2)
        tiles = self._tiles(d, "tiles")
        froms = d.get("froms")
        want = 4 if typ == 2 else 3
        target, tid, what = self.last_target
        if froms is None and target >= 0:  # not given: the called tile is listed last
            froms = [seat] * (want - 1) + [target]
        if len(tiles) != want or not isinstance(froms, list) or len(froms) != want:
            self.fail(f'"tiles" and "froms" must hold {want} entries for type {typ}')
        others = [j for j, f in enumerate(froms) if f != seat]
        if len(others) != 1 or froms[others[0]] != target or what != "discard":
            self.fail(f"seat {seat} calls a tile that is not the last discard (froms {froms!r})")
        called = tiles[others[0]]
        if self._kr(tid) != called:
            self.fail(
                f"seat {seat} calls {_kind_name(*called)} but the last discard is {self._text(tid)}"
            )
        consumed = tuple(self.alloc.take(seat, *t) for j, t in enumerate(tiles) if j != others[0])
        typ_name = ("chi", "pon", "daiminkan")[typ]
        ev = Event(typ_name, seat, tid, tuple(sorted(consumed)), target)
        self.hand.events.append(ev)
        self.melds[seat].append(ev)
        if typ == 1:
            self.pons[(seat, tid // 4)] = ev
        self.last_draw[seat] = -1
        self.last_target = (-1, -1, "")
        self.rinshan_next = seat if typ == 2 else -1

    def _angangaddgang(self, d: dict) -> None:
        seat = self._seat(d)
        typ = self._int(d, "type", None, 2, 3)
        kind, red = self._tile(d, "tiles")
        self._doras(d)
        if typ == 3:
            held = [t for t in self.alloc.hands[seat] if t // 4 == kind]
            if len(held) != 4:
                self.fail(
                    f"seat {seat} declares a closed kan of {tile34_to_str(kind)} holding {len(held)}"
                )
            for t in held:
                self.alloc.hands[seat].remove(t)
            ev = Event("ankan", seat, -1, tuple(sorted(held)))
            self.last_target = (seat, held[-1], "ankan")
        else:
            pon = self.pons.pop((seat, kind), None)
            if pon is None:
                self.fail(f"seat {seat} adds {_kind_name(kind, red)} to a pon it does not have")
            tid = self.alloc.take(seat, kind, red)
            ev = Event("kakan", seat, tid, tuple(sorted((*pon.consumed, pon.tile))), pon.from_seat)
            self.last_target = (seat, tid, "kakan")
        self.hand.events.append(ev)
        self.melds[seat].append(ev)
        self.last_draw[seat] = -1
        self.rinshan_next = seat

    def _babei(self, d: dict) -> None:
        if self.players != 3:
            self.fail("a kita (RecordBaBei) in a four-player game")
        seat = self._seat(d)
        self._doras(d)
        last = self.last_draw[seat]
        if d.get("moqie") and last >= 0 and last // 4 == 30:
            tid = last
            self.alloc.hands[seat].remove(tid)
        else:
            tid = self.alloc.take(seat, 30, False)
        self.hand.events.append(Event("kita", seat, tid))
        self.last_draw[seat] = -1
        self.last_target = (seat, tid, "kita")
        self.rinshan_next = seat

    # ---- results

    def _hule(self, d: dict) -> None:
        hules = d.get("hules")
        if not isinstance(hules, list) or not hules:
            self.fail('no "hules" (the winners)')
        self._doras(d)
        total = self._deltas(d, "delta_scores")
        wins = []
        for j, h in enumerate(hules):
            if not isinstance(h, dict):
                self.fail(f"hules[{j}] must be an object")
            wins.append(self._win(h, j))
            ura = h.get("li_doras") or h.get("ura_dora_indicators")
            if ura and len(wins[-1].ura_indicators or ()) > len(self.hand.ura_indicators):
                self.hand.ura_indicators = list(wins[-1].ura_indicators)
        if len({w.seat for w in wins}) != len(wins):
            self.fail("a seat wins twice")
        if len(wins) > 1 and any(w.tsumo for w in wins):
            self.fail("a tsumo among several winners")
        self._pao(wins, hules, d, total)
        self._split(wins, hules, total)
        self.hand.wins = wins

    def _win(self, h: dict, j: int) -> Win:
        n = self.players
        seat = self._seat(h)
        zimo = bool(h.get("zimo"))
        kind_red = self._tile(h, "hu_tile")
        if zimo:
            tid = self.last_draw[seat]
            if tid < 0:
                self.fail(f"seat {seat} wins by tsumo but did not just draw")
            frm = seat
        else:
            frm, tid, _ = self.last_target
            if frm < 0 or frm == seat:
                self.fail(f"seat {seat} wins by ron but no other seat just discarded")
        if self._kr(tid) != kind_red:
            self.fail(
                f"seat {seat} wins on {_kind_name(*kind_red)} but the tile is {self._text(tid)}"
            )
        yaku = []
        seat_wind = "ESWN"[(seat - self.hand.dealer) % n]
        names = {"E": "east", "S": "south", "W": "west", "N": "north"}
        fans = h.get("fans") or []
        if not isinstance(fans, list):
            self.fail(f"hules[{j}].fans must be a list")
        mult = 0
        for f in fans:
            if not isinstance(f, dict):
                self.fail(f"hules[{j}].fans: an entry must be {{id, val}}")
            fid = self._int(f, "id", None)
            val = self._int(f, "val", 0)
            key = FAN_KEYS.get(fid, f"{UNKNOWN_FAN}{fid}")
            if key == "seat_wind":
                key = f"seat_wind_{names[seat_wind]}"
            elif key == "round_wind":
                key = f"round_wind_{names['ESWN'[self.hand.round_wind]]}"
            if key in YAKUMAN_KEYS:
                val = val // 13 if val >= 13 else max(val, 1)
                mult += val
            yaku.append((key, val))
        fu = self._int(h, "fu", 0)
        count = self._int(h, "count", 0)
        yiman = bool(h.get("yiman"))
        if yiman and not mult:
            mult = max(count, 1)
        han = 13 * mult if mult else count
        win = Win(seat=seat, from_seat=frm, deltas=(0, 0, 0, 0), han=han, fu=fu, yaku=tuple(yaku))
        win.win_tile = tid
        if zimo:
            qin, xian = self._int(h, "point_zimo_qin", 0), self._int(h, "point_zimo_xian", 0)
            win.points = xian * (n - 1) if seat == self.hand.dealer else qin + xian * (n - 2)
        else:
            win.points = self._int(h, "point_rong", 0)
        win.limit = _limit(win, mult, seat == self.hand.dealer, n)
        if not fu and not mult:
            win.fu = None  # not in the record (converted from a format that leaves it out)
        ura = h.get("li_doras") or h.get("ura_dora_indicators") or []
        kinds = self._tiles({"li_doras": ura}, "li_doras", required=False)
        ids = []
        for i, t in enumerate(kinds):
            if self.ids is not None:
                pos = dora_position(n, i) - 1
                tid_u = self.ids[pos]
                if self._kr(tid_u) != t:
                    self.fail(
                        f"ura indicator {_kind_name(*t)} but the wall (paishan) has "
                        f"{self._text(tid_u)} at position {pos}"
                    )
            elif i < len(self.hand.ura_indicators):
                tid_u = self.hand.ura_indicators[i]
            else:
                tid_u = self.alloc.new(*t)
            ids.append(tid_u)
        win.ura_indicators = tuple(ids)
        return win

    def _deltas(self, d: dict, key: str) -> tuple[int, int, int, int]:
        v = d.get(key)
        if v is None or v == []:
            return (0, 0, 0, 0)
        if (
            not isinstance(v, list)
            or len(v) != self.players
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
        ):
            self.fail(f'"{key}" must list {self.players} ints, got {clip(repr(v), 80)}')
        return tuple([*v, 0][:4])

    def _pao(self, wins: list[Win], hules: list, d: dict, total) -> None:
        """The liable seat: ``baopai_seats``, else ``baopai`` (seat + 1, on the win or the
        record), else, for a daisangen or daisuushii, the payments show it."""
        for w, h in zip(wins, hules, strict=True):
            seats = h.get("baopai_seats")
            if isinstance(seats, list) and seats:
                w.pao_seat = self._int({"s": seats[0]}, "s", 0, 0, self.players - 1)
                continue
            for src in (h, d):
                b = src.get("baopai", 0)
                if isinstance(b, int) and not isinstance(b, bool) and 0 < b <= self.players:
                    w.pao_seat = b - 1
                    break
            pao_fan = any(
                isinstance(f, dict) and f.get("id") in PAO_FANS for f in h.get("fans") or ()
            )
            if w.pao_seat < 0 and pao_fan and len(wins) == 1 and "baopai_seats" not in h:
                payers = [s for s in range(self.players) if total[s] < 0]
                if w.tsumo and len(payers) == 1:
                    w.pao_seat = payers[0]
                elif not w.tsumo:
                    extra = [s for s in payers if s != w.from_seat]
                    if len(extra) == 1:
                        w.pao_seat = extra[0]
            if w.pao_seat == w.seat:
                w.pao_seat = -1

    def _split(self, wins: list[Win], hules: list, total) -> None:
        """Each winner's point changes: a lone winner's are the record's; with several winners
        (ron only) each but the first in turn order after the discarder is paid its ron value
        by the discarder (half of it by a liable seat), and the first winner gets the rest."""
        if len(wins) == 1:
            wins[0].deltas = total
            return
        frm = wins[0].from_seat
        order = sorted(wins, key=lambda w: (w.seat - frm) % self.players)
        rest = list(total)
        for w in order[1:]:
            delta = [0, 0, 0, 0]
            value = w.points or 0
            delta[w.seat] += value
            if w.pao_seat >= 0 and w.pao_seat != frm:
                delta[w.pao_seat] -= value // 2
                delta[frm] -= value - value // 2
            else:
                delta[frm] -= value
            w.deltas = tuple(delta)
            rest = [a - b for a, b in zip(rest, delta, strict=True)]
        order[0].deltas = tuple(rest)

    def _notile(self, d: dict) -> None:
        self._doras(d)
        players = d.get("players")
        tenpai = None
        if isinstance(players, list) and players:
            if len(players) != self.players:
                self.fail(f'"players" must list {self.players} players')
            tenpai = tuple(
                s for s, p in enumerate(players) if isinstance(p, dict) and p.get("tingpai")
            )
        total = [0, 0, 0, 0]
        scores = d.get("scores") or []
        if not isinstance(scores, list):
            self.fail('"scores" must be a list')
        for j, sc in enumerate(scores):
            if not isinstance(sc, dict):
                self.fail(f"scores[{j}] must be an object")
            for s, x in enumerate(self._deltas(sc, "delta_scores")):
                total[s] += x
        kind = "nagashi_mangan" if d.get("liujumanguan") else "exhaustive"
        self.hand.draw = Draw(kind, tuple(total), tenpai)
        self._check_end()

    def _liuju(self, d: dict) -> None:
        typ = self._int(d, "type", None, 1, 5)
        kind = LIUJU_KINDS[typ]
        if d.get("liqi") or kind == "suucha_riichi":
            self._accept_riichi()
        self.hand.draw = Draw(kind)
        self._check_end()

    def _check_end(self) -> None:
        if self.rinshan_next >= 0:
            self.fail("the hand ends before the replacement draw after a kan or kita")


def _limit(win: Win, yakuman: int, dealer: bool, players: int) -> str:
    """The limit a win reaches (Mahjong Soul: no kiriage mangan); without fu (a record converted
    from one that leaves it out) a hand under 5 han is a mangan when its points are."""
    from engine.scoring.payment import hand_value
    from riichi_env.records.export import limit_name

    if win.fu or yakuman or (win.han or 0) >= 5:
        return limit_name(win.han or 0, win.fu or 0, yakuman, MAHJONGSOUL)
    mangan = hand_value(2000, dealer, win.tsumo, players)
    return "mangan" if win.points and win.points >= mangan else ""


def _tiles_text(tiles) -> str:
    return " ".join(_kind_name(*t) for t in tiles)


# ----------------------------------------------------------------------------- writing


def write_mahjongsoul(game: Game) -> dict:
    """A :class:`Game` as a Mahjong Soul record object (``json.dumps`` it to write a file).

    Every finished hand is written, with its wall as ``paishan`` (the record's own, or one built
    to fit the record). Raises ``ValueError`` for what the format cannot hold (a yaku Mahjong
    Soul has no fan for, a hand whose wall does not fit the record).
    """
    from riichi_env.records.mjai import common_dora_order

    n = game.players
    red = frozenset(red_ids(game.red_fives))
    actions: list[dict] = []
    hands = [h for h in game.hands if h.finished]
    for k, hand in enumerate(hands):
        last = k == len(hands) - 1 and game.final_scores is not None
        for name, data in _hand_records(hand, red, n, game, last, common_dora_order(hand.events)):
            actions.append({"type": 1, "result": {"name": f".lq.Record{name}", "data": data}})
    head: dict[str, Any] = {
        "uuid": game.record_id or _uuid(actions),
        "start_time": 0,
        "end_time": 0,
        "config": {
            "category": 1,
            "mode": {
                "mode": MODE_OF[(n, game.game_length)],
                "detail_rule": {"dora_count": sum(game.red_fives)},
            },
            "meta": {"room_id": 0},
        },
        "accounts": [{"account_id": 0, "seat": s, "nickname": game.names[s]} for s in range(n)],
    }
    if game.final_scores is not None:
        results = game.final_results or tuple(0.0 for _ in range(4))
        order = sorted(range(n), key=lambda s: (-game.final_scores[s], s))
        head["result"] = {
            "players": [
                {
                    "seat": s,
                    "total_point": round(results[s] * 1000),
                    "part_point_1": game.final_scores[s],
                }
                for s in order
            ]
        }
    return {
        "head": head,
        "data": {"name": ".lq.GameDetailRecords", "data": {"version": 210715, "actions": actions}},
    }


def dumps_mahjongsoul(game: Game) -> str:
    """:func:`write_mahjongsoul` as JSON text, one action a line."""
    obj = write_mahjongsoul(game)
    actions = obj["data"]["data"]["actions"]
    obj["data"]["data"]["actions"] = []
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    head, tail = text.rsplit('"actions":[]', 1)
    body = ",\n".join(json.dumps(a, ensure_ascii=False, separators=(",", ":")) for a in actions)
    return f'{head}"actions":[\n{body}\n]{tail}\n'


def _uuid(actions: list[dict]) -> str:
    digest = hashlib.sha256(json.dumps(actions, sort_keys=True).encode()).digest()
    return "riichi-env-" + base64.b32encode(digest[:10]).decode().lower()


def _hand_records(hand: Hand, red, n: int, game: Game, last: bool, events: list[Event]):
    """(kind, data) of one hand's records."""
    writer = _HandWriter(hand, red, n)
    out: list[tuple[str, dict]] = [("NewRound", writer.new_round())]
    for e in events[1:]:
        record = writer.play(e)
        if record is not None:
            out.append(record)
    out.append(writer.end(game, last))
    return out


class _HandWriter:
    """One hand written as records: the seats' concealed tiles and melds, points, riichi and
    the dora indicators shown so far."""

    def __init__(self, hand: Hand, red, n: int):
        self.hand, self.red, self.n = hand, red, n
        self.concealed: list[list[int]] = []
        self.shown = 1
        self.pending_dora = False
        self.riichi_next = -1
        self.wliqi_open = [True] * 4
        self.riichi_seats: set[int] = set()
        self.accept: dict | None = None
        self.points = list(hand.scores)
        self.sticks = hand.kyotaku
        self.live_left = N_LIVE[n] - 1
        self.melds: list[list[Event]] = [[], [], [], []]
        self.last_draw = -1

    def t(self, x: int) -> str:
        """A tile's name (a five the record reads as plain is named plain)."""
        return tile_name(x, self.red - self.hand.plain_reds)

    def doras(self) -> list[str]:
        """The dora indicators shown so far."""
        return [self.t(x) for x in self.hand.dora_indicators[: self.shown]]

    def new_round(self) -> dict:
        """The ``NewRound`` record: the deal (the dealer's first draw with it) and the wall."""
        hand, n, t = self.hand, self.n, self.t
        dealer = hand.dealer
        wall, layout = hand_wall(hand)
        k = sum(1 for e in hand.events if e.type == "draw" and e.rinshan)
        eng = to_engine_wall(wall, layout, dealer)
        paishan = "".join(t(x) for x in engine_to_paishan(eng, n, k))
        scores = list(hand.scores[:n])
        first = hand.events[0] if hand.events else None
        if first is None or first.type != "draw" or first.seat != dealer:
            raise ValueError(f"hand {hand.label}: the dealer's first draw is missing")
        concealed = self.concealed = [list(h) for h in hand.haipai]
        concealed[dealer].append(first.tile)
        return {
            "chang": hand.round_wind,
            "ju": dealer,
            "ben": hand.honba,
            "liqibang": hand.kyotaku,
            "scores": scores,
            **{f"tiles{s}": [t(x) for x in concealed[s]] if s < n else [] for s in range(4)},
            "paishan": paishan,
            "sha256": hashlib.sha256(paishan.encode()).hexdigest(),
            "left_tile_count": N_LIVE[n] - 1,
            "doras": [t(hand.dora_indicators[0])],
        }

    def play(self, e: Event) -> tuple[str, dict] | None:
        """The record of one event after the dealer's first draw (None for a dora indicator or
        riichi, which go into the next record)."""
        if e.type == "dora":
            self.shown += 1
            self.pending_dora = True
            return None
        if e.type == "riichi":
            self.riichi_next = e.seat
            return None
        if e.type == "riichi_accepted":
            self.points[e.seat] -= 1000
            self.sticks += 1
            self.accept = {"seat": e.seat, "score": self.points[e.seat], "liqibang": self.sticks}
            return None
        write = _PLAY_WRITERS.get(e.type)
        if write is None:
            raise ValueError(f"hand {self.hand.label}: unknown event {e.type!r}")
        kind, data = write(self, e)
        if e.type != "draw":
            self.last_draw = -1
        if self.pending_dora and kind != "ChiPengGang":
            data["doras"] = self.doras()
            self.pending_dora = False
        if self.accept is not None and kind in ("DealTile", "ChiPengGang"):
            data["liqi"] = self.accept
            self.accept = None
        return kind, data

    def _deal_tile(self, e: Event) -> tuple[str, dict]:
        """A draw."""
        self.live_left -= 1
        data = {"seat": e.seat, "tile": self.t(e.tile), "left_tile_count": self.live_left}
        self.concealed[e.seat].append(e.tile)
        self.last_draw = e.tile
        return "DealTile", data

    def _discard_tile(self, e: Event) -> tuple[str, dict]:
        """A discard, with riichi (double riichi before any call or the seat's first discard)."""
        self.concealed[e.seat].remove(e.tile)
        data = {"seat": e.seat, "tile": self.t(e.tile), "moqie": e.tsumogiri}
        if self.riichi_next == e.seat:
            data["is_liqi"] = True
            self.riichi_seats.add(e.seat)
            if self.wliqi_open[e.seat]:
                data["is_wliqi"] = True
        self.riichi_next = -1
        self.wliqi_open[e.seat] = False
        return "DiscardTile", data

    def _chi_peng_gang(self, e: Event) -> tuple[str, dict]:
        """A chi, pon or daiminkan."""
        for x in e.consumed:
            self.concealed[e.seat].remove(x)
        data = {
            "seat": e.seat,
            "type": ("chi", "pon", "daiminkan").index(e.type),
            "tiles": [self.t(x) for x in (*e.consumed, e.tile)],
            "froms": [e.seat] * len(e.consumed) + [e.from_seat],
        }
        self.melds[e.seat].append(e)
        self.wliqi_open = [False] * 4
        return "ChiPengGang", data

    def _an_gang_add_gang(self, e: Event) -> tuple[str, dict]:
        """A closed or added kan."""
        concealed, melds = self.concealed[e.seat], self.melds
        if e.type == "ankan":
            for x in e.consumed:
                concealed.remove(x)
            shown_tile = max(e.consumed, key=lambda x: x in self.red)
            melds[e.seat].append(e)
        else:
            concealed.remove(e.tile)
            shown_tile = e.tile
            melds[e.seat] = [
                e if m.type == "pon" and m.tile // 4 == e.tile // 4 else m for m in melds[e.seat]
            ]
        data = {"seat": e.seat, "type": 3 if e.type == "ankan" else 2, "tiles": self.t(shown_tile)}
        self.wliqi_open = [False] * 4
        return "AnGangAddGang", data

    def _ba_bei(self, e: Event) -> tuple[str, dict]:
        """A kita."""
        self.concealed[e.seat].remove(e.tile)
        return "BaBei", {"seat": e.seat, "moqie": e.tile == self.last_draw}

    def end(self, game: Game, last: bool) -> tuple[str, dict]:
        """The hand's last record: ``Hule``, ``NoTile`` or ``LiuJu`` (``last``: the game ends)."""
        if self.hand.wins:
            return "Hule", self._hule_end(game, last)
        if self.hand.draw.kind in ("exhaustive", "nagashi_mangan"):
            return "NoTile", self._notile_end(last)
        return "LiuJu", self._liuju_end(game, last)

    def _hule_end(self, game: Game, last: bool) -> dict:
        """The wins, with the point changes."""
        hand, n = self.hand, self.n
        red = self.red - hand.plain_reds
        hules = [
            _hule(w, hand, n, red, self.concealed, self.melds, self.riichi_seats, self.shown)
            for w in hand.wins
        ]
        end: dict[str, Any] = {
            "hules": hules,
            "old_scores": list(hand.scores[:n]),
            "delta_scores": list(hand.deltas[:n]),
            "scores": [hand.scores[s] + hand.deltas[s] for s in range(n)],
        }
        pao = next((w.pao_seat for w in hand.wins if w.pao_seat >= 0), -1)
        end["baopai"] = pao + 1
        if self.pending_dora:
            end["doras"] = self.doras()
        if last:
            end["gameend"] = {"scores": list(game.final_scores[:n])}
        return end

    def _notile_end(self, last: bool) -> dict:
        """An exhaustive draw (or nagashi mangan): tenpai hands and point changes."""
        hand, n, draw = self.hand, self.n, self.hand.draw
        end: dict[str, Any] = {"liujumanguan": draw.kind == "nagashi_mangan"}
        if draw.tenpai is not None:
            tenpai = set(draw.tenpai)
            end["players"] = [
                {
                    "tingpai": s in tenpai,
                    "hand": [self.t(x) for x in sorted(self.concealed[s])],
                    "tings": [],
                }
                for s in range(n)
            ]
        old = list(hand.scores[:n])
        end["scores"] = (
            [{"old_scores": old, "delta_scores": list(draw.deltas[:n])}] if any(draw.deltas) else []
        )
        end["gameend"] = last
        return end

    def _liuju_end(self, game: Game, last: bool) -> dict:
        """An abortive draw, by the seat that played last."""
        hand = self.hand
        prev = next((e for e in reversed(hand.events) if e.seat >= 0), None)
        seat = prev.seat if prev is not None else hand.dealer
        end: dict[str, Any] = {"type": LIUJU_TYPES[hand.draw.kind], "seat": seat}
        if hand.draw.kind == "kyuushu_kyuuhai":
            end["tiles"] = [self.t(x) for x in self.concealed[seat]]
        if self.accept is not None:
            end["liqi"] = self.accept
        if last:
            end["gameend"] = {"scores": list(game.final_scores[: self.n])}
        return end


_PLAY_WRITERS = {
    "draw": _HandWriter._deal_tile,
    "discard": _HandWriter._discard_tile,
    "chi": _HandWriter._chi_peng_gang,
    "pon": _HandWriter._chi_peng_gang,
    "daiminkan": _HandWriter._chi_peng_gang,
    "ankan": _HandWriter._an_gang_add_gang,
    "kakan": _HandWriter._an_gang_add_gang,
    "kita": _HandWriter._ba_bei,
}
"""Event type → the method writing its record, as (kind, data)."""


def _hule(w: Win, hand: Hand, n: int, red, concealed, melds, riichi_seats, shown) -> dict:
    def t(x: int) -> str:
        return tile_name(x, red)

    if w.yaku is None or w.han is None:
        raise ValueError(f"hand {hand.label}: the win of seat {w.seat} has no yaku or han")
    tiles = list(concealed[w.seat])
    win_tile = w.win_tile if w.win_tile >= 0 else _win_tile(hand, w)
    if w.tsumo and win_tile in tiles:
        tiles.remove(win_tile)
    fans = []
    for key, val in w.yaku:
        if key in DORA_KEYS and val == 0:
            continue
        if key.startswith(UNKNOWN_FAN):
            fid = int(key[len(UNKNOWN_FAN) :])
        elif key in FAN_IDS:
            fid = FAN_IDS[key]
        else:
            raise ValueError(
                f"hand {hand.label}: yaku {key!r} has no Mahjong Soul fan id "
                "(the format cannot hold this win)"
            )
        fans.append({"val": val, "id": fid})
    yakuman = w.yakuman
    out: dict[str, Any] = {
        "hand": [t(x) for x in sorted(tiles)],
        "ming": [_ming(m, t) for m in melds[w.seat]],
        "hu_tile": t(win_tile),
        "seat": w.seat,
        "zimo": w.tsumo,
        "qinjia": w.seat == hand.dealer,
        "liqi": w.seat in riichi_seats,
        "doras": [t(x) for x in hand.dora_indicators[:shown]],
        "li_doras": [t(x) for x in w.ura_indicators or ()],
        "yiman": yakuman > 0,
        "count": yakuman if yakuman else w.han,
        "fans": fans,
        "fu": w.fu or 0,
        "point_sum": w.points or 0,
    }
    if w.tsumo:
        from engine.scoring.payment import tsumo_shares
        from riichi_env.records.tenhou6 import base_points

        base = base_points(w.han, w.fu or 0, w.limit or "", yakuman)
        from_dealer, from_other = tsumo_shares(base, w.seat == hand.dealer)
        out["point_zimo_qin"] = 0 if w.seat == hand.dealer else from_dealer
        out["point_zimo_xian"] = from_other
    else:
        out["point_rong"] = w.points or 0
    if w.pao_seat >= 0:
        out["baopai_seats"] = [w.pao_seat]
    return out


def _win_tile(hand: Hand, w: Win) -> int:
    """The winning tile of a record that does not name it: the last draw (tsumo) or the tile
    the discarder last gave (a discard, an added or closed kan, a kita)."""
    for e in reversed(hand.events):
        if w.tsumo and e.type == "draw" and e.seat == w.seat:
            return e.tile
        if (
            not w.tsumo
            and e.seat == w.from_seat
            and e.type in ("discard", "kakan", "kita", "ankan")
        ):
            return e.tile if e.tile >= 0 else e.consumed[0]
    raise ValueError(f"hand {hand.label}: the win of seat {w.seat} has no winning tile")


def _ming(m: Event, t) -> str:
    tiles = ",".join(
        t(x) for x in sorted((*m.consumed, m.tile) if m.type != "ankan" else m.consumed)
    )
    if m.type == "kakan":
        tiles = ",".join(t(x) for x in sorted((*m.consumed, m.tile)))
    name = {
        "chi": "shunzi",
        "pon": "kezi",
        "daiminkan": "minggang",
        "kakan": "minggang",
        "ankan": "angang",
    }
    return f"{name[m.type]}({tiles})"
