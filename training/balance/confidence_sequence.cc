#include "training/balance/confidence_sequence.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace knightgym {
namespace {

void check_alpha(double alpha) {
  if (!(alpha > 0 && alpha < 1))
    throw std::invalid_argument("confidence sequence: alpha must be in (0, 1), got " +
                                std::to_string(alpha));
}

void check_estimate(const MeanEstimate& estimate) {
  if (estimate.samples < 0 || !(estimate.sd >= 0) || !std::isfinite(estimate.mean))
    throw std::invalid_argument(
        "confidence sequence: needs samples >= 0, sd >= 0 and a finite "
        "mean, got " +
        std::to_string(estimate.samples) + " samples, sd " + std::to_string(estimate.sd) +
        ", mean " + std::to_string(estimate.mean));
}

// The sd of the samples with one pseudo-sample of variance `prior_variance` added.
double padded_sd(const MeanEstimate& estimate, double prior_variance) {
  const double n = static_cast<double>(estimate.samples);
  return std::sqrt(((n - 1) * estimate.sd * estimate.sd + prior_variance) / n);
}

}  // namespace

double mixture_variance(const SequenceDesign& design) {
  check_alpha(design.alpha);
  if (design.tuned_samples < 1)
    throw std::invalid_argument("confidence sequence: tuned_samples must be at least 1, got " +
                                std::to_string(design.tuned_samples));
  const double log_alpha = std::log(design.alpha);
  return (-2 * log_alpha + std::log(1 - 2 * log_alpha)) / static_cast<double>(design.tuned_samples);
}

double sequence_radius(int64_t samples, const SequenceDesign& design, double alpha) {
  check_alpha(alpha);
  if (samples < 1)
    throw std::invalid_argument("confidence sequence: needs a sample, got " +
                                std::to_string(samples));
  const double r = mixture_variance(design), n = static_cast<double>(samples);
  return std::sqrt(2 * (n * r + 1) / (n * n * r) * std::log(std::sqrt(n * r + 1) / alpha));
}

Interval mean_sequence(const MeanEstimate& estimate, const SequenceDesign& design, double alpha,
                       double prior_variance) {
  check_estimate(estimate);
  if (estimate.samples == 0) return {-INFINITY, INFINITY};
  const double half = padded_sd(estimate, prior_variance) *
                      sequence_radius(estimate.samples, design, alpha > 0 ? alpha : design.alpha);
  return {estimate.mean - half, estimate.mean + half};
}

Interval rate_sequence(int64_t successes, int64_t trials, const SequenceDesign& design,
                       double alpha) {
  if (trials == 0) return wilson_interval(0, 0);
  // Wilson's interval solves |p_hat - p| = z sqrt(p (1 - p) / n) for p; here z / sqrt(n)
  // is w(n).
  const double w = sequence_radius(trials, design, alpha > 0 ? alpha : design.alpha);
  return wilson_interval(successes, trials, w * std::sqrt(static_cast<double>(trials)));
}

double anytime_p_value(const MeanEstimate& estimate, double value, const SequenceDesign& design,
                       double prior_variance) {
  check_estimate(estimate);
  if (estimate.samples == 0) return 1;
  const double r = mixture_variance(design), n = static_cast<double>(estimate.samples);
  const double sd = padded_sd(estimate, prior_variance);
  const double standardized = n * (estimate.mean - value) / sd;  // the sum in units of sd
  // log of 1 / M_n, M_n = exp(r S^2 / (2 (n r + 1))) / sqrt(n r + 1)
  const double log_p =
      0.5 * std::log(n * r + 1) - r * standardized * standardized / (2 * (n * r + 1));
  return std::min(1.0, std::exp(log_p));
}

}  // namespace knightgym
