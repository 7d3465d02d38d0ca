"""``riichi_env.Policy`` and its sibling protocols: what self-play and the arena accept."""

import numpy as np
import pytest

import riichi_env
from agents import RandomAgent
from riichi_env.batch.play import _policies
from riichi_env.batch.policy import BatchPolicy, LogPolicy, Policy, PolicyFunction


class _Act:
    def act(self, observation, action_mask, view) -> int:
        return int(np.flatnonzero(action_mask)[0])


class _Batch:
    def act_batch(self, observations, masks, seats, views):
        return masks.argmax(axis=1)


class _Log:
    def act_log(self, decision) -> int:
        return 0


def test_agents_satisfy_the_protocols():
    assert riichi_env.Policy is Policy
    assert isinstance(_Act(), Policy) and isinstance(RandomAgent(), Policy)
    assert isinstance(_Batch(), BatchPolicy) and not isinstance(_Batch(), Policy)
    assert isinstance(_Log(), LogPolicy)
    assert isinstance(lambda obs, mask, seat: mask.argmax(axis=1), PolicyFunction)
    assert not isinstance(object(), (Policy, BatchPolicy, LogPolicy, PolicyFunction))
    assert len(_policies([_Act(), _Batch(), _Log(), "random"])) == 4


def test_an_object_without_the_methods_is_a_type_error_naming_them():
    with pytest.raises(TypeError, match=r"seat 2 .*none of the methods act\(\), act_batch\(\)"):
        _policies(["random", "random", object(), "random"])
    with pytest.raises(TypeError, match=r"act_log\(\) or __call__ \(riichi_env.Policy\)"):
        riichi_env.arena([object(), "random", "random", "random"], games=1)
