// Quantiles every layer shares: the 95% normal quantile, percentiles and the median. The
// balance statistics (training/balance/statistics.h) build on these.
#pragma once

#include <span>
#include <vector>

namespace knightgym {

inline constexpr double kZ95 = 1.959963984540054;  // the two-sided 95% normal quantile

// The q-th percentile (q in [0, 100]) by linear interpolation between the sorted
// values, as numpy.percentile does. `sorted` must be sorted and not empty.
double percentile(std::span<const double> sorted, double q);

// The median of the values (the mean of the middle two for an even count); throws
// std::invalid_argument if there are none.
double median(std::vector<double> values);

}  // namespace knightgym
