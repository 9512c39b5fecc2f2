"""Python threads sharing one env or agent. The bindings serialise every call
(bindings/serialised.h): two threads stepping one VectorEnv or OpponentEnv at once neither
crash, hang nor corrupt its states, and the only errors they see are the documented one
(a step refused because another thread's step made its sampled actions stale, which
changes nothing). Where the order of the calls cannot change the outcome, the outcome is
compared exactly with the same calls made on one thread."""

import threading
import time

import knightgym
import numpy as np
import pytest
from knightgym import agents

JOIN_SECONDS = 120  # far beyond what the loops take; a thread still alive then hangs


def run_threads(*loops):
    """Runs each loop on its own thread; returns the exceptions they raised, and fails
    if any thread is still running after JOIN_SECONDS."""
    errors = []
    start = threading.Barrier(len(loops))  # so that the loops overlap

    def guarded(loop):
        def run():
            try:
                start.wait()
                loop()
            except BaseException as error:  # noqa: B036 - reported to the test
                errors.append(error)

        return run

    threads = [threading.Thread(target=guarded(loop), daemon=True) for loop in loops]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(JOIN_SECONDS)
    assert not any(thread.is_alive() for thread in threads), "a thread hangs"
    return errors


def stepping_loop(env, steps, refused):
    """step(sample_actions()) `steps` times. Between the two calls another thread may
    step, and the sampled actions may then be illegal: that step is refused (ValueError,
    nothing changed), which is counted in `refused`. Every other time the thread yields
    between the two, so that the threads' calls interleave finely (left alone, one
    thread tends to run many calls before the other gets the GIL)."""

    def loop():
        for k in range(steps):
            actions = env.sample_actions()
            if k % 2:
                time.sleep(0)
            try:
                env.step(actions)
            except ValueError as error:
                assert "is not legal" in str(error), error
                refused.append(1)

    return loop


def check_sound(env):
    """The env steps on; then every state reads back from its text, an unfinished one
    has a legal action and its mask is the state's."""
    game = env.game
    masks = env.step(env.sample_actions())[0]["action_mask"].copy()
    for i in range(env.num_envs):
        state = env.state(i)
        text = state.serialize()
        assert game.deserialize_state(text).serialize() == text
        if not state.is_terminal():
            assert state.legal_actions_mask().any()
            assert np.array_equal(masks[i], state.legal_actions_mask())
    for _ in range(5):
        env.step(env.sample_actions())


@pytest.mark.parametrize("num_envs, num_threads", [(64, 1), (64, 2), (1024, 1), (1024, 2)])
def test_two_threads_step_one_vector_env(num_envs, num_threads):
    env = knightgym.make("knight_fight", num_envs=num_envs, num_threads=num_threads, seed=1)
    refused = []
    steps = 2000 if num_envs == 64 else 200
    errors = run_threads(stepping_loop(env, steps, refused), stepping_loop(env, steps, refused))
    assert not errors, errors
    check_sound(env)


def test_two_threads_step_one_opponent_env():
    env = knightgym.make("tailten", num_envs=64, opponent="mcts:sims=4", seed=2)
    refused = []
    errors = run_threads(stepping_loop(env, 300, refused), stepping_loop(env, 300, refused))
    assert not errors, errors
    check_sound(env)


def test_readers_beside_a_stepper_change_nothing_it_sees():
    """One thread steps with the first legal action of its own last mask, the other
    samples actions and reads states at the same time. Sampling draws from the action
    streams only and reading changes nothing, so the stepper's trajectory is that of the
    same steps on one thread, exactly."""

    def first_legal(mask):
        return mask.argmax(axis=1).astype(np.int32)

    def make():
        return knightgym.make("knight_fight", num_envs=64, num_threads=2, seed=5)

    alone = make()
    mask = alone.reset(seed=9)[0]["action_mask"]
    expected = []
    for _ in range(200):
        obs, rewards, terminated, truncated, _ = alone.step(first_legal(mask))
        mask = obs["action_mask"]
        expected.append([a.copy() for a in (obs["observation"], mask, rewards, terminated)])
    expected_states = [alone.state(i).serialize() for i in range(alone.num_envs)]

    shared = make()
    actions_per_env = shared.num_actions
    seen = []
    reads = []

    def stepper():
        # Only this thread steps or resets, so the views it gets stay as it left them.
        mask = shared.reset(seed=9)[0]["action_mask"]
        for _ in range(200):
            obs, rewards, terminated, truncated, _ = shared.step(first_legal(mask))
            mask = obs["action_mask"]
            seen.append([a.copy() for a in (obs["observation"], mask, rewards, terminated)])

    def reader():
        for k in range(400):
            actions = shared.sample_actions()
            assert actions.shape == (64,)
            state = shared.state(k % 64)
            reads.append(state.serialize())
            assert shared.seed in (5, 9) and shared.game.num_actions == actions_per_env

    errors = run_threads(stepper, reader)
    assert not errors, errors
    assert len(reads) == 400
    assert len(seen) == len(expected)
    for got, want in zip(seen, expected):
        assert all(np.array_equal(g, w) for g, w in zip(got, want))
    assert [shared.state(i).serialize() for i in range(64)] == expected_states


def test_sampling_beside_readers_draws_what_one_thread_draws():
    """One thread samples actions; another reads states and properties. Nothing
    steps, so the draws are those of one thread sampling alone, exactly."""
    alone = knightgym.make("tailten", num_envs=32, seed=4)
    expected = [alone.sample_actions().copy() for _ in range(300)]
    shared = knightgym.make("tailten", num_envs=32, seed=4)
    initial = [shared.state(i).serialize() for i in range(32)]
    drawn, read = [], []

    def sampler():
        for _ in range(300):
            drawn.append(shared.sample_actions().copy())

    def reader():
        for k in range(600):
            read.append(shared.state(k % 32).serialize() == initial[k % 32])

    errors = run_threads(sampler, reader)
    assert not errors, errors
    assert all(read)
    assert all(np.array_equal(d, e) for d, e in zip(drawn, expected))
    assert np.array_equal(shared.sample_actions(), alone.sample_actions())


def test_a_call_that_reenters_the_env_on_its_thread_raises():
    """step() reads its actions through the array protocol, which can run Python code
    while the env's lock is held; a call on the env from there would wait for itself."""
    env = knightgym.make("knight_fight", num_envs=4, seed=0)
    caught = []

    class Reentrant:
        def __array__(self, dtype=None, copy=None):
            try:
                env.sample_actions()
            except RuntimeError as error:
                caught.append(str(error))
            return env_actions

    env_actions = env.sample_actions()
    env.step(Reentrant())
    assert caught == ["VectorEnv is already in use by this thread (re-entered)"]
    env.step(env.sample_actions())  # and the lock was let go


def test_two_threads_share_one_agent():
    game = knightgym.load_game("knight_fight")
    agent = agents.make("mcts:sims=200", game, seed=3)
    states = [game.new_initial_state(seed=s) for s in range(2)]
    actions = [[], []]

    def player(k):
        def loop():
            for _ in range(20):
                actions[k].append(agent.act(states[k]))

        return loop

    errors = run_threads(player(0), player(1))
    assert not errors, errors
    for k in range(2):
        assert len(actions[k]) == 20
        assert set(actions[k]) <= set(states[k].legal_actions())


def test_two_threads_step_one_sb3_vec_env():
    pytest.importorskip("stable_baselines3")
    from knightgym import sb3

    env = sb3.VecEnv("tailten", num_envs=16, opponent="random", seed=3)
    env.reset()
    refused = []

    def loop():
        for k in range(300):
            actions = np.argmax(env.action_masks(), axis=1)
            if k % 2:
                time.sleep(0)
            try:
                env.step(actions)
            except ValueError as error:  # another thread stepped after the masks were read
                assert "is not legal" in str(error), error
                refused.append(1)

    errors = run_threads(loop, loop)
    assert not errors, errors
    masks = env.action_masks()
    for i in range(env.num_envs):
        np.testing.assert_array_equal(masks[i].astype(bool), env.env.state(i).legal_actions_mask())
