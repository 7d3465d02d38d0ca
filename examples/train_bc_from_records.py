"""Behaviour cloning from a folder of game records into the MaskablePPO tile-CNN policy.

    pip install -e ".[train]"
    riichi-env arena --games 20000 --seats efficiency,efficiency,efficiency,efficiency \\
        --log runs/eff20k --format mjai
    python examples/train_bc_from_records.py runs/eff20k --minutes 27 --held-out 0.05 \\
        --eval-games 400 --out runs/bc --json
    riichi-env arena --seats ppo:runs/bc/bc.zip,simple,simple,simple --games 400
    python examples/train_bc_from_records.py tests/data/logs --epochs 3 --out runs/bc_smoke

``records`` are record files (any format ``riichi-env replay`` reads, ``.gz`` too) and folders
(every record file under them). ``riichi_env.dataset.Converter`` turns each game into one row per
decision of every seat (``--encoder`` observations, the legal-action mask and the recorded
action); decisions with a single legal action are left out. The rows stream through
``riichi_env.dataset.io.iter_batches`` (``--workers`` conversion processes, a shuffle buffer of
``--shuffle-buffer`` rows); ``--dtype uint8`` (the default) carries observations as bytes and turns
them back into floats per batch (``low + byte * (high - low) / 255``, as
``riichi_env.vector_env(obs_dtype=np.uint8).dequantize``).

The policy is the one ``examples/train_maskable_ppo.py`` trains (``riichi_env.integrations.sb3.maskable_ppo``:
``TileConvExtractor``, a 1D CNN over the 34 tile kinds); the loss is the cross-entropy of the
recorded action under the policy's logits with illegal actions masked out
(``riichi_env.integrations.sb3.masked_logits``), Adam with ``--lr``. ``--held-out`` keeps that fraction of the
record FILES (games) out of training (drawn with ``--seed``); after training, the clone's
agreement with the recorded moves on up to ``--held-out-rows`` of their rows is printed per
decision kind (``riichi_env.dataset.KINDS``: the kind of the recorded move; ``discard`` is
discard agreement). Every ``--curve-every`` seconds the held-out agreement on ``--curve-rows``
fixed rows is measured; ``OUT/curve.png`` plots training loss and held-out discard agreement
against training samples (``OUT/history.json`` keeps the points).

``OUT/bc.zip`` is a MaskablePPO checkpoint: ``riichi-env arena --seats ppo:OUT/bc.zip,...`` plays
it. ``--init CHECKPOINT`` starts from a checkpoint's weights (same encoder and network).
``--then-ppo MINUTES`` hands the clone to MaskablePPO against three compiled ``--opponents``
(value head alone for the first ``--critic-warmup`` minutes, then the whole policy, learning rate
``--ppo-lr``), saved as ``OUT/ppo.zip``. ``--eval-games N`` plays N duplicate arena games of each
saved policy against three ``--opponents`` (average rank with its 95 % interval). ``--json``
prints one object as the last line.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

try:  # the train extra: sb3-contrib (with Stable-Baselines3 and torch) and matplotlib
    import matplotlib  # noqa: F401 (the curve, below)
    import sb3_contrib  # noqa: F401 (MaskablePPO, below)
    import torch
except ModuleNotFoundError as exc:
    from riichi_env.extras import missing_extra

    raise SystemExit(f"error: {missing_extra(exc, 'examples/train_bc_from_records.py')}") from None


def record_files(sources: list[str]) -> list:
    """The record files of ``sources`` (``riichi_env.dataset.io.record_files``), or exit naming why."""
    from riichi_env.dataset.io import record_files as find

    try:
        return find(sources)
    except ValueError as exc:
        raise SystemExit(f"error: {exc}") from None


def split_files(files: list[Path], fraction: float, seed: int) -> tuple[list[Path], list[Path]]:
    """``(train, held_out)``: ``fraction`` of the files held out, drawn with ``seed``."""
    if not 0.0 <= fraction < 1.0:
        raise SystemExit(f"error: --held-out must be in [0, 1), got {fraction}")
    order = np.random.default_rng([seed, 0x5EED]).permutation(len(files))
    n_held = int(round(fraction * len(files)))
    if fraction > 0:
        n_held = max(n_held, 1)
    if n_held >= len(files):
        raise SystemExit(
            f"error: --held-out {fraction} of {len(files)} files leaves no file to train on"
        )
    held = sorted(files[i] for i in order[:n_held])
    train = sorted(files[i] for i in order[n_held:])
    return train, held


class Observations:
    """Float observation tensors from a batch: uint8 bytes dequantized with the encoder's bounds."""

    def __init__(self, encoder: str):
        from riichi_env.core.encoders import bounds

        low, high = bounds(encoder)
        self.low = torch.as_tensor(low)
        self.step = torch.as_tensor((high - low) / np.float32(255.0))

    def __call__(self, obs: np.ndarray) -> torch.Tensor:
        if obs.dtype == np.uint8:
            return torch.from_numpy(obs).float().mul_(self.step).add_(self.low)
        return torch.as_tensor(obs, dtype=torch.float32)


class Agreement:
    """Counts of rows and of agreeing argmax moves per decision kind."""

    def __init__(self):
        from riichi_env.dataset import KINDS

        self.kinds = KINDS
        self.rows = np.zeros(len(KINDS), dtype=np.int64)
        self.hits = np.zeros(len(KINDS), dtype=np.int64)
        self.loss = 0.0
        self.files: set[int] = set()

    def add(self, kind: np.ndarray, hit: np.ndarray, loss_sum: float, files=None) -> None:
        self.rows += np.bincount(kind, minlength=len(self.kinds))
        self.hits += np.bincount(kind, weights=hit, minlength=len(self.kinds)).astype(np.int64)
        self.loss += loss_sum
        if files is not None:
            self.files.update(np.unique(files).tolist())

    def rate(self, kind: str | None = None) -> float:
        """Agreement on one kind (``None``: all rows); NaN without rows."""
        if kind is None:
            n, h = self.rows.sum(), self.hits.sum()
        else:
            i = self.kinds.index(kind)
            n, h = self.rows[i], self.hits[i]
        return float(h / n) if n else float("nan")

    def as_dict(self) -> dict:
        total = int(self.rows.sum())
        return {
            "rows": total,
            "games": len(self.files),
            "loss": self.loss / max(total, 1),
            "agreement": self.rate(),
            "per_kind": {
                k: {"rows": int(n), "agreement": self.rate(k)}
                for k, n in zip(self.kinds, self.rows, strict=True)
                if n
            },
        }

    def table(self) -> str:
        lines = [f"{'kind':<10} {'rows':>10} {'agreement':>10}"]
        for k, n in zip(self.kinds, self.rows, strict=True):
            if n:
                lines.append(f"{k:<10} {int(n):>10,} {self.rate(k):>10.1%}")
        lines.append(f"{'all':<10} {int(self.rows.sum()):>10,} {self.rate():>10.1%}")
        return "\n".join(lines)


@torch.no_grad()
def score(policy, to_float, batches, max_rows: int = 0) -> Agreement:
    """The policy's agreement with the recorded moves of ``batches`` (at most ``max_rows`` rows)."""
    from riichi_env.integrations.sb3 import masked_logits

    out = Agreement()
    seen = 0
    for batch in batches:
        if max_rows and seen >= max_rows:
            break
        if max_rows:
            batch = {k: v[: max_rows - seen] for k, v in batch.items()}
        seen += len(batch["action"])
        for i in range(0, len(batch["action"]), 1024):
            obs = to_float(batch["obs"][i : i + 1024])
            logits = masked_logits(policy, obs, batch["mask"][i : i + 1024])
            action = torch.as_tensor(batch["action"][i : i + 1024].astype(np.int64))
            loss = torch.nn.functional.cross_entropy(logits, action, reduction="sum")
            hit = (logits.argmax(1) == action).numpy()
            kind = batch["kind"][i : i + 1024].astype(np.int64)
            out.add(kind, hit, float(loss), batch["file"][i : i + 1024])
    return out


def plot(history: list[dict], path: Path, title: str) -> None:
    """Training loss and held-out discard agreement against training samples."""
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    trained = [h for h in history if h["train_loss"] is not None]
    ax.plot(
        [h["samples"] for h in trained],
        [h["train_loss"] for h in trained],
        "o-",
        color="tab:blue",
        label="training loss",
    )
    ax.set_xlabel("training samples (decisions)")
    ax.set_ylabel("cross-entropy (nats)")
    twin = ax.twinx()
    twin.plot(
        [h["samples"] for h in history],
        [100 * h["held_out_discard"] for h in history],
        "s--",
        color="tab:orange",
        label="held-out discard agreement",
    )
    twin.set_ylabel("held-out discard agreement (%)")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = twin.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, loc="center right", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def load_init(model, path: str, encoder: str) -> None:
    """Copy a checkpoint's policy weights into ``model`` (same encoder and network)."""
    from sb3_contrib import MaskablePPO

    from riichi_env.integrations.sb3 import encoder_of

    if not Path(path).is_file():
        raise SystemExit(f"error: --init: no checkpoint at {path!r}")
    other = MaskablePPO.load(path, device="cpu")
    theirs = encoder_of(other.observation_space, path)
    if theirs != encoder:
        raise SystemExit(f"error: --init {path} reads {theirs!r} observations, not {encoder!r}")
    try:
        model.policy.load_state_dict(other.policy.state_dict())
    except RuntimeError as exc:
        raise SystemExit(f"error: --init {path} has another network: {exc}") from None


def then_ppo(model, args) -> int:
    """MaskablePPO on the clone for ``--then-ppo`` minutes; the steps it took."""
    from riichi_env.integrations.sb3 import freeze_policy

    budget = args.then_ppo * 60
    warmup = min(args.critic_warmup * 60, budget)
    chunk = model.n_steps * model.n_envs
    start = time.perf_counter()
    frozen = warmup > 0
    freeze_policy(model, frozen)
    while time.perf_counter() - start < budget:
        if frozen and time.perf_counter() - start >= warmup:
            freeze_policy(model, False)
            frozen = False
        model.learn(chunk, reset_num_timesteps=False)
    freeze_policy(model, False)
    return int(model.num_timesteps)


def build_parser() -> argparse.ArgumentParser:
    """The command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="+", help="record files and folders")
    parser.add_argument("--encoder", default="basic_v0", help="observation encoder")
    parser.add_argument("--dtype", choices=("uint8", "float32"), default="uint8")
    parser.add_argument("--minutes", type=float, default=None, help="training wall time")
    parser.add_argument("--epochs", type=float, default=None, help="passes over the training files")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3, help="cloning learning rate (Adam)")
    parser.add_argument("--held-out", type=float, default=0.05, help="fraction of files held out")
    parser.add_argument("--held-out-rows", type=int, default=300_000, help="0: all held-out rows")
    parser.add_argument("--curve-rows", type=int, default=20_000, help="held-out rows per point")
    parser.add_argument("--curve-every", type=float, default=60.0, help="seconds between points")
    parser.add_argument("--shuffle-buffer", type=int, default=20_000, help="rows")
    parser.add_argument("--workers", type=int, default=1, help="record conversion processes")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--net", choices=("conv", "mlp"), default="conv", help="policy network")
    parser.add_argument("--init", default=None, help="start from this checkpoint's weights")
    parser.add_argument("--then-ppo", type=float, default=0.0, help="minutes of MaskablePPO after")
    parser.add_argument("--critic-warmup", type=float, default=1.0, help="of --then-ppo, minutes")
    parser.add_argument("--ppo-lr", type=float, default=1e-4)
    parser.add_argument("--tables", type=int, default=64, help="tables of the PPO vector env")
    parser.add_argument("--opponents", default="simple", help="compiled opponents (PPO, eval)")
    parser.add_argument("--eval-games", type=int, default=0, help="arena games per checkpoint")
    parser.add_argument("--out", default="runs/bc", help="bc.zip, curve.png, history.json")
    parser.add_argument("--json", action="store_true", help="one JSON object as the last line")
    return parser


def parse_args() -> argparse.Namespace:
    """The checked options (``--epochs 1`` when neither it nor ``--minutes`` is given)."""
    parser = build_parser()
    args = parser.parse_args()
    for name in ("batch_size", "workers", "threads", "tables"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    for name in ("held_out_rows", "curve_rows", "eval_games"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must be at least 0")
    if args.minutes is None and args.epochs is None:
        args.epochs = 1.0
    if (args.minutes is not None and args.minutes <= 0) or (
        args.epochs is not None and args.epochs <= 0
    ):
        parser.error("--minutes and --epochs must be positive")
    if args.then_ppo < 0 or args.critic_warmup < 0:
        parser.error("--then-ppo and --critic-warmup must be at least 0")

    from riichi_env.core.encoders import check_encoder

    try:
        check_encoder(args.encoder)
    except ValueError as exc:
        parser.error(str(exc))
    return args


def make_model(args):
    """The MaskablePPO model the clone lives in (on a vector env for ``--then-ppo``)."""
    from riichi_env.integrations.sb3 import RiichiSB3VecEnv, maskable_ppo

    tables = args.tables if args.then_ppo > 0 else 1
    venv = RiichiSB3VecEnv(tables, opponents=args.opponents, seed=args.seed, encoder=args.encoder)
    model = maskable_ppo(
        venv,
        net=args.net,
        cloned=True,
        lr=args.ppo_lr,
        n_steps=64,
        batch_size=min(1024, 64 * tables),
        seed=args.seed,
    )
    if args.init:
        load_init(model, args.init, args.encoder)
    return model


class Cloner:
    """The cloning loop: the policy, its optimizer, the held-out curve and the counters."""

    def __init__(self, model, args, held_files: list[Path]):
        self.args = args
        self.out = Path(args.out)
        self.policy = model.policy
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=args.lr)
        self.to_float = Observations(args.encoder)
        self.options = {"encoder": args.encoder, "dtype": args.dtype, "skip_forced": True}
        self.held_files = held_files
        self.curve_rows = self.first_held_rows()
        self.history: list[dict] = []
        self.samples = 0
        self.skipped: list = []  # the first pass's skipped records and hands
        self.trained = 0.0  # seconds in the training loop (conversion included, curve points not)
        self.epoch = 0.0
        self.next_point = args.curve_every
        self.running, self.running_n = 0.0, 0

    def held_batches(self):
        """Batches of 1024 held-out rows."""
        from riichi_env.dataset.io import iter_batches

        return iter_batches(self.held_files, 1024, workers=self.args.workers, **self.options)

    def first_held_rows(self) -> list[dict]:
        """The held-out batches of the curve: the first ``--curve-rows`` rows."""
        curve_rows = []
        if self.held_files and self.args.curve_rows:
            with self.held_batches() as batches:
                got = 0
                for batch in batches:
                    curve_rows.append(batch)
                    got += len(batch["action"])
                    if got >= self.args.curve_rows:
                        break
        return curve_rows

    def point(self, samples: int, seconds: float, train_loss: float | None) -> None:
        """Measure, record, plot and print one point of the curve."""
        args = self.args
        self.policy.eval()
        held = score(self.policy, self.to_float, self.curve_rows, args.curve_rows)
        self.policy.train()
        self.history.append(
            {
                "samples": samples,
                "seconds": seconds,
                "train_loss": train_loss,
                "held_out_discard": held.rate("discard"),
                "held_out_all": held.rate(),
                "held_out_loss": held.as_dict()["loss"],
            }
        )
        title = f"cloning records into {args.net} ({args.encoder})"
        plot(self.history, self.out / "curve.png", title)
        loss_text = "-" if train_loss is None else f"{train_loss:.3f}"
        print(
            f"{samples:>11,} samples {seconds / 60:6.1f} min: training loss {loss_text}, "
            f"held-out discard agreement {held.rate('discard'):.1%}, all {held.rate():.1%}",
            flush=True,
        )

    def step(self, batch: dict) -> None:
        """One Adam step on the cross-entropy of a batch's recorded moves."""
        from riichi_env.integrations.sb3 import masked_logits

        n = len(batch["action"])
        logits = masked_logits(self.policy, self.to_float(batch["obs"]), batch["mask"])
        action = torch.as_tensor(batch["action"].astype(np.int64))
        loss = torch.nn.functional.cross_entropy(logits, action)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.samples += n
        self.running += float(loss.detach()) * n
        self.running_n += n

    def pass_paths(self, train_files: list[Path]) -> list[Path]:
        """This pass's files in its seeded order (a fraction of them for a fractional epoch)."""
        args = self.args
        order = np.random.default_rng([args.seed, int(self.epoch)]).permutation(len(train_files))
        paths = [train_files[i] for i in order]
        if args.epochs is not None and args.epochs - self.epoch < 1:  # a fraction of a pass
            paths = paths[: max(1, int(round((args.epochs - self.epoch) * len(paths))))]
        return paths

    def one_pass(self, train_files: list[Path], budget: float) -> bool:
        """Train on one pass over the files (or until ``budget`` seconds); whether to stop."""
        from riichi_env.dataset.io import iter_batches

        args = self.args
        paths = self.pass_paths(train_files)
        seen_rows = 0
        seen_files: set[int] = set()
        done = False
        t0 = time.perf_counter()
        batches = iter_batches(
            paths,
            args.batch_size,
            shuffle_buffer=args.shuffle_buffer,
            seed=args.seed + int(self.epoch),
            workers=args.workers,
            **self.options,
        )
        with batches:
            for batch in batches:
                self.step(batch)
                seen_rows += len(batch["action"])
                seen_files.update(np.unique(batch["file"]).tolist())
                now = self.trained + time.perf_counter() - t0
                if now >= budget:
                    done = True
                    break
                if now >= self.next_point:
                    self.trained = now
                    self.point(self.samples, self.trained, self.running / self.running_n)
                    self.running, self.running_n = 0.0, 0
                    self.next_point += args.curve_every
                    t0 = time.perf_counter()
        self.trained += time.perf_counter() - t0
        if self.epoch < 1:
            self.skipped = batches.stats.skipped
        if seen_rows == 0 and not done:
            raise SystemExit(
                "error: the training files gave no rows (see the records' skip reasons)"
            )
        if done:  # stopped by --minutes within a pass: the files it reached
            self.epoch += len(seen_files) / len(train_files)
        else:
            self.epoch = self.epoch + 1 if len(paths) == len(train_files) else args.epochs
        return done or (args.epochs is not None and self.epoch >= args.epochs)

    def clone(self, train_files: list[Path]) -> None:
        """Train for ``--minutes`` or ``--epochs``, with a curve point at the start and the end."""
        budget = self.args.minutes * 60 if self.args.minutes is not None else float("inf")
        self.point(0, 0.0, None)
        done = False
        while not done:
            done = self.one_pass(train_files, budget)
        running = self.running / self.running_n if self.running_n else None
        self.point(self.samples, self.trained, running)


def save_clone(model, cloner: Cloner) -> None:
    """Save ``OUT/bc.zip`` and ``OUT/history.json``; print what the cloning did."""
    out, samples, trained = cloner.out, cloner.samples, cloner.trained
    model.save(out / "bc.zip")
    print(
        f"cloned for {trained / 60:.1f} min: {samples:,} samples ({samples / max(trained, 1e-9):,.0f}"
        f"/s), {cloner.epoch:.2f} epochs; saved {out / 'bc.zip'}"
    )
    if cloner.skipped:
        print(
            f"{len(cloner.skipped):,} records or hands gave no rows, "
            f"the first: {cloner.skipped[0].as_dict()}"
        )
    (out / "history.json").write_text(json.dumps(cloner.history, indent=1))


def summarize(files: list[Path], train_files: list[Path], cloner: Cloner) -> dict:
    """The summary's fields about the records and the cloning."""
    return {
        "files": len(files),
        "train_files": len(train_files),
        "held_out_files": len(cloner.held_files),
        "samples": cloner.samples,
        "epochs": cloner.epoch,
        "minutes": cloner.trained / 60,
        "samples_per_s": cloner.samples / max(cloner.trained, 1e-9),
        "skipped": len(cloner.skipped),
        "checkpoint": str(cloner.out / "bc.zip"),
    }


def held_out_agreement(cloner: Cloner) -> dict:
    """Print the clone's agreement per kind on up to ``--held-out-rows`` held-out rows; its dict."""
    cloner.policy.eval()
    with cloner.held_batches() as batches:
        held = score(cloner.policy, cloner.to_float, batches, cloner.args.held_out_rows)
    print(
        f"held-out agreement with the recorded moves ({held.as_dict()['rows']:,} decisions "
        f"of {len(held.files):,} games, forced ones left out):\n{held.table()}"
    )
    return held.as_dict()


def ppo_after(model, args, summary: dict, out: Path) -> dict:
    """Run ``--then-ppo`` on the clone and save ``OUT/ppo.zip``; the checkpoints to evaluate."""
    if args.then_ppo <= 0:
        return {"bc": model}
    steps = then_ppo(model, args)
    model.save(out / "ppo.zip")
    summary["ppo_steps"] = steps
    print(f"MaskablePPO for {args.then_ppo:g} min: {steps:,} steps; saved {out / 'ppo.zip'}")
    if not args.eval_games:
        return {"ppo": model}  # the clone is in bc.zip
    from sb3_contrib import MaskablePPO

    return {"bc": MaskablePPO.load(out / "bc.zip", device="cpu"), "ppo": model}


def evaluate(checkpoints: dict, args) -> dict:
    """Play ``--eval-games`` arena games of each checkpoint; print and return their results."""
    from riichi_env.integrations.sb3 import evaluate_in_arena

    results = {}
    for name, m in checkpoints.items():
        t0 = time.perf_counter()
        row = evaluate_in_arena(m, args.opponents, args.eval_games, seed=10_000, name=name)
        lo, hi = row["avg_rank_ci95"]
        print(
            f"{name}: average rank {row['avg_rank']:.3f} ({lo:.3f}-{hi:.3f}, 95 %) over "
            f"{row['games']} arena games vs 3 {args.opponents}, win rate "
            f"{row['win_rate']:.1%}, deal-in rate {row['deal_in_rate']:.1%} "
            f"({time.perf_counter() - t0:.0f} s)"
        )
        results[name] = {
            k: row[k] for k in ("games", "avg_rank", "avg_rank_ci95", "rank_counts", "win_rate")
        } | {"deal_in_rate": row["deal_in_rate"]}
    return results


def main() -> None:
    """Clone the records, then optionally run PPO and evaluate; write the summary."""
    args = parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    files = record_files(args.records)
    train_files, held_files = split_files(files, args.held_out, args.seed)
    print(
        f"{len(files):,} record files: {len(train_files):,} to train on, {len(held_files):,} held out"
    )
    model = make_model(args)
    cloner = Cloner(model, args, held_files)
    cloner.clone(train_files)
    save_clone(model, cloner)
    summary = summarize(files, train_files, cloner)
    if held_files:
        summary["held_out"] = held_out_agreement(cloner)
    checkpoints = ppo_after(model, args, summary, out)
    if args.eval_games:
        summary["eval"] = evaluate(checkpoints, args)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    if args.json:
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
