"""The OpenSpiel-shaped API: pyspiel's names and conventions on games and states
(methods, the terminal player id, registered_names, game types), and pickled games."""

import copy
import pickle

import knightgym
import pytest

TERMINAL = -4  # pyspiel.PlayerId.TERMINAL; its -1 is the chance player


def test_registered_names_are_the_games_names():
    names = knightgym.registered_names()
    assert names == knightgym.games()
    for name in names:
        assert knightgym.load_game(name).get_type().short_name == name


def test_describe_game_refuses_an_unknown_name_listing_the_games():
    with pytest.raises(ValueError, match="unknown game 'chess'.*knight_fight"):
        knightgym.describe_game("chess")


def test_a_game_answers_pyspiels_methods():
    game = knightgym.load_game("knight_fight(max_turns=12)")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == game.num_actions == 101
    assert game.max_game_length() == 24
    assert game.observation_tensor_shape() == [14, 10, 10]
    assert game.observation_tensor_size() == 1400
    assert game.get_parameters() == game.parameters
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)


@pytest.mark.parametrize(
    "spec, chance_mode, players",
    [
        ("knight_fight", "SAMPLED_STOCHASTIC", (2, 2)),
        ("knight_fight(layout=identity)", "DETERMINISTIC", (2, 2)),
        ("knightmate", "DETERMINISTIC", (2, 2)),
        ("knights_challenge", "DETERMINISTIC", (2, 4)),
        ("tailten", "DETERMINISTIC", (2, 2)),
    ],
)
def test_get_type_describes_the_game_as_pyspiel_does(spec, chance_mode, players):
    game = knightgym.load_game(spec)
    game_type = game.get_type()
    assert game_type.short_name == game.name
    assert game_type.long_name == knightgym.describe_game(game.name)["summary"]
    assert game_type.chance_mode == chance_mode
    assert (game_type.min_num_players, game_type.max_num_players) == players
    assert (
        game_type.dynamics,
        game_type.information,
        game_type.utility,
        game_type.reward_model,
    ) == ("SEQUENTIAL", "PERFECT_INFORMATION", "ZERO_SUM", "TERMINAL")
    assert game_type.provides_observation_tensor
    defaults = {p["name"]: p["default"] for p in knightgym.describe_game(game.name)["parameters"]}
    assert game_type.parameter_specification == defaults


def test_a_game_pickles_and_copies_by_its_spec():
    game = knightgym.load_game("double_duel(switch_move=true)")
    for other in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert other == game
        assert other.spec == game.spec
        assert hash(other) == hash(game)
    assert game != knightgym.load_game("double_duel")


def test_a_finished_state_has_pyspiels_terminal_player():
    game = knightgym.load_game("knight_fight(max_turns=2)")
    state = game.new_initial_state(seed=0)
    assert state.is_player_node() and not state.is_chance_node()
    assert not state.is_simultaneous_node()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == TERMINAL
    assert not state.is_player_node()
    assert state.rewards() == state.returns()
    assert [state.player_return(p) for p in range(2)] == state.returns()
    with pytest.raises(ValueError, match="player 2 is out of range"):
        state.player_return(2)


def test_only_the_mover_has_legal_actions_and_action_names():
    state = knightgym.load_game("knight_fight(layout=identity)").new_initial_state()
    assert state.legal_actions(0) == state.legal_actions()
    assert state.legal_actions(1) == []
    action = state.legal_actions()[0]
    assert state.action_to_string(0, action) == state.action_to_string(action)
    with pytest.raises(ValueError, match="player 1 is not to move"):
        state.action_to_string(1, action)
    assert state.get_game() == state.game()
    assert state.observation_string(1) == str(state)
