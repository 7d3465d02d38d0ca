"""RiichiEnv's own record-to-tensor path; run by ``bench_dataset.py`` in RiichiEnv's venv.

    python _riichienv_dataset.py FILE_LIST [REPEATS]

``FILE_LIST`` names one mjai record per line. For every record: ``MjaiReplay.from_jsonl(path)``,
``take_kyokus()``, then for each hand and seat 0-3 ``kyoku.steps(seat)``, and for every step
``obs.encode()`` and ``obs.mask()``: the features and legal-action mask RiichiEnv gives a
learner. Prints one JSON line: version, games, hands, decisions (steps), the encoded bytes of one
step, and the best repeat's CPU seconds (``time.process_time``) and wall seconds. Kept free of
project imports: it runs under another interpreter.
"""

import json
import sys
import time


def convert(paths: list) -> dict:
    """One pass over ``paths``: counts and times."""
    from riichienv import MjaiReplay

    hands = decisions = 0
    obs_bytes = mask_bytes = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for path in paths:
        replay = MjaiReplay.from_jsonl(path)
        for kyoku in replay.take_kyokus():
            hands += 1
            for seat in range(4):
                for obs, _action in kyoku.steps(seat):
                    obs_bytes = len(obs.encode())
                    mask_bytes = len(obs.mask())
                    decisions += 1
    return {
        "games": len(paths),
        "hands": hands,
        "decisions": decisions,
        "obs_bytes": obs_bytes,
        "mask_bytes": mask_bytes,
        "cpu": time.process_time() - cpu0,
        "wall": time.perf_counter() - wall0,
    }


def main() -> None:
    from importlib.metadata import version

    with open(sys.argv[1], encoding="utf-8") as fh:
        paths = [line.strip() for line in fh if line.strip()]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    convert(paths[:1])  # warm-up
    best = min((convert(paths) for _ in range(repeats)), key=lambda r: r["cpu"])
    print(json.dumps({"version": version("riichienv"), **best}))


if __name__ == "__main__":
    main()
