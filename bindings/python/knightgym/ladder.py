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

__all__ = ["run"]


def run(game, agents, games=100, schedule="roundrobin", threads=1, batch=0, seed=0,
        anchor=None, prior_draws=2.0):
    """Plays the ladder; returns its result as a dict: "ratings" (per agent, in the order
    given: spec, elo, half_width of the 95% interval, games, score) and "pairs" (each
    pair's games, the first agent's wins, draws, losses and score).

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
