"""The runner's declared records: each table's row and the call's options, field by field.

``riichi_env.core.runner`` reads and writes them; the batch classes (``tables.py``), the learner
and the dataset's converter set them. Each record is declared as ``engine/state.py``'s ``FIELDS``
(name, width, meaning); a field is a column (or ``width`` columns) at the index its ``T_*`` /
``F_*`` / ``O_*`` / ``P_*`` constant names, and ``columns(fields)`` gives the views Python reads
and writes (``ti[:, T_SEAT]``, ``tf[:, F_REWARDS:F_REWARDS + 4]``). The ``rec_*`` fields and the
replay options are the record's seat's (``_run_replay``: ``riichi_env.core.record_seat``).
"""

from __future__ import annotations

import numpy as np

PYTHON_SEAT = -1
"""``seat_policy`` entry of a seat whose actions come from the caller."""
FINISHED = -1
"""``seat`` of a table where no seat waits for the caller; ``game_index`` of a table with no game
left."""
NO_ENCODER = -1
"""``encoder`` option when no observation is written."""
NO_TEACHER = -1
"""``teacher`` option of a call that plays (not the teacher mode)."""

HAND_ENDED = 4
"""Bit of ``_run``'s result: a hand of table ``lo`` ended during the call."""
GAME_OVER = -1
"""``_run``'s result when no seat of table ``lo`` waits (its game ended, or none is left)."""
OBS_NOW = 0
"""``obs[OBS_NOW, t]``: the acting seat's observation (not written when ``obs_u8`` has rows)."""
OBS_FINAL = 1
"""``obs[OBS_FINAL, t]``: the last view of a finished game."""

# (name, width in columns, meaning); bools are 0 / 1
TABLE_INTS: tuple[tuple[str, int, str], ...] = (
    # set by the caller
    ("action", 1, "the Python seat's action to play first (legal: checked), -1 none"),
    ("start", 1, "start game ``game_index`` first (a reset); cleared by the call"),
    ("refresh", 1, "recompute the mask of a loaded state first; cleared by the call"),
    ("game_index", 1, "index of the game played here (its seed offset), ``FINISHED``"),
    ("seed_base", 1, "game k of this table has seed ``(seed_base + k) mod 2**63``"),
    ("seat_policy", 4, "each seat's ``POLICY_*``, or ``PYTHON_SEAT``"),
    ("teacher_rng", 2, "the teacher mode's random stream (never the game's)"),
    # kept by the call between calls
    ("need_reset", 1, "the game ended (``stop_at_game_end``): the next call moves on"),
    ("rng", 2, "the action stream of compiled random seats, keyed by the game seed"),
    ("hand_points", 4, "points at the start of the current hand"),
    # the record's seat (replay: ``_run_replay``), set by the caller and kept by the call
    ("rec_hand", 1, "replay: the record's hand in play (a row of ``REPLAY``'s arrays)"),
    ("rec_hand_end", 1, "replay: one past the table's last hand"),
    ("rec_seats", 4, "replay: 1 for each seat whose decisions become rows"),
    ("rec_known", 1, "replay: the oracle's wall rows from the record's known tiles"),
    ("rec_step", 1, "replay: decisions played in the table's record (the next row's step)"),
    ("rec_row", 1, "replay: the next script row of the hand in play"),
    ("rec_end", 1, "replay: one past the hand's last script row"),
    ("rec_tsumo", 1, "replay: the seat that wins the hand by tsumo, -1"),
    ("rec_kyushu", 1, "replay: the hand ends in kyuushu kyuuhai"),
    ("rec_ron", 1, "replay: bit s set: seat s wins the hand by ron"),
    ("rec_sanchahou", 1, "replay: the hand ends in sanchahou"),
    ("rec_finished", 1, "replay: the record shows the hand's end"),
    ("rec_taken", 1, "replay: what the record takes on the offer: 0 none, 1 chi, 2 pon/kan, 3 ron"),
    ("rec_claimer", 1, "replay: the seat taking that chi, pon or kan"),
    ("rec_hand_rows", 1, "replay: rows written when the hand started (dropped if it fails)"),
    ("rec_hand_step", 1, "replay: ``rec_step`` when the hand started"),
    ("rec_seat_step", 4, "replay: each seat's decisions played in the record (its next step)"),
    ("rec_hand_seat_step", 4, "replay: ``rec_seat_step`` when the hand started"),
    # what the call left
    ("seat", 1, "the Python seat to act now, or ``FINISHED``"),
    ("terminated", 1, "a game ended during the call"),
    ("hand_ended", 1, "a hand (or the game) ended during the call"),
    ("delta", 4, "each seat's point change over the hands ended during the call"),
    ("teacher_action", 1, "the teacher mode's action, -1 where no seat acts"),
    ("final_game", 1, "game index of the last finished game"),
    ("final_seat", 1, "the seat whose view ``obs[OBS_FINAL]`` holds"),
    ("final_seed", 1, "seed of that game"),
    # one result row, in ``FINAL_RESULT``'s order (a self-play result copies it at once)
    ("final_points", 4, "points at the end of that game"),
    ("final_ranks", 4, "placements (0-3) of that game"),
    ("final_hands", 1, "hands played in that game"),
    ("final_decisions", 1, "decisions taken in that game"),
)
"""A table's ``int64`` row ``ti[t]``."""
TABLE_FLOATS: tuple[tuple[str, int, str], ...] = (
    ("rewards", 4, "each seat's rewards during the call (float32 sums, as the vector env's)"),
    ("final_scores", 4, "final scores of the last finished game"),
)
"""A table's ``float64`` row ``tf[t]``."""
OPTION_INTS: tuple[tuple[str, int, str], ...] = (
    ("lo", 1, "first table of the call"),
    ("hi", 1, "one past the last table of the call"),
    ("reward_mode", 1, "``REWARD_*``"),
    ("skip_forced", 1, "play decisions with one legal action at once"),
    ("stop_at_game_end", 1, "a finished game waits (``need_reset``) instead of the autoreset"),
    ("stride", 1, "game index step of the autoreset (the tables of a batch)"),
    ("games_end", 1, "game indices from here on are not played (``FINISHED``)"),
    ("encoder", 1, "``riichi_env.core.encoders`` id of the observations, ``NO_ENCODER``"),
    ("teacher", 1, "``POLICY_*`` of the teacher mode, or ``NO_TEACHER`` (play)"),
    ("games_done", 1, "games finished, added to by every call (progress)"),
    ("played", 1, "actions played, added to by every call"),
    ("kinds", 1, "replay: bit k set: decisions of kind k (``record_seat.KINDS``) become rows"),
    ("oracle", 1, "replay: 0, or the id of an oracle encoder whose rows each row has too"),
    ("rows", 1, "replay: rows written (the next row's index), added to by every call"),
    ("rows_full", 1, "replay: the call stopped as the rows were full (grow, call again)"),
)
"""The call's ``int64`` options, the last row of ``ti``."""
OPTION_FLOATS: tuple[tuple[str, int, str], ...] = (
    ("reward_scale", 1, "``REWARD_HAND``: the factor of the point changes"),
    ("rank_points", 4, "``REWARD_RANK``: the reward of places 1-4"),
)
"""The call's ``float64`` options, the last row of ``tf``."""


def _offsets(fields: tuple[tuple[str, int, str], ...]) -> dict[str, int]:
    """Each field's first column, in declaration order; ``"_width"``: the row's width."""
    out, col = {}, 0
    for name, width, _ in fields:
        out[name] = col
        col += width
    out["_width"] = col
    return out


def columns(fields: tuple[tuple[str, int, str], ...], array: np.ndarray) -> dict[str, np.ndarray]:
    """Views of ``array`` (a record of ``fields``) by field name: a column (``[..., i]``) for a
    field of width 1, else its columns (``[..., i:i + width]``)."""
    at = _offsets(fields)
    return {
        name: array[..., at[name]] if width == 1 else array[..., at[name] : at[name] + width]
        for name, width, _ in fields
    }


_T, _F, _O, _P = map(_offsets, (TABLE_INTS, TABLE_FLOATS, OPTION_INTS, OPTION_FLOATS))
T_ACTION, T_START, T_REFRESH = _T["action"], _T["start"], _T["refresh"]
T_GAME_INDEX, T_SEED_BASE, T_SEAT_POLICY = _T["game_index"], _T["seed_base"], _T["seat_policy"]
T_TEACHER_RNG, T_NEED_RESET, T_RNG = _T["teacher_rng"], _T["need_reset"], _T["rng"]
T_HAND_POINTS, T_SEAT, T_TERMINATED = _T["hand_points"], _T["seat"], _T["terminated"]
T_HAND_ENDED, T_DELTA, T_TEACHER_ACTION = _T["hand_ended"], _T["delta"], _T["teacher_action"]
T_FINAL_GAME, T_FINAL_SEAT, T_FINAL_POINTS = _T["final_game"], _T["final_seat"], _T["final_points"]
T_FINAL_RANKS, T_FINAL_SEED, T_FINAL_HANDS = _T["final_ranks"], _T["final_seed"], _T["final_hands"]
T_FINAL_DECISIONS, T_WIDTH = _T["final_decisions"], _T["_width"]
F_REWARDS, F_FINAL_SCORES, F_WIDTH = _F["rewards"], _F["final_scores"], _F["_width"]
O_LO, O_HI, O_REWARD_MODE, O_SKIP_FORCED = _O["lo"], _O["hi"], _O["reward_mode"], _O["skip_forced"]
O_STOP_AT_GAME_END, O_STRIDE, O_GAMES_END = _O["stop_at_game_end"], _O["stride"], _O["games_end"]
O_ENCODER, O_TEACHER, O_GAMES_DONE = _O["encoder"], _O["teacher"], _O["games_done"]
O_PLAYED, O_WIDTH = _O["played"], _O["_width"]
T_REC_HAND, T_REC_HAND_END, T_REC_SEATS = _T["rec_hand"], _T["rec_hand_end"], _T["rec_seats"]
T_REC_KNOWN, T_REC_STEP, T_REC_ROW = _T["rec_known"], _T["rec_step"], _T["rec_row"]
T_REC_TAKEN, T_REC_CLAIMER = _T["rec_taken"], _T["rec_claimer"]
T_REC_END, T_REC_TSUMO, T_REC_KYUSHU = _T["rec_end"], _T["rec_tsumo"], _T["rec_kyushu"]
T_REC_RON, T_REC_SANCHAHOU, T_REC_FINISHED = _T["rec_ron"], _T["rec_sanchahou"], _T["rec_finished"]
T_REC_HAND_ROWS, T_REC_HAND_STEP = _T["rec_hand_rows"], _T["rec_hand_step"]
T_REC_SEAT_STEP, T_REC_HAND_SEAT_STEP = _T["rec_seat_step"], _T["rec_hand_seat_step"]
O_KINDS, O_ORACLE, O_ROWS, O_ROWS_FULL = _O["kinds"], _O["oracle"], _O["rows"], _O["rows_full"]
P_REWARD_SCALE, P_RANK_POINTS = _P["reward_scale"], _P["rank_points"]
P_WIDTH = _P["_width"]
if O_WIDTH > T_WIDTH or P_WIDTH > F_WIDTH:
    raise ImportError("the options must fit in a row of the tables' records")


FINAL_RESULT = slice(T_FINAL_POINTS, T_FINAL_DECISIONS + 1)
"""Columns of ``ti`` holding the last finished game's points 0-3, ranks 4-7, hands 8 and
decisions 9: ``riichi_env.selfplay``'s result row."""
if FINAL_RESULT.stop - FINAL_RESULT.start != 10:
    raise ImportError("the final_* result columns of TABLE_INTS must be contiguous")

BUFFERS: tuple[tuple[str, str, str], ...] = (
    ("masks", "int8 (B, N_ACTIONS)", "each table's legal actions of the seat to act"),
    (
        "obs",
        "float32 (views, B, rows, 34)",
        "``OBS_NOW``: the acting seat's observation (unless ``obs_u8`` has rows); "
        "``OBS_FINAL``: a finished game's last view",
    ),
    ("obs_u8", "uint8 (B, rows, 34)", "the observation in bytes, written instead if it has rows"),
)
"""The output buffers of the runner, after the records: (name, dtype and shape, meaning)."""


def new_tables(n: int, calls: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``(ti, tf)`` of ``n`` tables, ``n + calls`` rows (the last ``calls``: the options of each
    runner call that may run at once, call ``k`` passing ``ti[: n + 1 + k]``): every seat a
    Python seat, no game started (``FINISHED``); no tables in the call, no encoder, hand reward
    with scale 1, every game index playable, no stop at game end, play (not the teacher mode)."""
    ti = np.zeros((n + calls, T_WIDTH), dtype=np.int64)
    ti[:n, T_ACTION] = -1
    ti[:n, T_SEAT_POLICY : T_SEAT_POLICY + 4] = PYTHON_SEAT
    ti[:n, T_GAME_INDEX] = FINISHED
    ti[:n, T_SEAT] = FINISHED
    ti[:n, T_TEACHER_ACTION] = -1
    oi = ti[n:]
    oi[:, O_STRIDE] = 1
    oi[:, O_GAMES_END] = 2**62
    oi[:, O_ENCODER] = NO_ENCODER
    oi[:, O_TEACHER] = NO_TEACHER
    tf = np.zeros((n + calls, F_WIDTH), dtype=np.float64)
    tf[n:, P_REWARD_SCALE] = 1.0
    return ti, tf


def fields(ti: np.ndarray, tf: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """``(tables, options)``: views of ``new_tables``' arrays by field name (``columns``); the
    options are the first call's (``ti[n]``, ``n`` the tables given as ``ti.shape[0] - 1``)."""
    n = ti.shape[0] - 1
    tables = {**columns(TABLE_INTS, ti[:n]), **columns(TABLE_FLOATS, tf[:n])}
    return tables, {**columns(OPTION_INTS, ti[n]), **columns(OPTION_FLOATS, tf[n])}
