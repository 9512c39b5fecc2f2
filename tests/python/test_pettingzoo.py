"""knightgym.pettingzoo: PettingZoo's api_test and seed_test on every conformance spec,
and the turn order of the games: several decisions in a row, skipped colours, teams,
the length cap, illegal actions."""

import numpy as np
import pytest
from bad_seeds import BAD_SEEDS, assert_refused_as_make_refuses

pytest.importorskip("pettingzoo")
import knightgym  # noqa: E402
from knightgym.pettingzoo import env, raw_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402


# Every other warning of api_test fails the test. These two are about the form PettingZoo's
# own board games use (chess, go, connect four: a dict with "observation" and
# "action_mask"), which api_test excuses only for those games, by name.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("error")
def test_pettingzoos_api_test_passes(conformance_spec):
    api_test(env(conformance_spec), num_cycles=200)


# With the masks in the infos the observation is an array in a Box: api_test has nothing
# to warn of.
@pytest.mark.filterwarnings("error")
def test_pettingzoos_api_test_passes_without_a_warning_with_masks_in_the_infos(conformance_spec):
    api_test(env(conformance_spec, masks="info"), num_cycles=200)


def test_masks_in_the_infos_are_those_of_the_observations():
    in_observations = env("knights_challenge(mode=ffa3)")
    in_infos = env("knights_challenge(mode=ffa3)", masks="info")
    for aec in (in_observations, in_infos):
        aec.reset(seed=2)
    rng = np.random.default_rng(0)
    for agent in in_infos.agent_iter(60):
        board, _, termination, truncation, info = in_infos.last()
        expected = in_observations.observe(agent)
        assert isinstance(board, np.ndarray) and in_infos.observation_space(agent).contains(board)
        np.testing.assert_array_equal(board, expected["observation"])
        np.testing.assert_array_equal(info["action_mask"], expected["action_mask"])
        assert info["action_mask"].dtype == np.int8
        for other in in_infos.agents:
            assert in_infos.infos[other]["action_mask"].any() == (other == agent)
        action = (
            None
            if termination or truncation
            else int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        in_infos.step(action)
        in_observations.step(action)


def test_the_state_is_the_whole_board_from_the_first_players_side():
    aec = env("tailten")
    aec.reset(seed=0)
    for _ in range(4):
        assert aec.unwrapped.state_space.contains(aec.state())
        np.testing.assert_array_equal(aec.state(), aec.unwrapped.game_state().observation_tensor(0))
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))


def test_pettingzoos_seed_test_passes(conformance_spec):
    seed_test(lambda: env(conformance_spec), num_cycles=100)


def play(aec, seed, check):
    """Plays one game with actions drawn from the masks, calling check(aec, agent)
    before each live step; returns each agent's final reward and info."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, info = aec.last()
        if termination or truncation:
            final[agent] = (reward, info)
            aec.step(None)
            continue
        check(aec, agent)
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return final


def test_the_selected_agent_is_always_the_player_to_move():
    selections = []

    def check(aec, agent):
        state = aec.unwrapped.game_state()
        assert agent == f"player_{state.current_player()}"
        mask = aec.observe(agent)["action_mask"]
        assert np.array_equal(mask.astype(bool), state.legal_actions_mask())
        for other in aec.agents:
            if other != agent:
                assert not aec.observe(other)["action_mask"].any()
        selections.append(agent)

    play(env("knight_fight(double_erase=forced)"), 1, check)
    repeats = sum(a == b for a, b in zip(selections, selections[1:]))
    assert repeats > 0  # a leap onto a double, then the erase, by the same player


def test_a_double_duel_turn_is_several_decisions_by_one_player():
    selections = []
    play(env("double_duel"), 2, lambda aec, agent: selections.append(agent))
    runs = [
        len(run)
        for run in "".join(a[-1] for a in selections)
        .replace("01", "0 1")
        .replace("10", "1 0")
        .split()
    ]
    assert max(runs) >= 3


def test_skipped_colours_are_never_selected():
    # In Knights Challenge a colour with no legal move is passed over; random games of
    # the free-for-all meet that in most games.
    skipped = 0
    for seed in range(4):
        order = []

        def check(aec, agent, order=order):
            order.append(int(agent[-1]))

        play(env("knights_challenge(mode=ffa4)"), seed, check)
        skipped += sum((b - a) % 4 not in (0, 1) for a, b in zip(order, order[1:]))
    assert skipped > 0


def test_teams_share_their_return():
    final = play(env("knights_challenge(mode=team4)"), 3, lambda aec, agent: None)
    rewards = {agent: reward for agent, (reward, _) in final.items()}
    assert rewards["player_0"] == rewards["player_2"]
    assert rewards["player_1"] == rewards["player_3"]
    assert rewards["player_0"] == -rewards["player_1"] != 0


def test_the_length_cap_ends_the_game_with_terminations():
    final = play(env("knight_fight(max_turns=4)"), 4, lambda aec, agent: None)
    assert set(final) == {"player_0", "player_1"}
    assert all(info == {"max_turns_reached": True} for _, info in final.values())
    assert sum(reward for reward, _ in final.values()) == 0


def test_an_illegal_action_loses_the_game_and_raw_env_refuses_it():
    wrapped = env("knight_fight(layout=identity)")
    wrapped.reset(seed=0)
    agent = wrapped.agent_selection
    illegal = int(np.flatnonzero(wrapped.observe(agent)["action_mask"] == 0)[0])
    wrapped.step(illegal)  # PettingZoo logs the illegal move
    assert wrapped.terminations[agent]
    assert wrapped.rewards[agent] == -1.0

    raw = raw_env("knight_fight(layout=identity)")
    raw.reset(seed=0)
    before = raw.game_state().serialize()
    with pytest.raises(ValueError, match="is not legal"):
        raw.step(illegal)
    assert raw.game_state().serialize() == before


def test_raw_env_takes_integer_actions_only():
    raw = raw_env("tailten")
    raw.reset(seed=0)
    legal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[0])
    before = raw.game_state().serialize()
    for action, error in [
        (legal + 0.9, TypeError),
        (0.9, TypeError),
        (True, TypeError),
        (str(legal), TypeError),
        (2**32 + legal, ValueError),
        (-1, ValueError),
    ]:
        with pytest.raises(error):
            raw.step(action)
        assert raw.game_state().serialize() == before
    raw.step(np.int64(legal))
    assert raw.game_state().serialize() != before


def test_reset_with_a_seed_replays_and_without_one_goes_on():
    aec = raw_env("knight_fight")
    aec.reset(seed=9)
    first = aec.observe("player_0")["observation"].copy()
    aec.reset()
    second = aec.observe("player_0")["observation"].copy()
    aec.reset(seed=9)
    assert np.array_equal(aec.observe("player_0")["observation"], first)
    assert not np.array_equal(second, first)


def test_the_env_describes_its_game():
    aec = raw_env("tailten", ringforts=12, render_mode="ansi")
    game = knightgym.load_game("tailten(ringforts=12)")
    assert aec.game.spec == game.spec
    assert aec.possible_agents == ["player_0", "player_1"]
    assert aec.metadata["name"] == "knightgym_tailten_v0"
    aec.reset(seed=0)
    assert aec.render() == str(aec.game_state())
    with pytest.raises(ValueError, match="render_mode must be"):
        raw_env("tailten", render_mode="pixels")
    with pytest.raises(ValueError, match="masks must be one of observation, info"):
        raw_env("tailten", masks="obs")


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
@pytest.mark.parametrize("maker", [raw_env, env], ids=["raw_env", "env"])
def test_reset_refuses_a_seed_as_knightgym_make_does(maker, seed):
    aec = maker("knight_fight")
    aec.reset(seed=1)
    before = aec.state()
    assert_refused_as_make_refuses(lambda s: aec.reset(seed=s), seed)
    np.testing.assert_array_equal(aec.state(), before)


def test_reset_takes_every_seed_of_64_bits():
    aec = raw_env("knight_fight")
    aec.reset(seed=np.uint64(2**64 - 1))
    first = aec.state()
    aec.reset(seed=2**64 - 1)
    np.testing.assert_array_equal(aec.state(), first)


def test_an_integer_too_wide_for_numpy_is_out_of_bounds_in_the_wrapped_env():
    aec = env("knight_fight")
    aec.reset(seed=0)
    with pytest.raises(
        AssertionError, match="action 1180591620717411303424 is not in action space"
    ):
        aec.step(2**70)
    with pytest.raises(ValueError, match=r"action 10000000000\S*\.\.\. \(101 characters\) is out"):
        aec.unwrapped.step(10**100)


def test_a_closed_env_refuses_every_use_by_name():
    aec = raw_env("knight_fight")
    aec.reset(seed=1)
    aec.close()
    for use in (lambda: aec.step(0), lambda: aec.observe(aec.agent_selection), aec.reset):
        with pytest.raises(RuntimeError, match=r"raw_env\.\w+: the environment is closed"):
            use()
