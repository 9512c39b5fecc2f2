#!/usr/bin/python3
"""The runs behind docs/balance.md: every game at its default rules with MCTS at three
strengths, and the rule sweeps the report compares. Each run is one `knightgym balance`
into OUT/NAME (balance.json, balance.md, plots).

    tools/balance_report.py --build build --out out/balance --threads 2 [--only NAME ...]
    tools/balance_report.py --out out/balance --summarize docs/balance   # the tables
"""

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

WEAK, MEDIUM, STRONG = "mcts:sims=16", "mcts:sims=64", "mcts:sims=256"
SPRT = "a0=0,a1=0.05,alpha=0.05,beta=0.05"
GAMES = ["knight_fight", "knightmate", "double_duel", "knights_challenge", "tailten"]

# name: (game, agents, [sweeps], sprt or None). The default rules at 16 and 256
# simulations play every game; at 64 the sequential test decides.
RUNS = {}
for game in GAMES:
    RUNS[f"{game}_weak"] = (game, WEAK, [], None)
    RUNS[f"{game}_medium"] = (game, MEDIUM, [], SPRT)
    RUNS[f"{game}_strong"] = (game, STRONG, [], None)
DD_EXTENSIONS = [f"{key}=false,true" for key in
                 ("neighbor_attack", "switch_move", "single_pawn_blocks", "double_free_pawn_moves")]
RUNS["double_duel_extensions"] = ("double_duel", WEAK, DD_EXTENSIONS, SPRT)
RUNS["double_duel_extensions_full"] = ("double_duel", WEAK, DD_EXTENSIONS, None)
RUNS["double_duel_extensions_strong"] = ("double_duel", STRONG, DD_EXTENSIONS, None)
KF_SWEEPS = ["double_erase=optional,forced,off", "mirror_on_moves=true,false"]
RUNS["knight_fight_erase_mirror"] = ("knight_fight", WEAK, KF_SWEEPS, None)
RUNS["knight_fight_erase_mirror_strong"] = ("knight_fight", STRONG, KF_SWEEPS, None)
RUNS["knights_challenge_modes"] = (
    "knights_challenge", WEAK,
    ["mode=ffa4,ffa3,duel,alliance2,team4", "central_first=true,false"], SPRT)
RUNS["tailten_first_player"] = ("tailten", WEAK, ["first_player=0,1"], None)
RUNS["tailten_first_player_strong"] = ("tailten", STRONG, ["first_player=0,1"], None)


def load(out, name):
    return json.loads((Path(out) / name / "balance.json").read_text())


def interval(figure, scale=1.0, digits=3):
    return (f"{figure['mean'] * scale:+.{digits}f} "
            f"({figure['low'] * scale:+.{digits}f}, {figure['high'] * scale:+.{digits}f})")


def seat_wins(rule_set):
    return " / ".join(f"{100 * s['win_rate']:.1f}" for s in rule_set["seats"])


def sprt_cell(rule_set):
    sprt = rule_set["sprt"]
    return "-" if sprt is None else f"{sprt['decision']} at {sprt['games']}"


def summarize(out, docs):
    """The report's tables (Markdown on stdout) and its summary plot in docs/."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    print("| game | MCTS simulations | games | seat win rates % | draws % "
          "| first-seat advantage (95%) | balance | decisions per game | sequential test |")
    print("|---|---|---|---|---|---|---|---|---|")
    figure, axes = plt.subplots(figsize=(7, 3.6))
    for g, game in enumerate(GAMES):
        for k, (level, sims) in enumerate((("weak", 16), ("medium", 64), ("strong", 256))):
            result = load(out, f"{game}_{level}")
            r = result["rule_sets"][0]
            a = r["first_seat_advantage"]
            print(f"| {game} | {sims} | {r['games']} | {seat_wins(r)} | "
                  f"{100 * r['seats'][0]['draw_rate']:.1f} | {interval(a)} | {r['balance']:.3f} | "
                  f"{r['length']['mean']:.1f} | {sprt_cell(r)} |")
            axes.errorbar(g + (k - 1) * 0.22, a["mean"],
                          yerr=[[a["mean"] - a["low"]], [a["high"] - a["mean"]]], fmt="o",
                          color=f"C{k}", capsize=3,
                          label=f"{sims} simulations" if g == 0 else None)
    axes.axhline(0, color="gray", linewidth=0.8)
    axes.set_xticks(range(len(GAMES)))
    axes.set_xticklabels(GAMES, fontsize=8)
    axes.set_ylabel("first seat's advantage (95%)")
    axes.set_title("Default rules, MCTS against itself", fontsize=9)
    axes.legend(fontsize=8)
    figure.tight_layout()
    Path(docs).mkdir(parents=True, exist_ok=True)
    figure.savefig(Path(docs) / "default_rules.png", dpi=110)
    plt.close(figure)

    # The sweeps: rule sets side by side at two strengths (or with the sequential test).
    def side_by_side(title, names, keys, extra=None):
        results = [load(out, name) for name in names]
        columns = []
        for result in results:
            agent = result["agents"][0].split(",")[0]
            columns += [f"{agent}: advantage (95%)", "balance", "games", "length"]
        print(f"\n{title}\n")
        print("| " + " | ".join(keys + columns) + " |")
        print("|" + "---|" * (len(keys) + len(columns)))
        for i, first in enumerate(results[0]["rule_sets"]):
            cells = [first["values"][key] for key in keys]
            for result in results:
                r = result["rule_sets"][i]
                versus = r["vs_first"]
                mark = " *" if versus and versus["significant"] else ""
                fairest = "**" if i == result["fairest"] else ""
                games = str(r["games"]) + (f" ({r['sprt']['decision']})" if r["sprt"] else "")
                cells += [interval(r["first_seat_advantage"]) + mark,
                          f"{fairest}{r['balance']:.3f}{fairest}", games,
                          f"{r['length']['mean']:.0f}"]
            print("| " + " | ".join(cells) + " |")

    side_by_side("Double-Duel extensions",
                 ["double_duel_extensions_full", "double_duel_extensions_strong",
                  "double_duel_extensions"],
                 ["neighbor_attack", "switch_move", "single_pawn_blocks", "double_free_pawn_moves"])
    side_by_side("Knight Fight", ["knight_fight_erase_mirror", "knight_fight_erase_mirror_strong"],
                 ["double_erase", "mirror_on_moves"])
    side_by_side("Tailten", ["tailten_first_player", "tailten_first_player_strong"],
                 ["first_player"])

    result = load(out, "knights_challenge_modes")
    print("\nKnights Challenge modes\n")
    print("| mode | central_first | players | games | seat win rates % | draws % "
          "| first-seat advantage (95%) | balance | sequential test | length |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(result["rule_sets"]):
        mark = " *" if r["vs_first"] and r["vs_first"]["significant"] else ""
        fairest = "**" if i == result["fairest"] else ""
        print(f"| {r['values']['mode']} | {r['values']['central_first']} | {r['players']} | "
              f"{r['games']} | {seat_wins(r)} | {100 * r['seats'][0]['draw_rate']:.1f} | "
              f"{interval(r['first_seat_advantage'])}{mark} | "
              f"{fairest}{r['balance']:.3f}{fairest} | "
              f"{sprt_cell(r)} | {r['length']['mean']:.0f} |")

    for name in ("double_duel_extensions_full", "double_duel_extensions_strong",
                 "knight_fight_erase_mirror", "knight_fight_erase_mirror_strong",
                 "knights_challenge_modes", "tailten_first_player", "tailten_first_player_strong"):
        shutil.copyfile(Path(out) / name / "first_seat_advantage.png",
                        Path(docs) / f"{name}_advantage.png")
    shutil.copyfile(Path(out) / "knights_challenge_modes" / "seat_win_rates.png",
                    Path(docs) / "knights_challenge_modes_seats.png")
    shutil.copyfile(Path(out) / "knight_fight_erase_mirror" / "game_lengths.png",
                    Path(docs) / "knight_fight_erase_mirror_lengths.png")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/balance")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--only", nargs="*", help="run only these names")
    parser.add_argument("--summarize", metavar="DOCS",
                        help="run nothing: print the report's tables from OUT, plots into DOCS")
    args = parser.parse_args()
    if args.summarize:
        summarize(args.out, args.summarize)
        return 0
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
