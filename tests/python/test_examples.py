"""The examples run: a tiny version of each, checked for sane output."""

import importlib.util
import math
import pathlib

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent.parent / "examples"


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ppo_runs_a_tiny_training():
    ppo = load("ppo")
    history = ppo.main(
        [
            "--game",
            "knight_fight",
            "--envs",
            "8",
            "--steps",
            "8",
            "--iterations",
            "2",
            "--score-every",
            "1",
            "--score-games",
            "8",
            "--minibatch",
            "32",
            "--threads",
            "1",
        ]
    )
    assert [h["iteration"] for h in history] == [1, 2]
    for h in history:
        assert math.isfinite(h["loss"])
        assert 0 <= h["score"] <= 1


def test_ppo_advantages_stop_at_episode_ends():
    ppo = load("ppo")
    import torch

    batch = {
        "reward": torch.tensor([[0.0], [1.0], [0.0]]),
        "value": torch.tensor([[0.5], [0.5], [0.2]]),
        "done": torch.tensor([[False], [True], [False]]),
    }
    adv, returns = ppo.advantages(batch, torch.tensor([0.4]), gamma=1.0, lam=1.0)
    # Step 1 ends the episode: its return is its reward, and step 0 bootstraps from it only.
    assert torch.allclose(returns[1], torch.tensor([1.0]))
    assert torch.allclose(returns[0], torch.tensor([1.0]))
    assert torch.allclose(returns[2], torch.tensor([0.4]))


def test_the_pettingzoo_loop_plays_two_agents_in_a_four_player_game():
    example = load("pettingzoo_aec")
    means = example.main(["--games", "2", "--agents", "greedy,random"])
    assert set(means) == {"greedy", "random"}
    assert means["greedy"] + means["random"] == pytest.approx(0, abs=1e-6)  # zero-sum
    assert means["greedy"] > means["random"]


def test_the_sb3_example_trains_maskable_ppo_and_scores_it():
    pytest.importorskip("sb3_contrib")
    example = load("sb3_maskable_ppo")
    result = example.main(
        [
            "--game",
            "tailten",
            "--steps",
            "256",
            "--envs",
            "4",
            "--n-steps",
            "32",
            "--batch-size",
            "64",
            "--score-games",
            "8",
        ]
    )
    assert result["steps"] == 256
    for mean, half in (result["before"], result["after"]):
        assert 0 <= mean <= 1 and 0 <= half
