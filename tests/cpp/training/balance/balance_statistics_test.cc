// The balance statistics against known values: Wilson intervals from published tables,
// percentiles as numpy computes them, the SPRT's error rates and average sample numbers
// on Bernoulli streams of known p against Wald's approximations, and Bradley-Terry on
// matrices whose strengths are known.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "training/balance/statistics.h"

using namespace knightgym;

TEST_CASE("the Wilson interval matches published values", "[balance]") {
  // Newcombe (1998), table I, and the usual textbook cases.
  const struct {
    int64_t k, n;
    double low, high;
  } cases[] = {{0, 10, 0.0, 0.2775},
               {5, 10, 0.2366, 0.7634},
               {1, 3, 0.0615, 0.7923},
               {50, 100, 0.4038, 0.5962},
               {10, 10, 0.7225, 1.0}};
  for (const auto& c : cases) {
    const Interval interval = wilson_interval(c.k, c.n);
    INFO(c.k << " of " << c.n);
    CHECK(interval.low == Approx(c.low).margin(5e-5));
    CHECK(interval.high == Approx(c.high).margin(5e-5));
  }
  // No trials: no information.
  CHECK(wilson_interval(0, 0).low == 0);
  CHECK(wilson_interval(0, 0).high == 1);
  // A wider z widens it.
  CHECK(wilson_interval(5, 10, 2.5758).low < wilson_interval(5, 10).low);
  CHECK_THROWS_WITH(wilson_interval(11, 10), Catch::Contains("11 of 10"));
  CHECK_THROWS(wilson_interval(-1, 10));
}

TEST_CASE("means and percentiles", "[balance]") {
  const std::vector<double> values{1, 2, 3, 4};
  const MeanEstimate mean = estimate_mean(values);
  CHECK(mean.mean == 2.5);
  CHECK(mean.sd == Approx(std::sqrt(5.0 / 3)));
  CHECK(mean.std_error == Approx(std::sqrt(5.0 / 3) / 2));
  CHECK(mean.interval().low == Approx(2.5 - kZ95 * mean.std_error));
  CHECK(estimate_mean(std::vector<double>{7}).std_error == 0);

  // numpy.percentile([1, 2, 3, 4], q) for q = 0, 25, 50, 90, 100.
  CHECK(percentile(values, 0) == 1);
  CHECK(percentile(values, 25) == Approx(1.75));
  CHECK(percentile(values, 50) == Approx(2.5));
  CHECK(percentile(values, 90) == Approx(3.7));
  CHECK(percentile(values, 100) == 4);
  CHECK_THROWS(percentile(std::vector<double>{}, 50));
}

namespace {

struct SprtRuns {
  double accept_h1 = 0, mean_samples = 0, undecided = 0;
};

// Runs of the SPRT on +-1 samples that are +1 with probability p, looking after each.
SprtRuns run_sprt(const SprtSettings& settings, double p, int runs, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution win(p);
  SprtRuns result;
  for (int run = 0; run < runs; ++run) {
    double sum = 0, squares = 0;
    int64_t n = 0;
    SprtDecision decision = SprtDecision::kContinue;
    while (decision == SprtDecision::kContinue && n < 100000) {
      const double x = win(rng) ? 1 : -1;
      sum += x, squares += x * x, ++n;
      decision = sprt_state(settings, n, sum, squares).decision;
    }
    result.accept_h1 += decision == SprtDecision::kAcceptH1;
    result.undecided += decision == SprtDecision::kContinue;
    result.mean_samples += static_cast<double>(n);
  }
  result.accept_h1 /= runs;
  result.mean_samples /= runs;
  return result;
}

// Wald's average sample number: (P(accept H1) * B + P(accept H0) * A) / E[LLR step].
double wald_asn(const SprtSettings& s, double mean, double accept_h1) {
  const double variance = 1 - mean * mean;  // of +-1 samples
  const double step = (s.a1 - s.a0) * (2 * mean - s.a0 - s.a1) / (2 * variance);
  const double lower = std::log(s.beta / (1 - s.alpha)), upper = std::log((1 - s.beta) / s.alpha);
  return (accept_h1 * upper + (1 - accept_h1) * lower) / step;
}

}  // namespace

TEST_CASE("the SPRT keeps its error rates and Wald's sample numbers", "[balance]") {
  const SprtSettings settings{0.0, 0.1, 0.05, 0.05};
  constexpr int kRuns = 2000;
  // Under H0 (mean 0): H1 at most alpha of the time (plus Monte Carlo noise, sd 0.005).
  const SprtRuns h0 = run_sprt(settings, 0.5, kRuns, 1);
  CHECK(h0.undecided == 0);
  CHECK(h0.accept_h1 < 0.065);
  CHECK(h0.mean_samples == Approx(wald_asn(settings, 0.0, 0.05)).epsilon(0.15));  // about 530
  // Under H1 (mean 0.1): H0 at most beta of the time.
  const SprtRuns h1 = run_sprt(settings, 0.55, kRuns, 2);
  CHECK(h1.accept_h1 > 0.935);
  CHECK(h1.mean_samples == Approx(wald_asn(settings, 0.1, 0.95)).epsilon(0.15));  // about 470
  // Far above H1 it decides for H1 quickly; far below H0, for H0.
  const SprtRuns high = run_sprt(settings, 0.7, 500, 3);
  CHECK(high.accept_h1 == 1);
  CHECK(high.mean_samples < 150);
  const SprtRuns low = run_sprt(settings, 0.35, 500, 4);
  CHECK(low.accept_h1 == 0);
  CHECK(low.mean_samples < 150);
  // Half-way between the hypotheses it takes longest.
  CHECK(run_sprt(settings, 0.525, 500, 5).mean_samples > h0.mean_samples);
  // Looser error rates decide sooner.
  CHECK(run_sprt({0.0, 0.1, 0.2, 0.2}, 0.5, 500, 6).mean_samples < h0.mean_samples);
}

TEST_CASE("the SPRT's bounds and its state", "[balance]") {
  const SprtSettings settings{0.0, 0.05, 0.05, 0.1};
  const SprtState start = sprt_state(settings, 0, 0, 0);
  CHECK(start.decision == SprtDecision::kContinue);
  CHECK(start.lower == Approx(std::log(0.1 / 0.95)));
  CHECK(start.upper == Approx(std::log(0.9 / 0.05)));
  // 400 samples of mean 0.1 and variance 0.99: LLR = 400 * 0.05 * 0.15 / (2 * 0.99).
  const double sum = 40, squares = 400;
  CHECK(sprt_state(settings, 400, sum, squares).llr == Approx(400 * 0.05 * 0.15 / (2 * 0.99)));
  // Samples all equal decide by their side of the midpoint, but not before 16 of them.
  CHECK(sprt_state(settings, 16, 16, 16).decision == SprtDecision::kAcceptH1);
  CHECK(sprt_state(settings, 16, -16, 16).decision == SprtDecision::kAcceptH0);
  CHECK(sprt_state(settings, 15, 15, 15).decision == SprtDecision::kContinue);
  CHECK(sprt_state(settings, 15, 15, 15).llr > 1000);
  CHECK_THROWS_WITH(check_sprt_settings({0.1, 0.05, 0.05, 0.05}), Catch::Contains("a0"));
  CHECK_THROWS_WITH(check_sprt_settings({0, 0.05, 0.5, 0.05}), Catch::Contains("alpha"));
  CHECK_THROWS_WITH(check_sprt_settings({0, 0.05, 0.05, 0}), Catch::Contains("beta"));
}

TEST_CASE("Bradley-Terry recovers known strengths", "[balance]") {
  // Expected results of 100 games per pair between players of known strengths.
  const std::vector<double> truth{0.5, -0.25, -1.0, 0.75};  // mean 0
  std::vector<std::vector<double>> points(4, std::vector<double>(4, 0));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      if (i != j) points[i][j] = 100 / (1 + std::exp(truth[j] - truth[i]));
  const BradleyTerryFit fit = fit_bradley_terry(points);
  REQUIRE(fit.converged);
  for (int i = 0; i < 4; ++i) CHECK(fit.theta[i] == Approx(truth[i]).margin(1e-8));

  // Two players, 3 wins of 4: theta_A - theta_B = ln 3, and the variance of the
  // difference is 1 / (n p (1 - p)), half of it on each centred strength.
  const BradleyTerryFit pair = fit_bradley_terry({{0, 3}, {1, 0}});
  CHECK(pair.theta[0] - pair.theta[1] == Approx(std::log(3.0)));
  CHECK(pair.theta[0] + pair.theta[1] == Approx(0).margin(1e-12));
  CHECK(pair.std_error[0] == Approx(0.5 * std::sqrt(1 / (4 * 0.75 * 0.25))));
  CHECK(pair.theta[0] * kEloPerTheta == Approx(400 * std::log10(3.0) / 2));

  // A clean sweep has no finite maximum; one virtual draw gives ln(10.5 / 0.5).
  const BradleyTerryFit sweep = fit_bradley_terry({{0, 10}, {0, 0}}, 1.0);
  REQUIRE(sweep.converged);
  CHECK(sweep.theta[0] - sweep.theta[1] == Approx(std::log(21.0)));

  // One player: strength 0.
  CHECK(fit_bradley_terry({{0}}).theta == std::vector<double>{0});
  CHECK_THROWS_WITH(fit_bradley_terry({{0, 1}, {1}}), Catch::Contains("square"));
}
