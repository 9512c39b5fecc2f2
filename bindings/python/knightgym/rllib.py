"""RLlib (its new API stack) on knightgym's Gymnasium envs, with action masking (see
docs/api.md, RLlib). Needs a current PyTorch: `make torch2` runs it in .venv-torch2.

RLlib's action-masking module (ActionMaskingTorchRLModule, of RLlib's examples: PPO's
module with the illegal actions' logits pushed to the lowest float before sampling) reads
observations {"observations": ..., "action_mask": float 0/1 [A]}, and RLlib's default
encoder reads a 3-D Box as an image with its channels last. `MaskedObservations` puts
knightgym's {"observation": float32 [C, H, W], "action_mask": int8 [A]} in that form,
one line over any knightgym Gymnasium env::

    env = MaskedObservations(gymnasium.make("knightgym/Tailten-v0", opponent="greedy"))

`register_env` gives RLlib such an env by name, `module_spec` the masking module with a
small convolutional encoder::

    from ray.rllib.algorithms.ppo import PPOConfig
    from knightgym import rllib

    rllib.register_env("tailten-vs-greedy", "tailten", opponent="greedy")
    config = (PPOConfig().environment("tailten-vs-greedy")
              .rl_module(rl_module_spec=rllib.module_spec()))
    algo = config.build_algo()
    algo.train()

examples/rllib_tailten.py trains and scores one; tests/python/test_rllib.py checks that
every action the module takes is legal.
"""

import numpy as np

from knightgym._optional import extra

# Ray without RLlib's own dependencies (dm-tree, ...), as in .venv, fails here too, naming
# the one missing; make torch2's .venv-torch2 has them all.
with extra("rllib", __name__):
    import gymnasium
    from gymnasium import spaces
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env as _register_env

import knightgym.gymnasium

# The encoder of module_spec: two 3 x 3 convolutions that keep the board's size ("same"
# padding, stride 1), so one list fits every game's board.
CONV_FILTERS = ((32, 3, 1), (64, 3, 1))


class MaskedObservations(gymnasium.ObservationWrapper):
    """knightgym's observations in the form of RLlib's masking module:
    {"observations": float32 [H, W, C] (channels last), "action_mask": float32 0/1 [A]}.
    Actions, rewards and everything else pass through unchanged."""

    def __init__(self, env):
        super().__init__(env)
        board = env.observation_space["observation"]
        num_actions = env.observation_space["action_mask"].n
        self.observation_space = spaces.Dict(
            {
                "observations": spaces.Box(
                    np.moveaxis(board.low, 0, -1), np.moveaxis(board.high, 0, -1), dtype=np.float32
                ),
                "action_mask": spaces.Box(0.0, 1.0, shape=(num_actions,), dtype=np.float32),
            }
        )

    def observation(self, observation):
        board = np.moveaxis(observation["observation"], 0, -1)
        return {
            "observations": np.ascontiguousarray(board),
            "action_mask": observation["action_mask"].astype(np.float32),
        }


def make_env(game, **kwargs):
    """MaskedObservations over gymnasium.make of `game`'s id (a game name, "tailten"),
    with `kwargs` (opponent=, seat=, the game's parameters) as its keyword arguments."""
    return MaskedObservations(gymnasium.make(knightgym.gymnasium.env_id(game), **kwargs))


def register_env(name, game, **kwargs):
    """Registers `name` with RLlib (ray.tune's registry) as make_env(game, **kwargs), the
    algorithm's env_config added to kwargs."""
    _register_env(name, lambda env_config: make_env(game, **{**kwargs, **env_config}))


def module_spec(conv_filters=CONV_FILTERS, head_hiddens=(256,), **model_config):
    """RLlib's action-masking PPO module with a convolutional encoder (`conv_filters`:
    [filters, kernel, stride] each, "same" padding) and `head_hiddens` units in the
    policy and value heads; `model_config` adds to RLlib's DefaultModelConfig."""
    return RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={
            "conv_filters": [list(f) for f in conv_filters],
            "head_fcnet_hiddens": list(head_hiddens),
            **model_config,
        },
    )
