#!/usr/bin/env python3
"""Tianshou's DQN with action masking learns Tailten against a C++ opponent, scored
before and after training in games against that opponent.

    make torch2   # .venv-torch2 (Tianshou, PyTorch 2) and build-torch2
    PYTHONPATH=build-torch2/python .venv-torch2/bin/python examples/tianshou_tailten.py

The envs are knightgym.tianshou.make_env("tailten", opponent=SPEC, seat=SEAT):
knightgym's Gymnasium env, the opponent a C++ agent, with its observations in Tianshou's
masked form ({"obs", "mask"}), which DQN's policy reads: illegal actions are neither
chosen nor explored, and the bootstrap takes the best legal next action. The score: the
greedy policy plays `--score-games` games, one in each of that many environments of
knightgym's C++ batch, from the same seat; wins, draws and the win rate with its 95%
Wilson interval are printed.
"""

import argparse
import time

import knightgym.gymnasium
import knightgym.tianshou
import numpy as np
import torch
from knightgym import scoring
from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams
from torch import nn


class QNetwork(nn.Module):
    """Two 3 x 3 convolutions over the board, then a Q-value per action; Tianshou's
    model protocol: (obs, state, info) -> (q values [B, A], state)."""

    def __init__(self, observation_shape, num_actions, channels=32, hidden=256):
        super().__init__()
        c, h, w = observation_shape
        self.layers = nn.Sequential(
            nn.Conv2d(c, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, 2 * channels, 3, padding=1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(2 * channels * h * w, hidden),
            nn.ReLU(),
            nn.Linear(hidden, num_actions),
        )

    def forward(self, obs, state=None, info=None):
        return self.layers(torch.as_tensor(obs, dtype=torch.float32)), state


def measure(policy, game, opponent, seat, games, seed):
    """The policy's greedy legal action against `opponent`, one game in each of `games`
    environments: their tally (knightgym.scoring)."""

    def choose(obs):
        mask = obs["action_mask"].astype(bool)
        with torch.no_grad():
            q, _ = policy.model(obs["observation"].copy())  # the env's arrays are read-only
            actions = policy.compute_q_value(q, mask).argmax(dim=1).numpy()
        assert mask[np.arange(games), actions].all()
        return actions

    return scoring.score_policy(game, choose, opponent=opponent, seat=seat, games=games, seed=seed)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    scoring.add_example_arguments(parser, game="tailten", score_games=400)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--epoch-steps", type=int, default=5000, help="env steps per epoch")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--buffer", type=int, default=50000)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    def make_env():
        return knightgym.tianshou.make_env(args.game, opponent=args.opponent, seat=args.seat)

    envs = DummyVectorEnv([make_env] * args.envs)
    envs.seed(args.seed)
    space, actions = make_env().observation_space, make_env().action_space
    policy = DiscreteQLearningPolicy(
        model=QNetwork(space["obs"].shape, actions.n),
        action_space=actions,
        observation_space=space,
        eps_training=1.0,
        eps_inference=0.0,
    )
    algorithm = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=args.lr),
        gamma=0.99,
        n_step_return_horizon=3,
        target_update_freq=200,
    )
    before = scoring.report(
        "before training",
        measure(policy, args.game, args.opponent, args.seat, args.score_games, args.seed + 1),
    )
    # Without the NaN check, which scans the whole buffer at every update.
    collector = Collector(
        algorithm,
        envs,
        VectorReplayBuffer(args.buffer, args.envs),
        exploration_noise=True,
        raise_on_nan_in_buffer=False,
    )
    collector.reset()
    total = args.epochs * args.epoch_steps
    history = []

    def training_step(epoch, env_step):
        # epsilon from 1 to 0.05 over the first half of training, then 0.05
        policy.set_eps_training(max(0.05, 1.0 - 1.9 * env_step / total))
        if not history or history[-1]["epoch"] != epoch:
            history.append({"epoch": epoch, "env_step": env_step})
            print(
                f"epoch {epoch}: from env step {env_step}, {time.monotonic() - start:.0f} s",
                flush=True,
            )

    start = time.monotonic()
    stats = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=args.epochs,
            epoch_num_steps=args.epoch_steps,
            collection_step_num_env_steps=2 * args.envs,
            batch_size=args.batch,
            update_step_num_gradient_steps_per_sample=0.25,
            training_fn=training_step,
            test_collector=None,
            verbose=False,
            show_progress=False,
        )
    )
    print(
        f"trained: {stats.train_step} env steps, {stats.train_episode} games, "
        f"{stats.update_step} gradient steps, {time.monotonic() - start:.0f} s",
        flush=True,
    )
    after = scoring.report(
        "after training",
        measure(policy, args.game, args.opponent, args.seat, args.score_games, args.seed + 1),
    )
    envs.close()
    return {"before": before, "after": after, "history": history}


if __name__ == "__main__":
    main()
