#include "training/balance/verdicts.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace knightgym {
namespace {

// The smallest alpha in (0, 1] at which `separated(alpha)` holds, for a predicate that
// holds from some alpha up (intervals narrow as alpha grows); 1 where it never does. By
// bisection on log alpha: 60 halvings, far below any p-value's use.
template <typename Separated>
double smallest_alpha(const Separated& separated) {
  if (!separated(1.0)) return 1;
  double low = std::log(1e-300), high = 0;
  for (int i = 0; i < 60; ++i) {
    const double middle = (low + high) / 2;
    (separated(std::exp(middle)) ? high : low) = middle;
  }
  return std::exp(high);
}

}  // namespace

std::vector<double> holm_adjusted(std::span<const double> p_values, size_t at_most_true) {
  for (const double p : p_values)
    if (!(p >= 0 && p <= 1))
      throw std::invalid_argument("holm_adjusted: a p-value must be in [0, 1], got " +
                                  std::to_string(p));
  const size_t m = p_values.size();
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return p_values[a] < p_values[b]; });
  std::vector<double> adjusted(m);
  double running = 0;  // step-down: an adjusted p-value never falls below an earlier one
  for (size_t rank = 0; rank < m; ++rank) {
    const size_t i = order[rank];
    const double factor = static_cast<double>(std::min(at_most_true, m - rank));
    running = std::max(running, std::min(1.0, factor * p_values[i]));
    adjusted[i] = running;
  }
  return adjusted;
}

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFavoursFirst:
      return "favours the first seat";
    case Verdict::kFavoursOthers:
      return "favours the other seats";
    case Verdict::kEven:
      return "even";
    case Verdict::kUndecided:
      return "undecided";
  }
  return "undecided";
}

std::vector<AdvantageVerdict> advantage_verdicts(std::span<const MeanEstimate> advantages,
                                                 std::span<const SequenceDesign> designs,
                                                 double margin, double alpha) {
  if (advantages.size() != designs.size())
    throw std::invalid_argument("advantage_verdicts: " + std::to_string(advantages.size()) +
                                " advantages but " + std::to_string(designs.size()) + " designs");
  if (!(margin > 0))
    throw std::invalid_argument("advantage_verdicts: the margin must be above 0, got " +
                                std::to_string(margin));
  const size_t m = advantages.size();
  std::vector<AdvantageVerdict> verdicts(m);
  std::vector<double> p_values;  // every rule set's two hypotheses, one family
  for (size_t i = 0; i < m; ++i) {
    const MeanEstimate& a = advantages[i];
    AdvantageVerdict& v = verdicts[i];
    v.interval = mean_sequence(a, designs[i], alpha);
    v.p_nonzero = anytime_p_value(a, 0, designs[i]);
    // The sequence lies inside (-margin, margin) once it leaves out both ends with the
    // estimate between them.
    v.p_even = std::abs(a.mean) < margin ? std::max(anytime_p_value(a, margin, designs[i]),
                                                    anytime_p_value(a, -margin, designs[i]))
                                         : 1.0;
    p_values.push_back(v.p_nonzero);
    p_values.push_back(v.p_even);
  }
  const std::vector<double> adjusted = holm_adjusted(p_values, m);
  for (size_t i = 0; i < m; ++i) {
    AdvantageVerdict& v = verdicts[i];
    v.adjusted_nonzero = adjusted[2 * i];
    v.adjusted_even = adjusted[2 * i + 1];
    if (v.adjusted_nonzero <= alpha)
      v.verdict = advantages[i].mean > 0 ? Verdict::kFavoursFirst : Verdict::kFavoursOthers;
    else if (v.adjusted_even <= alpha)
      v.verdict = Verdict::kEven;
  }
  return verdicts;
}

SequenceDifference sequence_difference(const MeanEstimate& a, const SequenceDesign& design_a,
                                       const MeanEstimate& b, const SequenceDesign& design_b,
                                       double alpha) {
  SequenceDifference d;
  d.value = a.mean - b.mean;
  const Interval ia = mean_sequence(a, design_a, alpha / 2);
  const Interval ib = mean_sequence(b, design_b, alpha / 2);
  d.interval = {ia.low - ib.high, ia.high - ib.low};
  // The p-value: the alpha where the half-widths' sum meets |a - b|.
  d.p_value = smallest_alpha([&](double level) {
    const Interval sa = mean_sequence(a, design_a, level / 2);
    const Interval sb = mean_sequence(b, design_b, level / 2);
    return sa.low > sb.high || sb.low > sa.high;
  });
  return d;
}

std::vector<RuleSetComparison> compare_with_first(std::span<const MeanEstimate> advantages,
                                                  std::span<const SequenceDesign> designs,
                                                  double alpha) {
  if (advantages.size() != designs.size())
    throw std::invalid_argument("compare_with_first: " + std::to_string(advantages.size()) +
                                " advantages but " + std::to_string(designs.size()) + " designs");
  std::vector<RuleSetComparison> comparisons(advantages.size());
  std::vector<double> p_values;
  for (size_t i = 1; i < advantages.size(); ++i) {
    comparisons[i].difference =
        sequence_difference(advantages[i], designs[i], advantages[0], designs[0], alpha);
    p_values.push_back(comparisons[i].difference.p_value);
  }
  const std::vector<double> adjusted = holm_adjusted(p_values);
  for (size_t i = 1; i < advantages.size(); ++i) {
    comparisons[i].adjusted_p_value = adjusted[i - 1];
    comparisons[i].significant = adjusted[i - 1] <= alpha;
  }
  return comparisons;
}

double seat_balance(std::span<const int64_t> wins, int64_t games) {
  double highest = 0, lowest = 1;
  for (const int64_t w : wins) {
    const double rate = static_cast<double>(w) / static_cast<double>(games);
    highest = std::max(highest, rate), lowest = std::min(lowest, rate);
  }
  return 1 - (highest - lowest);
}

Interval balance_sequence(std::span<const int64_t> wins, int64_t games,
                          const SequenceDesign& design, double alpha) {
  if (wins.empty()) throw std::invalid_argument("balance_sequence: no seats");
  const double per_seat = alpha / static_cast<double>(wins.size());
  double highest_low = 0, lowest_high = 1, highest_high = 0, lowest_low = 1;
  for (const int64_t w : wins) {
    const Interval rate = rate_sequence(w, games, design, per_seat);
    highest_low = std::max(highest_low, rate.low), lowest_high = std::min(lowest_high, rate.high);
    highest_high = std::max(highest_high, rate.high), lowest_low = std::min(lowest_low, rate.low);
  }
  // The spread of the true rates lies between these: at least the gap between two seats'
  // intervals, at most their far ends apart.
  const double spread_low = std::max(0.0, highest_low - lowest_high);
  const double spread_high = highest_high - lowest_low;
  return {1 - spread_high, 1 - spread_low};
}

FairestRuleSets fairest_rule_sets(std::span<const std::vector<int64_t>> wins,
                                  std::span<const int64_t> games,
                                  std::span<const SequenceDesign> designs, double alpha) {
  const size_t m = wins.size();
  if (games.size() != m || designs.size() != m || m == 0)
    throw std::invalid_argument("fairest_rule_sets: " + std::to_string(m) + " rule sets' wins, " +
                                std::to_string(games.size()) + " game counts and " +
                                std::to_string(designs.size()) + " designs");
  FairestRuleSets result;
  std::vector<double> balances;
  for (size_t i = 0; i < m; ++i) {
    if (games[i] < 1)
      throw std::invalid_argument("fairest_rule_sets: rule set " + std::to_string(i) +
                                  " played no games");
    balances.push_back(seat_balance(wins[i], games[i]));
    if (balances[i] > balances[result.fairest]) result.fairest = static_cast<int>(i);
    result.balance.push_back(balance_sequence(wins[i], games[i], designs[i], alpha));
  }
  const size_t f = static_cast<size_t>(result.fairest);
  std::vector<double> p_values;
  for (size_t i = 0; i < m; ++i) {
    if (i == f) continue;
    p_values.push_back(smallest_alpha([&](double level) {
      return balance_sequence(wins[f], games[f], designs[f], level / 2).low >
             balance_sequence(wins[i], games[i], designs[i], level / 2).high;
    }));
  }
  const std::vector<double> adjusted = holm_adjusted(p_values);
  for (size_t i = 0, k = 0; i < m; ++i) {
    const double p = i == f ? 1.0 : adjusted[k++];
    result.p_values.push_back(p);
    result.as_fair.push_back(p > alpha);
  }
  return result;
}

}  // namespace knightgym
