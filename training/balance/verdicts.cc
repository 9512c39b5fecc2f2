#include "training/balance/verdicts.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace knightgym {

std::vector<double> holm_adjusted(std::span<const double> p_values) {
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
    running = std::max(running, std::min(1.0, static_cast<double>(m - rank) * p_values[i]));
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
  const std::vector<double> adjusted = holm_adjusted(p_values);
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
  // The half-widths' sum falls as alpha grows; the p-value is the alpha where it meets
  // |a - b|, found by bisection on log alpha (60 halvings: far below any p-value's use).
  const auto gap_left = [&](double level) {
    const Interval sa = mean_sequence(a, design_a, level / 2);
    const Interval sb = mean_sequence(b, design_b, level / 2);
    return sa.low > sb.high || sb.low > sa.high;
  };
  if (!gap_left(1.0)) return d;
  double low = std::log(1e-300), high = 0;  // log alpha
  for (int i = 0; i < 60; ++i) {
    const double middle = (low + high) / 2;
    (gap_left(std::exp(middle)) ? high : low) = middle;
  }
  d.p_value = std::exp(high);
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

}  // namespace knightgym
