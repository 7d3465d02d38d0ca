"""Random legal play in compiled code: hanchan/s and decisions/s on one core and on all cores.

Usage: ``python benchmarks/bench_selfplay.py [--games 2000] [--single-games G] [--threads N]
[--rules mahjongsoul]``. Prints a table, one row per configuration as soon as it is done;
``--games`` hanchan on all threads, ``--single-games`` (default ``--games``) on one thread. Tables run in threads (the kernels release the
GIL). Memory per table is one table's record (self-play keeps no event log).
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from engine.harness.selfplay import selfplay
from engine.rules import Rules
from engine.state import new_state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="hanchan on all threads")
    parser.add_argument("--single-games", type=int, default=None, help="hanchan on one thread")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rules", default="mahjongsoul")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", type=int, default=0, help="0 uniform random, 1 greedy")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)

    t0 = time.perf_counter()
    selfplay(2, seed=args.seed, rules=rules, threads=1, policy=args.policy)  # compile or load cache
    warm = time.perf_counter() - t0

    state = new_state(1, rules)
    per_table = state.records.nbytes
    log_bytes = state.events.nbytes

    print(f"rules {rules.name}, policy {args.policy}, warm-up (compile or cache load) {warm:.1f} s")
    print(
        f"state per table: {per_table:,} B record; the event log ({log_bytes / 1024:.0f} KiB at the "
        "default capacity) is not kept by unchecked self-play"
    )
    print()
    header = f"{'threads':>7} {'hanchan':>8} {'hands':>8} {'decisions':>11} {'seconds':>8}"
    print(header + f" {'hanchan/s':>10} {'decisions/s':>12}", flush=True)
    single = args.games if args.single_games is None else args.single_games
    configs = [(1, single)] if args.threads == 1 else [(1, single), (args.threads, args.games)]
    total = 0
    for threads, games in configs:
        out = selfplay(games, seed=args.seed, rules=rules, threads=threads, policy=args.policy)
        secs = out["seconds"]
        total += out["games"]
        print(
            f"{threads:>7} {out['games']:>8} {out['hands']:>8} {out['decisions']:>11} "
            f"{secs:>8.2f} {out['games'] / secs:>10.1f} {out['decisions'] / secs:>12.0f}",
            flush=True,
        )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS of this process: {peak_mb:.0f} MiB")
    print(f"total hanchan played: {total}")


if __name__ == "__main__":
    main()
