#!/usr/bin/env python3
"""Masked PPO (an actor-critic) in PyTorch against built-in C++ opponents, CleanRL-style
on a Gymnasium vector env.

    PYTHONPATH=build/python .venv/bin/python examples/ppo.py --game tailten --minutes 3

The environments come from gymnasium.make_vec("knightgym/Tailten-v0", num_envs=N,
vectorization_mode="vector_entry_point", opponent=SPEC), which is knightgym's own C++
batch: the learner plays one seat (rotated across envs) and the opponent, a C++ agent,
all the others. Illegal actions are masked out of the policy; a finished game's mask is
all ones, so no row of the masked softmax is empty. Every few iterations the greedy
policy plays `--score-games` games against `random` and the learner's score (wins +
draws / 2) is printed.
"""

import argparse
import time

import gymnasium
import knightgym
import knightgym.gymnasium
import numpy as np
import torch
from knightgym import scoring
from torch import nn


def make_envs(spec, num_envs, opponent):
    """gymnasium.make_vec of the spec's game id, its parameters as keyword arguments."""
    name, params = knightgym._knightgym.parse_spec(spec)
    return gymnasium.make_vec(
        knightgym.gymnasium.env_id(name),
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        opponent=opponent,
        **dict(params),
    )


class ActorCritic(nn.Module):
    """A small convolutional trunk, a policy logit per action and a value in [-1, 1].

    Where the first H x W actions are the board's cells (Knight Fight: the squares in the
    mover's frame, then `pass`), a 1x1 convolution adds a logit per cell: the same
    weights on every square, so "land on high numbers" is learnt once, not 100 times.
    """

    def __init__(self, observation_shape, num_actions, channels=32):
        super().__init__()
        c, h, w = observation_shape
        self.cells = h * w if num_actions in (h * w, h * w + 1) else 0
        self.trunk = nn.Sequential(
            nn.Conv2d(c, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
        )
        self.cell_policy = nn.Conv2d(channels, 1, 1) if self.cells else None
        self.policy = nn.Linear(channels * h * w, num_actions)
        self.value = nn.Sequential(
            nn.Linear(channels * h * w, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh()
        )

    def forward(self, observations, masks):
        features = self.trunk(observations)
        x = features.flatten(1)
        logits = self.policy(x)
        if self.cells:
            cell_logits = self.cell_policy(features).flatten(1)
            logits = torch.cat([logits[:, : self.cells] + cell_logits, logits[:, self.cells :]], 1)
        logits = logits.masked_fill(~masks, -1e9)
        return torch.distributions.Categorical(logits=logits), self.value(x).squeeze(1)


def collect(env, model, obs, steps):
    """`steps` steps in every env. A step after an episode's end only resets the env
    (Gymnasium's next-step autoreset), so its transition is marked invalid and left out
    of the losses. The game's length cap comes as terminated: a scored end, not a time
    limit to bootstrap across."""
    n = env.num_envs
    buffer = {k: [] for k in ("obs", "mask", "action", "logp", "value", "reward", "done", "valid")}
    valid = np.ones(n, dtype=bool)
    finished = []
    for _ in range(steps):
        o = torch.from_numpy(obs["observation"])  # a copy: the env copies by default
        m = torch.from_numpy(obs["action_mask"].astype(bool))
        with torch.no_grad():
            dist, value = model(o, m)
            action = dist.sample()
        obs, rewards, terminated, truncated, _ = env.step(action.numpy())
        done = terminated | truncated
        for key, item in (
            ("obs", o),
            ("mask", m),
            ("action", action),
            ("value", value),
            ("logp", dist.log_prob(action)),
            ("reward", torch.from_numpy(rewards)),
            ("done", torch.from_numpy(done)),
            ("valid", torch.from_numpy(valid.copy())),
        ):
            buffer[key].append(item)
        finished.extend(rewards[done & valid].tolist())
        valid = ~done
    with torch.no_grad():
        _, last_value = model(
            torch.from_numpy(obs["observation"]), torch.from_numpy(obs["action_mask"].astype(bool))
        )
    return {k: torch.stack(v) for k, v in buffer.items()}, last_value, obs, finished


def advantages(batch, last_value, gamma, lam):
    """GAE over [T, N]; an episode's end cuts the bootstrap."""
    steps = batch["reward"].shape[0]
    adv = torch.zeros_like(batch["reward"])
    running = torch.zeros_like(last_value)
    for t in reversed(range(steps)):
        next_value = last_value if t == steps - 1 else batch["value"][t + 1]
        alive = (~batch["done"][t]).float()
        delta = batch["reward"][t] + gamma * next_value * alive - batch["value"][t]
        running = delta + gamma * lam * alive * running
        adv[t] = running
    return adv, adv + batch["value"]


def update(model, optimizer, batch, adv, returns, args):
    valid = batch["valid"].reshape(-1)
    flat = {k: v.reshape(-1, *v.shape[2:])[valid] for k, v in batch.items()}
    adv, returns = adv.reshape(-1)[valid], returns.reshape(-1)[valid]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    losses = []
    for _ in range(args.epochs):
        for idx in torch.randperm(len(adv)).split(args.minibatch):
            dist, value = model(flat["obs"][idx], flat["mask"][idx])
            ratio = (dist.log_prob(flat["action"][idx]) - flat["logp"][idx]).exp()
            clipped = ratio.clamp(1 - args.clip, 1 + args.clip)
            policy_loss = -torch.min(ratio * adv[idx], clipped * adv[idx]).mean()
            value_loss = (value - returns[idx]).pow(2).mean()
            loss = policy_loss + 0.5 * value_loss - args.entropy * dist.entropy().mean()
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            optimizer.step()
            losses.append(loss.item())
    return float(np.mean(losses))


def measure(model, game, episodes, seed):
    """The greedy policy's score against random over `episodes` games, one in each of as
    many environments (knightgym.scoring)."""

    def choose(obs):
        with torch.no_grad():
            dist, _ = model(
                torch.from_numpy(obs["observation"].copy()),  # the env's arrays are read-only
                torch.from_numpy(obs["action_mask"].astype(bool)),
            )
        return dist.probs.argmax(1).numpy()

    return scoring.score_policy(game, choose, games=episodes, seed=seed)["score"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    scoring.add_example_arguments(parser, game="tailten", score_games=200, seat=False)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=64, help="steps per env per iteration")
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--iterations", type=int, default=0, help="stop after (0: by time)")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=512)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--score-every", type=int, default=10, help="iterations")
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    args = parser.parse_args(argv)

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    env = make_envs(args.game, args.envs, args.opponent)
    model = ActorCritic(
        env.single_observation_space["observation"].shape, env.single_action_space.n
    )
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    obs, _ = env.reset(seed=args.seed)
    start = time.monotonic()
    history = []
    score = measure(model, args.game, args.score_games, args.seed + 1)
    print(f"iteration 0: score against random {100 * score:.1f}%", flush=True)
    iteration = 0
    while True:
        iteration += 1
        batch, last_value, obs, finished = collect(env, model, obs, args.steps)
        adv, returns = advantages(batch, last_value, args.gamma, args.lam)
        loss = update(model, optimizer, batch, adv, returns, args)
        elapsed = time.monotonic() - start
        last = iteration == args.iterations or (not args.iterations and elapsed > 60 * args.minutes)
        if iteration % args.score_every == 0 or last:
            score = measure(model, args.game, args.score_games, args.seed + 1)
            mean = np.mean(finished) if finished else float("nan")
            print(
                f"iteration {iteration} ({elapsed:.0f} s): loss {loss:.3f}, mean reward "
                f"against {args.opponent} {mean:+.2f}, score against random "
                f"{100 * score:.1f}%",
                flush=True,
            )
            history.append(
                {"iteration": iteration, "seconds": elapsed, "loss": loss, "score": score}
            )
        if last:
            return history


if __name__ == "__main__":
    main()
