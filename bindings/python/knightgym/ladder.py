"""The rating ladder: agents play each other in pairs (C++, multi-threaded or batched),
and Bradley-Terry Elo with 95% intervals is fitted to the pairs' scores, one agent
(`random` when it is listed) at 0.

    import knightgym.ladder
    result = knightgym.ladder.run(
        "knight_fight", ["random", "greedy", "mcts:sims=100"], games=200, threads=2)
    {r["spec"]: round(r["elo"]) for r in result["ratings"]}   # {'random': 0, ...}

Each pair plays `games` seat-rotated games with paired starts (as `knightgym play`); in
games of 3 or 4 players the pair's two agents take the seats in turn. schedule
"roundrobin" plays every pair, "gauntlet" the first agent (or the first `challengers`)
against each other one. The
same from the shell: `knightgym ladder GAME --agents A,B,C --games N [--json FILE]`.
docs/strength.md has the ladders of every game.
"""

import json
import re

from knightgym import _knightgym
from knightgym import _result_files as result_files
from knightgym._checks import checked_seed
from knightgym._optional import extra
from knightgym._outputs import save_figure, write_text
from knightgym.markdown import table

__all__ = ["elo_over_time", "markdown", "merge", "plot_elo_over_time", "run"]

_SNAPSHOT = re.compile(r"model=[^,]*seconds-(\d+)\.pt")


def run(
    game,
    agents,
    games=100,
    schedule="roundrobin",
    threads=1,
    batch=0,
    chunk=0,
    seed=0,
    anchor=None,
    prior_draws=2.0,
    challengers=1,
):
    """Plays the ladder; returns its result as a dict: "ratings" (per agent, in the order
    given: name as given, canonical spec, elo, half_width of the 95% interval, games,
    score) and "pairs" (by name: each pair's games, the first agent's wins, draws, losses
    and score).

    game: a spec; agents: a list of specs or one text "random,mcts:sims=100"; games: per
    pair; threads: threads playing the games; batch > 0 plays each pair's games in chunks
    of that many played together, so that network agents share batches, the chunks of
    every pair shared by the threads; chunk (with batch): chunks of that many games,
    batch of them in play, a game that ends giving its place to the chunk's next, so
    that batches stay full where games' lengths differ; anchor: the spec rated 0 (default
    random if listed, else the first agent); prior_draws: virtual draws per pair, which
    keep a clean sweep's rating finite; challengers: in a gauntlet, the first agents,
    each of whom plays every other agent (the rest do not play each other). Bad options
    raise ValueError naming them before any game is played. The result depends on the
    seed (and batch and chunk), not on threads.
    """
    specs = agents if isinstance(agents, str) else [str(a) for a in agents]
    text = _knightgym.run_ladder(
        game,
        specs,
        int(games),
        str(schedule),
        int(threads),
        int(batch),
        int(chunk),
        checked_seed(seed),
        anchor,
        float(prior_draws),
        int(challengers),
    )
    return json.loads(text)


def merge(results, anchor="random", prior_draws=None):
    """One ladder from several of one game (dicts or JSON files): every pair each played,
    with Elo fitted to them all, agents matched by their canonical spec. A gauntlet of
    new agents merged with the round robin of the agents it met places the new ones on
    the round robin's scale, where the gauntlet alone, whose field agents met nobody
    else, would squeeze it. `anchor` (a name or spec) is rated 0; prior_draws defaults to
    the first ladder's. Raises ValueError for ladders of different games or a missing
    anchor."""
    results = [_load(r) for r in results]
    if not results:
        raise ValueError("merge: no ladders given")
    games = {r["game"] for r in results}
    if len(games) > 1:
        raise ValueError(f"merge: the ladders are of different games: {sorted(games)}")
    specs, names = [], {}
    for result in results:
        for rating in result["ratings"]:
            if rating["spec"] not in names:
                specs.append(rating["spec"])
                names[rating["spec"]] = rating["name"]
    index = {spec: i for i, spec in enumerate(specs)}
    pairs = []
    for result in results:
        spec_of = {r["name"]: r["spec"] for r in result["ratings"]}
        for p in result["pairs"]:
            pairs.append(
                (
                    index[spec_of[p["first"]]],
                    index[spec_of[p["second"]]],
                    p["first_wins"],
                    p["draws"],
                    p["first_losses"],
                )
            )
    anchors = [i for i, spec in enumerate(specs) if anchor in (spec, names[spec])]
    if not anchors:
        raise ValueError(f"merge: the anchor {anchor!r} is in none of the ladders")
    prior = results[0]["prior_draws"] if prior_draws is None else prior_draws
    fitted = _knightgym.fit_ladder(len(specs), pairs, anchors[0], float(prior))
    return {
        "game": results[0]["game"],
        "schedule": "merged",
        "ladders": len(results),
        "games_per_pair": "/".join(str(g) for g in sorted({r["games_per_pair"] for r in results})),
        "seed": results[0]["seed"],
        "prior_draws": prior,
        "anchor": names[specs[anchors[0]]],
        "seconds": sum(r["seconds"] for r in results),
        "ratings": [
            {
                "name": names[spec],
                "spec": spec,
                "elo": elo,
                "half_width": half,
                "games": games,
                "score": score,
            }
            for spec, (elo, half, games, score) in zip(specs, fitted)
        ],
        "pairs": [p for r in results for p in r["pairs"]],
    }


def markdown(result):
    """A ladder result (a dict, or the path of its JSON file) as Markdown: the ratings,
    strongest first, with their intervals, games and scores, then every pair's result."""
    result = _load(result)
    lines = [
        f"`{result['game']}`, {result['games_per_pair']} games per pair "
        f"({_schedule(result)}), seed {result['seed']}, {result['seconds']:.0f} s",
        "",
    ]
    ratings = [
        [
            f"`{r['name']}`",
            f"{r['elo']:.0f}",
            "anchor" if r["spec"] == result["anchor"] else f"± {r['half_width']:.0f}",
            r["games"],
            f"{100 * r['score']:.1f}%",
        ]
        for r in sorted(result["ratings"], key=lambda r: -r["elo"])
    ]
    lines += [table(["agent", "Elo", "95%", "games", "score"], ratings, align="lrrrr"), ""]
    pairs = [
        [
            f"`{p['first']}`",
            f"`{p['second']}`",
            f"{p['first_wins']}-{p['draws']}-{p['first_losses']}",
            f"{100 * (p['first_wins'] + p['draws'] / 2) / p['games']:.1f}%",
        ]
        for p in result["pairs"]
    ]
    names = ["first", "second", "first's W-D-L", "first's score"]
    lines.append(table(names, pairs, align="llrr"))
    return "\n".join(lines) + "\n"


def _load(result):
    return result if isinstance(result, dict) else result_files.load(result)


def elo_over_time(result):
    """The ratings of a training run's snapshots in a ladder (agents whose model is a
    snapshots/seconds-NNNNNNN.pt, as `knightgym train` writes with snapshot_seconds):
    [(minutes of training, elo, half_width)], earliest first."""
    points = []
    for r in _load(result)["ratings"]:
        found = _SNAPSHOT.search(r["spec"])
        if found:
            points.append((int(found.group(1)) / 60, r["elo"], r["half_width"]))
    return sorted(points)


def plot_elo_over_time(results, png):
    """One line per ladder (a dict or a JSON file): its snapshots' Elo against training
    minutes with 95% intervals, each game's fixed agents as dotted levels. Written whole
    or not at all."""
    with extra("plot", __name__):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

    results = [_load(r) for r in results]
    columns = min(3, len(results))
    rows = (len(results) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(5 * columns, 3.6 * rows), squeeze=False)
    for axis, result in zip(axes.flat, results):
        points = elo_over_time(result)
        minutes, elo, half = zip(*points) if points else ((), (), ())
        axis.errorbar(minutes, elo, yerr=half, marker="o", capsize=3, label="network, 64 sims")
        for r in result["ratings"]:
            if not _SNAPSHOT.search(r["spec"]):
                axis.axhline(r["elo"], linestyle=":", linewidth=1, color="grey")
                axis.annotate(
                    r["name"],
                    (0, r["elo"]),
                    fontsize=7,
                    color="grey",
                    xytext=(2, 2),
                    textcoords="offset points",
                )
        axis.set_title(result["game"].split("(")[0] + _mode(result["game"]), fontsize=10)
        axis.set_xlabel("training minutes")
        axis.set_ylabel("Elo (random = 0)")
    for axis in list(axes.flat)[len(results) :]:
        axis.set_visible(False)
    figure.tight_layout()
    save_figure(figure, png, dpi=100)
    plt.close(figure)


def _schedule(result):
    if result["schedule"] == "merged":
        return f"{result['ladders']} ladders merged"
    challengers = result.get("challengers", 1)
    if result["schedule"] == "gauntlet" and challengers > 1:
        return f"gauntlet of {challengers} challengers"
    return result["schedule"]


def _mode(spec):
    found = re.search(r"mode=(\w+)", spec)
    return f" ({found.group(1)})" if found else ""


def _main(argv):
    """python -m knightgym.ladder report FILE.json...: each ladder as Markdown;
    python -m knightgym.ladder merge OUT.json FILE.json...: one ladder of them all;
    python -m knightgym.ladder time-plot PNG FILE.json...: Elo against training time."""
    if len(argv) >= 2 and argv[0] == "report":
        return result_files.report(
            "python -m knightgym.ladder report", "a ladder result", argv[1:], markdown, "\n"
        )
    if len(argv) >= 3 and argv[0] == "merge":
        write_text(argv[1], json.dumps(merge(argv[2:]), indent=1) + "\n")
        return 0
    if len(argv) >= 3 and argv[0] == "time-plot":
        plot_elo_over_time(argv[2:], argv[1])
        return 0
    raise SystemExit(
        "usage: python -m knightgym.ladder report LADDER.json...\n"
        "       python -m knightgym.ladder merge OUT.json LADDER.json...\n"
        "       python -m knightgym.ladder time-plot PNG LADDER.json..."
    )


if __name__ == "__main__":
    import sys

    sys.exit(_main(sys.argv[1:]))
