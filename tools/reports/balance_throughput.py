#!/usr/bin/env python3
"""Balance runs' throughput, for docs/benchmarks.md: games per second of the shipped
networks played one game at a time and with --batch B, of a batch refilled within longer
chunks (--chunk C) against one whose games start together, and of a fixed run on a local
Ray cluster with 1 and 2 worker processes against the same run on threads. Prints
Markdown tables; every figure is a balance run's own games / seconds. The networks' runs
are each game's studies' `throughput` (env/games/<game>/studies.json: game spec, network
spec, games per measurement, about a minute each on one core), in the registry's order.

    PYTHONPATH=build/python .venv/bin/python tools/reports/balance_throughput.py networks
    PYTHONPATH=build/python .venv/bin/python tools/reports/balance_throughput.py chunks \
        --game double_duel --games 128 --batches 16 --chunks 16,128
    PYTHONPATH=build/python .venv/bin/python tools/reports/balance_throughput.py ray --game GAME
"""

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import knightgym.balance
from knightgym import markdown

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # tools/lib: studies
import studies  # noqa: E402


def measured_networks():
    """(game spec, network spec, games per measurement) of every game's throughput runs."""
    return [
        (run["spec"], run["agents"], run["games"])
        for game in studies.games("throughput")
        for run in studies.get(game, "throughput")
    ]


def games_per_second(game, agents, games, **options):
    result = knightgym.balance.run(
        game, agents=agents, games=games, seed=1, progress=False, **options
    )
    played = sum(rule_set["games"] for rule_set in result["rule_sets"])
    return played / result["seconds"], result


def networks(batches):
    print(f"Machine: {platform.node()}, {os.cpu_count()} CPUs, one thread per run.\n")
    names = [
        "game",
        "agent",
        "games",
        *("one at a time" if b == 0 else f"--batch {b}" for b in batches),
        "best speed-up",
    ]
    print(markdown.header(names, align="llr" + "r" * len(batches) + "r"))
    for game, agent, games in measured_networks():
        rates = [games_per_second(game, agent, games, batch=b)[0] for b in batches]
        cells = [game, f"`{agent}`", games, *(f"{rate:.2f}" for rate in rates)]
        print(markdown.row([*cells, f"{max(rates) / rates[0]:.1f}x"]), flush=True)


def refilled(game, agents, games, batch, chunks):
    """One thread, `batch` games in play: chunks of `batch` games that start together
    (the first column when chunks[0] == batch) against longer chunks refilled as games
    end, each with the mean length of its games."""
    where = f"{platform.node()}, {os.cpu_count()} CPUs"
    print(f"`{game}`, `{agents}`, {games} games, seed 1, --batch {batch}, one thread; {where}.\n")
    names = ["--chunk", "games/s", "mean length", "speed-up"]
    print(markdown.header(names, align="rrrr"))
    base = None
    for chunk in chunks:
        rate, result = games_per_second(game, agents, games, batch=batch, chunk=chunk)
        base = base or rate
        length = result["rule_sets"][0]["length"]["mean"]
        print(markdown.row([chunk, f"{rate:.2f}", f"{length:.1f}", f"{rate / base:.2f}x"]))


def ray_scaling(game, agents, games):
    from ray.cluster_utils import Cluster

    print(
        f"`{game}`, `{agents}`, {games} games, seed 1; {platform.node()}, {os.cpu_count()} CPUs.\n"
    )
    names = ["where", "worker processes", "games/s", "equal to the threads run"]
    print(markdown.header(names, align="lrrl"))
    base_rate, base = games_per_second(game, agents, games, threads=1)
    print(markdown.row(["threads", 1, f"{base_rate:.1f}", "(reference)"]), flush=True)
    rate, two = games_per_second(game, agents, games, threads=2)
    print(markdown.row(["threads", 2, f"{rate:.1f}", same(two, base)]), flush=True)
    for workers in (1, 2):
        cluster = Cluster(
            initialize_head=True, head_node_args={"num_cpus": workers, "include_dashboard": False}
        )
        cluster.wait_for_nodes()
        try:
            start = time.monotonic()
            rate, there = games_per_second(game, agents, games, ray_address=cluster.address)
            wall = time.monotonic() - start
        finally:
            cluster.shutdown()
        rates = f"{rate:.1f} ({games / wall:.1f} with connecting)"
        print(markdown.row(["Ray, one node", workers, rates, same(there, base)]), flush=True)


def same(a, b):
    def strip(r):
        return [{k: v for k, v in s.items() if k != "seconds"} for s in r["rule_sets"]]

    return "yes" if strip(a) == strip(b) else "NO"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["networks", "chunks", "ray"])
    parser.add_argument("--batches", default="0,16,64", help="networks; chunks: the first")
    parser.add_argument("--chunks", default="16,128", help="chunks: games per chunk")
    parser.add_argument("--game", help="chunks, ray: the game spec (needed)")
    parser.add_argument("--agents", help="default: mcts:sims=64 (ray), the network (chunks)")
    parser.add_argument("--games", type=int, default=4000)
    args = parser.parse_args()
    if args.what == "networks":
        networks([int(b) for b in args.batches.split(",")])
    elif args.game is None:
        parser.error(f"{args.what} needs --game GAME")
    elif args.what == "chunks":
        batch = int(args.batches.split(",")[0])
        agents = args.agents or "az:model=pretrained,sims=64"
        refilled(args.game, agents, args.games, batch, [int(c) for c in args.chunks.split(",")])
    else:
        ray_scaling(args.game, args.agents or "mcts:sims=64", args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
