"""PettingZoo's AEC interface over any knightgym game (see docs/api.md, PettingZoo).

    from knightgym.pettingzoo import env
    game = env("knights_challenge(mode=team4)")
    game.reset(seed=0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        action = None if termination or truncation else policy(observation)
        game.step(action)

Agents are "player_0" to "player_{n-1}", in the game's seat order; agent_selection is
whoever decides next, so a player who decides several times in a row (Knight Fight's
erase, Double-Duel's steps) is selected again, and a colour the rules skip is not
selected. Teams share their return. Observations are {"observation": float32 [C, H, W]
from the agent's side, "action_mask": int8 [A]}, the mask all zeros for an agent that is
not to move, as in PettingZoo's classic games (and as Tianshou's PettingZooEnv reads
them). With masks="info" the observation is the array alone (a Box space) and the mask
is infos[agent]["action_mask"]: the form PettingZoo's api_test checks without a
warning (it warns of every dict observation but its own games'). state() is the whole
board from player_0's side (every game here has perfect information), in state_space.
The game's length cap (`max_turns`) is one of its rules: reaching it ends
the game with terminations True and infos[agent]["max_turns_reached"] True; truncations
stay False.

An action is an integer (int or numpy integer) in [0, A): anything else is a TypeError or
ValueError naming it, and calls from several threads on one env take turns. A seed is an
integer in [0, 2**64 - 1], as knightgym.make takes it: anything else is a TypeError or
ValueError naming `seed`. render_mode "rgb_array" gives uint8 [H, W, 3] images of the
board (knightgym.raster). An env pickles and deep-copies (the copy goes on as the
original would); a closed one refuses to be used, copied or pickled.
`raw_env` raises ValueError for an illegal action and changes nothing; `env` wraps it as
PettingZoo's classic games are: an illegal action ends the game, the offender scoring
-1 (TerminateIllegalWrapper), and acting out of turn or out of range is an error. There
is no Parallel view: every game here is turn-based, and a Parallel step would have to
invent moves for the players not on turn.
"""

import numpy as np

from knightgym._optional import extra

with extra("pettingzoo", __name__):
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

from knightgym import load_game, raster
from knightgym._checks import Locked, checked_seed, open_only, serialised, shortened
from knightgym._specs import spec_params
from knightgym.gymnasium import observation_space

ILLEGAL_ACTION_RETURN = -1.0
RENDER_MODES = ("ansi", "human", "rgb_array")
MASKS = ("observation", "info")  # where an agent finds its action mask


def env(spec, render_mode=None, masks="observation", **params):
    """The AEC env of `spec`, wrapped as PettingZoo's classic games are."""
    wrapped = raw_env(spec, render_mode=render_mode, masks=masks, **params)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_ACTION_RETURN)
    wrapped = _AssertOutOfBounds(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's wrapper, with an integer too wide for numpy out of bounds like any
    other (its action space's contains() raises OverflowError on one)."""

    def step(self, action):
        integer = isinstance(action, int) and not isinstance(action, bool)
        if integer and not np.iinfo(np.int64).min <= action <= np.iinfo(np.int64).max:
            raise AssertionError(f"action {shortened(action)} is not in action space")
        super().step(action)


class raw_env(Locked, AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped env)
    """The AEC env of the game `spec`, with `params` added to the spec; the action masks
    in the observations or (masks="info") in the infos."""

    def __init__(self, spec, render_mode=None, masks="observation", **params):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}"
            )
        if masks not in MASKS:
            raise ValueError(f"masks must be one of {', '.join(MASKS)}, got {masks!r}")
        self.game = load_game(spec, spec_params(params))
        self.render_mode = render_mode
        self.masks = masks
        self.metadata = {
            "name": f"knightgym_{self.game.name}_v0",
            "render_modes": list(RENDER_MODES),
            "render_fps": 4,
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players())]
        board = observation_space(self.game)["observation"]
        self.state_space = board
        self.observation_spaces = {
            a: observation_space(self.game) if masks == "observation" else board
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self._rng = None
        self._state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @serialised
    @open_only
    def reset(self, seed=None, options=None):
        """A new game whose randomness (Knight Fight's layout) comes from a stream seeded
        by `seed` (an integer in [0, 2**64 - 1]); without one the stream goes on (or
        starts from fresh entropy)."""
        seed = checked_seed(seed)
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self._state = self.game.new_initial_state(seed=int(self._rng.integers(2**63)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_player()]
        self._update_info_masks()

    @serialised
    @open_only
    def observe(self, agent):
        board = self._state.observation_tensor(self.possible_agents.index(agent))
        if self.masks == "info":
            return board
        return {"observation": board, "action_mask": self._mask(agent)}

    @serialised
    @open_only
    def state(self):
        """The whole board from player_0's side, float32 [C, H, W] (state_space)."""
        return self._state.observation_tensor(0)

    def _mask(self, agent):
        """The legal actions of `agent`, int8 [A]: none unless it is to move."""
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        player = self.possible_agents.index(agent)
        if not self._state.is_terminal() and player == self._state.current_player():
            mask[:] = self._state.legal_actions_mask()
        return mask

    def _update_info_masks(self):
        if self.masks == "info":
            for agent in self.agents:
                self.infos[agent]["action_mask"] = self._mask(agent)

    @serialised
    @open_only
    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # An integer in range and legal, or TypeError or ValueError naming it (C++'s
        # checked_action, the one rule for actions), and nothing changed.
        self._state.apply_action(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self._state.is_terminal():
            capped = self._state.is_truncated()
            for a, value in zip(self.possible_agents, self._state.returns()):
                self.rewards[a] = float(value)
                self.terminations[a] = True
                self.infos[a] = {"max_turns_reached": capped}
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[self._state.current_player()]
        self._update_info_masks()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    @serialised
    @open_only
    def game_state(self):
        """A copy of the current state, as a knightgym State."""
        return self._state.clone()

    @serialised
    @open_only
    def render(self):
        if self.render_mode == "rgb_array":
            return raster.rgb_array(self._state)
        text = str(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    @serialised
    def close(self):
        self._closed = True
        self._state = None
