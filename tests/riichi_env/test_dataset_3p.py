"""riichi_env.dataset with three players (issue 26): rows of three-player records are exactly what
the three-player env shows (86-entry masks, the three-seat encoders, kita as a decision kind), the
real three-player records convert, and three- and four-player rows never mix.

The central test mirrors ``test_dataset.py``'s: games played through the three-player env, written
as records (the engine's own log, mjai in both kita dialects, tenhou.net/6), give the env's
observation, mask and action at every decision whose choice the record shows.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from test_dataset import _check_identical, expected_rows, play
from test_dataset_io import LOGS, THREE_PLAYER_LOGS

from engine.actions import KITA, N_ACTIONS, N_ACTIONS_3P, PASS, RON
from engine.rules import Rules
from engine.scenario import play as play_moves
from engine.scenario import start_hand
from riichi_env.core.encoders import ENCODERS_3P, N_ROWS, OFFERED3
from riichi_env.dataset.convert import (
    KIND_IDS,
    KINDS,
    Converter,
    DatasetError,
    concat_rows,
    grp_game,
)
from riichi_env.dataset.io import (
    iter_shards,
    load_shards,
    read_manifest,
    rebatch,
    write_shards,
)
from riichi_env.records.convert import read_file, read_text
from riichi_env.records.export import game_from_events
from riichi_env.records.mjai import SANMA_DIALECTS, dumps_mjai
from riichi_env.records.tenhou6 import write_tenhou6

KNOWN_SKIPS_3P = {("kokushi_peinuki.json", "hand E3-0: point changes")}
"""The one hand the replay lists as a converter quirk too (``test_records_3p.KNOWN_DIFFERENCES``:
the record's deltas leave out a riichi stick its own final points count)."""
NORTH = 30
"""The North's tile34 index."""


def _records(env, rules: Rules) -> dict[str, object]:
    """The env's game as records: the engine's log, mjai in each kita dialect, tenhou.net/6."""
    raw = env.unwrapped if hasattr(env, "unwrapped") else env
    rows = np.array(raw._ev[0, : int(raw._st.n_events[0])])
    game = game_from_events(rows, rules)
    out: dict[str, object] = {"game": game}
    for dialect in SANMA_DIALECTS:
        out[f"mjai-{dialect}"] = read_text(dumps_mjai(game, sanma_dialect=dialect), fmt="mjai")
    out["tenhou6"] = read_text(json.dumps(write_tenhou6(game)), fmt="tenhou6")
    return out


CASES = [
    ("mahjongsoul-3p", "basic3_v0", "efficiency", 11),
    ("mahjongsoul-3p", "rich3_v0", "random", 12),
    ("mahjongsoul-3p", "oracle3_v0", "efficiency", 13),
    ("tenhou-3p", "basic3_v0", "random", 14),
    ("tenhou-3p", "rich3_v0", "efficiency", 15),
    ("tenhou-3p", "oracle3_v0", "random", 16),
]


@pytest.mark.parametrize(("preset", "encoder", "policy", "seed"), CASES)
def test_rows_are_the_three_player_envs_observation_mask_and_action(preset, encoder, policy, seed):
    """Bit identity with three players: every record format of a three-player env game gives the
    env's own rows (86-entry masks, kita rows with action 85)."""
    rules = Rules.preset(preset)
    decisions, env = play(preset, encoder, policy, seed)
    want = expected_rows(decisions)
    assert want[0]["mask"].shape == (N_ACTIONS_3P,)
    conv = Converter(encoder, rules=rules, strict=True)
    auto = Converter(encoder, strict=True)  # rules from the record: its -3p preset
    for fmt, game in _records(env, rules).items():
        if encoder.startswith("oracle") and fmt != "game":
            continue  # only the engine's log has the whole wall (docs/dataset.md)
        rows = conv.convert(game)
        _check_identical(rows, want, f"{preset} {encoder} {policy} {fmt}")
        assert rows["mask"].shape[1] == N_ACTIONS_3P and rows["obs"].shape[1] == N_ROWS[encoder]
        kita = rows["kind"] == KIND_IDS["kita"]
        assert np.array_equal(kita, rows["action"] == KITA)
        if fmt != "game":  # an exported record names its rules; the engine's log does not
            _check_identical(auto.convert(game), want, f"{preset} {encoder} {fmt}, rules auto")
    assert conv.stats.illegal == 0 and not conv.stats.skipped and not auto.stats.skipped
    if policy == "efficiency":  # the compiled agents declare every kita they may
        assert sum(d["action"] == KITA for d in want) > 0


def test_uint8_and_oracle_columns_with_three_players():
    """uint8 rows are the float rows quantized; ``oracle=True`` adds ``oracle3_v0`` rows, the
    whole wall's from the engine's log, the revealed places' from mjai."""
    from riichi_env.core.encoders import WALL_KINDS3, bounds
    from riichi_env.core.runner import _quantize

    rules = Rules.preset("mahjongsoul-3p")
    _, env = play("mahjongsoul-3p", "basic3_v0", "efficiency", 21)
    recs = _records(env, rules)
    f = Converter("rich3_v0", rules=rules).convert(recs["game"])
    u = Converter("rich3_v0", rules=rules, dtype="uint8").convert(recs["game"])
    low, high = bounds("rich3_v0")
    lo = np.ascontiguousarray(low[:, 0], dtype=np.float32)
    inv = (255.0 / (high[:, 0] - low[:, 0])).astype(np.float32)
    for n in range(0, len(f["action"]), 29):
        want = np.zeros_like(u["obs"][n])
        _quantize(f["obs"][n], lo, inv, want)
        assert np.array_equal(u["obs"][n], want)
    full = Converter("basic3_v0", rules=rules, oracle=True).convert(recs["game"])
    orc = Converter("oracle3_v0", rules=rules).convert(recs["game"])
    assert full["oracle"].shape[1:] == (N_ROWS["oracle3_v0"], 34)
    assert np.array_equal(full["oracle"], orc["obs"])
    part = Converter("basic3_v0", rules=rules, oracle=True).convert(recs["mjai-kita"])
    assert np.array_equal(part["obs"], full["obs"])
    assert np.array_equal(part["oracle"][:, :WALL_KINDS3], full["oracle"][:, :WALL_KINDS3])
    walls = slice(WALL_KINDS3, WALL_KINDS3 + 4)
    assert (part["oracle"][:, walls] <= full["oracle"][:, walls]).all()
    assert (part["oracle"][:, walls] < full["oracle"][:, walls]).any()
    byte = Converter("basic3_v0", rules=rules, oracle=True, dtype="uint8").convert(
        recs["mjai-kita"]
    )
    assert byte["oracle"].dtype == np.uint8 and byte["oracle"].shape == part["oracle"].shape


def test_pin_sou_augmentation_with_three_players():
    """``augment="ps"`` adds the pin/sou swap, a legal three-player game (no 2m-8m appear); the
    man-swapping options are refused for three-seat encoders."""
    rules = Rules.preset("tenhou-3p")
    _, env = play("tenhou-3p", "basic3_v0", "efficiency", 31)
    game = _records(env, rules)["mjai-nukidora"]
    base = Converter("basic3_v0", rules=rules).convert(game)
    conv = Converter("basic3_v0", rules=rules, augment="ps")
    rows = conv.convert(game)
    assert conv.stats.illegal == 0 and len(rows["action"]) == 2 * len(base["action"])
    swapped = rows["perm"] == 2
    cols = np.r_[0:9, 18:27, 9:18, 27:34]  # pin and sou columns swapped
    hand = slice(0, 4)
    assert np.array_equal(rows["obs"][swapped][:, hand], base["obs"][:, hand][:, :, cols])
    assert np.array_equal(rows["kind"][swapped], base["kind"])
    for augment in ("mp", "suits"):
        with pytest.raises(ValueError, match="three-seat encoder basic3_v0 use None or 'ps'"):
            Converter("basic3_v0", augment=augment)


def test_every_real_three_player_record_gives_rows_with_no_illegal_move():
    """The real three-player records (Tenhou mjlog, tenhou.net/6 of Tenhou and Mahjong Soul,
    RiichiEnv's mjai) convert with rules from each record: 0 illegal moves, one known skip."""
    assert len(THREE_PLAYER_LOGS) == 16
    conv = Converter("basic3_v0")
    rows = [conv.convert(f) for f in THREE_PLAYER_LOGS]
    assert conv.stats.illegal == 0
    skips = {
        (Path(s.file).name, s.reason[: len("hand E3-0: point changes")]) for s in conv.stats.skipped
    }
    assert skips == KNOWN_SKIPS_3P, conv.stats.skipped
    assert all(r is not None and len(r["action"]) > 0 for r in rows)
    allrows = concat_rows(rows)
    assert conv.stats.decisions == len(allrows["action"]) > 5000
    kinds = {KINDS[k] for k in np.unique(allrows["kind"])}
    assert {"discard", "riichi", "tsumo", "ron", "pon", "pass", "kita"} <= kinds
    assert "chi" not in kinds and (allrows["seat"] < 3).all()
    kita = allrows["kind"] == KIND_IDS["kita"]
    assert np.array_equal(kita, allrows["action"] == KITA) and kita.sum() > 300
    # a North kept where kita was legal: the row is the discard (or call) the record made
    kept = (allrows["mask"][:, KITA] == 1) & ~kita
    assert kept.sum() > 0 and (allrows["action"][kept] != KITA).all()
    # ron on a kita: the claim's offered tile is the North and the seat before set it aside
    ron = (allrows["kind"] == KIND_IDS["ron"]) & (allrows["obs"][:, OFFERED3, NORTH] == 1)
    assert ron.sum() >= 3
    # the final ranks of three seats, 0-2 (-1: RiichiEnv's records give no final points)
    assert set(np.unique(allrows["final_rank"]).tolist()) == {-1, 0, 1, 2}
    sanma2 = rows[THREE_PLAYER_LOGS.index(LOGS / "tenhou-mjlog" / "sanma2.xml")]
    ranks = {int(s): int(r) for s, r in zip(sanma2["seat"], sanma2["final_rank"], strict=True)}
    scores = {int(s): float(r) for s, r in zip(sanma2["seat"], sanma2["final_score"], strict=True)}
    assert ranks == {0: 1, 1: 0, 2: 2} and scores == {0: -13.0, 1: 79.0, 2: -66.0}  # its owari
    grp = grp_game(LOGS / "tenhou-mjlog" / "sanma2.xml")
    assert (grp["features"][:, 6] == 0).all() and grp["ranks"][3] == -1
    assert sorted(grp["ranks"][:3].tolist()) == [0, 1, 2]


def _scripted(*moves: str) -> dict[str, np.ndarray]:
    """Three players, East 1: seat 0 holds a North and draws 9m; seat 1 waits on the North
    (haku, ittsuu); then ``moves``. The rows of the record of what was played."""
    rules = Rules.preset("mahjongsoul-3p")
    hands = ["19m147p258s1236z4z", "123p456p789p555z4z", "19m258p369s12367z", ""]
    game = play_moves(start_hand(hands=hands, draws="9m", rinshan="9p", rules=rules), *moves)
    events = np.array(game.state.events[0, : int(game.state.n_events[0])])
    return Converter("basic3_v0", rules=rules, strict=True).convert(game_from_events(events, rules))


def _kinds(rows) -> list[tuple[int, str, int]]:
    return [
        (int(s), KINDS[int(k)], int(a))
        for s, k, a in zip(rows["seat"], rows["kind"], rows["action"], strict=True)
    ]


@pytest.mark.nojit
def test_scripted_kita_rows():
    """A kita is a row of kind kita, action 85; a ron on it is the robber's ron row (offered the
    North); a pass on it (nobody robbed it) is a row; a North kept is the discard the record made."""
    rows = _scripted("kita", "ron")
    assert _kinds(rows) == [(0, "kita", KITA), (1, "ron", RON)]
    assert rows["obs"][1, OFFERED3, NORTH] == 1 and rows["mask"].shape == (2, N_ACTIONS_3P)
    rows = _scripted("kita", "pass", "1m")
    assert _kinds(rows)[:3] == [(0, "kita", KITA), (1, "pass", PASS), (0, "discard", 0)]
    assert rows["mask"][1, RON] == 1
    rows = _scripted("1m")  # the North kept: kita was legal, the record discarded 1m
    assert _kinds(rows)[0] == (0, "discard", 0) and rows["mask"][0, KITA] == 1


def test_encoder_and_record_players_must_meet():
    """A four-player encoder skips a three-player record and a three-seat encoder a four-player
    one, each with a reason naming the encoders to use (``DatasetError`` with ``strict``); rules
    of the other player count are refused when the converter is made."""
    three = LOGS / "tenhou6" / "nukidora_doubleron.json"
    four = LOGS / "tenhou6" / "double_ron.json"
    conv = Converter("basic_v0")
    assert conv.convert(three) is None
    (skip,) = conv.stats.skipped
    assert "3-player record" in skip.reason and "basic3_v0, rich3_v0, oracle3_v0" in skip.reason
    conv = Converter("rich3_v0")
    assert conv.convert(four) is None
    (skip,) = conv.stats.skipped
    assert "4-player record" in skip.reason and "basic_v0, rich_v0, oracle_v0" in skip.reason
    with pytest.raises(DatasetError, match="nukidora_doubleron.json: a 3-player record"):
        Converter(strict=True).convert(three)
    with pytest.raises(DatasetError, match="double_ron.json: a 4-player record"):
        Converter("basic3_v0", strict=True).convert(four)
    with pytest.raises(ValueError, match="for 3 players but the encoder basic_v0 is for 4"):
        Converter("basic_v0", rules="tenhou-3p")
    with pytest.raises(ValueError, match="for 4 players but the encoder oracle3_v0 is for 3"):
        Converter("oracle3_v0", rules=Rules.preset("tenhou"))
    assert Converter("basic3_v0").empty()["mask"].shape == (0, N_ACTIONS_3P)
    assert Converter("basic_v0").empty()["mask"].shape == (0, N_ACTIONS)


def test_three_player_shards_and_mixing_is_refused(tmp_path):
    """Shards of three-player records: the manifest says 3 players and mask width 86; rows of a
    three- and a four-player shard set refuse to mix (rebatch, concat_rows, a stray shard)."""
    three = [LOGS / "tenhou6" / "nukidora_doubleron.json", LOGS / "tenhou6" / "kokushi_ankan.json"]
    four = [LOGS / "tenhou6" / "double_ron.json"]
    m3 = write_shards(
        three, tmp_path / "s3", encoder="basic3_v0", layout="rows", shard_rows=100, progress=False
    )
    m4 = write_shards(four, tmp_path / "s4", layout="rows", shard_rows=100, progress=False)
    assert (m3["game_players"], m3["mask_width"]) == (3, N_ACTIONS_3P)
    assert (m4["game_players"], m4["mask_width"]) == (4, N_ACTIONS)
    assert read_manifest(tmp_path / "s3")["columns"]["mask"]["shape"] == [N_ACTIONS_3P]
    rows = load_shards(tmp_path / "s3")
    assert rows["mask"].shape[1] == N_ACTIONS_3P and len(rows["action"]) == m3["rows"] > 0
    assert rows["obs"].shape[1:] == (N_ROWS["basic3_v0"], 34)
    two = write_shards(
        three, tmp_path / "w2", encoder="basic3_v0", layout="rows", shard_rows=100, workers=2
    )
    assert two["rows"] == m3["rows"]  # worker processes: the same shards, byte for byte
    for shard in m3["shards"]:
        name = shard["file"]
        assert (tmp_path / "w2" / name).read_bytes() == (tmp_path / "s3" / name).read_bytes()
    mixed = itertools.chain(iter_shards(tmp_path / "s3"), iter_shards(tmp_path / "s4"))
    with pytest.raises(ValueError, match="three- and four-player rows cannot be mixed"):
        list(rebatch(mixed, 64))
    with pytest.raises(ValueError, match="three- and four-player rows cannot be mixed"):
        concat_rows([load_shards(tmp_path / "s4"), rows])
    stray = tmp_path / "s4" / "shard-00000.npz"
    stray.write_bytes((tmp_path / "s3" / "shard-00000.npz").read_bytes())
    with pytest.raises(ValueError, match="3-player rows in a 4-player shard set"):
        load_shards(tmp_path / "s4")


def test_three_player_torch_datasets(tmp_path):
    pytest.importorskip("torch")
    from riichi_env.dataset.torch import RecordDataset, ShardDataset

    files = [LOGS / "tenhou6" / "kokushi_ankan.json", LOGS / "tenhou6" / "nukidora_doubleron.json"]
    batches = list(RecordDataset(files, batch_size=64, encoder="basic3_v0"))
    assert batches and all(b["mask"].shape[1] == N_ACTIONS_3P for b in batches)
    write_shards(files, tmp_path / "s", encoder="rich3_v0", progress=False)
    shard_batches = list(ShardDataset(tmp_path / "s", batch_size=64))
    assert sum(len(b["action"]) for b in shard_batches) == sum(len(b["action"]) for b in batches)
    assert shard_batches[0]["obs"].shape[1:] == (N_ROWS["rich3_v0"], 34)


def test_cli_dataset_with_three_players(tmp_path, capsys):
    """``riichi-env dataset --encoder basic3_v0``: rows of the three-player records, the
    four-player ones skipped with their reason; ``--kinds kita``."""
    from riichi_env.cli.main import main

    files = [
        str(LOGS / "tenhou6" / "kokushi_ankan.json"),
        str(LOGS / "tenhou6" / "double_ron.json"),
    ]
    out = tmp_path / "out"
    code = main(["dataset", *files, "--out", str(out), "--encoder", "basic3_v0", "--json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rows"] > 0 and [Path(s["file"]).name for s in doc["skipped"]] == ["double_ron.json"]
    assert read_manifest(out)["game_players"] == 3
    kita_out = tmp_path / "kita"
    args = ["dataset", files[0], "--out", str(kita_out), "--encoder", "oracle3_v0"]
    assert main([*args, "--kinds", "kita", "--rules", "mahjongsoul-3p", "--json"]) == 0
    rows = load_shards(kita_out)
    assert len(rows["action"]) > 0 and (rows["action"] == KITA).all()


def test_the_three_player_replay_uses_the_dataset_groups_signature():
    """A three-player conversion runs ``_run_replay`` with the same types as a four-player one:
    the ``dataset`` compile group covers it (no second signature, no compile on first use)."""
    from engine._numba import jit_disabled
    from engine.compile_parts import signature
    from riichi_env.core.runner import _run_replay, replay_example_arguments

    if jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    game = read_file(LOGS / "tenhou6" / "kokushi_ankan.json")
    for encoder in ENCODERS_3P:
        Converter(encoder, oracle=True, dtype="uint8").convert(game)
        Converter(encoder).convert(game)
    assert _run_replay.signatures == [signature(*replay_example_arguments())]
