"""Rule balance: seat-rotated tournaments over a grid of rule sets (C++, multi-threaded),
their figures as a dict, and the report drawn from them: balance.md and plots.

    import knightgym.balance
    result = knightgym.balance.run(
        "knight_fight", agents="mcts:sims=16", games=2000, threads=2,
        sweep={"double_erase": ["optional", "forced", "off"]},
        sprt={"a1": 0.05}, out="out/kf")
    result["rule_sets"][0]["first_seat_advantage"]   # {'mean': ..., 'low': ..., 'high': ...}

`out` receives balance.json (the dict, written by C++), balance.md (tables) and the
plots. The same from the shell: `knightgym balance GAME --sweep KEY=V1,V2 --agents SPEC
--games N --out DIR`, which writes balance.json and then runs
`python -m knightgym.balance report DIR [--no-plots]`: balance.md and the plots from
DIR/balance.json, the Markdown also on standard output. docs/balance.md defines every
figure.
"""

import json
import math
import os
import sys

from knightgym import _knightgym
from knightgym import _result_files as result_files
from knightgym._checks import checked_seed
from knightgym._optional import extra
from knightgym._outputs import locked_folder, save_figure, write_text
from knightgym._specs import agent_label, spec_value
from knightgym.balance_markdown import markdown

__all__ = ["markdown", "networks", "plot", "report", "run"]


def _sweep_value(value):
    """A sweep value; one holding commas is bracketed, since commas separate the values."""
    text = spec_value(value)
    return f"[{text}]" if "," in text and not text.startswith("[") else text


def _sweep_texts(sweep):
    """{"key": [v1, v2]} or ["key=v1,v2"] as "key=v1,v2" texts."""
    if sweep is None:
        return []
    if isinstance(sweep, str):
        return [sweep]
    if isinstance(sweep, dict):
        texts = []
        for key, values in sweep.items():
            if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
                raise TypeError(f"sweep[{key!r}] must be a list of values, got {values!r}")
            texts.append(f"{key}=" + ",".join(_sweep_value(v) for v in values))
        return texts
    return [str(s) for s in sweep]


def _sprt_text(sprt):
    if sprt is None or isinstance(sprt, str):
        return sprt
    if isinstance(sprt, dict):
        return ",".join(f"{key}={value}" for key, value in sprt.items())
    raise TypeError(f"sprt must be None, a str such as 'a1=0.05' or a dict, got {sprt!r}")


def run(
    game,
    agents="mcts",
    games=1000,
    sweep=None,
    threads=1,
    seed=0,
    sprt=None,
    check_every=100,
    out=None,
    progress=True,
    plots=True,
    batch=0,
    chunk=0,
    ray_address=None,
    resume=False,
    opening_plies=0,
):
    """Plays and measures every rule set of the grid; returns balance.json as a dict.

    game: a spec ("knight_fight(max_turns=100)"); agents: a spec or a list of specs, each
    playing every seat equally often; games: per rule set (with sprt, the most it may
    use; a multiple of the number of agents); sweep: {key: [values]} over any game
    parameters (a grid, the last key varying fastest); sprt: None, "a0=0,a1=0.05,
    alpha=0.05,beta=0.05" or a dict of those; out: a folder for balance.json,
    balance.md and, with plots=True, the PNG plots; batch: 0 to play each game on its
    own, or B to play B games together (a multiple of the number of agents), every agent
    deciding for all of them at once (one network batch per round of simulations);
    chunk: with a batch, 0 to start the B games of each chunk together, or C games per
    chunk (at least B, a multiple of the number of agents) with B of them in play and a
    game that ends giving its place to the next, so the batches stay full where game
    lengths vary; opening_plies: each block starts this many random legal actions into
    the game (varied starts for an agent that plays one game every time, as a fixed-node
    engine does);
    ray_address: None to play on `threads` threads here, or a Ray cluster's address
    ("HOST:PORT", "auto", "ray://HOST:PORT") to play the games as tasks there
    (knightgym.balance_ray). With `out`, the run keeps its progress in
    out/balance.progress (about once a minute) until balance.json is written; resume=True
    goes on from that file, and without it an unfinished run's file is refused; so is an
    `out` that holds a finished run (its balance.json is never written over). Bad options
    raise ValueError naming them before any game is played, and an address with no cluster
    raises ConnectionError; neither writes anything. `out` is locked for the whole run
    (one writer per output): while another run, here or in another process, writes it,
    BlockingIOError names it and the holder's pid, before any game. The result depends on
    the options alone (the seed, the batch and the chunk), not on the threads or the
    machines.
    """
    with locked_folder(out):
        specs = agents if isinstance(agents, str) else [str(a) for a in agents]
        options = dict(
            game=game,
            sweeps=_sweep_texts(sweep),
            agents=specs,
            games=int(games),
            threads=int(threads),
            seed=checked_seed(seed),
            sprt=_sprt_text(sprt),
            check_every=int(check_every),
            batch=int(batch),
            chunk=int(chunk),
            opening_plies=int(opening_plies),
        )
        destination = None if out is None else os.fspath(out)
        writing = dict(out=destination, resume=bool(resume), progress=bool(progress))
        if ray_address is None:
            text = _knightgym.run_balance(**options, **writing)
        else:
            # The options are checked here first: a typo fails before any connection.
            _knightgym.BalanceChunkPlayer(**options)
            from knightgym.balance_ray import RayRunner

            with RayRunner(ray_address, options) as runner:
                # Games at once: the cluster's CPUs (the first windows of chunks are sized by it).
                options["threads"] = max(options["threads"], runner.cpus)
                text = _knightgym.run_balance(**options, **writing, runner=runner)
        result = json.loads(text)
        if out is not None:
            _write_report(result, out, plots=False)
            if plots:
                result["plots"] = _plot(result, out)
        return result


def networks(game, agents, sweep=None):
    """The networks that a run of these options loads, as its balance.json's "networks"
    records them: [{"file": "knight_fight.pt", "fnv1a": "<16 hex digits>"}, ...], a
    shipped network by its file in the models folder. A result whose record differs from
    this was played by another network (one shipped since). Bad options raise ValueError
    as run's do."""
    specs = agents if isinstance(agents, str) else [str(a) for a in agents]
    return _knightgym.balance_networks(game, _sweep_texts(sweep), specs)


def _load(result):
    """A balance result: the dict itself, or read from the folder holding balance.json;
    one written before balance.json held its statistics is refused, naming the file and
    what to do (knightgym._result_files.RetiredFormat, a ValueError)."""
    if isinstance(result, dict):
        return result_files.balance_result(result, "the balance result given")
    return result_files.load_balance(os.path.join(os.fspath(result), "balance.json"))


def report(result, out, plots=True):
    """Writes balance.md and, with plots=True, the plots into `out` from a balance result
    (a dict, or the folder holding balance.json); returns the paths, balance.md first.
    Holds `out`'s lock meanwhile, as run() does."""
    with locked_folder(out):
        return _write_report(result, out, plots)


def _write_report(result, out, plots):
    """report() with `out` locked by the caller."""
    result = _load(result)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "balance.md")
    write_text(path, markdown(result))  # whole, like balance.json
    return [path] + (_plot(result, out) if plots else [])


def _rule_set_labels(result):
    return [rule_set["label"] for rule_set in result["rule_sets"]]


def plot(result, out):
    """Draws seat_win_rates.png, first_seat_advantage.png and game_lengths.png into `out`
    from a balance result (a dict, or the folder holding balance.json); returns the paths.
    Holds `out`'s lock meanwhile, as run() does."""
    with locked_folder(out):
        return _plot(result, out)


def _plot(result, out):
    """plot() with `out` locked by the caller."""
    # Imported here: balance.md (report with plots=False) needs no matplotlib.
    with extra("plot", __name__):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

    result = _load(result)
    os.makedirs(out, exist_ok=True)
    sets = result["rule_sets"]
    labels = _rule_set_labels(result)
    players = max(s["players"] for s in sets)  # a sweep over a mode may mix 2 to 4
    title = f"{result['game']}: " + ", ".join(agent_label(spec) for spec in result["agents"])
    paths = []

    def save(figure, name):
        path = os.path.join(out, name)
        figure.tight_layout()
        save_figure(figure, path, dpi=110)
        plt.close(figure)
        paths.append(path)

    # Seat win rates with their Wilson intervals, grouped by rule set.
    bar_width = 0.8 / players
    figure_width = min(14.0, max(6.0, 0.45 * len(sets) * max(1, players / 2) + 2))
    figure, axes = plt.subplots(figsize=(figure_width, 4.5))
    for seat in range(players):
        held = [i for i, s in enumerate(sets) if seat < s["players"]]
        x = [i + (seat - (players - 1) / 2) * bar_width for i in held]
        rates = [sets[i]["seats"][seat]["win_rate"] for i in held]
        low = [max(0.0, r - sets[i]["seats"][seat]["win_low"]) for r, i in zip(rates, held)]
        high = [max(0.0, sets[i]["seats"][seat]["win_high"] - r) for r, i in zip(rates, held)]
        axes.bar(x, rates, bar_width, yerr=[low, high], capsize=3, label=f"seat {seat}")
    if all(s["players"] == players for s in sets):
        axes.axhline(1 / players, color="gray", linewidth=0.8, linestyle="--")
    axes.set_xticks(range(len(sets)))
    crowded = len(sets) > 3
    axes.set_xticklabels(
        labels, rotation=30 if crowded else 0, ha="right" if crowded else "center", fontsize=8
    )
    axes.set_ylabel("win rate (Wilson 95%)")
    axes.set_ylim(0, 1)
    axes.set_title(title, fontsize=9)
    axes.legend(fontsize=8)
    save(figure, "seat_win_rates.png")

    # The first seat's advantage per rule set with its interval.
    # Long labels (four swept keys) get their own width beside the plot.
    label_inches = 0.065 * max(len(label) for label in labels)
    figure, axes = plt.subplots(figsize=(4.5 + label_inches, 0.35 * len(sets) + 1.5))
    for i, s in enumerate(sets):
        a = s["first_seat_advantage"]
        below, above = max(0.0, a["mean"] - a["low"]), max(0.0, a["high"] - a["mean"])
        axes.errorbar(
            a["mean"],
            i,
            xerr=[[below], [above]],
            fmt="o",
            color="C3" if i == result["fairest"] else "C0",
            capsize=3,
        )
    axes.axvline(0, color="gray", linewidth=0.8)
    axes.set_yticks(range(len(sets)))
    axes.set_yticklabels(labels, fontsize=8)
    axes.invert_yaxis()
    axes.set_xlabel("first seat's advantage (95%); red: the fairest rule set")
    axes.set_title(title, fontsize=9)
    save(figure, "first_seat_advantage.png")

    # Game-length histograms, one panel per rule set.
    columns = min(4, len(sets))
    rows = math.ceil(len(sets) / columns)
    figure, grid = plt.subplots(rows, columns, figsize=(3.2 * columns, 2.3 * rows), squeeze=False)
    for i, s in enumerate(sets):
        axes = grid[i // columns][i % columns]
        histogram = s["length"]["histogram"]
        edges = [
            histogram["start"] + k * histogram["width"] for k in range(len(histogram["counts"]))
        ]
        axes.bar(edges, histogram["counts"], width=histogram["width"], align="edge")
        axes.axvline(s["length"]["mean"], color="C3", linewidth=1)
        axes.set_title(labels[i], fontsize=7)
        axes.tick_params(labelsize=7)
    for i in range(len(sets), rows * columns):
        grid[i // columns][i % columns].axis("off")
    figure.suptitle(f"{title}: decisions per game (red: mean)", fontsize=9)
    save(figure, "game_lengths.png")
    return paths


def _report_text(paths):
    """balance.md's text, then the files written."""
    with open(paths[0]) as f:
        text = f.read()
    return text + "\n" + "".join(f"wrote {path}\n" for path in paths)


def _main(argv):
    """`python -m knightgym.balance report DIR [--no-plots]`: what `knightgym balance`
    runs after writing DIR/balance.json."""
    if len(argv) not in (2, 3) or argv[0] != "report" or argv[2:] not in ([], ["--no-plots"]):
        print("usage: python -m knightgym.balance report DIR [--no-plots]", file=sys.stderr)
        return 2
    directory = argv[1]
    return result_files.report(
        "python -m knightgym.balance report",
        "a balance result",
        [directory],
        lambda d: _report_text(_write_report(d, d, plots=len(argv) == 2)),
    )


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
