"""Shard sets that keep the records: packed games on disk, rows made as they are read.

The ``games`` layout (the default of ``riichi-env dataset`` and :func:`write_game_shards`) stores
each record as the compiled replay reads it (:mod:`riichi_env.dataset.pack`: each hand's wall,
start, recorded moves and outcome), about 10 KB a hanchan, after checking every hand once. Reading
a shard replays its games through the same kernels as :class:`~riichi_env.dataset.Converter`,
so the rows are bit for bit the converter's (and the env's), with any encoder of the records'
player count, any filter, augmentation, the oracle column and either dtype, chosen when reading:
one shard set serves every experiment. ``docs/dataset.md`` describes the files.

A shard ``shard-00000.npz`` holds ``G`` games, ``H`` hands and ``S`` recorded moves:

| array | dtype, shape | meaning |
|---|---|---|
| ``game_hands`` | int32 (G + 1,) | game ``g``'s hands are ``game_hands[g] : game_hands[g + 1]`` |
| ``game_file`` | int32 (G,) | the record's index in the manifest's ``files`` |
| ``game_rules`` | int16 (G,) | its rules, an index into the manifest's ``rules`` |
| ``game_names`` | str (G, 4) | the players' names (``""`` when the record has none) |
| ``game_rank``, ``game_score`` | int8, float32 (G, 4) | each seat's final rank and score (-1, NaN: unknown) |
| ``game_full`` | uint8 (G,) | 1 when every hand's whole wall is known |
| ``hand_wall`` | uint8 (H, 136) | the wall in the engine's layout |
| ``hand_known`` | uint8 (H, 17) | the wall places the record reveals, as bits (``np.packbits``) |
| ``hand_start``, ``hand_end``, ``hand_delta`` | int32 (H, 7), int8 (H, 4), int32 (H, 4) | ``PackedGame``'s ``starts``, ``ends``, ``rec_deltas`` |
| ``hand_finished``, ``hand_id`` | uint8, int16 (H,) | the record gives the hand's result; its index in the record |
| ``hand_moves`` | int32 (H + 1,) | hand ``h``'s moves are ``moves[hand_moves[h] : hand_moves[h + 1]]`` |
| ``moves`` | int16 (S, 6) | ``PackedGame.script`` |

Every hand is checked by the replay when the shards are written: a hand the engine and the
record disagree on is named in the manifest's ``skipped`` (and gives no rows when read, where
the reader's ``stats`` name it again).
"""

from __future__ import annotations

import functools
import json
import os
import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from engine.arguments import check_bool, check_int, check_seed, describe
from riichi_env.core.encoders import ENCODERS, ENCODERS_3P

GAMES = "games"
ROWS = "rows"
LAYOUTS = (GAMES, ROWS)
"""``layout`` of a shard set: ``games`` (packed records, rows made when read) or ``rows`` (the
rows themselves, as :func:`riichi_env.dataset.io.write_shards` wrote them before)."""
GAMES_VERSION = 2
"""``format_version`` of a ``games`` shard set (``rows`` shard sets are version 1)."""
SHARD_GAMES = 1024
"""Games a shard holds by default: about 10 MB of a hanchan's packed hands."""
ROW_OPTIONS = (
    "encoder",
    "seats",
    "players",
    "kinds",
    "skip_forced",
    "augment",
    "oracle",
    "dtype",
)
"""The converter options a ``games`` shard set takes when it is read (the manifest's, unless
given): what the rows are made of. The others (``rules``, ``walls``, ``strict``) shaped the
packed records when they were written."""
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


# ---------------------------------------------------------------- writing


def pack_one(converter, path) -> tuple[dict[str, np.ndarray] | None, Any]:
    """A record file as the arrays of one game of a shard (``None`` when it gives no rows), and
    the converter's ``stats`` it added: the record read, packed, and every hand replayed once
    without observations (rows counted, the hands that do not replay cleanly skipped)."""
    from riichi_env.dataset.io import _delta, _snapshot

    before = _snapshot(converter.stats)
    game = converter.read_checked(path)
    prepared = converter.prepare(game, str(path)) if game is not None else None
    if prepared is None:
        return None, _delta(before, converter.stats)
    counted = converter.rows_of(prepared, observe=False)
    # every hand is kept, those that do not replay too (they give no rows when read either):
    # a row's ``step`` counts the decisions of the game before it, theirs included
    arrays = _game_arrays(prepared, len(counted["action"]))
    return arrays, _delta(before, converter.stats)


def _game_arrays(prepared, rows: int) -> dict[str, np.ndarray]:
    """The arrays of one game (every hand packed) as a worker sends them to the writer."""
    pk = prepared.packed
    lo = pk.script_lo
    return {
        "hand_wall": pk.walls.astype(np.uint8),
        "hand_known": np.packbits(pk.known, axis=1),
        "hand_start": pk.starts.astype(np.int32, copy=False),
        "hand_end": pk.ends.astype(np.int8),
        "hand_delta": pk.rec_deltas.astype(np.int32, copy=False),
        "hand_finished": pk.finished.astype(np.uint8, copy=False),
        "hand_id": pk.hand_ids.astype(np.int16),
        "hand_moves": (lo - lo[0]).astype(np.int32, copy=False),
        "moves": pk.script[lo[0] : lo[-1]].astype(np.int16),
        "names": np.array(prepared.names, dtype=str),
        "rank": prepared.final_rank.astype(np.int8),
        "score": prepared.final_score.astype(np.float32),
        "full": np.array([pk.full_walls], dtype=np.uint8),
        "rows": np.array([rows], dtype=np.int64),
        "rules": np.array(_rules_text(prepared.rules)),
    }


@functools.lru_cache(maxsize=16)
def _rules_text(rules) -> str:
    """A game's rules (an ``engine.Rules``, frozen) as sorted JSON, once per ruleset: most games of
    a run share one (33 us a game otherwise)."""
    from riichi_env.dataset.io import _json_value

    return json.dumps(_json_value(rules), sort_keys=True)


def pack_files(
    converter, paths: tuple, stop: Callable[[], bool] | None = None
) -> tuple[dict[str, np.ndarray] | None, tuple]:
    """Record files as one block of games (:func:`games_block`, ``None`` when none gives rows)
    and ``(stats delta, error)``: what the converter's ``stats`` added, and the error a file
    raised (the files after it not read; the block holds the games before it). ``stop``: asked
    before each file after the first, true ends the run there (a signal noted). A worker sends
    one block for several files: one message and one set of arrays instead of one a file."""
    from riichi_env.dataset.io import _portable_error

    games, delta, error = [], {}, None
    for i, path in enumerate(paths):
        if i and stop is not None and stop():
            break
        try:
            game, part = pack_one(converter, path)
        except Exception as exc:  # noqa: BLE001 - raised in file order by the run
            error = _portable_error(exc)
            break
        _add_delta(delta, part)
        if game is not None:
            games.append((i, game))
    return (games_block(games) if games else None), (delta, error)


def _add_delta(total: dict[str, Any], delta: dict[str, Any]) -> None:
    for key, value in delta.items():
        total[key] = total[key] + value if key in total else value


def games_block(games: list[tuple[int, dict[str, np.ndarray]]]) -> dict[str, np.ndarray]:
    """Games (``(file index, pack_one's arrays)``) as one block: a shard's arrays, but for the
    rules as text (``game_rules``, str) and each game's rows (``game_rows``)."""
    counts = [len(g["hand_id"]) for _, g in games]
    hands = np.zeros(len(games) + 1, dtype=np.int32)
    np.cumsum(counts, out=hands[1:])
    moves = np.zeros(hands[-1] + 1, dtype=np.int32)
    at = 0
    for (_, g), h in zip(games, hands[:-1], strict=True):
        m = g["hand_moves"]
        moves[h : h + len(m) - 1] = m[:-1] + at
        at += int(m[-1])
    moves[-1] = at

    def cat(key: str, dtype) -> np.ndarray:
        return np.concatenate([g[key] for _, g in games]).astype(dtype, copy=False)

    return {
        "game_hands": hands,
        "game_file": np.array([i for i, _ in games], dtype=np.int32),
        "game_rules": np.array([g["rules"].item() for _, g in games], dtype=str),
        "game_names": np.stack([g["names"] for _, g in games]),
        "game_rank": np.stack([g["rank"] for _, g in games]),
        "game_score": np.stack([g["score"] for _, g in games]),
        "game_full": cat("full", np.uint8),
        "game_rows": cat("rows", np.int64),
        "hand_wall": cat("hand_wall", np.uint8),
        "hand_known": cat("hand_known", np.uint8),
        "hand_start": cat("hand_start", np.int32),
        "hand_end": cat("hand_end", np.int8),
        "hand_delta": cat("hand_delta", np.int32),
        "hand_finished": cat("hand_finished", np.uint8),
        "hand_id": cat("hand_id", np.int16),
        "hand_moves": moves,
        "moves": cat("moves", np.int16),
    }


def _join_blocks(blocks: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Blocks of games as one, in order (their hand and move offsets shifted)."""
    if len(blocks) == 1:
        return blocks[0]
    hands, moves = [np.zeros(1, np.int32)], [np.zeros(1, np.int32)]
    h = m = 0
    for b in blocks:
        hands.append(b["game_hands"][1:] + h)
        moves.append(b["hand_moves"][1:] + m)
        h += int(b["game_hands"][-1])
        m += int(b["hand_moves"][-1])
    out = {k: np.concatenate([b[k] for b in blocks]) for k in blocks[0]}
    out["game_hands"] = np.concatenate(hands)
    out["hand_moves"] = np.concatenate(moves)
    return out


def _split_block(block: dict[str, np.ndarray], g: int) -> tuple[dict, dict]:
    """A block's first ``g`` games and the rest, as two blocks."""
    h = int(block["game_hands"][g])
    m = int(block["hand_moves"][h])
    head, tail = {}, {}
    for k, v in block.items():
        cut = g if k.startswith("game_") else h if k.startswith("hand_") else m
        head[k], tail[k] = v[:cut], v[cut:]
    head["game_hands"], tail["game_hands"] = (
        block["game_hands"][: g + 1],
        block["game_hands"][g:] - h,
    )
    head["hand_moves"], tail["hand_moves"] = (
        block["hand_moves"][: h + 1],
        block["hand_moves"][h:] - m,
    )
    return head, tail


class ShardWriter:
    """Collects games (blocks of them, :func:`games_block`) and writes them as
    ``shard-NNNNN.npz`` files of ``shard_games`` games each, in the order added; the same games
    give the same bytes however they were grouped in blocks."""

    def __init__(self, out: Path, shard_games: int) -> None:
        self.out = out
        self.shard_games = shard_games
        self.rules: list[dict[str, Any]] = []
        self._rules_index: dict[str, int] = {}
        self.shards: list[dict[str, Any]] = []
        self._blocks: list[dict[str, np.ndarray]] = []
        self._games = 0  # in ``_blocks``

    def add(self, file_index: int, game: dict[str, np.ndarray]) -> None:
        """Add a game (:func:`pack_one`'s arrays), given up by the caller."""
        self.add_block(games_block([(file_index, game)]))

    def add_block(self, block: dict[str, np.ndarray], first_file: int = 0) -> None:
        """Add a block of games, given up by the caller (its arrays that are views of other
        memory, a worker's shared block, are copied), their file indices counted from
        ``first_file``; writes each shard as soon as it is full."""
        block = {k: v if v.base is None else np.array(v) for k, v in block.items()}
        if first_file:
            block["game_file"] = block["game_file"] + np.int32(first_file)
        while True:
            room = self.shard_games - self._games
            n = len(block["game_file"])
            if n < room:
                self._blocks.append(block)
                self._games += n
                return
            head, block = _split_block(block, room) if n > room else (block, None)
            self._blocks.append(head)
            self._games += room
            self.flush()
            if block is None:  # else the rest, at least one game
                return

    def flush(self) -> None:
        """Write the games added since the last shard as a shard of their own."""
        if not self._blocks:
            return
        games = _join_blocks(self._blocks)
        self._blocks, self._games = [], 0
        rules = []
        for text in games["game_rules"].tolist():
            if text not in self._rules_index:
                self._rules_index[text] = len(self.rules)
                self.rules.append(json.loads(text))
            rules.append(self._rules_index[text])
        arrays = {k: v for k, v in games.items() if k != "game_rows"}
        arrays["game_rules"] = np.array(rules, dtype=np.int16)
        # the width of the names of this shard's games (a block split across shards has that
        # of all its games)
        arrays["game_names"] = np.array(games["game_names"].tolist(), dtype=str).reshape(-1, 4)
        name = f"shard-{len(self.shards):05d}.npz"
        write_arrays(self.out / name, arrays)
        self.shards.append(
            {
                "file": name,
                "games": len(arrays["game_file"]),
                "hands": int(arrays["game_hands"][-1]),
                "rows": int(games["game_rows"].sum()),
            }
        )


def write_arrays(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """``arrays`` as an uncompressed ``.npz`` (``np.load`` reads it) with fixed zip timestamps
    and file modes, so that the same arrays give the same bytes; written under ``NAME.tmp``,
    then renamed (a run that stops leaves no half-written shard under the shard's name)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
            for name, array in arrays.items():
                info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_TIME)
                info.compress_type = zipfile.ZIP_STORED
                info.external_attr = 0o600 << 16
                with zf.open(info, "w", force_zip64=True) as f:
                    np.lib.format.write_array(f, np.ascontiguousarray(array), allow_pickle=False)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


# ---------------------------------------------------------------- reading


class GameShard:
    """One shard of a ``games`` shard set, its arrays in the dtypes the replay takes."""

    def __init__(self, path: Path, manifest: dict[str, Any]) -> None:
        with np.load(path, allow_pickle=False) as data:
            a = {k: data[k] for k in data.files}
        missing = sorted(set(_SHARD_ARRAYS) - set(a))
        if missing:
            raise ValueError(f"{path}: not a games shard (no {', '.join(missing)})")
        self.path = path
        self.games = len(a["game_file"])
        self.hands = a["game_hands"].astype(np.int64)
        if len(self.hands) != self.games + 1 or self.hands[-1] != len(a["hand_id"]):
            raise ValueError(f"{path}: its game and hand arrays do not agree")
        self.file = a["game_file"]
        self.rules = a["game_rules"]
        self.names = a["game_names"]
        self.rank, self.score, self.full = a["game_rank"], a["game_score"], a["game_full"]
        self.wall = a["hand_wall"].astype(np.int32)
        self.known = np.unpackbits(a["hand_known"], axis=1, count=136)
        self.start = a["hand_start"].astype(np.int32)
        self.end = a["hand_end"].astype(np.int32)
        self.delta = a["hand_delta"].astype(np.int32)
        self.finished = a["hand_finished"].astype(np.uint8)
        self.hand_id = a["hand_id"].astype(np.int32)
        self.hand_moves = a["hand_moves"].astype(np.int32)
        self.moves = a["moves"].astype(np.int32)
        if len(manifest["files"]) and (self.file.max(initial=0) >= len(manifest["files"])):
            raise ValueError(f"{path}: a game's file index is beyond the manifest's files")

    def prepared(self, g: int, rules: list, red: list, players: int):
        """Game ``g`` as a :class:`~riichi_env.dataset.convert.Prepared` for
        :meth:`Converter.rows_of`; ``rules``/``red``: the manifest's rules as ``Rules`` and their
        red-five flags."""
        from riichi_env.dataset.convert import Prepared
        from riichi_env.dataset.pack import PackedGame
        from riichi_env.records.model import hand_label

        h0, h1 = int(self.hands[g]), int(self.hands[g + 1])
        s0 = int(self.hand_moves[h0])
        start = self.start[h0:h1]
        packed = PackedGame(
            walls=self.wall[h0:h1],
            known=self.known[h0:h1],
            starts=start,
            script=self.moves[s0 : int(self.hand_moves[h1])],
            script_lo=self.hand_moves[h0 : h1 + 1] - s0,
            ends=self.end[h0:h1],
            rec_deltas=self.delta[h0:h1],
            finished=self.finished[h0:h1],
            hand_ids=self.hand_id[h0:h1],
            labels=[hand_label(int(c) // 4, int(c) % 4, int(b)) for c, b in start[:, :2]],
            errors=[],
            red=red[int(self.rules[g])],
            full_walls=bool(self.full[g]),
        )
        names = tuple(str(n) for n in self.names[g])
        return Prepared(
            name=f"game {g} of {self.path.name}",
            packed=packed,
            rules=rules[int(self.rules[g])],
            names=names,
            players=players,
            final_rank=self.rank[g],
            final_score=self.score[g],
        )


_SHARD_ARRAYS = (
    "game_hands",
    "game_file",
    "game_rules",
    "game_names",
    "game_rank",
    "game_score",
    "game_full",
    "hand_wall",
    "hand_known",
    "hand_start",
    "hand_end",
    "hand_delta",
    "hand_finished",
    "hand_id",
    "hand_moves",
    "moves",
)


def row_options(manifest: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The converter options rows are made with: the manifest's, with those ``given`` (only
    ``ROW_OPTIONS``; a ``ValueError`` naming any other) in their place."""
    other = sorted(set(given) - set(ROW_OPTIONS))
    if other:
        raise ValueError(
            f"{', '.join(other)}: not an option of reading shards; the rows are made with "
            f"{', '.join(ROW_OPTIONS)} (the records' rules and walls were fixed when the shards "
            "were written)"
        )
    options = {k: manifest["options"].get(k) for k in ROW_OPTIONS}
    options.update(given)
    return options


class GameRows:
    """The rows of a ``games`` shard set, game by game, made with ``options`` (``ROW_OPTIONS``).

    Attributes:
        converter: the :class:`~riichi_env.dataset.Converter` making them; its ``stats`` count
            what was read (a hand that no longer replays would be in ``skipped``).
        files: the manifest's ``files`` (the ``file`` column indexes them).
    """

    def __init__(self, directory: str | os.PathLike, manifest: dict[str, Any], options: dict):
        from engine.rules import Rules
        from riichi_env.dataset.convert import Converter
        from riichi_env.dataset.pack import red_flags

        self.directory = Path(directory)
        self.manifest = manifest
        self.options = row_options(manifest, options)
        players = manifest["game_players"]
        converter = Converter(**self.options)
        if converter.game_players != players:
            raise ValueError(
                f"encoder {converter.encoder!r} is for {converter.game_players} players, the "
                f"shards hold {players}-player games: choose one of "
                f"{', '.join(_encoders_for(players))}"
            )
        self.converter = converter
        self.files = list(manifest["files"])
        self.rules = [Rules(**fields) for fields in manifest["rules"]]
        self.red = [red_flags(r) for r in self.rules]
        self.players = players

    def shard(self, i: int) -> GameShard:
        """Shard ``i`` (checked against the manifest)."""
        entry = self.manifest["shards"][i]
        shard = GameShard(self.directory / entry["file"], self.manifest)
        if shard.games != entry["games"]:
            raise ValueError(
                f"{shard.path}: {shard.games} games, the manifest says {entry['games']}"
            )
        return shard

    def rows(
        self, shard: GameShard, g: int, reuse: bool = True, at: int = 0
    ) -> dict[str, np.ndarray]:
        """The rows of game ``g`` of ``shard`` (``reuse``: views of the converter's buffers,
        written from row ``at`` on, valid until they are written again)."""
        prepared = shard.prepared(g, self.rules, self.red, self.players)
        return self.converter.rows_of(prepared, reuse=reuse, at=at)


def _encoders_for(players: int) -> tuple[str, ...]:
    return ENCODERS_3P if players == 3 else ENCODERS


def iter_game_shards(
    directory: str | os.PathLike,
    manifest: dict[str, Any],
    indices: Iterable[int],
    options: dict[str, Any],
) -> Iterator[dict[str, np.ndarray]]:
    """The rows of each shard ``indices`` of a ``games`` shard set, with the ``file`` column."""
    from riichi_env.dataset.convert import concat_rows
    from riichi_env.dataset.io import FILE_COLUMN

    reader = GameRows(directory, manifest, options)
    for i in indices:
        shard = reader.shard(i)
        parts = []
        for g in range(shard.games):
            rows = reader.rows(shard, g, reuse=False)
            rows[FILE_COLUMN] = np.full(len(rows["action"]), shard.file[g], dtype=np.int32)
            parts.append(rows)
        if parts:
            yield concat_rows(parts)
        else:
            empty = reader.converter.empty()
            empty[FILE_COLUMN] = np.zeros(0, dtype=np.int32)
            yield empty


class ShardBatches:
    """Batches of a shard set's rows (:func:`iter_shard_batches`), as an iterator.

    Attributes:
        files: the records (the ``file`` column indexes them).
        stats: the :class:`~riichi_env.dataset.Stats` of the games read so far (``games``
            layout; a ``rows`` shard set's rows were counted when written).
        options: the converter options the rows are made with (``games`` layout).
    """

    def __init__(
        self,
        directory: str | os.PathLike,
        batch_size: int,
        *,
        shuffle: bool,
        shuffle_buffer: int,
        seed: int,
        drop_last: bool,
        part: tuple[int, int],
        action_dtype,
        options: dict[str, Any],
    ) -> None:
        from riichi_env.dataset.convert import Stats
        from riichi_env.dataset.io import read_manifest

        self.manifest = read_manifest(directory)
        self.directory = directory
        self.batch_size = check_int("batch_size", batch_size, 1)
        self.shuffle = check_bool("shuffle", shuffle)
        self.shuffle_buffer = check_int("shuffle_buffer", shuffle_buffer, 0)
        self.seed = check_seed(seed)
        self.drop_last = check_bool("drop_last", drop_last)
        if (
            not isinstance(part, tuple)
            or len(part) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in part)
            or not 0 <= part[0] < part[1]
        ):
            raise ValueError(f"part must be (i, n) with 0 <= i < n, got {describe(part)}")
        self.part = part
        self.action_dtype = np.dtype(action_dtype)
        if self.action_dtype.kind not in "iu":
            raise TypeError(f"action_dtype must be an integer dtype, got {self.action_dtype}")
        self.files = list(self.manifest["files"])
        self.layout = self.manifest.get("layout", ROWS)
        if self.layout == GAMES:
            self._reader = GameRows(directory, self.manifest, options)
            self.options = self._reader.options
            self.stats = self._reader.converter.stats
        else:
            if options:
                raise ValueError(
                    f"{directory}: a rows shard set holds its rows as they were written; "
                    f"{', '.join(sorted(options))} can only be chosen when reading a games shard "
                    "set (riichi-env dataset's default layout)"
                )
            self._reader = None
            self.options = dict(self.manifest.get("options", {}))
            self.stats = Stats()
        self._gen: Iterator | None = None

    def __iter__(self) -> ShardBatches:
        return self

    def __next__(self) -> dict[str, np.ndarray]:
        if self._gen is None:
            self._gen = self._batches()
        return next(self._gen)

    def close(self) -> None:
        """Stop reading (the iterator ends)."""
        if self._gen is not None:
            self._gen.close()

    def __enter__(self) -> ShardBatches:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _games(self) -> Iterator[tuple[GameShard, int]]:
        """``(shard, game)`` in reading order: this part's games (global index ``k % n == i``),
        shards and games shuffled with ``shuffle``."""
        rng = np.random.default_rng([self.seed, 0])
        shards = self.manifest["shards"]
        order = rng.permutation(len(shards)) if self.shuffle else range(len(shards))
        starts = np.zeros(len(shards) + 1, dtype=np.int64)
        np.cumsum([s["games"] for s in shards], out=starts[1:])
        i, n = self.part
        for s in order:
            s = int(s)
            first = int(starts[s])
            games = [g for g in range(shards[s]["games"]) if (first + g) % n == i]
            if not games:
                continue
            shard = self._reader.shard(s)
            if self.shuffle:
                games = [games[j] for j in rng.permutation(len(games))]
            for g in games:
                yield shard, g

    def _batches(self) -> Iterator[dict[str, np.ndarray]]:
        """The batches. A ``games`` set writes its rows straight into the converter's buffers,
        game after game, until a block of ``max(shuffle_buffer, batch_size)`` rows is there,
        then deals the block out (in a random order with ``shuffle_buffer``), each row copied
        once into a batch; a ``rows`` set goes through ``rebatch``'s buffer."""
        from riichi_env.dataset.io import _Filler

        if self._reader is None:
            yield from self._row_set_batches()
            return
        rng = np.random.default_rng([self.seed, 1])
        filler = _Filler(self.batch_size)
        block = max(self.shuffle_buffer, self.batch_size)
        converter = self._reader.converter
        converter._grow(block + 4096)  # a block and a game's rows: sized once, not by doubling
        files = np.zeros(block + 4096, dtype=np.int32)
        at = 0
        for shard, g in self._games():
            rows = self._reader.rows(shard, g, reuse=True, at=at)
            n = len(rows["action"])
            if len(files) < at + n:
                files = np.concatenate([files, np.zeros(max(at + n, 2 * len(files)), np.int32)])
            files[at : at + n] = shard.file[g]
            at += n
            if at >= block:
                yield from self._deal(filler, converter.buffers, files, at, rng)
                at = 0
        if at:
            yield from self._deal(filler, converter.buffers, files, at, rng)
        last = filler.rest()
        if last is not None and not self.drop_last:
            yield self._cast(last)

    def _deal(self, filler, buffers: dict, files: np.ndarray, n: int, rng) -> Iterator[dict]:
        """Rows ``0 .. n - 1`` of the buffers into batches, in a random order if shuffled."""
        from riichi_env.dataset.io import FILE_COLUMN

        store = {k: v[:n] for k, v in buffers.items()}
        store[FILE_COLUMN] = files[:n]
        order = rng.permutation(n) if self.shuffle_buffer else np.arange(n)
        for batch in filler.take(store, order):
            yield self._cast(batch)

    def _row_set_batches(self) -> Iterator[dict[str, np.ndarray]]:
        """A ``rows`` shard set: this part's shards (``k % n == i``), shuffled with
        ``shuffle``, through ``rebatch``'s buffer."""
        from riichi_env.dataset.io import _rebatch, iter_shards

        rng = np.random.default_rng([self.seed, 0])
        count = len(self.manifest["shards"])
        order = rng.permutation(count) if self.shuffle else np.arange(count)
        i, n = self.part
        mine = [int(s) for s in order if s % n == i]
        chunks = iter_shards(self.directory, indices=mine)
        for batch in _rebatch(
            chunks, self.batch_size, self.shuffle_buffer, self.seed, self.drop_last
        ):
            yield self._cast(batch)

    def _cast(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        action = batch["action"]
        if action.dtype != self.action_dtype:
            batch["action"] = action.astype(self.action_dtype)
        return batch


def iter_shard_batches(
    directory: str | os.PathLike,
    batch_size: int = 1024,
    *,
    shuffle: bool = False,
    shuffle_buffer: int = 0,
    seed: int = 0,
    drop_last: bool = False,
    part: tuple[int, int] = (0, 1),
    action_dtype: Any = np.int64,
    **options: Any,
) -> ShardBatches:
    """Batches of the rows of a shard set written by ``riichi-env dataset`` / ``write_shards``:
    dicts of NumPy arrays, ``batch_size`` rows each (the last may be fewer; ``drop_last`` drops
    it), with the converter's columns plus ``file`` (int32, an index into the manifest's
    ``files``), ``action`` as ``action_dtype`` (int64: what a loss takes).

    A ``games`` shard set makes its rows as it reads them, with the manifest's converter options
    or those given (``ROW_OPTIONS``: ``encoder``, ``seats``, ``players``, ``kinds``,
    ``skip_forced``, ``augment``, ``oracle``, ``dtype``); a ``rows`` shard set gives the rows it
    holds. ``shuffle``: shards, then each shard's games, in an order drawn from ``seed``;
    ``shuffle_buffer=N``: each row drawn uniformly from a buffer of ``N`` rows (both for a
    shuffled epoch: the games of a shard are many rows each). ``part=(i, n)``: only game ``k``
    with ``k % n == i`` (a ``rows`` set: shard ``k``), so ``n`` readers (``DataLoader``
    workers) share a set without overlap. The same arguments give the same batches.

    Raises:
        TypeError, ValueError: a bad argument or option, or not a complete shard set.
    """
    return ShardBatches(
        directory,
        batch_size,
        shuffle=shuffle,
        shuffle_buffer=shuffle_buffer,
        seed=seed,
        drop_last=drop_last,
        part=part,
        action_dtype=action_dtype,
        options=options,
    )


def write_game_shards(
    batches, out: Path, shard_games: int, progress: Callable[[int], Any] | None
) -> dict[str, Any]:
    """The ``games`` layout of :func:`riichi_env.dataset.io.write_shards`: ``batches`` (an
    ``io.BatchIterator``, its files and options checked) packed into shards in ``out``; the
    manifest. The files are converted in runs of a few (``_runs``), each packed into one block
    of games."""
    from riichi_env.dataset.io import _add_stats, _Run

    batches._mode = GAMES
    writer = ShardWriter(out, shard_games)
    run = _Run(batches)
    run.files = runs = _runs(batches.files, batches.workers)
    results = run.results()
    block = None
    done = 0
    try:
        for index, (block, (delta, error)) in enumerate(results):
            _add_stats(batches.stats, delta)
            if block is not None:
                writer.add_block(block, first_file=done)
            block = None  # a worker's views: its slot is free again
            if error is not None:
                raise error
            done += len(runs[index])
            if progress is not None:
                progress(done)
        writer.flush()
    finally:
        block = None
        results.close()
    return _manifest(batches, writer, shard_games)


RUN_FILES = 8
"""Files converted as one run, at most: their games are packed into one block (a worker sends
one message and one set of arrays for them, and the writer joins 8x fewer pieces), yet a run is
20-30 ms of work, short enough to split the files evenly between the processes. A Ctrl-C or
SIGTERM is still acted on after the file being converted (``pack_files``'s ``stop``)."""


RUNS_PER_PROCESS = 32
"""Runs each process has at least (when there are files enough), so that the last runs still
split evenly."""


def _runs(files: list, workers: int) -> list[tuple[str, ...]]:
    """``files`` in consecutive runs (tuples of paths as text) of up to ``RUN_FILES``, fewer
    when there are too few files to give each process ``RUNS_PER_PROCESS`` runs."""
    size = max(1, min(RUN_FILES, len(files) // (RUNS_PER_PROCESS * max(workers, 1))))
    names = [str(f) for f in files]
    return [tuple(names[i : i + size]) for i in range(0, len(names), size)]


def _manifest(batches, writer: ShardWriter, shard_games: int) -> dict[str, Any]:
    from riichi_env import __version__
    from riichi_env.dataset.io import SHARD_FORMAT, _fields, _skip_dict, manifest_options

    converter = batches._converter
    options = manifest_options(converter, batches.options)
    stats = _fields(batches.stats)
    columns = {
        k: {"dtype": v.dtype.name, "shape": list(v.shape[1:])}
        for k, v in {**converter.empty(), "file": np.zeros(0, np.int32)}.items()
    }
    width = columns["mask"]["shape"][0]
    return {
        "format": SHARD_FORMAT,
        "format_version": GAMES_VERSION,
        "layout": GAMES,
        "riichi_env_version": __version__,
        "encoder": options.get("encoder"),
        "game_players": converter.game_players,
        "mask_width": width,
        "dtype": options.get("dtype"),
        "options": options,
        "columns": columns,
        "rows": sum(s["rows"] for s in writer.shards),
        "shard_games": shard_games,
        "shards": writer.shards,
        "rules": writer.rules,
        "files": [str(p) for p in batches.files],
        "games": sum(s["games"] for s in writer.shards),
        "hands": stats.get("hands", 0),
        "decisions": stats.get("decisions", 0),
        "illegal": stats.get("illegal", 0),
        "skipped": [_skip_dict(s) for s in stats.get("skipped", [])],
        "truncated": [_skip_dict(s) for s in stats.get("truncated", [])],
        "ignored": [{"file": str(f), "reason": why} for f, why in batches.ignored],
    }


def shard_bytes(directory: str | os.PathLike) -> int:
    """Bytes of a shard set's files on disk (its shards and manifest)."""
    root = Path(directory)
    names = [s["file"] for s in _manifest_shards(root)] + ["manifest.json"]
    return sum((root / n).stat().st_size for n in names if (root / n).exists())


def _manifest_shards(root: Path) -> list[dict[str, Any]]:
    from riichi_env.dataset.io import read_manifest

    return read_manifest(root)["shards"]


__all__ = [
    "GAMES",
    "LAYOUTS",
    "ROWS",
    "ROW_OPTIONS",
    "SHARD_GAMES",
    "GameRows",
    "ShardBatches",
    "iter_shard_batches",
    "games_block",
    "pack_files",
    "pack_one",
    "shard_bytes",
    "write_arrays",
]
