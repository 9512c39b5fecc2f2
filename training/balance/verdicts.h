// What a sweep may say about each rule set's first-seat advantage, with its errors
// counted over the whole sweep: three verdicts, not two.
//
//   favours   the advantage is not 0: the first seat's (above) or the others' (below);
//   even      the advantage lies within +-margin (equivalence: the whole interval inside);
//   undecided neither is shown.
//
// Each rule set brings two hypotheses, "the advantage is 0" and "it lies beyond +-margin",
// tested by anytime-valid p-values (confidence_sequence.h), so a verdict holds however
// the run stopped. Holm's step-down over all 2m hypotheses of m rule sets, with Shaffer's
// (1986) restriction that a rule set's two cannot both hold (so at most m of them are
// true), keeps the chance of any false verdict in the sweep at most alpha (family-wise);
// a single rule set's verdicts then follow its own interval. Comparisons of two rule sets
// are tested as differences, Holm over their family.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "training/balance/confidence_sequence.h"
#include "training/balance/statistics.h"

namespace knightgym {

inline constexpr double kEvenMargin = 0.05;  // "even" within +-0.05 of the advantage

// Holm's adjusted p-values, in the order given: a hypothesis is rejected at family-wise
// level alpha when its adjusted p-value is at most alpha (as statsmodels' multipletests
// with method="holm"). Where at most `at_most_true` of the hypotheses can hold together,
// the j-th smallest p-value is multiplied by min(at_most_true, M - j + 1) rather than
// M - j + 1 (Shaffer's S1). Throws std::invalid_argument for a p-value outside [0, 1].
std::vector<double> holm_adjusted(std::span<const double> p_values, size_t at_most_true = SIZE_MAX);

enum class Verdict { kFavoursFirst, kFavoursOthers, kEven, kUndecided };

// "favours the first seat", "favours the other seats", "even" or "undecided".
const char* verdict_name(Verdict verdict);

struct AdvantageVerdict {
  Verdict verdict = Verdict::kUndecided;
  Interval interval;     // the confidence sequence at level 1 - alpha, this rule set alone
  double p_nonzero = 1;  // anytime p-value of "the advantage is 0"
  double p_even = 1;     // anytime p-value of "the advantage lies beyond +-margin"
  double adjusted_nonzero = 1, adjusted_even = 1;  // Holm over the sweep
};

// The verdicts of a sweep's rule sets, each advantage estimated over its blocks and its
// sequence tuned as `designs[i]`.
std::vector<AdvantageVerdict> advantage_verdicts(std::span<const MeanEstimate> advantages,
                                                 std::span<const SequenceDesign> designs,
                                                 double margin = kEvenMargin,
                                                 double alpha = kFamilyAlpha);

// The difference a - b of two advantages, whatever the dependence between the two runs
// (the rule sets of a sweep start from the same positions): both sequences at level
// 1 - alpha / 2, the difference inside [a.low - b.high, a.high - b.low] at level 1 - alpha.
struct SequenceDifference {
  double value = 0;
  Interval interval;   // at level 1 - alpha, alone
  double p_value = 1;  // the smallest alpha whose interval leaves out 0
};

SequenceDifference sequence_difference(const MeanEstimate& a, const SequenceDesign& design_a,
                                       const MeanEstimate& b, const SequenceDesign& design_b,
                                       double alpha = kFamilyAlpha);

// Every rule set's advantage against the first's, Holm over the m - 1 comparisons: entry
// i compares rule set i with rule set 0 (entry 0, the first with itself, has p-value 1).
struct RuleSetComparison {
  SequenceDifference difference;
  double adjusted_p_value = 1;
  bool significant = false;  // adjusted_p_value <= alpha
};

std::vector<RuleSetComparison> compare_with_first(std::span<const MeanEstimate> advantages,
                                                  std::span<const SequenceDesign> designs,
                                                  double alpha = kFamilyAlpha);

// A rule set's balance, 1 - (the highest seat's win rate - the lowest's), from each seat's
// wins of `games`.
double seat_balance(std::span<const int64_t> wins, int64_t games);

// A rule set's balance, 1 - (the highest seat's win rate - the lowest's), at level
// 1 - alpha: every seat's rate sequence at level 1 - alpha / seats, the spread between
// their far ends. `wins[s]`: seat s's wins of `games`; the design counts games.
Interval balance_sequence(std::span<const int64_t> wins, int64_t games,
                          const SequenceDesign& design, double alpha = kFamilyAlpha);

// The fairest rule set of a sweep (the highest balance, the first of equals), its
// balance's interval, and which rule sets are as fair as far as the games tell: those
// whose balance is not shown below the fairest's, Holm over the m - 1 comparisons (each
// difference valid under any dependence, as sequence_difference's).
struct FairestRuleSets {
  int fairest = 0;
  std::vector<Interval> balance;  // per rule set, at level 1 - alpha
  std::vector<double> p_values;   // of "as fair as the fairest", Holm-adjusted (1 for it)
  std::vector<bool> as_fair;      // not shown less fair than the fairest
};

FairestRuleSets fairest_rule_sets(std::span<const std::vector<int64_t>> wins,
                                  std::span<const int64_t> games,
                                  std::span<const SequenceDesign> designs,
                                  double alpha = kFamilyAlpha);

}  // namespace knightgym
