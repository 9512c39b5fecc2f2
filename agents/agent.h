// The agent contract: a policy that picks an action for a state of game G. One virtual
// call per decision; searches below it are templated on G, with no virtual call per node.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "agents/shared_resource.h"
#include "env/core/game.h"

namespace knightgym {

// Bounds on one decision's search, on top of the agent's own parameters; agents that do
// not search ignore them. A zero or null field leaves that bound off.
// `sims` is the simulation budget's one name, here as in specs (mcts:sims=400), training
// settings (sims, match_sims, fast_sims), the searches and Python (act(state, sims=...)).
struct SearchLimits {
  int64_t sims = 0;  // replaces the agent's `sims` for one decision
  std::chrono::steady_clock::time_point deadline{};
  // Set by another thread: finish now (every search consults it through timed_out(), and
  // a stopped search still returns a legal action).
  const std::atomic<bool>* stop = nullptr;
  int depth = 0;  // stop once the most visited line is this long (UCI's "go depth")

  bool timed_out() const {
    return (stop && stop->load(std::memory_order_relaxed)) ||
           (deadline != std::chrono::steady_clock::time_point{} &&
            std::chrono::steady_clock::now() >= deadline);
  }
};

// What a search reports after a decision (UCI's "info" line).
struct SearchReport {
  int64_t sims = 0;  // simulations run (an engine's nodes)
  float value = 0;   // the mover's expected return at the root, in [-1, 1]
  int depth = 0;     // length of the most visited line
  // Each root action with its share of the root's children's visits (what a viewer
  // shows); empty for agents that do not search.
  std::vector<std::pair<Action, float>> visit_shares;
};

template <Game G>
class Agent {
 public:
  using State = typename G::State;
  virtual ~Agent() = default;

  // Precondition: the state is not over.
  virtual Action act(const State& state, const SearchLimits& limits = {}) = 0;

  // One action per state. Searches override it to advance all the states together and
  // evaluate their leaves in shared batches; the result equals calling act() on each.
  // `limits` bound every search (a stop or the deadline ends them all). With `reports`,
  // reports[i] is what last_report() gives after act(states[i]).
  virtual void act_batch(std::span<const State> states, Action* out,
                         const SearchLimits& limits = {}, SearchReport* reports = nullptr) {
    for (size_t i = 0; i < states.size(); ++i) {
      out[i] = act(states[i], limits);
      if (reports) reports[i] = last_report();
    }
  }

  virtual SearchReport last_report() const { return {}; }
};

// What each kind of the agent table (agents/agent_kinds.h) declares beside its agent:
//   kName, kSummary       its name in specs ("mcts:sims=400") and one line for
//                         `knightgym list --agents`
//   Config, read(r, c)    its settings, declared (parsed, checked, documented) through
//                         a ParamReader
//   share(c, info, spec)  what the agents of one spec share in one game (a network, a
//                         pool of engine processes), made once; null where they share
//                         nothing
//   make<G>(game, c, shared, seed)  one agent with its own seeded stream
// Kinds that share nothing derive from SharesNothing.
struct SharesNothing {
  template <class Config>
  static std::shared_ptr<SharedResource> share(const Config&, const GameInfo&, const std::string&) {
    return nullptr;
  }
};

}  // namespace knightgym
