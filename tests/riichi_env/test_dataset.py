"""riichi_env.dataset.convert: records become rows that are exactly what the env showed.

The central test plays games through the env (every encoder, both presets, random and efficiency
seats), writes their records (the engine's own log, mjai, tenhou.net/6), and checks that the rows
of each record are the env's observation, mask and action at every decision whose choice the
record shows, in order. Which passes the record shows is computed here independently, from what
every seat chose in the env.
"""

from __future__ import annotations

import glob
import json
from pathlib import Path

import numpy as np
import pytest
from test_dataset_io import REASON_3P, THREE_PLAYER

import riichi_env
from agents.efficiency_agent import EfficiencyAgent
from engine.actions import (
    CHI_HIGH,
    CHI_HIGH_PLAIN,
    CHI_LOW,
    CHI_LOW_PLAIN,
    KAN,
    PASS,
    PON,
    PON_PLAIN,
    RON,
)
from engine.rules import Rules
from engine.state import (
    CLAIM_BIT_CHI_HIGH,
    CLAIM_BIT_CHI_LOW,
    CLAIM_BIT_CHI_MID,
    CLAIM_BIT_KAN,
    CLAIM_BIT_PON,
    CLAIM_BIT_RON,
    PHASE_CLAIM,
)
from riichi_env.core.encoders import ENCODERS
from riichi_env.dataset.convert import (
    COLUMNS,
    KIND_IDS,
    KINDS,
    Converter,
    DatasetError,
    grp_game,
    record_arrays,
)
from riichi_env.records.convert import read_text
from riichi_env.records.export import export_mjai, export_tenhou6, game_from_events

DATA = Path(__file__).resolve().parents[1] / "data" / "logs"  # whatever the working directory
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
    if bits & (CLAIM_BIT_CHI_LOW | CLAIM_BIT_CHI_MID | CLAIM_BIT_CHI_HIGH):
        return 1
    if bits & (CLAIM_BIT_PON | CLAIM_BIT_KAN):
        return 2
    return 3 if bits & CLAIM_BIT_RON else 0


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
        claim = int(st.phase[0]) == PHASE_CLAIM
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


@pytest.mark.parametrize(("preset", "encoder", "policy", "seed"), CASES)
def test_rows_are_the_envs_observation_mask_and_action(preset, encoder, policy, seed):
    """Bit identity: every record format of an env game gives the env's own rows."""
    rules = Rules.preset(preset)
    decisions, env = play(preset, encoder, policy, seed)
    want = expected_rows(decisions)
    assert any(d["action"] == PASS for d in want)
    conv = Converter(encoder, rules=rules, strict=True)
    for fmt, game in _records(env, rules).items():
        if encoder.startswith("oracle") and fmt != "game":
            continue  # only the engine's log has the whole wall (the others: docs/dataset.md)
        rows = conv.convert(game)
        _check_identical(rows, want, f"{preset} {encoder} {policy} {fmt}")
    assert conv.stats.illegal == 0 and not conv.stats.skipped


def test_uint8_rows_are_the_vector_envs_bytes():
    """dtype uint8 quantizes exactly as vector_env(dtype=np.uint8): same bounds, same rounding."""
    from riichi_env.core.encoders import bounds
    from riichi_env.core.runner import _quantize

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
    # and the three-player records, which a four-player encoder skips (test_dataset_3p.py)
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
    from engine.scenario import play as play_moves
    from engine.scenario import start_hand

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
    from engine.scenario import play as play_moves
    from engine.scenario import start_hand
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
    signature (no second compile)."""
    from engine._numba import jit_disabled
    from engine.compile_parts import signature
    from riichi_env.core.runner import _run_replay, replay_example_arguments

    if jit_disabled():
        pytest.skip("nothing is compiled without JIT")
    with open(LOGS[0], encoding="utf-8") as f:
        game = read_text(f.read())
    for options in ({}, {"dtype": "uint8", "oracle": True}, {"encoder": "rich_v0"}):
        Converter(**options).convert(game)
    assert _run_replay.signatures == [signature(*replay_example_arguments())]
