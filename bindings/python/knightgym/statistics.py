"""The statistics behind the balance runs and the ladders, as C++ computes them
(training/balance/statistics.h): the Wilson interval of a rate, the generalized
sequential probability ratio test, and Bradley-Terry strengths.

    from knightgym import statistics
    statistics.wilson_interval(58, 100)                 # (0.482, 0.672)
    statistics.sprt_state(a0=0, a1=0.05, alpha=0.05, beta=0.05,
                          samples=500, sum=78, sum_squares=490)
    fit = statistics.fit_bradley_terry([[0, 7], [3, 0]])
    elo = [t * fit["elo_per_theta"] for t in fit["theta"]]

docs/balance.md defines each one; tests/python/test_statistics.py checks them against
SciPy and statsmodels.
"""

from knightgym._knightgym import fit_bradley_terry, sprt_state, wilson_interval

__all__ = ["fit_bradley_terry", "sprt_state", "wilson_interval"]
