"""``riichi-env`` command line: one subcommand per module ``riichi_env.cli.<name>``.

Each subcommand module defines ``add_arguments(parser)`` and ``run(args) -> int`` (the exit
status); its help line is in ``SUBCOMMANDS``, so that a run imports the chosen module only. The
options and argument types several subcommands share are in ``riichi_env.cli.arguments``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import importlib.util
import io
import os
import signal
import sys
import threading
from collections.abc import Collection

SUBCOMMANDS = {
    "arena": "duplicate games between four seats (built-in agents, module:Class, or mjai:COMMAND / "
    "mjaiapp:COMMAND for an external bot) and their stats",
    "ladder": "rank seat specs (and the anchors random, simple, efficiency) by duplicate games "
    "against one fixed field on published walls, with intervals, a manifest and a plot",
    "demo": "self-play demo through the PettingZoo env: prints each hand's result and the final "
    "scores",
    "score": "score a winning hand (yaku, han, fu, payments), or JSON lines with --jsonl",
    "selfplay": "play N games with a compiled policy entirely in compiled code and print rates",
    "replay": "replay game records (mjlog XML, tenhou.net/6, mjai, Mahjong Soul) in the engine and "
    "compare the results",
    "convert": "convert game records between mjlog XML, tenhou.net/6 JSON, mjai events and Mahjong "
    "Soul's own records",
    "dataset": "convert game records into training shards (obs, mask, action, ... as .npz files)",
}
"""Subcommand names in help order, each with its help line; ``riichi_env.cli.<name>`` implements
each."""

RECORD_TOOLS = ("dataset", "convert", "replay")
"""Subcommands that run no code but the project's, do no linear algebra, and leave nothing for
the interpreter's exit to do (their worker processes stopped, their files closed, when ``run``
returns). As the program, they start NumPy's BLAS with one thread (``OPENBLAS_NUM_THREADS`` and
``MKL_NUM_THREADS``, unless set: a thread pool nobody uses costs a start 0.1 s), keep SciPy
and PyYAML out of the process (``kept_out``), end within
``INTERRUPT_GRACE`` seconds of a Ctrl-C whatever it interrupted, freeze the
objects of their imports (``gc.freeze``: the collector would scan Numba's hundred thousand
objects again and again, 0.02-0.03 s of a short run) and end at once when ``run`` returns, their
output flushed (the interpreter's teardown of Numba's and LLVM's modules takes another 0.1-0.15
s), unless a profiler, tracer or coverage tool watches."""


SCIPY_BLAS = "scipy.linalg.cython_blas"
"""The module a record tool's process does not import. Numba's first kernel load checks whether
``np.dot`` can call a BLAS by importing it, and with it ``scipy.linalg``: 0.12-0.2 s of a record
tool's start when SciPy is installed, for code none of its kernels has (without it, Numba's
``np.dot`` is a loop, and its ``np.linalg`` functions say that they need SciPy)."""

NUMBA_CONFIG_FILE = ".numba_config.yaml"
"""The file Numba reads its options from, in the current directory, with PyYAML."""


def kept_out() -> list[str]:
    """The modules a record tool's process does not import, where they are installed: SciPy's
    BLAS (``SCIPY_BLAS``) and SciPy itself (Numba's import checks its version, 8 ms), and
    PyYAML unless the current directory has a ``NUMBA_CONFIG_FILE`` (Numba's import loads it to
    be able to read one, 15 ms). An import of them raises ``ImportError``."""
    names = [SCIPY_BLAS, "scipy"]
    if not os.path.exists(NUMBA_CONFIG_FILE):
        names.append("yaml")
    return names


EARLY_WORKERS = ("dataset",)
"""Record tools whose worker processes (``--workers N``) start, as the program, before the
command line is parsed: the parse imports Numba and the engine (0.4 s), and a worker's start
(about a second) then overlaps all of this process's own. A worker learns its options from its
first message; one the run does not take is stopped."""


def _start_workers(argv: list[str]) -> bool:
    """Start the worker processes ``argv``'s ``--workers N`` asks for; whether any started."""
    from riichi_env import _worker

    count = _worker.workers_asked(argv) - 1
    if count < 1:
        return False
    _worker.start_early(count)
    return True


def _stop_workers() -> None:
    """Stop the workers started before the parse that no run took."""
    from riichi_env import _worker

    _worker.stop_early()


def _load(name: str):
    try:
        return importlib.import_module(f"riichi_env.cli.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"riichi_env.cli.{name}":
            return None
        raise


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with every available subcommand; ``commands`` (default: all) get their
    options and run function, which imports their modules. The others are listed by name and help
    line only and take any arguments (``_command`` reads a command line with them)."""
    parser = argparse.ArgumentParser(
        prog="riichi-env", description="Rule-exact Riichi Mahjong environment and tools."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, text in SUBCOMMANDS.items():
        if commands is not None and name not in commands:
            if importlib.util.find_spec(f"riichi_env.cli.{name}") is not None:
                sub.add_parser(name, help=text, description=text, add_help=False)
            continue
        module = _load(name)
        if module is None:
            continue
        p = sub.add_parser(name, help=text, description=text)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def _command(argv: list[str] | None) -> str | None:
    """The subcommand a command line names (``None``: none), as argparse reads it, without
    importing any subcommand's module; ``-h`` before it and an unknown name end the run here
    as they would in the full parser."""
    return build_parser(commands=()).parse_known_args(argv)[0].command


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``riichi-env`` console script.

    Ctrl-C ends any command with one line on stderr (``riichi-env COMMAND: interrupted``) and
    status 130, with nothing left running; as the program itself (``argv`` from the command
    line), a second Ctrl-C while it exits is ignored, and the ``RECORD_TOOLS`` start and end
    faster.
    """
    name = _command_name(sys.argv[1:]) if argv is None else None
    tool = name in RECORD_TOOLS
    if tool:
        for key in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):  # before NumPy is imported
            os.environ.setdefault(key, "1")
        for module in kept_out():
            sys.modules.setdefault(module, None)  # an import of it raises ImportError
        with contextlib.suppress(ValueError):  # signals are set from the main thread only
            signal.signal(signal.SIGINT, _interrupted_within(f"riichi-env {name}"))
    started = tool and name in EARLY_WORKERS and _start_workers(sys.argv[1:])
    try:
        status = _main(argv, freeze=tool)
    finally:
        if started:
            _stop_workers()
    if tool and not _watched():
        with contextlib.suppress(OSError, ValueError):  # a closed pipe or stream: nothing to keep
            sys.stdout.flush()
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        os._exit(status)
    return status


INTERRUPT_GRACE = 10.0
"""Seconds a record tool has to end after a Ctrl-C before it ends at once (status 130, its
one line said). Its own handling ends it in a second or two; but Python prints and ignores a
``KeyboardInterrupt`` raised while a finalizer or ``__del__`` runs, which would leave the run
going."""


def _interrupted_within(command: str):
    """A SIGINT handler: ``KeyboardInterrupt``, and a timer that ends the process with status 130
    if it is still running ``INTERRUPT_GRACE`` seconds later. A second Ctrl-C is as usual."""

    def handler(signum, frame) -> None:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        timer = threading.Timer(INTERRUPT_GRACE, _end_interrupted, args=(command,))
        timer.daemon = True
        timer.start()
        raise KeyboardInterrupt

    return handler


def _end_interrupted(command: str) -> None:
    """End the process now: the interrupt was not acted on in time."""
    with contextlib.suppress(OSError, ValueError):
        print(f"\n{command}: interrupted", file=sys.stderr, flush=True)  # after a progress line
    os._exit(130)


def _watched() -> bool:
    """Whether a profiler, tracer or coverage tool watches the process: it writes its results
    at the interpreter's exit, which must then run (``python -m cProfile -m riichi_env ...``)."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return True
    monitoring = getattr(sys, "monitoring", None)  # Python 3.12+: coverage may use it instead
    return monitoring is not None and any(
        monitoring.get_tool(tool) is not None for tool in range(6)
    )


def _command_name(argv: list[str]) -> str | None:
    """The subcommand ``argv`` names, or None when it names none (or is an error ``_main``
    reports)."""
    sink = io.StringIO()  # its help or error is printed by ``_main``'s full parser
    with (
        contextlib.suppress(SystemExit),
        contextlib.redirect_stdout(sink),
        contextlib.redirect_stderr(sink),
    ):
        return _command(argv)
    return None


def _main(argv: list[str] | None, freeze: bool = False) -> int:
    """``main`` up to the process's end: the exit status. ``freeze``: the objects of the
    imports are moved out of the garbage collector's reach before the command runs."""
    command = "riichi-env"
    try:
        parser = build_parser(commands=(_command(argv),))
        args = parser.parse_args(argv)
        if not hasattr(args, "_run"):
            parser.print_help()
            return 2
        command = f"riichi-env {args.command}"
        args._argv = list(argv) if argv is not None else sys.argv[1:]
        if freeze:
            gc.freeze()
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        if argv is None:
            _ignore_interrupts()
        with contextlib.suppress(KeyboardInterrupt, OSError):
            print(f"{command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (ValueError, TypeError, OSError, ImportError) as exc:
        print(f"{command}: error: {exc}", file=sys.stderr)
        return 2


def _ignore_interrupts() -> None:
    """Ignore further Ctrl-C: the program is exiting after one (no traceback from a second)."""
    with contextlib.suppress(ValueError):  # signals are set from the main thread only
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    sys.exit(main())
