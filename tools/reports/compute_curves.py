#!/usr/bin/env python3
"""Draws each game's shipped networks' scores against the processor time behind them, one
panel per game and reference, from a table such as docs/strength/compute.csv (its header
says what each column holds): so anyone can see whether more computation still pays.

    tools/reports/compute_curves.py docs/strength/compute.csv docs/strength/compute.png
"""

import argparse
import csv
import math
import os
import sys
import tempfile
import textwrap

COLUMNS = [
    "game",
    "network",
    "time",
    "minutes",
    "gpu_minutes",
    "reference",
    "games",
    "score",
    "low",
    "high",
    "target",
    "continues",
]
MAX_BYTES = 1 << 20  # a table of a few hundred rows; anything larger is not one


class TableError(ValueError):
    pass


def read_table(path):
    """The rows of PATH as dicts with numbers parsed; TableError names the line and the
    problem."""
    if os.path.getsize(path) > MAX_BYTES:
        raise TableError(f"{path}: larger than {MAX_BYTES} bytes")
    with open(path, newline="", encoding="utf-8") as file:
        lines = [line for line in file if not line.startswith("#")]
    reader = csv.DictReader(lines)
    if reader.fieldnames != COLUMNS:
        raise TableError(f"{path}: the header must be {','.join(COLUMNS)}")
    rows = []
    for number, row in enumerate(reader, start=2):
        where = f"{path}: row {number - 1}"
        if None in row or None in row.values():
            raise TableError(f"{where}: {len(COLUMNS)} cells expected")
        if row["time"] not in ("cpu", "wall"):
            raise TableError(f"{where}: time must be cpu or wall, not {row['time']!r}")
        try:
            for key in ("minutes", "gpu_minutes", "score", "low", "high", "target"):
                row[key] = float(row[key])
            row["games"] = int(row["games"])
        except ValueError as error:
            raise TableError(f"{where}: {error}") from None
        if not all(math.isfinite(row[k]) for k in ("minutes", "gpu_minutes", "score")):
            raise TableError(f"{where}: numbers must be finite")
        if row["minutes"] <= 0 or row["gpu_minutes"] < 0 or row["games"] <= 0:
            raise TableError(f"{where}: minutes > 0, gpu_minutes >= 0 and games > 0 expected")
        if not 0 <= row["low"] <= row["score"] <= row["high"] <= 1:
            raise TableError(f"{where}: 0 <= low <= score <= high <= 1 expected")
        rows.append(row)
    for row in rows:
        # the network continued is drawn in the same panel: of the same game and reference
        if row["continues"] and not any(
            (other["game"], other["reference"], other["network"])
            == (row["game"], row["reference"], row["continues"])
            for other in rows
        ):
            raise TableError(f"{path}: {row['network']} continues {row['continues']!r}, no row")
    if not rows:
        raise TableError(f"{path}: no rows")
    return rows


def draw(rows, png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    # a panel per game and reference (a rule network's mean over its rule sets apart)
    panels = list(dict.fromkeys((row["game"], row["reference"]) for row in rows))
    columns = min(3, len(panels))
    lines = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(lines, columns, figsize=(5 * columns, 3.8 * lines), squeeze=False)
    for panel, (game, reference) in zip(axes.flat, panels):
        mine = [row for row in rows if (row["game"], row["reference"]) == (game, reference)]
        x = [row["minutes"] for row in mine]
        named = {row["network"]: row for row in mine}
        for row in mine:  # a run and the run that continues it, joined
            parent = named.get(row["continues"])
            if parent:
                panel.plot(
                    [parent["minutes"], row["minutes"]],
                    [parent["score"], row["score"]],
                    color="0.6",
                    linewidth=1,
                    zorder=1,
                )
        # by processor time, labels below and above in turn: close points' labels do not meet
        for turn, row in enumerate(sorted(mine, key=lambda row: row["minutes"])):
            filled = row["time"] == "cpu"
            panel.errorbar(
                row["minutes"],
                row["score"],
                yerr=[[row["score"] - row["low"]], [row["high"] - row["score"]]],
                fmt="o",
                color="C0",
                mfc="C0" if filled else "white",
                capsize=3,
                zorder=2,
            )
            label = row["network"]
            if row["gpu_minutes"] > 0:
                label += f" + {row['gpu_minutes']:g} GPU min"
            panel.annotate(
                label,
                (row["minutes"], row["score"]),
                textcoords="offset points",
                xytext=(5, -12 if turn % 2 == 0 else 6),
                fontsize=7,
            )
        panel.axhline(mine[0]["target"], color="C3", linestyle="--", linewidth=1)
        panel.set_xscale("log")
        panel.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
        panel.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        panel.set_xlim(min(x) / 1.6, max(x) * 2.5)
        panel.set_ylim(-0.04, 1)
        # Long references wrap rather than run into the next panel's title.
        panel.set_title(f"{game}\n" + textwrap.fill(f"against {reference}", 60), fontsize=9)
        panel.set_xlabel("minutes of processor (hollow: wall minutes, shared cores)", fontsize=8)
        panel.set_ylabel("score", fontsize=8)
    for panel in list(axes.flat)[len(panels) :]:
        panel.axis("off")
    figure.tight_layout()
    folder = os.path.dirname(os.path.abspath(png))
    handle, temporary = tempfile.mkstemp(dir=folder, suffix=".png")
    os.close(handle)
    try:
        figure.savefig(temporary, dpi=90)
        os.replace(temporary, png)
    except BaseException:
        os.unlink(temporary)
        raise
    plt.close(figure)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", help="the CSV (docs/strength/compute.csv)")
    parser.add_argument("png", help="the picture written")
    args = parser.parse_args(argv)
    try:
        rows = read_table(args.table)
    except (OSError, UnicodeDecodeError, TableError) as error:
        print(f"compute_curves: {error}", file=sys.stderr)
        return 1
    draw(rows, args.png)
    print(f"{args.png}: {len(rows)} points of {len({row['game'] for row in rows})} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
