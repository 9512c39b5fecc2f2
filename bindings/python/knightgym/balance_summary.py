"""The balance report of docs/balance.md: its tables (Markdown) and pictures, made from the
committed results of its runs alone, without playing a game.

    from knightgym.balance_summary import Contents, Game, summary
    text = summary("docs/balance/runs", "docs/balance", contents)

The runs and what the report shows of them are the plan's (tools/reports/balance_plan.py,
from each game's studies), which this module is told as a Contents. It reads DATA's layout
as the runs' tool writes it: NAME/balance.json and NAME/records.jsonl of each run,
ladders/LADDER.json of each round robin, and, under the folder of results set aside to be
played again, NAME/balance.json with NAME/replaced.json (why); one written before
balance.json held its statistics is refused by name. Besides the text, summary() draws
into DOCS: the first seat's advantage across strength, each game's
example game and the plots that Contents names. docs/balance.md defines every figure.

The pictures need matplotlib (the plot extra), the trends' intervals SciPy (which the
checkout's .venv has: the report is made there, not from an installed wheel).
"""

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import knightgym.balance
from knightgym import _result_files as result_files
from knightgym import records, statistics, svg
from knightgym._optional import extra
from knightgym._outputs import save_figure, write_text
from knightgym._specs import agent_label, agent_params, agent_spec
from knightgym.markdown import table

__all__ = ["Contents", "Game", "summary"]

# The report's tables take their short verdicts from these (balance.json's "verdict",
# training/balance/verdicts.h: Holm over the run's sweep).
SHORT_VERDICTS = {
    "favours the first seat": "first seat",
    "favours the other seats": "other seats",
    "even": "even (±0.05)",
    "undecided": "undecided",
}


@dataclass
class Game:
    """A game of the report: its name; the round robin rating its strengths (DATA/ladders/
    LADDER.json); its runs at its default rules, weakest first, as (run name, agents); and
    the run that recorded its example game, as (run name, agents)."""

    name: str
    ladder: str
    across_strength: list
    example: tuple


@dataclass
class Contents:
    """What the report shows, in its order: games, [Game] in the registry's order; sweeps,
    [(title, [run names, weakest player first], swept keys)]; skill, the skill-depth runs;
    verdicts, the runs whose results may be set aside and played again (every run but the
    example games, which are pictures); superseded, the folder of DATA holding the
    results set aside; plots, [(run name, a plot file of knightgym.balance.plot)]."""

    games: list
    sweeps: list
    skill: list
    verdicts: list
    superseded: str
    plots: list


def summary(data, docs, contents):
    """The report's tables and sections as Markdown text, from the results in DATA; draws
    its pictures into DOCS (made if missing) meanwhile."""
    docs = Path(docs)
    docs.mkdir(parents=True, exist_ok=True)
    text = "## Across strength\n\n" + across_strength(data, docs, contents.games)
    for title, names, keys in contents.sweeps:
        text += side_by_side(data, title, names, keys)
    for title, names, keys in contents.sweeps:
        if len(names) > 1:
            text += verdicts_compared(data, title, names, keys)
    text += "\n## Skill depth\n" + skill_depth(data, contents.skill)
    text += "\n## Old against new\n\n" + old_against_new(data, contents)
    text += examples(data, docs, contents.games)
    plots(data, docs, contents.plots)
    return text


def load(data, name):
    """A committed result, or None where there is none; one written before balance.json
    held its statistics is refused, naming the file (_result_files.RetiredFormat)."""
    path = Path(data) / name / "balance.json"
    return result_files.load_balance(path) if path.exists() else None


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


def elo_table(data, ladders):
    """{ladder name: {canonical agent spec, less its device: (elo, 95% half width, floor)}}
    for each of the LADDERS that DATA holds: floor where the player won every game it
    played, so that its Elo has no upper bound (the fit's virtual draws alone keep it
    finite)."""
    ratings = {}
    for name in ladders:
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
    kind, params = agent_params(spec)
    params.pop("device", None)
    return agent_spec(kind, params)


def weighted_trend(x, y, se_x, se_y):
    """The line through (x, y) with both coordinates' errors counted, by effective
    variance (each point weighted by 1 / (se_y² + slope² se_x²), iterated to a fixed
    point), its slope's standard error scaled by the misfit where the points scatter more
    than their errors allow (sqrt(chi²/dof) when above 1). Returns slope, intercept, the
    slope's scaled standard error, chi²/dof and the dof."""
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


def across_strength(data, docs, games):
    """Per game at its default rules: each strength's Elo and the first seat's advantage,
    a table, and a plot of advantage against Elo with a weighted linear trend, dashed
    beyond the strongest player measured (an extrapolation); then the trends' table."""
    with extra("plot", __name__):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

    ratings = elo_table(data, [game.ladder for game in games])
    rows = []
    figure, panels = plt.subplots(1, len(games), figsize=(3.2 * len(games), 3.6), squeeze=False)
    panels = panels[0]
    trends = {}
    for axes, game in zip(panels, games):
        elos = ratings.get(game.ladder, {})
        points = []
        for agent, result in strength_rows(data, game):
            r = result["rule_sets"][0]
            elo = elos.get(same_player(result["agents"][0]))
            a = r["first_seat_advantage"]
            if not elo:
                elo_cell = "not rated"
            elif elo[2]:
                elo_cell = f"at least {elo[0] - elo[1]:.0f} (won every game)"
            else:
                elo_cell = f"{elo[0]:.0f} ± {elo[1]:.0f}"
            rows.append(
                [
                    game.name,
                    f"`{agent}`",
                    elo_cell,
                    games_cell(r),
                    seat_wins(r),
                    draw_percent(r),
                    interval(a),
                    r["verdict"],
                    f"{r['balance']:.3f}",
                    f"{r['length']['mean']:.1f}",
                ]
            )
            # A floor is no point of the trend: it is shown, not fitted.
            if elo and not elo[2]:
                points.append((elo[0], elo[1], a["mean"], a["std_error"]))
        axes.axhline(0, color="gray", linewidth=0.8)
        axes.set_title(game.name, fontsize=9)
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
            trends[game.name] = (slope, intercept, slope_se, misfit, dof, x.max())
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
    save_figure(figure, Path(docs) / "advantage_across_strength.png", dpi=110)
    plt.close(figure)
    names = [
        "game",
        "agent",
        "Elo (95%)",
        "games",
        "seat win rates % (3 or 4 seats: shares of the first places)",
        "draws %",
        "first-seat advantage (95%)",
        "verdict",
        "balance",
        "decisions per game",
    ]
    text = table(names, rows) + "\n"
    if trends:
        text += "\nThe trends\n\n" + trends_table(trends) + "\n"
    return text


def strength_rows(data, game):
    """The default-rules runs of a game that DATA holds, weakest first: (agent, result)."""
    rows = [(agents, load(data, name)) for name, agents in game.across_strength]
    return [(agents, result) for agents, result in rows if result]


def trends_table(trends):
    """The trends of advantage against Elo, {game: (slope, intercept, the slope's standard
    error, misfit, dof, the strongest Elo fitted)}, with Student's t intervals: the
    misfit's scale comes from the few points themselves."""
    from scipy import stats

    rows = []
    for game, (slope, intercept, slope_se, misfit, dof, top) in trends.items():
        half = 1000 * stats.t.ppf(0.975, dof) * slope_se
        rows.append(
            [
                game,
                f"{1000 * slope:+.3f} ± {half:.3f}",
                f"{misfit:.1f} ({dof})",
                f"{intercept:+.3f}",
                f"{intercept + slope * top:+.3f} (Elo {top:.0f})",
                f"{intercept + slope * (top + 600):+.3f}",
            ]
        )
    names = [
        "game",
        "trend: advantage per 1000 Elo (95%)",
        "misfit (chi²/dof)",
        "at Elo 0",
        "at the strongest fitted",
        "extrapolated 600 Elo beyond",
    ]
    return table(names, rows)


def side_by_side(data, title, names, keys):
    """A sweep's rule sets, one group of columns per run; "" where DATA holds none."""
    results = [load(data, name) for name in names]
    results = [result for result in results if result]
    if not results:
        return ""
    columns = []
    for result in results:
        agent = agent_label(result["agents"][0])
        columns += [f"{agent}: advantage (95%)", "draws %", "balance", "games", "length"]
    rows = []
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
        rows.append(cells)
    return f"\n{title}\n\n" + table(keys + columns, rows) + "\n"


def same_games_note(result, rule_set):
    """ " (the games of LABEL)" where the rule set played an earlier one's games again
    (seats permuted: one sample, not two), or ""."""
    same = rule_set["same_games_as"]
    return f" (the games of {result['rule_sets'][same['rule_set']]['label']})" if same else ""


def rule_set_with(result, values, keys):
    """The rule set of a result whose swept `keys` have these values, or None."""
    for rule_set in result["rule_sets"]:
        if all(rule_set["values"].get(key) == values[key] for key in keys):
            return rule_set
    return None


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
    sequential test's beside them where a two-sided one ran; "" where DATA holds fewer
    than two of the runs."""
    results = [result for result in (load(data, name) for name in names) if result]
    if len(results) < 2:
        return ""
    agents = [agent_label(result["agents"][0]) for result in results]
    columns = [column for agent in agents for column in (agent, "draws %")]
    rows = []
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
        rows.append(cells + paired + [changed, test])
    names = keys + columns + ["changed", "the sequential test"]
    return f"\n{title}: the verdict per rule set\n\n" + table(names, rows) + "\n"


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
    text = ""
    for below, runs in groups.items():
        varied = len({top for top, _ in runs}) > 1
        top = "the top rung" if varied else runs[0][0]
        columns = ["game", "rule set", "games", "draws %", *(["top rung"] if varied else [])]
        columns += [f"Elo: {player}" for player in below[1:]]
        columns += [f"Elo: {top} (the span)", f"{top} against {below[-1]}: score"]
        rows = []
        for strongest, result in runs:
            for r in result["rule_sets"]:
                elo = [agent["elo"] - r["agents"][0]["elo"] for agent in r["agents"]]
                rows.append(
                    [result["game"], r["label"] or "default", r["games"], draw_percent(r)]
                    + ([f"`{strongest}`"] if varied else [])
                    + [f"{e:.0f}" for e in elo[1:]]
                    + [f"{adjacent_score(r):.3f}"]
                )
        text += "\n" + table(columns, rows) + "\n"
    return text


def adjacent_score(rule_set):
    """The Bradley-Terry probability that the strongest player of a skill run beats the
    one below it on this rule set, from their Elo difference."""
    elo = [agent["elo"] for agent in rule_set["agents"]]
    return 1 / (1 + 10 ** ((elo[-2] - elo[-1]) / 400))


def difference(old, before, new, after):
    """The new rule set's advantage minus the old's, with its 95% interval as the sweeps'
    comparisons make it (each sequence at 97.5%, valid however either run stopped)."""
    estimates = [
        (r["first_seat_advantage"]["mean"], r["first_seat_advantage"]["block_sd"], r["blocks"])
        for r in (before, after)
    ]
    tuned = [old["statistics"]["tuned_blocks"], new["statistics"]["tuned_blocks"]]
    versus = statistics.sweep_statistics(estimates, tuned)[1]["vs_first"]
    return {"mean": versus["difference"], "low": versus["low"], "high": versus["high"]}


def old_against_new(data, contents):
    """Each result set aside to be played again (DATA/SUPERSEDED/NAME) beside its replay
    (DATA/NAME), "playing again" until there is one: per rule set, the old and new player,
    the first seat's advantage of each and their difference, with 95% intervals; "" where
    none was set aside."""
    superseded = Path(data) / contents.superseded
    rows = []
    for name in contents.verdicts:
        old, new = load(superseded, name), load(data, name)
        if not old:
            continue
        note_path = superseded / name / "replaced.json"
        reason = json.loads(note_path.read_text())["reason"] if note_path.exists() else ""
        keys = [sweep["key"] for sweep in old["sweeps"]]
        for before in old["rule_sets"]:
            after = rule_set_with(new, before["values"], keys) if new else None
            a = before["first_seat_advantage"]
            cells = [name, before["label"] or "default", player(old), before["games"], interval(a)]
            cells += [draw_percent(before)]
            if after:
                b = after["first_seat_advantage"]
                cells += [player(new), after["games"], interval(b), draw_percent(after)]
                cells += [interval(difference(old, before, new, after))]
            else:  # set aside, and not played again yet
                cells += ["playing again", "", "", "", ""]
            rows.append(cells + [reason])
    if not rows:
        return ""
    names = [
        "run",
        "rule set",
        "old player",
        "games",
        "advantage (95%)",
        "draws %",
        "new player",
        "games",
        "advantage (95%)",
        "draws %",
        "new - old (95%)",
        "why played again",
    ]
    return table(names, rows) + "\n"


def player(result):
    """A run's players, short: each agent's kind and budget, a network by its hash (the
    first 8 digits, and where it evaluated unless on the CPU), or "network of before" where
    the result did not record it."""
    names = []
    for spec in result["agents"]:
        values = agent_params(spec)[1]
        names.append(agent_label(spec))
        if values.get("model") not in (None, "uniform", "resnet"):
            networks = result.get("networks")
            hashes = ", ".join(network["fnv1a"][:8] for network in networks or [])
            where = "" if values.get("device", "cpu") == "cpu" else f" on {values['device']}"
            names[-1] += f" ({hashes or 'network of before'}{where})"
    return "`" + ", ".join(names) + "`"


def examples(data, docs, games):
    """The section that shows the final position of each game's example game, drawn into
    DOCS."""
    text = "\n## Example games\n\n"
    for game in games:
        name, agents = game.example
        path = Path(data) / name / "records.jsonl"
        if not path.exists():
            continue
        example = records.read(path)[0]
        picture = Path(docs) / f"{game.name}_example_final.svg"
        write_text(picture, svg.draw(example.final_state()))
        text += (
            f"**{game.name}**, `{agents}` in every seat: {len(example.moves)} moves, returns "
            f"{', '.join(f'{r:+g}' for r in example.returns)}\n\n"
        )
        text += (
            f"![The final position of a {game.name} game between its strongest players]"
            f"(balance/{picture.name})\n\n"
        )
    return text


def plots(data, docs, wanted):
    """Draws each (run, plot) of WANTED whose run DATA holds, as DOCS/RUN_PLOT.png."""
    with tempfile.TemporaryDirectory() as scratch:
        for name, plot in wanted:
            result = load(data, name)
            if result:
                knightgym.balance.plot(result, Path(scratch) / name)
                shutil.copyfile(
                    Path(scratch) / name / plot,
                    Path(docs) / f"{name}_{plot.removesuffix('.png')}.png",
                )
