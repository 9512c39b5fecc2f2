#!/usr/bin/env python3
"""sb3-contrib's MaskablePPO on knightgym's native vector env, with the board extractor of
knightgym.sb3, against a C++ opponent; the learner's score before and after training.

    PYTHONPATH=build/python .venv/bin/python examples/sb3_maskable_ppo.py \
        --game knight_fight --opponent random --minutes 2

The environments are knightgym.sb3.VecEnv: one C++ batch whose other seats the
opponent plays (the learner's seat rotated across the batch). The score is the mean of
(return - min) / (max - min) over `--score-games` games of the greedy policy against the
same opponent (1: every game won, 0.5: as many won as lost), with its 95% interval.
"""

import argparse
import time

import numpy as np
from knightgym import sb3, scoring
from sb3_contrib import MaskablePPO


def measure(model, spec, opponent, games, seed):
    """The learner's score over `games` games against `opponent`, one in each of as many
    environments (knightgym.scoring): (score, half-width of its 95% interval)."""

    def choose(obs):
        masks = obs["action_mask"].view(np.int8).copy()  # the env's arrays are read-only
        actions, _ = model.predict(
            {"observation": obs["observation"].copy(), "action_mask": masks},
            action_masks=masks,
            deterministic=True,
        )
        return actions.astype(np.int32)

    result = scoring.score_policy(spec, choose, opponent=opponent, games=games, seed=seed)
    return result["score"], result["score_half_width"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    scoring.add_example_arguments(parser, game="knight_fight", score_games=200, seat=False)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--minutes", type=float, default=2.0, help="training time")
    parser.add_argument(
        "--steps", type=int, default=None, help="environment steps to train instead of --minutes"
    )
    parser.add_argument("--n-steps", type=int, default=64, help="PPO rollout length")
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument(
        "--policy",
        choices=["board", "mlp"],
        default="board",
        help="knightgym.sb3.BoardPolicy, or SB3's default MultiInputPolicy",
    )
    args = parser.parse_args(argv)

    envs = sb3.VecEnv(args.game, num_envs=args.envs, opponent=args.opponent, seed=args.seed)
    policy = sb3.BoardPolicy if args.policy == "board" else "MultiInputPolicy"
    model = MaskablePPO(
        policy,
        envs,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=4,
        learning_rate=args.lr,
        ent_coef=0.01,
        seed=args.seed,
        verbose=0,
    )
    before = measure(model, args.game, args.opponent, args.score_games, args.seed + 1)
    start = time.monotonic()
    chunk = args.n_steps * args.envs
    trained = 0
    while (
        (trained < args.steps)
        if args.steps is not None
        else (time.monotonic() - start < 60 * args.minutes)
    ):
        model.learn(chunk, reset_num_timesteps=False)
        trained += chunk
    seconds = time.monotonic() - start
    after = measure(model, args.game, args.opponent, args.score_games, args.seed + 1)
    print(
        f"{args.game} against {args.opponent}, {args.policy} policy: {trained} steps in "
        f"{seconds:.0f} s; score {before[0]:.3f} ± {before[1]:.3f} before, "
        f"{after[0]:.3f} ± {after[1]:.3f} after ({args.score_games} games each)"
    )
    return {"steps": trained, "seconds": seconds, "before": before, "after": after}


if __name__ == "__main__":
    main()
