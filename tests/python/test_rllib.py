"""RLlib's action-masking PPO module on knightgym's Gymnasium env through knightgym.rllib
(make torch2 runs these, with RLlib and PyTorch 2 in .venv-torch2): a few iterations
train, every action the module took while sampling was legal, and every episode's return
is the game's own score of the learner's seat; the example trains and scores."""

import importlib.util
import math
import pathlib

import gymnasium
import numpy as np
import pytest
from conftest import NEEDS_TORCH_2, TORCH_2

if not TORCH_2:
    pytest.skip(NEEDS_TORCH_2, allow_module_level=True)
pytest.importorskip("ray.rllib", reason="RLlib comes into .venv-torch2 (make torch2)")

import knightgym.gymnasium  # noqa: E402
import knightgym.rllib  # noqa: E402
import ray  # noqa: E402
import recording  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.tune.registry import register_env  # noqa: E402

# One worker runs the Ray tests, one after the other (make test's pytest-xdist).
pytestmark = pytest.mark.xdist_group("ray")

EXAMPLE = pathlib.Path(__file__).resolve().parent.parent.parent / "examples" / "rllib_tailten.py"


class Recorder(recording.Recorder):
    """recording.Recorder into lists of the class: RLlib's registry pickles the env
    creator, so lists it closed over would be copies, but a class travels by name."""

    steps = []  # (legal, illegal_action flag)
    endings = []  # (episode return, the state's return for the learner's seat)

    def __init__(self, env):
        super().__init__(env, Recorder.steps, Recorder.endings)


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_masked_observations_are_what_the_masking_module_reads():
    env = knightgym.rllib.make_env("tailten", opponent="random")
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert set(obs) == {"observations", "action_mask"}
    game = env.unwrapped.game
    c, h, w = game.observation_shape
    assert obs["observations"].shape == (h, w, c)  # channels last
    assert np.array_equal(
        obs["observations"], np.moveaxis(env.unwrapped.state().observation_tensor(), 0, -1)
    )
    assert obs["action_mask"].dtype == np.float32
    assert np.array_equal(obs["action_mask"], env.unwrapped.action_masks())


def test_ppo_with_the_masking_module_takes_only_legal_actions(local_ray):
    Recorder.steps.clear()
    Recorder.endings.clear()
    register_env(
        "knightgym-test-tailten",
        lambda config: knightgym.rllib.MaskedObservations(
            Recorder(gymnasium.make("knightgym/Tailten-v0", opponent="random"))
        ),
    )
    config = (
        PPOConfig()
        .environment("knightgym-test-tailten")
        .env_runners(num_env_runners=0, num_envs_per_env_runner=2)
        .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1)
        .rl_module(
            rl_module_spec=knightgym.rllib.module_spec(conv_filters=[(8, 3, 1)], head_hiddens=(32,))
        )
        .debugging(seed=0)
    )
    algo = config.build_algo()
    try:
        for _ in range(2):
            result = algo.train()
    finally:
        algo.stop()
    assert len(Recorder.steps) >= 2 * 256
    assert all(legal and not illegal for legal, illegal in Recorder.steps)
    assert Recorder.endings
    for episode_return, state_return in Recorder.endings:
        assert episode_return == pytest.approx(state_return)
        assert -1 <= episode_return <= 1
    mean = result["env_runners"]["episode_return_mean"]
    assert math.isfinite(mean) and -1 <= mean <= 1


def test_the_example_trains_and_scores(local_ray):
    spec = importlib.util.spec_from_file_location("rllib_tailten", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = example.main(
        [
            "--iterations",
            "1",
            "--batch",
            "128",
            "--minibatch",
            "64",
            "--epochs",
            "1",
            "--env-runners",
            "0",
            "--envs",
            "2",
            "--score-games",
            "8",
        ]
    )
    for when in ("before", "after"):
        assert out[when]["games"] == 8
        assert out[when]["wins"] + out[when]["draws"] + out[when]["losses"] == 8
    assert len(out["history"]) == 1
