#!/usr/bin/env python3
"""The simulation study behind the balance statistics (docs/balance.md, "How sure"): do
the reported intervals cover the truth as often as they say, however a run stops, and
does a sweep keep its family-wise error? Prints a Markdown table.

    PYTHONPATH=build/python .venv/bin/python tools/reports/coverage_study.py \
        [--runs 300] [--truth-games 1000000]

The truth: the game that sets `coverage` in its studies (env/games/<game>/studies.json:
Knight Fight) between random players, whose first seat's advantage 10^6 games measure to
+-0.002. Then three studies, each seeded:

1. **Stopped by the sequential test.** `runs` real balance runs (knightgym.balance, at
   most 2,000 games, a look every 100), each testing a0 against a1 either side of the
   truth, so that most stop early, where their estimate strays. Coverage of the truth
   by the advantage's fixed-sample interval (what balance.json reported before) and by
   its confidence sequence, at the stop.
2. **Extended when undecided.** Real runs of 400 games, extended (resume=True, as
   `balance --resume --games N`) by 400 more at a time up to 4,000 while the verdict is
   "undecided" (a continuation that depends on the data): coverage at the end.
3. **A sweep of 16 equal rule sets.** 16 rule sets with the truth's rates, each 1,000
   games whose outcomes are drawn from the truth's win, draw and loss rates (the games
   are independent, so this is the same as playing them): the chance that any
   comparison with the first rule set is called significant (family-wise error; before:
   the uncorrected z-test) and that any verdict is false.
"""

import argparse
import math
import sys
import tempfile
from pathlib import Path

import numpy as np
from knightgym import balance, statistics
from knightgym.markdown import table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # tools/lib: studies
import studies  # noqa: E402

# The game of the study: the first whose studies set `coverage` (tools/lib/studies.py).
GAME = studies.get(studies.games("coverage")[0], "coverage.spec")
Z95 = 1.959963984540054


def truth(games, seed=1):
    """The first seat's win, draw and loss rates of random players over `games` games."""
    result = balance.run(GAME, agents="random", games=games, threads=2, seed=seed, progress=False)
    seat = result["rule_sets"][0]["seats"][0]
    n = result["rule_sets"][0]["games"]
    return seat["wins"] / n, seat["draws"] / n, seat["losses"] / n, n


def covers(low, high, value):
    return low <= value <= high


def stopped_runs(runs, advantage, seed=100):
    """Study 1: real runs stopped by the SPRT of a0 = truth - 0.06 against a1 = truth + 0.04."""
    fixed = sequence = stopped_early = 0
    sprt = {"a0": round(advantage - 0.06, 4), "a1": round(advantage + 0.04, 4)}
    for run in range(runs):
        result = balance.run(
            GAME,
            agents="random",
            games=2000,
            sprt=sprt,
            check_every=100,
            seed=seed + run,
            progress=False,
        )
        r = result["rule_sets"][0]
        a = r["first_seat_advantage"]
        fixed += covers(a["fixed_low"], a["fixed_high"], advantage)
        sequence += covers(a["low"], a["high"], advantage)
        stopped_early += r["games"] < 2000
    return fixed / runs, sequence / runs, stopped_early / runs


def draw_outcomes(rng, rates, n):
    """n games' first-seat outcomes (1, 0, -1) at the truth's rates."""
    return rng.choice([1.0, 0.0, -1.0], size=n, p=rates)


def estimate(samples):
    n = len(samples)
    return float(samples.mean()), float(samples.std(ddof=1)), n


def extended_runs(runs, advantage, seed=200):
    """Study 2: real runs of 400 games, extended with resume=True by 400 more while their
    verdict is undecided, up to 4,000."""
    fixed = sequence = extended = 0
    with tempfile.TemporaryDirectory() as scratch:
        for run in range(runs):
            out = Path(scratch) / f"run{run}"
            games = 400
            while True:
                result = balance.run(
                    GAME,
                    agents="random",
                    games=games,
                    seed=seed + run,
                    out=out,
                    resume=True,
                    progress=False,
                    plots=False,
                )
                r = result["rule_sets"][0]
                if r["verdict"] != "undecided" or games >= 4000:
                    break
                games += 400
            extended += games > 400
            a = r["first_seat_advantage"]
            fixed += covers(a["fixed_low"], a["fixed_high"], advantage)
            sequence += covers(a["low"], a["high"], advantage)
    return fixed / runs, sequence / runs, extended / runs


def sweep_runs(runs, rates, advantage, rule_sets=16, games=1000, seed=300):
    """Study 3: family-wise errors of a sweep whose rule sets are all alike."""
    rng = np.random.default_rng(seed)
    naive = corrected = false_verdict = 0
    for _ in range(runs):
        estimates = [estimate(draw_outcomes(rng, rates, games)) for _ in range(rule_sets)]
        figures = statistics.sweep_statistics(estimates, [games] * rule_sets)
        first = estimates[0]
        naive_any = False
        for mean, sd, n in estimates[1:]:
            z = (mean - first[0]) / math.hypot(sd / math.sqrt(n), first[1] / math.sqrt(first[2]))
            naive_any = naive_any or abs(z) > Z95
        naive += naive_any
        corrected += any(f["vs_first"]["significant"] for f in figures[1:])
        wrong = "favours the other seats" if advantage > 0 else "favours the first seat"
        false_verdict += any(
            f["verdict"] == wrong or (f["verdict"] == "even" and abs(advantage) >= 0.05)
            for f in figures
        )
    return naive / runs, corrected / runs, false_verdict / runs


def study(runs, truth_games):
    win, draw, loss, n = truth(truth_games)
    rates = [win, draw, loss]
    advantage = win - loss
    error = Z95 * math.sqrt((win + loss - advantage**2) / n)
    rows = [
        (
            "the truth",
            f"{GAME}, random players, {n:,} games",
            f"advantage {advantage:+.4f} +- {error:.4f}",
            "",
        )
    ]
    f, s, early = stopped_runs(runs, advantage)
    rows.append(
        (
            "stopped by the sequential test",
            f"{runs} runs, {100 * early:.0f}% stopped early",
            f"{100 * f:.1f}%",
            f"{100 * s:.1f}%",
        )
    )
    f, s, extended = extended_runs(runs, advantage)
    rows.append(
        (
            "extended while undecided",
            f"{runs} runs, {100 * extended:.0f}% extended",
            f"{100 * f:.1f}%",
            f"{100 * s:.1f}%",
        )
    )
    naive, corrected, false_verdict = sweep_runs(runs, rates, advantage)
    rows.append(
        (
            "sweep of 16 equal rule sets: any difference called significant",
            f"{runs} sweeps",
            f"{100 * naive:.1f}%",
            f"{100 * corrected:.1f}%",
        )
    )
    rows.append(
        (
            "sweep of 16 equal rule sets: any false verdict",
            f"{runs} sweeps",
            "",
            f"{100 * false_verdict:.1f}%",
        )
    )
    return rows


def markdown(rows):
    names = ["study", "runs", "before: fixed-sample, uncorrected", "now: sequences, Holm"]
    return table(names, rows, align="llrr") + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--truth-games", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    if args.runs < 1 or args.truth_games < 1000:
        parser.error("--runs must be at least 1 and --truth-games at least 1000")
    sys.stdout.write(markdown(study(args.runs, args.truth_games)))


if __name__ == "__main__":
    main(sys.argv[1:])
