"""The vector env: what reset and step return, zero-copy read-only views, next-step
auto-reset, determinism and specs (see env/vector/vector_env.h)."""

import gc

import knightgym
import numpy as np
import pytest
from bad_seeds import BAD_SEEDS, assert_refused_as_make_refuses

NUM_ENVS = 6
MAX_STEPS = 2000  # far more steps than any episode lasts under the specs used here


@pytest.fixture
def env():
    return knightgym.make("knight_fight", num_envs=NUM_ENVS, num_threads=2, seed=7)


def step_outputs_arrays(outputs):
    obs, rewards, terminated, truncated, info = outputs
    return [
        obs["observation"],
        obs["action_mask"],
        rewards,
        terminated,
        truncated,
        info["current_player"],
    ]


def test_properties_describe_the_game(env):
    assert env.num_envs == NUM_ENVS
    assert env.num_threads == 2
    assert env.num_players == 2
    assert env.num_actions == 101
    assert env.observation_shape == (14, 10, 10)
    assert env.spec == (
        "knight_fight(double_erase=optional,mirror_on_moves=true,max_turns=200,layout=random)"
    )
    assert env.game.spec == env.spec


def test_reset_returns_observations_and_info_of_the_right_shapes(env):
    obs, info = env.reset()
    assert set(obs) == {"observation", "action_mask"}
    assert set(info) == {"current_player"}
    assert obs["observation"].shape == (NUM_ENVS, *env.observation_shape)
    assert obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (NUM_ENVS, env.num_actions)
    assert obs["action_mask"].dtype == np.bool_
    assert info["current_player"].shape == (NUM_ENVS,)
    assert info["current_player"].dtype == np.int32
    assert (info["current_player"] == 0).all()


def test_step_returns_arrays_of_the_right_shapes(env):
    env.reset()
    obs, rewards, terminated, truncated, info = env.step(env.sample_actions())
    assert set(obs) == {"observation", "action_mask"}
    assert obs["observation"].shape == (NUM_ENVS, *env.observation_shape)
    assert obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (NUM_ENVS, env.num_actions)
    assert obs["action_mask"].dtype == np.bool_
    assert rewards.shape == (NUM_ENVS, env.num_players)
    assert rewards.dtype == np.float32
    for flags in (terminated, truncated):
        assert flags.shape == (NUM_ENVS,)
        assert flags.dtype == np.bool_
    assert info["current_player"].shape == (NUM_ENVS,)
    assert info["current_player"].dtype == np.int32


def test_arrays_are_read_only(env):
    obs, info = env.reset()
    step_arrays = step_outputs_arrays(env.step(env.sample_actions()))
    for array in [obs["observation"], obs["action_mask"], info["current_player"], *step_arrays]:
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[0] = array[0]


def test_arrays_are_views_of_one_buffer_each_without_copies(env):
    obs, info = env.reset()
    first = step_outputs_arrays(env.step(env.sample_actions()))
    second = step_outputs_arrays(env.step(env.sample_actions()))
    assert np.shares_memory(obs["observation"], second[0])
    assert np.shares_memory(obs["action_mask"], second[1])
    assert np.shares_memory(info["current_player"], second[5])
    for before, after in zip(first, second):
        assert np.shares_memory(before, after)
        assert after.base is not None
        assert not after.flags.owndata


def test_the_next_step_overwrites_the_returned_arrays(env):
    obs, _ = env.reset()
    kept = obs["observation"]
    snapshot = kept.copy()
    new_obs = env.step(env.sample_actions())[0]
    assert not np.array_equal(kept, snapshot)
    assert np.array_equal(kept, new_obs["observation"])


def test_returned_arrays_keep_the_environment_alive():
    env = knightgym.make("knight_fight", num_envs=NUM_ENVS, seed=7)
    observation = env.step(env.sample_actions())[0]["observation"]
    expected = observation.copy()
    del env
    gc.collect()
    assert np.array_equal(observation, expected)


@pytest.mark.parametrize(
    "convert",
    [
        list,
        lambda actions: actions.astype(np.int64),
        lambda actions: actions.astype(np.uint8),
        lambda actions: np.repeat(actions, 2)[::2],  # int32, not contiguous
    ],
    ids=["list", "int64", "uint8", "strided-int32"],
)
def test_step_takes_any_integer_array_like_as_int32(convert):
    reference = knightgym.make("knight_fight", num_envs=NUM_ENVS, seed=7)
    other = knightgym.make("knight_fight", num_envs=NUM_ENVS, seed=7)
    for _ in range(5):
        actions = reference.sample_actions()
        assert np.array_equal(other.sample_actions(), actions)
        reference.step(actions)
        other.step(convert(actions))
        assert [other.state(i).serialize() for i in range(NUM_ENVS)] == [
            reference.state(i).serialize() for i in range(NUM_ENVS)
        ]


def test_sampled_actions_are_legal_and_zero_where_an_env_resets():
    env = knightgym.make("knight_fight(max_turns=12)", num_envs=NUM_ENVS, seed=1)
    obs, _ = env.reset()
    ended = np.zeros(NUM_ENVS, dtype=bool)
    for _ in range(60):
        actions = env.sample_actions()
        assert actions.dtype == np.int32
        assert actions.shape == (NUM_ENVS,)
        assert (actions[ended] == 0).all()
        assert all(obs["action_mask"][i][a] for i, a in enumerate(actions) if not ended[i])
        obs, _, terminated, truncated, _ = env.step(actions)
        ended = terminated | truncated


def test_rewards_are_zero_while_episodes_go_on(env):
    env.reset()
    for _ in range(100):
        _, rewards, terminated, truncated, _ = env.step(env.sample_actions())
        going_on = ~(terminated | truncated)
        assert (rewards[going_on] == 0).all()


def test_state_is_a_copy(env):
    env.reset()
    state = env.state(0)
    before = state.serialize()
    state.apply_action(state.legal_actions()[0])
    assert env.state(0).serialize() == before


def step_until_an_episode_ends(env, ended_by):
    """Steps with sampled actions until an episode ends by `ended_by` ("terminated" or
    "truncated"); returns (its env, the player who made its last move, the outputs)."""
    _, info = env.reset()
    for _ in range(MAX_STEPS):
        movers = info["current_player"].copy()
        outputs = env.step(env.sample_actions())
        _, _, terminated, truncated, info = outputs
        ended = terminated if ended_by == "terminated" else truncated
        if ended.any():
            i = int(np.flatnonzero(ended)[0])
            return i, int(movers[i]), outputs
    pytest.fail(f"no episode was {ended_by} in {MAX_STEPS} steps")


@pytest.mark.parametrize(
    "spec, ended_by",
    [
        ("knight_fight(layout=identity)", "terminated"),
        ("knight_fight(max_turns=12)", "truncated"),
    ],
)
def test_the_step_that_ends_an_episode_returns_its_outcome(spec, ended_by):
    env = knightgym.make(spec, num_envs=NUM_ENVS, num_threads=2, seed=3)
    i, mover, outputs = step_until_an_episode_ends(env, ended_by)
    obs, rewards, terminated, truncated, info = outputs
    state = env.state(i)
    assert state.is_terminal()
    assert state.is_truncated() == (ended_by == "truncated")
    assert terminated[i] == (ended_by == "terminated")
    assert truncated[i] == (ended_by == "truncated")
    assert rewards[i].tolist() == state.returns()
    assert info["current_player"][i] == -4
    assert obs["action_mask"][i].all()  # finished_mask="all": safe for a masked softmax
    assert np.array_equal(obs["observation"][i], state.observation_tensor(mover))


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("ignored_action", [0, 100, -1, 101, 2**31 - 1])
def test_the_step_after_an_end_ignores_the_action_and_starts_a_new_episode(dtype, ignored_action):
    # With layout=identity every episode starts alike: as game.new_initial_state().
    env = knightgym.make("knight_fight(layout=identity)", num_envs=NUM_ENVS, num_threads=2, seed=3)
    i, _, _ = step_until_an_episode_ends(env, "terminated")
    actions = env.sample_actions().astype(dtype)
    actions[i] = ignored_action
    obs, rewards, terminated, truncated, info = env.step(actions)
    fresh = env.game.new_initial_state()
    assert not terminated[i]
    assert not truncated[i]
    assert rewards[i].tolist() == [0.0, 0.0]
    assert info["current_player"][i] == fresh.current_player()
    assert np.array_equal(obs["action_mask"][i], fresh.legal_actions_mask())
    assert np.array_equal(obs["observation"][i], fresh.observation_tensor())
    assert env.state(i).serialize() == fresh.serialize()


def test_the_step_after_an_end_ignores_an_integer_too_wide_for_64_bits():
    env = knightgym.make("knight_fight(layout=identity)", num_envs=NUM_ENVS, seed=3)
    i, _, _ = step_until_an_episode_ends(env, "terminated")
    actions = env.sample_actions().tolist()
    actions[i] = 2**70  # numpy holds the list as objects
    env.step(actions)
    assert env.state(i).serialize() == env.game.new_initial_state().serialize()


def trajectory(env, seed, steps):
    """Copies of everything reset(seed) and `steps` sampled steps return."""
    obs, info = env.reset(seed=seed)
    frames = [[obs["observation"].copy(), obs["action_mask"].copy(), info["current_player"].copy()]]
    for _ in range(steps):
        actions = env.sample_actions()
        outputs = step_outputs_arrays(env.step(actions))
        frames.append([actions] + [array.copy() for array in outputs])
    return frames


def same_trajectory(a, b):
    return len(a) == len(b) and all(
        np.array_equal(x, y) for frame_a, frame_b in zip(a, b) for x, y in zip(frame_a, frame_b)
    )


def test_trajectories_do_not_depend_on_the_thread_count():
    runs = {}
    for threads in (1, 2, 3, 4):
        env = knightgym.make("knight_fight", num_envs=10, num_threads=threads, seed=0)
        assert env.num_threads == threads
        runs[threads] = trajectory(env, seed=11, steps=80)
    for threads in (2, 3, 4):
        assert same_trajectory(runs[threads], runs[1]), f"{threads} threads differ from 1"


def test_reset_with_a_seed_reproduces_the_trajectory(env):
    first = trajectory(env, seed=5, steps=80)
    again = trajectory(env, seed=5, steps=80)
    other_env = knightgym.make("knight_fight", num_envs=NUM_ENVS, seed=99)
    from_other_env = trajectory(other_env, seed=5, steps=80)
    assert same_trajectory(again, first)
    assert same_trajectory(from_other_env, first)


def test_the_construction_seed_starts_the_episodes_of_reset_with_that_seed():
    env = knightgym.make("knight_fight", num_envs=NUM_ENVS, seed=5)
    at_construction = [env.state(i).serialize() for i in range(NUM_ENVS)]
    env.step(env.sample_actions())
    env.reset(seed=5)
    assert [env.state(i).serialize() for i in range(NUM_ENVS)] == at_construction


def test_different_seeds_give_different_episodes(env):
    assert not same_trajectory(trajectory(env, seed=1, steps=5), trajectory(env, seed=2, steps=5))


def test_environments_of_one_vector_env_get_different_episodes(env):
    obs, _ = env.reset(seed=1)
    observations = obs["observation"]
    assert all(not np.array_equal(observations[0], observations[i]) for i in range(1, NUM_ENVS))


def test_reset_without_a_seed_continues_the_random_streams():
    a = knightgym.make("knight_fight", num_envs=NUM_ENVS, seed=4)
    b = knightgym.make("knight_fight", num_envs=NUM_ENVS, seed=4)
    a.reset()  # make, then reset: every stream's first episode
    b.reset()
    started = [a.state(i).serialize() for i in range(NUM_ENVS)]
    a.reset()
    b.reset()
    continued = [a.state(i).serialize() for i in range(NUM_ENVS)]
    assert all(new != old for new, old in zip(continued, started))
    assert continued == [b.state(i).serialize() for i in range(NUM_ENVS)]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
@pytest.mark.parametrize("opponent", [None, "random"])
def test_reset_and_the_constructors_refuse_a_seed_as_make_does(seed, opponent):
    env = knightgym.make("knight_fight", num_envs=2, seed=1, opponent=opponent)
    before = [env.state(i).serialize() for i in range(2)]
    assert_refused_as_make_refuses(lambda s: env.reset(seed=s), seed)
    assert_refused_as_make_refuses(lambda s: env.reset(seed=s, mask=[True, False]), seed)
    assert [env.state(i).serialize() for i in range(2)] == before and env.seed == 1
    if opponent is None:
        assert_refused_as_make_refuses(lambda s: knightgym.VectorEnv("knight_fight", seed=s), seed)
    else:
        assert_refused_as_make_refuses(
            lambda s: knightgym.OpponentEnv("knight_fight", seed=s), seed
        )


@pytest.mark.parametrize("seed", [0, 2**64 - 1, np.uint64(2**64 - 1), np.int64(5)], ids=repr)
def test_reset_takes_every_integer_seed_of_64_bits(seed):
    env = knightgym.make("knight_fight", num_envs=2, seed=1)
    env.reset(seed=seed)
    assert env.seed == int(seed)


def test_make_keywords_reach_the_spec():
    env = knightgym.make("knight_fight", double_erase="forced", mirror_on_moves=False)
    assert env.spec == (
        "knight_fight(double_erase=forced,mirror_on_moves=false,max_turns=200,layout=random)"
    )
    assert env.game.parameters["double_erase"] == "forced"
    assert env.game.parameters["mirror_on_moves"] == "false"


def test_a_make_keyword_overrides_the_spec_string():
    env = knightgym.make("knight_fight(double_erase=off,max_turns=30)", double_erase="forced")
    assert env.spec == (
        "knight_fight(double_erase=forced,mirror_on_moves=true,max_turns=30,layout=random)"
    )


def test_keywords_are_set_over_the_spec_in_one_call_wherever_a_spec_is_taken():
    """make_spec writes the merged spec; the envs and load_game take the same (key, text)
    pairs as `params` and load the game from them (bindings/game_bindings.cc, spec_with)."""
    spec, params = "knight_fight(max_turns=30,double_erase=off)", [("double_erase", "forced")]
    assert knightgym.make_spec(spec, double_erase="forced", mirror_on_moves=False) == (
        "knight_fight(max_turns=30,double_erase=forced,mirror_on_moves=false)"
    )
    expected = knightgym.load_game(knightgym.make_spec(spec, double_erase="forced")).spec
    assert knightgym.load_game(spec, params).spec == expected
    assert knightgym.VectorEnv(spec, params=params).spec == expected
    assert knightgym.OpponentEnv(spec, params=params).spec == expected
    with pytest.raises(ValueError, match="parameter 'max_turns' = 'x': expected an integer"):
        knightgym.VectorEnv(spec, params=[("max_turns", "x")])


def test_the_env_classes_are_the_bound_ones_with_their_attributes():
    env = knightgym.VectorEnv("knight_fight", num_envs=3, num_threads=2, seed=4)
    assert type(env) is knightgym._knightgym.VectorEnv
    assert (env.num_envs, env.num_threads, env.seed, env.num_players) == (3, 2, 4, 2)
    assert (env.num_actions, env.observation_shape) == (101, (14, 10, 10))
    assert (env.autoreset_mode, env.finished_mask) == ("next_step", "all")
    assert repr(env) == f"<knightgym.VectorEnv {env.spec} x3, 2 threads>"
    opponent = knightgym.OpponentEnv("tailten", num_envs=2, opponent="greedy", seat=1)
    assert type(opponent) is knightgym._knightgym.OpponentEnv
    assert repr(opponent) == f"<knightgym.OpponentEnv {opponent.spec} x2 against greedy>"
