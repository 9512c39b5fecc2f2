#include "training/balance/statistics.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace knightgym {

Interval wilson_interval(int64_t successes, int64_t trials, double z) {
  if (trials < 0 || successes < 0 || successes > trials)
    throw std::invalid_argument("wilson_interval: need 0 <= successes <= trials, got " +
                                std::to_string(successes) + " of " + std::to_string(trials));
  if (trials == 0) return {0, 1};
  const double n = static_cast<double>(trials), p = static_cast<double>(successes) / n;
  const double z2 = z * z, denominator = 1 + z2 / n;
  const double centre = (p + z2 / (2 * n)) / denominator;
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator;
  // At 0 and n successes the bound is exactly 0 or 1; rounding would leave 1 - 1e-16.
  return {successes == 0 ? 0.0 : centre - half, successes == trials ? 1.0 : centre + half};
}

MeanEstimate estimate_mean(std::span<const double> samples) {
  MeanEstimate estimate;
  estimate.samples = static_cast<int64_t>(samples.size());
  if (samples.empty()) return estimate;
  double sum = 0;
  for (const double x : samples) sum += x;
  const double n = static_cast<double>(samples.size());
  estimate.mean = sum / n;
  if (samples.size() < 2) return estimate;
  double squares = 0;
  for (const double x : samples) squares += (x - estimate.mean) * (x - estimate.mean);
  estimate.sd = std::sqrt(squares / (n - 1));
  estimate.std_error = estimate.sd / std::sqrt(n);
  return estimate;
}

MeanEstimate estimate_mean(const MomentSums& sums) {
  MeanEstimate estimate;
  estimate.samples = sums.count;
  if (sums.count == 0) return estimate;
  const double n = static_cast<double>(sums.count);
  estimate.mean = sums.sum / n;
  if (sums.count < 2) return estimate;
  // Rounding can leave a hair below zero when every sample is equal.
  const double squares = std::max(0.0, sums.squares - sums.sum * estimate.mean);
  estimate.sd = std::sqrt(squares / (n - 1));
  estimate.std_error = estimate.sd / std::sqrt(n);
  return estimate;
}

void check_sprt_settings(const SprtSettings& settings) {
  if (!(settings.a0 < settings.a1))
    throw std::invalid_argument("sprt: a0 must be below a1, got a0=" + std::to_string(settings.a0) +
                                " a1=" + std::to_string(settings.a1));
  for (const auto& [name, value] : {std::pair{"alpha", settings.alpha}, {"beta", settings.beta}})
    if (!(value > 0 && value < 0.5))
      throw std::invalid_argument(std::string("sprt: ") + name + " must be in (0, 0.5), got " +
                                  std::to_string(value));
}

SprtState sprt_state(const SprtSettings& settings, int64_t samples, double sum,
                     double sum_squares) {
  SprtState state;
  state.lower = std::log(settings.beta / (1 - settings.alpha));
  state.upper = std::log((1 - settings.beta) / settings.alpha);
  if (samples < 2) return state;
  const double n = static_cast<double>(samples), mean = sum / n;
  // Samples that are all equal have no variance; a tiny floor keeps the ratio finite and
  // lets their mean decide.
  const double variance = std::max(sum_squares / n - mean * mean, 1e-12);
  state.llr =
      n * (settings.a1 - settings.a0) * (2 * mean - settings.a0 - settings.a1) / (2 * variance);
  if (samples < kSprtMinSamples) return state;
  if (state.llr >= state.upper) state.decision = SprtDecision::kAcceptH1;
  if (state.llr <= state.lower) state.decision = SprtDecision::kAcceptH0;
  return state;
}

namespace {

// The pseudo-inverse of a symmetric positive semi-definite matrix (the Laplacian of the
// games played, whose null space holds the constant shift of all strengths).
Eigen::MatrixXd pseudo_inverse(const Eigen::MatrixXd& matrix) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(matrix);
  const Eigen::VectorXd values = solver.eigenvalues();
  const double tolerance = 1e-10 * std::max(1.0, values.cwiseAbs().maxCoeff());
  Eigen::VectorXd inverse(values.size());
  for (Eigen::Index i = 0; i < values.size(); ++i)
    inverse[i] = values[i] > tolerance ? 1 / values[i] : 0;
  return solver.eigenvectors() * inverse.asDiagonal() * solver.eigenvectors().transpose();
}

double log_likelihood(const Eigen::MatrixXd& wins, const Eigen::VectorXd& theta) {
  double total = 0;
  for (Eigen::Index i = 0; i < wins.rows(); ++i)
    for (Eigen::Index j = 0; j < wins.cols(); ++j)
      if (wins(i, j) > 0) total -= wins(i, j) * std::log1p(std::exp(theta[j] - theta[i]));
  return total;
}

}  // namespace

BradleyTerryFit fit_bradley_terry(const std::vector<std::vector<double>>& points,
                                  double prior_draws) {
  const Eigen::Index k = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd wins = Eigen::MatrixXd::Zero(k, k);
  for (Eigen::Index i = 0; i < k; ++i) {
    if (static_cast<Eigen::Index>(points[i].size()) != k)
      throw std::invalid_argument("fit_bradley_terry: points must be square");
    for (Eigen::Index j = 0; j < k; ++j) {
      if (points[i][j] < 0) throw std::invalid_argument("fit_bradley_terry: negative points");
      if (i != j) wins(i, j) = points[i][j];
    }
  }
  for (Eigen::Index i = 0; i < k; ++i)
    for (Eigen::Index j = 0; j < k; ++j)
      if (i != j && wins(i, j) + wins(j, i) > 0) wins(i, j) += prior_draws / 2;

  BradleyTerryFit fit;
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(k);
  Eigen::MatrixXd information(k, k);
  for (fit.iterations = 0; fit.iterations < 100; ++fit.iterations) {
    Eigen::VectorXd gradient = Eigen::VectorXd::Zero(k);
    information.setZero();
    for (Eigen::Index i = 0; i < k; ++i)
      for (Eigen::Index j = 0; j < k; ++j) {
        const double games = wins(i, j) + wins(j, i);
        if (i == j || games == 0) continue;
        const double p = 1 / (1 + std::exp(theta[j] - theta[i]));
        gradient[i] += wins(i, j) - games * p;
        information(i, i) += games * p * (1 - p);
        information(i, j) -= games * p * (1 - p);
      }
    Eigen::VectorXd step = pseudo_inverse(information) * gradient;
    // Newton's step, halved until the likelihood does not fall (it is concave, so far
    // from the optimum a full step can overshoot).
    const double before = log_likelihood(wins, theta);
    for (int halving = 0; halving < 40 && log_likelihood(wins, theta + step) < before; ++halving)
      step /= 2;
    theta += step;
    theta.array() -= theta.mean();
    if (step.cwiseAbs().maxCoeff() < 1e-10) {
      fit.converged = true;
      break;
    }
  }
  const Eigen::MatrixXd covariance = pseudo_inverse(information);
  for (Eigen::Index i = 0; i < k; ++i) {
    fit.theta.push_back(theta[i]);
    fit.std_error.push_back(std::sqrt(std::max(0.0, covariance(i, i))));
    fit.covariance.emplace_back(covariance.row(i).begin(), covariance.row(i).end());
  }
  if (k <= 1) fit.converged = true;
  return fit;
}

const char* sprt_decision_name(SprtDecision decision) {
  switch (decision) {
    case SprtDecision::kAcceptH0:
      return "H0";
    case SprtDecision::kAcceptH1:
      return "H1";
    case SprtDecision::kContinue:
      break;
  }
  return "undecided";
}

}  // namespace knightgym
