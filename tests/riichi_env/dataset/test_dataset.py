"""riichi_env.dataset.convert: records become rows that are exactly what the env showed.

The central test plays games through the env (every encoder, both presets, random and efficiency
seats), writes their records (the engine's own log, mjai, tenhou.net/6), and checks that the rows
of each record are the env's observation, mask and action at every decision whose choice the
record shows, in order. Which passes the record shows is computed here independently, from what
every seat chose in the env. Four and three players (issue 26): rows of three-player records are
exactly what the three-player env shows (86-entry masks, the three-seat encoders, kita as a
decision kind), the real three-player records convert, and three- and four-player rows never mix.
"""

from __future__ import annotations

import glob
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from test_dataset_io import REASON_3P, THREE_PLAYER, THREE_PLAYER_LOGS

import riichi_env
from agents.efficiency_agent import EfficiencyAgent
from engine import state as es
from engine.actions import (
    CHI_HIGH,
    CHI_HIGH_PLAIN,
    CHI_LOW,
    CHI_LOW_PLAIN,
    KAN,
    KITA,
    N_ACTIONS,
    N_ACTIONS_3P,
    PASS,
    PON,
    PON_PLAIN,
    RON,
)
from engine.harness.scenario import play as play_moves
from engine.harness.scenario import start_hand
from engine.rules import Rules
from riichi_env.core.encoders import ENCODERS, ENCODERS_3P, N_ROWS, OFFERED3
from riichi_env.dataset.convert import (
    COLUMNS,
    KIND_IDS,
    KINDS,
    ORACLE,
    ORACLE_3P,
    Converter,
    DatasetError,
    concat_rows,
    grp_game,
    record_arrays,
)
from riichi_env.dataset.io import (
    iter_shards,
    load_shards,
    read_manifest,
    rebatch,
    write_shards,
)
from riichi_env.records.convert import read_file, read_text
from riichi_env.records.export import export_mjai, export_tenhou6, game_from_events
from riichi_env.records.mjai import SANMA_DIALECTS, dumps_mjai
from riichi_env.records.tenhou6 import write_tenhou6

DATA = Path(__file__).resolve().parents[2] / "data" / "logs"  # whatever the working directory
LOGS = sorted(f for f in glob.glob(f"{DATA}/*/*") if not f.endswith((".md", ".py", "walls.jsonl")))


def _claim_priority(action: int) -> int:
    if action == RON:
        return 3
    if action in (PON, PON_PLAIN) or KAN <= action < KAN + 34:
        return 2
    if CHI_LOW <= action <= CHI_HIGH or CHI_LOW_PLAIN <= action <= CHI_HIGH_PLAIN:
        return 1
    return 0


def _lowest_offered(bits: int) -> int:
    if bits & (es.CLAIM_BIT_CHI_LOW | es.CLAIM_BIT_CHI_MID | es.CLAIM_BIT_CHI_HIGH):
        return 1
    if bits & (es.CLAIM_BIT_PON | es.CLAIM_BIT_KAN):
        return 2
    return 3 if bits & es.CLAIM_BIT_RON else 0


def play(rules: str, encoder: str, policy: str, seed: int) -> tuple[list[dict], riichi_env.env]:
    """One game in the env; every decision as {seat, obs, mask, action, claim window, offer}."""
    env = riichi_env.env(rules=rules, encoder=encoder, seed=seed)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    agent = EfficiencyAgent()
    decisions: list[dict] = []
    own = [0, 0, 0, 0]  # each seat's decisions so far: its rows' step
    window = 0
    last_claim = None
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        raw = env.unwrapped if hasattr(env, "unwrapped") else env
        st = raw._st
        mask = obs["action_mask"]
        seat = int(st.actor[0])
        claim = int(st.phase[0]) == es.PHASE_CLAIM
        if claim:
            key = (
                int(st.claim_from[0]),
                int(st.claim_tile[0]),
                int(st.n_decisions[0]) - int(st.claim_pos[0]),
            )
            if key != last_claim:
                window += 1
                last_claim = key
        if policy == "random":
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            action = int(agent.act(obs["observation"], mask, raw.view(name)))
        decisions.append(
            {
                "seat": seat,
                "obs": np.array(obs["observation"]),
                "mask": np.array(mask, dtype=np.int8),
                "action": action,
                "window": window if claim else 0,
                "offer": int(st.claim_mask[0, seat]) if claim else 0,
                "own": own[seat],
            }
        )
        own[seat] += 1
        env.step(action)
    return decisions, env


def expected_rows(decisions: list[dict]) -> list[dict]:
    """The decisions a record shows: all turn decisions; in a claim window the winning claims,
    and passes whose choice is known (nobody claimed, or every option would have shown)."""
    out = []
    i = 0
    while i < len(decisions):
        d = decisions[i]
        if not d["window"]:
            out.append(d)
            i += 1
            continue
        j = i
        while j < len(decisions) and decisions[j]["window"] == d["window"]:
            j += 1
        group = decisions[i:j]
        taken = max(_claim_priority(g["action"]) for g in group)
        for g in group:
            p = _claim_priority(g["action"])
            if taken and p == taken:
                out.append(g)  # the claim that won (every ron of a double ron)
            elif g["action"] == PASS and (taken == 0 or _lowest_offered(g["offer"]) >= taken):
                out.append(g)
        i = j
    return out


def _records(env, rules: Rules) -> dict[str, object]:
    raw = env.unwrapped if hasattr(env, "unwrapped") else env
    rows = np.array(raw._ev[0, : int(raw._st.n_events[0])])
    return {
        "game": game_from_events(rows, rules),
        "mjai": read_text(export_mjai(rows, rules), fmt="mjai"),
        "tenhou6": read_text(export_tenhou6(rows, rules), fmt="tenhou6"),
    }


KNOWN_SKIPS_3P = {("kokushi_peinuki.json", "hand E3-0: point changes")}
"""The one hand the replay lists as a converter quirk too (``test_records_3p.KNOWN_DIFFERENCES``:
the record's deltas leave out a riichi stick its own final points count)."""
NORTH = 30
"""The North's tile34 index."""


def _records_3p(env, rules: Rules) -> dict[str, object]:
    """The env's game as records: the engine's log, mjai in each kita dialect, tenhou.net/6."""
    raw = env.unwrapped if hasattr(env, "unwrapped") else env
    rows = np.array(raw._ev[0, : int(raw._st.n_events[0])])
    game = game_from_events(rows, rules)
    out: dict[str, object] = {"game": game}
    for dialect in SANMA_DIALECTS:
        out[f"mjai-{dialect}"] = read_text(dumps_mjai(game, sanma_dialect=dialect), fmt="mjai")
    out["tenhou6"] = read_text(json.dumps(write_tenhou6(game)), fmt="tenhou6")
    return out


# per player count: the records of an env game (three players: mjai in each kita dialect), the
# width of the action mask, whether the compiled agents declare a kita (every one they may)
RECORDS = {4: (_records, N_ACTIONS, False), 3: (_records_3p, N_ACTIONS_3P, True)}


def _check_identical(rows: dict, want: list[dict], what: str) -> None:
    assert len(rows["action"]) == len(want), f"{what}: {len(rows['action'])} rows, want {len(want)}"
    for n, d in enumerate(want):
        assert rows["seat"][n] == d["seat"], f"{what}: row {n} seat"
        assert rows["action"][n] == d["action"], f"{what}: row {n} action"
        assert np.array_equal(rows["mask"][n], d["mask"]), f"{what}: row {n} mask"
        assert np.array_equal(rows["obs"][n], d["obs"]), f"{what}: row {n} observation"
        assert rows["step"][n] == d["own"], f"{what}: row {n} step (the seat's own decisions)"


CASES = [
    (preset, encoder, policy, seed)
    for preset in ("mahjongsoul", "tenhou")
    for encoder, policy, seed in zip(
        ENCODERS, ["random", "efficiency"] * 3, [11, 12, 13, 14, 15], strict=False
    )
]


CASES_3P = [
    (preset, encoder, ("efficiency", "random")[n % 2], 11 + n)
    for n, (preset, encoder) in enumerate(
        itertools.product(("mahjongsoul-3p", "tenhou-3p"), ENCODERS_3P)
    )
]


@pytest.mark.parametrize(("preset", "encoder", "policy", "seed"), [*CASES, *CASES_3P])
def test_rows_are_the_envs_observation_mask_and_action(preset, encoder, policy, seed):
    """Bit identity: every record format of an env game gives the env's own rows (three players:
    86-entry masks, kita rows with action 85)."""
    rules = Rules.preset(preset)
    records, width, declares_kita = RECORDS[rules.players]
    decisions, env = play(preset, encoder, policy, seed)
    want = expected_rows(decisions)
    assert any(d["action"] == PASS for d in want)
    assert want[0]["mask"].shape == (width,)
    conv = Converter(encoder, rules=rules, strict=True)
    auto = Converter(encoder, strict=True)  # rules from the record
    for fmt, game in records(env, rules).items():
        if encoder.startswith("oracle") and fmt != "game":
            continue  # only the engine's log has the whole wall (the others: docs/dataset.md)
        rows = conv.convert(game)
        _check_identical(rows, want, f"{preset} {encoder} {policy} {fmt}")
        assert rows["mask"].shape[1] == width and rows["obs"].shape[1] == N_ROWS[encoder]
        kita = rows["kind"] == KIND_IDS["kita"]
        assert np.array_equal(kita, rows["action"] == KITA)
        if fmt != "game":  # an exported record names its rules; the engine's log does not
            _check_identical(auto.convert(game), want, f"{preset} {encoder} {fmt}, rules auto")
    assert conv.stats.illegal == 0 and not conv.stats.skipped and not auto.stats.skipped
    if policy == "efficiency" and declares_kita:
        assert sum(d["action"] == KITA for d in want) > 0


def test_uint8_rows_are_the_vector_envs_bytes():
    """dtype uint8 quantizes exactly as vector_env(dtype=np.uint8): same bounds, same rounding."""
    from quantize_reference import _quantize

    from riichi_env.core.encoders import bounds

    rules = Rules.preset("mahjongsoul")
    decisions, env = play("mahjongsoul", "rich_v0", "random", 5)
    game = _records(env, rules)["game"]
    f = Converter("rich_v0", rules=rules).convert(game)
    u = Converter("rich_v0", rules=rules, dtype="uint8").convert(game)
    low, high = bounds("rich_v0")
    lo = np.ascontiguousarray(low[:, 0], dtype=np.float32)
    inv = (255.0 / (high[:, 0] - low[:, 0])).astype(np.float32)
    want = np.zeros((34,), np.uint8)
    for n in range(0, len(f["action"]), 37):
        want = np.zeros_like(u["obs"][n])
        _quantize(f["obs"][n], lo, inv, want)
        assert np.array_equal(u["obs"][n], want)
    assert u["obs"].dtype == np.uint8


@pytest.mark.parametrize("players", [4, 3])
def test_uint8_obs_and_oracle_rows_are_the_float_rows_quantized(players):
    """dtype uint8: the encoders write the bytes themselves, exactly ``_quantize`` of the float32
    rows; the ``oracle`` column's too, its wall rows limited to what an mjai record reveals."""
    from quantize_reference import QUANT_INV, QUANT_LO, _quantize

    from riichi_env.core.encoders import ENCODER_IDS

    preset, encoder, record = {
        4: ("mahjongsoul", "rich_v0", "mjai"),
        3: ("mahjongsoul-3p", "rich3_v0", "mjai-kita"),
    }[players]
    rules = Rules.preset(preset)
    _, env = play(preset, "basic3_v0" if players == 3 else "basic_v0", "efficiency", 21)
    game = RECORDS[players][0](env, rules)[record]
    f = Converter(encoder, rules=rules, oracle=True).convert(game)
    u = Converter(encoder, rules=rules, oracle=True, dtype="uint8").convert(game)
    assert len(u["action"]) == len(f["action"]) > 100
    for column, name in (("obs", encoder), ("oracle", ORACLE_3P if players == 3 else ORACLE)):
        i, rows = ENCODER_IDS[name], f[column].shape[1]
        want = np.zeros((rows, 34), np.uint8)
        for n in range(len(f["action"])):
            _quantize(f[column][n], QUANT_LO[i, :rows], QUANT_INV[i, :rows], want)
            assert np.array_equal(u[column][n], want), (column, n)


def test_oracle_column_shows_the_wall_the_record_reveals():
    rules = Rules.preset("mahjongsoul")
    decisions, env = play("mahjongsoul", "basic_v0", "random", 21)
    recs = _records(env, rules)
    full = Converter("basic_v0", rules=rules, oracle=True).convert(recs["game"])
    orc_env = Converter("oracle_v0", rules=rules).convert(recs["game"])
    assert np.array_equal(full["oracle"], orc_env["obs"])  # whole wall: the env's oracle rows
    part = Converter("basic_v0", rules=rules, oracle=True).convert(recs["mjai"])
    assert np.array_equal(part["obs"], full["obs"])
    # without the wall: the hidden hands are the same; the wall rows show only tiles drawn later
    assert np.array_equal(part["oracle"][:, :175], full["oracle"][:, :175])
    assert (part["oracle"][:, 175:179] <= full["oracle"][:, 175:179]).all()
    assert (part["oracle"][:, 175:179] < full["oracle"][:, 175:179]).any()


def test_columns_dtypes_and_per_game_values():
    rules = Rules.preset("mahjongsoul")
    decisions, env = play("mahjongsoul", "basic_v0", "efficiency", 31)
    game = _records(env, rules)["mjai"]
    rows = Converter(rules=rules).convert(game)
    assert set(COLUMNS) <= set(rows)
    assert rows["mask"].dtype == np.int8 and rows["mask"].shape[1] == 85
    assert rows["action"].dtype == np.int16 and rows["obs"].dtype == np.float32
    assert (rows["mask"][np.arange(len(rows["action"])), rows["action"]] == 1).all()
    assert np.array_equal(rows["forced"], rows["mask"].sum(1) == 1)
    for s in range(4):  # each seat's own decisions: the others' are hidden from it
        assert (np.diff(rows["step"][rows["seat"] == s]) > 0).all()
    raw = env.unwrapped if hasattr(env, "unwrapped") else env
    ranks = raw._st.final_ranks[0]
    for s in range(4):
        assert (rows["final_rank"][rows["seat"] == s] == ranks[s]).all()
    # a hand's delta is the seat's point change over that hand, as the record has it
    for h, hand in enumerate(game.hands):
        for s in range(4):
            sel = (rows["hand"] == h) & (rows["seat"] == s)
            assert (rows["hand_delta"][sel] == hand.deltas[s]).all()
    kinds = {KINDS[k] for k in np.unique(rows["kind"])}
    assert {"discard", "pass"} <= kinds


def test_filters_seats_players_kinds_and_forced():
    rules = Rules.preset("mahjongsoul")
    _, env = play("mahjongsoul", "basic_v0", "random", 41)
    game = _records(env, rules)["mjai"]
    game.names = ("ann", "bob", "cy", "dee")
    base = Converter(rules=rules).convert(game)
    by_seat = Converter(rules=rules, seats=[1, 3]).convert(game)
    assert set(np.unique(by_seat["seat"])) == {1, 3}
    sel = np.isin(base["seat"], [1, 3])
    assert np.array_equal(by_seat["obs"], base["obs"][sel])
    by_name = Converter(rules=rules, players=["bob"]).convert(game)
    assert set(np.unique(by_name["seat"])) == {1}
    kinds = Converter(rules=rules, kinds=["discard", "riichi"]).convert(game)
    assert set(np.unique(kinds["kind"])) <= {KIND_IDS["discard"], KIND_IDS["riichi"]}
    assert np.array_equal(kinds["action"], base["action"][np.isin(base["kind"], [0, 1])])
    free = Converter(rules=rules, skip_forced=True).convert(game)
    assert np.array_equal(free["step"], base["step"][~base["forced"]])
    none = Converter(rules=rules, players=["zed"]).convert(game)
    assert len(none["action"]) == 0 and none["obs"].shape[1:] == base["obs"].shape[1:]


@pytest.mark.parametrize("augment", ["mp", "suits"])
def test_augmented_records_replay_to_the_permuted_arrays(augment):
    """The man/pin swap (and all six suit permutations) of a record is itself a legal game whose
    rows are the permuted rows: obs columns and actions permuted, honors fixed."""
    from riichi_env.dataset.convert import SUIT_PERMUTATIONS

    rules = Rules.preset("mahjongsoul")
    _, env = play("mahjongsoul", "basic_v0", "efficiency", 51)
    game = _records(env, rules)["mjai"]
    conv = Converter(rules=rules, augment=augment)
    rows = conv.convert(game)
    base = Converter(rules=rules).convert(game)
    n = len(base["action"])
    perms = 2 if augment == "mp" else 6
    assert len(rows["action"]) == perms * n and conv.stats.illegal == 0
    for p in range(perms):
        part = {k: v[rows["perm"] == p] for k, v in rows.items()}
        perm = SUIT_PERMUTATIONS[p]
        cols = np.arange(34)
        for s in range(3):
            cols[perm[s] * 9 : perm[s] * 9 + 9] = np.arange(s * 9, s * 9 + 9)
        # column k of a tile row of the permuted obs is column cols[k] of the recorded one (the
        # scalar rows repeat one value, so permuting them changes nothing); the rows whose
        # columns are slots, not tiles (river flags, kyoku, seat, decision), stay as they are
        from riichi_env.core.encoders import DECISION, KYOKU, RIVER_FLAGS, RIVER_KINDS, SEAT

        slots = [*range(RIVER_FLAGS, RIVER_KINDS), KYOKU, SEAT, DECISION]
        tiles = [r for r in range(base["obs"].shape[1]) if r not in slots]
        assert np.array_equal(part["obs"][:, tiles], base["obs"][:, tiles][:, :, cols])
        assert np.array_equal(part["obs"][:, slots], base["obs"][:, slots])
        act = base["action"].astype(np.int64).copy()
        disc = act < 34
        act[disc] = np.argsort(cols)[act[disc]]
        red = (act >= 34) & (act < 37)
        act[red] = 34 + np.array(perm)[act[red] - 34]
        kan = (act >= 45) & (act < 79)
        act[kan] = 45 + np.argsort(cols)[act[kan] - 45]
        assert np.array_equal(part["action"], act)


def test_every_real_record_gives_rows_with_no_illegal_move():
    conv = Converter()
    for f in LOGS:
        conv.convert(f)
    assert conv.stats.illegal == 0
    reasons = {s.file.split("/")[-1] for s in conv.stats.skipped}
    # the rule differences and broken test files the replay lists too (tests/data/logs/INDEX.md),
    # and the three-player records, which a four-player encoder skips (the three-player tests below)
    assert reasons <= {
        "mjsoul_seed202.jsonl",
        "chip.xml",
        "ratio1.xml",
        "confusing_nakis_1.json",
        "confusing_nakis_2.json",
        "sanma.xml",
        *THREE_PLAYER,
    }, conv.stats.skipped
    assert all(
        s.reason == REASON_3P for s in conv.stats.skipped if Path(s.file).name in THREE_PLAYER
    )
    assert conv.stats.decisions > 15000


def test_bad_records_are_skipped_with_their_reason_or_raise_when_strict(tmp_path):
    bad = tmp_path / "bad.mjson"
    bad.write_text('{"type":"start_game"}\n{"type": "nonsense"\n')
    missing = tmp_path / "missing.json"
    conv = Converter()
    assert conv.convert(bad) is None
    with pytest.raises(FileNotFoundError, match="missing.json"):
        conv.convert(missing)  # a caller's mistake, never a skip
    with pytest.raises(IsADirectoryError, match=str(tmp_path)):
        conv.convert(tmp_path)
    with pytest.raises(FileNotFoundError):
        record_arrays(missing)
    assert [s.file for s in conv.stats.skipped] == [str(bad)] and conv.stats.files == 1
    # the other public readers raise naming the file too
    from riichi_env.records.convert import read_file
    from riichi_env.records.model import RecordError

    for read in (read_file, grp_game, conv.read):
        with pytest.raises(RecordError, match=f"{missing}: cannot read: No such file"):
            read(missing)
    assert all(s.reason and s.file not in s.reason for s in conv.stats.skipped)  # named once
    with pytest.raises(DatasetError, match="bad.mjson"):
        Converter(strict=True).convert(bad)
    # a recorded move outside the mask: the hand is dropped and counted
    rules = Rules.preset("mahjongsoul")
    _, env = play("mahjongsoul", "basic_v0", "random", 61)
    text = export_mjai(
        np.array(env.unwrapped._ev[0, : int(env.unwrapped._st.n_events[0])])
        if hasattr(env, "unwrapped")
        else np.array(env._ev[0, : int(env._st.n_events[0])]),
        rules,
    )
    events = [json.loads(x) for x in text.splitlines()]
    first = next(i for i, e in enumerate(events) if e["type"] == "dahai")
    events[first]["pai"] = "C" if events[first]["pai"] != "C" else "F"
    events[first]["tsumogiri"] = False
    path = tmp_path / "illegal.mjson"
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    conv = Converter(rules=rules)
    rows = conv.convert(path)
    assert conv.stats.illegal + len(conv.stats.skipped) >= 1
    assert rows is None or 0 not in set(rows["hand"].tolist())
    with pytest.raises(DatasetError):
        Converter(rules=rules, strict=True).convert(path)


def test_bad_options_name_what_was_wrong():
    with pytest.raises(ValueError, match="unknown encoder"):
        Converter("basic_v9")
    with pytest.raises(ValueError, match="seats"):
        Converter(seats=[4])
    with pytest.raises(ValueError, match="unknown kind"):
        Converter(kinds=["discrad"])
    with pytest.raises(ValueError, match="augment"):
        Converter(augment="colors")
    with pytest.raises(ValueError, match="dtype"):
        Converter(dtype="float64")
    with pytest.raises(TypeError, match="oracle"):
        Converter(oracle="yes")
    with pytest.raises(TypeError, match="path or a Game"):
        Converter().convert(42)


def test_rank_predictor_features():
    rules = Rules.preset("mahjongsoul")
    _, env = play("mahjongsoul", "basic_v0", "efficiency", 71)
    game = _records(env, rules)["mjai"]
    grp = grp_game(game, rules=rules)
    assert grp["features"].shape == (len(game.hands), 7)
    first = grp["features"][0]
    assert list(first) == [0, 0, 0, 25000, 25000, 25000, 25000]
    raw = env.unwrapped if hasattr(env, "unwrapped") else env
    assert list(grp["ranks"]) == list(raw._st.final_ranks[0])
    rows = record_arrays(game, rules=rules)
    assert len(rows["action"]) > 0


def _scripted(*moves: str):
    """East 1: seat 0 draws 9m and discards 4p; seat 1 may chi it (2p 3p), seat 2 may pon it."""
    from engine.harness.scenario import play as play_moves
    from engine.harness.scenario import start_hand

    rules = Rules.preset("mahjongsoul")
    hands = ["123m456789s4p112z", "23p1178m2233s456z", "44p5566m99s33777z", "19m189p19s2345z66m"]
    game = play_moves(start_hand(hands=hands, draws="9m", rules=rules), "4p", *moves)
    rows = np.array(game.state.events[0, : int(game.state.n_events[0])])
    record = game_from_events(rows, rules)
    return Converter(rules=rules, strict=True).convert(record)


def _claim_rows(rows):
    return [(int(s), KINDS[int(k)]) for s, k in zip(rows["seat"], rows["kind"], strict=True)]


@pytest.mark.nojit
def test_scripted_passes_when_nobody_claims_are_rows():
    """Nobody claimed the 4p: both offered seats' passes are known choices, so both are rows."""
    rows = _scripted("pass", "pass", "4z")
    assert _claim_rows(rows)[:4] == [(0, "discard"), (1, "pass"), (2, "pass"), (1, "discard")]


@pytest.mark.nojit
@pytest.mark.parametrize("first", ["pass", "chi"])
def test_scripted_pass_under_another_seats_pon_is_no_row(first):
    """Seat 2's pon took the 4p: seat 1 (offered only a chi) passed or asked for a chi that lost;
    the record cannot tell, so seat 1 has no row; seat 2's pon is a row."""
    rows = _scripted(first, "pon", "9s")
    assert _claim_rows(rows)[:3] == [(0, "discard"), (2, "pon"), (2, "discard")]


@pytest.mark.nojit
def test_scripted_ron_only_seat_passing_under_another_seats_ron_is_a_pass_row():
    """Seats 1 and 2 both wait on 5s by tanki (offered a ron and nothing else); seat 1 passes,
    seat 2 rons. A ron by seat 1 would have shown (a second ron always does), so its pass is a
    known choice: a ``pass`` row (``_pass_known``: lowest option 3 >= the ron taken, 3)."""
    from engine.harness.scenario import play as play_moves
    from engine.harness.scenario import start_hand
    from engine.state import CLAIM_BIT_RON

    rules = Rules.preset("mahjongsoul")
    hands = ["19m19p19s123456z5s", "234m567m234p678p5s", "345m678m456p777p5s", "2468m2468p2468s1z"]
    game = start_hand(hands=hands, draws="9m", rules=rules)
    game = play_moves(game, "5s")
    offers = {int(game.actor): int(game.state.claim_mask[0, game.actor])}
    game = play_moves(game, "pass")
    offers[int(game.actor)] = int(game.state.claim_mask[0, game.actor])
    assert offers == {1: CLAIM_BIT_RON, 2: CLAIM_BIT_RON}  # a ron and nothing else, both
    game = play_moves(game, "ron")
    record = game_from_events(np.array(game.state.events[0, : int(game.state.n_events[0])]), rules)
    assert [w.seat for w in record.hands[0].wins] == [2]
    rows = Converter(rules=rules, strict=True).convert(record)
    assert _claim_rows(rows) == [(0, "discard"), (1, "pass"), (2, "ron")]
    assert rows["action"][1] == PASS and rows["action"][2] == RON


def test_tenhou_walls_are_rebuilt_from_the_shuffle_seed():
    """Tenhou's shuffle (MT19937 + SHA-512) rebuilds every wall of walls.jsonl from its record's
    SHUFFLE seed, in both seed forms; the oracle rows of those records then use the whole wall."""
    from riichi_env.records.convert import read_file
    from riichi_env.records.tenhou_wall import seed_words, tenhou_walls

    checked = 0
    by_file: dict[str, list[dict]] = {}
    with open(DATA / "tenhou-mjlog" / "walls.jsonl") as f:
        for line in f:
            row = json.loads(line)
            by_file.setdefault(row["file"], []).append(row)
    for name, rows in by_file.items():
        game = read_file(DATA / "tenhou-mjlog" / name)
        if not game.shuffle_seed:
            continue
        walls, layout = tenhou_walls(game.shuffle_seed, max(r["kyoku_index"] for r in rows) + 1)
        for r in rows:
            assert walls[r["kyoku_index"]] == r["wall"], (name, r["kyoku_index"])
            assert layout == ("tenhou" if r["dora_indicator_idx"][0] == 5 else "tenhou_old")
            checked += 1
    assert checked == 57  # every hand of the nine records with a SHUFFLE seed
    with pytest.raises(ValueError, match="SHUFFLE seed"):
        seed_words("mt19937ar-sha512-n288-base64,@@@")
    with pytest.raises(ValueError, match="unknown SHUFFLE seed kind"):
        seed_words("xorshift,1,2")
    conv = Converter(oracle=True, strict=True)
    rows = conv.convert(DATA / "tenhou-mjlog" / "example.xml")
    # with the whole wall the live-wall rows count every tile left: 69 after the dealer's draw
    assert rows["oracle"][0, 175:179].sum() == 69
    first_hand_only = Converter(oracle=True).convert_game(
        read_file(DATA / "tenhou-mjlog" / "bug1.xml")
    )  # no SHUFFLE element: only the tiles this hand draws later
    assert first_hand_only["oracle"][0, 175:179].sum() < 69


def test_suit_permutation_needs_the_same_red_fives_in_the_suits_it_swaps():
    """Rules with two red 5p and one red 5m: swapping man and pin would change which fives are
    red, so it is refused; swapping man and sou (one red each) is not."""
    from riichi_env.dataset.pack import pack_game, permute_suits

    rules = Rules.preset("mahjongsoul").replace(red_fives=(1, 2, 1))
    _, env = play("mahjongsoul", "basic_v0", "random", 81)
    packed = pack_game(_records(env, Rules.preset("mahjongsoul"))["mjai"], rules)
    with pytest.raises(ValueError, match="same red fives"):
        permute_suits(packed, (1, 0, 2))
    assert permute_suits(packed, (2, 1, 0)).walls.shape == packed.walls.shape


def test_the_dataset_group_compiles_the_replay_for_the_converters_types():
    """``riichi_env.compile("dataset")`` compiles the runner's ``_run_replay`` for
    ``replay_example_arguments()``
    without converting anything; a conversion with any options then finds exactly that
    signature (no second compile), and so does the row's kernel ``_write_row`` its example's."""
    from engine._numba import jit_disabled, signatures
    from engine.state import examples
    from riichi_env.core.rows import _write_row
    from riichi_env.core.runner import _run_replay, replay_example_arguments

    if jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    with open(LOGS[0], encoding="utf-8") as f:
        game = read_text(f.read())
    for options in ({}, {"dtype": "uint8", "oracle": True}, {"encoder": "rich_v0"}):
        Converter(**options).convert(game)
    assert _run_replay.signatures == signatures([replay_example_arguments()])
    assert _write_row.signatures == signatures([_write_row.example(examples())])


# Three players only


def test_uint8_and_oracle_columns_with_three_players():
    """uint8 rows are the float rows quantized; ``oracle=True`` adds ``oracle3_v0`` rows, the
    whole wall's from the engine's log, the revealed places' from mjai."""
    from quantize_reference import _quantize

    from riichi_env.core.encoders import WALL_KINDS3, bounds

    rules = Rules.preset("mahjongsoul-3p")
    _, env = play("mahjongsoul-3p", "basic3_v0", "efficiency", 21)
    recs = _records_3p(env, rules)
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
    game = _records_3p(env, rules)["mjai-nukidora"]
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
    sanma2 = rows[THREE_PLAYER_LOGS.index(DATA / "tenhou-mjlog" / "sanma2.xml")]
    ranks = {int(s): int(r) for s, r in zip(sanma2["seat"], sanma2["final_rank"], strict=True)}
    scores = {int(s): float(r) for s, r in zip(sanma2["seat"], sanma2["final_score"], strict=True)}
    assert ranks == {0: 1, 1: 0, 2: 2} and scores == {0: -13.0, 1: 79.0, 2: -66.0}  # its owari
    grp = grp_game(DATA / "tenhou-mjlog" / "sanma2.xml")
    assert (grp["features"][:, 6] == 0).all() and grp["ranks"][3] == -1
    assert sorted(grp["ranks"][:3].tolist()) == [0, 1, 2]


def _scripted_3p(*moves: str) -> dict[str, np.ndarray]:
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
    rows = _scripted_3p("kita", "ron")
    assert _kinds(rows) == [(0, "kita", KITA), (1, "ron", RON)]
    assert rows["obs"][1, OFFERED3, NORTH] == 1 and rows["mask"].shape == (2, N_ACTIONS_3P)
    rows = _scripted_3p("kita", "pass", "1m")
    assert _kinds(rows)[:3] == [(0, "kita", KITA), (1, "pass", PASS), (0, "discard", 0)]
    assert rows["mask"][1, RON] == 1
    rows = _scripted_3p("1m")  # the North kept: kita was legal, the record discarded 1m
    assert _kinds(rows)[0] == (0, "discard", 0) and rows["mask"][0, KITA] == 1


def test_encoder_and_record_players_must_meet():
    """A four-player encoder skips a three-player record and a three-seat encoder a four-player
    one, each with a reason naming the encoders to use (``DatasetError`` with ``strict``); rules
    of the other player count are refused when the converter is made."""
    three = DATA / "tenhou6" / "nukidora_doubleron.json"
    four = DATA / "tenhou6" / "double_ron.json"
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
    three = [DATA / "tenhou6" / "nukidora_doubleron.json", DATA / "tenhou6" / "kokushi_ankan.json"]
    four = [DATA / "tenhou6" / "double_ron.json"]
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

    files = [DATA / "tenhou6" / "kokushi_ankan.json", DATA / "tenhou6" / "nukidora_doubleron.json"]
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
        str(DATA / "tenhou6" / "kokushi_ankan.json"),
        str(DATA / "tenhou6" / "double_ron.json"),
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
    from engine._numba import jit_disabled, signatures
    from riichi_env.core.runner import _run_replay, replay_example_arguments

    if jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    game = read_file(DATA / "tenhou6" / "kokushi_ankan.json")
    for encoder in ENCODERS_3P:
        Converter(encoder, oracle=True, dtype="uint8").convert(game)
        Converter(encoder).convert(game)
    assert _run_replay.signatures == signatures([replay_example_arguments()])
