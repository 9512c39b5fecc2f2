#include "util/quantiles.h"

#include <algorithm>
#include <stdexcept>

namespace knightgym {

double percentile(std::span<const double> sorted, double q) {
  if (sorted.empty()) throw std::invalid_argument("percentile of no values");
  const double position = std::clamp(q, 0.0, 100.0) / 100 * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(position);
  if (below + 1 >= sorted.size()) return sorted.back();
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[below + 1] - sorted[below]);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return percentile(values, 50);
}

}  // namespace knightgym
