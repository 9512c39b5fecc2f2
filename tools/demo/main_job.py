#!/usr/bin/env python3
"""The main job (`make run`): a game's shipped network (models/) against `random` and
`mcts`, then a few minutes more of training from it, the result against `mcts` too, and
out/report.md with the training curves and the final position of an example game.

    tools/demo/main_job.py [--build build] [--out out] [--game GAME] [--recipe FILE] [--minutes 5]

GAME is by default the first game, in the registry's order, whose studies
(env/games/<game>/studies.json, tools/lib/studies.py) say `"main_job": true`: Knight Fight.
The training run starts from the shipped network (init=pretrained) with the settings it
was trained with, its recipe (by default env/games/GAME/recipes/GAME.txt). A previous run
in OUT/run is replaced. Progress shows on the terminal as it goes.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # tools/lib: studies
import studies  # noqa: E402


def run(command):
    print("$ " + " ".join(command), flush=True)
    subprocess.run(command, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out")
    parser.add_argument("--game", help="a game spec (default: the studies' main job)")
    parser.add_argument("--recipe", help="its training settings (env/games/GAME/recipes/GAME.txt)")
    parser.add_argument("--minutes", type=float, default=5)
    parser.add_argument("--games", type=int, default=100, help="games per match")
    parser.add_argument("--mcts", default="mcts:sims=200", help="the MCTS opponent")
    parser.add_argument(
        "--sims", type=int, default=200, help="simulations of the network agents (as many as MCTS)"
    )
    args = parser.parse_args()
    if args.game is None:
        chosen = studies.games("main_job", args.build)
        if not chosen:
            parser.error("no game's studies.json says main_job; name one with --game")
        args.game = chosen[0]
    name = args.game.split("(")[0]
    recipe = args.recipe or studies.recipe(name)

    start = time.monotonic()
    cli = os.path.join(args.build, "knightgym")
    run_dir = os.path.join(args.out, "run")
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)

    matches = []

    def play(agent, opponent, name):
        path = os.path.join(args.out, f"{name}.json")
        run(
            [
                cli,
                "play",
                args.game,
                "--agents",
                f"{agent},{opponent}",
                "--games",
                str(args.games),
                "--batch",
                str(args.games),
                "--json",
                path,
                "--record",
                os.path.join(args.out, f"{name}.jsonl"),
            ]
        )
        matches.append(path)

    shipped = f"az:model=pretrained,sims={args.sims}"
    play(shipped, "random", "shipped_vs_random")
    play(shipped, args.mcts, "shipped_vs_mcts")

    config = os.path.join(args.out, "run_config.txt")
    with open(recipe) as f:
        settings = f.read()
    with open(config, "w") as f:
        f.write(settings + "init=pretrained\n")
    run(
        [
            cli,
            "train",
            args.game,
            "--out",
            run_dir,
            "--minutes",
            str(args.minutes),
            "--config",
            config,
        ]
    )
    play(f"az:model={run_dir}/model.pt,sims={args.sims}", args.mcts, "trained_vs_mcts")

    sys.path.insert(0, os.path.join(args.build, "python"))
    from knightgym.training_report import write_report

    report = os.path.join(args.out, "report.md")
    write_report(run_dir, report, matches, example=os.path.join(args.out, "trained_vs_mcts.jsonl"))
    print(
        f"\nwrote {report} and {os.path.join(args.out, 'training.png')} "
        f"in {(time.monotonic() - start) / 60:.1f} minutes"
    )


if __name__ == "__main__":
    main()
