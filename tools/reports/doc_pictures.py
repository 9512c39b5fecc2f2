#!/usr/bin/env python3
"""The board pictures of the docs, drawn by knightgym.svg (docs/balance.md's come from
tools/reports/balance_report.py, from its recorded example games).

    PYTHONPATH=build/python .venv/bin/python tools/reports/doc_pictures.py rules
    PYTHONPATH=build/python .venv/bin/python tools/reports/doc_pictures.py training

`rules` draws each game's start (new_initial_state(seed=0)) into docs/rules/pictures/,
and the starts of the further specs its studies name (env/games/<game>/studies.json,
pictures.starts: Knights Challenge's in 3 and 2 players besides its default 4).
`training` plays one game of each shipped network (64 simulations a move) against the MCTS
of its strength measure (800 simulations, or its game's studies' pictures.opponent: 200
in Knights Challenge, whose games are long), `knightgym play --record` into
docs/training/games/NAME.jsonl unless that file is there already, draws its final
position into docs/training/NAME_example_final.svg and prints the Markdown that shows them
(docs/training.md, "Example games").
"""

import argparse
import subprocess
import sys
from pathlib import Path

import knightgym
from knightgym import records, svg

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # tools/lib: studies
import studies  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NETWORK = "az:model=pretrained,sims=64"
OPPONENT = "mcts:sims=800"
# Each game's start, and those of the further specs its studies name.
RULE_PICTURES = {
    name: [name, *studies.get(name, "pictures.starts", [])] for name in knightgym.games()
}


def file_name(spec):
    return spec.replace("(", "_").replace(")", "").replace("=", "_").replace(",", "_")


def rules():
    folder = ROOT / "docs" / "rules" / "pictures"
    folder.mkdir(parents=True, exist_ok=True)
    for specs in RULE_PICTURES.values():
        for spec in specs:
            state = knightgym.load_game(spec).new_initial_state(seed=0)
            path = folder / f"{file_name(spec)}_start.svg"
            path.write_text(svg.draw(state))
            print(f"wrote {path.relative_to(ROOT)}")


def training(build):
    games = ROOT / "docs" / "training" / "games"
    games.mkdir(parents=True, exist_ok=True)
    for model in knightgym.agents.pretrained():
        name = model["name"]
        path = games / f"{name}.jsonl"
        mcts = studies.get(model["game"].split("(")[0], "pictures.opponent", OPPONENT)
        if not path.exists():
            subprocess.run(
                [
                    str(Path(build) / "knightgym"),
                    "play",
                    model["game"],
                    "--agents",
                    f"{NETWORK},{mcts}",
                    "--games",
                    "1",
                    "--seed",
                    "1",
                    "--record",
                    str(path),
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        example = records.read(path)[0]
        picture = ROOT / "docs" / "training" / f"{name}_example_final.svg"
        picture.write_text(svg.draw(example.final_state()))
        seats = ", ".join(
            f"seat {seat} {'the network' if agent.startswith('az:') else mcts}"
            for seat, agent in enumerate(example.agents)
        )
        returns = ", ".join(f"{r:+g}" for r in example.returns)
        print(f"**{name}** ({seats}): {len(example.moves)} moves, returns {returns}\n")
        print(
            f"![The final position of a game of the {name} network against {mcts}]"
            f"(training/{picture.name})\n"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["rules", "training"])
    parser.add_argument("--build", default=str(ROOT / "build"))
    args = parser.parse_args()
    if args.what == "rules":
        rules()
    else:
        training(args.build)
    return 0


if __name__ == "__main__":
    sys.exit(main())
