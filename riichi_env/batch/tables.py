"""The buffers of a batch of tables and the calls into the runner (``riichi_env.core.runner``),
shared by the vector env, the learner env and ``riichi_env.selfplay``.

A batch owns one engine ``State`` of ``B`` tables and the runner's records and buffers: the
tables' rows ``ti`` / ``tf`` (``TABLE_INTS``, ``TABLE_FLOATS``: read through the column views
``seats``, ``rewards``, ``terms``, ...) and their last row, the options, the masks and the
observations. A *worker* is a batch of its own, so workers can run in threads at once.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from engine.actions import action_name, n_actions
from engine.arguments import SEED_MAX, describe
from engine.legality import explain_illegal
from engine.rules import Rules
from engine.state import new_state
from engine.tables import load_tables
from riichi_env.core.encoders import N_ROWS
from riichi_env.core.fields import O_GAMES_DONE, O_HI, O_LO, O_PLAYED
from riichi_env.core.runner import (
    F_FINAL_SCORES,
    FINAL_RESULT,
    FINISHED,
    NO_ENCODER,
    OBS_FINAL,
    PYTHON_SEAT,
    T_FINAL_GAME,
    T_TERMINATED,
    _queue_actions,
    _run,
    fields,
    new_tables,
    runner_for,
)

OPTION_NAMES = ("lo", "hi", "reward_mode", "stride", "games_end", "skip_forced", "stop_at_game_end")
"""The options ``Batch.run`` sets, in the order of its arguments."""

MIN_SHARE = 64
"""Fewest tables a call of a split run takes: a split costs about 60 us a step (handing the
share to a thread and waiting for it, 2-core VM), what 64 tables of compiled play take."""


class Batch:
    """``n`` tables under ``rules`` with the runner's records and buffers.

    ``encoder`` is an encoder name or ``None`` (no observations); ``obs_dtype`` is ``np.float32``
    or ``np.uint8``; ``max_events`` > 0 keeps an event log per table (records); ``final_obs``
    keeps a finished game's last view (``self.final_obs``). ``threads`` > 1 splits a run over
    many tables into that many runner calls at once, each over its own contiguous share of the
    tables and its own options row (``new_tables``): the kernels release the GIL, and a table's
    game depends on nothing but its own rows, so the results are the same for any ``threads``.
    """

    def __init__(
        self,
        n: int,
        rules: Rules,
        encoder: str | None,
        encoder_id: int,
        obs_dtype,
        max_events: int = 0,
        final_obs: bool = False,
        threads: int = 1,
    ) -> None:
        self.n = n
        self.threads = threads
        self.players = rules.players
        """Seats at each table: 4, or 3 (seat 3 absent: it never acts, its rewards are 0)."""
        self.n_actions = n_actions(rules.players)
        """Mask width: 85, or 86 with three players (the kita action)."""
        self.state = new_state(n, rules, max_events)
        self.st, self.ev = self.state.records, self.state.events
        tables = load_tables()
        self.tables_tuple = tuple(tables)
        self.suit, self.honor = tables.shanten_suit, tables.shanten_honor
        self.ti, self.tf = new_tables(n, threads)
        self._pool = None  # the threads of calls 1 .. threads - 1, started at the first split run
        self.masks = np.zeros((n, self.n_actions), dtype=np.int8)
        self.tab, self.opt = tab, _ = fields(self.ti[: n + 1], self.tf[: n + 1])
        """The tables' fields and the options by name (views of ``ti`` and ``tf``; a width-1
        option is a 0-d view)."""
        self.seats = tab["seat"]
        """The seat to act at each table (``FINISHED``: none); a view of ``ti``, as below."""
        self.need_reset = tab["need_reset"]
        self.rewards = tab["rewards"]
        """Each seat's rewards of the last run (float64 holding float32 sums)."""
        self.terms = tab["terminated"]
        self.game_index = tab["game_index"]
        self.seed_base = tab["seed_base"]
        self.seat_policy = tab["seat_policy"]
        """Each table's seat policies (``run`` fills it from a shared ``int64[4]``)."""
        self._policy_row = np.full(4, PYTHON_SEAT, dtype=np.int64)
        self._policy_bytes = self._policy_row.tobytes()  # what a step compares (array_equal: 3 us)
        self.encoder_id = encoder_id if encoder is not None else NO_ENCODER
        self._runner = runner_for(self._policy_row, self.encoder_id != NO_ENCODER)
        """The runner kernel the seat policies and the observations need (``runner_for``)."""
        rows = N_ROWS[encoder] if encoder is not None else 1
        self.obs_shape = (rows, 34)
        self.quantized = np.dtype(obs_dtype) == np.uint8
        floats = encoder is not None and not self.quantized  # bytes are written straight
        views = 2 if final_obs else 1 if floats else 0
        self._obs = np.zeros((views, n if views else 0, rows, 34), dtype=np.float32)
        self.final_obs = self._obs[OBS_FINAL] if final_obs else None
        """A finished game's last view of the seat that acted, float32, by table."""
        self.opt["encoder"][...] = self.encoder_id
        if self.quantized:
            self.obs = np.zeros((n, rows, 34), dtype=np.uint8)
            self._obs_u8 = self.obs
        else:
            self.obs = self._obs[0] if views else np.zeros((0, rows, 34), dtype=np.float32)
            self._obs_u8 = np.zeros((0, rows, 34), dtype=np.uint8)
        self._call: tuple = ()  # the options of the last run, written into opts when they change
        self._reward_params = None
        self.results_i = np.zeros((0, 10), dtype=np.int64)
        """Per game (row ``game_index``): points 0-3, ranks 4-7, hands 8, decisions 9."""
        self.results_f = np.zeros((0, 4), dtype=np.float64)
        """Per game: final scores."""
        self._call_args = [self._arguments(k) for k in range(threads)]
        """Each runner call's arguments; a run that is not split is call 0."""

    def _arguments(self, k: int) -> tuple:
        """Call ``k``'s runner arguments: ``ti`` and ``tf`` up to its options row
        (``new_tables``). With several calls each array is a view of its own: a compiled call
        counts its references to each array it is given, and calls at once counting on the
        same array contend for one cache line (two threads ran slower than one)."""
        arrays = (self.st, self.ev, self.masks, self._obs, self._obs_u8)
        if self.threads == 1:
            st, ev, masks, obs, obs_u8 = arrays
            return (st, ev, self.tables_tuple, self.ti, self.tf, masks, obs, obs_u8)
        st, ev, masks, obs, obs_u8 = (a[...] for a in arrays)
        tables = tuple(a[...] for a in self.tables_tuple)
        rows = self.n + 1 + k
        return (st, ev, tables, self.ti[:rows], self.tf[:rows], masks, obs, obs_u8)

    @property
    def games_done(self) -> int:
        """Games finished at this batch's tables so far (read by a progress line)."""
        return int(self.opt["games_done"])

    def start(self, lo: int, hi: int) -> None:
        """Start each table's game ``game_index`` (``seed_base + game_index``) at the next run."""
        self.tab["start"][lo:hi] = 1
        self.tab["action"][lo:hi] = -1

    def run(
        self,
        lo: int,
        hi: int,
        seat_policy: np.ndarray,
        reward: tuple[int, np.ndarray],
        stride: int,
        games_end: int,
        skip_forced: bool,
        stop_at_game_end: bool = False,
    ) -> None:
        """One runner call over tables ``lo .. hi - 1``; finished games go to ``results_*``.

        ``seat_policy`` is each seat's ``POLICY_*`` or ``PYTHON_SEAT``: ``int64[4]`` for every
        table, or ``int64 (n, 4)`` per table (a learner seat that moves from game to game).
        With ``results_*`` rows, pass ``stop_at_game_end`` when every seat is compiled (a table
        then finishes one game per call).
        """
        if seat_policy.ndim == 1:
            if seat_policy.tobytes() != self._policy_bytes:
                self._policy_row = seat_policy.astype(np.int64)
                self._policy_bytes = self._policy_row.tobytes()
                self.seat_policy[:] = seat_policy
                self._runner = runner_for(seat_policy, self.encoder_id != NO_ENCODER)
        else:
            if seat_policy is not self.seat_policy:
                self.seat_policy[:] = seat_policy
            self._runner = runner_for(seat_policy, self.encoder_id != NO_ENCODER)
        call = (lo, hi, reward[0], stride, games_end, skip_forced, stop_at_game_end)
        if call != self._call or reward[1] is not self._reward_params:
            self._call, self._reward_params = call, reward[1]
            opt = self.opt
            for name, value in zip(OPTION_NAMES, call, strict=True):
                opt[name][...] = value
            opt["reward_scale"][...] = reward[1][0]
            opt["rank_points"][:] = reward[1][1:]
        if self.threads > 1 and hi - lo >= 2 * MIN_SHARE:
            self._call_split(lo, hi)
        else:
            self.call_runner()
        if self.results_i.shape[0]:
            if hi - lo == 1:  # a table of its own: no array pass
                if self.ti[lo, T_TERMINATED]:
                    self._store_results((lo,))
            elif self.terms[lo:hi].any():
                self._store_results(lo + np.flatnonzero(self.terms[lo:hi]))

    def call_runner(self, teacher: bool = False) -> int:
        """The runner on this batch's buffers with the options as they are; its result. The
        teacher mode (``teacher``) runs in ``_run``, a call that plays in the runner its seat
        policies need (``runner_for``)."""
        return (_run if teacher else self._runner)(*self._call_args[0])

    def _call_split(self, lo: int, hi: int) -> None:
        """The runner over tables ``lo .. hi - 1`` in up to ``threads`` calls at once, each over
        a contiguous share with its own options row (a copy of the first's, counters apart);
        the counters are then added into the first row, whose range is ``lo .. hi`` again."""
        n, ti, tf = self.n, self.ti, self.tf
        parts = min(self.threads, (hi - lo) // MIN_SHARE)
        cuts = np.linspace(lo, hi, parts + 1).astype(np.int64)
        for k in range(1, parts):
            ti[n + k] = ti[n]
            tf[n + k] = tf[n]
            ti[n + k, O_PLAYED] = ti[n + k, O_GAMES_DONE] = 0
            ti[n + k, O_LO], ti[n + k, O_HI] = cuts[k], cuts[k + 1]
        ti[n, O_HI] = cuts[1]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads - 1, thread_name_prefix="riichi-tables")
        run, args = self._runner, self._call_args
        futures = [self._pool.submit(run, *args[k]) for k in range(1, parts)]
        try:
            run(*args[0])
        finally:
            for f in futures:
                f.result()
            ti[n, O_HI] = hi
            for k in range(1, parts):
                ti[n, O_PLAYED] += ti[n + k, O_PLAYED]
                ti[n, O_GAMES_DONE] += ti[n + k, O_GAMES_DONE]

    def close(self) -> None:
        """Stop the threads of a split run, if any started."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _store_results(self, idx: np.ndarray) -> None:
        """Each finished game of tables ``idx`` into its row of ``results_*``."""
        for t in idx:
            k = self.ti[t, T_FINAL_GAME]
            self.results_i[k] = self.ti[t, FINAL_RESULT]
            self.results_f[k] = self.tf[t, F_FINAL_SCORES : F_FINAL_SCORES + 4]

    def final_info(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Each table's last finished game: ``(points, ranks, seed)`` as int64, final scores."""
        tab = self.tab
        return (
            tab["final_points"].copy(),
            tab["final_ranks"].copy(),
            tab["final_seed"].copy(),
            tab["final_scores"].copy(),
        )

    def game_seeds(self) -> np.ndarray:
        """Seed of each table's current game (``seed_base + game_index`` modulo 2**63)."""
        return (self.seed_base + self.game_index) & np.int64(SEED_MAX)

    def set_actions(self, idx: np.ndarray, actions, who: str) -> None:
        """Check ``actions`` for tables ``idx`` (ints, legal for each acting seat) and queue them.

        ``who`` names the source in errors (``"actions"``, a policy's name).
        """
        a = actions
        if not (
            type(a) is np.ndarray
            and a.dtype == np.int64
            and a.shape == idx.shape
            and a.flags.c_contiguous
        ):  # anything but what a policy's argmax gives: checked and converted first
            a = self._action_array(idx, actions, who)
        j = _queue_actions(self.masks, idx, a, self.ti)
        if j < 0:
            return
        t, act = int(idx[j]), int(a[j])
        if not 0 <= act < self.n_actions:
            raise ValueError(
                f"{who}: table {t} (seat {int(self.seats[t])}): action {act} "
                f"is outside 0..{self.n_actions - 1}"
            )
        why = explain_illegal(self.state, act, t) or "not legal now"
        raise ValueError(
            f"{who}: table {t} (seat {int(self.seats[t])}): illegal action {act} "
            f"({action_name(act)}): {why}"
        )

    @staticmethod
    def _action_array(idx: np.ndarray, actions, who: str) -> np.ndarray:
        """``actions`` as a C-contiguous ``int64`` array of ``idx``'s shape, or the error."""
        if isinstance(actions, np.ndarray):
            a = actions
        elif actions is None:
            said = "returned None" if who != "actions" else "is None"
            raise TypeError(f"{who} {said}, expected an int array of shape ({idx.shape[0]},)")
        else:
            try:
                a = np.asarray(actions)
            except (TypeError, ValueError) as exc:
                raise TypeError(f"{who} must be an array of ints, got {describe(actions)}") from exc
        if a.shape != (idx.shape[0],):
            raise ValueError(f"{who} must have shape ({idx.shape[0]},), got {a.shape}")
        if a.dtype.kind not in "iu":
            raise TypeError(
                f"{who} must be integers (one action id per table), got dtype {a.dtype}"
            )
        return np.ascontiguousarray(a, dtype=np.int64)


__all__ = ["FINISHED", "PYTHON_SEAT", "Batch"]
