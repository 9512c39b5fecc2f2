#!/usr/bin/env python3
"""OpenSpiel's MCTSBot against knightgym's own mcts agent, for docs/strength.md: both UCT
with one random roll-out per leaf and MCTS-Solver, at the same simulations and the same
exploration constant, on each two-player game through knightgym.openspiel (by default
the spec each game's studies give, env/games/<game>/studies.json's openspiel.spec, in the
registry's order). Games come in pairs from one start (Knight Fight: one drawn layout)
with the seats swapped. Prints a Markdown table: OpenSpiel's wins, draws and losses, its
score with a 95% Wilson interval, and each side's simulations per second (its searches'
time only).

    PYTHONPATH=build/python .venv/bin/python \
        tools/experiments/openspiel_vs_mcts/openspiel_vs_mcts.py --games 20 --sims 100 --cpp
"""

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

import knightgym
import knightgym.openspiel
import numpy as np
import pyspiel
from knightgym import markdown
from open_spiel.python.algorithms import mcts

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "lib"))  # tools/lib: studies
import studies  # noqa: E402


class Side:
    """One player and the time its searches took."""

    def __init__(self, choose):
        self.choose = choose
        self.seconds = 0.0
        self.moves = 0

    def act(self, state):
        start = time.perf_counter()
        action = self.choose(state)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return action


def openspiel_side(game, sims, c, seed, cpp):
    if cpp:
        # pyspiel.MCTSBot.step releases the GIL, which a Python game needs; Bot.step doesn't.
        bot = pyspiel.MCTSBot(
            game, pyspiel.RandomRolloutEvaluator(1, seed), c, sims, 1000, True, seed, False
        )
        return Side(lambda state: pyspiel.Bot.step(bot, state))
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        game, c, sims, mcts.RandomRolloutEvaluator(1, rng), solve=True, random_state=rng
    )
    return Side(bot.step)


def knightgym_side(game, sims, c, seed):
    agent = knightgym.agents.make(f"mcts:sims={sims},c={c}", game.knightgym_game(), seed=seed)
    return Side(lambda state: agent.act(state.knightgym_state()))


def play(spec, games, sims, c, cpp):
    """OpenSpiel's results [wins, draws, losses] and both sides' simulations per second."""
    game = knightgym.openspiel.load_game(spec)
    openspiel = openspiel_side(game, sims, c, seed=1, cpp=cpp)
    own = knightgym_side(game, sims, c, seed=2)
    results = [0, 0, 0]
    for index in range(games):
        if index % 2 == 0:
            start = game.new_initial_state()
        state = start.clone()
        seat = index % 2  # OpenSpiel's seat
        while not state.is_terminal():
            side = openspiel if state.current_player() == seat else own
            state.apply_action(side.act(state))
        outcome = state.returns()[seat]
        results[0 if outcome > 0 else 1 if outcome == 0 else 2] += 1
    rates = [side.moves * sims / side.seconds for side in (openspiel, own)]
    return results, rates


def wilson_interval(score, games, z=1.96):
    """The 95% Wilson interval of a score out of `games`, a draw counting half (knightgym's
    statistics.wilson_interval takes whole successes). Draws make the true spread
    smaller, so the interval errs wide."""
    rate = score / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = (
        z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    )
    return centre - half, centre + half


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per spec (even)")
    parser.add_argument("--sims", type=int, default=100, help="simulations per decision")
    parser.add_argument("--c", type=float, default=1.4, help="UCT exploration, both sides")
    parser.add_argument(
        "--cpp", action="store_true", help="OpenSpiel's C++ MCTSBot instead of its Python one"
    )
    parser.add_argument("specs", nargs="*", help="knightgym game specs (default: the studies')")
    args = parser.parse_args()
    args.specs = args.specs or [
        studies.get(game, "openspiel.spec") for game in studies.games("openspiel.spec")
    ]

    bot = "pyspiel.MCTSBot (C++)" if args.cpp else "open_spiel.python.algorithms.mcts.MCTSBot"
    print(
        f"{bot} against `mcts:sims={args.sims},c={args.c}`, {args.games} games per game, "
        f"seats alternated; {platform.node()}, {os.cpu_count()} CPUs, one thread.\n"
    )
    names = [
        "game",
        "OpenSpiel W / D / L",
        "OpenSpiel's score",
        "95%",
        "OpenSpiel sims/s",
        "knightgym sims/s",
    ]
    print(markdown.header(names, align="lrrrrr"))
    for spec in args.specs:
        (wins, draws, losses), (openspiel_rate, own_rate) = play(
            spec, args.games, args.sims, args.c, args.cpp
        )
        low, high = wilson_interval(wins + draws / 2, args.games)
        cells = [
            f"`{spec}`",
            f"{wins} / {draws} / {losses}",
            f"{(wins + draws / 2) / args.games:.0%}",
            f"{low:.0%}-{high:.0%}",
            f"{openspiel_rate:,.0f}",
            f"{own_rate:,.0f}",
        ]
        print(markdown.row(cells), flush=True)


if __name__ == "__main__":
    main()
