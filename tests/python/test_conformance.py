"""The conformance suite: random games under every conformance spec (conftest.py),
checking the single-state contract at every step, and the vector env against single
states (the Python twin of tests/cpp/env/registry/conformance_test.cc)."""

import os
import random
import zlib

import knightgym
import numpy as np
import pytest
from conftest import GAME_TESTS, read_specs

# The C++ suite checks this contract on KNIGHTGYM_CONFORMANCE_GAMES games a spec; this
# twin checks that the bindings show it too, on a fifth as many.
MIN_GAMES_PER_SPEC = 10
GAMES_PER_SPEC = max(
    MIN_GAMES_PER_SPEC, int(os.environ.get("KNIGHTGYM_CONFORMANCE_GAMES", "1000")) // 5
)
# The budget policy of the conformance specs, shared with the C++ suite
# (tests/cpp/env/registry/conformance_specs.h).
DECISIONS_PER_SPEC = 100 * GAMES_PER_SPEC
VECTOR_ENVS = 8
# Steps of the vector env test: at least this many, and on until an episode has ended
# (Knights Challenge's last hundreds of turns); every episode ends within max_game_length.
VECTOR_STEPS = 300


def spec_seed(spec):
    return zlib.crc32(spec.encode())


def play_random_game(game, seed):
    """[(state, action), ..., (final state, None)]: a snapshot before every decision.
    Stops one decision past max_game_length so that an endless game shows up."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    history = []
    while not state.is_terminal() and len(history) <= game.max_game_length():
        action = rng.choice(state.legal_actions())
        history.append((state.clone(), action))
        state.apply_action(action)
    history.append((state, None))
    return history


@pytest.fixture(scope="module")
def game(conformance_spec):
    return knightgym.load_game(conformance_spec)


@pytest.fixture(scope="module")
def random_games(game, conformance_spec):
    base = spec_seed(conformance_spec) << 20
    games, decisions = [], 0
    while len(games) < GAMES_PER_SPEC and (
        decisions < DECISIONS_PER_SPEC or len(games) < MIN_GAMES_PER_SPEC
    ):
        games.append(play_random_game(game, base + len(games)))
        decisions += len(games[-1]) - 1
    return games


def all_states(random_games):
    for history in random_games:
        for state, _ in history:
            yield state


def assert_same_state(actual, expected, game):
    assert actual.serialize() == expected.serialize()
    assert actual.current_player() == expected.current_player()
    assert actual.is_terminal() == expected.is_terminal()
    assert actual.is_truncated() == expected.is_truncated()
    assert actual.returns() == expected.returns()
    assert np.array_equal(actual.legal_actions_mask(), expected.legal_actions_mask())
    for player in range(game.num_players()):
        assert np.array_equal(
            actual.observation_tensor(player), expected.observation_tensor(player)
        )


def test_every_registered_game_has_a_conformance_spec(conformance_specs):
    listed = {knightgym.load_game(spec).name for spec in conformance_specs}
    for name in knightgym.games():
        assert name in listed


def test_legal_mask_matches_legal_actions(random_games, game):
    for state in all_states(random_games):
        legal = state.legal_actions()
        mask = state.legal_actions_mask()
        assert mask.dtype == np.bool_
        assert mask.shape == (game.num_actions,)
        assert len(set(legal)) == len(legal), state.serialize()
        assert set(np.flatnonzero(mask).tolist()) == set(legal), state.serialize()


def test_player_to_move_until_the_end_and_none_after(random_games, game):
    for state in all_states(random_games):
        if state.is_terminal():
            assert state.current_player() == -4, state.serialize()
            assert state.legal_actions() == [], state.serialize()
        else:
            assert 0 <= state.current_player() < game.num_players(), state.serialize()
            assert state.legal_actions(), state.serialize()
            assert not state.is_truncated(), state.serialize()


def test_games_end_within_max_game_length(random_games, game):
    for history in random_games:
        final, _ = history[-1]
        assert final.is_terminal(), final.serialize()
        assert len(history) - 1 <= game.max_game_length()


def test_clone_then_apply_matches_apply(random_games, game):
    for history in random_games:
        for (state, action), (after, _) in zip(history, history[1:]):
            before = state.serialize()
            clone = state.clone()
            clone.apply_action(action)
            assert_same_state(clone, after, game)
            assert state.serialize() == before, "applying to a clone changed the original"


def test_serialize_round_trips(random_games, game):
    for state in all_states(random_games):
        assert_same_state(game.deserialize_state(state.serialize()), state, game)


def test_action_strings_round_trip_for_legal_actions(random_games):
    for state in all_states(random_games):
        legal = state.legal_actions()
        names = [state.action_to_string(action) for action in legal]
        assert len(set(names)) == len(names), names
        assert [state.string_to_action(name) for name in names] == legal


def test_observations_have_the_game_shape_and_finite_values(random_games, game):
    for state in all_states(random_games):
        for player in range(game.num_players()):
            observation = state.observation_tensor(player)
            assert observation.dtype == np.float32
            assert observation.shape == game.observation_shape
            assert np.isfinite(observation).all(), state.serialize()


def test_default_observer_is_the_player_to_move_or_player_0_at_the_end(random_games):
    for state in all_states(random_games):
        observer = max(state.current_player(), 0)
        assert np.array_equal(state.observation_tensor(), state.observation_tensor(observer))


def test_returns_are_zero_during_play_and_zero_sum(random_games, game):
    for state in all_states(random_games):
        returns = state.returns()
        assert len(returns) == game.num_players()
        assert sum(returns) == pytest.approx(0.0, abs=1e-6), state.serialize()
        if not state.is_terminal():
            assert returns == [0.0] * game.num_players(), state.serialize()


# Knight Fight's scoring, over its specs alone (not every spec, as the tests above).
@pytest.mark.parametrize("spec", read_specs(GAME_TESTS / "knight_fight" / "conformance_specs.txt"))
def test_knight_fight_games_end_in_a_win_a_loss_or_a_draw(spec):
    game = knightgym.load_game(spec)
    for k in range(GAMES_PER_SPEC):
        final, _ = play_random_game(game, (spec_seed(spec) << 20) + k)[-1]
        assert sorted(final.returns()) in ([-1.0, 1.0], [0.0, 0.0]), final.serialize()


def expect_env_row(outputs, i, state, observer, rewards):
    """Row i of a step's (or reset's) outputs shows `state` seen by `observer`."""
    obs, step_rewards, terminated, truncated, info = outputs
    assert np.array_equal(obs["observation"][i], state.observation_tensor(observer)), i
    # A finished episode's mask is all True (finished_mask="all"), the rules' all False.
    mask = (
        np.ones_like(obs["action_mask"][i]) if state.is_terminal() else state.legal_actions_mask()
    )
    assert np.array_equal(obs["action_mask"][i], mask), i
    assert info["current_player"][i] == state.current_player(), i
    if step_rewards is not None:
        assert step_rewards[i].tolist() == rewards, i
        assert terminated[i] == (state.is_terminal() and not state.is_truncated()), i
        assert truncated[i] == state.is_truncated(), i


def test_vector_env_matches_single_states(conformance_spec, game):
    env = knightgym.make(
        conformance_spec, num_envs=VECTOR_ENVS, num_threads=2, seed=spec_seed(conformance_spec)
    )
    no_rewards = [0.0] * env.num_players
    obs, info = env.reset()
    singles = [game.deserialize_state(env.state(i).serialize()) for i in range(env.num_envs)]
    for i, state in enumerate(singles):
        expect_env_row((obs, None, None, None, info), i, state, state.current_player(), None)

    ended = np.zeros(env.num_envs, dtype=bool)
    episodes_ended = 0
    for step in range(VECTOR_STEPS + game.max_game_length()):
        if step >= VECTOR_STEPS and episodes_ended:
            break
        actions = env.sample_actions()
        outputs = env.step(actions)
        for i in range(env.num_envs):
            if ended[i]:  # auto-reset: a new episode, its first observation
                singles[i] = game.deserialize_state(env.state(i).serialize())
                state = singles[i]
                assert not state.is_terminal()
                expect_env_row(outputs, i, state, state.current_player(), no_rewards)
                continue
            state = singles[i]
            mover = state.current_player()
            state.apply_action(int(actions[i]))
            if state.is_terminal():  # observed by the player who ended it
                expect_env_row(outputs, i, state, mover, state.returns())
            else:
                expect_env_row(outputs, i, state, state.current_player(), no_rewards)
        _, _, terminated, truncated, _ = outputs
        ended = terminated | truncated
        episodes_ended += int(ended.sum())
    assert episodes_ended > 0, "no episode ended: the auto-reset went unchecked"
