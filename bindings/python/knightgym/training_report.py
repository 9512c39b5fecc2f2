"""Reports on training runs: curves from a run's metrics.csv, and a Markdown summary.

    python -m knightgym.training_report RUN_DIR [--out REPORT.md] [--match FILE.json ...]

writes RUN_DIR/training.png and a report with the run's settings, its last metrics and
the matches given (JSON files from `knightgym play --json`).
"""

import argparse
import csv
import json
import os
import statistics

from knightgym._optional import extra

with extra("plot", __name__):
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

from knightgym import _result_files as result_files  # noqa: E402
from knightgym._outputs import save_figure, write_text  # noqa: E402
from knightgym._specs import agent_label, agent_params  # noqa: E402
from knightgym.markdown import table  # noqa: E402
from knightgym.training import run_config  # noqa: E402


def _cell(text):
    """A metrics cell: None if empty, a list of floats for one per actor
    (actor_pos_per_s, ';' between them), else a float."""
    if text == "":
        return None
    if ";" in text:
        return [float(x) for x in text.split(";")]
    return float(text)


def read_metrics(path):
    """metrics.csv as {column: [float, list of floats or None]}, in row order;
    actor_pos_per_s is always a list, one value per actor."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    columns = rows[0].keys() if rows else []
    metrics = {c: [_cell(r[c] or "") for r in rows] for c in columns}
    if "actor_pos_per_s" in metrics:
        metrics["actor_pos_per_s"] = [
            v if isinstance(v, list) or v is None else [v] for v in metrics["actor_pos_per_s"]
        ]
    return metrics


def plot_training(metrics, png_path, title, matches=()):
    """Losses, policy entropy and match scores against training minutes; ``matches``
    ((minutes, label, score, half-width), as _match_points gives them) are drawn on the
    scores with their 95% intervals: the network the run started from at minute 0, the
    trained one at its last minute."""
    minutes = [s / 60 for s in metrics["seconds"]]
    fig, (losses, scores) = plt.subplots(1, 2, figsize=(11, 4))
    for column, label in (
        ("policy_loss", "policy loss"),
        ("value_loss", "value loss"),
        ("entropy", "policy entropy"),
    ):
        points = [(m, v) for m, v in zip(minutes, metrics[column]) if v is not None]
        if points:
            losses.plot(*zip(*points), label=label)
    losses.set_xlabel("minutes")
    losses.set_title("learner")
    losses.legend()
    for column in metrics:
        if not column.startswith("score_vs_"):
            continue
        points = [(m, v) for m, v in zip(minutes, metrics[column]) if v is not None]
        if points:
            scores.plot(*zip(*points), marker="o", label=column[len("score_vs_") :])
    for label in dict.fromkeys(label for _, label, _, _ in matches):
        mine = [(m, s, h) for m, name, s, h in matches if name == label]
        x, y, half = zip(*mine)
        scores.errorbar(x, y, yerr=half, marker="s", capsize=4, label=label)
    scores.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    scores.set_ylim(0, 1)
    scores.set_xlabel("minutes")
    scores.set_title("score of the trained agent")
    scores.legend()
    fig.suptitle(title)
    fig.tight_layout()
    save_figure(fig, png_path, dpi=100)
    plt.close(fig)


def _last(values):
    present = [v for v in values if v is not None]
    return present[-1] if present else None


def _median(values):
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else float("nan")


def _agent(spec):
    """A short name: the kind and budget, and for a network agent its model file."""
    kind, items = agent_params(spec)
    if kind == "az":
        return f"az ({os.path.basename(items.get('model', '?'))}, {items.get('sims', '?')} sims)"
    return agent_label(spec)


def write_report(run_dir, report_path, matches=(), example=None):
    """Writes the Markdown report (and the plot beside the run); returns its text. With
    ``example``, a game records file (knightgym play --record), the final position of its
    first game is drawn beside the report (example_final.svg) and shown."""
    metrics = read_metrics(os.path.join(run_dir, "metrics.csv"))
    game, settings = run_config(run_dir)
    png = os.path.join(os.path.dirname(os.path.abspath(report_path)), "training.png")
    plot_training(metrics, png, game, _match_points(run_dir, metrics, matches))

    lines = [f"# Training report: {game}", ""]
    if metrics["step"]:
        lines += [
            f"- {int(metrics['step'][-1])} optimizer steps, {int(metrics['samples'][-1])} "
            f"samples, {int(metrics['games'][-1])} self-play games "
            f"({int(metrics['decisions'][-1])} decisions) in {metrics['seconds'][-1] / 60:.1f} "
            "minutes",
            f"- self-play: {_median(metrics['selfplay_pos_per_s']):.0f} positions/s, "
            f"{_median(metrics['evaluations_per_s']):.0f} network evaluations/s (median over "
            "the run's periods)",
        ]
        actors = [v for v in metrics.get("actor_pos_per_s", []) if v]
        if actors and len(actors[-1]) > 1:  # self-play on a cluster's actors
            each = [
                _median([row[a] for row in actors if len(row) > a]) for a in range(len(actors[-1]))
            ]
            staleness = [v for v in metrics["staleness"] if v is not None]
            lines.append(
                f"- {len(each)} self-play actors, each {min(each):.0f} to {max(each):.0f} "
                f"positions/s; the learner {_median(metrics['learner_steps_per_s']):.2f} "
                f"optimizer steps/s; positions played by weights "
                f"{_median(staleness) if staleness else 0:.1f} steps old (median)"
            )
        if _last(metrics["policy_loss"]) is not None:  # none before the first optimizer step
            lines.append(
                f"- last losses: policy {_last(metrics['policy_loss']):.3f}, value "
                f"{_last(metrics['value_loss']):.3f}; policy entropy "
                f"{_last(metrics['entropy']):.3f}"
            )
        lines.append("")
    lines += ["![training curves](training.png)", ""]
    if matches:
        rows = []
        for path in matches:
            match = result_files.load(path)
            first, second = match["agents"][0], match["agents"][1]
            rows.append(
                [
                    _agent(first["spec"]),
                    _agent(second["spec"]),
                    first["games"],
                    first["wins"],
                    first["draws"],
                    first["losses"],
                    f"{100 * first['score']:.1f}% ± {100 * first['half_width']:.1f}%",
                ]
            )
        names = ["agent", "opponent", "games", "wins", "draws", "losses", "score (95%)"]
        lines += ["## Matches", "", table(names, rows), ""]
    if example:
        lines += _example_game(example, os.path.dirname(os.path.abspath(report_path)))
    lines += ["## Settings", "", "```json", json.dumps(settings, indent=1), "```", ""]
    text = "\n".join(lines)
    write_text(report_path, text)
    return text


def _match_points(run_dir, metrics, matches):
    """(minutes, label, score, half-width) of each match's first agent: at the run's last
    minute if it plays the run's network, else at 0 (the network the run started from)."""
    last = metrics["seconds"][-1] / 60 if metrics["seconds"] else 0
    run = os.path.realpath(run_dir)
    points = []
    for path in matches:
        match = result_files.load(path)
        first, second = match["agents"][0], match["agents"][1]
        model = agent_params(first["spec"])[1].get("model", "")
        trained = os.path.dirname(os.path.realpath(model)) == run if "/" in model else False
        label = f"match vs {_agent(second['spec'])}"
        points.append((last if trained else 0, label, first["score"], first["half_width"]))
    return points


def _example_game(records_path, folder):
    from knightgym import records, svg

    game = records.read(records_path)[0]
    write_text(os.path.join(folder, "example_final.svg"), svg.draw(game.final_state()))
    returns = ", ".join(f"{r:+g}" for r in game.returns)
    return [
        "## An example game",
        "",
        f"{' vs '.join(_agent(a) for a in game.agents)}: {len(game.moves)} moves, returns "
        f"{returns} (replay it: `knightgym view {records_path}`).",
        "",
        "![the final position](example_final.svg)",
        "",
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir")
    parser.add_argument("--out", default=None, help="report path (default RUN_DIR/report.md)")
    parser.add_argument("--match", action="append", default=[], help="knightgym play --json file")
    parser.add_argument("--example", help="knightgym play --record file: its first game is drawn")
    args = parser.parse_args(argv)
    out = args.out or os.path.join(args.run_dir, "report.md")
    write_report(args.run_dir, out, args.match, args.example)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
