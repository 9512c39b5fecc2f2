// knightgym._knightgym's statistics: the Wilson interval, the sequential test and the
// Bradley-Terry fit of training/balance/statistics.h, as the balance runs and ladders
// compute them, for knightgym.statistics (and the tests that check them against SciPy
// and statsmodels).
#include <pybind11/stl.h>

#include <vector>

#include "bindings/bindings.h"
#include "training/balance/statistics.h"

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
      "fit_bradley_terry",
      [](const std::vector<std::vector<double>>& points, double prior_draws) {
        return to_python(fit_bradley_terry(points, prior_draws));
      },
      py::arg("points"), py::arg("prior_draws") = 0.0,
      "Bradley-Terry strengths (mean 0) from points[i][j], what i scored against j.");
}

}  // namespace knightgym::python
