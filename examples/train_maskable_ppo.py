"""Train MaskablePPO on riichi against baseline opponents; evaluate with the arena; plot the curve.

    pip install -e ".[train]" torch==2.13.0
    python examples/train_maskable_ppo.py --opponents random --minutes 10 --json
    python examples/train_maskable_ppo.py --opponents simple --minutes 30 --out runs/simple
    python examples/train_maskable_ppo.py --single-table --minutes 2   # the plain wrapper

The learner plays one seat per table (drawn per game) of ``riichi_env.sb3.RiichiSB3VecEnv``, the
other three seats are ``--opponents`` played inside the kernels. Every ``--eval-every`` seconds of
training (and at the end) the policy plays ``--eval-games`` duplicate arena games against three
opponents (``riichi_env.arena``: average rank with its 95 % interval, win rate); each evaluation
saves a checkpoint (``OUT/ppo_STEPS.zip``, playable as ``riichi-env arena --seats ppo:PATH,...``)
and redraws ``OUT/curve.png`` (average rank and win rate against steps and wall time).
``--single-table`` trains on ``riichi_env.RiichiGymEnv`` (one table, opponents in Python) to show
the difference in steps per second. ``--json`` prints one object as the last line: ``steps``,
``steps_per_s``, ``minutes``, ``avg_rank``, ``avg_rank_ci95``, ``games`` (the final evaluation).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

OPPONENTS = ("random", "simple", "efficiency")


def evaluate(model, opponent: str, games: int, seed: int) -> dict:
    """Duplicate arena games of the policy against three ``opponent`` seats."""
    from riichi_env.arena import arena

    class Policy:
        __name__ = "ppo"

        def act_batch(self, observations, masks, seats, views):
            actions, _ = model.predict(
                observations, action_masks=masks.astype(bool), deterministic=True
            )
            return actions

    out = arena([Policy(), opponent, opponent, opponent], games=games, seed=seed, progress=False)
    return out["agents"][0]


def plot(history: list[dict], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    steps = [h["steps"] for h in history]
    minutes = [h["seconds"] / 60 for h in history]
    rank = [h["avg_rank"] for h in history]
    lo = [h["avg_rank_ci95"][0] for h in history]
    hi = [h["avg_rank_ci95"][1] for h in history]
    win = [100 * h["win_rate"] for h in history]
    for ax, x, label in ((axes[0], steps, "training steps"), (axes[1], minutes, "minutes")):
        ax.plot(x, rank, "o-", color="tab:blue", label="average rank")
        ax.fill_between(x, lo, hi, color="tab:blue", alpha=0.2)
        ax.axhline(2.5, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(label)
        ax.set_ylabel("average rank (1 = first)")
        ax.invert_yaxis()
        twin = ax.twinx()
        twin.plot(x, win, "s--", color="tab:orange", label="win rate")
        twin.set_ylabel("win rate per hand (%)")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opponents", choices=OPPONENTS, default="random")
    parser.add_argument("--minutes", type=float, default=10.0, help="training wall time")
    parser.add_argument("--max-steps", type=int, default=None, help="stop after this many steps")
    parser.add_argument("--tables", type=int, default=64, help="tables of the vector adapter")
    parser.add_argument("--single-table", action="store_true", help="RiichiGymEnv instead")
    parser.add_argument("--eval-every", type=float, default=120.0, help="seconds between evals")
    parser.add_argument("--eval-games", type=int, default=400, help="duplicate games per eval")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs/maskable_ppo", help="checkpoints and curve.png")
    parser.add_argument("--json", action="store_true", help="one JSON object as the last line")
    args = parser.parse_args()

    from sb3_contrib import MaskablePPO

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.single_table:
        from agents import EfficiencyAgent, RandomAgent, SimpleEfficiencyAgent
        from riichi_env import RiichiGymEnv

        make = {
            "random": RandomAgent,
            "simple": SimpleEfficiencyAgent,
            "efficiency": EfficiencyAgent,
        }
        opponents = [make[args.opponents]() for _ in range(3)]
        env = RiichiGymEnv(opponents=opponents, seat="random", reward="hand")
        env = _ObservationOnly(env)
        n_steps = 4096
    else:
        from riichi_env.sb3 import RiichiSB3VecEnv

        env = RiichiSB3VecEnv(args.tables, opponents=args.opponents, seed=args.seed)
        n_steps = 64
    model = MaskablePPO(
        "MlpPolicy",  # two hidden layers of 64 for the policy and the value (SB3's default)
        env,
        n_steps=n_steps,
        batch_size=1024,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.997,
        ent_coef=0.01,
        seed=args.seed,
        verbose=0,
    )
    history: list[dict] = []
    budget = args.minutes * 60
    start = time.perf_counter()
    trained = 0.0  # seconds spent in model.learn (evaluation excluded)
    next_eval = args.eval_every
    chunk = n_steps * (1 if args.single_table else args.tables)
    first = True  # evaluate the untrained policy too: the curve starts at step 0
    while True:
        t0 = time.perf_counter()
        if not first:
            model.learn(chunk, reset_num_timesteps=False)
        trained += time.perf_counter() - t0
        steps = int(model.num_timesteps)
        done = trained >= budget or (args.max_steps is not None and steps >= args.max_steps)
        if first or trained >= next_eval or done:
            if not first:
                next_eval += args.eval_every
            first = False
            row = evaluate(model, args.opponents, args.eval_games, seed=10_000)
            history.append(
                {
                    "steps": steps,
                    "seconds": trained,
                    "wall": time.perf_counter() - start,
                    "avg_rank": row["avg_rank"],
                    "avg_rank_ci95": row["avg_rank_ci95"],
                    "win_rate": row["win_rate"],
                    "games": row["games"],
                }
            )
            model.save(out / f"ppo_{steps}.zip")
            plot(history, out / "curve.png", f"MaskablePPO vs 3 {args.opponents}")
            lo, hi = row["avg_rank_ci95"]
            print(
                f"{steps:>9,} steps {trained / 60:5.1f} min: avg rank {row['avg_rank']:.3f} "
                f"({lo:.2f}-{hi:.2f}), win {row['win_rate']:.1%}, "
                f"{steps / max(trained, 1e-9):,.0f} steps/s",
                flush=True,
            )
        if done:
            break
    (out / "history.json").write_text(json.dumps(history, indent=1))
    last = history[-1]
    if args.json:
        print(
            json.dumps(
                {
                    "steps": last["steps"],
                    "steps_per_s": last["steps"] / max(trained, 1e-9),
                    "minutes": trained / 60,
                    "avg_rank": last["avg_rank"],
                    "avg_rank_ci95": last["avg_rank_ci95"],
                    "games": last["games"],
                }
            )
        )


class _ObservationOnly:
    """``RiichiGymEnv`` with the observation array alone (MlpPolicy), masks via action_masks()."""

    def __new__(cls, env):
        import gymnasium

        class Wrapper(gymnasium.ObservationWrapper):
            def __init__(self, env):
                super().__init__(env)
                self.observation_space = env.observation_space["observation"]

            def observation(self, obs):
                return obs["observation"]

            def action_masks(self):
                return self.env.action_masks()

        return Wrapper(env)


if __name__ == "__main__":
    main()
