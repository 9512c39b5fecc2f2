"""Tianshou (2.x) on knightgym's Gymnasium envs, with action masking (see docs/api.md,
Tianshou). Needs a current PyTorch: `make torch2` runs it in .venv-torch2.

Tianshou's discrete Q-learning policies (DQN and its kin) mask actions by `obs.mask`,
in the form its PettingZooEnv gives: {"obs": ..., "mask": bool [A]}, the model seeing
`obs` alone. `MaskedObservations` puts knightgym's {"observation": float32 [C, H, W],
"action_mask": int8 [A]} in that form, one line over any knightgym Gymnasium env (whose
other seats a C++ agent plays)::

    env = MaskedObservations(gymnasium.make("knightgym/Tailten-v0", opponent="greedy"))

knightgym.pettingzoo's AEC envs need no wrapper: tianshou.env.PettingZooEnv reads their
{"observation", "action_mask"} as they are, for games where every seat is a Tianshou
policy. examples/tianshou_tailten.py trains DQN on one; tests/python/test_tianshou.py
checks that every action it takes is legal.
"""

from knightgym._optional import extra

with extra("tianshou", __name__):
    import gymnasium
    from gymnasium import spaces

import knightgym.gymnasium


class MaskedObservations(gymnasium.ObservationWrapper):
    """knightgym's observations in Tianshou's masked form: {"obs": float32 [C, H, W],
    "mask": bool [A]}. Actions, rewards and everything else pass through unchanged."""

    def __init__(self, env):
        super().__init__(env)
        self.observation_space = spaces.Dict(
            {
                "obs": env.observation_space["observation"],
                "mask": spaces.MultiBinary(env.observation_space["action_mask"].n),
            }
        )

    def observation(self, observation):
        return {"obs": observation["observation"], "mask": observation["action_mask"].astype(bool)}


def make_env(game, **kwargs):
    """MaskedObservations over gymnasium.make of `game`'s id (a game name, "tailten"),
    with `kwargs` (opponent=, seat=, the game's parameters) as its keyword arguments."""
    return MaskedObservations(gymnasium.make(knightgym.gymnasium.env_id(game), **kwargs))
