// The statistics of rule balance: Wilson intervals for rates, normal intervals for
// means, percentiles, the generalized sequential probability ratio test, and
// Bradley-Terry ratings. Plain functions over plain numbers, so each one is tested
// against known values.
#pragma once

#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

#include "util/fields.h"
#include "util/quantiles.h"

namespace knightgym {

struct Interval {
  double low = 0, high = 0;
};

// The Wilson score interval of a rate: `successes` out of `trials`. It stays inside
// [0, 1] and is sound at 0 and n successes, unlike the normal interval.
Interval wilson_interval(int64_t successes, int64_t trials, double z = kZ95);

// A mean with its standard error and normal interval, over independent samples.
struct MeanEstimate {
  int64_t samples = 0;
  double mean = 0;
  double sd = 0;         // of one sample (n - 1 in the denominator)
  double std_error = 0;  // sd / sqrt(n)
  Interval interval() const { return {mean - kZ95 * std_error, mean + kZ95 * std_error}; }
};

MeanEstimate estimate_mean(std::span<const double> samples);

// The running sums of samples, which merge: a mean estimated from a stream of any length
// in constant memory.
struct MomentSums {
  int64_t count = 0;
  double sum = 0, squares = 0;

  void add(double x) {
    ++count;
    sum += x;
    squares += x * x;
  }
  void merge(const MomentSums& other) {
    count += other.count;
    sum += other.sum;
    squares += other.squares;
  }
  bool operator==(const MomentSums&) const = default;
};

MeanEstimate estimate_mean(const MomentSums& sums);

// The generalized SPRT of H0: mean = a0 against H1: mean = a1 (a0 < a1) for the mean of
// bounded i.i.d. samples, with the normal approximation of the log-likelihood ratio and
// the samples' own variance (as Fishtest does):
//   LLR = n (a1 - a0) (2 mean - a0 - a1) / (2 variance).
// H1 is accepted when LLR >= log((1 - beta) / alpha), H0 when LLR <= log(beta / (1 - alpha)):
// alpha bounds the chance of accepting H1 when H0 holds, beta the reverse. The variance
// of a handful of samples is no estimate (two equal samples have none), so nothing is
// decided before kSprtMinSamples.
struct SprtSettings {
  double a0 = 0, a1 = 0.05;
  double alpha = 0.05, beta = 0.05;
};

inline constexpr int64_t kSprtMinSamples = 16;

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

// "H0", "H1" or "undecided".
const char* sprt_decision_name(SprtDecision decision);

struct SprtState {
  double llr = 0, lower = 0, upper = 0;
  SprtDecision decision = SprtDecision::kContinue;

  static auto fields() {
    return std::tuple{field("llr", &SprtState::llr), field("lower", &SprtState::lower),
                      field("upper", &SprtState::upper), field("decision", [](const SprtState& s) {
                        return sprt_decision_name(s.decision);
                      })};
  }
};

// Throws std::invalid_argument unless a0 < a1 and alpha, beta are in (0, 0.5).
void check_sprt_settings(const SprtSettings& settings);
// From the running sums of the samples and of their squares.
SprtState sprt_state(const SprtSettings& settings, int64_t samples, double sum, double sum_squares);

inline constexpr double kEloPerTheta = 173.71779276130073;  // 400 / ln 10

// Bradley-Terry strengths from pairwise points: points[i][j] is what i scored against j
// (a win 1, a draw 1/2 to each). P(i beats j) = 1 / (1 + exp(theta_j - theta_i)). Fitted
// by Newton's method on the log-likelihood; `prior_draws` virtual draws between every
// pair that met keep the fit finite when one side won every game. Strengths have mean 0;
// their covariance is the (pseudo-)inverse Fisher information, so the variance of a
// difference theta_i - theta_j is cov(i,i) + cov(j,j) - 2 cov(i,j). Elo = theta * 400 / ln 10.
struct BradleyTerryFit {
  std::vector<double> theta, std_error;
  std::vector<std::vector<double>> covariance;
  int iterations = 0;
  bool converged = false;

  static auto fields() {
    return std::tuple{field("theta", &BradleyTerryFit::theta),
                      field("std_error", &BradleyTerryFit::std_error),
                      field("covariance", &BradleyTerryFit::covariance),
                      field("converged", &BradleyTerryFit::converged),
                      field("elo_per_theta", [](const BradleyTerryFit&) { return kEloPerTheta; })};
  }
};

BradleyTerryFit fit_bradley_terry(const std::vector<std::vector<double>>& points,
                                  double prior_draws = 0);

}  // namespace knightgym
