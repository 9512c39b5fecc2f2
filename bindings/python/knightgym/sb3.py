"""Stable-Baselines3 and sb3-contrib over knightgym (see docs/api.md, Stable-Baselines3).

Two ways in, with the same spaces, so one policy serves both:

    from stable_baselines3.common.env_util import make_vec_env
    envs = make_vec_env("knightgym/KnightFight-v0", n_envs=8,
                        env_kwargs={"opponent": "greedy"})        # N Python envs

    envs = knightgym.sb3.VecEnv("knight_fight", num_envs=64, opponent="greedy", seed=0)
                                                                 # one C++ batch, as EnvPool

    model = MaskablePPO(knightgym.sb3.BoardPolicy, envs)

VecEnv is SB3's VecEnv over knightgym's OpponentEnv: the environments step together in
C++ (no Python loop per environment), with same-step auto-reset as SB3 expects (a
finished episode's last observation in infos[i]["terminal_observation"]), masks for
MaskablePPO by action_masks() and env_method("action_masks"), and images for
VecVideoRecorder by get_images(). BoardPolicy is a policy for the board planes that
learns every game (SB3's default MLP does not learn Knight Fight in minutes; docs/api.md
has the measurements).
"""

import numpy as np
import torch

from knightgym._optional import extra

with extra("sb3", __name__):
    import gymnasium
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _SB3VecEnv

from knightgym import raster
from knightgym._checks import Locked, checked_seed, open_only, serialised
from knightgym._specs import spec_params
from knightgym.gymnasium import observation_space
from knightgym.vector_env import OpponentEnv


class BoardExtractor(BaseFeaturesExtractor):
    """Features of {"observation": [C, H, W], "action_mask": [A]}: two 3x3 convolutions
    over the board planes, flattened, every square kept (the mask is MaskablePPO's to
    apply, not a feature)."""

    def __init__(self, observation_space, channels=32):
        planes, height, width = observation_space["observation"].shape
        super().__init__(observation_space, channels * height * width)
        self.board_shape = (channels, height, width)
        self.body = torch.nn.Sequential(
            torch.nn.Conv2d(planes, channels, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Conv2d(channels, channels, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Flatten(),
        )

    def forward(self, observations):
        return self.body(observations["observation"])


class BoardLogits(torch.nn.Module):
    """A logit per action from the board's features: a linear layer over all of them,
    plus, where the actions begin with k per square (square * k + j, in the observation's
    square order: Knight Fight and Double-Duel's squares, Knights Challenge's 8 leaps,
    Knightmate's 73 planes), a 1x1 convolution's k logits on every square: the same
    weights everywhere, so that what makes a square good is learnt once, not per square."""

    def __init__(self, board_shape, num_actions):
        super().__init__()
        channels, height, width = board_shape
        self.board_shape = board_shape
        self.per_square = num_actions // (height * width)
        self.linear = torch.nn.Linear(channels * height * width, num_actions)
        self.squares = torch.nn.Conv2d(channels, self.per_square, 1) if self.per_square else None
        for layer in (self.linear, self.squares):  # a near-uniform policy to start from
            if layer is not None:
                torch.nn.init.orthogonal_(layer.weight, gain=0.01)
                torch.nn.init.zeros_(layer.bias)

    def forward(self, features):
        logits = self.linear(features)
        if self.squares is None:
            return logits
        board = features.view(-1, *self.board_shape)
        per_square = self.squares(board).permute(0, 2, 3, 1).flatten(1)  # square-major
        covered = per_square.shape[1]
        return torch.cat([logits[:, :covered] + per_square, logits[:, covered:]], dim=1)


class BoardPolicy(MaskableMultiInputActorCriticPolicy):
    """MaskablePPO's policy for every knightgym game: BoardExtractor's features, shared,
    BoardLogits for the policy and one hidden layer of 64 for the value."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("features_extractor_class", BoardExtractor)
        kwargs.setdefault("net_arch", {"pi": [], "vf": [64]})
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule):
        super()._build(lr_schedule)
        self.action_net = BoardLogits(self.features_extractor.board_shape, self.action_space.n)
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )


class VecEnv(Locked, _SB3VecEnv):
    """`num_envs` games of `game` (a spec, with `params` added) in one C++ batch: the
    learner plays seat i mod num_players of environment i (or `seat` in all), the agent
    `opponent` every other seat. Observations are copies (SB3 keeps them across steps);
    render_mode "rgb_array" gives get_images(). Calls from several threads take turns. A
    seed (here or in seed()) is an integer in [0, 2**64 - 1], as knightgym.make takes it.
    A closed VecEnv refuses to be used, copied or pickled (RuntimeError naming it)."""

    def __init__(
        self,
        game,
        num_envs=8,
        opponent="random",
        seed=None,
        seat=None,
        render_mode=None,
        **params,
    ):
        Locked.__init__(self)
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be 'rgb_array' or None, got {render_mode!r}")
        self.env = OpponentEnv(
            game, num_envs, opponent, seed, "same_step", "all", seat, params=spec_params(params)
        )
        self.game = self.env.game
        self.opponent = opponent
        self.render_mode = render_mode  # read by SB3's constructor, through get_attr
        _SB3VecEnv.__init__(
            self, num_envs, observation_space(self.game), spaces.Discrete(self.game.num_actions)
        )
        self._actions = None
        self._masks = None

    @serialised
    def seed(self, seed=None):
        """Seeds the next reset: every environment's streams derived from `seed` (an
        integer in [0, 2**64 - 1]; None draws one), as SB3's seed() does."""
        return _SB3VecEnv.seed(self, checked_seed(seed))

    @serialised
    @open_only
    def reset(self):
        """New games everywhere; after seed(s), each environment's streams derived from s
        (SB3 hands environment i the seed s + i; the batch derives them from s)."""
        if any(self._options):
            raise ValueError(
                f"reset options: knightgym's environments take none, got {self._options[0]!r}"
            )
        obs, info = self.env.reset(seed=self._seeds[0])
        self._reset_seeds()
        self.reset_infos = [{"seat": int(s)} for s in info["seat"]]
        return self._observation(obs)

    @serialised
    @open_only
    def step(self, actions):
        """step_async and step_wait as one call, which no other thread's call splits."""
        return _SB3VecEnv.step(self, actions)

    @serialised
    @open_only
    def step_async(self, actions):
        self._actions = np.asarray(actions)  # the batch refuses non-integers, wrong shapes

    @serialised
    @open_only
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
                    "action_mask": final["action_mask"][i].view(np.int8).copy(),
                }
                infos[i]["TimeLimit.truncated"] = False  # max_turns is a rule: no bootstrap
                infos[i]["max_turns_reached"] = bool(truncated[i])
        return self._observation(obs), rewards.copy(), dones.copy(), infos

    @serialised
    @open_only
    def action_masks(self):
        """The legal actions of every environment, int8 [num_envs, A] (1: legal)."""
        if self._masks is None:
            raise gymnasium.error.ResetNeeded("call reset() before action_masks()")
        return self._masks.copy()

    @serialised
    @open_only
    def get_images(self):
        return [raster.rgb_array(self.env.state(i)) for i in range(self.num_envs)]

    @serialised
    def close(self):
        self._closed = True
        self.env = None

    # SB3 asks these of each environment; here they all share one batch.
    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name, value, indices=None):
        if len(self._indices(indices)) != self.num_envs:
            raise ValueError(
                f"set_attr({attr_name!r}): the environments share one batch, so "
                "an attribute is set for all of them or none"
            )
        setattr(self, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        chosen = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in chosen]
        if method_name == "render":
            return [raster.rgb_array(self.env.state(i)) for i in chosen]
        raise AttributeError(
            f"{method_name!r}: the environments' methods here are action_masks and render"
        )

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
