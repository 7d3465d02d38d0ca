"""riichi_env: a fast, rule-exact Riichi Mahjong environment (PettingZoo AEC API).

``riichi_env.env(**options)`` / ``riichi_env.raw_env`` (spec: the ``riichi_env.env`` module
docstring and ``docs/environment.md``), ``riichi_env.RiichiGymEnv`` (single-agent Gymnasium
wrapper), ``riichi_env.vector_env(num_tables=B, ...)`` (many tables stepped in one call,
``riichi_env.vector``), ``riichi_env.selfplay(policy, games=...)`` (whole games with compiled or
batched Python policies, ``riichi_env.play``), ``riichi_env.learner_vector_env(num_tables=B,
opponents=...)`` (one learning seat per table, ``riichi_env.learner``).
"""

__version__ = "0.1.0"

from riichi_env import _siblings

_siblings.check()  # a user's engine.py or another 'agents' package would shadow ours

from riichi_env.env import ENV_NAME, SeatView, env, raw_env  # noqa: E402
from riichi_env.gym_wrapper import RiichiGymEnv  # noqa: E402
from riichi_env.learner import LearnerVectorEnv, learner_vector_env  # noqa: E402
from riichi_env.play import selfplay  # noqa: E402
from riichi_env.vector import RiichiVectorEnv, vector_env  # noqa: E402

__all__ = [
    "ENV_NAME",
    "LearnerVectorEnv",
    "RiichiGymEnv",
    "RiichiVectorEnv",
    "SeatView",
    "__version__",
    "env",
    "learner_vector_env",
    "raw_env",
    "selfplay",
    "vector_env",
]
