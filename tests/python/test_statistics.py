"""The balance statistics (training/balance/statistics.h, through knightgym.statistics)
checked against independent implementations: statsmodels' Wilson interval, SciPy's
normal log-densities for the sequential test's log-likelihood ratio and Wald's bounds,
and statsmodels' binomial GLM for Bradley-Terry strengths and their standard errors. A
balance run's own figures are checked the same way, from its counts."""

import math

import numpy as np
import pytest
from scipy import stats

statsmodels = pytest.importorskip("statsmodels")
import knightgym.balance  # noqa: E402
import statsmodels.api as sm  # noqa: E402
from knightgym import statistics  # noqa: E402
from statsmodels.stats.proportion import proportion_confint  # noqa: E402


@pytest.mark.parametrize("trials", [1, 2, 7, 50, 1000, 123457])
def test_wilson_intervals_are_statsmodels(trials):
    for successes in sorted({0, 1, trials // 3, trials // 2, trials - 1, trials}):
        low, high = statistics.wilson_interval(successes, trials)
        expected = proportion_confint(successes, trials, alpha=0.05, method="wilson")
        assert (low, high) == pytest.approx(expected, abs=1e-12)
    # Another confidence level through z.
    z99 = stats.norm.ppf(0.995)
    assert statistics.wilson_interval(30, 80, z99) == pytest.approx(
        proportion_confint(30, 80, alpha=0.01, method="wilson"), abs=1e-12
    )


def test_wilson_refuses_impossible_counts():
    with pytest.raises(ValueError, match="0 <= successes <= trials"):
        statistics.wilson_interval(5, 4)


@pytest.mark.parametrize(
    "a0, a1, alpha, beta", [(0, 0.05, 0.05, 0.05), (-0.05, 0.05, 0.05, 0.1), (0.1, 0.3, 0.01, 0.2)]
)
def test_the_sprt_is_wald_with_scipys_normal_likelihoods(a0, a1, alpha, beta):
    rng = np.random.default_rng(7)
    for samples in (20, 300, 5000):
        # Block means of a two-player game: -1, -1/2, 0, 1/2, 1.
        x = rng.choice([-1, -0.5, 0, 0.5, 1], size=samples, p=[0.3, 0.1, 0.15, 0.1, 0.35])
        state = statistics.sprt_state(
            a0=a0,
            a1=a1,
            alpha=alpha,
            beta=beta,
            samples=samples,
            sum=float(x.sum()),
            sum_squares=float((x * x).sum()),
        )
        # Wald's bounds.
        assert state["lower"] == pytest.approx(math.log(beta / (1 - alpha)), rel=1e-12)
        assert state["upper"] == pytest.approx(math.log((1 - beta) / alpha), rel=1e-12)
        # The generalized SPRT: the samples' own (maximum-likelihood) variance in normal
        # likelihoods of H1's mean against H0's.
        sd = x.std()
        llr = (stats.norm.logpdf(x, a1, sd) - stats.norm.logpdf(x, a0, sd)).sum()
        assert state["llr"] == pytest.approx(llr, rel=1e-9, abs=1e-9)
        expected = "H1" if llr >= state["upper"] else "H0" if llr <= state["lower"] else "undecided"
        assert state["decision"] == expected
    with pytest.raises(ValueError, match="a0 must be below a1"):
        statistics.sprt_state(
            a0=0.1, a1=0.0, alpha=0.05, beta=0.05, samples=10, sum=0, sum_squares=1
        )


def _glm_strengths(wins):
    """Bradley-Terry by statsmodels: a binomial GLM with a logit link on the rows
    e_i - e_j of every pair that met (wins of i, wins of j), agent 0 the reference."""
    k = len(wins)
    rows, counts = [], []
    for i in range(k):
        for j in range(i + 1, k):
            if wins[i][j] + wins[j][i] == 0:
                continue
            row = np.zeros(k)
            row[i], row[j] = 1, -1
            rows.append(row[1:])
            counts.append([wins[i][j], wins[j][i]])
    fit = sm.GLM(np.array(counts), np.array(rows), family=sm.families.Binomial()).fit()
    return np.concatenate([[0.0], fit.params]), fit.cov_params()


def test_bradley_terry_is_statsmodels_binomial_glm():
    # Five agents, not every pair met, every agent both won and lost.
    wins = [
        [0, 12, 30, 0, 41],
        [8, 0, 17, 22, 0],
        [10, 23, 0, 14, 30],
        [0, 18, 26, 0, 9],
        [2, 0, 10, 31, 0],
    ]
    fit = statistics.fit_bradley_terry(wins, prior_draws=0)
    assert fit["converged"]
    theta = np.array(fit["theta"])
    covariance = np.array(fit["covariance"])
    reference, reference_cov = _glm_strengths(wins)
    # The same strengths, up to where zero is: the differences agree.
    assert theta - theta[0] == pytest.approx(reference, abs=1e-8)
    assert theta.mean() == pytest.approx(0, abs=1e-12)
    # The variance of every difference theta_i - theta_0 agrees with the GLM's, to the
    # 1e-6 that statsmodels leaves: its covariance comes from the weights of its last
    # iteration, not quite at the optimum.
    for i in range(1, 5):
        variance = covariance[i][i] + covariance[0][0] - 2 * covariance[i][0]
        assert variance == pytest.approx(reference_cov[i - 1][i - 1], rel=1e-5)
    # And of theta_i - theta_j between two non-reference agents.
    variance = covariance[2][2] + covariance[4][4] - 2 * covariance[2][4]
    glm = reference_cov[1][1] + reference_cov[3][3] - 2 * reference_cov[1][3]
    assert variance == pytest.approx(glm, rel=1e-5)
    assert fit["elo_per_theta"] == pytest.approx(400 / math.log(10))


def _mixture_radius(n, tuned, alpha=0.05):
    """Robbins' normal mixture, as Waudby-Smith et al. (2021) write the asymptotic
    confidence sequence, per unit of sd, with the mixture tuned at `tuned` samples."""
    r = (-2 * math.log(alpha) + math.log(1 - 2 * math.log(alpha))) / tuned
    return math.sqrt(2 * (n * r + 1) / (n * n * r) * math.log(math.sqrt(n * r + 1) / alpha))


def test_a_balance_runs_figures_follow_from_its_counts():
    result = knightgym.balance.run(
        "knight_fight", agents="mcts:sims=8,random", games=400, seed=3, progress=False
    )
    rule_set = result["rule_sets"][0]
    games, blocks = rule_set["games"], rule_set["blocks"]
    tuned = result["statistics"]["tuned_blocks"]
    assert tuned == 200  # the 400 games planned, in blocks of two
    # Rates: Wilson's interval whose z / sqrt(n) is the mixture's radius.
    for seat in rule_set["seats"]:
        z = _mixture_radius(games, 2 * tuned) * math.sqrt(games)
        alpha = 2 * stats.norm.sf(z)
        low, high = proportion_confint(seat["wins"], games, alpha=alpha, method="wilson")
        assert (seat["win_low"], seat["win_high"]) == pytest.approx((low, high), abs=1e-9)
    # The advantage: the block mean's sequence, its sd padded by one sample of variance
    # 1; the fixed-sample normal interval beside it.
    advantage = rule_set["first_seat_advantage"]
    sd = math.sqrt(((blocks - 1) * advantage["block_sd"] ** 2 + 1) / blocks)
    assert advantage["high"] - advantage["mean"] == pytest.approx(
        sd * _mixture_radius(blocks, tuned), rel=1e-8
    )
    z = stats.norm.ppf(0.975)
    assert advantage["fixed_high"] - advantage["mean"] == pytest.approx(
        z * advantage["std_error"], rel=1e-8
    )
    assert advantage["std_error"] == pytest.approx(
        advantage["block_sd"] / math.sqrt(rule_set["blocks"]), rel=1e-8
    )
    # Two agents: their Elo difference is Bradley-Terry's on the points of their games.
    elo = [agent["elo"] for agent in rule_set["agents"]]
    assert elo[0] > elo[1] and elo[0] == pytest.approx(-elo[1])


def test_holm_is_statsmodels():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(3)
    for m in (1, 2, 6, 16, 32):
        p = rng.uniform(0, 0.2, size=m) ** 2
        expected = multipletests(p, alpha=0.05, method="holm")[1]
        assert statistics.holm_adjusted(list(p)) == pytest.approx(list(expected), abs=1e-12)
    with pytest.raises(ValueError, match="must be in"):
        statistics.holm_adjusted([0.1, -0.2])


def test_a_sequence_at_alpha_ends_where_its_p_value_is_alpha():
    for mean, sd, n in ((0.1, 0.9, 300), (-0.4, 0.5, 5000), (0.0, 1.0, 20)):
        low, high = statistics.mean_sequence(mean=mean, sd=sd, samples=n, tuned_samples=1000)
        for bound in (low, high):
            p = statistics.anytime_p_value(
                mean=mean, sd=sd, samples=n, value=bound, tuned_samples=1000
            )
            assert p == pytest.approx(0.05, rel=1e-9)
        # Wider than the fixed-sample 95% interval of the same estimate.
        assert high - mean > stats.norm.ppf(0.975) * sd / math.sqrt(n)
    with pytest.raises(ValueError, match="sd >= 0"):
        statistics.mean_sequence(mean=0, sd=-1, samples=10, tuned_samples=10)
    with pytest.raises(ValueError, match="tuned_samples"):
        statistics.mean_sequence(mean=0, sd=1, samples=10, tuned_samples=0)


def test_a_rates_sequence_holds_the_wilson_interval():
    for successes, trials in ((0, 50), (17, 50), (50, 50), (480, 1000)):
        low, high = statistics.rate_sequence(successes, trials, tuned_samples=1000)
        wilson = proportion_confint(successes, trials, alpha=0.05, method="wilson")
        assert low <= wilson[0] + 1e-12 and high >= wilson[1] - 1e-12
    with pytest.raises(ValueError, match="0 <= successes <= trials"):
        statistics.rate_sequence(6, 5, tuned_samples=10)
