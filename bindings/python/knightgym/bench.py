"""Steps/s of a vector env stepped from Python; rows for `knightgym bench`.

    python3 -m knightgym.bench --spec GAME --envs 1024 --threads 2 --steps 4000000 \
        --repeat 3
"""

import argparse
import statistics
import time

import knightgym


def steps_per_second(spec, envs, threads, steps):
    env = knightgym.make(spec, num_envs=envs, num_threads=threads, seed=1)
    env.reset()
    batches = max(1, steps // envs)
    start = time.perf_counter()
    for _ in range(batches):
        env.step(env.sample_actions())
    return batches * envs / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", required=True, help="the game, e.g. one of knightgym.games()")
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--steps", type=int, default=4_000_000)
    parser.add_argument("--repeat", type=int, default=3, help="report the median of this many")
    args = parser.parse_args()
    for threads in sorted({1, args.threads}):
        rate = statistics.median(
            steps_per_second(args.spec, args.envs, threads, args.steps) for _ in range(args.repeat)
        )
        print(
            f"| {'Python vector env, observation + mask':<44} | {threads:7d} | "
            f"{rate / 1e6:12.2f} M |",
            flush=True,
        )


if __name__ == "__main__":
    main()
