#!/usr/bin/env python3
"""The table of a teacher comparison (tools/lib/compare_arms.sh) for docs/training.md.

    PYTHONPATH=build/python .venv/bin/python tools/lib/compare_arms_report.py OUT [LADDER]

One row per run: its arm and seed, its processor minutes (RUN.cpu: user and system time of
every session, the teacher's data included), its optimizer steps and self-play games, its
Elo on the comparison's ladder (OUT/ladder.json, or LADDER: a merge of the APART ladders
with the field's round robin; random 0) and its score against mcts:sims=800; then each
arm's mean Elo.
"""

import csv
import json
import sys
from pathlib import Path

from knightgym.markdown import table


def processor_minutes(run):
    seconds = 0.0
    for line in Path(f"{run}.cpu").read_text().splitlines():
        user, system = line.split()[-2:]
        seconds += float(user) + float(system)
    return seconds / 60


def last_row(run):
    with open(Path(run) / "metrics.csv", newline="") as f:
        return list(csv.DictReader(f))[-1]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    out = Path(sys.argv[1])
    ladder = json.loads(
        Path(sys.argv[2] if len(sys.argv) == 3 else out / "ladder.json").read_text()
    )
    elo = {rating["name"]: rating for rating in ladder["ratings"]}
    rows, arms = [], {}
    for settings in sorted(out.glob("*-seed[0-9].txt")):
        run = settings.with_suffix("")
        arm, seed = run.name.rsplit("-seed", 1)
        row = last_row(run)
        rating = elo[f"az:model={run}/model.pt,sims=64"]
        target = json.loads(Path(f"{run}-target.json").read_text())["agents"][0]
        arms.setdefault(arm, []).append(rating["elo"])
        rows.append(
            [
                arm,
                seed,
                f"{processor_minutes(run):.1f}",
                row["step"],
                row["games"],
                f"{rating['elo']:.0f} ± {rating['half_width']:.0f}",
                f"{100 * target['score']:.1f}% ± {100 * target['half_width']:.1f}% "
                f"({target['wins']}-{target['draws']}-{target['losses']})",
            ]
        )
    names = [
        "arm",
        "seed",
        "CPU minutes",
        "steps",
        "self-play games",
        "Elo (95%)",
        "vs mcts:sims=800",
    ]
    print(table(names, rows, align="lrrrrrr"))
    print()
    for arm, ratings in arms.items():
        print(f"- {arm}: mean Elo {sum(ratings) / len(ratings):.0f}")
    fixed = sorted(
        (r for r in ladder["ratings"] if not r["name"].startswith("az:")), key=lambda r: r["elo"]
    )
    print("- fixed agents: " + ", ".join(f"`{r['name']}` {r['elo']:.0f}" for r in fixed))


if __name__ == "__main__":
    main()
