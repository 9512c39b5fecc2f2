"""Tianshou's DQN on knightgym's Gymnasium env through knightgym.tianshou (make torch2
runs these, with Tianshou and PyTorch 2 in .venv-torch2): every action it takes, chosen
or explored, is legal, a short training runs with real returns, the example trains and
scores, and knightgym's PettingZoo envs go into Tianshou's PettingZooEnv as they are."""

import importlib.util
import math
import pathlib

import gymnasium
import numpy as np
import pytest
from conftest import NEEDS_TORCH_2, TORCH_2

if not TORCH_2:
    pytest.skip(NEEDS_TORCH_2, allow_module_level=True)
pytest.importorskip("tianshou", reason="Tianshou comes into .venv-torch2 (make torch2)")

import knightgym.pettingzoo  # noqa: E402
import knightgym.tianshou  # noqa: E402
from recording import Recorder  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv, PettingZooEnv  # noqa: E402
from tianshou.trainer import OffPolicyTrainerParams  # noqa: E402

EXAMPLE = pathlib.Path(__file__).resolve().parent.parent.parent / "examples" / "tianshou_tailten.py"


def load_example():
    spec = importlib.util.spec_from_file_location("tianshou_tailten", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


def test_masked_observations_are_what_dqn_reads():
    env = knightgym.tianshou.make_env("tailten", opponent="random")
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert set(obs) == {"obs", "mask"}
    assert obs["obs"].shape == env.unwrapped.game.observation_shape
    assert obs["mask"].dtype == bool
    assert np.array_equal(obs["mask"], env.unwrapped.action_masks())


def test_dqn_explores_and_learns_with_legal_actions_only():
    steps, endings = [], []
    envs = DummyVectorEnv(
        [
            lambda: knightgym.tianshou.MaskedObservations(
                Recorder(gymnasium.make("knightgym/Tailten-v0", opponent="random"), steps, endings)
            )
        ]
        * 2
    )
    envs.seed(0)
    probe = knightgym.tianshou.make_env("tailten")
    space, actions = probe.observation_space, probe.action_space
    example = load_example()
    policy = DiscreteQLearningPolicy(
        model=example.QNetwork(space["obs"].shape, actions.n, channels=8, hidden=32),
        action_space=actions,
        observation_space=space,
        eps_training=0.5,
        eps_inference=0.0,
    )
    algorithm = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        n_step_return_horizon=3,
        target_update_freq=20,
    )
    collector = Collector(algorithm, envs, VectorReplayBuffer(2000, 2), exploration_noise=True)
    collector.reset()
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=1,
            epoch_num_steps=300,
            collection_step_num_env_steps=10,
            batch_size=32,
            update_step_num_gradient_steps_per_sample=0.5,
            test_collector=None,
            verbose=False,
            show_progress=False,
        )
    )
    assert result.update_step > 0
    assert len(steps) >= 300
    assert all(legal and not illegal for legal, illegal in steps)
    assert endings
    for episode_return, state_return in endings:
        assert episode_return == pytest.approx(state_return)
        assert -1 <= episode_return <= 1
    envs.close()


def test_the_example_trains_and_scores():
    out = load_example().main(
        [
            "--epochs",
            "1",
            "--epoch-steps",
            "200",
            "--envs",
            "2",
            "--batch",
            "32",
            "--buffer",
            "1000",
            "--score-games",
            "8",
        ]
    )
    for when in ("before", "after"):
        assert out[when]["games"] == 8
        assert out[when]["wins"] + out[when]["draws"] + out[when]["losses"] == 8
        assert 0 <= out[when]["win_rate"] <= 1 and math.isfinite(out[when]["interval"][0])


def test_pettingzoo_envs_go_into_tianshous_pettingzoo_env_as_they_are():
    env = PettingZooEnv(knightgym.pettingzoo.env("tailten"))
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(1000):
        assert obs["agent_id"] in env.agents
        assert np.array_equal(obs["obs"].shape, knightgym.load_game("tailten").observation_shape)
        legal = np.flatnonzero(obs["mask"])
        obs, rewards, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            break
    assert terminated
    assert sum(rewards) == pytest.approx(0)  # zero-sum: one player's win, the other's loss
