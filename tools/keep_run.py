#!/usr/bin/env python3
"""Copies what a training run needs to go on, on any machine, out of its directory: its
settings (config.json), the newest checkpoint with its replay sample (weights, the
optimizer's moments, the counters, the newest kept_replay decisions of the replay
window), the networks (model.pt, best.pt) and metrics.csv; a few MB, to commit where the
next session finds it (docs/training.md, "A run on another machine").

    tools/keep_run.py RUN DEST       # then: knightgym train GAME --out DEST --resume

DEST is replaced whole, or left as it was if anything is missing from RUN.
"""

import argparse
import os
import shutil
import sys
import tempfile

FILES = ["model.pt", "best.pt", "metrics.csv"]


def settings_file(run):
    """config.json, or the config.txt of a run of an earlier version."""
    if os.path.isfile(os.path.join(run, "config.json")):
        return "config.json"
    return "config.txt" if os.path.isfile(os.path.join(run, "config.txt")) else "config.json"


def newest_checkpoint(run):
    folder = os.path.join(run, "checkpoints")
    names = sorted(
        name for name in os.listdir(folder) if name.startswith("step-") and name.endswith(".ckpt")
    )
    if not names:
        raise FileNotFoundError(f"{folder} holds no checkpoint")
    return os.path.join("checkpoints", names[-1])


def keep(run, dest):
    checkpoint = newest_checkpoint(run)
    wanted = [settings_file(run)] + FILES + [checkpoint]
    replay = checkpoint[: -len(".ckpt")] + ".replay"
    if os.path.isfile(os.path.join(run, replay)):
        wanted.append(replay)
    missing = [name for name in wanted if not os.path.isfile(os.path.join(run, name))]
    if missing:
        raise FileNotFoundError(f"{run} lacks {', '.join(missing)}")
    parent = os.path.dirname(os.path.abspath(dest))
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(dir=parent, prefix=os.path.basename(dest) + ".tmp")
    os.chmod(staging, 0o755)  # mkdtemp's is the owner's alone
    try:
        os.makedirs(os.path.join(staging, "checkpoints"))
        for name in wanted:
            shutil.copy2(os.path.join(run, name), os.path.join(staging, name))
        if os.path.exists(dest):
            shutil.rmtree(dest)
        os.replace(staging, dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return sum(os.path.getsize(os.path.join(dest, name)) for name in wanted)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", help="the run's directory (knightgym train --out)")
    parser.add_argument("dest", help="where its kept state goes (replaced)")
    args = parser.parse_args(argv)
    try:
        size = keep(args.run, args.dest)
    except (OSError, FileNotFoundError) as error:
        print(f"keep_run: {error}", file=sys.stderr)
        return 1
    print(f"{args.dest}: {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
