"""knightgym.gymnasium: the registered ids, Gymnasium's env checker on every conformance
spec, the vector env from make_vec with its autoreset modes, copies, masks, the length
cap as a scored end, and illegal actions."""

import re
import warnings

import numpy as np
import pytest
from bad_seeds import BAD_SEEDS, assert_refused_as_make_refuses

gymnasium = pytest.importorskip("gymnasium")
import knightgym  # noqa: E402
import knightgym.gymnasium as kg  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from knightgym._checks import shortened  # noqa: E402

IDS = {game: f"knightgym/{name}-v0" for name, game in kg.GAMES.items()}


def make_from_spec(spec, **kwargs):
    """gymnasium.make of the spec's game id, its parameters as keyword arguments."""
    name, params = knightgym._knightgym.parse_spec(spec)
    return gymnasium.make(IDS[name], **dict(params), **kwargs)


def test_every_game_is_registered():
    for env_id in IDS.values():
        assert env_id in gymnasium.registry
    assert sorted(IDS) == sorted(knightgym.games())


def test_gymnasiums_env_checker_passes(conformance_spec):
    env = make_from_spec(conformance_spec, opponent="random")
    assert env.unwrapped.game_spec == knightgym.load_game(conformance_spec).spec
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker is a failure here
        check_env(env.unwrapped, skip_render_check=False)


def test_spaces_describe_the_game():
    env = gymnasium.make("knightgym/KnightFight-v0")
    game = knightgym.load_game("knight_fight")
    assert env.action_space == gymnasium.spaces.Discrete(game.num_actions)
    box = env.observation_space["observation"]
    assert box.shape == game.observation_shape
    assert (box.low.min(), box.high.max()) == game.observation_bounds == (-49.5, 49.5)
    assert env.observation_space["action_mask"] == gymnasium.spaces.MultiBinary(101)
    obs, info = env.reset(seed=1)
    assert obs in env.observation_space
    assert obs["action_mask"].dtype == np.int8
    assert np.array_equal(env.unwrapped.action_masks(), obs["action_mask"].astype(bool))
    action = env.action_space.sample(mask=obs["action_mask"])  # int8, as Gymnasium wants
    assert obs["action_mask"][action]
    assert info == {"seat": 0}


def test_the_length_cap_is_a_scored_end_not_a_time_limit():
    env = gymnasium.make("knightgym/KnightFight-v0", max_turns=4, opponent="random")
    obs, _ = env.reset(seed=2)
    for _ in range(10):
        obs, reward, terminated, truncated, info = env.step(
            env.action_space.sample(mask=obs["action_mask"])
        )
        assert truncated is False
        if terminated:
            break
    assert terminated and info["max_turns_reached"]
    assert reward == env.unwrapped.state().returns()[0]
    assert env.unwrapped.state().is_truncated()


def test_an_illegal_action_loses_by_default_and_raises_on_request():
    env = gymnasium.make("knightgym/KnightFight-v0", layout="identity")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(ValueError, match="the episode is over: call reset"):
        env.unwrapped.step(0)

    strict = gymnasium.make(
        "knightgym/KnightFight-v0", layout="identity", illegal_action="raise"
    ).unwrapped
    strict.reset(seed=0)
    before = strict.state().serialize()
    with pytest.raises(ValueError, match=r"env 0: action \d+ \(\w+\) is not legal"):
        strict.step(illegal)
    assert strict.state().serialize() == before


@pytest.mark.parametrize("illegal_action", ["lose", "raise"])
def test_actions_are_integers_in_range_never_coerced(illegal_action):
    env = gymnasium.make("knightgym/Tailten-v0", illegal_action=illegal_action).unwrapped
    obs, _ = env.reset(seed=0)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    before = env.state().serialize()
    for action, error, message in [
        (legal + 0.7, TypeError, "got float"),
        (str(legal), TypeError, "got str"),
        (True, TypeError, "got bool"),
        (np.bool_(True), TypeError, f"got numpy.{np.bool_.__qualname__}"),  # NumPy 2: numpy.bool
        (np.float32(legal), TypeError, "got numpy.float32"),
        (None, TypeError, "got NoneType"),
        (np.array([legal]), TypeError, "got numpy.ndarray"),
        (2**32 + legal, ValueError, f"action {2**32 + legal} is out of range"),
        (2**31, ValueError, "action 2147483648 is out of range"),
        (-1, ValueError, "action -1 is out of range"),
        (np.int64(env.game.num_actions), ValueError, "is out of range"),
        (10**100, ValueError, re.escape(f"action {shortened(10**100)} is out of range")),
    ]:
        with pytest.raises(error, match=message):
            env.step(action)
        assert env.state().serialize() == before
    for action in [legal, np.int64(legal), np.uint8(legal), np.array(legal)]:
        env.reset(seed=0)
        env.step(action)
        assert env.state().serialize() != before


def test_one_env_serves_two_threads_by_turns():
    import threading

    env = gymnasium.make("knightgym/KnightFight-v0").unwrapped
    env.reset(seed=0)
    errors, steps = [], [0]

    def play():
        try:
            for _ in range(300):
                with env._lock:  # a step and the mask it uses, as one turn
                    if env._over:
                        env.reset()
                    mask = env.action_masks()
                    env.step(int(np.flatnonzero(mask)[0]))
                    steps[0] += 1
                env.action_masks()
                env.state()
        except Exception as error:  # noqa: BLE001 - collected for the assertion
            errors.append(error)

    threads = [threading.Thread(target=play) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads) and errors == []
    assert steps[0] == 600


def test_seat_and_opponent_reach_the_env():
    env = gymnasium.make("knightgym/Tailten-v0", opponent="greedy", seat=1).unwrapped
    _, info = env.reset(seed=0)
    assert info == {"seat": 1}
    assert env.opponent == "greedy"
    assert env.state().current_player() == 1  # the greedy opponent has moved first
    with pytest.raises(ValueError, match="mtcs"):
        gymnasium.make("knightgym/Tailten-v0", opponent="mtcs")
    with pytest.raises(ValueError, match="learner seat 2 is out of range"):
        gymnasium.make("knightgym/Tailten-v0", seat=2)


def test_arrays_are_copies_unless_asked_not_to_be():
    env = gymnasium.make("knightgym/KnightFight-v0").unwrapped
    first, _ = env.reset(seed=3)
    kept = first["observation"].copy()
    env.step(int(np.flatnonzero(first["action_mask"])[0]))
    assert np.array_equal(first["observation"], kept)
    assert first["observation"].flags.writeable

    views = gymnasium.make("knightgym/KnightFight-v0", copy=False).unwrapped
    obs, _ = views.reset(seed=3)
    assert not obs["observation"].flags.writeable
    kept = obs["observation"].copy()
    views.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert not np.array_equal(obs["observation"], kept)  # overwritten in place


def test_render_ansi_draws_the_board():
    env = gymnasium.make("knightgym/KnightFight-v0", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == str(env.unwrapped.state())


def make_vec(game="knightgym/KnightFight-v0", num_envs=6, **kwargs):
    return gymnasium.make_vec(
        game, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )


def test_make_vec_gives_the_cpp_vector_env():
    envs = make_vec(opponent="greedy", max_turns=30)
    assert isinstance(envs.unwrapped, kg.KnightgymVectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert envs.unwrapped.game_spec.endswith("max_turns=30,layout=random)")
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([101] * 6)
    obs, info = envs.reset(seed=4)
    assert obs in envs.observation_space
    assert info["seat"].tolist() == [0, 1, 0, 1, 0, 1]
    for _ in range(40):
        actions = np.array([envs.single_action_space.sample(mask=m) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert obs in envs.observation_space
        assert not truncated.any()
        assert np.array_equal(info["max_turns_reached"] & ~terminated, np.zeros(6, dtype=bool))
        assert np.array_equal(envs.unwrapped.action_masks(), obs["action_mask"].astype(bool))


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_make_vec_takes_every_autoreset_mode(mode):
    envs = make_vec(max_turns=3, autoreset_mode=mode)
    assert envs.metadata["autoreset_mode"] == mode
    obs, _ = envs.reset(seed=5)
    ended_once = False
    for _ in range(4):
        obs, rewards, terminated, truncated, info = envs.step(
            np.array([envs.single_action_space.sample(mask=m) for m in obs["action_mask"]])
        )
        if terminated.any():
            ended_once = True
            if mode == AutoresetMode.SAME_STEP:
                assert np.array_equal(info["_final_obs"], terminated)
                assert info["final_obs"]["observation"].shape == (6, 14, 10, 10)
                assert np.array_equal(
                    info["final_info"]["returns"][terminated], rewards[terminated]
                )
            if mode == AutoresetMode.DISABLED:
                obs, _ = envs.reset(options={"reset_mask": terminated})
    assert ended_once


def test_episode_statistics_wrapper_counts_the_episodes():
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(make_vec(max_turns=3))
    obs, _ = envs.reset(seed=6)
    episodes = 0
    for _ in range(20):
        obs, _, _, _, info = envs.step(
            np.array([envs.single_action_space.sample(mask=m) for m in obs["action_mask"]])
        )
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            assert (info["episode"]["l"][info["_episode"]] > 0).all()
    assert episodes >= 6


def test_bad_vector_arguments_are_named():
    with pytest.raises(ValueError, match="autoreset_mode must be an AutoresetMode or one of"):
        make_vec(autoreset_mode="sometimes")
    envs = make_vec()
    with pytest.raises(ValueError, match="one integer seeds every environment"):
        envs.reset(seed=[1, 2, 3, 4, 5, 6])
    with pytest.raises(ValueError, match="unknown reset options"):
        envs.reset(options={"mask": np.ones(6, dtype=bool)})


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_reset_refuses_a_seed_as_knightgym_make_does(seed):
    single = kg.KnightgymEnv("knight_fight")
    single.reset(seed=1)
    before = single.state().serialize()
    assert_refused_as_make_refuses(lambda s: single.reset(seed=s), seed)
    assert single.state().serialize() == before
    wrapped = gymnasium.make("knightgym/KnightFight-v0")
    assert_refused_as_make_refuses(lambda s: wrapped.reset(seed=s), seed)
    assert_refused_as_make_refuses(lambda s: make_vec().reset(seed=s), seed)


def test_reset_takes_numpy_integer_seeds_and_none_goes_on():
    env = kg.KnightgymEnv("knight_fight")
    env.reset(seed=np.uint64(2**64 - 1))
    assert env._env.seed == 2**64 - 1
    env.reset(seed=np.int64(5))
    first = env.state().serialize()
    env.reset()  # no reseed: the next layout of the stream
    assert env.state().serialize() != first
    env.reset(seed=5)
    assert env.state().serialize() == first
    envs = make_vec().unwrapped
    envs.reset(seed=np.int64(5))
    assert envs._env.seed == 5


def test_the_vector_env_names_an_integer_too_wide_for_64_bits_as_out_of_range():
    envs = make_vec()
    envs.reset(seed=0)
    with pytest.raises(ValueError, match=r"^env 0: action 1180591620717411303424 is out of range"):
        envs.step([2**70] * 6)
    with pytest.raises(TypeError, match="actions must be integers"):
        envs.step([1.5] + [2**70] * 5)


def first_legal(mask):
    return int(np.flatnonzero(mask)[0])


def test_the_env_snapshots_and_restores_what_it_holds():
    env = kg.KnightgymEnv("knight_fight", opponent="greedy")
    obs, _ = env.reset(seed=3)
    env.step(first_legal(obs["action_mask"]))
    twin = kg.KnightgymEnv("knight_fight", opponent="greedy")
    twin.restore(env.snapshot())
    assert twin.state().serialize() == env.state().serialize()
    np.testing.assert_array_equal(twin.action_masks(), env.action_masks())
    action = first_legal(env.action_masks())
    for a, b in zip(env.step(action), twin.step(action)):  # greedy: the same answer
        np.testing.assert_equal(a, b)
    # An episode that an illegal action ended stays ended in the restored env.
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks() == 0)[0]))
    twin.restore(env.snapshot())
    with pytest.raises(ValueError, match="the episode is over"):
        twin.step(action)
    # A snapshot from before the first reset asks for one.
    twin.restore(kg.KnightgymEnv("knight_fight").snapshot())
    with pytest.raises(gymnasium.error.ResetNeeded):
        twin.step(action)
    # One that does not fit is refused and changes nothing.
    twin.reset(seed=2)
    before = twin.state().serialize()
    with pytest.raises(ValueError, match="states holds 2 values"):
        twin.restore(make_vec(num_envs=2).unwrapped.snapshot())
    assert twin.state().serialize() == before


def test_the_vector_env_snapshots_and_restores_what_it_holds():
    envs = make_vec(opponent="greedy").unwrapped
    envs.reset(seed=4)
    twin = make_vec(opponent="greedy").unwrapped
    twin.restore(envs.snapshot())
    np.testing.assert_array_equal(twin.action_masks(), envs.action_masks())
    actions = np.array([first_legal(m) for m in envs.action_masks()])
    np.testing.assert_equal(envs.step(actions), twin.step(actions))
    twin.restore(make_vec().unwrapped.snapshot())
    with pytest.raises(gymnasium.error.ResetNeeded):
        twin.action_masks()


def test_a_closed_env_refuses_every_use_by_name():
    """After close(), step (a legal or an illegal action), reset and the masks raise
    RuntimeError naming the env, rather than failing on what close released or answering
    an illegal action with an ordinary losing step."""
    env = kg.KnightgymEnv("knight_fight", opponent="random")
    obs, _ = env.reset(seed=1)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.close()
    for use in (
        lambda: env.step(legal),
        lambda: env.step(illegal),
        lambda: env.reset(seed=1),
        lambda: env.action_masks(),
        lambda: env.snapshot(),
        lambda: env.restore({}),
    ):
        with pytest.raises(RuntimeError, match="the environment is closed"):
            use()
    envs = kg.KnightgymVectorEnv("knight_fight", num_envs=2, opponent="random")
    envs.reset(seed=1)
    envs.close()
    with pytest.raises(RuntimeError, match=r"KnightgymVectorEnv.step: the environment is closed"):
        envs.step(np.zeros(2, dtype=np.int64))
