#!/usr/bin/env python3
"""Ships a training run's network: models/NAME.pt and its entry in models/manifest.json.

    tools/release/ship_model.py NAME RUN_DIR [--machine TEXT] [--teacher TEXT]  # the run's network
    tools/release/ship_model.py NAME RUN_DIR --best [--counted-to STEP]  # the gate's network
    tools/release/ship_model.py NAME RUN_DIR --snapshot SECONDS         # a snapshot of it
    tools/release/ship_model.py NAME --strength TEXT              # the measured strength alone

The entry records the game the run trained (its canonical spec), the settings that differ
from the game's training defaults, and the training time, steps, games and decisions; a
run taught first (teacher=DIR) names its teacher and what its data took (--teacher) in
place of DIR, which is not shipped. The processor time behind the network, its teacher's
included, and the GPU minutes, where given (--cpu-minutes, --gpu-minutes), and the
generations of expert iteration behind it (--generations) are recorded too. A run
started from the shipped network (init=pretrained, or a file of its bytes, as the
generations of knightgym iterate name their parent) continues its entry: the totals add
up; a run shipped before and shipped again from a later step says so (--counted-to STEP,
the step it was shipped at), so that the entry counts no step twice. The run's newest
network (model.pt) ships, or with --best the network its gate promoted last (best.pt),
with the run's totals at the step where it was promoted, or with --snapshot SECONDS the
one it kept after SECONDS of training (snapshots/), with the totals logged by then.
Shipping a new network drops the old strength, which no longer holds; measure it again
and give it with --strength. A run over many rule sets (rules=) ships with its rules,
every rule set of which the network then plays as az:model=pretrained.
Every file is written whole or not at all; --models DIR writes into DIR in place of
the checkout's models/.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ABOUT = (
    "The networks shipped with knightgym, one member of networks per network "
    "(agents/pretrained.h): az:model=pretrained plays the one that covers the game's "
    "canonical spec (its game, or a rule set of its rules), and the training setting "
    "init=pretrained starts from it. Written by "
    "tools/release/ship_model.py; the strength is measured as docs/strength.md says."
)
# Knightmate's 8 x 96 network (issue 45) is 5.8 MB.
MAX_BYTES = 8_000_000


def read_manifest(build, models_dir):
    """{name: {key: value}} in the file's order, read by knightgym's own reader
    (agents/pretrained.h), which refuses a malformed manifest naming its line."""
    sys.path.insert(0, str(build / "python"))
    from knightgym import agents

    if not (models_dir / "manifest.json").exists():
        return {}
    agents.set_models_directory(str(models_dir))
    try:
        entries = agents.pretrained()
    except ValueError as error:
        sys.exit(str(error))
    return {
        entry["name"]: {k: v for k, v in entry.items() if k not in ("name", "path")}
        for entry in entries
    }


def write_atomically(path, data):
    temporary = path.with_name(f"{path.name}.tmp{os.getpid()}")
    with open(temporary, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


def typed(value):
    """A field as JSON writes it: a number where the text is one, else the text."""
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def write_manifest(path, models):
    networks = {
        name: {key: typed(value) for key, value in fields.items()}
        for name, fields in models.items()
    }
    text = json.dumps({"about": ABOUT, "networks": networks}, indent=2, ensure_ascii=False)
    write_atomically(path, (text + "\n").encode())


def read_settings(lines):
    return dict(line.split("=", 1) for line in lines if "=" in line)


def metrics_rows(run):
    with open(run / "metrics.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{run}/metrics.csv has no rows")
    return rows


def totals_at(row):
    return {
        "minutes": float(row["seconds"]) / 60,
        "steps": int(row["step"]),
        "games": int(row["games"]),
        "decisions": int(row["decisions"]),
    }


def shipped_network(run, rows, best, snapshot):
    """The network to ship and the metrics row of the step it stands for: the newest
    (model.pt, the last row), the one the gate promoted last (best.pt, the first row of
    the last generation), or the snapshot taken after `snapshot` seconds of training
    (snapshots/seconds-NNNNNNN.pt, the last row logged by then)."""
    if snapshot is not None:
        network = run / "snapshots" / f"seconds-{snapshot:07d}.pt"
        if not network.is_file():
            sys.exit(f"{run} has no snapshot {network.name} (--snapshot names one in snapshots/)")
        logged = [row for row in rows if float(row["seconds"]) <= snapshot]
        if not logged:
            sys.exit(f"{run}/metrics.csv has no row by {snapshot} seconds")
        return network, logged[-1]
    if not best:
        return run / "model.pt", rows[-1]
    generation = rows[-1]["generation"]
    if int(generation) == 0:
        sys.exit(f"{run}: its gate never promoted a network; best.pt is the one it started from")
    return run / "best.pt", next(row for row in rows if row["generation"] == generation)


def row_at_step(run, rows, step):
    for row in rows:
        if int(row["step"]) == step:
            return row
    sys.exit(f"{run}/metrics.csv has no row at step {step} (--counted-to names a logged step)")


def starts_from_shipped(init, shipped):
    """Whether a run's `init` is the network shipped as `shipped` (models/NAME.pt):
    `pretrained`, or a file of the same bytes (knightgym iterate's generations name their
    parent's file)."""
    if init == "pretrained":
        return True
    if not init or not shipped.is_file():
        return False
    path = Path(init)
    if not path.is_absolute() and not path.exists():
        path = ROOT / init
    return path.is_file() and path.read_bytes() == shipped.read_bytes()


def same_setting(a, b):
    """Equal as written, or as numbers (1e-04 and 0.0001: builds print them apart)."""
    if a == b:
        return True
    try:
        return a is not None and float(a) == float(b)
    except ValueError:
        return False


def ship(args, models):
    run = Path(args.run)
    sys.path.insert(0, str(Path(args.build) / "python"))
    from knightgym.training import run_config

    game, settings = run_config(run)
    settings = {
        key: str(value).lower() if isinstance(value, bool) else str(value)
        for key, value in settings.items()
    }
    defaults = subprocess.run(
        [args.cli, "train", game, "--print-config"], check=True, capture_output=True, text=True
    ).stdout.splitlines()
    defaults = read_settings(line.split("#", 1)[0].strip() for line in defaults)
    changed = [
        f"{key}={value}"
        for key, value in settings.items()
        if not same_setting(defaults.get(key), value) and key not in ("init", "teacher", "rules")
    ]
    if settings.get("teacher") and not args.teacher:
        sys.exit(f"{run} learned from a teacher: say which and what its data took, --teacher TEXT")
    rows = metrics_rows(run)
    network, row = shipped_network(run, rows, args.best, args.snapshot)
    model = network.read_bytes()
    if len(model) > MAX_BYTES:
        sys.exit(f"{network} has {len(model)} bytes; a shipped network has at most {MAX_BYTES}")

    totals = totals_at(row)
    earlier = models.get(args.name, {})
    continued = (
        starts_from_shipped(settings.get("init"), args.models / f"{args.name}.pt")
        and earlier.get("game") == game
    )
    if args.counted_to is not None:
        if not continued:
            sys.exit(
                f"--counted-to: {run} does not continue the entry [{args.name}] "
                "(it must start from the shipped network of the same game: init=pretrained "
                "or its file)"
            )
        counted = totals_at(row_at_step(run, rows, args.counted_to))
        if counted["steps"] > totals["steps"]:
            sys.exit(f"--counted-to {args.counted_to} is after the step shipped, {totals['steps']}")
        totals = {key: totals[key] - counted[key] for key in totals}
    sessions = 1
    if continued:
        for key in totals:
            totals[key] += type(totals[key])(earlier[key])
        # The same run shipped again is the same session's chain, not one more link.
        sessions = int(earlier.get("sessions", 1)) + (args.counted_to is None)
    given = {
        "cpu_minutes": args.cpu_minutes,
        "gpu_minutes": args.gpu_minutes,
        "generations": args.generations,
    }
    # A continued entry keeps what it recorded and adds what is given.
    compute = {
        key: (value or 0) + (float(earlier.get(key, 0)) if continued else 0)
        for key, value in given.items()
        if value is not None or (continued and key in earlier)
    }
    write_atomically(args.models / f"{args.name}.pt", model)
    models[args.name] = {
        "file": f"{args.name}.pt",
        "game": game,
        **({"rules": settings["rules"]} if settings.get("rules") else {}),
        "settings": " ".join(changed) if changed else "the game's training defaults",
        "minutes": f"{totals['minutes']:.1f}",
        "steps": str(totals["steps"]),
        "games": str(totals["games"]),
        "decisions": str(totals["decisions"]),
        "sessions": str(sessions),
        "trained_on": args.machine,
        **{key: f"{value:g}" for key, value in compute.items()},
        "strength": "not measured yet",
    }
    teacher = args.teacher if settings.get("teacher") else continued and earlier.get("teacher")
    if teacher:  # a continued network keeps the teacher it started from
        models[args.name]["teacher"] = teacher


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name")
    parser.add_argument("run", nargs="?", help="the training run's directory")
    parser.add_argument("--strength", help="the measured strength, as docs/strength.md gives it")
    parser.add_argument("--machine", default="2-vCPU Debian 12 VM, no GPU, 1 LibTorch thread")
    parser.add_argument(
        "--teacher",
        help="the teacher of a run with teacher=DIR and the time "
        "its data took, e.g. 'mcts:sims=1600, 2,400 games, 7.9 minutes'",
    )
    parser.add_argument(
        "--cpu-minutes", type=float, help="processor minutes behind it, the teacher's included"
    )
    parser.add_argument("--gpu-minutes", type=float, help="GPU minutes behind it")
    parser.add_argument(
        "--best", action="store_true", help="ship the network the run's gate promoted last"
    )
    parser.add_argument(
        "--snapshot",
        type=int,
        metavar="SECONDS",
        help="ship the run's snapshot after SECONDS of training (snapshots/seconds-SECONDS.pt)",
    )
    parser.add_argument(
        "--counted-to",
        type=int,
        metavar="STEP",
        help="the entry already counts this run to STEP, where it was shipped before",
    )
    parser.add_argument(
        "--models", type=Path, default=ROOT / "models", help="the folder written (models/)"
    )
    parser.add_argument("--generations", type=int, help="generations of expert iteration")
    parser.add_argument(
        "--build",
        default=str(ROOT / "build"),
        help="the build whose knightgym program and module are used",
    )
    args = parser.parse_args()
    if (args.run is None) == (args.strength is None):
        parser.error("give RUN_DIR or --strength")
    if args.run is None and (args.best or args.snapshot is not None or args.counted_to is not None):
        parser.error("--best, --snapshot and --counted-to ship a run: give RUN_DIR")
    if args.best and args.snapshot is not None:
        parser.error("--best and --snapshot name different networks: give one")
    args.cli = str(Path(args.build) / "knightgym")
    path = args.models / "manifest.json"
    models = read_manifest(Path(args.build), args.models)
    if args.run:
        ship(args, models)
    elif args.name not in models:
        sys.exit(f"{path} has no [{args.name}]")
    else:
        models[args.name]["strength"] = args.strength
    write_manifest(path, models)
    print(f"{path}: [{args.name}] " + ", ".join(f"{k} = {v}" for k, v in models[args.name].items()))


if __name__ == "__main__":
    main()
