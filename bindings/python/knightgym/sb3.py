"""Stable-Baselines3 and sb3-contrib over knightgym (see docs/api.md, Stable-Baselines3).

Two ways in, with the same spaces, so one policy serves both:

    from stable_baselines3.common.env_util import make_vec_env
    envs = make_vec_env("knightgym/KnightFight-v0", n_envs=8,
                        env_kwargs={"opponent": "greedy"})        # N Python envs

    envs = knightgym.sb3.VecEnv("knight_fight", num_envs=64, opponent="greedy", seed=0)
                                                                 # one C++ batch, as EnvPool

    model = MaskablePPO("MultiInputPolicy", envs, policy_kwargs=knightgym.sb3.POLICY_KWARGS)

VecEnv is SB3's VecEnv over knightgym's OpponentEnv: the environments step together in
C++ (no Python loop per environment), with same-step auto-reset as SB3 expects (a
finished episode's last observation in infos[i]["terminal_observation"]), masks for
MaskablePPO by action_masks() and env_method("action_masks"), and images for
VecVideoRecorder by get_images(). BoardExtractor is a small convolutional feature
extractor for the board planes that learns every game (SB3's default MLP does not learn
Knight Fight in minutes; docs/api.md has the measurements).
"""

import gymnasium
import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _SB3VecEnv

from knightgym import raster
from knightgym._checks import Locked, serialised
from knightgym.gymnasium import observation_space
from knightgym.vector_env import OpponentEnv, make_spec


class BoardExtractor(BaseFeaturesExtractor):
    """Features of {"observation": [C, H, W], "action_mask": [A]}: three 3x3
    convolutions over the board planes (the mask is MaskablePPO's to apply, not a
    feature), then one linear layer to `features_dim`."""

    def __init__(self, observation_space, channels=64, features_dim=256):
        super().__init__(observation_space, features_dim)
        planes, height, width = observation_space["observation"].shape
        self.body = torch.nn.Sequential(
            torch.nn.Conv2d(planes, channels, 3, padding=1), torch.nn.ReLU(),
            torch.nn.Conv2d(channels, channels, 3, padding=1), torch.nn.ReLU(),
            torch.nn.Conv2d(channels, channels, 3, padding=1), torch.nn.ReLU(),
            torch.nn.Flatten(),
            torch.nn.Linear(channels * height * width, features_dim), torch.nn.ReLU())

    def forward(self, observations):
        return self.body(observations["observation"])


# MaskablePPO("MultiInputPolicy", env, policy_kwargs=POLICY_KWARGS): BoardExtractor, with
# separate policy and value heads of one hidden layer each.
POLICY_KWARGS = {"features_extractor_class": BoardExtractor,
                 "net_arch": {"pi": [128], "vf": [128]}}


class VecEnv(Locked, _SB3VecEnv):
    """`num_envs` games of `game` (a spec, with `params` added) in one C++ batch: the
    learner plays seat i mod num_players of environment i (or `seat` in all), the agent
    `opponent` every other seat. Observations are copies (SB3 keeps them across steps);
    render_mode "rgb_array" gives get_images(). Calls from several threads take turns."""

    def __init__(self, game="knight_fight", num_envs=8, opponent="random", seed=None,
                 seat=None, render_mode=None, **params):
        Locked.__init__(self)
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be 'rgb_array' or None, got {render_mode!r}")
        self.env = OpponentEnv(make_spec(game, **params), num_envs, opponent, seed, "same_step",
                               "all", seat)
        self.game = self.env.game
        self.opponent = opponent
        self.render_mode = render_mode  # read by SB3's constructor, through get_attr
        _SB3VecEnv.__init__(self, num_envs, observation_space(self.game),
                            spaces.Discrete(self.game.num_actions))
        self._actions = None
        self._masks = None

    @serialised
    def reset(self):
        """New games everywhere; after seed(s), each environment's streams derived from s
        (SB3 hands environment i the seed s + i; the batch derives them from s)."""
        if any(self._options):
            raise ValueError(f"reset options: knightgym's environments take none, got "
                             f"{self._options[0]!r}")
        obs, info = self.env.reset(seed=self._seeds[0])
        self._reset_seeds()
        self.reset_infos = [{"seat": int(s)} for s in info["seat"]]
        return self._observation(obs)

    @serialised
    def step(self, actions):
        """step_async and step_wait as one call, which no other thread's call splits."""
        return _SB3VecEnv.step(self, actions)

    @serialised
    def step_async(self, actions):
        self._actions = np.asarray(actions, dtype=np.int32).reshape(self.num_envs)

    @serialised
    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, info = self.env.step(actions)
        dones = terminated | truncated
        infos = [{"seat": int(s)} for s in info["seat"]]
        if "final_obs" in info:
            final = info["final_obs"]
            for i in np.flatnonzero(info["_final_obs"]):
                infos[i]["terminal_observation"] = {
                    "observation": final["observation"][i].copy(),
                    "action_mask": final["action_mask"][i].view(np.int8).copy()}
                infos[i]["TimeLimit.truncated"] = False  # max_turns is a rule: no bootstrap
                infos[i]["max_turns_reached"] = bool(truncated[i])
        return self._observation(obs), rewards.copy(), dones.copy(), infos

    @serialised
    def action_masks(self):
        """The legal actions of every environment, int8 [num_envs, A] (1: legal)."""
        if self._masks is None:
            raise gymnasium.error.ResetNeeded("call reset() before action_masks()")
        return self._masks.copy()

    @serialised
    def get_images(self):
        return [raster.rgb_array(self.env.state(i)) for i in range(self.num_envs)]

    @serialised
    def close(self):
        self.env = None

    # SB3 asks these of each environment; here they all share one batch.
    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name, value, indices=None):
        if len(self._indices(indices)) != self.num_envs:
            raise ValueError(f"set_attr({attr_name!r}): the environments share one batch, so "
                             "an attribute is set for all of them or none")
        setattr(self, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        chosen = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in chosen]
        if method_name == "render":
            return [raster.rgb_array(self.env.state(i)) for i in chosen]
        raise AttributeError(f"{method_name!r}: the environments' methods here are "
                             "action_masks and render")

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._indices(indices))

    def _indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return list(indices)

    def _observation(self, obs):
        self._masks = obs["action_mask"].view(np.int8).copy()
        return {"observation": obs["observation"].copy(), "action_mask": self._masks.copy()}
