// The AlphaZero agent: PUCT or Gumbel search (az_search.h) over a shared evaluator. Each
// decision draws its search's seed from the agent's stream, so act_batch over n states
// plays exactly the actions of n calls to act().
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "agents/search_batch.h"

namespace knightgym {

template <Game G>
class AzAgent final : public Agent<G> {
 public:
  using State = typename G::State;

  AzAgent(const G& game, const AzConfig& config, std::shared_ptr<Evaluator> evaluator,
          uint64_t seed)
      : evaluator_(std::move(evaluator)), batch_(game, config, *evaluator_), rng_(seed) {}

  Action act(const State& state, const SearchLimits& limits = {}) override {
    const uint64_t seed = rng_.next();
    batch_.run(std::span<const State>(&state, 1), &seed, limits);
    report_ = batch_.search(0).report();
    return batch_.search(0).best_action();
  }

  void act_batch(std::span<const State> states, Action* out) override {
    seeds_.resize(states.size());
    for (uint64_t& seed : seeds_) seed = rng_.next();
    batch_.run(states, seeds_.data());
    for (size_t i = 0; i < states.size(); ++i)
      out[i] = batch_.search(static_cast<int>(i)).best_action();
    if (!states.empty()) report_ = batch_.search(static_cast<int>(states.size()) - 1).report();
  }

  SearchReport last_report() const override { return report_; }

 private:
  std::shared_ptr<Evaluator> evaluator_;
  SearchBatch<G> batch_;
  Rng rng_;
  std::vector<uint64_t> seeds_;
  SearchReport report_;
};

}  // namespace knightgym
