"""Buffers of a batch of tables and the calls into ``_run_tables``, shared by the vector env and
``riichi_env.selfplay``.

A batch owns one engine ``State`` of ``B`` tables and every array the compiled loop reads or
writes (masks, seats, rewards, the action RNGs, game indices, observations). A *worker* is a
contiguous range of tables with its own scratch arrays, so workers can run in threads at once.
"""

from __future__ import annotations

import numpy as np

from engine.actions import N_ACTIONS, action_name
from engine.legality import explain_illegal
from engine.rules import Rules
from engine.state import new_state
from engine.tables import load_tables
from engine.validation import SEED_MAX, describe
from riichi_env.aec.encoders import N_ROWS, bounds
from riichi_env.aec.kernels import FINISHED, PYTHON_SEAT, _run_tables, _start_tables


class Batch:
    """``n`` tables under ``rules`` with the buffers of ``_run_tables``.

    ``encoder`` is an encoder name or ``None`` (no observations); ``obs_dtype`` is ``np.float32``
    or ``np.uint8``; ``max_events`` > 0 keeps an event log per table (records).
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
    ) -> None:
        self.n = n
        self.state = new_state(n, rules, max_events)
        self.st, self.ev = self.state.records, self.state.events
        tables = load_tables()
        self.tables_tuple = tuple(tables)
        self.suit, self.honor = tables.shanten_suit, tables.shanten_honor
        self.masks = np.zeros((n, N_ACTIONS), dtype=np.int8)
        self.seats = np.zeros(n, dtype=np.int64)
        self.actions = np.zeros(n, dtype=np.int64)
        self.pending = np.zeros(n, dtype=np.bool_)
        self.need_reset = np.zeros(n, dtype=np.bool_)
        self.rng = np.zeros((n, 2), dtype=np.int64)
        self.hand_points = np.zeros((n, 4), dtype=np.int32)
        self.rewards = np.zeros((n, 4), dtype=np.float32)
        self.terms = np.zeros(n, dtype=np.bool_)
        self.game_index = np.zeros(n, dtype=np.int64)
        self.seed_base = np.zeros(n, dtype=np.int64)
        self.seat_policy = np.full((n, 4), PYTHON_SEAT, dtype=np.int64)
        """Each table's seat policies (``run`` fills it from a shared ``int64[4]``)."""
        self._policy_row = np.full(4, PYTHON_SEAT, dtype=np.int64)
        self.encoder_id = encoder_id if encoder is not None else -1
        rows = N_ROWS[encoder] if encoder is not None else 1
        self.obs_shape = (rows, 34)
        self.quantized = np.dtype(obs_dtype) == np.uint8
        if self.quantized:
            self.obs = np.zeros((n, rows, 34), dtype=np.uint8)
            low, high = bounds(encoder)
            self.quant_lo = np.ascontiguousarray(low[:, 0], dtype=np.float32)
            self.quant_inv = (255.0 / (high[:, 0] - low[:, 0])).astype(np.float32)
        else:
            self.obs = np.zeros((n if encoder is not None else 0, rows, 34), dtype=np.float32)
            self.quant_lo = np.zeros(rows, dtype=np.float32)
            self.quant_inv = np.ones(rows, dtype=np.float32)
        self._no_u8 = np.zeros((0, rows, 34), dtype=np.uint8)
        self.final_obs = np.zeros((n if final_obs else 0, rows, 34), dtype=np.float32)
        self.final_i = np.zeros((n if final_obs else 0, 9), dtype=np.int64)
        self.final_f = np.zeros((n if final_obs else 0, 4), dtype=np.float64)
        self.results_i = np.zeros((0, 10), dtype=np.int64)
        self.results_f = np.zeros((0, 4), dtype=np.float64)

    def worker_scratch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A worker's own ``(delta, float observation scratch, game counter)``."""
        scratch = np.zeros((1, *self.obs_shape), dtype=np.float32)
        return np.zeros(4, dtype=np.int32), scratch, np.zeros(1, dtype=np.int64)

    def start(self, lo: int, hi: int) -> None:
        """Start each table's game ``game_index`` (``seed_base + game_index``)."""
        _start_tables(*self.start_arguments(lo, hi))

    def start_arguments(self, lo: int, hi: int) -> tuple:
        """``_start_tables``' arguments (``riichi_env.compile()`` compiles for their types)."""
        return (
            self.st,
            self.ev,
            self.tables_tuple,
            lo,
            hi,
            self.game_index,
            self.seed_base,
            self.rng,
            self.masks,
            self.hand_points,
        )

    def run(
        self,
        lo: int,
        hi: int,
        scratch,
        seat_policy: np.ndarray,
        reward: tuple[int, np.ndarray],
        stride: int,
        games_end: int,
        skip_forced: bool,
        stop_at_game_end: bool = False,
    ) -> int:
        """One ``_run_tables`` call over tables ``lo .. hi - 1``; the decisions played.

        ``seat_policy`` is each seat's ``POLICY_*`` or ``PYTHON_SEAT``: ``int64[4]`` for every
        table, or ``int64 (n, 4)`` per table (a learner seat that moves from game to game).
        """
        return _run_tables(
            *self.run_arguments(
                lo,
                hi,
                scratch,
                seat_policy,
                reward,
                stride,
                games_end,
                skip_forced,
                stop_at_game_end,
            )
        )

    def run_arguments(
        self,
        lo: int,
        hi: int,
        scratch,
        seat_policy: np.ndarray,
        reward: tuple[int, np.ndarray],
        stride: int,
        games_end: int,
        skip_forced: bool,
        stop_at_game_end: bool = False,
    ) -> tuple:
        """``_run_tables``' arguments for ``run`` (``riichi_env.compile()`` compiles for their
        types)."""
        delta, obs_scratch, counter = scratch
        if seat_policy.ndim == 1:
            if not np.array_equal(self._policy_row, seat_policy):
                self._policy_row = seat_policy.copy()
                self.seat_policy[:] = seat_policy
            seat_policy = self.seat_policy
        if self.quantized:
            obs_f, obs_u8 = obs_scratch, self.obs
        else:
            obs_f, obs_u8 = self.obs, self._no_u8
        return (
            self.st,
            self.ev,
            self.tables_tuple,
            lo,
            hi,
            self.actions,
            self.pending,
            self.masks,
            self.seats,
            seat_policy,
            self.rng,
            self.hand_points,
            delta,
            self.rewards,
            reward[0],
            reward[1],
            self.terms,
            self.game_index,
            self.seed_base,
            stride,
            games_end,
            skip_forced,
            self.need_reset,
            stop_at_game_end,
            self.encoder_id,
            self.suit,
            self.honor,
            obs_f,
            obs_u8,
            self.quant_lo,
            self.quant_inv,
            self.final_obs,
            self.final_i,
            self.final_f,
            self.results_i,
            self.results_f,
            counter,
        )

    def game_seeds(self) -> np.ndarray:
        """Seed of each table's current game (``seed_base + game_index`` modulo 2**63)."""
        return (self.seed_base + self.game_index) & np.int64(SEED_MAX)

    def set_actions(self, idx: np.ndarray, actions, who: str) -> None:
        """Check ``actions`` for tables ``idx`` (ints, legal for each acting seat) and queue them.

        ``who`` names the source in errors (``"actions"``, a policy's name).
        """
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
        a = a.astype(np.int64, copy=False)
        bad = (a < 0) | (a >= N_ACTIONS)
        if bad.any():
            j = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"{who}: table {int(idx[j])} (seat {int(self.seats[idx[j]])}): action {int(a[j])} "
                f"is outside 0..{N_ACTIONS - 1}"
            )
        legal = self.masks[idx, a]
        if not legal.all():
            j = int(np.flatnonzero(legal == 0)[0])
            t, act = int(idx[j]), int(a[j])
            why = explain_illegal(self.state, act, t) or "not legal now"
            raise ValueError(
                f"{who}: table {t} (seat {int(self.seats[t])}): illegal action {act} "
                f"({action_name(act)}): {why}"
            )
        self.actions[idx] = a
        self.pending[idx] = True


__all__ = ["FINISHED", "Batch"]
