"""knightgym's games registered with the real OpenSpiel (knightgym/openspiel.py): their
types, the same play as knightgym's own states, clones, serialization, errors, and
OpenSpiel's algorithms (Python MCTSBot, evaluate_bots, alpha-beta) and C++ bots on them."""

import copy
import pickle
import random
import subprocess
import sys
import zlib

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import knightgym  # noqa: E402
import knightgym.openspiel  # noqa: E402
from bad_seeds import BAD_SEEDS  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts, minimax  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402


def short(spec, turns):
    """``spec`` cut to ``turns`` turns where the game has a turn limit."""
    return (
        f"{spec}(max_turns={turns})"
        if "max_turns" in knightgym.load_game(spec).parameters
        else spec
    )


# Short games, so that whole games with searching bots stay fast: every registered game at
# its default rules, and further rules whose conventions differ (Knight Fight with its
# layout given, Knights Challenge with 3 and 2 players).
SHORT = {name: short(name, 12) for name in knightgym.games()} | {
    "knight_fight_identity": "knight_fight(layout=identity,max_turns=12)",
    "knights_challenge_ffa3": "knights_challenge(mode=ffa3,max_turns=12)",
    "knights_challenge_duel": "knights_challenge(mode=duel,max_turns=12)",
}
# Two players, no seeded start: what minimax.alpha_beta_search accepts.
TWO_PLAYER_DETERMINISTIC = [
    name
    for name, spec in SHORT.items()
    if knightgym.load_game(spec).num_players() == 2
    and knightgym.load_game(spec).get_type().chance_mode == "DETERMINISTIC"
]


def knight_fight_seeds(rng_seed, count):
    """The documented convention: the n-th start of knightgym_knight_fight(rng_seed=s) is
    knightgym's new_initial_state(seed=) with the n-th draw of random.Random(s)."""
    stream = random.Random(rng_seed)
    return [stream.getrandbits(64) for _ in range(count)]


def play_random(state, rng):
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", knightgym.games())
def test_every_game_is_registered_as_the_game_reports_itself(name):
    game = pyspiel.load_game(f"knightgym_{name}")
    own = knightgym.load_game(name)
    reported = own.get_type()
    game_type = game.get_type()
    assert game_type.short_name == knightgym.openspiel.openspiel_name(name)
    assert game_type in pyspiel.registered_games()
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game_type.chance_mode.name == reported.chance_mode
    assert game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game_type.utility.name == reported.utility
    assert game_type.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (game_type.min_num_players, game_type.max_num_players) == (
        reported.min_num_players,
        reported.max_num_players,
    )
    seeded = {"rng_seed"} if reported.chance_mode == "SAMPLED_STOCHASTIC" else set()
    assert set(game_type.parameter_specification) == set(reported.parameter_specification) | seeded
    assert (
        game.num_distinct_actions(),
        game.num_players(),
        game.max_game_length(),
        game.min_utility(),
        game.max_utility(),
        game.utility_sum(),
        game.max_chance_outcomes(),
    ) == (
        own.num_distinct_actions(),
        own.num_players(),
        own.max_game_length(),
        own.min_utility(),
        own.max_utility(),
        own.utility_sum(),
        0,
    )
    assert game.observation_tensor_shape() == own.observation_tensor_shape()


def test_only_knight_fight_draws_its_start():
    modes = {
        name: pyspiel.load_game(f"knightgym_{name}").get_type().chance_mode
        for name in knightgym.games()
    }
    stochastic = pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert [name for name, mode in modes.items() if mode == stochastic] == ["knight_fight"]


def test_parameters_pass_through_to_the_knightgym_spec():
    game = pyspiel.load_game("knightgym_knights_challenge(mode=ffa3,max_turns=40)")
    assert game.num_players() == 3
    assert game.max_game_length() == 40
    assert game.knightgym_game() == knightgym.load_game("knights_challenge(mode=ffa3,max_turns=40)")
    game = knightgym.openspiel.load_game("knights_challenge(mode=duel,safe_squares=[f5,g8])")
    assert game.knightgym_game() == knightgym.load_game(
        "knights_challenge(mode=duel,safe_squares=[f5,g8])"
    )
    with pytest.raises(ValueError, match="max_turns"):
        pyspiel.load_game("knightgym_tailten(max_turns=-3)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'bogus'"):
        pyspiel.load_game("knightgym_tailten(bogus=1)")


def test_register_again_changes_nothing():
    names = knightgym.openspiel.register()
    assert names == [f"knightgym_{name}" for name in knightgym.games()]
    assert pyspiel.load_game("knightgym_tailten").num_players() == 2


def test_random_games_play_as_knightgym_on_every_conformance_spec(conformance_specs):
    rng = random.Random(7)
    for spec in conformance_specs:
        game = knightgym.openspiel.load_game(
            spec, **({"rng_seed": 5} if spec.startswith("knight_fight") else {})
        )
        seed = knight_fight_seeds(5, 1)[0] if spec.startswith("knight_fight") else 0
        own = knightgym.load_game(spec).new_initial_state(seed=seed)
        state = game.new_initial_state()
        actions = []
        while not own.is_terminal():
            assert state.current_player() == own.current_player(), spec
            assert state.legal_actions() == sorted(own.legal_actions()), spec
            assert not state.is_terminal() and not state.is_chance_node()
            if len(actions) % 23 == 0:
                for player in range(game.num_players()):
                    assert np.array_equal(
                        state.observation_tensor(player), own.observation_tensor(player).ravel()
                    ), spec
            action = rng.choice(own.legal_actions())
            assert state.action_to_string(action) == own.action_to_string(action)
            assert state.string_to_action(own.action_to_string(action)) == action
            state.apply_action(action)
            own.apply_action(action)
            actions.append(action)
        assert state.is_terminal(), spec
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert state.returns() == own.returns() == state.rewards(), spec
        assert state.history() == actions and state.move_number() == len(actions)
        assert str(state) == str(own)


def test_knight_fight_draws_each_start_from_the_rng_seed_stream():
    game = pyspiel.load_game("knightgym_knight_fight(rng_seed=11)")
    own = knightgym.load_game("knight_fight")
    first, second, third = (own.new_initial_state(seed=s) for s in knight_fight_seeds(11, 3))
    state = game.new_initial_state()
    clone = state.clone()  # a clone of an unused start shares it and draws nothing
    game.observation_tensor_shape()
    restored = game.deserialize_state(game.new_initial_state().serialize())
    assert str(state) == str(clone) == str(first)
    assert str(restored) == str(second)
    assert str(game.new_initial_state()) == str(third)
    again = pyspiel.load_game("knightgym_knight_fight(rng_seed=11)")
    assert str(again.new_initial_state()) == str(first)
    # Observing a state draws nothing (rl_environment observes every step).
    observed = pyspiel.load_game("knightgym_knight_fight(rng_seed=11)")
    start = observed.new_initial_state()
    for player in (0, 1, 0, 1, 0):
        assert start.observation_tensor(player) == list(first.observation_tensor(player).ravel())
        assert start.observation_string(player) == first.observation_string(player)
    assert str(observed.new_initial_state()) == str(second)
    other = pyspiel.load_game("knightgym_knight_fight(rng_seed=12)")
    assert str(other.new_initial_state()) != str(first)


@pytest.mark.parametrize("seed", [*BAD_SEEDS, 2**31], ids=repr)
def test_a_bad_rng_seed_is_refused_by_name(seed):
    """knightgym's seed rule within what OpenSpiel's int parameter holds, [0, 2**31 - 1],
    checked before pyspiel, whose own errors do not name the parameter."""
    with pytest.raises((TypeError, ValueError), match=r"^rng_seed must be"):
        knightgym.openspiel.load_game("knight_fight", rng_seed=seed)


def test_a_negative_rng_seed_is_refused_however_the_game_is_loaded():
    for load in (
        lambda: pyspiel.load_game("knightgym_knight_fight(rng_seed=-1)"),
        lambda: pyspiel.load_game("knightgym_knight_fight", {"rng_seed": -1}),
    ):
        with pytest.raises(ValueError, match=r"^rng_seed must be at least 0, got -1$"):
            load()


def test_every_rng_seed_that_openspiel_holds_is_taken():
    for seed in (0, 2**31 - 1, np.int64(7)):
        game = knightgym.openspiel.load_game("knight_fight", rng_seed=seed)
        assert game.get_parameters()["rng_seed"] == int(seed)
        game.new_initial_state().current_player()


@pytest.mark.parametrize("name", list(SHORT))
def test_a_clone_and_a_child_are_independent(name):
    game = knightgym.openspiel.load_game(SHORT[name])
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    text, history, legal = str(state), state.history(), state.legal_actions()
    clone = state.clone()
    child = state.child(legal[-1])
    play_random(clone, random.Random(1))
    assert (str(state), state.history(), state.legal_actions()) == (text, history, legal)
    assert clone.is_terminal() and not state.is_terminal()
    assert child.history() == history + [legal[-1]]
    copied = state.knightgym_state()
    copied.apply_action(legal[0])
    assert str(state) == text


@pytest.mark.parametrize("name", list(SHORT))
def test_an_illegal_action_is_refused_by_name_and_changes_nothing(name):
    game = knightgym.openspiel.load_game(SHORT[name])
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    text, player = str(state), state.current_player()
    with pytest.raises(ValueError, match=f"action {illegal} .*is not legal"):
        state.apply_action(illegal)
    with pytest.raises(ValueError, match="out of range"):
        state.apply_action(game.num_distinct_actions())
    assert (str(state), state.current_player(), len(state.history())) == (text, player, 1)
    play_random(state, random.Random(2))
    with pytest.raises(ValueError):
        state.apply_action(0)


def test_what_openspiel_leaves_out_fails_clearly():
    game = pyspiel.load_game("knightgym_tailten")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(pyspiel.SpielError, match="UndoAction"):
        state.undo_action(0, state.history()[0])
    with pytest.raises(ValueError, match="deserialize_state"):
        game.new_initial_state("anything")


@pytest.mark.parametrize("name", list(SHORT))
def test_serialize_and_pickle_round_trip(name):
    game = knightgym.openspiel.load_game(SHORT[name])
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    for restored in (
        game.deserialize_state(state.serialize()),
        pickle.loads(pickle.dumps(state)),
        copy.deepcopy(state),
    ):
        assert (str(restored), restored.history(), restored.legal_actions()) == (
            str(state),
            state.history(),
            state.legal_actions(),
        )
        assert (
            play_random(restored, random.Random(4)).returns()
            == play_random(state.clone(), random.Random(4)).returns()
        )
    unpickled = pickle.loads(pickle.dumps(game))
    assert unpickled == game
    assert str(unpickled.new_initial_state()) == str(game.new_initial_state())


@pytest.mark.parametrize("name", ["knight_fight", "knights_challenge"])
def test_observations_are_knightgyms_and_the_information_state_is_the_history(name):
    game = knightgym.openspiel.load_game(SHORT[name])
    state = game.new_initial_state()
    for action in state.legal_actions()[:1] + [None]:
        if action is not None:
            state.apply_action(action)
        own = state.knightgym_state()
        observation = make_observation(game)
        for player in range(game.num_players()):
            observation.set_from(state, player)
            assert np.array_equal(observation.tensor, own.observation_tensor(player).ravel())
            assert observation.dict["observation"].shape == own.observation_tensor(player).shape
            assert state.observation_string(player) == own.observation_string(player)
            assert state.information_state_string(player) == state.history_str()


def python_mcts(game, seed, simulations=20):
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, 2, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)


def replayed_returns(start, history):
    """The returns of knightgym's own state `start` after `history`."""
    for action in history:
        start.apply_action(action)
    return start.returns()


@pytest.mark.parametrize("name", list(SHORT))
def test_python_mcts_plays_whole_games_against_a_random_bot(name):
    game = knightgym.openspiel.load_game(SHORT[name])
    bots = [python_mcts(game, 0)] + [
        pyspiel.make_uniform_random_bot(p, p) for p in range(1, game.num_players())
    ]
    state = game.new_initial_state()
    start = state.knightgym_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal()
    assert returns == state.returns() == replayed_returns(start, state.history())
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


def a_win_in_one(spec):
    """A state reached by random play whose mover wins at once with some legal actions
    (knightgym's own clones tell), but not with all."""
    game = knightgym.openspiel.load_game(spec)
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            mover, legal = state.current_player(), state.legal_actions()
            wins = []
            for action in legal:
                own = state.knightgym_state()
                own.apply_action(action)
                if own.is_terminal() and own.returns()[mover] == game.max_utility():
                    wins.append(action)
            if wins and len(wins) < len(legal):
                return game, state, wins
            state.apply_action(rng.choice(legal))
    raise AssertionError(f"no win in one found for {spec}")


@pytest.mark.parametrize(
    "spec",
    ["knight_fight(layout=identity)", "knightmate", "double_duel", "knights_challenge(mode=duel)"],
)
def test_mcts_bots_take_a_win_in_one(spec):
    game, state, wins = a_win_in_one(spec)
    # MCTS-Solver tries every root child once and stops at a proven win.
    simulations = len(state.legal_actions()) + 1
    assert python_mcts(game, 0, simulations).step(state) in wins
    search = pyspiel.MCTSBot(
        game, pyspiel.RandomRolloutEvaluator(1, 0), 2, simulations, 100, True, 0, False
    )
    assert pyspiel.Bot.step(search, state) in wins


def crc_value(state):
    """A deterministic, position-dependent leaf value in [-1, 1]."""
    return zlib.crc32(str(state).encode()) % 201 / 100 - 1


def plain_minimax(own, depth, maximizer):
    """Full-width minimax over knightgym's own states: an independent reference."""
    if own.is_terminal():
        return own.returns()[maximizer], None
    if depth == 0:
        return crc_value(own), None
    results = []
    for action in own.legal_actions():
        child = own.clone()
        child.apply_action(action)
        results.append((plain_minimax(child, depth - 1, maximizer)[0], action))
    pick = max if own.current_player() == maximizer else min
    best = pick(value for value, _ in results)
    return best, next(action for value, action in results if value == best)


@pytest.mark.parametrize("name", TWO_PLAYER_DETERMINISTIC)
def test_alpha_beta_search_agrees_with_plain_minimax(name):
    game = knightgym.openspiel.load_game(SHORT[name])
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[-1])
    value, action = minimax.alpha_beta_search(
        game, state=state, value_function=crc_value, maximum_depth=2
    )
    expected_value, expected_action = plain_minimax(
        state.knightgym_state(), 2, state.current_player()
    )
    assert value == pytest.approx(expected_value)
    assert action == expected_action


def test_alpha_beta_search_refuses_knight_fights_drawn_start():
    # OpenSpiel 2.0.2 refuses it, but formats its ValueError from game.chance_mode, which
    # no pyspiel.Game has, so an AttributeError comes out instead.
    with pytest.raises((ValueError, AttributeError), match="Deterministic|chance_mode"):
        minimax.alpha_beta_search(pyspiel.load_game("knightgym_knight_fight"), maximum_depth=1)


@pytest.mark.parametrize("name", list(SHORT))
def test_cpp_bots_play_through_the_python_game_bridge(name):
    game = knightgym.openspiel.load_game(SHORT[name])
    search = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2, 20, 100, True, 0, False)
    state = game.new_initial_state()
    start = state.knightgym_state()
    # pyspiel.MCTSBot.step releases the GIL and crashes on any Python game;
    # Bot.step and the C++ evaluate_bots call the same search holding it.
    assert pyspiel.Bot.step(search, state) in state.legal_actions()
    bots = [search] + [pyspiel.make_uniform_random_bot(p, p) for p in range(1, game.num_players())]
    returns = pyspiel.evaluate_bots(state, bots, 0)
    assert state.is_terminal()
    assert returns == state.returns() == replayed_returns(start, state.history())


def test_without_pyspiel_the_import_works_and_using_it_says_why():
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "import knightgym.openspiel as o\n"
        "for call in (o.register, lambda: o.load_game('tailten')):\n"
        "    try:\n        call()\n    except ImportError as e:\n        print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.count('knightgym.openspiel needs pyspiel: pip install "knightgym[openspiel]"') == 2


def test_a_knightgym_game_handed_to_openspiels_algorithms_points_to_the_bridge():
    from open_spiel.python.algorithms import mcts

    game = knightgym.load_game("tailten")
    with pytest.raises(TypeError, match=r"knightgym\.openspiel\.load_game"):
        mcts.MCTSBot(game, 2, 10, mcts.RandomRolloutEvaluator())
    assert game.get_type().reward_model == "TERMINAL"  # as text it is what it was
