"""Every env kind pickles and deep-copies (SB3's SubprocVecEnv, Ray and copy.deepcopy
need it): a copy holds the same states and last outputs, goes on as the original would,
and is independent of it; a snapshot that does not fit is refused, naming the problem,
and changes nothing; a closed env refuses every kind of copy, naming itself."""

import copy
import pickle

import gymnasium
import knightgym
import numpy as np
import pytest
from knightgym import gymnasium as kg_gymnasium
from knightgym import pettingzoo as kg_pettingzoo

SPECS = knightgym.games()  # every registered game at its default rules
COPIES = {"deepcopy": copy.deepcopy, "pickle": lambda env: pickle.loads(pickle.dumps(env))}


def assert_same_outputs(a, b):
    """Equal nested outputs (dicts, tuples and lists of arrays and numbers)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            assert_same_outputs(a[key], b[key])
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same_outputs(x, y)
    else:
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def play(env, steps):
    """Steps `env` (a knightgym.make env) with its own sampled actions; copies of the
    outputs (the env's arrays are views that the next step overwrites)."""
    return [copy.deepcopy(env.step(env.sample_actions())) for _ in range(steps)]


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_a_vector_env_copy_goes_on_exactly_as_the_original(spec, mode, how):
    env = knightgym.make(spec, num_envs=6, seed=3, autoreset_mode=mode)
    env.reset()
    steps = 0 if mode == "disabled" else 40  # disabled refuses ended episodes
    play(env, steps)
    twin = COPIES[how](env)
    assert twin.spec == env.spec and twin.seed == env.seed
    for i in range(env.num_envs):
        assert twin.state(i).serialize() == env.state(i).serialize()
    assert_same_outputs(env.last_observations(), twin.last_observations())
    if mode == "disabled":
        return
    assert_same_outputs(play(env, 30), play(twin, 30))
    # A reset without a seed continues the episode streams in both.
    assert_same_outputs(copy.deepcopy(env.reset()), twin.reset())


def test_a_copy_is_independent_of_the_original():
    env = knightgym.make("tailten", num_envs=4, seed=1)
    env.reset()
    before = [env.state(i).serialize() for i in range(4)]
    twin = copy.deepcopy(env)
    play(twin, 5)
    assert [env.state(i).serialize() for i in range(4)] == before
    assert [twin.state(i).serialize() for i in range(4)] != before


def test_a_fresh_env_copy_starts_with_the_first_episodes_as_the_original():
    env = knightgym.make("knight_fight", num_envs=3, seed=9)
    twin = pickle.loads(pickle.dumps(env))
    assert_same_outputs(copy.deepcopy(env.reset()), twin.reset())


@pytest.mark.parametrize("spec", SPECS)
def test_opponent_env_copies_hold_the_same_games_and_go_on_alike(spec):
    env = knightgym.make(spec, num_envs=4, seed=5, opponent="random")
    env.reset()
    for _ in range(6):
        env.step(env.sample_actions())
    first, second = copy.deepcopy(env), pickle.loads(pickle.dumps(env))
    for twin in (first, second):
        assert twin.opponent == env.opponent
        assert [twin.state(i).serialize() for i in range(4)] == [
            env.state(i).serialize() for i in range(4)
        ]
        assert_same_outputs(env.last_observations(), twin.last_observations())
    # The copies' opponents are new agents seeded alike: two copies go on alike.
    assert_same_outputs(play(first, 25), play(second, 25))


def test_a_snapshot_that_does_not_fit_is_refused_and_changes_nothing():
    env = knightgym.make("knightmate", num_envs=2, seed=0)
    env.reset()
    other = knightgym.make("knightmate", num_envs=2, seed=1)
    other.step(other.sample_actions())
    good = other.snapshot()
    before = env.snapshot()

    def refused(change, message):
        bad = dict(good)
        change(bad)
        with pytest.raises((ValueError, TypeError), match=message):
            env.restore(bad)
        after = env.snapshot()
        assert after["states"] == before["states"]
        np.testing.assert_array_equal(after["streams"], before["streams"])

    refused(lambda s: s.update(states=["not a FEN"] * 2), "state of env 0")
    refused(lambda s: s.update(states=good["states"][:1]), "states holds 1 values")
    refused(lambda s: s.update(streams=np.zeros(16, np.uint64)), "stream of env 0 is all zeros")
    refused(
        lambda s: s.update(terminated=np.array([0, 2], np.uint8)), "terminated must hold 0 or 1"
    )
    refused(lambda s: s.update(observations=np.zeros(3, np.float32)), "observations holds 3")
    refused(lambda s: s.pop("rewards"), "missing 'rewards'")
    refused(lambda s: s.update(streams="text"), "'streams' must be an array of numbers")
    # What fits is taken: the env now holds the other env's games.
    env.restore(good)
    assert [env.state(i).serialize() for i in range(2)] == good["states"]


def test_restored_masks_follow_the_states_not_the_snapshot():
    env = knightgym.make("knight_fight", num_envs=2, seed=2)
    env.reset()
    snapshot = env.snapshot()
    twin = knightgym.make("knight_fight", num_envs=2, seed=7)
    twin.restore(snapshot)
    for i in range(2):
        np.testing.assert_array_equal(
            twin.last_observations()["action_mask"][i],
            np.asarray(twin.state(i).legal_actions_mask(), bool),
        )


@pytest.mark.parametrize("how", sorted(COPIES))
def test_gymnasium_envs_copy_with_their_last_observation(how):
    env = gymnasium.make("knightgym/Tailten-v0", opponent="random")
    obs, _ = env.reset(seed=4)
    obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    twin = COPIES[how](env)
    np.testing.assert_array_equal(twin.unwrapped.action_masks(), env.unwrapped.action_masks())
    action = int(np.flatnonzero(env.unwrapped.action_masks())[0])
    assert twin.unwrapped.state().serialize() == env.unwrapped.state().serialize()
    twin.step(action)  # the copy steps on its own
    assert twin.unwrapped.state().serialize() != env.unwrapped.state().serialize()

    vector = gymnasium.make_vec(
        "knightgym/KnightFight-v0", num_envs=3, vectorization_mode="vector_entry_point", copy=False
    )
    vector.reset(seed=1)
    first, second = COPIES[how](vector), COPIES[how](vector)
    np.testing.assert_array_equal(first.action_masks(), vector.action_masks())
    actions = np.array([np.flatnonzero(m)[0] for m in vector.action_masks()])
    # Their opponents are new agents seeded alike: two copies go on alike.
    assert_same_outputs(copy.deepcopy(first.step(actions)), second.step(actions))


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("wrapped", [True, False])
def test_pettingzoo_envs_copy(how, wrapped):
    env = (kg_pettingzoo.env if wrapped else kg_pettingzoo.raw_env)("knights_challenge(mode=ffa3)")
    env.reset(seed=0)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    twin = COPIES[how](env)
    assert twin.agent_selection == env.agent_selection
    np.testing.assert_array_equal(twin.state(), env.state())
    for agent in env.agents:
        assert_same_outputs(env.observe(agent), twin.observe(agent))
    twin.step(int(np.flatnonzero(twin.observe(twin.agent_selection)["action_mask"])[0]))
    assert not np.array_equal(twin.state(), env.state())


@pytest.mark.parametrize("opponent", [None, "random"])
def test_a_restored_vector_env_goes_on_as_a_copy_does(opponent):
    env = knightgym.make("tailten", num_envs=3, seed=6, opponent=opponent)
    env.reset()
    play(env, 4)
    restored = knightgym.make("tailten", num_envs=3, seed=1, opponent=opponent)
    restored.restore(env.snapshot())
    assert restored.seed == env.seed
    assert_same_outputs(env.last_observations(), restored.last_observations())
    # An opponent is made anew by both, seeded alike: they go on alike.
    assert_same_outputs(play(copy.deepcopy(env), 10), play(restored, 10))


def closed(make):
    """The env make() gives, reset and closed."""
    env = make()
    env.reset()
    env.close()
    return env


def closed_env(name):
    """The closed env of the interface whose class is `name`."""
    from knightgym import sb3

    return closed(
        {
            "KnightgymEnv": lambda: kg_gymnasium.KnightgymEnv("tailten"),
            "KnightgymVectorEnv": lambda: kg_gymnasium.KnightgymVectorEnv("tailten", num_envs=2),
            "raw_env": lambda: kg_pettingzoo.raw_env("tailten"),
            "VecEnv": lambda: sb3.VecEnv("tailten", num_envs=2),
        }[name]
    )


ALL_COPIES = {**COPIES, "copy": copy.copy}


@pytest.mark.parametrize("how", sorted(ALL_COPIES))
@pytest.mark.parametrize("name", ["KnightgymEnv", "KnightgymVectorEnv", "raw_env", "VecEnv"])
def test_a_closed_env_refuses_every_copy_naming_its_class(name, how):
    env = closed_env(name)
    with pytest.raises(RuntimeError, match=rf"^{name}: the environment is closed, so it cannot"):
        ALL_COPIES[how](env)


@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_closed_wrapped_env_refuses_deep_copies_naming_the_closed_one(how):
    """Gymnasium's and PettingZoo's wrappers copy the env they wrap, which refuses."""
    for env, name in [
        (closed(lambda: gymnasium.make("knightgym/Tailten-v0")), "KnightgymEnv"),
        (closed(lambda: kg_pettingzoo.env("tailten")), "raw_env"),
    ]:
        with pytest.raises(RuntimeError, match=rf"^{name}: the environment is closed"):
            COPIES[how](env)


def test_masks_before_the_first_reset_are_a_clear_error():
    from knightgym import sb3

    for env in (
        gymnasium.make("knightgym/Tailten-v0").unwrapped,
        gymnasium.make_vec(
            "knightgym/Tailten-v0", num_envs=2, vectorization_mode="vector_entry_point"
        ),
        sb3.VecEnv("tailten", num_envs=2),
    ):
        with pytest.raises(gymnasium.error.ResetNeeded, match=r"call reset\(\) before"):
            env.action_masks()
