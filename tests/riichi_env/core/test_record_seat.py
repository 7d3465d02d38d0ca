"""The runner's replay mode (``_run_replay``, the record's seat): its declared tuple, several
tables in one call, and the resume when the rows are full."""

from __future__ import annotations

import glob
from pathlib import Path

import numpy as np
import pytest

from engine.actions import N_ACTIONS
from engine.rules import Rules
from engine.state import new_state
from engine.tables import load_tables
from riichi_env.core import fields as fl
from riichi_env.core import record_seat as rs
from riichi_env.core import runner as rn
from riichi_env.core.encoders import ENCODER_IDS, N_ROWS
from riichi_env.dataset.convert import Converter
from riichi_env.dataset.pack import pack_game
from riichi_env.records.convert import read_file
from riichi_env.records.replay import rules_for

LOGS = sorted(glob.glob(str(Path(__file__).resolve().parents[2] / "data/logs/tenhou-mjlog/*.xml")))[
    :3
]
COLUMNS = ("obs", "mask", "action", "seat", "kind", "forced", "step")


@pytest.mark.nojit
def test_the_replay_tuple_is_declared_entry_by_entry():
    assert len({name for name, _, _ in rs.REPLAY}) == len(rs.REPLAY)
    assert all(meaning for _, _, meaning in rs.REPLAY)
    names = [name for name, _, _ in rs.REPLAY]
    assert names.index("walls") == rs.R_WALLS and names.index("hand_rows") == rs.R_HAND_ROWS
    assert names.index("action") == rs.R_ACTION and names.index("status") == rs.R_STATUS
    args = rn.replay_example_arguments()
    assert len(args) == 9 and len(args[8]) == len(rs.REPLAY)
    assert rn._run_replay(*args) == rn.GAME_OVER
    assert fl.O_WIDTH <= fl.T_WIDTH  # the replay options still fit the options' row


def _packed(path: str):
    game = read_file(path)
    rules = rules_for(game, "auto")
    return pack_game(game, rules), rules


def _replay(packs, rules: Rules, capacity: int):
    """Rows of ``packs`` replayed on one table each in one ``_run_replay`` call (grown and
    called again whenever the rows fill up), as ``Converter`` would write them."""
    tables = load_tables()
    n = len(packs)
    st = new_state(n, rules, max_events=0)
    hands = np.cumsum([0] + [p.walls.shape[0] for p in packs])
    moves = np.cumsum([0] + [p.script.shape[0] for p in packs])
    cat = {
        k: np.ascontiguousarray(np.concatenate([getattr(p, k) for p in packs]))
        for k in ("walls", "known", "starts", "script", "ends", "rec_deltas", "finished")
    }
    script_lo = np.concatenate(
        [p.script_lo[:-1] + moves[i] for i, p in enumerate(packs)] + [[moves[-1]]]
    ).astype(np.int32)
    rows = N_ROWS["basic_v0"]
    ti, tf = rn.new_tables(n)
    tab, opt = rn.fields(ti, tf)
    tab["game_index"][...] = 0
    tab["start"][...] = 1
    tab["rec_hand"][...] = hands[:-1]
    tab["rec_hand_end"][...] = hands[1:]
    tab["rec_seats"][...] = 1
    tab["rec_known"][...] = [not p.full_walls for p in packs]
    opt["hi"][...] = n
    opt["encoder"][...] = ENCODER_IDS["basic_v0"]
    opt["kinds"][...] = (1 << len(rs.KINDS)) - 1
    h = int(hands[-1])
    outcome = (
        np.zeros(h, np.int32),
        np.zeros(h, np.int32),
        np.zeros((h, 4), np.int32),
        np.zeros(h, np.int32),
    )
    calls = 0
    kept = ()
    while True:
        buf = (
            np.zeros((capacity, rows, 34), np.float32),
            np.zeros((0, rows, 34), np.uint8),
            np.zeros((0, rows, 34), np.float32),
            np.zeros((0, rows, 34), np.uint8),
            np.zeros((capacity, N_ACTIONS), np.int8),
            np.zeros(capacity, np.int16),
            np.zeros(capacity, np.int8),
            np.zeros(capacity, np.int8),
            np.zeros(capacity, np.bool_),
            np.zeros(capacity, np.int16),
            np.zeros(capacity, np.int32),
        )
        if calls:  # the rows written so far, as a caller growing its buffers keeps them
            for new, old in zip(buf, kept, strict=True):
                new[: old.shape[0]] = old
        rp = (
            *(cat[k] for k in ("walls", "known", "starts")),
            cat["script"],
            script_lo,
            *(cat[k] for k in ("ends", "rec_deltas", "finished")),
            packs[0].red,
            np.zeros((N_ROWS["oracle_v0"], 34), np.float32),
            *buf,
            *outcome,
        )
        rn._run_replay(
            st.records,
            st.events,
            tuple(tables),
            ti,
            tf,
            np.zeros((n, N_ACTIONS), np.int8),
            np.zeros((0, 1, 1, 34), np.float32),
            np.zeros((0, 1, 34), np.uint8),
            rp,
        )
        calls += 1
        if not opt["rows_full"]:
            break
        kept, capacity = buf, 2 * capacity
    r = int(opt["rows"])
    names = ("obs", "obs_u8", "oracle", "oracle_u8", "mask", "action", "seat", "kind", "forced")
    out = dict(zip((*names, "hand", "step"), buf, strict=True))
    assert (tab["game_index"] == rn.FINISHED).all()
    return {k: v[:r] for k, v in out.items()}, hands, outcome[0], calls


def test_tables_of_one_call_write_each_records_rows_in_turn():
    """Three records on three tables of one call give, table after table, the rows the
    converter gives each record alone; a row buffer of 16 fills up many times on the way."""
    packs, rules = zip(*(_packed(f) for f in LOGS), strict=True)
    rows, hands, status, calls = _replay(list(packs), rules[0], 16)
    assert calls > 5
    assert (status == rs.HAND_OK).all()
    conv = Converter("basic_v0", rules=rules[0])
    start = 0
    for i, f in enumerate(LOGS):
        want = conv.convert(f)
        n = len(want["action"])
        for k in COLUMNS:
            np.testing.assert_array_equal(rows[k][start : start + n], want[k], err_msg=f"{f} {k}")
        in_game = rows["hand"][start : start + n] - hands[i]
        np.testing.assert_array_equal(in_game, want["hand"], err_msg=f)
        start += n
    assert start == len(rows["action"])
