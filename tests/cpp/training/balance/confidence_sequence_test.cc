// Confidence sequences and the sweep's verdicts: the mixture's width against the formula,
// the p-value and the interval agreeing, Holm's adjustment by hand, and coverage on
// seeded streams of known mean stopped by the sequential test (the simulation study of
// docs/balance.md at a smaller size: tools/reports/coverage_study.py runs it in full).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "training/balance/confidence_sequence.h"
#include "training/balance/verdicts.h"

using namespace knightgym;

namespace {

MeanEstimate estimate(double mean, double sd, int64_t n) {
  return {n, mean, sd, sd / std::sqrt(static_cast<double>(n))};
}

// One game of a two-player game whose first seat wins with chance `win` and draws with
// chance `draw`: the first seat's advantage, 1, 0 or -1.
double outcome(std::mt19937_64& rng, double win, double draw) {
  const double u = std::uniform_real_distribution<double>(0, 1)(rng);
  return u < win ? 1.0 : u < win + draw ? 0.0 : -1.0;
}

}  // namespace

TEST_CASE("the mixture sequence is 1.55 times the fixed interval where it is tuned", "[balance]") {
  const SequenceDesign design{1000};
  // 2 (n r + 1) / (n^2 r) log(sqrt(n r + 1) / alpha), r n = -2 log a + log(1 - 2 log a)
  const double rn = -2 * std::log(0.05) + std::log(1 - 2 * std::log(0.05));
  const double by_hand = std::sqrt(2 * (rn + 1) / (1000 * rn) * std::log(std::sqrt(rn + 1) / 0.05));
  CHECK(sequence_radius(1000, design, 0.05) == Approx(by_hand).epsilon(1e-12));
  CHECK(sequence_radius(1000, design, 0.05) * std::sqrt(1000.0) / kZ95 ==
        Approx(1.5486).margin(1e-4));
  // Tuned elsewhere it is wider at n = 1000, but not by much.
  for (const int64_t tuned : {250, 4000})
    CHECK(sequence_radius(1000, {tuned}, 0.05) > sequence_radius(1000, design, 0.05));
  CHECK(sequence_radius(1000, {4000}, 0.05) < 1.1 * sequence_radius(1000, design, 0.05));
  // A lower alpha, a wider interval; more samples, a narrower one.
  CHECK(sequence_radius(1000, design, 0.01) > sequence_radius(1000, design, 0.05));
  CHECK(sequence_radius(2000, design, 0.05) < sequence_radius(1000, design, 0.05));
  CHECK_THROWS_WITH(sequence_radius(0, design, 0.05), Catch::Contains("needs a sample"));
  CHECK_THROWS_WITH(sequence_radius(10, design, 1.5), Catch::Contains("alpha"));
  CHECK_THROWS_WITH(mixture_variance({0}), Catch::Contains("tuned_samples"));
}

TEST_CASE("an interval's bounds are where the anytime p-value reaches alpha", "[balance]") {
  const SequenceDesign design{500};
  const MeanEstimate e = estimate(0.12, 0.9, 400);
  const Interval i = mean_sequence(e, design);
  CHECK(i.low < 0.12);
  CHECK(i.high > 0.12);
  CHECK(i.high - 0.12 == Approx(0.12 - i.low));
  CHECK(anytime_p_value(e, i.low, design) == Approx(0.05).epsilon(1e-9));
  CHECK(anytime_p_value(e, i.high, design) == Approx(0.05).epsilon(1e-9));
  CHECK(anytime_p_value(e, 0.12, design) == 1);
  CHECK(anytime_p_value(e, i.high + 0.01, design) < 0.05);
  // Wider than the fixed-sample interval, and at 99% wider still.
  CHECK(i.high - i.low > 2 * kZ95 * e.std_error);
  const Interval i99 = mean_sequence(e, design, 0.01);
  CHECK(i99.high > i.high);
  // Samples all equal (every game drawn) still leave an interval of width.
  const Interval draws = mean_sequence(estimate(0, 0, 2000), design);
  CHECK(draws.high > 0);
  CHECK(draws.high < 0.05);
}

TEST_CASE("a rate's sequence is Wilson's interval widened, sound at 0 and n", "[balance]") {
  const SequenceDesign design{100};
  const Interval none = rate_sequence(0, 100, design);
  CHECK(none.low == 0);
  CHECK(none.high > wilson_interval(0, 100).high);
  const Interval all = rate_sequence(100, 100, design);
  CHECK(all.high == 1);
  CHECK(all.low < wilson_interval(100, 100).low);
  const Interval half = rate_sequence(50, 100, design);
  CHECK(half.low < wilson_interval(50, 100).low);
  CHECK(half.high > wilson_interval(50, 100).high);
  CHECK(half.high - 0.5 == Approx(0.5 - half.low));
}

TEST_CASE("Holm's adjustment, by hand", "[balance]") {
  // Sorted 0.01, 0.02, 0.03, 0.5: times 4, 3, 2, 1 = 0.04, 0.06, 0.06, 0.5 (step-down).
  const std::vector<double> p{0.03, 0.5, 0.01, 0.02};
  const std::vector<double> adjusted = holm_adjusted(p);
  CHECK(adjusted[0] == Approx(0.06));
  CHECK(adjusted[1] == Approx(0.5));
  CHECK(adjusted[2] == Approx(0.04));
  CHECK(adjusted[3] == Approx(0.06));
  CHECK(holm_adjusted(std::vector<double>{0.9, 0.8})[0] == 1.0);
  // At most two of the four can hold together (Shaffer): times 2, 2, 2, 1.
  const std::vector<double> restricted = holm_adjusted(p, 2);
  CHECK(restricted[2] == Approx(0.02));
  CHECK(restricted[3] == Approx(0.04));
  CHECK(restricted[0] == Approx(0.06));
  CHECK(restricted[1] == Approx(0.5));
  CHECK(holm_adjusted(std::vector<double>{}).empty());
  CHECK_THROWS_WITH(holm_adjusted(std::vector<double>{0.2, 1.5}), Catch::Contains("1.5"));
}

TEST_CASE("three verdicts: favours, even within the margin, undecided", "[balance]") {
  const std::vector<MeanEstimate> advantages{
      estimate(-0.26, 0.97, 2000),  // clearly the second seat's
      estimate(0.004, 0.3, 4000),   // small spread, near 0: even within 0.05
      estimate(0.03, 0.98, 400),    // too few games to say
  };
  const std::vector<SequenceDesign> designs(3, SequenceDesign{2000});
  const auto verdicts = advantage_verdicts(advantages, designs);
  REQUIRE(verdicts.size() == 3);
  CHECK(verdicts[0].verdict == Verdict::kFavoursOthers);
  CHECK(verdicts[1].verdict == Verdict::kEven);
  CHECK(verdicts[2].verdict == Verdict::kUndecided);
  CHECK(std::string(verdict_name(verdicts[1].verdict)) == "even");
  for (const AdvantageVerdict& v : verdicts) {
    CHECK(v.adjusted_nonzero >= v.p_nonzero);
    CHECK(v.adjusted_even >= v.p_even);
  }
  // A single rule set's verdict follows its own interval (its two hypotheses cannot both
  // hold): nonzero exactly when the interval leaves out 0.
  for (const double mean : {0.05, 0.07, 0.09}) {
    const std::vector<MeanEstimate> alone{estimate(mean, 0.97, 2000)};
    const AdvantageVerdict v = advantage_verdicts(alone, std::vector<SequenceDesign>(1, {2000}))[0];
    CHECK((v.verdict == Verdict::kFavoursFirst) == (v.interval.low > 0));
  }
  // The same advantage alone may pass where among many it does not: z about 2.75.
  const MeanEstimate marginal = estimate(0.06, 0.97, 2000);
  const std::vector<MeanEstimate> one{marginal};
  const std::vector<MeanEstimate> sixteen(16, marginal);
  CHECK(advantage_verdicts(one, std::vector<SequenceDesign>(1, {2000}))[0].p_nonzero <
        advantage_verdicts(sixteen, std::vector<SequenceDesign>(16, {2000}))[0].adjusted_nonzero);
  CHECK_THROWS_WITH(advantage_verdicts(one, designs), Catch::Contains("1 advantages but 3"));
}

TEST_CASE("a difference of two rule sets holds under any dependence", "[balance]") {
  const SequenceDesign design{1000};
  const MeanEstimate a = estimate(0.2, 0.9, 1000), b = estimate(0.0, 0.9, 1000);
  const SequenceDifference d = sequence_difference(a, design, b, design);
  CHECK(d.value == Approx(0.2));
  const Interval ia = mean_sequence(a, design, 0.025), ib = mean_sequence(b, design, 0.025);
  CHECK(d.interval.low == Approx(ia.low - ib.high));
  CHECK(d.interval.high == Approx(ia.high - ib.low));
  CHECK(d.interval.low > 0);
  CHECK(d.p_value < 0.05);
  // At its p-value the two halves' intervals just touch.
  const Interval ta = mean_sequence(a, design, d.p_value / 2),
                 tb = mean_sequence(b, design, d.p_value / 2);
  CHECK(ta.low == Approx(tb.high).margin(1e-9));
  CHECK(sequence_difference(a, design, a, design).p_value == 1);
}

TEST_CASE("sequences stopped by the sequential test cover the truth", "[balance]") {
  // 300 runs of a game whose first seat's advantage is 0.03 (wins 0.45, draws 0.13),
  // looked at every 100 games up to 2,000, stopped once the SPRT of 0 against 0.05
  // decides: the fixed-sample interval at the stop covers less than 95%, the sequence
  // at least 94%; and the sequence misses the truth at any look in at most 6% of runs.
  const double win = 0.45, draw = 0.13, truth = win - (1 - win - draw);
  const SprtSettings sprt{0, 0.05, 0.05, 0.05};
  const SequenceDesign design{2000};
  std::mt19937_64 rng(20261128);
  int runs = 300, fixed_covers = 0, sequence_covers = 0, ever_missed = 0;
  for (int run = 0; run < runs; ++run) {
    MomentSums sums;
    bool missed = false;
    while (true) {
      for (int g = 0; g < 100; ++g) sums.add(outcome(rng, win, draw));
      const MeanEstimate e = estimate_mean(sums);
      const Interval i = mean_sequence(e, design);
      missed = missed || truth < i.low || truth > i.high;
      if (sums.count == 2000 ||
          sprt_state(sprt, sums.count, sums.sum, sums.squares).decision != SprtDecision::kContinue)
        break;
    }
    const MeanEstimate e = estimate_mean(sums);
    const Interval fixed = e.interval(), sequence = mean_sequence(e, design);
    fixed_covers += fixed.low <= truth && truth <= fixed.high;
    sequence_covers += sequence.low <= truth && truth <= sequence.high;
    ever_missed += missed;
  }
  INFO("fixed " << fixed_covers << ", sequence " << sequence_covers << ", ever missed "
                << ever_missed << " of " << runs);
  CHECK(fixed_covers < 0.95 * runs);
  CHECK(sequence_covers >= 0.94 * runs);
  CHECK(ever_missed <= 0.06 * runs);
}

TEST_CASE("a balance's interval, and the rule sets as fair as the fairest", "[balance]") {
  const SequenceDesign design{1000};
  // Two seats, 1,000 games: 500-480 is near even, 650-330 far from it.
  const std::vector<int64_t> even{500, 480}, uneven{650, 330}, close{520, 470};
  const Interval b = balance_sequence(even, 1000, design);
  CHECK(b.high == 1);  // the seats' intervals overlap: a spread of 0 is not ruled out
  CHECK(b.low < 0.98);
  const Interval u = balance_sequence(uneven, 1000, design);
  CHECK(u.high < 0.8);  // at most 1 - (the gap between the two seats' intervals)
  CHECK(u.low < 0.68);
  // The per-seat intervals are at alpha / seats: wider than the rate's own.
  CHECK(1 - u.high <
        rate_sequence(650, 1000, design).low - rate_sequence(330, 1000, design).high + 1e-12);

  const std::vector<std::vector<int64_t>> wins{uneven, even, close};
  const std::vector<int64_t> games{1000, 1000, 1000};
  const std::vector<SequenceDesign> designs(3, design);
  const FairestRuleSets fair = fairest_rule_sets(wins, games, designs);
  CHECK(fair.fairest == 1);
  CHECK(fair.as_fair == std::vector<bool>{false, true, true});
  CHECK(fair.p_values[1] == 1);
  CHECK(fair.p_values[0] < 0.05);
  CHECK(fair.p_values[2] > 0.05);
  CHECK(fair.balance[0].high == Approx(u.high));
  CHECK_THROWS_WITH(fairest_rule_sets(wins, std::vector<int64_t>{1000}, designs),
                    Catch::Contains("3 rule sets' wins, 1 game counts"));
}
