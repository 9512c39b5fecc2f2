#!/usr/bin/env python3
"""The strength of a network on every rule set of a sweep, as a Markdown table for
docs/strength.md, from `knightgym balance` runs whose first agent is the network and
whose other seats its opponent holds:

    knightgym balance GAME --sweep ... --agents NET,OPPONENT --games 100 --out RUN
    PYTHONPATH=build/python .venv/bin/python tools/reports/rule_strength.py RUN \
        [--beside OTHER_RUN] [--target 0.75]

RUN is a run's folder or its balance.json.

A row per rule set (the first named by its values, the others by those that differ from
the first's): the network's games, wins, draws and losses, its score (wins and half
the draws, over its games) with the run's 95% interval, whether the score reaches the
target, and beside it the score of another run of the same grid (the network it replaces,
say). The last row counts the rule sets that reach the target.
"""

import argparse
import json
import sys
from pathlib import Path

from knightgym import markdown


def read_run(path):
    file = Path(path) if Path(path).is_file() else Path(path) / "balance.json"
    try:
        run = json.loads(file.read_text())
        return {
            rules["spec"]: (rules["label"], rules.get("values", {}), rules["agents"][0])
            for rules in run["rule_sets"]
        }
    except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
        sys.exit(f"{file}: not a finished balance run ({error})")


def score(agent):
    low, high = 100 * agent["score_low"], 100 * agent["score_high"]
    return f"{100 * agent['score']:.1f}% ({low:.1f}, {high:.1f})"


def table(run, beside=None, target=0.75):
    names = ["rule set", "games", "W-D-L", "score (95%)", f"≥ {100 * target:g}%"]
    align = "lrllc"
    if beside is not None:
        names.append("beside (95%)")
        align += "l"
    rows = []
    met = 0
    first = None  # the first rule set's values: the others are named by how they differ
    for spec, (label, values, agent) in run.items():
        if first is None:
            first = values
        else:
            label = ", ".join(f"{k}={v}" for k, v in values.items() if first.get(k) != v)
        reached = agent["score"] >= target
        met += reached
        row = [
            label or "the base rules",
            agent["games"],
            f"{agent['wins']}-{agent['draws']}-{agent['losses']}",
            score(agent),
            "yes" if reached else "no",
        ]
        if beside is not None:
            other = beside.get(spec)
            row.append(score(other[-1]) if other else "-")
        rows.append(row)
    return (
        markdown.table(names, rows, align)
        + f"\n\n{met} of {len(run)} rule sets reach {100 * target:g}%."
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="a balance run's folder, the network its first agent")
    parser.add_argument("--beside", help="another run of the same grid, its score beside")
    parser.add_argument("--target", type=float, default=0.75, help="the score to reach")
    args = parser.parse_args()
    beside = read_run(args.beside) if args.beside else None
    print(table(read_run(args.run), beside, args.target))


if __name__ == "__main__":
    main()
