#!/usr/bin/env python3
"""Training on a local Ray cluster, measured for docs/training.md: self-play positions
per second with 1 and 2 actors against the one-machine run (`scaling`), the learner's
optimizer steps per second alone, on a teacher's games with no self-play beside it
(`learner`), the memory of every process of a long run over its minutes (`memory`), and
the model of docs/training.md over 1 to 100 nodes from such figures (`model`). The
cluster is two nodes on this machine, each with one CPU (ray.cluster_utils: a head and a
second raylet, as `ray start` makes them); the learner runs in this process. Prints
Markdown tables and writes the samples as CSV.

    PYTHONPATH=build/python .venv/bin/python \
        tools/experiments/ray_scaling/ray_training.py scaling --game GAME \
        --minutes 3
    PYTHONPATH=build/python .venv/bin/python \
        tools/experiments/ray_scaling/ray_training.py learner --game GAME
    PYTHONPATH=build/python .venv/bin/python \
        tools/experiments/ray_scaling/ray_training.py memory --game GAME \
        --minutes 30
    PYTHONPATH=build/python .venv/bin/python \
        tools/experiments/ray_scaling/ray_training.py model --actor-rate 300 \
        --learner-samples 2400
"""

import argparse
import csv
import os
import platform
import shutil
import sys
import threading
import time

# The cluster and this driver agree on authentication (knightgym.ray_cluster).
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

import knightgym.training  # noqa: E402
import psutil  # noqa: E402
import ray  # noqa: E402
from knightgym import markdown  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

# The game's defaults, with the learner on one thread of the two cores, and no
# match round in the middle of a measurement.
SETTINGS = {"threads": 1, "match_seconds": 0, "match_games": 0}


def start_cluster():
    cluster = Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
    )
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    return cluster


def metrics_rows(out):
    with open(os.path.join(out, "metrics.csv")) as file:
        return list(csv.DictReader(file))


def positions_per_second(out, skip_seconds):
    """Self-play decisions per second after the first `skip_seconds` (actors starting,
    the replay window filling), from metrics.csv, and the learner's steps per second
    and the mean staleness over the same rows."""
    rows = metrics_rows(out)
    start = next(r for r in rows if float(r["seconds"]) >= skip_seconds)
    end = rows[-1]
    seconds = float(end["seconds"]) - float(start["seconds"])
    decisions = int(end["decisions"]) - int(start["decisions"])
    steps = int(end["step"]) - int(start["step"])
    later = [r for r in rows if float(r["seconds"]) > float(start["seconds"])]
    stale = [float(r["staleness"]) for r in later if r.get("staleness")]
    rates = [
        [float(x) for x in r["actor_pos_per_s"].split(";")]
        for r in later
        if r.get("actor_pos_per_s")
    ]
    per_actor = [sum(column) / len(rates) for column in zip(*rates)] if rates else []
    return (
        decisions / seconds,
        steps / seconds,
        sum(stale) / len(stale) if stale else 0.0,
        per_actor,
    )


def scaling(args):
    print(
        f"Machine: {platform.node()}, {os.cpu_count()} CPUs; {args.game}, its training "
        f"defaults with {SETTINGS}; {args.minutes} min per run, the first "
        f"{args.skip} s left out.\n"
    )
    print(
        markdown.header(
            ["run", "self-play positions/s", "each actor's", "learner steps/s", "staleness (steps)"]
        )
    )
    cluster = start_cluster()
    try:
        for actors in [0] + args.actors:
            out = os.path.join(args.out, f"actors-{actors}")
            shutil.rmtree(out, ignore_errors=True)
            knightgym.training.train(
                args.game,
                out,
                minutes=args.minutes,
                settings=SETTINGS,
                ray_address=cluster.address if actors else None,
                actors=actors or None,
                verbose=False,
            )
            speed, steps, stale, per_actor = positions_per_second(out, args.skip)
            name = (
                f"Ray, {actors} actor{'s' if actors > 1 else ''}"
                if actors
                else "one machine (no Ray)"
            )
            each = " / ".join(f"{r:.0f}" for r in per_actor) if actors else "-"
            cells = [name, f"{speed:.0f}", each, f"{steps:.2f}", f"{stale:.1f}"]
            print(markdown.row(cells), flush=True)
    finally:
        cluster.shutdown()


def learner(args):
    """Optimizer steps per second of the learner alone: the teacher phase of a run (no
    self-play), on a small teacher set, at 1 and 2 LibTorch threads."""
    teach = os.path.join(args.out, "teach")
    if not os.path.isdir(teach):
        knightgym.teacher.generate(args.game, teach, teacher="mcts:sims=8", games=64, threads=2)
    print(
        f"Machine: {platform.node()}, {os.cpu_count()} CPUs; {args.game}, its default network, "
        f"batch 256, {args.learner_steps} steps on a teacher's games.\n"
    )
    print(markdown.header(["LibTorch threads", "optimizer steps/s", "samples/s"]))
    for threads in (1, 2):
        out = os.path.join(args.out, f"learner-{threads}")
        shutil.rmtree(out, ignore_errors=True)
        counters = knightgym.training.train(
            args.game,
            out,
            steps=args.learner_steps,
            verbose=False,
            settings={
                "threads": threads,
                "teacher": teach,
                "teacher_steps": args.learner_steps,
                "match_games": 0,
                "log_seconds": 1000,
            },
        )["counters"]
        steps, seconds = counters["steps"], counters["seconds"]
        cells = [threads, f"{steps / seconds:.1f}", f"{256 * steps / seconds:,.0f}"]
        print(markdown.row(cells), flush=True)


def plasma_mib():
    """The object store's use over the cluster, in MiB: what Ray's scheduler counts as
    taken of its object_store_memory."""
    total = ray.cluster_resources().get("object_store_memory", 0)
    free = ray.available_resources().get("object_store_memory", 0)
    return round((total - free) / 2**20, 1)


def rss_mib(processes):
    total = 0
    for process in processes:
        try:
            total += process.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


def sample(out):
    """One row: the learner's process, the actors', Ray's own (raylets, GCS), the object
    store, and the run's counters."""
    me = psutil.Process()
    actors, ray_own = [], []
    for process in me.children(recursive=True):  # this cluster's, no other's
        try:
            cmdline, name = process.cmdline(), process.name()
        except psutil.Error:
            continue
        if cmdline and cmdline[0].startswith("ray::SelfPlayActor"):
            actors.append(process)
        elif name in ("raylet", "gcs_server"):
            ray_own.append(process)
    rows = metrics_rows(out) if os.path.exists(os.path.join(out, "metrics.csv")) else []
    row = rows[-1] if rows else {}
    return {
        "learner_mib": round(rss_mib([me]), 1),
        "actors_mib": " ".join(f"{rss_mib([a]):.1f}" for a in actors),
        "ray_mib": round(rss_mib(ray_own), 1),
        "plasma_mib": plasma_mib(),
        "step": row.get("step", ""),
        "decisions": row.get("decisions", ""),
        "replay": row.get("replay", ""),
    }


def memory(args):
    out = os.path.join(args.out, "memory")
    shutil.rmtree(out, ignore_errors=True)
    samples, done = [], threading.Event()
    cluster = start_cluster()
    start = time.monotonic()

    def sampler():
        while not done.wait(args.every if samples else 30):
            row = {"minute": round((time.monotonic() - start) / 60, 1), **sample(out)}
            samples.append(row)
            print(row, file=sys.stderr, flush=True)

    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    try:
        knightgym.training.train(
            args.game,
            out,
            minutes=args.minutes,
            settings=SETTINGS,
            ray_address=cluster.address,
            actors=2,
            verbose=False,
        )
    finally:
        done.set()
        thread.join()
        cluster.shutdown()
    with open(os.path.join(args.out, "memory.csv"), "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(samples[0]))
        writer.writeheader()
        writer.writerows(samples)
    print(
        f"Machine: {platform.node()}, {os.cpu_count()} CPUs; {args.game}, its training defaults "
        f"with {SETTINGS}, 2 actors, {args.minutes} min; RSS in MiB.\n"
    )
    columns = {
        "minute": "minute",
        "learner process": "learner_mib",
        "each actor": "actors_mib",
        "raylets + GCS": "ray_mib",
        "object store": "plasma_mib",
        "step": "step",
        "decisions": "decisions",
        "replay window": "replay",
    }
    rows = [[row[key] for key in columns.values()] for row in samples]
    print(markdown.table(list(columns), rows))


def model(args):
    """Self-play positions/s over N nodes of `cores` cores: the actors' supply (one per
    core but the learner's, each `actor_rate`) against what the learner takes
    (`learner_samples` per second / `ratio` samples per position), whichever is less."""
    take = args.learner_samples / args.ratio
    print(
        f"Per actor {args.actor_rate:,.0f} positions/s; learner {args.learner_samples:,.0f} "
        f"samples/s at ratio {args.ratio:g}: it takes {take:,.0f} positions/s; "
        f"{args.cores} cores a node, {args.learner_cores} of them the learner's.\n"
    )
    names = [
        "nodes",
        "actors",
        "actors' positions/s",
        "learner takes",
        "positions/s",
        "bound",
        "ratio that keeps every actor",
    ]
    rows = []
    for nodes in args.nodes:
        actors = nodes * args.cores - args.learner_cores
        supply = actors * args.actor_rate
        rows.append(
            [
                nodes,
                f"{actors:,}",
                f"{supply:,.0f}",
                f"{take:,.0f}",
                f"{min(supply, take):,.0f}",
                "actors" if supply <= take else "learner",
                f"{args.learner_samples / supply:.3g}",
            ]
        )
    print(markdown.table(names, rows))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["scaling", "learner", "memory", "model"])
    parser.add_argument("--game", help="scaling, learner, memory: the game (needed)")
    parser.add_argument("--learner-steps", type=int, default=400)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--actors", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--skip", type=float, default=60, help="seconds left out at the start of each scaling run"
    )
    parser.add_argument("--every", type=float, default=120, help="seconds between samples")
    parser.add_argument("--out", default="out/ray_training")
    parser.add_argument("--actor-rate", type=float, help="model: positions/s of one actor")
    parser.add_argument("--learner-samples", type=float, help="model: the learner's samples/s")
    parser.add_argument("--ratio", type=float, default=4, help="model: samples per position")
    parser.add_argument("--cores", type=int, default=16, help="model: cores per node")
    parser.add_argument(
        "--learner-cores",
        type=int,
        default=2,
        help="model: cores of the head node kept for the learner",
    )
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32, 64, 100])
    args = parser.parse_args()
    if args.what != "model" and args.game is None:
        parser.error(f"{args.what} needs --game GAME")
    os.makedirs(args.out, exist_ok=True)
    {"scaling": scaling, "learner": learner, "memory": memory, "model": model}[args.what](args)


if __name__ == "__main__":
    main()
