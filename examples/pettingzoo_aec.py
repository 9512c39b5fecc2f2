#!/usr/bin/env python3
"""A PettingZoo AEC loop: two different agents share a 4-player game of Knights
Challenge, one in seats 0 and 2, the other in seats 1 and 3.

    PYTHONPATH=build/python .venv/bin/python examples/pettingzoo_aec.py --games 4

The env is knightgym.pettingzoo.env(SPEC); each agent is a knightgym C++ agent
(knightgym.agents.make) deciding on the env's current state. The loop is PettingZoo's
own: agent_iter(), last(), step(); a player who decides several times in a row is
selected again, and a colour with no move is not selected at all.
"""

import argparse

import knightgym
import numpy as np
from knightgym.pettingzoo import env as make_env


def play(spec, agent_specs, games, seed):
    """Plays `games` games with agent_specs[p % 2] in seat p; returns each agent spec's
    mean return and first places."""
    aec = make_env(spec)
    game = aec.unwrapped.game
    agents = [knightgym.agents.make(a, game, seed=seed + k) for k, a in enumerate(agent_specs)]
    totals = np.zeros(len(agent_specs))
    firsts = np.zeros(len(agent_specs), dtype=int)
    for g in range(games):
        aec.reset(seed=seed + g)
        final = {}
        for name in aec.agent_iter():
            observation, reward, termination, truncation, _ = aec.last()
            if termination or truncation:
                final[name] = reward
                aec.step(None)
                continue
            seat = aec.possible_agents.index(name)
            action = agents[seat % 2].act(aec.unwrapped.game_state())
            assert observation["action_mask"][action]
            aec.step(action)
        returns = [final[name] for name in aec.possible_agents]
        for seat, value in enumerate(returns):
            totals[seat % 2] += value / (len(returns) / 2)
        best = max(returns)
        for seat, value in enumerate(returns):
            firsts[seat % 2] += value == best
    return totals / games, firsts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="knights_challenge(mode=ffa4)")
    parser.add_argument(
        "--agents",
        default="greedy,random",
        help="two agent specs: seats 0 and 2, then seats 1 and 3",
    )
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    agent_specs = args.agents.split(",")
    if len(agent_specs) != 2:
        parser.error("--agents takes two agent specs")
    means, firsts = play(args.spec, agent_specs, args.games, args.seed)
    for agent, mean, first in zip(agent_specs, means, firsts):
        print(f"{agent}: mean return {mean:+.3f}, first places {first} of {2 * args.games} seats")
    return dict(zip(agent_specs, means))


if __name__ == "__main__":
    main()
