#!/usr/bin/python3
"""The runs behind docs/balance.md: every game at its default rules with MCTS at two
strengths, and the rule sweeps the report compares. Each run is one `knightgym balance`
into OUT/NAME (balance.json, balance.md, plots).

    tools/balance_report.py --build build --out out/balance --threads 2 [--only NAME ...]
"""

import argparse
import subprocess
import sys
import time
from pathlib import Path

WEAK, STRONG = "mcts:sims=16", "mcts:sims=64"
SPRT = "a0=0,a1=0.05,alpha=0.05,beta=0.05"
GAMES = ["knight_fight", "knightmate", "double_duel", "knights_challenge", "tailten"]

# name: (game, agents, [sweeps], sprt or None)
RUNS = {}
for game in GAMES:
    RUNS[f"{game}_weak"] = (game, WEAK, [], None)
    RUNS[f"{game}_strong"] = (game, STRONG, [], SPRT)
RUNS["double_duel_extensions"] = (
    "double_duel", WEAK,
    [f"{key}=false,true" for key in
     ("neighbor_attack", "switch_move", "single_pawn_blocks", "double_free_pawn_moves")], SPRT)
RUNS["knight_fight_erase_mirror"] = (
    "knight_fight", WEAK, ["double_erase=optional,forced,off", "mirror_on_moves=true,false"], None)
RUNS["knights_challenge_modes"] = (
    "knights_challenge", WEAK,
    ["mode=ffa4,ffa3,duel,alliance2,team4", "central_first=true,false"], SPRT)
RUNS["tailten_first_player"] = ("tailten", WEAK, ["first_player=0,1"], None)
RUNS["tailten_first_player_strong"] = ("tailten", STRONG, ["first_player=0,1"], SPRT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/balance")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--only", nargs="*", help="run only these names")
    args = parser.parse_args()
    names = args.only or list(RUNS)
    for name in names:
        game, agents, sweeps, sprt = RUNS[name]
        command = [str(Path(args.build) / "knightgym"), "balance", game, "--agents", agents,
                   "--games", str(args.games), "--threads", str(args.threads), "--seed", "1",
                   "--out", str(Path(args.out) / name)]
        for sweep in sweeps:
            command += ["--sweep", sweep]
        if sprt:
            command += ["--sprt", sprt]
        print("$", " ".join(command), flush=True)
        start = time.monotonic()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        print(f"{name}: {time.monotonic() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
