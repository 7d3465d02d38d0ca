"""Self-play on Ray: games per second with 1 and N actors, in the same run, rounds interleaved.

    .venv/bin/python benchmarks/bench_ray.py [--games 3000] [--workers 2] [--rounds 3]
        [--policy random] [--address ADDR]

What ``riichi-env selfplay --backend ray --workers K --games G`` does, timed the same way (play
only: the actors are started and warm before the clock starts), for K = 1 and K = ``--workers``,
alternating each round so both see the same machine. Also local threads (``--backend local``)
for comparison. Prints a markdown table with the median rate of each row and the ratio to one
actor. Needs the ``ray`` extra.
"""

from __future__ import annotations

import argparse
import statistics


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--policy", default="random")
    parser.add_argument("--address", default=None, help="a running Ray cluster (default: local)")
    args = parser.parse_args()

    import ray

    import riichi_env
    from riichi_env.integrations.ray import RayPool

    ray.init(address=args.address, include_dashboard=False, logging_level="ERROR")
    rows: dict[str, list[float]] = {}
    for r in range(args.rounds):
        for k in (1, args.workers):
            with RayPool(k) as pool:  # one pool at a time: each actor takes a CPU
                out = pool.selfplay(args.policy, games=args.games, seed=r * args.games)
            rows.setdefault(f"ray, {k} actor{'s' if k > 1 else ''}", []).append(
                out["games"] / out["seconds"]
            )
        for k in (1, args.workers):
            out = riichi_env.selfplay(
                args.policy, games=args.games, seed=r * args.games, workers=k, progress=False
            )
            rows.setdefault(f"local, {k} thread{'s' if k > 1 else ''}", []).append(
                out["games"] / out["seconds"]
            )
    base = statistics.median(rows["ray, 1 actor"])
    print(f"{args.games} games of {args.policy!r} self-play per run, {args.rounds} rounds, median:")
    print()
    print("| backend | games/s | vs 1 Ray actor |")
    print("|---|---:|---:|")
    for name, rates in rows.items():
        med = statistics.median(rates)
        print(f"| {name} | {med:,.0f} | {med / base:.2f}x |")


if __name__ == "__main__":
    main()
