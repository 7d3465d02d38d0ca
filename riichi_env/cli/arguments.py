"""Options and ``argparse`` types several ``riichi-env`` subcommands share."""

from __future__ import annotations

import argparse
import re

from engine.arguments import SEED_RANGE, check_seed

_INT = re.compile(r"-?[0-9]+")


def int_arg(text: str) -> int:
    """An ``argparse`` type: an integer written in ASCII digits (``int()`` would also read
    full-width and other Unicode digits, ``1_000`` and surrounding spaces)."""
    if not _INT.fullmatch(text):
        raise argparse.ArgumentTypeError(f"expected an integer in ASCII digits, got {text!r}")
    return int(text)


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """``--backend local|ray`` and ``--ray-address`` (shared by selfplay and arena)."""
    parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: threads in this process (default); ray: --workers Ray actors "
        '(pip install "riichi-env[ray]"), the same results for the same seeds',
    )
    parser.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDR",
        help="with --backend ray: the cluster to join (as ray.init(address=...); default a "
        "local Ray, or the cluster in RAY_ADDRESS)",
    )


def add_seed_argument(parser: argparse.ArgumentParser, first: str = "game") -> None:
    """``--seed``: the seed of the first ``first`` (a game, or arena's deal set), default 0."""
    parser.add_argument(
        "--seed",
        type=seed_arg,
        default=0,
        help=f"seed of the first {first}, {SEED_RANGE} (default 0)",
    )


def add_rules_argument(parser: argparse.ArgumentParser, note: str = "") -> None:
    """``--rules``: a preset name, default mahjongsoul; ``note`` ends the help."""
    parser.add_argument(
        "--rules",
        default="mahjongsoul",
        help="rules preset: mahjongsoul (default), tenhou, tenhou-2009, or the three-player "
        "mahjongsoul-3p, tenhou-3p" + note,
    )


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--no-progress``: a progress line on stderr, default when a terminal."""
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress line on stderr (default: when stderr is a terminal)",
    )


def seed_arg(text: str) -> int:
    """An ``argparse`` type for ``--seed``: the one seed range, checked before anything runs."""
    try:
        return check_seed(int_arg(text))
    except (argparse.ArgumentTypeError, ValueError):
        raise argparse.ArgumentTypeError(
            f"expected an integer {SEED_RANGE}, got {text!r}"
        ) from None
