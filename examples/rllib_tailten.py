#!/usr/bin/env python3
"""RLlib's PPO with action masking learns Tailten against a C++ opponent, scored before
and after training in games against that opponent.

    make torch2   # .venv-torch2 (RLlib, PyTorch 2) and build-torch2
    PYTHONPATH=build-torch2/python .venv-torch2/bin/python examples/rllib_tailten.py

The env is knightgym.rllib.make_env("tailten", opponent=SPEC, seat=SEAT): knightgym's
Gymnasium env, the opponent a C++ agent, with its observations in the form of RLlib's
action-masking PPO module (knightgym.rllib.module_spec), so no illegal action is ever
sampled. The score: the policy's most likely legal action plays `--score-games` games,
one in each of that many environments of knightgym's C++ batch, from the same seat;
wins, draws and the win rate with its 95% Wilson interval are printed.
"""

import argparse
import time

import knightgym.gymnasium
import knightgym.rllib
import numpy as np
import ray
import torch
from knightgym import scoring
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns


def measure(module, game, opponent, seat, games, seed):
    """The module's most likely legal action against `opponent`, one game in each of
    `games` environments: their tally (knightgym.scoring)."""

    def choose(obs):
        batch = {
            Columns.OBS: {
                "observations": torch.from_numpy(np.moveaxis(obs["observation"], 1, -1).copy()),
                "action_mask": torch.from_numpy(obs["action_mask"].astype(np.float32)),
            }
        }
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        actions = logits.argmax(dim=1).numpy()
        assert obs["action_mask"][np.arange(games), actions].all()
        return actions

    return scoring.score_policy(game, choose, opponent=opponent, seat=seat, games=games, seed=seed)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    scoring.add_example_arguments(parser, game="tailten", score_games=400)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument(
        "--env-runners", type=int, default=1, help="sampling processes (0: sample in this one)"
    )
    parser.add_argument("--envs", type=int, default=8, help="envs per env runner")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    own_ray = not ray.is_initialized()  # else the caller's (a test's) local Ray
    if own_ray:
        ray.init(
            num_cpus=max(2, args.env_runners + 1), include_dashboard=False, log_to_driver=False
        )
    env_name = f"knightgym-{args.game}-{args.opponent}-seat{args.seat}"
    knightgym.rllib.register_env(env_name, args.game, opponent=args.opponent, seat=args.seat)
    config = (
        PPOConfig()
        .environment(env_name)
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
        )
        .rl_module(rl_module_spec=knightgym.rllib.module_spec())
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    try:
        before = scoring.report(
            "before training",
            measure(
                algo.get_module(),
                args.game,
                args.opponent,
                args.seat,
                args.score_games,
                args.seed + 1,
            ),
        )
        start = time.monotonic()
        history = []
        for iteration in range(1, args.iterations + 1):
            result = algo.train()
            runners = result["env_runners"]
            history.append(
                {
                    "iteration": iteration,
                    "episode_return_mean": runners["episode_return_mean"],
                    "episodes": runners["num_episodes"],
                }
            )
            print(
                f"iteration {iteration}: {runners['num_episodes']} episodes, mean return "
                f"{runners['episode_return_mean']:+.3f}, {time.monotonic() - start:.0f} s",
                flush=True,
            )
        after = scoring.report(
            "after training",
            measure(
                algo.get_module(),
                args.game,
                args.opponent,
                args.seat,
                args.score_games,
                args.seed + 1,
            ),
        )
    finally:
        algo.stop()
        if own_ray:
            ray.shutdown()
    return {"before": before, "after": after, "history": history}


if __name__ == "__main__":
    main()
