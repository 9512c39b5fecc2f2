"""Stable-Baselines3 and sb3-contrib (pinned, tools/setup/python_requirements_nodeps.txt) as
their users run them: make_vec_env on every id, MaskablePPO over SubprocVecEnv and over
knightgym.sb3.VecEnv (the native batch), and the video recorders writing frames."""

import os
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")
import knightgym  # noqa: E402
from bad_seeds import BAD_SEEDS, assert_refused_as_make_refuses  # noqa: E402
from knightgym import sb3  # noqa: E402
from knightgym.gymnasium import GAMES, env_id  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from stable_baselines3.common.vec_env import SubprocVecEnv, VecVideoRecorder  # noqa: E402

IDS = [env_id(game) for game in GAMES.values()]


def tiny_ppo(envs):
    return MaskablePPO(
        sb3.BoardPolicy, envs, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu"
    )


def assert_legal(actions, masks):
    assert all(masks[i, a] for i, a in enumerate(actions))


def plays_legally(model, envs, steps=10):
    """The model's masked greedy actions for `steps` steps: each one legal."""
    obs = envs.reset()
    for _ in range(steps):
        masks = get_action_masks(envs)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert_legal(actions, masks)
        obs, *_ = envs.step(actions)


@pytest.mark.parametrize("gym_id", IDS)
def test_make_vec_env_steps_with_masks_and_renders_images(gym_id):
    envs = make_vec_env(gym_id, n_envs=2, seed=0)
    assert is_masking_supported(envs)
    assert envs.render_mode == "rgb_array"
    obs = envs.reset()
    masks = get_action_masks(envs)
    np.testing.assert_array_equal(masks, obs["action_mask"])
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    envs.step(actions)
    frame = envs.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    envs.close()


def test_maskable_ppo_trains_over_subprocess_envs_and_acts_legally():
    # A worker process starts without knightgym: "module:id" makes Gymnasium import it.
    envs = make_vec_env(
        "knightgym:knightgym/Tailten-v0",
        n_envs=2,
        seed=0,
        vec_env_cls=SubprocVecEnv,
        env_kwargs={"opponent": "random"},
    )
    try:
        plays_legally(tiny_ppo(envs).learn(64), envs)
    finally:
        envs.close()


def test_the_native_vec_env_follows_sb3s_conventions():
    envs = sb3.VecEnv("knight_fight", num_envs=8, opponent="random", seed=1)
    assert is_masking_supported(envs)
    obs = envs.reset()
    assert obs["observation"].shape == (8, *envs.game.observation_shape)
    ended = 0
    for _ in range(200):
        masks = get_action_masks(envs)
        assert masks.dtype == np.int8
        for i in range(8):
            legal = envs.env.state(i).legal_actions_mask()
            np.testing.assert_array_equal(masks[i].astype(bool), legal)
        actions = np.array(
            [np.random.default_rng(i).choice(np.flatnonzero(m)) for i, m in enumerate(masks)]
        )
        previous = obs
        obs, rewards, dones, infos = envs.step(actions)
        assert obs["observation"] is not previous["observation"]  # copies, kept by SB3
        for i in np.flatnonzero(dones):
            ended += 1
            final = infos[i]["terminal_observation"]
            assert final["observation"].shape == envs.game.observation_shape
            assert infos[i]["TimeLimit.truncated"] is False
            assert rewards[i] in (-1.0, 0.0, 1.0)
        assert not rewards[~dones].any()
    assert ended > 0


def test_the_native_vec_env_is_seeded_by_sb3s_seed():
    def first_steps(seed):
        envs = sb3.VecEnv("tailten", num_envs=4, opponent="random")
        envs.seed(seed)
        obs = [envs.reset()["observation"]]
        for _ in range(5):
            masks = envs.action_masks()
            obs.append(envs.step(np.argmax(masks, axis=1))[0]["observation"])
        return np.stack(obs)

    np.testing.assert_array_equal(first_steps(3), first_steps(3))
    assert not np.array_equal(first_steps(3), first_steps(4))


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_the_native_vec_env_refuses_a_seed_as_knightgym_make_does(seed):
    assert_refused_as_make_refuses(lambda s: sb3.VecEnv("tailten", num_envs=2, seed=s), seed)
    envs = sb3.VecEnv("tailten", num_envs=2, seed=1)
    assert_refused_as_make_refuses(envs.seed, seed)
    envs.reset()  # the refused seed is not waiting for the next reset
    assert envs.env.seed == 1


def test_a_closed_native_vec_env_refuses_every_use_by_name():
    envs = sb3.VecEnv("tailten", num_envs=2)
    envs.reset()
    envs.close()
    for use in (envs.reset, envs.action_masks, lambda: envs.step(np.zeros(2, np.int64))):
        with pytest.raises(RuntimeError, match=r"^VecEnv\.\w+: the environment is closed"):
            use()


def test_maskable_ppo_trains_on_the_native_vec_env_and_acts_legally():
    envs = sb3.VecEnv("double_duel", num_envs=4, opponent="random", seed=0)
    plays_legally(tiny_ppo(envs).learn(128), envs)


def test_the_native_vec_env_refuses_what_it_cannot_do():
    envs = sb3.VecEnv("tailten", num_envs=2)
    with pytest.raises(AttributeError, match="action_masks and render"):
        envs.env_method("seed")
    with pytest.raises(ValueError, match="set for all of them or none"):
        envs.set_attr("opponent", "greedy", indices=[0])
    with pytest.raises(ValueError, match="render_mode must be"):
        sb3.VecEnv("tailten", render_mode="human")
    envs.reset()
    with pytest.raises(TypeError, match="actions must be integers"):
        envs.step(np.array([0.5, 1.5]))
    with pytest.raises(ValueError, match=r"actions must have shape \(2,\)"):
        envs.step(np.array([0, 1, 2]))


def test_vec_video_recorder_writes_a_video(tmp_path):
    envs = sb3.VecEnv("knightmate", num_envs=2, opponent="random", seed=0, render_mode="rgb_array")
    recorder = VecVideoRecorder(
        envs, str(tmp_path), record_video_trigger=lambda step: step == 0, video_length=6
    )
    recorder.reset()
    for _ in range(8):
        recorder.step(np.argmax(envs.action_masks(), axis=1))
    recorder.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


def test_gymnasiums_record_video_writes_a_video(tmp_path):
    env = gymnasium.wrappers.RecordVideo(
        gymnasium.make("knightgym/KnightFight-v0", render_mode="rgb_array", max_turns=6),
        str(tmp_path / "videos"),
        disable_logger=True,
    )
    obs, _ = env.reset(seed=0)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = terminated or truncated
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


@pytest.mark.parametrize("spec", knightgym.games())
def test_every_frame_of_a_game_has_one_size(spec):
    env = knightgym.make(spec, num_envs=1, seed=0)
    env.reset()
    shapes = set()
    for _ in range(40):
        frame = knightgym.raster.rgb_array(env.state(0))
        shapes.add(frame.shape)
        assert frame.dtype == np.uint8 and frame.std() > 10  # a picture, not a blank
        env.step(env.sample_actions())
    assert len(shapes) == 1


@pytest.mark.parametrize(
    "code",
    [
        "import gymnasium, knightgym; gymnasium.make('knightgym/Tailten-v0')",
        "import gymnasium; gymnasium.make('knightgym:knightgym/Tailten-v0')",
    ],
)
def test_gymnasium_finds_the_ids_without_importing_knightgym_gymnasium(code):
    subprocess.run([sys.executable, "-c", code], check=True, env=dict(os.environ))


@pytest.mark.needs_networks
def test_maskable_ppo_trains_against_the_shipped_network_in_one_process():
    """SB3's torch and the opponent's LibTorch are one library in this process (Debian's
    1.13 in .venv, PyPI's 2.x in make torch2's build)."""
    import torch

    envs = sb3.VecEnv("tailten", num_envs=4, opponent="az:model=pretrained,sims=4", seed=0)
    plays_legally(tiny_ppo(envs).learn(64), envs, steps=1)
    with open("/proc/self/maps") as maps:
        libraries = {line.split()[-1] for line in maps if "libtorch_cpu" in line}
    assert len(libraries) == 1, libraries
    assert os.path.dirname(torch.__file__) in next(iter(libraries)) or torch.__file__.startswith(
        "/usr/lib/python3/"
    )


def test_the_per_square_logits_land_on_their_squares_actions():
    import torch

    head = sb3.BoardLogits((1, 2, 3), num_actions=2 * 6 + 1)  # 2 per square, then one more
    assert head.per_square == 2
    with torch.no_grad():
        head.linear.weight.zero_()
        head.linear.bias.zero_()
        head.squares.weight[:] = torch.tensor([1.0, 10.0]).view(2, 1, 1, 1)
        head.squares.bias.zero_()
        features = torch.arange(6.0).view(1, 6)  # square s (row-major) holds s
        logits = head(features)[0]
    expected = [v for s in range(6) for v in (s, 10 * s)] + [0.0]
    np.testing.assert_allclose(logits.numpy(), expected)


def test_games_whose_actions_are_not_per_square_get_the_linear_logits_only():
    head = sb3.BoardLogits((4, 7, 7), num_actions=45)  # Tailten's hills
    assert head.squares is None
