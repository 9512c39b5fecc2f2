"""The vector env's options (env/vector/vector_env_options.h): auto-reset modes, resets of
chosen environments, a finished episode's mask, and seeds drawn from entropy, for the
vector env and the opponent env alike."""

import re

import knightgym
import numpy as np
import pytest

NUM_ENVS = 5


def make(kind, spec="knight_fight(max_turns=6)", **options):
    if kind == "opponent":
        return knightgym.make(spec, num_envs=NUM_ENVS, opponent="random", **options)
    return knightgym.make(spec, num_envs=NUM_ENVS, num_threads=2, **options)


def step_until_an_end(env, steps):
    """Steps with sampled actions until some episode ends; that step's outputs and the
    envs that ended."""
    for _ in range(steps):
        outputs = env.step(env.sample_actions())
        ended = outputs[2] | outputs[3]
        if ended.any():
            return outputs, ended
    pytest.fail(f"no episode ended in {steps} steps")


def copies(outputs):
    obs, rewards, terminated, truncated, info = outputs
    return (
        {k: v.copy() for k, v in obs.items()},
        rewards.copy(),
        terminated.copy(),
        truncated.copy(),
        info,
    )


@pytest.mark.parametrize("kind", ["vector", "opponent"])
def test_the_options_are_reported(kind):
    env = make(kind, seed=3, autoreset_mode="same_step", finished_mask="none")
    assert env.autoreset_mode == "same_step"
    assert env.finished_mask == "none"
    assert env.seed == 3
    default = make(kind, seed=3)
    assert (default.autoreset_mode, default.finished_mask) == ("next_step", "all")


@pytest.mark.parametrize("kind", ["vector", "opponent"])
def test_same_step_returns_the_new_episode_and_the_final_one_in_info(kind):
    # Next-step and same-step envs of one seed play alike until the first end, where the
    # same-step env returns what the next-step env returns on that step and the next.
    next_step = make(kind, seed=8)
    same_step = make(kind, seed=8, autoreset_mode="same_step")
    for _ in range(40):
        actions = same_step.sample_actions()
        expected = copies(next_step.step(actions))
        obs, rewards, terminated, truncated, info = same_step.step(actions)
        assert np.array_equal(terminated, expected[2])
        assert np.array_equal(truncated, expected[3])
        assert np.array_equal(rewards, expected[1])
        ended = terminated | truncated
        if not ended.any():
            assert "final_obs" not in info
            assert np.array_equal(obs["observation"], expected[0]["observation"])
            continue
        assert np.array_equal(info["_final_obs"], ended)
        assert np.array_equal(info["_final_info"], ended)
        final = info["final_obs"]
        assert np.array_equal(final["observation"][ended], expected[0]["observation"][ended])
        assert np.array_equal(final["action_mask"][ended], expected[0]["action_mask"][ended])
        assert final["action_mask"][ended].all()  # the finished mask, all True by default
        assert np.array_equal(info["final_info"]["returns"][ended], expected[1][ended])
        restarted = next_step.step(next_step.sample_actions())[0]
        # Where the learner moves first, no opponent has drawn a move in the new episode.
        new = ended & (info["seat"] == 0) if kind == "opponent" else ended
        assert np.array_equal(obs["observation"][new], restarted["observation"][new])
        assert np.array_equal(obs["action_mask"][new], restarted["action_mask"][new])
        return
    pytest.fail("no episode ended")


def test_same_step_matches_a_step_by_step_replay_in_one_environment():
    spec = "knight_fight(max_turns=6)"
    next_step = knightgym.make(spec, num_envs=1, seed=2)
    same_step = knightgym.make(spec, num_envs=1, seed=2, autoreset_mode="same_step")
    episodes = 0
    for _ in range(50):
        action = same_step.sample_actions()
        expected = copies(next_step.step(action))
        obs, rewards, terminated, truncated, info = same_step.step(action)
        if expected[2][0] or expected[3][0]:
            episodes += 1
            assert info["_final_obs"][0]
            assert np.array_equal(
                info["final_obs"]["observation"][0], expected[0]["observation"][0]
            )
            assert rewards[0].tolist() == expected[1][0].tolist()
            restart = next_step.step(np.zeros(1, dtype=np.int32))
            assert np.array_equal(obs["observation"], restart[0]["observation"])
            assert same_step.state(0).serialize() == next_step.state(0).serialize()
        else:
            assert np.array_equal(obs["observation"], expected[0]["observation"])
    assert episodes >= 5


@pytest.mark.parametrize("kind", ["vector", "opponent"])
def test_disabled_auto_reset_waits_for_a_reset_of_the_ended_envs(kind):
    env = make(kind, seed=5, autoreset_mode="disabled")
    env.reset()
    (obs, rewards, _, _, _), ended = step_until_an_end(env, 20)
    kept = [array.copy() for array in (obs["observation"], obs["action_mask"], rewards)]
    with pytest.raises(ValueError, match="its episode is over and auto-reset is disabled"):
        env.step(env.sample_actions())
    assert all(
        np.array_equal(a, b)
        for a, b in zip(kept, (obs["observation"], obs["action_mask"], rewards))
    )
    obs, _ = env.reset(mask=ended)
    assert not obs["action_mask"][ended].all(axis=1).any()  # legal moves only: playing again
    env.step(env.sample_actions())


@pytest.mark.parametrize("kind", ["vector", "opponent"])
def test_a_reset_mask_restarts_only_the_chosen_envs(kind):
    env = make(kind, spec="tailten", seed=6)
    env.reset()
    for _ in range(4):
        obs = env.step(env.sample_actions())[0]
    before = obs["observation"].copy()
    chosen = np.array([True, False, True, False, False])
    obs, _ = env.reset(seed=30, mask=chosen)
    assert np.array_equal(obs["observation"][~chosen], before[~chosen])
    # A chosen env's new episode is the one a reset of all with that seed gives it.
    reference = make(kind, spec="tailten", seed=30)
    assert np.array_equal(obs["observation"][chosen], reference.reset()[0]["observation"][chosen])


@pytest.mark.parametrize(
    "mask, error, message",
    [
        (np.ones(4, dtype=bool), ValueError, r"the reset mask must have shape \(5,\), got \(4,\)"),
        (np.ones((5, 1), dtype=bool), ValueError, r"must have shape \(5,\), got \(5, 1\)"),
        (np.full(5, 0.5), TypeError, "the reset mask must be booleans, got dtype float64"),
        (np.array([0, 1, 2, 0, 0]), ValueError, "must hold 0 or 1, got 2 at env 2"),
        ("all", TypeError, "must be booleans"),
    ],
)
def test_a_bad_reset_mask_is_refused_and_changes_nothing(mask, error, message):
    env = make("vector", seed=1)
    env.step(env.sample_actions())
    states = [env.state(i).serialize() for i in range(NUM_ENVS)]
    with pytest.raises(error, match=message):
        env.reset(mask=mask)
    assert [env.state(i).serialize() for i in range(NUM_ENVS)] == states


@pytest.mark.parametrize("kind", ["vector", "opponent"])
@pytest.mark.parametrize("finished_mask, expected", [("all", True), ("none", False)])
def test_a_finished_episodes_mask(kind, finished_mask, expected):
    env = make(kind, spec="knight_fight(max_turns=2)", seed=1, finished_mask=finished_mask)
    env.reset()
    (obs, _, _, _, _), ended = step_until_an_end(env, 3)
    assert (obs["action_mask"][ended] == expected).all()
    assert obs["action_mask"][~ended].any(axis=1).all()


def test_a_masked_softmax_over_a_finished_episode_stays_finite():
    env = make("vector", spec="knight_fight(max_turns=2)", seed=1)
    env.reset()
    for _ in range(2):
        obs = env.step(env.sample_actions())[0]
    logits = np.where(obs["action_mask"], 0.0, -np.inf)
    probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
    assert np.isfinite(probabilities / probabilities.sum(axis=1, keepdims=True)).all()


@pytest.mark.parametrize("kind", ["vector", "opponent"])
def test_no_seed_draws_a_fresh_one_and_reports_it(kind):
    a, b = make(kind), make(kind)
    assert a.seed != b.seed
    replay = make(kind, seed=a.seed)
    assert np.array_equal(replay.reset()[0]["observation"], a.reset()[0]["observation"])


@pytest.mark.parametrize("kind", ["vector", "opponent"])
def test_make_then_reset_starts_every_streams_first_episode(kind):
    env = make(kind, seed=9)
    first = env.reset()[0]["observation"].copy()
    second = env.reset()[0]["observation"].copy()
    again = make(kind, seed=9)
    assert np.array_equal(again.reset(seed=9)[0]["observation"], first)
    assert not np.array_equal(second, first)


@pytest.mark.parametrize(
    "keyword, value, message",
    [
        (
            "autoreset_mode",
            "sometimes",
            "autoreset_mode must be one of next_step, same_step, disabled, got 'sometimes'",
        ),
        ("finished_mask", "legal", "finished_mask must be one of all, none, got 'legal'"),
    ],
)
@pytest.mark.parametrize("kind", ["vector", "opponent"])
def test_bad_option_values_are_named(kind, keyword, value, message):
    with pytest.raises(ValueError, match=message):
        make(kind, **{keyword: value})


def test_a_seeded_reset_of_all_envs_reseeds_the_opponent_too():
    env = knightgym.make("tailten", num_envs=3, opponent="mcts:sims=8", seed=1)

    def trajectory():
        obs, _ = env.reset(seed=5)
        frames = [obs["observation"].copy()]
        for _ in range(6):
            frames.append(env.step(env.sample_actions())[0]["observation"].copy())
        return frames

    first, again = trajectory(), trajectory()
    assert all(np.array_equal(a, b) for a, b in zip(first, again))


def test_a_learner_seat_for_every_env():
    env = knightgym.make("tailten", num_envs=4, opponent="random", seed=1, seat=1)
    _, info = env.reset()
    assert info["seat"].tolist() == [1, 1, 1, 1]
    with pytest.raises(ValueError, match="learner seat 2 is out of range"):
        knightgym.make("tailten", num_envs=4, opponent="random", seat=2)
    with pytest.raises(ValueError, match="only an OpponentEnv"):
        knightgym.make("tailten", num_envs=4, seat=1)


@pytest.mark.parametrize(
    "num_envs, num_threads, message",
    [
        (4, 10**6, "num_threads must be at most 256 (kMaxThreads), got 1000000"),
        (1000, 257, "num_threads must be at most 256 (kMaxThreads), got 257"),
        (4, 5, "num_threads must be at most num_envs (4), got 5"),
        (1, 2, "num_threads must be at most num_envs (1), got 2"),
    ],
)
def test_num_threads_beyond_the_envs_or_the_limit_is_refused_not_cut(
    num_envs, num_threads, message
):
    with pytest.raises(ValueError, match=re.escape(message)):
        knightgym.make("knight_fight", num_envs=num_envs, num_threads=num_threads)


def test_num_threads_up_to_the_envs_is_taken_as_given():
    assert knightgym.make("knight_fight", num_envs=3, num_threads=3).num_threads == 3
