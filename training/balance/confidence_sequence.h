// Confidence sequences: intervals that hold at every number of samples at once, so that a
// run may stop whenever a sequential test says, or be extended later (balance --resume
// with more games), and its interval stays valid. A fixed-sample interval does not: the
// run stops most often where its estimate strays, and then covers less than it says.
//
// The asymptotic confidence sequence of Waudby-Smith, Arnold, Wu, Howard and Ramdas
// (2021, "Time-uniform central limit theory and asymptotic confidence sequences"),
// Robbins' normal mixture applied to the running mean of n samples with sd s:
//
//   mean +- s * w(n),  w(n) = sqrt(2 (n r + 1) / (n^2 r) * log(sqrt(n r + 1) / alpha))
//
// with r the mixture's variance (rho^2). r decides where the sequence is tightest: at
// n* samples for r = (-2 log alpha + log(1 - 2 log alpha)) / n*. A run fixes n* when it
// starts (its planned games) and keeps it when extended. At 95% and n = n* the sequence
// is 1.55 times as wide as the fixed-sample interval, and the tuning matters little: 1.57
// times at n* / 2 or 2 n*, 1.60 at 4 n*.
//
// It needs the count, mean and sd alone (MomentSums), so the reports recompute it from
// any run's figures. It is asymptotic, as the normal interval is; tests/cpp and the
// simulation study in docs/balance.md measure its coverage.
#pragma once

#include <cstdint>

#include "training/balance/statistics.h"

namespace knightgym {

inline constexpr double kFamilyAlpha = 0.05;  // the error rate every verdict is held to

// How a sequence is tuned: tightest at `tuned_samples`; at level 1 - alpha.
struct SequenceDesign {
  int64_t tuned_samples = 1000;
  double alpha = kFamilyAlpha;
};

// The mixture variance r of a sequence tightest at design.tuned_samples (>= 1).
double mixture_variance(const SequenceDesign& design);

// w(n) at level 1 - alpha for a sequence of the given design's r (the design's alpha only
// tunes r): the half-width of the interval per unit of sd.
double sequence_radius(int64_t samples, const SequenceDesign& design, double alpha);

// The interval of a mean at level 1 - alpha (the design's alpha by default), valid at
// every n. `prior_variance` is the variance of one pseudo-sample added to the spread, so
// that samples all equal (every game drawn) still give an interval of some width: 1, the
// variance of a two-player game's outcome at its widest.
Interval mean_sequence(const MeanEstimate& estimate, const SequenceDesign& design, double alpha = 0,
                       double prior_variance = 1);

// The interval of a rate, `successes` of `trials`, valid at every number of trials: the
// Wilson interval with z^2 / n replaced by w(n)^2 (the variance p (1 - p) at the bound,
// not at the estimate, so 0 and n successes get intervals of width).
Interval rate_sequence(int64_t successes, int64_t trials, const SequenceDesign& design,
                       double alpha = 0);

// The anytime-valid p-value of mean = value: 1 / (the mixture martingale at n), the
// smallest alpha whose sequence leaves `value` out. Under mean = value it is below
// alpha at some n with chance at most alpha, however the run stops.
double anytime_p_value(const MeanEstimate& estimate, double value, const SequenceDesign& design,
                       double prior_variance = 1);

}  // namespace knightgym
