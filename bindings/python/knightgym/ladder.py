"""The rating ladder: agents play each other in pairs (C++, multi-threaded or batched),
and Bradley-Terry Elo with 95% intervals is fitted to the pairs' scores, one agent
(`random` when it is listed) at 0.

    import knightgym.ladder
    result = knightgym.ladder.run(
        "knight_fight", ["random", "greedy", "mcts:sims=100"], games=200, threads=2)
    {r["spec"]: round(r["elo"]) for r in result["ratings"]}   # {'random': 0, ...}

Each pair plays `games` seat-rotated games with paired starts (as `knightgym play`); in
games of 3 or 4 players the pair's two agents take the seats in turn. schedule
"roundrobin" plays every pair, "gauntlet" the first agent against each other one. The
same from the shell: `knightgym ladder GAME --agents A,B,C --games N [--json FILE]`.
docs/strength.md has the ladders of every game.
"""

import json

from knightgym import _knightgym

__all__ = ["markdown", "run"]


def run(game, agents, games=100, schedule="roundrobin", threads=1, batch=0, seed=0,
        anchor=None, prior_draws=2.0):
    """Plays the ladder; returns its result as a dict: "ratings" (per agent, in the order
    given: name as given, canonical spec, elo, half_width of the 95% interval, games,
    score) and "pairs" (by name: each pair's games, the first agent's wins, draws, losses
    and score).

    game: a spec; agents: a list of specs or one text "random,mcts:sims=100"; games: per
    pair; batch > 0 plays each pair's games that many at a time on one thread, so that
    network agents share batches (leave threads at 1); anchor: the spec rated 0 (default
    random if listed, else the first agent); prior_draws: virtual draws per pair, which
    keep a clean sweep's rating finite. Bad options raise ValueError naming them before
    any game is played. The result depends on the seed only, not on threads.
    """
    specs = agents if isinstance(agents, str) else [str(a) for a in agents]
    text = _knightgym.run_ladder(game, specs, int(games), str(schedule), int(threads),
                                 int(batch), int(seed), anchor, float(prior_draws))
    return json.loads(text)


def markdown(result):
    """A ladder result (a dict, or the path of its JSON file) as Markdown: the ratings,
    strongest first, with their intervals, games and scores, then every pair's result."""
    if not isinstance(result, dict):
        with open(result) as f:
            result = json.load(f)
    lines = [f"`{result['game']}`, {result['games_per_pair']} games per pair "
             f"({result['schedule']}), seed {result['seed']}, {result['seconds']:.0f} s",
             "", "| agent | Elo | 95% | games | score |", "|---|--:|--:|--:|--:|"]
    for r in sorted(result["ratings"], key=lambda r: -r["elo"]):
        interval = "anchor" if r["spec"] == result["anchor"] else f"± {r['half_width']:.0f}"
        lines.append(f"| `{r['name']}` | {r['elo']:.0f} | {interval} | {r['games']} | "
                     f"{100 * r['score']:.1f}% |")
    lines += ["", "| first | second | first's W-D-L | first's score |", "|---|---|--:|--:|"]
    for p in result["pairs"]:
        points = p["first_wins"] + p["draws"] / 2
        lines.append(f"| `{p['first']}` | `{p['second']}` | {p['first_wins']}-{p['draws']}-"
                     f"{p['first_losses']} | {100 * points / p['games']:.1f}% |")
    return "\n".join(lines) + "\n"


def _main(argv):
    """python -m knightgym.ladder report FILE.json...: each ladder as Markdown."""
    if len(argv) < 2 or argv[0] != "report":
        raise SystemExit("usage: python -m knightgym.ladder report LADDER.json...")
    print("\n".join(markdown(path) for path in argv[1:]), end="")


if __name__ == "__main__":
    import sys
    _main(sys.argv[1:])
