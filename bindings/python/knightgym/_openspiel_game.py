"""One knightgym game as an OpenSpiel Python game: pyspiel.Game and pyspiel.State
subclasses around a knightgym Game and State, and their observer. knightgym/openspiel.py
registers them; this file needs pyspiel."""

import random

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import knightgym
from knightgym._checks import checked_seed

# OpenSpiel's name (negotiation, stones_and_gems) for the seed of a sampled-stochastic
# game's stream of starts; only Knight Fight, whose layout is drawn, has it.
SEED_PARAMETER = "rng_seed"

# The largest rng_seed: OpenSpiel holds an integer parameter as a C++ int.
MOST_RNG_SEED = 2**31 - 1


def checked_rng_seed(seed):
    """``seed`` as an int if it is a seed by knightgym's rule (checked_seed) that
    OpenSpiel's int parameter holds, [0, 2**31 - 1]; otherwise TypeError or ValueError
    naming rng_seed."""
    return checked_seed(seed, SEED_PARAMETER, MOST_RNG_SEED)


def game_type(name, short_name, chance_mode=None):
    """pyspiel's GameType of knightgym's game `name`, from what knightgym reports (its
    chance mode `chance_mode` where given)."""
    reported = knightgym.load_game(name).get_type()
    enums = pyspiel.GameType
    parameters = typed_parameters(
        name, {p["name"]: p["default"] for p in knightgym.describe_game(name)["parameters"]}
    )
    if reported.chance_mode == "SAMPLED_STOCHASTIC":
        parameters[SEED_PARAMETER] = 0
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"knightgym {name}: {reported.long_name}",
        dynamics=getattr(enums.Dynamics, reported.dynamics),
        chance_mode=getattr(enums.ChanceMode, chance_mode or reported.chance_mode),
        information=getattr(enums.Information, reported.information),
        utility=getattr(enums.Utility, reported.utility),
        reward_model=getattr(enums.RewardModel, reported.reward_model),
        max_num_players=reported.max_num_players,
        min_num_players=reported.min_num_players,
        # Perfect recall, as OpenSpiel's own perfect-information games: the history.
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def game_class(name, game_type):
    """The Game subclass for knightgym's game `name`, which pyspiel.register_game calls
    with a loaded game's parameters. A class, as OpenSpiel's own Python games register:
    pyspiel releases its creator after Python has shut down, which aborts the process if
    that frees it, as it frees a function or partial held nowhere else; a class holds
    references to itself, so it is never freed there."""
    class_name = "".join(word.title() for word in name.split("_")) + "Game"
    return type(class_name, (Game,), {"knightgym_name": name, "openspiel_type": game_type})


class Game(pyspiel.Game):
    """A knightgym game for OpenSpiel, subclassed per game by game_class: its parameters
    are the knightgym game's, plus rng_seed for Knight Fight."""

    knightgym_name = None
    openspiel_type = None

    def __init__(self, params=None):
        params = {**self.openspiel_type.parameter_specification, **(params or {})}
        game_params = {k: v for k, v in params.items() if k != SEED_PARAMETER}
        wrapped = knightgym.load_game(
            self.knightgym_name, [(k, _text(v)) for k, v in game_params.items()]
        )
        super().__init__(self.openspiel_type, _game_info(wrapped), params)
        self._game = wrapped
        # Knight Fight draws a layout per start from a stream seeded by rng_seed, as
        # OpenSpiel's sampled-stochastic games draw from a generator the game holds.
        self._seeds = None
        if SEED_PARAMETER in params:
            self._seeds = random.Random(checked_rng_seed(params[SEED_PARAMETER]))
        # A Knight Fight whose layout is given starts alike from every seed: deterministic.
        self._type = self.openspiel_type
        if wrapped.get_type().chance_mode != self._type.chance_mode.name:
            self._type = game_type(
                self.knightgym_name, self._type.short_name, wrapped.get_type().chance_mode
            )

    def get_type(self):
        """The registered type, but DETERMINISTIC where this game's start is fixed (Knight
        Fight with its layout given), as Python's algorithms (alpha_beta_search) ask."""
        return self._type

    def knightgym_game(self):
        """The wrapped knightgym.Game."""
        return self._game

    def new_initial_state(self, state=None):
        if state is not None:
            raise ValueError(
                f"{self.get_type().short_name} starts only from its parameters; "
                "game.deserialize_state(text) restores a state"
            )
        return State(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _BoardObserver(self._game.observation_tensor_shape())
        return IIGObserverForPublicInfoGame(iig_obs_type, params)

    # pyspiel measures these by observing a new initial state, which would draw a
    # Knight Fight layout from the stream; knightgym knows them without one.
    def observation_tensor_shape(self):
        return list(self._game.observation_tensor_shape())

    def observation_tensor_size(self):
        return self._game.observation_tensor_size()

    def __reduce__(self):
        # pyspiel would pickle a sampled-stochastic game's stream through a C++ hook that
        # a Python game cannot fill, and would rebuild this object without its attributes.
        stream = self._seeds.getstate() if self._seeds is not None else None
        return _load_game, (self.get_type().short_name, self.get_parameters(), stream)

    def _new_start(self):
        seed = self._seeds.getrandbits(64) if self._seeds is not None else 0
        return self._game.new_initial_state(seed=seed)


class State(pyspiel.State):
    """A knightgym state for OpenSpiel. Its only Python attribute is the knightgym state,
    which OpenSpiel's clone deep-copies and serialize pickles (both native)."""

    def __init__(self, game):
        super().__init__(game)
        self._knightgym = _Unstarted(game._new_start)

    def knightgym_state(self):
        """A copy of the wrapped knightgym.State (for knightgym's agents, svg, ...)."""
        return self._state().clone()

    def current_player(self):
        return self._state().current_player()

    def _legal_actions(self, player):
        return sorted(self._state().legal_actions())  # OpenSpiel's order; knightgym's may differ

    def _apply_action(self, action):
        self._state().apply_action(action)  # ValueError naming an illegal action

    def _action_to_string(self, player, action):
        return self._state().action_to_string(player, action)

    def is_terminal(self):
        return self._state().is_terminal()

    def returns(self):
        return self._state().returns()

    def rewards(self):
        return self._state().rewards()

    def __str__(self):
        return str(self._state())

    # pyspiel's own observation_tensor and observation_string observe through an observer
    # made from a new initial state at every call, which would draw a Knight Fight layout
    # from the game's stream each time (rl_environment calls them every step): the
    # knightgym state is read directly.
    def observation_tensor(self, player=None):
        who = self.current_player() if player is None else player
        return np.asarray(self._state().observation_tensor(who), np.float32).ravel().tolist()

    def observation_string(self, player=None):
        who = self.current_player() if player is None else player
        return self._state().observation_string(who)

    def __reduce__(self):
        # pyspiel pickles a state with its game's C++ RNG hook; this goes through the
        # game's own pickling and OpenSpiel's serialize().
        return _deserialize_state, (self.get_game(), self.serialize())

    def _state(self):
        if isinstance(self._knightgym, _Unstarted):
            self._knightgym = self._knightgym.start()
        return self._knightgym


class _Unstarted:
    """A state's start, made when first used. OpenSpiel makes each clone and each
    deserialized state from game.new_initial_state() and then replaces its Python
    attributes, so making the start at once would draw a Knight Fight layout that is
    thrown away, moving the stream of layouts on at every clone. A copy or pickle of an
    unused start makes it first, so the original and its copy share it."""

    def __init__(self, new_start):
        self._new_start = new_start
        self._start = None

    def start(self):
        if self._start is None:
            self._start = self._new_start()
        return self._start

    def __deepcopy__(self, memo):
        return self.start().clone()

    def __reduce__(self):
        return _unpickled_start, (self.start(),)


class _BoardObserver:
    """OpenSpiel's PyObserver: knightgym's observation tensor [C, H, W] and text board."""

    def __init__(self, shape):
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        self.dict["observation"][...] = state._state().observation_tensor(player)

    def string_from(self, state, player):
        return state._state().observation_string(player)


def _unpickled_start(start):
    return start


def _load_game(short_name, params, stream):
    game = pyspiel.load_game(short_name, params)
    if stream is not None:
        game._seeds.setstate(stream)
    return game


def _deserialize_state(game, text):
    return game.deserialize_state(text)


def typed_parameters(name, texts):
    """knightgym parameters of game `name` (name -> text) typed as OpenSpiel types them
    (load_game refuses a value of another type)."""
    types = {p["name"]: p["type"] for p in knightgym.describe_game(name)["parameters"]}
    return {key: _FROM_TEXT.get(types[key], str)(text) for key, text in texts.items()}


_FROM_TEXT = {"int": int, "float": float, "bool": lambda text: text == "true"}


def _text(value):
    """A parameter's value as knightgym's spec writes it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _game_info(game):
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=0,
        num_players=game.num_players(),
        min_utility=game.min_utility(),
        max_utility=game.max_utility(),
        utility_sum=game.utility_sum(),
        max_game_length=game.max_game_length(),
    )
