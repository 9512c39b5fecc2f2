"""The results of `knightgym play` (its --json file) as Markdown.

    python -m knightgym.play report RESULT.json

Each agent's score over its seats with the 95% interval, first places where more than
two play, draws, truncations and game lengths, and the agents' full specs.
"""

import sys

from knightgym import _result_files as result_files
from knightgym.markdown import table

__all__ = ["markdown"]


def markdown(result):
    """A play result (a dict, or the path of its JSON file) as Markdown."""
    if not isinstance(result, dict):
        result = result_files.load(result)
    agents = result["agents"]
    lines = [
        f"`{result['game']}`, {result['games']} games, seed {result['seed']}",
        "",
        table(
            ["agent", "games", "wins", "draws", "losses", "score (95%)"],
            [
                [
                    f"`{a['name']}`",
                    a["games"],
                    a["wins"],
                    a["draws"],
                    a["losses"],
                    f"{100 * a['score']:.1f}% ± {100 * a['half_width']:.1f}%",
                ]
                for a in agents
            ],
            align="lrrrrr",
        ),
    ]
    if result["players"] > 2:
        names = [
            "agent",
            "first places (a seat with the highest return, shared or not)",
            "share (Wilson 95%)",
        ]
        firsts = [
            [
                f"`{a['name']}`",
                f"{a['firsts']} of {a['games']}",
                f"{100 * a['firsts'] / max(1, a['games']):.1f}% "
                f"({100 * a['firsts_low']:.1f}% to {100 * a['firsts_high']:.1f}%)",
            ]
            for a in agents
        ]
        lines += ["", table(names, firsts, align="lrr")]
    lines += [
        "",
        f"drawn games {result['draws']} (truncated {result['truncated']}), "
        f"{result['mean_length']:.1f} decisions per game",
        "",
        "agents in full:",
        "",
    ]
    lines += [f"- `{a['spec']}`" for a in agents]
    if result["records"]:
        lines += ["", f"wrote the {result['games']} games to {result['records']}"]
    return "\n".join(lines) + "\n"


def _main(argv):
    if len(argv) != 2 or argv[0] != "report":
        print("usage: python -m knightgym.play report RESULT.json", file=sys.stderr)
        return 2
    return result_files.report(
        "python -m knightgym.play report", "a play result", argv[1:], markdown
    )


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
