"""Gymnasium's interfaces over knightgym's C++ environments (see docs/api.md, Gymnasium).

Importing knightgym (or this module) registers, for every game, an id whose keyword
arguments are the game's parameters and the opponent's agent spec::

    import gymnasium, knightgym
    env = gymnasium.make("knightgym/Tailten-v0", opponent="mcts:sims=50", ringforts=12)
    envs = gymnasium.make_vec("knightgym/KnightFight-v0", num_envs=64,
                              vectorization_mode="vector_entry_point", opponent="greedy")

`make` gives a `KnightgymEnv` (one game, the learner in one seat against a C++ agent);
`make_vec` with `vector_entry_point` gives a `KnightgymVectorEnv`, knightgym's own C++
batch (an OpponentEnv), not N Python environments.

Conventions, shared by both:
- observations are {"observation": float32 [C, H, W], "action_mask": int8 [A]}, the
  mask also by `action_masks()` (sb3-contrib's MaskablePPO reads that), int8 as
  `Discrete.sample(mask=)` wants it;
- the game's length cap (`max_turns`) is one of its rules, scored like any other end
  and visible in the observation's progress plane: it ends an episode with terminated
  True (and info["max_turns_reached"] True), never with truncated, which would tell an
  agent to bootstrap from a state that has no future;
- arrays are copies unless the env is made with copy=False, when they are read-only
  views that the next step overwrites;
- an action is an integer (int or numpy integer) in [0, A): anything else (a float, a
  bool, a string, a number out of range) is a TypeError or ValueError naming it;
- calls from several threads on one env take turns (a lock), never interleave;
- render_mode "rgb_array" gives uint8 [H, W, 3] images of the board (knightgym.raster),
  the same picture as the SVG, so that video recorders work; "ansi" the board as text;
- a seed is an integer in [0, 2**64 - 1], as knightgym.make takes it (not a bool, a
  float or a string): anything else is a TypeError or ValueError naming `seed`;
  reset(seed=None) reseeds nothing;
- every env pickles and deep-copies: the copy holds the same states, streams and last
  observations, and goes on as the original would (its opponent a new agent of the same
  spec, seeded from the env's seed); snapshot() and restore(snapshot) are that copy as
  values. A closed env refuses to be used, copied or pickled (RuntimeError naming it).
"""

import numpy as np

from knightgym._optional import extra

with extra("gymnasium", __name__):
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space

import knightgym
from knightgym import raster
from knightgym._checks import Locked, checked_action, checked_seed, open_only, serialised, shortened
from knightgym._specs import spec_params
from knightgym.vector_env import OpponentEnv


def title(game):
    """A game's name in CamelCase, as its Gymnasium id spells it ("knights_challenge":
    "KnightsChallenge")."""
    return "".join(part.title() for part in game.split("_"))


# Registered id names and the games they make: every registered game.
GAMES = {title(name): name for name in knightgym.games()}

# The return an illegal action scores in KnightgymEnv (illegal_action="lose"): the
# lowest any game gives.
ILLEGAL_ACTION_RETURN = -1.0

_AUTORESET_NAMES = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}


def env_id(game):
    """The registered id of the game named `game` ("tailten": "knightgym/Tailten-v0")."""
    if game not in GAMES.values():
        raise ValueError(
            f"no Gymnasium id for game {game!r}; the games are {sorted(GAMES.values())}"
        )
    return f"knightgym/{title(game)}-v0"


def observation_space(game):
    """The space of one environment's observation of `game` (a knightgym.Game)."""
    low, high = game.observation_bounds
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, shape=game.observation_shape, dtype=np.float32),
            "action_mask": spaces.MultiBinary(game.num_actions),
        }
    )


def _autoreset_mode(mode):
    """AutoresetMode from the enum, its value ("NextStep") or knightgym's name."""
    if isinstance(mode, AutoresetMode):
        return mode
    for enum, name in _AUTORESET_NAMES.items():
        if mode in (enum.value, name):
            return enum
    raise ValueError(
        f"autoreset_mode must be an AutoresetMode or one of "
        f"{', '.join(_AUTORESET_NAMES.values())}, got {mode!r}"
    )


def _observation(obs, copy, index=None):
    """Gymnasium's form of knightgym's obs dict (of row `index`, or all rows)."""
    observation, mask = obs["observation"], obs["action_mask"].view(np.int8)
    if index is not None:
        observation, mask = observation[index], mask[index]
    if copy:
        return {"observation": observation.copy(), "action_mask": mask.copy()}
    return {"observation": observation, "action_mask": mask}


class KnightgymEnv(Locked, gymnasium.Env):
    """One game of `game` (a spec, with `params` added) in which the learner plays `seat`
    and the agent `opponent` (any agent spec) plays every other seat, in C++.

    Rewards are the learner's return when the game ends, else 0. An action the mask
    forbids ends the episode as a loss (reward -1, terminated, info["illegal_action"]),
    as PettingZoo's TerminateIllegalWrapper does, so that code which samples the action
    space without the mask (Gymnasium's env checker) runs; illegal_action="raise" makes
    it a ValueError that changes nothing instead.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game,
        opponent="random",
        seat=0,
        render_mode=None,
        copy=True,
        illegal_action="lose",
        **params,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or "
                f"None, got {render_mode!r}"
            )
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self._env = OpponentEnv(
            game, 1, opponent, None, "disabled", "all", seat, params=spec_params(params)
        )
        self.game = self._env.game
        self.game_spec = self._env.spec
        self.opponent = opponent
        self.seat = seat
        self.render_mode = render_mode
        self._copy = copy
        self._illegal_action = illegal_action
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._obs = None
        self._obs_seat = None
        self._over = False

    @serialised
    @open_only
    def reset(self, *, seed=None, options=None):
        seed = checked_seed(seed)
        super().reset(seed=seed)
        self._obs, info = self._env.reset(seed=seed)
        self._obs_seat = info["seat"][0]
        self._over = False
        if self.render_mode == "human":
            print(self.render_text())
        return _observation(self._obs, self._copy, 0), {"seat": int(info["seat"][0])}

    @serialised
    @open_only
    def step(self, action):
        if self._obs is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if self._over:
            raise ValueError("the episode is over: call reset() first")
        action = checked_action(action, self.game.num_actions)
        legal = self._obs["action_mask"][0, action]
        if not legal and self._illegal_action == "lose":
            self._over = True
            observation = _observation(self._obs, True, 0)
            observation["action_mask"][:] = 1  # a finished episode's mask
            info = {"seat": int(self._obs_seat), "illegal_action": True, "max_turns_reached": False}
            return observation, ILLEGAL_ACTION_RETURN, True, False, info
        self._obs, rewards, terminated, truncated, info = self._env.step(
            np.array([action], dtype=np.int32)
        )
        self._over = bool(terminated[0] or truncated[0])
        info = {
            "seat": int(info["seat"][0]),
            "illegal_action": False,
            "max_turns_reached": bool(truncated[0]),
        }
        if self.render_mode == "human":
            print(self.render_text())
        return _observation(self._obs, self._copy, 0), float(rewards[0]), self._over, False, info

    @serialised
    @open_only
    def action_masks(self):
        """The legal actions, int8 [A] (1: legal), as sb3-contrib's MaskablePPO and
        Discrete.sample(mask=) take them."""
        if self._obs is None:
            raise gymnasium.error.ResetNeeded("call reset() before action_masks()")
        if self._over:
            return np.ones(self.game.num_actions, dtype=np.int8)  # a finished episode's mask
        return self._obs["action_mask"][0].view(np.int8).copy()

    @serialised
    @open_only
    def state(self):
        """A copy of the current state, as a knightgym State."""
        return self._env.state(0)

    @serialised
    @open_only
    def snapshot(self):
        """What the env holds, as values: the snapshot of its one-environment OpponentEnv
        (knightgym.make's snapshot(): the seed, the state as the game's text, the random
        streams, the last outputs) and "illegal_action", whether an illegal action ended
        the episode (which that env never sees)."""
        snapshot = self._env.snapshot()
        snapshot["illegal_action"] = self._over and not self._env.state(0).is_terminal()
        return snapshot

    @serialised
    @open_only
    def restore(self, snapshot):
        """Sets the env to a snapshot of an env of the same game and options (its own
        snapshot(), or an OpponentEnv's of one environment); ValueError naming what does
        not fit, and nothing changed, otherwise. The opponent is made anew, seeded as a
        reset with the snapshot's seed seeds it; a snapshot taken before the first reset
        leaves the env to be reset."""
        self._env.restore(snapshot)
        if snapshot["fresh"]:
            self._obs = None
            self._over = False
            return
        self._obs = self._env.last_observations()
        self._over = bool(snapshot.get("illegal_action", False)) or self._env.state(0).is_terminal()

    def render_text(self):
        return str(self._env.state(0))

    @serialised
    @open_only
    def render(self):
        if self.render_mode == "ansi":
            return self.render_text()
        if self.render_mode == "rgb_array":
            return raster.rgb_array(self._env.state(0))
        if self.render_mode == "human":
            print(self.render_text())
        return None

    @serialised
    def close(self):
        self._closed = True
        self._env = None
        super().close()

    def __setstate__(self, state):
        super().__setstate__(state)
        if self._obs is not None:  # the copy's own views, not the original's
            self._obs = self._env.last_observations()


class KnightgymVectorEnv(Locked, gymnasium.vector.VectorEnv):
    """`num_envs` games of `game` in one C++ batch (knightgym.OpponentEnv): the learner
    plays seat i mod num_players of environment i (or `seat` in all), `opponent` the
    others. Actions are int [num_envs]; an illegal one raises ValueError naming the env
    and changes nothing (use the mask: obs["action_mask"]).

    autoreset_mode is Gymnasium's (an AutoresetMode, its value or knightgym's name), in
    metadata["autoreset_mode"]; with SAME_STEP, info holds final_obs and final_info
    (its "returns"), with "_final_obs" and "_final_info" masks; with DISABLED,
    reset(options={"reset_mask": mask}) restarts the environments where mask is True.
    A seed given to reset seeds every environment (each stream derived from it); a list
    of seeds is refused. snapshot() and restore(snapshot) are those of the OpponentEnv.
    """

    def __init__(
        self,
        game,
        num_envs=1,
        opponent="random",
        seat=None,
        autoreset_mode=AutoresetMode.NEXT_STEP,
        render_mode=None,
        copy=True,
        finished_mask="all",
        **params,
    ):
        super().__init__()
        mode = _autoreset_mode(autoreset_mode)
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(
                f"render_mode must be 'ansi', 'rgb_array' or None, got {render_mode!r}"
            )
        self._env = OpponentEnv(
            game,
            num_envs,
            opponent,
            None,
            _AUTORESET_NAMES[mode],
            finished_mask,
            seat,
            params=spec_params(params),
        )
        self.game = self._env.game
        self.game_spec = self._env.spec
        self.opponent = opponent
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.metadata = {
            "autoreset_mode": mode,
            "render_modes": ["ansi", "rgb_array"],
            "render_fps": 4,
        }
        self._copy = copy
        self.single_observation_space = observation_space(self.game)
        self.single_action_space = spaces.Discrete(self.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = None

    @serialised
    @open_only
    def reset(self, *, seed=None, options=None):
        if isinstance(seed, (list, tuple, np.ndarray)):
            raise ValueError(
                "seed: one integer seeds every environment (each one's streams "
                f"are derived from it), got {shortened(seed)}"
            )
        seed = checked_seed(seed)
        super().reset(seed=seed)
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"unknown reset options: {sorted(options)} (known: reset_mask)")
        self._obs, info = self._env.reset(seed=seed, mask=mask)
        return _observation(self._obs, self._copy), self._info(info)

    @serialised
    @open_only
    def step(self, actions):
        self._obs, rewards, terminated, truncated, info = self._env.step(actions)
        out = self._info(info)
        out["max_turns_reached"] = truncated.copy()
        if "final_obs" in info:
            for key in ("_final_obs", "_final_info"):
                out[key] = info[key].copy()
            out["final_obs"] = _observation(info["final_obs"], True)
            out["final_info"] = {
                "returns": info["final_info"]["returns"].copy(),
                "_returns": info["_final_info"].copy(),
            }
        rewards = rewards.copy() if self._copy else rewards
        return (
            _observation(self._obs, self._copy),
            rewards,
            terminated | truncated,
            np.zeros(self.num_envs, dtype=bool),
            out,
        )

    @serialised
    @open_only
    def action_masks(self):
        """The masks of the last observations, int8 [num_envs, A] (1: legal)."""
        if self._obs is None:
            raise gymnasium.error.ResetNeeded("call reset() before action_masks()")
        return self._obs["action_mask"].view(np.int8).copy()

    @serialised
    @open_only
    def render(self):
        """Each environment's board: a tuple of texts ("ansi") or of uint8 [H, W, 3]
        images ("rgb_array")."""
        if self.render_mode == "ansi":
            return tuple(str(self._env.state(i)) for i in range(self.num_envs))
        if self.render_mode == "rgb_array":
            return tuple(raster.rgb_array(self._env.state(i)) for i in range(self.num_envs))
        return None

    @serialised
    @open_only
    def snapshot(self):
        """The OpponentEnv's snapshot (knightgym.make's snapshot()): the seed, each state
        as the game's text, the random streams, the last outputs."""
        return self._env.snapshot()

    @serialised
    @open_only
    def restore(self, snapshot):
        """Sets the environments to a snapshot of an env of the same game and options;
        ValueError naming what does not fit, and nothing changed, otherwise (the
        OpponentEnv's restore()). A snapshot taken before the first reset leaves the env
        to be reset."""
        self._env.restore(snapshot)
        self._obs = None if snapshot["fresh"] else self._env.last_observations()

    @serialised
    def close_extras(self, **kwargs):
        self._closed = True
        self._env = None

    def __setstate__(self, state):
        super().__setstate__(state)
        if self._obs is not None:  # the copy's own views, not the original's
            self._obs = self._env.last_observations()

    @staticmethod
    def _info(info):
        return {"seat": info["seat"].copy()}


def register_envs():
    """Registers knightgym/NAME-v0 for every game (done on import; safe to repeat)."""
    for game in GAMES.values():
        if env_id(game) in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id(game),
            entry_point="knightgym.gymnasium:KnightgymEnv",
            vector_entry_point="knightgym.gymnasium:KnightgymVectorEnv",
            kwargs={"game": game},
        )


register_envs()
