"""The single-agent view (knightgym.make(..., opponent=SPEC)): the learner's seat rotates
across envs, the C++ opponent moves until the learner is to move, rewards are the
learner's, bad actions change nothing, and the seed decides everything."""

import knightgym
import numpy as np
import pytest


def play_random(env, steps, seed=0):
    """Random legal actions for `steps` steps; the learner's finished-episode rewards."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    finished = []
    for _ in range(steps):
        mask = obs["action_mask"]
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], dtype=np.int32
        )
        obs, rewards, terminated, truncated, info = env.step(actions)
        done = terminated | truncated
        finished.extend(rewards[done].tolist())
        assert np.all(rewards[~done] == 0)
    return finished


def test_shapes_and_rotated_seats():
    env = knightgym.make("knights_challenge(mode=ffa3)", num_envs=7, opponent="random", seed=1)
    obs, info = env.reset()
    assert isinstance(env, knightgym.OpponentEnv)
    assert obs["observation"].shape == (7, *env.observation_shape)
    assert obs["action_mask"].shape == (7, env.num_actions)
    assert info["seat"].tolist() == [i % 3 for i in range(7)]
    # The learner is to move everywhere after a reset: each env has a legal action.
    assert obs["action_mask"].any(axis=1).all()
    assert not obs["observation"].flags.writeable


@pytest.mark.parametrize(
    "spec", ["knight_fight", "tailten", "double_duel", "knights_challenge(mode=ffa4)"]
)
def test_the_learner_always_has_a_move_until_its_game_ends(spec):
    env = knightgym.make(spec, num_envs=8, opponent="random", seed=2)
    rng = np.random.default_rng(0)
    obs, _ = env.reset()
    for _ in range(120):
        mask = obs["action_mask"]
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], dtype=np.int32
        )
        obs, rewards, terminated, truncated, _ = env.step(actions)
        done = terminated | truncated
        assert np.all(obs["action_mask"][~done].any(axis=1))
        assert np.all(obs["action_mask"][done])  # finished_mask="all"
        assert np.all(np.abs(rewards) <= 1)


def test_a_search_opponent_beats_random_play_and_random_does_not():
    against_random = play_random(
        knightgym.make("tailten", num_envs=16, opponent="random", seed=2), 300
    )
    against_mcts = play_random(
        knightgym.make("tailten", num_envs=16, opponent="mcts:sims=50", seed=3), 300
    )
    assert len(against_random) > 50 and len(against_mcts) > 50
    assert abs(np.mean(against_random)) < 0.35
    assert np.mean(against_mcts) < -0.6


def test_bad_actions_are_refused_and_change_nothing():
    env = knightgym.make("tailten", num_envs=3, opponent="greedy", seed=4)
    obs, _ = env.reset()
    before = np.copy(obs["observation"])
    illegal = int(np.flatnonzero(~obs["action_mask"][1])[0])
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    with pytest.raises(ValueError, match=f"env 1: action {illegal} .* is not legal"):
        env.step(np.array([legal[0], illegal, legal[2]], dtype=np.int32))
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        env.step(np.array(legal[:2], dtype=np.int32))
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.array([legal[0], 99, legal[2]]))
    assert np.array_equal(obs["observation"], before)
    env.step(np.array(legal, dtype=np.int32))  # still usable


def test_the_seed_decides_everything():
    runs = [
        play_random(
            knightgym.make("knight_fight", num_envs=4, opponent="mcts:sims=8", seed=5), 80, seed=6
        )
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_bad_opponents_and_options_are_named():
    with pytest.raises(ValueError, match="unknown agent 'mtcs'"):
        knightgym.make("tailten", num_envs=2, opponent="mtcs")
    with pytest.raises(ValueError, match="num_envs must be at least 1"):
        knightgym.make("tailten", num_envs=0, opponent="random")
    with pytest.raises(ValueError, match="num_threads"):
        knightgym.make("tailten", num_envs=2, num_threads=2, opponent="random")


def test_sampled_actions_are_legal_and_seeded_like_the_vector_env():
    """The opponent env shares the vector env's core: sample_actions draws a legal action
    per env from each env's own seeded stream, 0 where the next step resets."""

    def sampled(seed):
        env = knightgym.make("knight_fight", num_envs=6, opponent="random", seed=seed)
        obs, _ = env.reset()
        drawn = []
        for _ in range(60):
            actions = env.sample_actions()
            assert actions.dtype == np.int32 and actions.shape == (6,)
            playable = obs["action_mask"].any(axis=1)
            assert np.all(obs["action_mask"][playable, actions[playable]])
            assert np.all(actions[~playable] == 0)
            drawn.append(actions.tolist())
            obs, *_ = env.step(actions)
        return drawn

    assert sampled(8) == sampled(8)
    assert sampled(8) != sampled(9)
