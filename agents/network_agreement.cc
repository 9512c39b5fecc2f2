#include "agents/network_agreement.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "env/core/rng.h"

namespace knightgym {

namespace {

// The candidate's batch sizes in turn: a lone row, sizes that are no power of two, and
// one that is.
constexpr int kBatchSizes[] = {1, 7, 37, 64, 3};

}  // namespace

bool NetworkAgreement::within_rounding() const {
  return largest_prior_difference < 0.06f && largest_value_difference < 0.25f &&
         mean_value_difference < 0.03 && same_best_action * 10 >= positions * 9 &&
         illegal_priors == 0;
}

NetworkAgreement network_agreement(const AnyGame& game, Evaluator& reference, Evaluator& candidate,
                                   int positions, uint64_t seed) {
  const GameInfo& info = game.info();
  const size_t observation_size = info.observation_shape.size();
  const size_t actions = info.num_actions, players = info.num_players;
  std::vector<float> observations(positions * observation_size);
  std::vector<uint8_t> masks(positions * actions);
  Rng rng(seed);
  auto state = game.new_initial_state(seed);
  for (int row = 0; row < positions; ++row) {
    if (state->is_terminal()) state = game.new_initial_state(seed + row);
    state->observe(state->current_player(), observations.data() + row * observation_size);
    state->legal_mask(masks.data() + row * actions);
    const std::vector<Action> legal = state->legal_actions();
    state->apply_action(legal[rng.next() % legal.size()]);
  }

  std::vector<float> priors[2], values[2];
  for (int k = 0; k < 2; ++k) {
    priors[k].resize(positions * actions);
    values[k].resize(positions * players);
  }
  reference.evaluate(positions, observations.data(), masks.data(), priors[0].data(),
                     values[0].data());
  for (int row = 0, call = 0; row < positions; ++call) {
    const int n = std::min(kBatchSizes[call % std::size(kBatchSizes)], positions - row);
    candidate.evaluate(n, observations.data() + row * observation_size,
                       masks.data() + row * actions, priors[1].data() + row * actions,
                       values[1].data() + row * players);
    row += n;
  }

  NetworkAgreement agreement;
  agreement.positions = positions;
  for (int row = 0; row < positions; ++row) {
    const float* expected = priors[0].data() + row * actions;
    const float* got = priors[1].data() + row * actions;
    for (size_t a = 0; a < actions; ++a) {
      agreement.largest_prior_difference =
          std::max(agreement.largest_prior_difference, std::abs(expected[a] - got[a]));
      agreement.illegal_priors += !masks[row * actions + a] && got[a] != 0.0f;
    }
    agreement.same_best_action += std::max_element(expected, expected + actions) - expected ==
                                  std::max_element(got, got + actions) - got;
  }
  double value_sum = 0;
  for (size_t i = 0; i < values[0].size(); ++i) {
    const float difference = std::abs(values[0][i] - values[1][i]);
    agreement.largest_value_difference = std::max(agreement.largest_value_difference, difference);
    value_sum += difference;
  }
  agreement.mean_value_difference = value_sum / static_cast<double>(values[0].size());
  return agreement;
}

}  // namespace knightgym
