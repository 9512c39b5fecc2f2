"""The statistics behind the balance runs and the ladders, as C++ computes them
(training/balance/statistics.h, confidence_sequence.h, verdicts.h): the Wilson interval
of a rate, the generalized sequential probability ratio test, Bradley-Terry strengths,
confidence sequences (intervals valid however a run stops), anytime-valid p-values,
Holm's adjustment, the fairest rule sets of a sweep and the rule sets that played the
same games (training/balance/same_games.h).

    from knightgym import statistics
    statistics.wilson_interval(58, 100)                 # (0.482, 0.672)
    statistics.sprt_state(a0=0, a1=0.05, alpha=0.05, beta=0.05,
                          samples=500, sum=78, sum_squares=490)
    fit = statistics.fit_bradley_terry([[0, 7], [3, 0]])
    elo = [t * fit["elo_per_theta"] for t in fit["theta"]]
    statistics.mean_sequence(mean=0.03, sd=0.97, samples=400, tuned_samples=2000)
    statistics.holm_adjusted([0.01, 0.04, 0.3])         # [0.03, 0.08, 0.3]
    statistics.sweep_statistics([(0.1, 0.9, 500), (0.02, 0.95, 500)], [500, 500])

docs/balance.md defines each one; tests/python/test_statistics.py checks them against
SciPy and statsmodels.
"""

from knightgym._knightgym import (
    anytime_p_value,
    fairest_rule_sets,
    fit_bradley_terry,
    holm_adjusted,
    mean_sequence,
    rate_sequence,
    sprt_state,
    sweep_statistics,
    wilson_interval,
)

__all__ = [
    "anytime_p_value",
    "fairest_rule_sets",
    "fit_bradley_terry",
    "holm_adjusted",
    "mean_sequence",
    "rate_sequence",
    "sprt_state",
    "sweep_statistics",
    "wilson_interval",
]
