// knightgym._knightgym's statistics: the Wilson interval, the sequential test and the
// Bradley-Terry fit of training/balance/statistics.h, the confidence sequences and the
// sweep's verdicts (confidence_sequence.h, verdicts.h), as the balance runs and ladders
// compute them, for knightgym.statistics (and the tests that check them against SciPy
// and statsmodels).
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bindings/bindings.h"
#include "training/balance/confidence_sequence.h"
#include "training/balance/statistics.h"
#include "training/balance/verdicts.h"

namespace py = pybind11;

namespace knightgym::python {

void init_statistics(py::module_& m) {
  m.def(
      "wilson_interval",
      [](int64_t successes, int64_t trials, double z) {
        const Interval interval = wilson_interval(successes, trials, z);
        return py::make_tuple(interval.low, interval.high);
      },
      py::arg("successes"), py::arg("trials"), py::arg("z") = kZ95,
      "(low, high): the Wilson score interval of successes / trials.");
  m.def(
      "sprt_state",
      [](double a0, double a1, double alpha, double beta, int64_t samples, double sum,
         double sum_squares) {
        const SprtSettings settings{a0, a1, alpha, beta};
        check_sprt_settings(settings);
        return to_python(sprt_state(settings, samples, sum, sum_squares));
      },
      py::arg("a0"), py::arg("a1"), py::arg("alpha"), py::arg("beta"), py::arg("samples"),
      py::arg("sum"), py::arg("sum_squares"),
      "The generalized SPRT's log-likelihood ratio, its bounds and its decision.");
  m.def(
      "mean_sequence",
      [](double mean, double sd, int64_t samples, int64_t tuned_samples, double alpha) {
        const MeanEstimate estimate{samples, mean, sd, 0};
        const Interval interval = mean_sequence(estimate, {tuned_samples, kFamilyAlpha}, alpha);
        return py::make_tuple(interval.low, interval.high);
      },
      py::arg("mean"), py::arg("sd"), py::arg("samples"), py::arg("tuned_samples"),
      py::arg("alpha") = kFamilyAlpha,
      "(low, high): the confidence sequence of a mean of `samples` samples of sd `sd`, "
      "valid at every number of samples, tightest at tuned_samples.");
  m.def(
      "rate_sequence",
      [](int64_t successes, int64_t trials, int64_t tuned_samples, double alpha) {
        if (trials < 0 || successes < 0 || successes > trials)
          throw std::invalid_argument("rate_sequence: need 0 <= successes <= trials, got " +
                                      std::to_string(successes) + " of " + std::to_string(trials));
        const Interval interval =
            rate_sequence(successes, trials, {tuned_samples, kFamilyAlpha}, alpha);
        return py::make_tuple(interval.low, interval.high);
      },
      py::arg("successes"), py::arg("trials"), py::arg("tuned_samples"),
      py::arg("alpha") = kFamilyAlpha,
      "(low, high): the confidence sequence of a rate, valid at every number of trials.");
  m.def(
      "anytime_p_value",
      [](double mean, double sd, int64_t samples, double value, int64_t tuned_samples) {
        return anytime_p_value({samples, mean, sd, 0}, value, {tuned_samples, kFamilyAlpha});
      },
      py::arg("mean"), py::arg("sd"), py::arg("samples"), py::arg("value"),
      py::arg("tuned_samples"), "The anytime-valid p-value of the hypothesis mean = value.");
  m.def(
      "holm_adjusted", [](const std::vector<double>& p_values) { return holm_adjusted(p_values); },
      py::arg("p_values"), "Holm's step-down adjusted p-values, in the order given.");
  m.def(
      "sweep_statistics",
      [](const std::vector<std::tuple<double, double, int64_t>>& advantages,
         const std::vector<int64_t>& tuned_blocks) {
        std::vector<MeanEstimate> estimates;
        std::vector<SequenceDesign> designs;
        for (const auto& [mean, sd, blocks] : advantages)
          estimates.push_back({blocks, mean, sd, 0});
        for (const int64_t tuned : tuned_blocks) designs.push_back({tuned, kFamilyAlpha});
        const std::vector<AdvantageVerdict> verdicts = advantage_verdicts(estimates, designs);
        const std::vector<RuleSetComparison> comparisons = compare_with_first(estimates, designs);
        py::list rule_sets;
        for (size_t i = 0; i < verdicts.size(); ++i) {
          const AdvantageVerdict& v = verdicts[i];
          const RuleSetComparison& c = comparisons[i];
          py::dict entry;
          entry["verdict"] = verdict_name(v.verdict);
          entry["low"] = v.interval.low, entry["high"] = v.interval.high;
          entry["p_value"] = v.p_nonzero, entry["adjusted_p_value"] = v.adjusted_nonzero;
          entry["p_even"] = v.p_even, entry["adjusted_p_even"] = v.adjusted_even;
          if (i == 0) {
            entry["vs_first"] = py::none();
          } else {
            py::dict versus;
            versus["difference"] = c.difference.value;
            versus["low"] = c.difference.interval.low, versus["high"] = c.difference.interval.high;
            versus["p_value"] = c.difference.p_value;
            versus["adjusted_p_value"] = c.adjusted_p_value;
            versus["significant"] = c.significant;
            entry["vs_first"] = versus;
          }
          rule_sets.append(entry);
        }
        return rule_sets;
      },
      py::arg("advantages"), py::arg("tuned_blocks"),
      "Per rule set of a sweep, from (mean, block sd, blocks) of its first seat's advantage "
      "and the blocks its sequence is tuned at: its confidence sequence, verdict and "
      "p-values (Holm over the sweep), and its difference with the first rule set.");
  m.def(
      "fairest_rule_sets",
      [](const std::vector<std::vector<int64_t>>& wins, const std::vector<int64_t>& games,
         const std::vector<int64_t>& tuned_games) {
        std::vector<SequenceDesign> designs;
        for (const int64_t tuned : tuned_games) designs.push_back({tuned, kFamilyAlpha});
        const FairestRuleSets fairness = fairest_rule_sets(wins, games, designs);
        py::list balance;
        for (const Interval& interval : fairness.balance)
          balance.append(py::make_tuple(interval.low, interval.high));
        py::dict out;
        out["fairest"] = fairness.fairest;
        out["balance"] = balance;
        out["p_values"] = fairness.p_values;
        out["as_fair"] = std::vector<bool>(fairness.as_fair.begin(), fairness.as_fair.end());
        return out;
      },
      py::arg("wins"), py::arg("games"), py::arg("tuned_games"),
      "The fairest rule set of a sweep from each rule set's wins per seat and games: its "
      "index, every rule set's balance interval, and the Holm-adjusted p-values of being "
      "less fair than it, with which are as fair as far as the games tell.");
  m.def(
      "fit_bradley_terry",
      [](const std::vector<std::vector<double>>& points, double prior_draws) {
        return to_python(fit_bradley_terry(points, prior_draws));
      },
      py::arg("points"), py::arg("prior_draws") = 0.0,
      "Bradley-Terry strengths (mean 0) from points[i][j], what i scored against j.");
}

}  // namespace knightgym::python
