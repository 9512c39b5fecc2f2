#!/usr/bin/env python3
"""Ships a training run's network: models/NAME.pt and its entry in models/manifest.json.

    tools/release/ship_model.py NAME RUN_DIR [--machine TEXT] [--teacher TEXT]  # the run's network
    tools/release/ship_model.py NAME --strength TEXT              # the measured strength alone

The entry records the game the run trained (its canonical spec), the settings that differ
from the game's training defaults, and the training time, steps, games and decisions; a
run taught first (teacher=DIR) names its teacher and what its data took (--teacher) in
place of DIR, which is not shipped. The processor time behind the network, its teacher's
included, and the GPU minutes, where given (--cpu-minutes, --gpu-minutes), and the
generations of expert iteration behind it (--generations) are recorded too. A run
started from the shipped network (init=pretrained) continues its entry: the totals add
up. Shipping a new network drops
the old strength, which no longer holds; measure it again and give it with --strength. A
run over many rule sets (rules=) ships with its rules, every rule set of which the
network then plays as az:model=pretrained.
Every file is written whole or not at all.
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


def read_manifest(build):
    """{name: {key: value}} in the file's order, read by knightgym's own reader
    (agents/pretrained.h), which refuses a malformed manifest naming its line."""
    sys.path.insert(0, str(build / "python"))
    from knightgym import agents

    if not any((ROOT / "models" / name).exists() for name in ("manifest.json", "manifest.txt")):
        return {}
    agents.set_models_directory(str(ROOT / "models"))
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


def last_metrics(run):
    with open(run / "metrics.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{run}/metrics.csv has no rows")
    return rows[-1]


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
    model = (run / "model.pt").read_bytes()
    if len(model) > MAX_BYTES:
        sys.exit(
            f"{run}/model.pt has {len(model)} bytes; a shipped network has at most {MAX_BYTES}"
        )

    row = last_metrics(run)
    totals = {
        "minutes": float(row["seconds"]) / 60,
        "steps": int(row["step"]),
        "games": int(row["games"]),
        "decisions": int(row["decisions"]),
    }
    earlier = models.get(args.name, {})
    continued = settings.get("init") == "pretrained" and earlier.get("game") == game
    sessions = 1
    if continued:
        for key in totals:
            totals[key] += type(totals[key])(earlier[key])
        sessions += int(earlier.get("sessions", 1))
    compute = {
        key: value
        for key, value in [
            ("cpu_minutes", args.cpu_minutes),
            ("gpu_minutes", args.gpu_minutes),
            ("generations", args.generations),
        ]
        if value is not None
    }
    if continued:
        for key in compute:
            compute[key] += type(compute[key])(earlier.get(key, 0))
    write_atomically(ROOT / "models" / f"{args.name}.pt", model)
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
    parser.add_argument("--generations", type=int, help="generations of expert iteration")
    parser.add_argument(
        "--build",
        default=str(ROOT / "build"),
        help="the build whose knightgym program and module are used",
    )
    args = parser.parse_args()
    if (args.run is None) == (args.strength is None):
        parser.error("give RUN_DIR or --strength")
    args.cli = str(Path(args.build) / "knightgym")
    path = ROOT / "models" / "manifest.json"
    models = read_manifest(Path(args.build))
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
