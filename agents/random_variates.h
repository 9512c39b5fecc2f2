// The draws searches need beyond integers: uniform, Gumbel, gamma and Dirichlet, from
// the project's own generator so that results are the same on every platform.
#pragma once

#include <cmath>

#include "env/core/rng.h"

namespace knightgym {

// Uniform in (0, 1): never 0, so logarithms are finite.
inline double uniform_open(Rng& rng) {
  return (static_cast<double>(rng.next() >> 11) + 0.5) * 0x1.0p-53;
}

inline double standard_gumbel(Rng& rng) { return -std::log(-std::log(uniform_open(rng))); }

inline double standard_normal(Rng& rng) {
  // Box-Muller; the second value is dropped to keep the stream position simple.
  return std::sqrt(-2.0 * std::log(uniform_open(rng))) *
         std::cos(6.283185307179586 * uniform_open(rng));
}

// Gamma(shape, 1) by Marsaglia and Tsang; shapes below 1 through Gamma(shape + 1) * U^(1/shape).
inline double gamma_variate(Rng& rng, double shape) {
  if (shape < 1.0)
    return gamma_variate(rng, shape + 1.0) * std::pow(uniform_open(rng), 1.0 / shape);
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  while (true) {
    double x, v;
    do {
      x = standard_normal(rng);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = uniform_open(rng);
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

// A Dirichlet(alpha, ..., alpha) draw of n weights into out.
inline void dirichlet(Rng& rng, double alpha, int n, float* out) {
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += out[i] = static_cast<float>(gamma_variate(rng, alpha));
  for (int i = 0; i < n; ++i)
    out[i] = sum > 0 ? static_cast<float>(out[i] / sum) : 1.0f / static_cast<float>(n);
}

}  // namespace knightgym
