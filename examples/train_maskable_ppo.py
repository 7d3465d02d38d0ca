"""Train MaskablePPO on riichi against baseline opponents; evaluate with the arena; plot the curve.

    pip install -e ".[train]" torch==2.13.0
    python examples/train_maskable_ppo.py --opponents random --minutes 10 --json
    python examples/train_maskable_ppo.py --opponents simple --minutes 30 --pretrain efficiency \
        --pretrain-minutes 20 --critic-warmup 3 --lr 3e-5 --eval-every 300 --final-eval-games 2000 \
        --out runs/simple --json
    python examples/train_maskable_ppo.py --single-table --minutes 2   # the plain wrapper

The learner plays one seat per table (drawn per game) of ``riichi_env.integrations.sb3.RiichiSB3VecEnv``, the
other three seats are ``--opponents`` played inside the kernels. The policy reads ``--encoder``
observations (default ``rich_v0``: the table plus shanten, waits and per-discard shanten/ukeire)
through ``--net`` (default ``conv``: ``riichi_env.integrations.sb3.TileConvExtractor``, a 1D CNN over the 34
tile kinds; ``mlp``: SB3's two layers of 64).

``--pretrain AGENT`` first clones a compiled agent for ``--pretrain-minutes`` of the ``--minutes``
(behaviour cloning on ``RiichiSB3VecEnv.expert_actions``: the agent plays the first half, the
policy the second with the agent labelling its states), then trains the value head alone for
``--critic-warmup`` minutes and PPO fine-tunes the whole policy (learning rate 1e-4, clip 0.1,
no entropy bonus). Without it, PPO starts from scratch (3e-4, clip 0.2, entropy 0.01).

Every ``--eval-every`` seconds of training (and at the start and the end) the policy plays
``--eval-games`` duplicate arena games (the last evaluation ``--final-eval-games``) against three
opponents (``riichi_env.arena``: average rank with its 95 % interval, ``avg_rank_interval``,
within 1-4, win rate); each evaluation
saves a checkpoint (``OUT/ppo_STEPS.zip``, playable as ``riichi-env arena --seats ppo:PATH,...``;
the arena reads its encoder from it) and redraws ``OUT/curve.png`` (average rank and win rate
against steps and wall time); ``OUT/history.json`` keeps the evaluations. Steps count every
learner decision trained on, cloned or PPO. ``--single-table`` trains on ``riichi_env.RiichiGymEnv`` (one table,
opponents in Python) to show the difference in steps per second. ``--json`` prints one object as
the last line: ``steps``, ``steps_per_s``, ``minutes``, ``avg_rank``, ``avg_rank_ci95``,
``games`` (the final evaluation).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

try:  # the train extra: sb3-contrib (with Stable-Baselines3 and torch) and matplotlib
    import matplotlib  # noqa: F401 (the curves, below)
    import sb3_contrib  # noqa: F401 (MaskablePPO, below)
    import torch
except ModuleNotFoundError as exc:
    from riichi_env.extras import missing_extra

    raise SystemExit(f"error: {missing_extra(exc, 'examples/train_maskable_ppo.py')}") from None

OPPONENTS = ("random", "simple", "efficiency")


def evaluate(model, opponent: str, games: int, seed: int) -> dict:
    """Duplicate arena games of the policy against three ``opponent`` seats."""
    from riichi_env.integrations.sb3 import evaluate_in_arena

    return evaluate_in_arena(model, opponent, games, seed=seed)


def plot(history: list[dict], path: Path, title: str, cloned_until=None) -> None:
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
        if cloned_until is not None:  # (steps, minutes) where cloning ended and PPO began
            at = cloned_until[0] if x is steps else cloned_until[1]
            ax.axvline(at, color="tab:green", lw=0.8, ls=":", label="cloning | PPO")
        ax.set_xlabel(label)
        ax.set_ylabel("average rank (1 = first)")
        ax.invert_yaxis()
        twin = ax.twinx()
        twin.plot(x, win, "s--", color="tab:orange", label="win rate")
        twin.set_ylabel("win rate per hand (%)")
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = twin.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, loc="center right", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def make_model(env, args, n_steps: int):
    """MaskablePPO with the chosen network (``--net``) and the fine-tuning settings after cloning."""
    from riichi_env.integrations.sb3 import maskable_ppo

    cloned = args.pretrain != "none"
    return maskable_ppo(
        env, net=args.net, cloned=cloned, lr=args.lr, n_steps=n_steps, seed=args.seed
    )


class Cloning:
    """Behaviour cloning: the policy learns the teacher's move at every learner decision.

    Each chunk plays ``steps`` moves at every table and then takes two passes of minibatch
    cross-entropy steps on the masked logits. The first half of the cloning time the teacher
    moves; after that the policy does (DAgger: the teacher still labels every state the policy
    reaches, so it also learns to recover from its own mistakes).
    """

    def __init__(self, model, venv, teacher: str, seconds: float, seed: int):
        self.model, self.venv, self.teacher, self.seconds = model, venv, teacher, seconds
        self.optimizer = torch.optim.Adam(model.policy.parameters(), lr=1e-3)
        self.obs = venv.reset()
        self.rng = np.random.default_rng([seed, 0xB0C])
        self.samples = 0
        self.accuracy = 0.0
        self.ended = seconds  # training seconds when the last chunk ended

    def chunk(self, elapsed: float, steps: int = 32, minibatch: int = 512) -> int:
        """Play and learn one chunk; the samples it took."""
        own = elapsed >= self.seconds / 2  # DAgger half: the policy moves, the teacher labels
        obs, masks, labels = [], [], []
        for _ in range(steps):
            mask = self.venv.action_masks()
            label = self.venv.expert_actions(self.teacher)
            move = label
            if own:
                move, _ = self.model.predict(self.obs, action_masks=mask, deterministic=True)
            obs.append(self.obs)
            masks.append(mask)
            labels.append(label)
            self.obs, *_ = self.venv.step(move)
        from riichi_env.integrations.sb3 import masked_logits

        o = torch.as_tensor(np.concatenate(obs))
        m = np.concatenate(masks)
        a = torch.as_tensor(np.concatenate(labels))
        policy = self.model.policy
        hits = 0
        for _ in range(2):
            order = torch.as_tensor(self.rng.permutation(len(a)))
            for i in range(0, len(a), minibatch):
                j = order[i : i + minibatch]
                logits = masked_logits(policy, o[j], m[j.numpy()])
                loss = torch.nn.functional.cross_entropy(logits, a[j])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                hits += int((logits.argmax(1) == a[j]).sum())
        self.samples += len(a)
        self.accuracy = hits / (2 * len(a))
        return len(a)


def build_parser() -> argparse.ArgumentParser:
    """The command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opponents", choices=OPPONENTS, default="random")
    parser.add_argument("--minutes", type=float, default=10.0, help="training wall time")
    parser.add_argument("--max-steps", type=int, default=None, help="stop after this many steps")
    parser.add_argument("--tables", type=int, default=64, help="tables of the vector adapter")
    parser.add_argument("--single-table", action="store_true", help="RiichiGymEnv instead")
    parser.add_argument("--encoder", default="rich_v0", help="observation encoder")
    parser.add_argument("--net", choices=("conv", "mlp"), default="conv", help="policy network")
    parser.add_argument(
        "--pretrain",
        choices=("none", "efficiency", "simple"),
        default="none",
        help="clone this compiled agent first (then PPO)",
    )
    parser.add_argument(
        "--pretrain-minutes", type=float, default=10.0, help="of --minutes, for cloning"
    )
    parser.add_argument(
        "--critic-warmup",
        type=float,
        default=2.0,
        help="minutes of PPO after cloning that train the value head only",
    )
    parser.add_argument("--lr", type=float, default=None, help="PPO learning rate")
    parser.add_argument("--eval-every", type=float, default=120.0, help="seconds between evals")
    parser.add_argument("--eval-games", type=int, default=400, help="duplicate games per eval")
    parser.add_argument(
        "--final-eval-games",
        type=int,
        default=None,
        help="duplicate games of the last evaluation (default: --eval-games)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs/maskable_ppo", help="checkpoints and curve.png")
    parser.add_argument("--json", action="store_true", help="one JSON object as the last line")
    return parser


def parse_args() -> argparse.Namespace:
    """The checked options (``--pretrain`` needs the vector adapter)."""
    parser = build_parser()
    args = parser.parse_args()
    if args.single_table and args.pretrain != "none":
        parser.error("--pretrain needs the vector adapter (not --single-table)")
    return args


def make_env(args):
    """``(env, n_steps)``: the vector adapter, or ``RiichiGymEnv`` for ``--single-table``."""
    if args.single_table:
        from agents import EfficiencyAgent, RandomAgent, SimpleEfficiencyAgent
        from riichi_env import RiichiGymEnv

        make = {
            "random": RandomAgent,
            "simple": SimpleEfficiencyAgent,
            "efficiency": EfficiencyAgent,
        }
        opponents = [make[args.opponents]() for _ in range(3)]
        env = RiichiGymEnv(opponents=opponents, seat="random", reward="hand", encoder=args.encoder)
        return _ObservationOnly(env), 4096
    from riichi_env.integrations.sb3 import RiichiSB3VecEnv

    env = RiichiSB3VecEnv(
        args.tables, opponents=args.opponents, seed=args.seed, encoder=args.encoder
    )
    return env, 64


class Training:
    """The training loop: cloning (``--pretrain``) then PPO, evaluated every ``--eval-every`` s."""

    def __init__(self, model, env, args, n_steps: int):
        self.model, self.args = model, args
        self.out = Path(args.out)
        self.budget = args.minutes * 60
        self.cloning = None
        if args.pretrain != "none":
            seconds = min(args.pretrain_minutes * 60, self.budget)
            self.cloning = Cloning(model, env, args.pretrain, seconds, args.seed)
        self.history: list[dict] = []
        self.start = time.perf_counter()
        self.trained = 0.0  # seconds spent training (evaluation excluded)
        self.next_eval = args.eval_every
        self.chunk_steps = n_steps * (1 if args.single_table else args.tables)

    def steps(self) -> int:
        """Learner decisions trained on so far, cloned or PPO."""
        cloning = self.cloning
        return int(self.model.num_timesteps) + (cloning.samples if cloning else 0)

    def train_chunk(self, t0: float) -> str:
        """Train one chunk (begun at ``t0``) of cloning or PPO; its phase."""
        from riichi_env.integrations.sb3 import freeze_policy

        cloning, trained = self.cloning, self.trained
        if cloning is not None and trained < cloning.seconds:
            cloning.chunk(trained)
            if trained + time.perf_counter() - t0 >= cloning.seconds:
                cloning.ended = trained + time.perf_counter() - t0
                freeze_policy(self.model, True)  # the value head learns first (--critic-warmup)
                print(
                    f"cloned {self.args.pretrain} for {cloning.samples:,} decisions "
                    f"(accuracy {cloning.accuracy:.1%} on the last chunk); PPO from here",
                    flush=True,
                )
            return "cloning"
        if cloning is not None and trained >= cloning.seconds + self.args.critic_warmup * 60:
            freeze_policy(self.model, False)
        self.model.learn(self.chunk_steps, reset_num_timesteps=False)
        return "ppo"

    def eval_point(self, steps: int, phase: str, done: bool) -> None:
        """Evaluate in the arena, save a checkpoint, redraw the curve and print a line."""
        args, cloning, trained = self.args, self.cloning, self.trained
        games = args.eval_games if not done else (args.final_eval_games or args.eval_games)
        row = evaluate(self.model, args.opponents, games, seed=10_000)
        self.history.append(
            {
                "steps": steps,
                "seconds": trained,
                "wall": time.perf_counter() - self.start,
                "phase": phase,
                "cloned": cloning.samples if cloning else 0,
                "avg_rank": row["avg_rank"],
                "avg_rank_ci95": row["avg_rank_ci95"],
                "win_rate": row["win_rate"],
                "games": row["games"],
            }
        )
        self.model.save(self.out / f"ppo_{steps}.zip")
        until = None
        if cloning is not None and trained >= cloning.seconds:
            until = (cloning.samples, cloning.ended / 60)
        plot(self.history, self.out / "curve.png", title(args), until)
        lo, hi = row["avg_rank_ci95"]
        extra = f", cloning accuracy {cloning.accuracy:.1%}" if phase == "cloning" else ""
        print(
            f"{steps:>9,} steps {trained / 60:5.1f} min ({phase}): avg rank "
            f"{row['avg_rank']:.3f} ({lo:.2f}-{hi:.2f}), win {row['win_rate']:.1%}, "
            f"{steps / max(trained, 1e-9):,.0f} steps/s{extra}",
            flush=True,
        )

    def run(self) -> None:
        """Train until ``--minutes`` or ``--max-steps``, evaluating at the start and the end too."""
        args = self.args
        first = True  # evaluate the untrained policy too: the curve starts at step 0
        while True:
            t0 = time.perf_counter()
            phase = "start" if first else self.train_chunk(t0)
            self.trained += time.perf_counter() - t0
            steps = self.steps()
            done = self.trained >= self.budget or (
                args.max_steps is not None and steps >= args.max_steps
            )
            if first or self.trained >= self.next_eval or done:
                if not first:
                    self.next_eval += args.eval_every
                first = False
                self.eval_point(steps, phase, done)
            if done:
                break


def summary(training: Training) -> dict:
    """The ``--json`` object: the final evaluation and the training speed."""
    last = training.history[-1]
    return {
        "steps": last["steps"],
        "steps_per_s": last["steps"] / max(training.trained, 1e-9),
        "minutes": training.trained / 60,
        "avg_rank": last["avg_rank"],
        "avg_rank_ci95": last["avg_rank_ci95"],
        "games": last["games"],
    }


def main() -> None:
    """Train, evaluate and plot; write ``OUT/history.json``."""
    args = parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env, n_steps = make_env(args)
    model = make_model(env, args, n_steps)
    training = Training(model, env, args, n_steps)
    training.run()
    (out / "history.json").write_text(json.dumps(training.history, indent=1))
    if args.json:
        print(json.dumps(summary(training)))


def title(args) -> str:
    cloned = f", cloning {args.pretrain} first" if args.pretrain != "none" else ""
    return f"MaskablePPO ({args.net}, {args.encoder}{cloned}) vs 3 {args.opponents}"


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
