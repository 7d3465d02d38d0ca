"""Train PPO with action masking on riichi with RLlib, locally, for a few iterations.

    pip install -e ".[rllib]" torch==2.13.0
    python examples/train_rllib_ppo.py --iterations 3 [--env-runners 1] [--address ADDR]

All four seats share one policy (self-play), an MLP behind RLlib's action-masking module, which
reads the ``{"observations", "action_mask"}`` dicts of ``riichi_env.integrations.rllib.RiichiMultiAgentEnv``.
Rewards are each hand's point change / 1000. Prints, per iteration, the sampled environment
steps, the mean episode return (all seats: near 0 in self-play) and the policy's mean entropy,
which falls as it learns. ``--address`` runs it on an existing Ray cluster. Needs torch, so CI
does not run it (the adapter is tested without torch in ``tests/riichi_env/integrations/test_rllib.py``).
"""

from __future__ import annotations

import argparse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--env-runners", type=int, default=1)
    parser.add_argument("--batch", type=int, default=4000, help="environment steps per iteration")
    parser.add_argument("--address", default=None, help="a running Ray cluster (default: local)")
    args = parser.parse_args()

    try:  # the rllib extra, and torch
        import ray
        from ray.rllib.algorithms.ppo import PPOConfig
        from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
        from ray.rllib.core.rl_module.rl_module import RLModuleSpec
        from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
            ActionMaskingTorchRLModule,
        )
    except ModuleNotFoundError as exc:
        from riichi_env.extras import missing_extra

        if exc.name == "torch" or (exc.name or "").startswith("torch."):
            raise SystemExit(
                "error: examples/train_rllib_ppo.py needs torch: pip install torch"
            ) from None
        raise SystemExit(f"error: {missing_extra(exc, 'examples/train_rllib_ppo.py')}") from None

    from riichi_env.integrations.rllib import RiichiMultiAgentEnv

    ray.init(address=args.address, include_dashboard=False, logging_level="ERROR")
    config = (
        PPOConfig()
        .environment(
            RiichiMultiAgentEnv,
            env_config={"encoder": "basic_v0", "reward": "hand"},
            # RLlib's start-up check steps with unmasked random actions, which riichi refuses
            disable_env_checking=True,
        )
        .multi_agent(
            policies={"shared"},
            policy_mapping_fn=lambda agent_id, episode, **kw: "shared",
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [256, 256]},
                    )
                }
            )
        )
        .env_runners(num_env_runners=args.env_runners)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=max(args.batch // 8, 64),
            num_epochs=2,
            lr=3e-4,
        )
    )
    algo = config.build_algo()
    for i in range(args.iterations):
        result = algo.train()
        runners = result.get("env_runners", {})
        learner = result.get("learners", {}).get("shared", {})
        print(
            f"iteration {i + 1}: env steps {runners.get('num_env_steps_sampled_lifetime', 0):,}, "
            f"mean return {runners.get('episode_return_mean', float('nan')):.3f}, "
            f"entropy {learner.get('entropy', float('nan')):.3f}"
        )
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
