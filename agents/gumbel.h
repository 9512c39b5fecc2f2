// Gumbel search's schedule and value transform (Danihelka et al. 2022, "Policy improvement
// by planning with Gumbel"), as in DeepMind's mctx.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace knightgym::gumbel {

// Sequential Halving as a sequence: the visit count the root action of simulation k must
// have. With m considered actions: each round gives every remaining action
// max(1, n / (ceil(log2 m) * remaining)) visits, then keeps the better half (at least 2).
inline std::vector<int> considered_visits(int max_considered, int sims) {
  std::vector<int> sequence;
  sequence.reserve(sims);
  if (max_considered <= 1) {
    for (int k = 0; k < sims; ++k) sequence.push_back(k);
    return sequence;
  }
  const int log2max = static_cast<int>(std::ceil(std::log2(max_considered)));
  std::vector<int> visits(max_considered, 0);
  int considered = max_considered;
  while (static_cast<int>(sequence.size()) < sims) {
    const int extra = std::max(1, sims / (log2max * considered));
    for (int e = 0; e < extra; ++e) {
      sequence.insert(sequence.end(), visits.begin(), visits.begin() + considered);
      for (int i = 0; i < considered; ++i) ++visits[i];
    }
    considered = std::max(2, considered / 2);
  }
  sequence.resize(sims);
  return sequence;
}

struct Transform {
  float c_visit = 50.0f;  // mctx's maxvisit_init
  float c_scale = 0.1f;   // mctx's value_scale
};

// sigma(completed Q) of n children into out. q: each child's mean value for the mover
// (ignored where visits is 0); prior: the evaluator's priors; raw_value: the evaluator's
// value of the node. Unvisited children get the mixed value (the raw value blended with
// the prior-weighted Q of the visited ones); all are rescaled to [0, 1] by their range,
// then scaled by (c_visit + the most visits) * c_scale.
inline void completed_q(int n, const float* q, const int* visits, const float* prior,
                        float raw_value, const Transform& t, float* out) {
  int sum_visits = 0, max_visits = 0;
  float visited_prior = 0, weighted_q = 0;
  for (int i = 0; i < n; ++i) {
    if (visits[i] == 0) continue;
    sum_visits += visits[i];
    max_visits = std::max(max_visits, visits[i]);
    const float p = std::max(prior[i], 1e-30f);
    visited_prior += p;
    weighted_q += p * q[i];
  }
  const float mixed =
      sum_visits > 0 ? (raw_value + static_cast<float>(sum_visits) * weighted_q / visited_prior) /
                           static_cast<float>(sum_visits + 1)
                     : raw_value;
  float low = INFINITY, high = -INFINITY;
  for (int i = 0; i < n; ++i) {
    out[i] = visits[i] > 0 ? q[i] : mixed;
    low = std::min(low, out[i]);
    high = std::max(high, out[i]);
  }
  const float scale =
      (t.c_visit + static_cast<float>(max_visits)) * t.c_scale / std::max(high - low, 1e-8f);
  for (int i = 0; i < n; ++i) out[i] = (out[i] - low) * scale;
}

}  // namespace knightgym::gumbel
