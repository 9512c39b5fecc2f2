"""A Python policy's score against a C++ opponent: one game in each environment of an
opponent env, tallied with the win rate's 95% Wilson interval (what the examples print).

    result = scoring.score_policy("tailten", lambda obs: policy(obs), opponent="random", games=400)
    scoring.report("after training", result)   # prints a line

or, on an env of one's own, scoring.tally(scoring.first_game_returns(env, choose, seed)).
"""

import numpy as np

from knightgym.statistics import wilson_interval


def add_example_arguments(parser, game, score_games, seat=True):
    """The flags that every example shares, on an argparse parser: --game (a spec),
    --opponent (an agent spec), --seat (the learner's, where `seat`), --score-games (the
    games each score is measured over) and --seed."""
    parser.add_argument("--game", default=game, help="a game spec")
    parser.add_argument("--opponent", default="random", help="an agent spec")
    if seat:
        parser.add_argument("--seat", type=int, default=0, help="the learner's seat")
    parser.add_argument("--score-games", type=int, default=score_games, help="games per score")
    parser.add_argument("--seed", type=int, default=0)


def score_policy(spec, choose, *, opponent="random", seat=None, games=200, seed=None):
    """The tally of choose(obs) against `opponent` (an agent spec): one game in each of
    `games` environments of knightgym.make(spec, opponent=...), the learner in `seat` (or
    rotated across them). choose gets the env's observation dict, whose arrays are
    read-only, and gives the learner's actions."""
    import knightgym

    env = knightgym.make(spec, num_envs=games, opponent=opponent, seat=seat, seed=seed)
    return tally(first_game_returns(env, choose))


def first_game_returns(env, choose, seed=None):
    """The learner's return in each environment's first game, float [N]: `env` is a
    vector env over an OpponentEnv (gymnasium.make_vec's, or knightgym.make with an
    opponent) and choose(obs) gives the learner's actions. Later games go unseen."""
    obs, _ = env.reset(seed=seed)
    returns = np.full(env.num_envs, np.nan)
    while np.isnan(returns).any():
        obs, rewards, terminated, truncated, _ = env.step(choose(obs))
        first = (terminated | truncated) & np.isnan(returns)
        returns[first] = rewards[first]
    return returns


def tally(returns):
    """Wins (return > 0), draws (0) and losses of `returns`, the win rate with its 95%
    Wilson interval, and the score (a win 1, a draw 1/2) with its normal 95% half-width."""
    returns = np.asarray(returns)
    wins, draws = int((returns > 0).sum()), int((returns == 0).sum())
    games = len(returns)
    points = (returns > 0) + 0.5 * (returns == 0)
    half_width = 1.96 * points.std(ddof=1) / np.sqrt(games) if games > 1 else float("inf")
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "win_rate": wins / games,
        "interval": wilson_interval(wins, games),
        "score": float(points.mean()),
        "score_half_width": float(half_width),
    }


def report(label, result):
    """Prints one line of a tally (games, wins, draws, losses, the win rate and its
    interval) and returns the tally."""
    low, high = result["interval"]
    print(
        f"{label}: {result['games']} games, {result['wins']} won, {result['draws']} drawn, "
        f"{result['losses']} lost: win rate {100 * result['win_rate']:.1f}% "
        f"(95% interval {100 * low:.1f}-{100 * high:.1f}%)",
        flush=True,
    )
    return result
