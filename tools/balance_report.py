#!/usr/bin/env python3
"""The runs behind docs/balance.md, and its tables and plots.

    PYTHONPATH=build/python .venv/bin/python tools/balance_report.py run [--only NAME ...]
    PYTHONPATH=build/python .venv/bin/python tools/balance_report.py summarize

`run` plays every job of queue() that has no result yet (in OUT or DATA), in order:
each balance run of RUNS is `knightgym balance ... --resume` into OUT/NAME, so a stopped
queue goes on where it stopped (within a run too), and "ladders" plays the round robins
of LADDERS that give each strength its Elo (random = 0) into OUT/ladders.

`summarize` first copies every finished result from OUT into DATA (docs/balance/runs,
committed: a few hundred KB of JSON that hours of games produced), then prints the
report's tables (Markdown) from DATA alone and draws its plots into DOCS. So the report
can be made again from the committed data without playing a game, and a later session
adds runs to it.
"""

import argparse
import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

GAMES = ["knight_fight", "knightmate", "double_duel", "knights_challenge", "tailten"]
# The ladder of each game at its default rules (Knights Challenge: mode=ffa4).
LADDER_NAMES = {
    "knight_fight": "knight_fight",
    "knightmate": "knightmate",
    "double_duel": "double_duel",
    "knights_challenge": "knights_challenge_ffa4",
    "tailten": "tailten",
}
WEAK, MEDIUM, STRONG = "mcts:sims=16", "mcts:sims=64", "mcts:sims=256"
NET64 = "az:model=pretrained,sims=64"
UCI1000, UCI10000 = "uci:nodes=1000", "uci:nodes=10000"
# The strongest MCTS each game's rule sweeps afford on two cores: a game of Knights
# Challenge at 256 simulations costs 1.4 CPU seconds, of Knight Fight 0.01.
AT_STRENGTH = {
    "knight_fight": "mcts:sims=1600",
    "tailten": "mcts:sims=1600",
    "double_duel": "mcts:sims=400",
    "knights_challenge": "mcts:sims=64",
}
SKILL = "random,mcts:sims=100,mcts:sims=400"  # adjacent rungs of the ladders
SPRT = "a0=0,a1=0.05,alpha=0.05,beta=0.05"
# Which seat is favoured: stops early where a seat clearly is, plays on near even.
SPRT_TWO_SIDED = "a0=-0.05,a1=0.05,alpha=0.05,beta=0.05"
DD_EXTENSIONS = [
    f"{key}=false,true"
    for key in ("neighbor_attack", "switch_move", "single_pawn_blocks", "double_free_pawn_moves")
]
KF_SWEEPS = ["double_erase=optional,forced,off", "mirror_on_moves=true,false"]
KC_SWEEPS = ["mode=ffa4,ffa3,duel,alliance2,team4", "central_first=true,false"]
KC_MODES = ["mode=ffa4,ffa3,duel,alliance2,team4"]
TT_SWEEPS = ["first_player=0,1"]
# Games per run where a game is too slow for 2000 on two cores: (MCTS at 64, the most the
# sequential test may use; MCTS at 256; the network at 64).
SLOW = {
    "knightmate": (1000, 500, 200),
    "knights_challenge": (400, 400, 200),
    "double_duel": (2000, 2000, 600),
}


@dataclass
class Run:
    game: str
    agents: str
    sweeps: tuple = ()
    sprt: str = None
    games: int = 2000
    batch: int = 0
    opening_plies: int = 0
    record: int = 0  # games of each rule set whose moves are kept (records.jsonl)


RUNS = {}
# Every game at its default rules across strength: random, MCTS with random roll-outs at
# three strengths, the shipped network batched; Knightmate also against Fairy-Stockfish
# at 1,000 and 10,000 nodes per move.
for game in GAMES:
    medium_games, strong_games, net_games = SLOW.get(game, (2000, 2000, 1000))
    RUNS[f"{game}_random"] = Run(game, "random")
    RUNS[f"{game}_weak"] = Run(game, WEAK)
    RUNS[f"{game}_medium"] = Run(game, MEDIUM, sprt=SPRT, games=medium_games)
    RUNS[f"{game}_strong"] = Run(game, STRONG, games=strong_games)
    RUNS[f"{game}_net64"] = Run(game, NET64, games=net_games, batch=20)
# A fixed-node engine plays one game from one start: these start 4 random plies in.
RUNS["knightmate_uci1000"] = Run("knightmate", UCI1000, opening_plies=4)
RUNS["knightmate_uci10000"] = Run("knightmate", UCI10000, opening_plies=4)
# The rule sweeps with weak MCTS, then again at strength under the two-sided test.
RUNS["double_duel_extensions_full"] = Run("double_duel", WEAK, DD_EXTENSIONS)
RUNS["knight_fight_erase_mirror"] = Run("knight_fight", WEAK, KF_SWEEPS)
RUNS["tailten_first_player"] = Run("tailten", WEAK, TT_SWEEPS)
RUNS["knights_challenge_modes"] = Run("knights_challenge", WEAK, KC_SWEEPS, SPRT, games=1000)
RUNS["knight_fight_erase_mirror_at_strength"] = Run(
    "knight_fight", AT_STRENGTH["knight_fight"], KF_SWEEPS, SPRT_TWO_SIDED
)
RUNS["tailten_first_player_at_strength"] = Run(
    "tailten", AT_STRENGTH["tailten"], TT_SWEEPS, SPRT_TWO_SIDED
)
RUNS["double_duel_extensions_at_strength"] = Run(
    "double_duel", AT_STRENGTH["double_duel"], DD_EXTENSIONS, SPRT_TWO_SIDED
)
RUNS["knights_challenge_modes_at_strength"] = Run(
    "knights_challenge", AT_STRENGTH["knights_challenge"], KC_SWEEPS, SPRT_TWO_SIDED, games=200
)
# Skill depth: three rungs of the ladder in a round robin on every rule set.
RUNS["knight_fight_skill"] = Run("knight_fight", SKILL, KF_SWEEPS, games=300)
RUNS["tailten_skill"] = Run("tailten", SKILL, TT_SWEEPS, games=300)
RUNS["double_duel_skill"] = Run("double_duel", SKILL, DD_EXTENSIONS, games=300)
RUNS["knightmate_skill"] = Run("knightmate", SKILL, games=300)
RUNS["knights_challenge_skill"] = Run("knights_challenge", SKILL, KC_MODES, games=60)
# An example game of each game between its strongest players, recorded for the report's
# pictures and for `knightgym view`.
for game in GAMES:
    strongest = RUNS["knightmate_uci10000" if game == "knightmate" else f"{game}_net64"]
    RUNS[f"{game}_example"] = Run(
        game, strongest.agents, games=2, record=2, opening_plies=strongest.opening_plies
    )


LEVELS = ("random", "weak", "medium", "strong", "net64")


def across_strength_runs(game):
    """The names of a game's runs across strength, weakest first."""
    names = [f"{game}_{level}" for level in LEVELS]
    return names + ["knightmate_uci1000", "knightmate_uci10000"] if game == "knightmate" else names


def strengths(game):
    """The agents of a game's runs across strength, weakest first."""
    return [RUNS[name].agents for name in across_strength_runs(game)]


# Round robins of each game's strengths at its default rules, for their Elo: name:
# (game spec, agents, games per pair).
LADDERS = {
    LADDER_NAMES[game]: (
        "knights_challenge(mode=ffa4)" if game == "knights_challenge" else game,
        strengths(game),
        20 if game in ("knightmate", "knights_challenge") else 40,
    )
    for game in GAMES
}


def command_of(build, out, name, run, threads):
    command = [
        str(Path(build) / "knightgym"),
        "balance",
        run.game,
        "--agents",
        run.agents,
        "--games",
        str(run.games),
        "--seed",
        "1",
        "--out",
        str(Path(out) / name),
        "--resume",
    ]
    command += ["--threads", str(threads)] + (["--batch", str(run.batch)] if run.batch else [])
    if run.opening_plies:
        command += ["--opening-plies", str(run.opening_plies)]
    for sweep in run.sweeps:
        command += ["--sweep", sweep]
    if run.sprt:
        command += ["--sprt", run.sprt]
    if run.record:
        command += ["--record", str(run.record)]
    return command


def queue():
    """Every job in order, cheapest information first: the runs across strength, the
    round robins that rate them ("ladders"), Fairy-Stockfish, then the sweeps."""
    across = [f"{game}_{level}" for level in LEVELS for game in GAMES]
    rest = [name for name in RUNS if name not in across]
    return across + ["ladders"] + rest


def finished(args, result):
    """Whether a result (a path under OUT and DATA) is in either: the report's data are
    committed, so a new machine plays only the runs they lack."""
    return (Path(args.out) / result).exists() or (Path(args.data) / result).exists()


def run_queue(args):
    for name in args.only or queue():
        if name == "ladders":
            run_ladders(args)
        elif not finished(args, Path(name) / "balance.json"):
            run_logged(name, command_of(args.build, args.out, name, RUNS[name], args.threads))


def ladder_command(build, out, name):
    game, agents, games = LADDERS[name]
    return [
        str(Path(build) / "knightgym"),
        "ladder",
        game,
        "--agents",
        ",".join(agents),
        "--games",
        str(games),
        "--batch",
        str(games),
        "--seed",
        "1",
        "--json",
        str(Path(out) / "ladders" / f"{name}.json"),
    ]


def print_commands(args):
    """The command of every job, as `run` plays it (for the report)."""
    for name in args.only or queue():
        commands = (
            [ladder_command(args.build, args.out, ladder) for ladder in LADDERS]
            if name == "ladders"
            else [command_of(args.build, args.out, name, RUNS[name], args.threads)]
        )
        for command in commands:
            print(" ".join(f"'{word}'" if "(" in word else word for word in command))


def run_logged(name, command):
    print("$", " ".join(command), flush=True)
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    print(f"{name}: {time.monotonic() - start:.0f} s", flush=True)


def run_ladders(args):
    """The round robins of LADDERS, batched so that a network's games share its calls."""
    (Path(args.out) / "ladders").mkdir(parents=True, exist_ok=True)
    for name in LADDERS:
        if not finished(args, Path("ladders") / f"{name}.json"):
            run_logged(f"ladder {name}", ladder_command(args.build, args.out, name))


# ---------------------------------------------------------------------------------------
# The report's data: finished results copied from OUT into DATA, read from DATA.


def archive(out, data):
    """Copies every finished balance.json, game record and ladder of OUT into DATA (the
    same layout)."""
    out, data = Path(out), Path(data)
    if out.resolve() == data.resolve():
        return
    sources = [out / name / "balance.json" for name in RUNS]
    sources += [out / name / "records.jsonl" for name in RUNS if RUNS[name].record]
    sources += [out / "ladders" / f"{name}.json" for name in LADDERS]
    for source in sources:
        if source.exists():
            target = data / source.relative_to(out)
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = target.with_suffix(".tmp")
            shutil.copyfile(source, temporary)
            temporary.replace(target)


def load(data, name):
    path = Path(data) / name / "balance.json"
    return json.loads(path.read_text()) if path.exists() else None


def interval(figure, digits=3):
    return (
        f"{figure['mean']:+.{digits}f} ({figure['low']:+.{digits}f}, {figure['high']:+.{digits}f})"
    )


def seat_wins(rule_set):
    return " / ".join(f"{100 * s['win_rate']:.1f}" for s in rule_set["seats"])


def games_cell(rule_set):
    """Games played, with the sequential test's decision where it ran."""
    sprt = rule_set["sprt"]
    return str(rule_set["games"]) + (f" ({sprt['decision']})" if sprt else "")


def elo_table(data):
    """{ladder name: {canonical agent spec: (elo, 95% half width)}}."""
    ratings = {}
    for name in LADDERS:
        path = Path(data) / "ladders" / f"{name}.json"
        if path.exists():
            ladder = json.loads(path.read_text())
            ratings[name] = {r["spec"]: (r["elo"], r["half_width"]) for r in ladder["ratings"]}
    return ratings


def strength_rows(data, game):
    """The default-rules runs of a game, weakest first: (agent, result)."""
    rows = [(RUNS[name].agents, load(data, name)) for name in across_strength_runs(game)]
    return [(agent, result) for agent, result in rows if result]


def weighted_trend(x, y, se):
    """The least-squares line through (x, y) weighted by 1/se²: slope, intercept and the
    slope's standard error (from the weights alone, as the points' errors are known)."""
    import numpy as np

    w = 1 / se**2
    mean_x = np.sum(w * x) / np.sum(w)
    mean_y = np.sum(w * y) / np.sum(w)
    sxx = np.sum(w * (x - mean_x) ** 2)
    slope = np.sum(w * (x - mean_x) * (y - mean_y)) / sxx
    return slope, mean_y - slope * mean_x, 1 / np.sqrt(sxx)


def across_strength(data, docs):
    """Per game at its default rules: each strength's Elo and the first seat's advantage,
    a table, and a plot of advantage against Elo with a weighted linear trend, dashed
    beyond the strongest player measured (an extrapolation)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    ratings = elo_table(data)
    print(
        "| game | agent | Elo (95%) | games | seat win rates % | draws % "
        "| first-seat advantage (95%) | balance | decisions per game |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    figure, panels = plt.subplots(1, len(GAMES), figsize=(3.2 * len(GAMES), 3.6))
    trends = {}
    for axes, game in zip(panels, GAMES):
        table = ratings.get(LADDER_NAMES[game], {})
        points = []
        for agent, result in strength_rows(data, game):
            r = result["rule_sets"][0]
            elo = table.get(result["agents"][0])
            a = r["first_seat_advantage"]
            elo_cell = f"{elo[0]:.0f} ± {elo[1]:.0f}" if elo else "not rated"
            print(
                f"| {game} | `{agent}` | {elo_cell} | {games_cell(r)} | {seat_wins(r)} | "
                f"{100 * r['seats'][0]['draw_rate']:.1f} | {interval(a)} | "
                f"{r['balance']:.3f} | {r['length']['mean']:.1f} |"
            )
            if elo:
                points.append((elo[0], elo[1], a["mean"], a["std_error"]))
        axes.axhline(0, color="gray", linewidth=0.8)
        axes.set_title(game, fontsize=9)
        axes.set_xlabel("Elo of both players (random = 0)", fontsize=8)
        axes.tick_params(labelsize=7)
        if not points:
            continue
        x, x_half, y, se = (np.array(column) for column in zip(*points))
        se = np.maximum(se, 1e-3)
        axes.errorbar(
            x,
            y,
            xerr=x_half,
            yerr=1.96 * se,
            fmt="o",
            capsize=2,
            color="C0",
            elinewidth=0.8,
            label="measured (95%)",
        )
        if len(points) >= 3:
            slope, intercept, slope_se = weighted_trend(x, y, se)
            trends[game] = (slope, intercept, slope_se, x.max())
            inside = np.linspace(x.min(), x.max(), 20)
            beyond = np.linspace(x.max(), x.max() + 600, 20)
            axes.plot(
                inside,
                slope * inside + intercept,
                color="C3",
                linewidth=1,
                label="weighted linear trend",
            )
            axes.plot(
                beyond,
                slope * beyond + intercept,
                color="C3",
                linewidth=1,
                linestyle="--",
                label="trend extrapolated",
            )
    panels[0].set_ylabel("first seat's advantage (95%)")
    for axes in panels:
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize=6, loc="best")
            break
    figure.tight_layout()
    figure.savefig(Path(docs) / "advantage_across_strength.png", dpi=110)
    plt.close(figure)
    if trends:
        print("\nThe trends\n")
        print(
            "| game | trend: advantage per 1000 Elo (95%) | at Elo 0 "
            "| at the strongest measured | extrapolated 600 Elo beyond |"
        )
        print("|---|---|---|---|---|")
        for game, (slope, intercept, slope_se, top) in trends.items():
            print(
                f"| {game} | {1000 * slope:+.3f} ± {1000 * 1.96 * slope_se:.3f} "
                f"| {intercept:+.3f} | {intercept + slope * top:+.3f} (Elo {top:.0f}) "
                f"| {intercept + slope * (top + 600):+.3f} |"
            )


def side_by_side(data, title, names, keys):
    """A sweep's rule sets, one group of columns per run."""
    results = [load(data, name) for name in names]
    results = [result for result in results if result]
    if not results:
        return
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
            cells += [
                interval(r["first_seat_advantage"]) + mark,
                f"{fairest}{r['balance']:.3f}{fairest}",
                games_cell(r),
                f"{r['length']['mean']:.0f}",
            ]
        print("| " + " | ".join(cells) + " |")


def verdict(rule_set):
    """'ahead', 'behind' or 'even': which side of 0 the first seat's advantage's interval
    lies."""
    a = rule_set["first_seat_advantage"]
    return "ahead" if a["low"] > 0 else "behind" if a["high"] < 0 else "even"


def test_verdict(result, rule_set):
    """The two-sided sequential test's answer to which seat is favoured, or None where no
    such test ran (a one-sided test's H0 says only that seat 0 is not favoured)."""
    if not rule_set["sprt"] or result["sprt"]["a0"] >= 0:
        return None
    return {"H1": "ahead", "H0": "behind"}.get(rule_set["sprt"]["decision"], "undecided")


def verdicts_compared(data, title, weak, strong, keys):
    """Where the verdict at strength differs from the weak MCTS one: the intervals' verdicts
    compared, with the sequential test's beside them where a two-sided one ran."""
    baseline, at_strength = load(data, weak), load(data, strong)
    if not baseline or not at_strength:
        return
    agents = [result["agents"][0].split(",")[0] for result in (baseline, at_strength)]
    print(f"\n{title}: the verdict per rule set\n")
    print("| " + " | ".join(keys + agents) + " | changed | the sequential test at strength |")
    print("|" + "---|" * (len(keys) + 4))
    for low, high in zip(baseline["rule_sets"], at_strength["rule_sets"]):
        a, b = verdict(low), verdict(high)
        cells = [high["values"][key] for key in keys]
        test = test_verdict(at_strength, high) or "-"
        print("| " + " | ".join(cells) + f" | {a} | {b} | {'yes' if a != b else ''} | {test} |")


def skill_depth(data, names):
    """Per rule set: the Elo span from random to mcts:sims=400 within the rule set, and
    how often the stronger of the adjacent mcts:sims=100 and 400 wins."""
    print(
        "| game | rule set | games | Elo: mcts:sims=100 | Elo: mcts:sims=400 (the span) "
        "| mcts:sims=400 against 100: score |"
    )
    print("|---|---|---|---|---|---|")
    for name in names:
        result = load(data, name)
        if not result:
            continue
        for r in result["rule_sets"]:
            random_, middle, top = r["agents"]
            span = top["elo"] - random_["elo"]
            print(
                f"| {result['game']} | {r['label'] or 'default'} | {r['games']} | "
                f"{middle['elo'] - random_['elo']:.0f} | {span:.0f} | {adjacent_score(r):.3f} |"
            )


def adjacent_score(rule_set):
    """The Bradley-Terry probability that mcts:sims=400 beats mcts:sims=100 on this rule
    set, from their Elo difference."""
    elo = [agent["elo"] for agent in rule_set["agents"]]
    return 1 / (1 + 10 ** ((elo[1] - elo[2]) / 400))


# The sweeps: (title, [runs, weakest first], swept keys).
SWEEPS = [
    (
        "Double-Duel extensions",
        ["double_duel_extensions_full", "double_duel_extensions_at_strength"],
        ["neighbor_attack", "switch_move", "single_pawn_blocks", "double_free_pawn_moves"],
    ),
    (
        "Knight Fight",
        ["knight_fight_erase_mirror", "knight_fight_erase_mirror_at_strength"],
        ["double_erase", "mirror_on_moves"],
    ),
    (
        "Knights Challenge",
        ["knights_challenge_modes", "knights_challenge_modes_at_strength"],
        ["mode", "central_first"],
    ),
    ("Tailten", ["tailten_first_player", "tailten_first_player_at_strength"], ["first_player"]),
]
# Plots of single runs shown in the report: (run, plot of knightgym.balance.plot).
PLOTS = [(names[-1], "first_seat_advantage.png") for _, names, _ in SWEEPS]
PLOTS += [
    ("knights_challenge_modes", "seat_win_rates.png"),
    ("knight_fight_erase_mirror", "game_lengths.png"),
]


def examples(data, docs):
    """The final position of each game's example game, drawn into DOCS, and the section
    that shows them."""
    from knightgym import records, svg

    print("\n## Example games\n")
    for game in GAMES:
        path = Path(data) / f"{game}_example" / "records.jsonl"
        if not path.exists():
            continue
        example = records.read(path)[0]
        picture = docs / f"{game}_example_final.svg"
        picture.write_text(svg.draw(example.final_state()))
        print(
            f"**{game}**, `{RUNS[f'{game}_example'].agents}` in every seat: "
            f"{len(example.moves)} moves, returns "
            f"{', '.join(f'{r:+g}' for r in example.returns)}\n"
        )
        print(
            f"![The final position of a {game} game between its strongest players]"
            f"(balance/{picture.name})\n"
        )


def summarize(args):
    import tempfile

    import knightgym.balance

    docs = Path(args.docs)
    docs.mkdir(parents=True, exist_ok=True)
    archive(args.out, args.data)
    data = args.data
    print("## Across strength\n")
    across_strength(data, docs)
    for title, names, keys in SWEEPS:
        side_by_side(data, title, names, keys)
    for title, names, keys in SWEEPS:
        verdicts_compared(data, title, names[0], names[-1], keys)
    print("\n## Skill depth\n")
    skill_depth(
        data,
        [
            "knightmate_skill",
            "knight_fight_skill",
            "tailten_skill",
            "double_duel_skill",
            "knights_challenge_skill",
        ],
    )
    examples(data, docs)
    with tempfile.TemporaryDirectory() as scratch:
        for name, plot in PLOTS:
            result = load(data, name)
            if result:
                knightgym.balance.plot(result, Path(scratch) / name)
                shutil.copyfile(
                    Path(scratch) / name / plot, docs / f"{name}_{plot.removesuffix('.png')}.png"
                )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["run", "summarize", "commands"])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/balance", help="where the runs play")
    parser.add_argument(
        "--data",
        default="docs/balance/runs",
        help="the results the report is made from (committed)",
    )
    parser.add_argument("--docs", default="docs/balance", help="where the plots go")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="run only these jobs, in this order")
    args = parser.parse_args()
    if args.only and any(name not in queue() for name in args.only):
        parser.error(f"unknown run; the jobs are: {', '.join(queue())}")
    if args.what == "run":
        run_queue(args)
    elif args.what == "commands":
        print_commands(args)
    else:
        summarize(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
