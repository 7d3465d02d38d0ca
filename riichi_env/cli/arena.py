"""``riichi-env arena``: duplicate games between four seat specs, and a table of who is stronger."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import math
import sys

from riichi_env.batch.arena import FIGURE_NAMES
from riichi_env.batch.play import COMPILED_POLICIES, POLICY_ALIASES, POLICY_NAMES
from riichi_env.cli.arguments import (
    add_backend_arguments,
    add_progress_argument,
    add_rules_argument,
    add_seed_argument,
    int_arg,
)
from riichi_env.mjai.seat import (
    BOT_ERRORS,
    DEFAULT_MAX_TIMEOUTS,
    DEFAULT_STARTUP_TIMEOUT,
    DEFAULT_TIMEOUT,
)
from riichi_env.records.mjai import SANMA_DIALECTS

BUILT_IN = (*POLICY_NAMES, *POLICY_ALIASES, "efficiency-py", "simple-py")
"""Seat names the arena knows: the compiled policies of ``riichi_env.selfplay`` (``random``, also
called ``uniform``, ``greedy``, ``efficiency`` and ``simple``: ``EfficiencyAgent`` and
``SimpleEfficiencyAgent`` inside the kernels), and the Python agents themselves
(``efficiency-py``, ``simple-py``: the same choices, slower)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the subcommand."""
    _add_seat_arguments(parser)
    _add_figure_arguments(parser)
    add_seed_argument(parser, "set")
    parser.add_argument("--workers", type=int_arg, default=1, help="threads (default 1)")
    add_rules_argument(parser, " (then --seats takes three)")
    add_backend_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_log_arguments(
        parser,
        "write every game's record into DIR (created if missing); existing records there "
        "and symbolic links are refused before the first game",
    )
    add_bot_arguments(parser)
    add_progress_argument(parser)


def _add_seat_arguments(parser: argparse.ArgumentParser) -> None:
    """Who plays: ``--seats``, or ``--challengers`` against ``--opponents``; how many games."""
    parser.add_argument(
        "--seats",
        default="efficiency,random,random,random",
        help="four comma-separated seat specs: "
        + ", ".join(BUILT_IN)
        + ", module:Class (a class with act(observation, action_mask, view) or "
        "act_batch(...), built with no arguments), mjai:COMMAND (an external bot speaking "
        "Mortal's mjai on stdin/stdout, one event per line, e.g. 'mjai:python -m "
        "riichi_env.mjai.bot' or 'mjai:python mortal.py {seat}'), mjaiapp:COMMAND (a bot "
        "written for mjai.app: a JSON array of events per line, every line answered, e.g. "
        "'mjaiapp:python bot.py {seat}'); {seat} in a command becomes the seat the bot plays "
        "(one process per seat index), and a command may not contain commas; or ppo:PATH (a "
        "MaskablePPO checkpoint, the train extra; loading one unpickles code: load only "
        "checkpoints you trust); default efficiency,random,random,random",
    )
    parser.add_argument(
        "--games",
        type=int_arg,
        default=40,
        help="games, rounded up to a multiple of 4: each set of walls (a deal set) is played four "
        "times with the seats rotated (default 40); with --challengers, per challenger; with "
        "--target-ci, the most games played",
    )
    parser.add_argument(
        "--challengers",
        metavar="A,B",
        help="two or more seat specs, each played in one seat against the same --opponents on "
        "the same walls; the table compares them deal set by deal set (the fewest games for "
        "'is B better than A?')",
    )
    parser.add_argument(
        "--opponents",
        metavar="X,Y,Z",
        help="with --challengers: the other seats (three, or two with three-player rules)",
    )
    parser.add_argument(
        "--compare",
        metavar="A,B",
        help="two seat specs of --seats whose difference on the same walls is shown first (every "
        "pair is in --json) and --target-ci aims at",
    )


def _add_figure_arguments(parser: argparse.ArgumentParser) -> None:
    """The figures of the table: ``--points``, and ``--target-ci`` with its ``--target``."""
    parser.add_argument(
        "--points",
        type=points_arg,
        metavar="P1,P2,...",
        help="placement points of 1st, 2nd, ... (such as 90,45,0,-135, Tenhou's dan points at "
        "7-dan): adds each spec's average with its interval (the points column)",
    )
    parser.add_argument(
        "--target-ci",
        type=float,
        metavar="X",
        help="play deal sets until the 95%% interval of --target is narrower than X (its hi - "
        "lo), at most --games games; of the first seat's spec, the --compare pair's difference, "
        "or the first two challengers' difference",
    )
    parser.add_argument(
        "--target",
        default="rank",
        help="the figure of --target-ci: " + ", ".join(FIGURE_NAMES) + " (default rank)",
    )


def add_log_arguments(parser: argparse.ArgumentParser, log_help: str) -> None:
    """``--log DIR`` (helped by ``log_help``), ``--overwrite`` and ``--format`` (shared by
    ``arena`` and ``ladder``)."""
    parser.add_argument("--log", metavar="DIR", help=log_help)
    parser.add_argument(
        "--overwrite", action="store_true", help="with --log: replace existing record files"
    )
    parser.add_argument(
        "--format", choices=("mjai", "tenhou6"), default="mjai", help="record format of --log"
    )


def add_bot_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of external bots (shared by ``arena`` and ``ladder``)."""
    parser.add_argument(
        "--bot-timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds an mjai bot may take per answer (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--bot-startup-timeout",
        type=float,
        default=DEFAULT_STARTUP_TIMEOUT,
        metavar="S",
        help="seconds for an mjai bot's first answer, start-up included "
        f"(default {DEFAULT_STARTUP_TIMEOUT:g})",
    )
    parser.add_argument(
        "--bot-max-timeouts",
        type=int_arg,
        default=DEFAULT_MAX_TIMEOUTS,
        metavar="N",
        help="an mjai bot that times out N times in a row is declared dead and the run ends, "
        f"with --bot-errors substitute too (default {DEFAULT_MAX_TIMEOUTS}: a bot that never "
        "answers ends a run within a minute at the default timeouts)",
    )
    parser.add_argument(
        "--bot-errors",
        choices=BOT_ERRORS,
        default="stop",
        help="what an mjai bot's illegal or malformed answer or timeout does: stop (end the run "
        "with the error, the default) or substitute (play the default move: pass on an offer, "
        "else tsumogiri, else the first legal discard; counted per seat as bot_errors, and "
        "shown on the progress line); a bot that exits, or is declared dead "
        "(--bot-max-timeouts), ends the run either way",
    )
    parser.add_argument(
        "--sanma-dialect",
        choices=SANMA_DIALECTS,
        default="nukidora",
        help="how mjai seats are sent a three-player game: nukidora (the default, the Mortal-3p "
        "forks: four-seat lists with seat 3 empty, kita as a nukidora event) or kita "
        "(RiichiEnv: three-seat lists, kita as a kita event)",
    )


def points_arg(text: str) -> tuple[float, ...]:
    """An ``argparse`` type for ``--points``: comma-separated finite numbers."""
    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        values = ()
    if not values or not all(math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError(
            f"expected comma-separated numbers, the points of 1st, 2nd, ... such as "
            f"90,45,0,-135, got {text!r}"
        )
    return values


def split_specs(text: str, option: str, count: int | None = None) -> list[str]:
    """Comma-separated seat specs of ``option`` (``count`` of them, or two or more)."""
    specs = [s.strip() for s in text.split(",")]
    if not all(specs) or (len(specs) != count if count else len(specs) < 2):
        want = (
            {2: "two", 3: "three", 4: "four"}.get(count, "two or more") if count else "two or more"
        )
        raise ValueError(f"{option} needs {want} comma-separated seat specs, got {text!r}")
    return specs


def resolve_seat(
    spec: str,
    timeout: float = DEFAULT_TIMEOUT,
    startup: float = DEFAULT_STARTUP_TIMEOUT,
    sanma_dialect: str = "nukidora",
    max_timeouts: int = DEFAULT_MAX_TIMEOUTS,
):
    """The policy of a seat spec: a compiled name, a Python agent, module:Class, mjai:COMMAND or
    mjaiapp:COMMAND (sent three-player games in ``sanma_dialect``)."""
    spec = spec.strip()
    if spec in COMPILED_POLICIES:
        return spec  # compiled: played inside the kernels
    if spec == "efficiency-py":
        from agents import EfficiencyAgent

        return EfficiencyAgent()
    if spec == "simple-py":
        from agents import SimpleEfficiencyAgent

        return SimpleEfficiencyAgent()
    if spec.startswith("ppo:"):
        from riichi_env.integrations.sb3 import MaskablePPOAgent

        path = spec[len("ppo:") :].strip()
        try:
            return MaskablePPOAgent(path)
        except FileNotFoundError:
            raise ValueError(f"seat {spec!r}: no checkpoint at {path!r}") from None
    dialect = spec.partition(":")[0]
    if dialect in ("mjai", "mjaiapp"):
        from riichi_env.mjai.seat import MjaiBot

        command = spec[len(dialect) + 1 :].strip()
        if not command:
            raise ValueError(f"seat {spec!r}: give the bot's command after {dialect}:")
        return MjaiBot(
            command,
            name=spec,
            timeout=timeout,
            startup_timeout=startup,
            dialect=dialect,
            sanma_dialect=sanma_dialect,
            max_timeouts=max_timeouts,
        )
    if ":" not in spec:
        raise ValueError(f"unknown seat {spec!r}; use one of {', '.join(BUILT_IN)} or module:Class")
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"seat {spec!r}: cannot import module {module_name!r}: {exc}") from exc
    try:
        obj = getattr(module, attr)
    except AttributeError:
        raise ValueError(f"seat {spec!r}: module {module_name!r} has no {attr!r}") from None
    if isinstance(obj, type):
        obj = obj()
    if not (hasattr(obj, "act") or hasattr(obj, "act_batch") or callable(obj)):
        raise ValueError(f"seat {spec!r}: {attr} has no act() or act_batch() and is not callable")
    return obj


def make_pool(args: argparse.Namespace):
    """The Ray pool of ``--backend ray`` (None for local threads)."""
    if args.backend != "ray":
        return None
    from riichi_env.integrations.ray import RayPool

    return RayPool(args.workers, address=args.ray_address)


@contextlib.contextmanager
def pool_runner(args: argparse.Namespace):
    """The ``runner`` of ``--backend``: the Ray pool's ``selfplay`` (closed on leaving), or None
    for local threads."""
    pool = make_pool(args)
    try:
        yield pool.selfplay if pool is not None else None
    finally:
        if pool is not None:
            pool.close()


def check_common(args: argparse.Namespace):
    """The rules preset and the checks shared by ``arena`` and ``ladder``."""
    from engine.rules import PRESETS, PRESETS_3P, Rules

    if args.rules not in PRESETS and args.rules not in PRESETS_3P:
        raise ValueError(
            f"unknown rules preset {args.rules!r}; choose from {[*PRESETS, *PRESETS_3P]}"
        )
    if args.games < 1:
        raise ValueError(f"--games must be >= 1, got {args.games}")
    if args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    if args.bot_max_timeouts < 1:
        raise ValueError(f"--bot-max-timeouts must be >= 1, got {args.bot_max_timeouts}")
    return Rules.preset(args.rules)


def resolver(args: argparse.Namespace):
    """``resolve_seat`` with the bot options of the command line."""
    return lambda spec: resolve_seat(
        spec, args.bot_timeout, args.bot_startup_timeout, args.sanma_dialect, args.bot_max_timeouts
    )


def run(args: argparse.Namespace) -> int:
    """Play the duplicate games and print the table (or ``--json``)."""
    from riichi_env.batch.arena import arena, challenge, format_table, jsonable

    rules = check_common(args)
    n = rules.players
    word = {3: "three", 4: "four"}[n]
    seat = resolver(args)
    common = {
        "games": args.games,
        "seed": args.seed,
        "workers": args.workers,
        "rules": rules,
        "log_dir": args.log,
        "log_format": args.format,
        "overwrite": args.overwrite,
        "progress": args.progress,
        "bot_errors": args.bot_errors,
        "points": args.points,
        "target_ci": args.target_ci,
        "target": args.target,
    }
    if args.challengers is not None:
        if args.compare is not None:
            raise ValueError("--compare is for --seats; --challengers compares the challengers")
        if args.opponents is None:
            raise ValueError(f"--challengers needs --opponents ({word} seats less one)")
        challengers = split_specs(args.challengers, "--challengers")
        opponents = split_specs(args.opponents, "--opponents", n - 1)
        policies = [seat(s) for s in challengers]
        others = [seat(s) for s in opponents]
        with pool_runner(args) as runner:
            out = challenge(
                policies,
                others,
                names=challengers,
                opponent_names=opponents,
                runner=runner,
                **common,
            )
    else:
        if args.opponents is not None:
            raise ValueError("--opponents goes with --challengers")
        specs = [s.strip() for s in args.seats.split(",")]
        if len(specs) != n or not all(specs):
            raise ValueError(f"--seats needs {word} comma-separated seat specs, got {args.seats!r}")
        compare = split_specs(args.compare, "--compare", 2) if args.compare else None
        policies = [seat(s) for s in specs]
        with pool_runner(args) as runner:
            out = arena(policies, names=specs, compare=compare, runner=runner, **common)
    if args.json:
        doc = {k: v for k, v in out.items() if k not in ("seconds", "records_sha256")}
        print(json.dumps(jsonable(doc)))
    else:
        print(format_table(out))
        if args.log:
            print(f"records: {args.log}", file=sys.stderr)
    return 0
