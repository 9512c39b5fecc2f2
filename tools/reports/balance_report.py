#!/usr/bin/env python3
"""The runs behind docs/balance.md, and its tables and plots.

    PYTHONPATH=build/python .venv/bin/python tools/reports/balance_report.py run [--only NAME ...]
    PYTHONPATH=build/python .venv/bin/python tools/reports/balance_report.py summarize

The runs come from each game's balance studies (env/games/<game>/studies.json, read by
tools/lib/studies.py; games in the registry's order): its ladder, the games per run where the
game is slow, its further strengths, its rule sweeps and its skill-depth sweep (Plan).
`run` plays every job of the plan's queue that has no result yet (in OUT or DATA), in
order: each balance run is `knightgym balance ... --resume` into OUT/NAME, so a stopped
queue goes on where it stopped (within a run too), and "ladders" plays the round robins
that give each strength its Elo (random = 0) into OUT/ladders.

`summarize` first copies every finished result from OUT into DATA (docs/balance/runs,
committed: a few hundred KB of JSON that hours of games produced), and the progress of
every unfinished run (NAME/balance.progress, which `run` takes back into OUT, so that a
run goes on in a fresh clone); then it prints the report's tables (Markdown) from DATA
alone, or with --into REPORT puts each in place of REPORT's table with the same columns,
and draws its plots into DOCS. So the report can be made again from the committed
data without playing a game, and a later session adds runs to it.

Each result records the networks that played it (their files and hashes). `stale` lists
the runs and ladders whose networks have been shipped anew since; `replay` moves them
(or the runs given with --only, for another reason given with --reason) into
DATA/superseded/, where the report's "old against new" section finds them, and plays
them again:

    PYTHONPATH=build/python .venv/bin/python tools/reports/balance_report.py replay
"""

import argparse
import contextlib
import datetime
import io
import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # tools/lib: studies
import studies  # noqa: E402

WEAK, MEDIUM, STRONG = "mcts:sims=16", "mcts:sims=64", "mcts:sims=256"
NET64 = "az:model=pretrained,sims=64"
SKILL = "random,mcts:sims=100,mcts:sims=400"  # adjacent rungs of the ladders
# The span up to the network: it plays every rule set of its game, the closest network's
# where the rules differ from those it was made for.
NETWORK_ANY_RULES = "az:model=pretrained,sims=64,rules=any"
SKILL_TOP = f"random,mcts:sims=400,{NETWORK_ANY_RULES}"
SUPERSEDED = "superseded"
PROGRESS_BYTES = 1 << 24  # a run's progress is a few KB per rule set
SPRT = "a0=0,a1=0.05,alpha=0.05,beta=0.05"
# Which seat is favoured: stops early where a seat clearly is, plays on near even.
SPRT_TWO_SIDED = "a0=-0.05,a1=0.05,alpha=0.05,beta=0.05"
SPRTS = {"one_sided": SPRT, "two_sided": SPRT_TWO_SIDED}
# Every game at its default rules across strength: random, MCTS with random roll-outs at
# three strengths, the shipped network batched (a game's studies may add more, such as
# Knightmate's Fairy-Stockfish, and play fewer games where the game is slow).
LEVELS = ("random", "weak", "medium", "strong", "net64")
LEVEL_AGENTS = {
    "random": "random",
    "weak": WEAK,
    "medium": MEDIUM,
    "strong": STRONG,
    "net64": NET64,
}
LEVEL_GAMES = {"random": 2000, "weak": 2000, "medium": 2000, "strong": 2000, "net64": 4000}


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


def sweep_keys(sweeps):
    """The keys of --sweep KEY=V1,V2 strings."""
    return [sweep.split("=")[0] for sweep in sweeps]


class Plan:
    """Every run and ladder of the report, from the `balance` studies of each game
    (env/games/<game>/studies.json, in the registry's order): runs, {name: Run}; ladders,
    {name: (game spec, agents, games per pair)}, the round robins that give each strength
    its Elo (random = 0); sweeps, [(title, [runs, weakest first], swept keys)]; plots,
    [(run, plot of knightgym.balance.plot)]; skill, the skill-depth runs."""

    def __init__(self, settings):
        self.settings = settings
        self.games = list(settings)
        self.runs = {}
        self.sweeps, self.plots, self.skill = [], [], []
        for game, balance in settings.items():
            games = {**LEVEL_GAMES, **balance.get("games", {})}
            for level in LEVELS:
                self.runs[f"{game}_{level}"] = Run(
                    game,
                    LEVEL_AGENTS[level],
                    sprt=SPRT if level == "medium" else None,
                    games=games[level],
                    batch=20 if level == "net64" else 0,
                )
        # More strengths, such as a fixed-node engine, which plays one game from one start:
        # these start a few random plies in.
        for game, balance in settings.items():
            for strength in balance.get("strengths", []):
                self.runs[f"{game}_{strength['level']}"] = Run(
                    game, strength["agents"], opening_plies=strength.get("opening_plies", 0)
                )
        # The rule sweeps with weak MCTS, then again at strength under the two-sided test.
        for game, balance in settings.items():
            for sweep in balance.get("sweeps", []):
                names = [f"{game}_{sweep['run']}"]
                self.runs[names[0]] = Run(
                    game, WEAK, tuple(sweep["sweep"]), SPRTS.get(sweep.get("sprt")), sweep["games"]
                )
                self.plots += [(names[0], f"{plot}.png") for plot in sweep.get("plots", [])]
                for stronger in ("at_strength", "with_network"):
                    if stronger in sweep:
                        names.append(f"{game}_{sweep[stronger]['run']}")
                self.sweeps.append((sweep["title"], names, sweep_keys(sweep["sweep"])))
        for game, balance in settings.items():
            for sweep in balance.get("sweeps", []):
                strong = sweep.get("at_strength")
                if strong:
                    name = f"{game}_{strong['run']}"
                    self.runs[name] = Run(
                        game,
                        strong["agents"],
                        tuple(sweep["sweep"]),
                        SPRTS.get(strong.get("sprt")),
                        strong["games"],
                    )
                    self.plots += [(name, f"{plot}.png") for plot in strong.get("plots", [])]
                # The same sweep with the game's network (on the rule sets that one
                # network plays: a narrower sweep where the game's networks differ).
                network = sweep.get("with_network")
                if network:
                    name = f"{game}_{network['run']}"
                    self.plots += [(name, f"{plot}.png") for plot in network.get("plots", [])]
                    self.runs[name] = Run(
                        game,
                        NETWORK_ANY_RULES,
                        tuple(network.get("sweep", sweep["sweep"])),
                        SPRTS.get(network.get("sprt")),
                        network["games"],
                        batch=20,
                    )
        # Skill depth: three rungs of the ladder in a round robin on every rule set.
        for game, balance in settings.items():
            if "skill" in balance:
                skill = balance["skill"]
                self.skill.append(f"{game}_skill")
                self.runs[f"{game}_skill"] = Run(
                    game, SKILL, tuple(skill["sweep"]), games=skill["games"]
                )
                # And up to the strongest player: random, MCTS at 400 and the network.
                top = skill.get("to_the_top")
                if top:
                    self.skill.append(f"{game}_skill_top")
                    self.runs[f"{game}_skill_top"] = Run(
                        game,
                        top.get("agents", SKILL_TOP),
                        tuple(top.get("sweep", skill["sweep"])),
                        games=top["games"],
                        batch=top.get("batch", 0),
                    )
        # An example game of each game between its strongest players, recorded for the
        # report's pictures and for `knightgym view`.
        for game, balance in settings.items():
            strongest = self.runs[f"{game}_{balance.get('example', 'net64')}"]
            self.runs[f"{game}_example"] = Run(
                game, strongest.agents, games=2, record=2, opening_plies=strongest.opening_plies
            )
        self.ladders = {
            balance["ladder"]["name"]: (
                balance["ladder"]["spec"],
                self.strengths(game),
                balance["ladder"]["games"],
            )
            for game, balance in settings.items()
        }

    def ladder_name(self, game):
        """The ladder of a game at its default rules."""
        return self.settings[game]["ladder"]["name"]

    def across_strength_runs(self, game):
        """The names of a game's runs across strength, weakest first."""
        extra = [strength["level"] for strength in self.settings[game].get("strengths", [])]
        return [f"{game}_{level}" for level in (*LEVELS, *extra)]

    def strengths(self, game):
        """The agents of a game's runs across strength, weakest first."""
        return [self.runs[name].agents for name in self.across_strength_runs(game)]

    def queue(self):
        """Every job in order, cheapest information first: the runs across strength, the
        round robins that rate them ("ladders"), the further strengths (Fairy-Stockfish),
        then the sweeps."""
        across = [f"{game}_{level}" for level in LEVELS for game in self.games]
        rest = [name for name in self.runs if name not in across]
        return across + ["ladders"] + rest


def plan_of(build):
    """The report's plan from the games' balance studies, in the registry's order."""
    return Plan({game: studies.get(game, "balance") for game in studies.games("balance", build)})


def on_device(agents, device):
    """The agents (a comma-separated list whose params are commas too) with each network's
    search (az) evaluating on DEVICE."""
    words, network = [], False
    for word in agents.split(","):
        if ":" in word or "=" not in word:  # the next agent begins
            words += ["device=" + device] if network else []
            network = word.startswith("az:")
        words.append(word)
    return ",".join(words + (["device=" + device] if network else []))


def command_of(args, name, run):
    """The command that plays a run; with --device, its networks evaluate there and, with
    --batch, that many games are batched per thread (in the runs a network plays)."""
    network = "az:" in run.agents
    agents = on_device(run.agents, args.device) if args.device else run.agents
    batch = args.batch if args.batch and network else run.batch
    command = [
        str(Path(args.build) / "knightgym"),
        "balance",
        run.game,
        "--agents",
        agents,
        "--games",
        str(run.games),
        "--seed",
        "1",
        "--out",
        str(Path(args.out) / name),
        "--resume",
    ]
    command += ["--threads", str(args.threads)] + (["--batch", str(batch)] if batch else [])
    if run.opening_plies:
        command += ["--opening-plies", str(run.opening_plies)]
    for sweep in run.sweeps:
        command += ["--sweep", sweep]
    if run.sprt:
        command += ["--sprt", run.sprt]
    if run.record:
        command += ["--record", str(run.record)]
    return command


def finished(args, result):
    """Whether a result (a path under OUT and DATA) is in either: the report's data are
    committed, so a new machine plays only the runs they lack."""
    return (Path(args.out) / result).exists() or (Path(args.data) / result).exists()


def run_queue(args, plan, names=None):
    for name in names or args.only or plan.queue():
        if name == "ladders":
            run_ladders(args, plan)
        elif not finished(args, Path(name) / "balance.json"):
            restore_progress(args, name)
            run_logged(name, command_of(args, name, plan.runs[name]))


def restore_progress(args, name):
    """Puts a run's committed progress (DATA/NAME/balance.progress) into OUT, where its
    --resume goes on from it, unless OUT holds progress of its own, or the progress's
    networks evaluated on another device (their games differ in the last bits: such a run
    goes on only where it began, or starts afresh)."""
    saved = Path(args.data) / name / "balance.progress"
    target = Path(args.out) / name / "balance.progress"
    if not saved.exists() or target.exists():
        return
    device, played_on = args.device or "cpu", network_device(saved)
    if played_on != device:
        print(
            f"{name}: its committed progress was played with networks on {played_on}; "
            f"it starts afresh on {device}",
            flush=True,
        )
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    copy_atomically(saved, target)


def network_device(progress):
    """Where the networks of a run's saved progress evaluate: its players' device=...
    (cpu, their default, where no network plays)."""
    with open(progress, "rb") as file:
        text = file.read(PROGRESS_BYTES + 1)
    try:
        if len(text) > PROGRESS_BYTES:
            raise ValueError(f"over {PROGRESS_BYTES} bytes")
        agents = json.loads(text)["run"]["agents"]
        specs = [spec for spec in agents if isinstance(spec, str)]
    except (ValueError, KeyError, TypeError) as error:
        raise SystemExit(f"{progress}: not a run's progress ({error!r})") from error
    devices = {
        word[len("device=") :]
        for spec in specs
        for word in spec.split(",")
        if word.startswith("device=")
    }
    return devices.pop() if len(devices) == 1 else "cpu"


def ladder_command(build, out, name, ladder):
    game, agents, games = ladder
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


def print_commands(args, plan):
    """The command of every job, as `run` plays it (for the report)."""
    for name in args.only or plan.queue():
        commands = (
            [
                ladder_command(args.build, args.out, ladder, plan.ladders[ladder])
                for ladder in plan.ladders
            ]
            if name == "ladders"
            else [command_of(args, name, plan.runs[name])]
        )
        for command in commands:
            print(" ".join(f"'{word}'" if "(" in word else word for word in command))


def run_logged(name, command):
    print("$", " ".join(command), flush=True)
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    print(f"{name}: {time.monotonic() - start:.0f} s", flush=True)


def run_ladders(args, plan):
    """The plan's round robins, batched so that a network's games share its calls."""
    (Path(args.out) / "ladders").mkdir(parents=True, exist_ok=True)
    for name, ladder in plan.ladders.items():
        if not finished(args, Path("ladders") / f"{name}.json"):
            run_logged(f"ladder {name}", ladder_command(args.build, args.out, name, ladder))


# ---------------------------------------------------------------------------------------
# The report's data: finished results copied from OUT into DATA, read from DATA.


def copy_atomically(source, target):
    temporary = target.with_suffix(".tmp")
    shutil.copyfile(source, temporary)
    temporary.replace(target)


def archive(out, data, plan):
    """Copies every finished balance.json, game record and ladder of OUT into DATA (the
    same layout), and the progress of every run under way, which a finished run's
    replaces."""
    out, data = Path(out), Path(data)
    if out.resolve() == data.resolve():
        return
    sources = [out / name / "balance.json" for name in plan.runs]
    sources += [out / name / "records.jsonl" for name, run in plan.runs.items() if run.record]
    sources += [out / "ladders" / f"{name}.json" for name in plan.ladders]
    sources += [
        out / name / "balance.progress"
        for name in plan.runs
        if not (out / name / "balance.json").exists()
    ]
    for source in sources:
        if source.exists():
            target = data / source.relative_to(out)
            target.parent.mkdir(parents=True, exist_ok=True)
            copy_atomically(source, target)
    for name in plan.runs:
        if (data / name / "balance.json").exists():
            (data / name / "balance.progress").unlink(missing_ok=True)


# ---------------------------------------------------------------------------------------
# Results played by networks shipped anew since: found, set aside and played again.


def recorded_networks_differ(recorded, now):
    """Whether a result's record of its networks differs from the networks its agents
    load now. A result from before networks were recorded differs where any load one."""
    return bool(now) if recorded is None else recorded != now


def stale(data, plan):
    """The runs and ladders of DATA whose networks have been shipped anew since they were
    played: [run name, or "ladders/NAME"]."""
    import knightgym.balance

    names = []
    for name, run in plan.runs.items():
        result = load(data, name)
        if result:
            now = knightgym.balance.networks(run.game, run.agents, sweep=list(run.sweeps))
            if recorded_networks_differ(result.get("networks"), now):
                names.append(name)
    for name, (spec, agents, _) in plan.ladders.items():
        path = Path(data) / "ladders" / f"{name}.json"
        if path.exists():
            recorded = json.loads(path.read_text()).get("networks")
            if recorded_networks_differ(recorded, knightgym.balance.networks(spec, agents)):
                names.append(f"ladders/{name}")
    return names


def supersede(args, names, reason):
    """Moves each result (a run's folder, or ladders/NAME's JSON) of DATA into
    DATA/superseded/, replacing what an earlier replay put there, with why it was played
    again (replaced.json), and deletes the finished result in OUT."""
    data, out = Path(args.data), Path(args.out)
    for name in names:
        is_ladder = name.startswith("ladders/")
        source = data / (f"{name}.json" if is_ladder else name)
        if not source.exists():
            continue
        target = data / SUPERSEDED / source.relative_to(data)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir():
            shutil.rmtree(target)
        target.unlink(missing_ok=True)
        source.replace(target)
        if not is_ladder:
            note = {"reason": reason, "replaced_on": datetime.date.today().isoformat()}
            (target / "replaced.json").write_text(json.dumps(note, indent=1) + "\n")
            (target / "balance.progress").unlink(missing_ok=True)
        # The finished result in OUT too, with the progress a finished run keeps (a run
        # under way keeps its progress: one played by the old network is refused on
        # resume, by name).
        finished_files = [out / name / "balance.json", out / name / "records.jsonl"]
        if finished_files[0].exists():
            finished_files.append(out / name / "balance.progress")
        for played in [out / f"{name}.json"] if is_ladder else finished_files:
            played.unlink(missing_ok=True)


def replay(args, plan):
    """Sets aside the stale results (or those of --only) and plays them again."""
    names = args.only or stale(args.data, plan)
    if not names:
        print("every result was played by the networks shipped now")
        return
    supersede(args, names, args.reason)
    wanted = set(names)
    if any(name.startswith("ladders/") for name in names):
        wanted.add("ladders")
    run_queue(args, plan, [name for name in plan.queue() if name in wanted])


def load(data, name):
    """A committed result with today's statistics (one written before them restated from
    its counts: knightgym.balance_statistics), or None where there is none."""
    from knightgym.balance_statistics import restated

    path = Path(data) / name / "balance.json"
    return restated(json.loads(path.read_text())) if path.exists() else None


def interval(figure, digits=3):
    return (
        f"{figure['mean']:+.{digits}f} ({figure['low']:+.{digits}f}, {figure['high']:+.{digits}f})"
    )


def seat_wins(rule_set):
    """Each seat's win rate, or with three or more seats its share of the first places (a
    shared one split); "*" where those shares were not counted (a run from before them),
    the rates then counting a shared first place for each seat that shares it."""
    seats = rule_set["seats"]
    if rule_set["players"] <= 2:
        return " / ".join(f"{100 * s['win_rate']:.1f}" for s in seats)
    if all("win_share" in s for s in seats):
        return " / ".join(f"{100 * s['win_share']:.1f}" for s in seats)
    return " / ".join(f"{100 * s['win_rate']:.1f}" for s in seats) + " *"


def draw_percent(rule_set):
    """The rule set's share of drawn games, in percent (every seat draws the same games)."""
    return f"{100 * rule_set['seats'][0]['draw_rate']:.1f}"


def games_cell(rule_set):
    """Games played, with the sequential test's decision where it ran."""
    sprt = rule_set["sprt"]
    return str(rule_set["games"]) + (f" ({sprt['decision']})" if sprt else "")


def elo_table(data, plan):
    """{ladder name: {canonical agent spec, less its device: (elo, 95% half width, floor)}}:
    floor where the player won every game it played, so that its Elo has no upper bound
    (the fit's virtual draws alone keep it finite)."""
    ratings = {}
    for name in plan.ladders:
        path = Path(data) / "ladders" / f"{name}.json"
        if path.exists():
            ladder = json.loads(path.read_text())
            ratings[name] = {
                same_player(r["spec"]): (r["elo"], r["half_width"], r["score"] >= 1)
                for r in ladder["ratings"]
            }
    return ratings


def same_player(spec):
    """A canonical agent spec without where its network evaluates: a player's strength is
    the same on any device (a run played on a GPU takes its rating from the ladder)."""
    from knightgym._specs import agent_params, agent_spec

    kind, params = agent_params(spec)
    params.pop("device", None)
    return agent_spec(kind, params)


def strength_rows(data, plan, game):
    """The default-rules runs of a game, weakest first: (agent, result)."""
    rows = [(plan.runs[name].agents, load(data, name)) for name in plan.across_strength_runs(game)]
    return [(agent, result) for agent, result in rows if result]


def weighted_trend(x, y, se_x, se_y):
    """The line through (x, y) with both coordinates' errors counted, by effective
    variance (each point weighted by 1 / (se_y² + slope² se_x²), iterated to a fixed
    point), its slope's standard error scaled by the misfit where the points scatter more
    than their errors allow (sqrt(chi²/dof) when above 1). Returns slope, intercept, the
    slope's scaled standard error, chi²/dof and the dof."""
    import numpy as np

    slope = 0.0
    for _ in range(50):
        w = 1 / (se_y**2 + slope**2 * se_x**2)
        mean_x = np.sum(w * x) / np.sum(w)
        mean_y = np.sum(w * y) / np.sum(w)
        sxx = np.sum(w * (x - mean_x) ** 2)
        slope = np.sum(w * (x - mean_x) * (y - mean_y)) / sxx
    intercept = mean_y - slope * mean_x
    dof = len(x) - 2
    misfit = float(np.sum(w * (y - intercept - slope * x) ** 2) / dof) if dof > 0 else 1.0
    return slope, intercept, np.sqrt(max(1.0, misfit) / sxx), misfit, dof


def across_strength(data, docs, plan):
    """Per game at its default rules: each strength's Elo and the first seat's advantage,
    a table, and a plot of advantage against Elo with a weighted linear trend, dashed
    beyond the strongest player measured (an extrapolation)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    ratings = elo_table(data, plan)
    print(
        "| game | agent | Elo (95%) | games | seat win rates % (3 or 4 seats: shares of the "
        "first places) | draws % "
        "| first-seat advantage (95%) | verdict | balance | decisions per game |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    games = plan.games
    figure, panels = plt.subplots(1, len(games), figsize=(3.2 * len(games), 3.6), squeeze=False)
    panels = panels[0]
    trends = {}
    for axes, game in zip(panels, games):
        table = ratings.get(plan.ladder_name(game), {})
        points = []
        for agent, result in strength_rows(data, plan, game):
            r = result["rule_sets"][0]
            elo = table.get(same_player(result["agents"][0]))
            a = r["first_seat_advantage"]
            if not elo:
                elo_cell = "not rated"
            elif elo[2]:
                elo_cell = f"at least {elo[0] - elo[1]:.0f} (won every game)"
            else:
                elo_cell = f"{elo[0]:.0f} ± {elo[1]:.0f}"
            print(
                f"| {game} | `{agent}` | {elo_cell} | {games_cell(r)} | {seat_wins(r)} | "
                f"{draw_percent(r)} | {interval(a)} | {r['verdict']} | "
                f"{r['balance']:.3f} | {r['length']['mean']:.1f} |"
            )
            # A floor is no point of the trend: it is shown, not fitted.
            if elo and not elo[2]:
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
            slope, intercept, slope_se, misfit, dof = weighted_trend(x, y, x_half / 1.96, se)
            trends[game] = (slope, intercept, slope_se, misfit, dof, x.max())
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
        from scipy import stats

        print("\nThe trends\n")
        print(
            "| game | trend: advantage per 1000 Elo (95%) | misfit (chi²/dof) | at Elo 0 "
            "| at the strongest fitted | extrapolated 600 Elo beyond |"
        )
        print("|---|---|---|---|---|---|")
        for game, (slope, intercept, slope_se, misfit, dof, top) in trends.items():
            # Student's t: the misfit's scale comes from the few points themselves.
            half = 1000 * stats.t.ppf(0.975, dof) * slope_se
            print(
                f"| {game} | {1000 * slope:+.3f} ± {half:.3f} | {misfit:.1f} ({dof}) "
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
        agent = agent_label(result["agents"][0])
        columns += [f"{agent}: advantage (95%)", "draws %", "balance", "games", "length"]
    print(f"\n{title}\n")
    print("| " + " | ".join(keys + columns) + " |")
    print("|" + "---|" * (len(keys) + len(columns)))
    for first in results[0]["rule_sets"]:
        cells = [first["values"][key] for key in keys]
        for result in results:
            # A run may cover part of the grid (a network plays only some modes).
            r = rule_set_with(result, first["values"], keys)
            if r is None:
                cells += ["-"] * 5
                continue
            versus = r["vs_first"]
            mark = " *" if versus and versus["significant"] else ""
            fairest = "**" if r is result["rule_sets"][result["fairest"]] else ""
            cells += [
                interval(r["first_seat_advantage"]) + mark,
                draw_percent(r),
                f"{fairest}{r['balance']:.3f}{fairest}",
                games_cell(r) + same_games_note(result, r),
                f"{r['length']['mean']:.0f}",
            ]
        print("| " + " | ".join(cells) + " |")


def same_games_note(result, rule_set):
    """ " (the games of LABEL)" where the rule set played an earlier one's games again
    (seats permuted: one sample, not two), or ""."""
    same = rule_set.get("same_games_as")
    return f" (the games of {result['rule_sets'][same['rule_set']]['label']})" if same else ""


def rule_set_with(result, values, keys):
    """The rule set of a result whose swept `keys` have these values, or None."""
    for rule_set in result["rule_sets"]:
        if all(rule_set["values"].get(key) == values[key] for key in keys):
            return rule_set
    return None


# The three verdicts, short (knightgym.balance_statistics: Holm over the run's sweep).
SHORT_VERDICTS = {
    "favours the first seat": "first seat",
    "favours the other seats": "other seats",
    "even": "even (±0.05)",
    "undecided": "undecided",
}


def verdict(rule_set):
    """'first seat', 'other seats', 'even (±0.05)' or 'undecided': the rule set's verdict
    on the first seat's advantage."""
    return SHORT_VERDICTS[rule_set["verdict"]]


def test_verdict(result, rule_set):
    """The two-sided sequential test's answer to which seat is favoured, or None where no
    such test ran (a one-sided test's H0 says only that seat 0 is not favoured)."""
    if not rule_set["sprt"] or result["sprt"]["a0"] >= 0:
        return None
    return {"H1": "first seat", "H0": "other seats"}.get(rule_set["sprt"]["decision"], "undecided")


def verdicts_compared(data, title, names, keys):
    """The intervals' verdict on each rule set from each run, weakest player first,
    "changed" where the strongest player's differs from the weak MCTS one, with the
    sequential test's beside them where a two-sided one ran."""
    results = [result for result in (load(data, name) for name in names) if result]
    if len(results) < 2:
        return
    agents = [agent_label(result["agents"][0]) for result in results]
    columns = [column for agent in agents for column in (agent, "draws %")]
    print(f"\n{title}: the verdict per rule set\n")
    print("| " + " | ".join(keys + columns) + " | changed | the sequential test |")
    print("|" + "---|" * (len(keys) + len(columns) + 2))
    for first in results[0]["rule_sets"]:
        cells = [first["values"][key] for key in keys]
        found = [rule_set_with(result, first["values"], keys) for result in results]
        verdicts = [verdict(r) if r else "-" for r in found]
        draws = [draw_percent(r) if r else "-" for r in found]
        strongest = max(i for i, r in enumerate(found) if r)
        changed = "yes" if verdicts[strongest] != verdicts[0] else ""
        tests = [test_verdict(res, r) for res, r in zip(results, found) if r]
        test = next((t for t in reversed(tests) if t), "-")
        paired = [cell for pair in zip(verdicts, draws) for cell in pair]
        print("| " + " | ".join(cells + paired) + f" | {changed} | {test} |")


def skill_depth(data, names):
    """Per skill run and rule set: the Elo of each player above random within the rule
    set (the last one's is the span), and how often the strongest beats the one below it
    (the Bradley-Terry probability from their Elo difference). One table for the runs
    whose players below the top rung are the same, naming the top rung where it varies
    from game to game (the network or engine: not the strongest on every rule set)."""
    groups = {}
    for name in names:
        result = load(data, name)
        if result:
            players = [agent_label(agent) for agent in result["agents"]]
            groups.setdefault(tuple(players[:-1]), []).append((players[-1], result))
    for below, runs in groups.items():
        varied = len({top for top, _ in runs}) > 1
        top = "the top rung" if varied else runs[0][0]
        print(
            "\n| game | rule set | games | draws % | "
            + ("top rung | " if varied else "")
            + " | ".join(f"Elo: {player}" for player in below[1:])
            + f" | Elo: {top} (the span) | {top} against {below[-1]}: score |"
        )
        print("|" + "---|" * (len(below) + 5 + varied))
        for strongest, result in runs:
            for r in result["rule_sets"]:
                elo = [agent["elo"] - r["agents"][0]["elo"] for agent in r["agents"]]
                print(
                    f"| {result['game']} | {r['label'] or 'default'} | {r['games']} | "
                    f"{draw_percent(r)} | "
                    + (f"`{strongest}` | " if varied else "")
                    + " | ".join(f"{e:.0f}" for e in elo[1:])
                    + f" | {adjacent_score(r):.3f} |"
                )


def adjacent_score(rule_set):
    """The Bradley-Terry probability that the strongest player of a skill run beats the
    one below it on this rule set, from their Elo difference."""
    elo = [agent["elo"] for agent in rule_set["agents"]]
    return 1 / (1 + 10 ** ((elo[-2] - elo[-1]) / 400))


def difference(old, before, new, after):
    """The new rule set's advantage minus the old's, with its 95% interval as the sweeps'
    comparisons make it (each sequence at 97.5%, valid however either run stopped)."""
    from knightgym import statistics

    estimates = [
        (r["first_seat_advantage"]["mean"], r["first_seat_advantage"]["block_sd"], r["blocks"])
        for r in (before, after)
    ]
    tuned = [old["statistics"]["tuned_blocks"], new["statistics"]["tuned_blocks"]]
    versus = statistics.sweep_statistics(estimates, tuned)[1]["vs_first"]
    return {"mean": versus["difference"], "low": versus["low"], "high": versus["high"]}


def old_against_new(data, plan):
    """Each result set aside to be played again (DATA/superseded/NAME) beside its replay
    (DATA/NAME), "playing again" until there is one: per rule set, the old and new player,
    the first seat's advantage of each and their difference, with 95% intervals."""
    rows = []
    for name, run in plan.runs.items():
        old, new = load(Path(data) / SUPERSEDED, name), load(data, name)
        if not old or run.record:  # an example game is a picture, not a verdict
            continue
        note_path = Path(data) / SUPERSEDED / name / "replaced.json"
        reason = json.loads(note_path.read_text())["reason"] if note_path.exists() else ""
        keys = [sweep["key"] for sweep in old["sweeps"]]
        for before in old["rule_sets"]:
            after = rule_set_with(new, before["values"], keys) if new else None
            rows.append((name, old, new, before, after, reason))
    if not rows:
        return
    print(
        "| run | rule set | old player | games | advantage (95%) | draws % | new player | games "
        "| advantage (95%) | draws % | new - old (95%) | why played again |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, old, new, before, after, reason in rows:
        a = before["first_seat_advantage"]
        cells = [name, before["label"] or "default", player(old), str(before["games"]), interval(a)]
        cells += [draw_percent(before)]
        if after:
            b = after["first_seat_advantage"]
            cells += [player(new), str(after["games"]), interval(b), draw_percent(after)]
            cells += [interval(difference(old, before, new, after))]
        else:  # set aside, and not played again yet
            cells += ["playing again", "", "", "", ""]
        print("| " + " | ".join(cells + [reason]) + " |")


def agent_label(spec):
    """knightgym's agent label, imported only where a table needs it: `run` plays on
    machines without the Python module (tools/gpu/balance.sh)."""
    from knightgym._specs import agent_label as label

    return label(spec)


def player(result):
    """A run's players, short: each agent's kind and budget, a network by its hash (the
    first 8 digits, and where it evaluated unless on the CPU), or "network of before" where
    the result did not record it."""
    names = []
    from knightgym._specs import agent_params

    for spec in result["agents"]:
        values = agent_params(spec)[1]
        names.append(agent_label(spec))
        if values.get("model") not in (None, "uniform", "resnet"):
            networks = result.get("networks")
            hashes = ", ".join(network["fnv1a"][:8] for network in networks or [])
            where = "" if values.get("device", "cpu") == "cpu" else f" on {values['device']}"
            names[-1] += f" ({hashes or 'network of before'}{where})"
    return "`" + ", ".join(names) + "`"


def examples(data, docs, plan):
    """The final position of each game's example game, drawn into DOCS, and the section
    that shows them."""
    from knightgym import records, svg

    print("\n## Example games\n")
    for game in plan.games:
        path = Path(data) / f"{game}_example" / "records.jsonl"
        if not path.exists():
            continue
        example = records.read(path)[0]
        picture = docs / f"{game}_example_final.svg"
        picture.write_text(svg.draw(example.final_state()))
        print(
            f"**{game}**, `{plan.runs[f'{game}_example'].agents}` in every seat: "
            f"{len(example.moves)} moves, returns "
            f"{', '.join(f'{r:+g}' for r in example.returns)}\n"
        )
        print(
            f"![The final position of a {game} game between its strongest players]"
            f"(balance/{picture.name})\n"
        )


def summarize(args, plan):
    """The tables on standard output or, with --into, in place of the report's own."""
    if not args.into:
        print_summary(args, plan)
        return
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        print_summary(args, plan)
    report = Path(args.into)
    text, unplaced = replace_tables(report.read_text(), printed.getvalue())
    temporary = report.with_suffix(".tmp")
    temporary.write_text(text)
    temporary.replace(report)
    for header in unplaced:
        print(f"{report} has no table that begins like this one; place it by hand:\n{header}")


def table_signature(header):
    """What tells a report's tables apart: their header's cells up to the first player's
    (a sweep's keys and its first run), or the first four."""
    cells = [cell.strip() for cell in header.strip().strip("|").split("|")]
    first_player = next((i for i, cell in enumerate(cells) if "mcts" in cell), 3)
    return tuple(cells[: first_player + 1])


def tables_of(text):
    """The Markdown tables of TEXT: (first line, end line) of each run of "|" lines."""
    lines, tables, start = text.split("\n"), [], None
    for i, line in enumerate([*lines, ""]):
        if line.startswith("|") and start is None:
            start = i
        elif not line.startswith("|") and start is not None:
            tables.append((start, i))
            start = None
    return lines, tables


def replace_tables(report, summary):
    """REPORT with each of its tables that SUMMARY has a table of the same signature for
    replaced by that one; and the headers of SUMMARY's tables it has no place for."""
    new_lines, new_tables = tables_of(summary)
    fresh = {table_signature(new_lines[a]): new_lines[a:b] for a, b in new_tables}
    lines, tables = tables_of(report)
    placed = set()
    for a, b in reversed(tables):
        signature = table_signature(lines[a])
        if signature in fresh:
            lines[a:b] = fresh[signature]
            placed.add(signature)
    unplaced = [new_lines[a] for a, _ in new_tables if table_signature(new_lines[a]) not in placed]
    return "\n".join(lines), unplaced


def print_summary(args, plan):
    import tempfile

    import knightgym.balance

    docs = Path(args.docs)
    docs.mkdir(parents=True, exist_ok=True)
    archive(args.out, args.data, plan)
    data = args.data
    print("## Across strength\n")
    across_strength(data, docs, plan)
    for title, names, keys in plan.sweeps:
        side_by_side(data, title, names, keys)
    for title, names, keys in plan.sweeps:
        if len(names) > 1:
            verdicts_compared(data, title, names, keys)
    print("\n## Skill depth")
    skill_depth(data, plan.skill)
    print("\n## Old against new\n")
    old_against_new(data, plan)
    examples(data, docs, plan)
    with tempfile.TemporaryDirectory() as scratch:
        for name, plot in plan.plots:
            result = load(data, name)
            if result:
                knightgym.balance.plot(result, Path(scratch) / name)
                shutil.copyfile(
                    Path(scratch) / name / plot, docs / f"{name}_{plot.removesuffix('.png')}.png"
                )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["run", "summarize", "commands", "stale", "replay"])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/balance", help="where the runs play")
    parser.add_argument(
        "--data",
        default="docs/balance/runs",
        help="the results the report is made from (committed)",
    )
    parser.add_argument("--docs", default="docs/balance", help="where the plots go")
    parser.add_argument(
        "--into",
        help="summarize: put the tables into this report (docs/balance.md) in place of "
        "those with the same columns, rather than print them",
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--device",
        help="run, commands: where the networks evaluate (cuda on a GPU machine; default: "
        "the CPU); the results name it among their players",
    )
    parser.add_argument(
        "--batch",
        type=int,
        help="run, commands: games batched per thread in the runs a network plays "
        "(default: the plan's); a GPU wants hundreds",
    )
    parser.add_argument(
        "--only",
        nargs="*",
        help="run only these jobs, in this order (replay: these, stale or not; a ladder "
        "as ladders/NAME)",
    )
    parser.add_argument(
        "--reason",
        default="its network was shipped anew",
        help="replay: why the results were played again (kept beside the old ones)",
    )
    args = parser.parse_args()
    plan = plan_of(args.build)
    jobs = plan.queue()
    if args.what == "replay":
        jobs = jobs + [f"ladders/{name}" for name in plan.ladders]
    if args.only and any(name not in jobs for name in args.only):
        parser.error(f"unknown run; the jobs are: {', '.join(jobs)}")
    if args.what == "run":
        run_queue(args, plan)
    elif args.what == "commands":
        print_commands(args, plan)
    elif args.what == "stale":
        print("\n".join(stale(args.data, plan)))
    elif args.what == "replay":
        replay(args, plan)
    else:
        summarize(args, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())
