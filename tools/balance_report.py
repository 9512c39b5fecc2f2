#!/usr/bin/env python3
"""The runs behind docs/balance.md, and its tables and plots.

    PYTHONPATH=build/python .venv/bin/python tools/balance_report.py run [--only NAME ...]
    PYTHONPATH=build/python .venv/bin/python tools/balance_report.py summarize

`run` plays every run of RUNS that has no balance.json yet, in order, each one
`knightgym balance ... --resume` into OUT/NAME, so a stopped queue goes on where it
stopped (within a run too); once the runs across strength are done, the gauntlets of
LADDERS that rate their agents on the ladders of docs/strength.md (a gauntlet whose JSON
is there is not played again). `summarize` prints the report's tables
(Markdown) from OUT and draws its plots into DOCS.

The Elo of each strength comes from the ladders of tools/strength_ladders.sh and
tools/strength_networks.sh (STRENGTH/NAME.json, STRENGTH/NAME-networks.json), merged with
this tool's gauntlets (OUT/ladders/NAME.json) by knightgym.ladder.merge.
"""

import argparse
import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import knightgym.ladder

GAMES = ["knight_fight", "knightmate", "double_duel", "knights_challenge", "tailten"]
# The ladder of each game at its default rules (Knights Challenge: mode=ffa4).
LADDER_NAMES = {"knight_fight": "knight_fight", "knightmate": "knightmate",
                "double_duel": "double_duel", "knights_challenge": "knights_challenge_ffa4",
                "tailten": "tailten"}
WEAK, MEDIUM, STRONG = "mcts:sims=16", "mcts:sims=64", "mcts:sims=256"
AT_STRENGTH = "mcts:sims=400"  # the rule sweeps at strength
NET64, NET256 = "az:model=pretrained,sims=64", "az:model=pretrained,sims=256"
SKILL = "random,mcts:sims=100,mcts:sims=400"  # adjacent rungs of the ladders
SPRT = "a0=0,a1=0.05,alpha=0.05,beta=0.05"
# Which seat is favoured: stops early where a seat clearly is, plays on near even.
SPRT_TWO_SIDED = "a0=-0.05,a1=0.05,alpha=0.05,beta=0.05"
DD_EXTENSIONS = [f"{key}=false,true" for key in
                 ("neighbor_attack", "switch_move", "single_pawn_blocks", "double_free_pawn_moves")]
KF_SWEEPS = ["double_erase=optional,forced,off", "mirror_on_moves=true,false"]
KC_SWEEPS = ["mode=ffa4,ffa3,duel,alliance2,team4", "central_first=true,false"]
TT_SWEEPS = ["first_player=0,1"]


@dataclass
class Run:
    game: str
    agents: str
    sweeps: tuple = ()
    sprt: str = None
    games: int = 2000
    batch: int = 0
    opening_plies: int = 0


RUNS = {}
# MCTS with random roll-outs against itself at three strengths.
for game in GAMES:
    RUNS[f"{game}_weak"] = Run(game, WEAK)
    RUNS[f"{game}_medium"] = Run(game, MEDIUM, sprt=SPRT)
    RUNS[f"{game}_strong"] = Run(game, STRONG)
RUNS["double_duel_extensions"] = Run("double_duel", WEAK, DD_EXTENSIONS, SPRT)
RUNS["double_duel_extensions_full"] = Run("double_duel", WEAK, DD_EXTENSIONS)
RUNS["double_duel_extensions_strong"] = Run("double_duel", STRONG, DD_EXTENSIONS)
RUNS["knight_fight_erase_mirror"] = Run("knight_fight", WEAK, KF_SWEEPS)
RUNS["knight_fight_erase_mirror_strong"] = Run("knight_fight", STRONG, KF_SWEEPS)
RUNS["knights_challenge_modes"] = Run("knights_challenge", WEAK, KC_SWEEPS, SPRT)
RUNS["tailten_first_player"] = Run("tailten", WEAK, TT_SWEEPS)
RUNS["tailten_first_player_strong"] = Run("tailten", STRONG, TT_SWEEPS)
# Across strength: random, and the shipped networks batched; Knightmate also against
# Fairy-Stockfish at 1,000 and 10,000 nodes per move.
for game in GAMES:
    RUNS[f"{game}_random"] = Run(game, "random")
    RUNS[f"{game}_net64"] = Run(game, NET64, games=1000, batch=20)
    RUNS[f"{game}_net256"] = Run(game, NET256, games=1000, batch=20)
# A fixed-node engine plays one game from one start: these start 4 random plies in.
RUNS["knightmate_uci1000"] = Run("knightmate", "uci:nodes=1000", opening_plies=4)
RUNS["knightmate_uci10000"] = Run("knightmate", "uci:nodes=10000", opening_plies=4)
# The sweeps again at strength, under the two-sided sequential test.
RUNS["double_duel_extensions_at_strength"] = Run("double_duel", AT_STRENGTH, DD_EXTENSIONS,
                                                  SPRT_TWO_SIDED)
RUNS["knight_fight_erase_mirror_at_strength"] = Run("knight_fight", AT_STRENGTH, KF_SWEEPS,
                                                     SPRT_TWO_SIDED)
RUNS["tailten_first_player_at_strength"] = Run("tailten", AT_STRENGTH, TT_SWEEPS, SPRT_TWO_SIDED)
RUNS["knights_challenge_modes_at_strength"] = Run("knights_challenge", AT_STRENGTH, KC_SWEEPS,
                                                   SPRT_TWO_SIDED)
# Skill depth: three rungs of the ladder in a round robin on every rule set.
RUNS["knightmate_skill"] = Run("knightmate", SKILL, games=300)
RUNS["knight_fight_skill"] = Run("knight_fight", SKILL, KF_SWEEPS, games=300)
RUNS["tailten_skill"] = Run("tailten", SKILL, TT_SWEEPS, games=300)
RUNS["double_duel_skill"] = Run("double_duel", SKILL, DD_EXTENSIONS, games=300)
RUNS["knights_challenge_skill"] = Run("knights_challenge", SKILL, KC_SWEEPS, games=300)

# Gauntlets that rate the balance runs' own agents against the ladders' field:
# name: (game spec, challengers, field, games per pair).
FIELD = "random,greedy,mcts:sims=100,mcts:sims=400"
LADDERS = {
    "knight_fight": ("knight_fight", [WEAK, MEDIUM, STRONG], FIELD, 40),
    "tailten": ("tailten", [WEAK, MEDIUM, STRONG], FIELD, 40),
    "double_duel": ("double_duel", [WEAK, MEDIUM, STRONG], FIELD, 40),
    "knightmate": ("knightmate", [WEAK, MEDIUM, STRONG, "uci:nodes=10000"],
                   FIELD + ",uci:nodes=1000", 40),
    "knights_challenge_ffa4": ("knights_challenge(mode=ffa4)", [WEAK, MEDIUM, STRONG], FIELD,
                               20),
}


def command_of(build, out, name, run, threads):
    command = [str(Path(build) / "knightgym"), "balance", run.game, "--agents", run.agents,
               "--games", str(run.games), "--seed", "1", "--out", str(Path(out) / name),
               "--resume"]
    command += ["--batch", str(run.batch)] if run.batch else ["--threads", str(threads)]
    if run.opening_plies:
        command += ["--opening-plies", str(run.opening_plies)]
    for sweep in run.sweeps:
        command += ["--sweep", sweep]
    if run.sprt:
        command += ["--sprt", run.sprt]
    return command


def queue():
    """Every job in order: the balance runs, with the gauntlets ("ladders") once the runs
    across strength are done."""
    names = list(RUNS)
    names.insert(names.index("knightmate_uci10000") + 1, "ladders")
    return names


def run_queue(args):
    for name in args.only or queue():
        if name == "ladders":
            run_ladders(args)
        elif not (Path(args.out) / name / "balance.json").exists():
            run_logged(name, command_of(args.build, args.out, name, RUNS[name], args.threads))


def run_logged(name, command):
    print("$", " ".join(command), flush=True)
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    print(f"{name}: {time.monotonic() - start:.0f} s", flush=True)


def run_ladders(args):
    (Path(args.out) / "ladders").mkdir(parents=True, exist_ok=True)
    for name, (game, challengers, field, games) in LADDERS.items():
        path = Path(args.out) / "ladders" / f"{name}.json"
        if path.exists():
            continue
        run_logged(f"ladder {name}", [
            str(Path(args.build) / "knightgym"), "ladder", game, "--agents",
            ",".join(challengers) + "," + field, "--schedule", "gauntlet", "--challengers",
            str(len(challengers)), "--games", str(games), "--threads", str(args.threads),
            "--seed", "1", "--json", str(path)])


# ---------------------------------------------------------------------------------------
# The tables.

def load(out, name):
    path = Path(out) / name / "balance.json"
    return json.loads(path.read_text()) if path.exists() else None


def interval(figure, digits=3):
    return (f"{figure['mean']:+.{digits}f} "
            f"({figure['low']:+.{digits}f}, {figure['high']:+.{digits}f})")


def seat_wins(rule_set):
    return " / ".join(f"{100 * s['win_rate']:.1f}" for s in rule_set["seats"])


def sprt_cell(rule_set):
    sprt = rule_set["sprt"]
    return "-" if sprt is None else f"{sprt['decision']} at {sprt['games']}"


def elo_table(out, strength):
    """{canonical agent spec: (elo, half width)} per ladder name: the round robin, the
    networks' gauntlet and this tool's gauntlet merged."""
    ratings = {}
    for name in LADDER_NAMES.values():
        parts = [Path(strength) / f"{name}.json", Path(strength) / f"{name}-networks.json",
                 Path(out) / "ladders" / f"{name}.json"]
        parts = [p for p in parts if p.exists()]
        if not parts:
            continue
        merged = knightgym.ladder.merge([str(p) for p in parts])
        ratings[name] = {r["spec"]: (r["elo"], r["half_width"]) for r in merged["ratings"]}
    return ratings


def strength_rows(out, game):
    """The default-rules runs of a game, weakest first: (name, agent label, result)."""
    names = [f"{game}_random", f"{game}_weak", f"{game}_medium", f"{game}_strong",
             f"{game}_net64", f"{game}_net256"]
    if game == "knightmate":
        names += ["knightmate_uci1000", "knightmate_uci10000"]
    rows = []
    for name in names:
        result = load(out, name)
        if result:
            rows.append((name, RUNS[name].agents, result))
    return rows


def across_strength(out, docs, ratings):
    """The first seat's advantage against the players' Elo, per game: a table, and a plot
    with a weighted linear trend (dashed beyond the measured Elo: extrapolation)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    print("| game | agent | Elo (95%) | games | seat win rates % | draws % "
          "| first-seat advantage (95%) | balance | decisions per game |")
    print("|---|---|---|---|---|---|---|---|---|")
    figure, panels = plt.subplots(1, len(GAMES), figsize=(3.1 * len(GAMES), 3.4), sharey=True)
    trends = {}
    for axes, game in zip(panels, GAMES):
        table = ratings.get(LADDER_NAMES[game], {})
        points = []
        for name, agent, result in strength_rows(out, game):
            r = result["rule_sets"][0]
            spec = result["agents"][0]
            elo = table.get(spec)
            a = r["first_seat_advantage"]
            elo_cell = f"{elo[0]:.0f} ± {elo[1]:.0f}" if elo else "not rated"
            print(f"| {game} | `{agent}` | {elo_cell} | {r['games']} | {seat_wins(r)} | "
                  f"{100 * r['seats'][0]['draw_rate']:.1f} | {interval(a)} | "
                  f"{r['balance']:.3f} | {r['length']['mean']:.1f} |")
            if elo:
                points.append((elo[0], a["mean"], a["std_error"], agent))
        axes.axhline(0, color="gray", linewidth=0.8)
        axes.set_title(game, fontsize=9)
        axes.set_xlabel("Elo of both players (random = 0)", fontsize=8)
        axes.tick_params(labelsize=7)
        if not points:
            continue
        x = np.array([p[0] for p in points])
        y = np.array([p[1] for p in points])
        se = np.array([max(p[2], 1e-3) for p in points])
        axes.errorbar(x, y, yerr=1.96 * se, fmt="o", capsize=3, color="C0")
        if len(points) >= 3:
            slope, intercept = np.polyfit(x, y, 1, w=1 / se)
            trends[game] = (slope * 1000, intercept)
            inside = np.linspace(x.min(), x.max(), 20)
            beyond = np.linspace(x.max(), x.max() + 500, 20)
            axes.plot(inside, slope * inside + intercept, color="C3", linewidth=1,
                      label="weighted linear trend")
            axes.plot(beyond, slope * beyond + intercept, color="C3", linewidth=1,
                      linestyle="--", label="extrapolation")
    panels[0].set_ylabel("first seat's advantage (95%)")
    panels[0].legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(Path(docs) / "advantage_across_strength.png", dpi=110)
    plt.close(figure)
    if trends:
        print("\n| game | trend: advantage per 1000 Elo | at Elo 0 |")
        print("|---|---|---|")
        for game, (per_thousand, intercept) in trends.items():
            print(f"| {game} | {per_thousand:+.3f} | {intercept:+.3f} |")


def default_rules(out, docs):
    """Every game at its default rules, MCTS at 16, 64 and 256 simulations: the table and
    default_rules.png."""
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
            if not result:
                continue
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
    figure.savefig(Path(docs) / "default_rules.png", dpi=110)
    plt.close(figure)


def side_by_side(out, title, names, keys):
    results = [(name, load(out, name)) for name in names]
    results = [(name, result) for name, result in results if result]
    if not results:
        return
    columns = []
    for _, result in results:
        agent = result["agents"][0].split(",")[0]
        columns += [f"{agent}: advantage (95%)", "balance", "games", "length"]
    print(f"\n{title}\n")
    print("| " + " | ".join(keys + columns) + " |")
    print("|" + "---|" * (len(keys) + len(columns)))
    for i, first in enumerate(results[0][1]["rule_sets"]):
        cells = [first["values"][key] for key in keys]
        for _, result in results:
            if i >= len(result["rule_sets"]):
                cells += ["-"] * 4
                continue
            r = result["rule_sets"][i]
            versus = r["vs_first"]
            mark = " *" if versus and versus["significant"] else ""
            fairest = "**" if i == result["fairest"] else ""
            games = str(r["games"]) + (f" ({r['sprt']['decision']})" if r["sprt"] else "")
            cells += [interval(r["first_seat_advantage"]) + mark,
                      f"{fairest}{r['balance']:.3f}{fairest}", games,
                      f"{r['length']['mean']:.0f}"]
        print("| " + " | ".join(cells) + " |")


def verdict(rule_set):
    """'seat 0', 'seat 1' or 'even': which side of 0 the advantage's interval lies."""
    a = rule_set["first_seat_advantage"]
    return "seat 0" if a["low"] > 0 else "seat 1" if a["high"] < 0 else "even"


def verdicts_compared(out, title, weak, strong, keys):
    """Where the verdict at strength differs from the MCTS ones."""
    at_strength = load(out, strong)
    baseline = load(out, weak)
    if not at_strength or not baseline:
        return
    print(f"\n{title}: the verdict per rule set\n")
    print("| " + " | ".join(keys) + " | 16 simulations | 400 simulations | changed |")
    print("|" + "---|" * (len(keys) + 3))
    for low, high in zip(baseline["rule_sets"], at_strength["rule_sets"]):
        a, b = verdict(low), verdict(high)
        cells = [high["values"][key] for key in keys]
        print("| " + " | ".join(cells) + f" | {a} | {b} | {'yes' if a != b else ''} |")


def skill_depth(out, names):
    """Per rule set: the Elo span from random to mcts:sims=400 within the rule set, and
    how often the stronger of the adjacent mcts:sims=100 and 400 wins."""
    print("\n| game | rule set | games | Elo: mcts:sims=100 | Elo: mcts:sims=400 (the span) "
          "| mcts:sims=400 against 100: score |")
    print("|---|---|---|---|---|---|")
    for name in names:
        result = load(out, name)
        if not result:
            continue
        for r in result["rule_sets"]:
            random_, middle, top = r["agents"]
            span = top["elo"] - random_["elo"]
            print(f"| {result['game']} | {r['label']} | {r['games']} | "
                  f"{middle['elo'] - random_['elo']:.0f} | {span:.0f} | {adjacent_score(r):.3f} |")


def adjacent_score(rule_set):
    """The Bradley-Terry probability that mcts:sims=400 beats mcts:sims=100 on this rule
    set, from their Elo difference."""
    elo = [agent["elo"] for agent in rule_set["agents"]]
    return 1 / (1 + 10 ** ((elo[1] - elo[2]) / 400))


def summarize(args):
    docs = Path(args.docs)
    docs.mkdir(parents=True, exist_ok=True)
    out = args.out
    ratings = elo_table(out, args.strength)
    print("## Default rules, MCTS\n")
    default_rules(out, docs)
    print("\n## Across strength\n")
    across_strength(out, docs, ratings)
    side_by_side(out, "Double-Duel extensions",
                 ["double_duel_extensions_full", "double_duel_extensions_strong",
                  "double_duel_extensions_at_strength"],
                 ["neighbor_attack", "switch_move", "single_pawn_blocks", "double_free_pawn_moves"])
    side_by_side(out, "Knight Fight", ["knight_fight_erase_mirror",
                                       "knight_fight_erase_mirror_strong",
                                       "knight_fight_erase_mirror_at_strength"],
                 ["double_erase", "mirror_on_moves"])
    side_by_side(out, "Tailten", ["tailten_first_player", "tailten_first_player_strong",
                                  "tailten_first_player_at_strength"], ["first_player"])
    side_by_side(out, "Knights Challenge", ["knights_challenge_modes",
                                            "knights_challenge_modes_at_strength"],
                 ["mode", "central_first"])
    verdicts_compared(out, "Double-Duel", "double_duel_extensions_full",
                      "double_duel_extensions_at_strength",
                      ["neighbor_attack", "switch_move", "single_pawn_blocks",
                       "double_free_pawn_moves"])
    verdicts_compared(out, "Knight Fight", "knight_fight_erase_mirror",
                      "knight_fight_erase_mirror_at_strength", ["double_erase", "mirror_on_moves"])
    verdicts_compared(out, "Tailten", "tailten_first_player", "tailten_first_player_at_strength",
                      ["first_player"])
    verdicts_compared(out, "Knights Challenge", "knights_challenge_modes",
                      "knights_challenge_modes_at_strength", ["mode", "central_first"])
    print("\n## Skill depth")
    skill_depth(out, ["knightmate_skill", "knight_fight_skill", "tailten_skill",
                      "double_duel_skill", "knights_challenge_skill"])
    for name in ("double_duel_extensions_full", "double_duel_extensions_strong",
                 "double_duel_extensions_at_strength", "knight_fight_erase_mirror",
                 "knight_fight_erase_mirror_strong", "knight_fight_erase_mirror_at_strength",
                 "knights_challenge_modes", "knights_challenge_modes_at_strength",
                 "tailten_first_player", "tailten_first_player_strong",
                 "tailten_first_player_at_strength"):
        source = Path(out) / name / "first_seat_advantage.png"
        if source.exists():
            shutil.copyfile(source, docs / f"{name}_advantage.png")
    for name, plot, target in (("knights_challenge_modes", "seat_win_rates.png",
                                "knights_challenge_modes_seats.png"),
                               ("knight_fight_erase_mirror", "game_lengths.png",
                                "knight_fight_erase_mirror_lengths.png")):
        source = Path(out) / name / plot
        if source.exists():
            shutil.copyfile(source, docs / target)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["run", "summarize"])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/balance")
    parser.add_argument("--strength", default="out/strength",
                        help="the ladders of tools/strength_ladders.sh and strength_networks.sh")
    parser.add_argument("--docs", default="docs/balance")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="run only these jobs, in this order")
    args = parser.parse_args()
    if args.only and any(name not in queue() for name in args.only):
        parser.error(f"unknown run; the jobs are: {', '.join(queue())}")
    if args.what == "run":
        run_queue(args)
    else:
        summarize(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
