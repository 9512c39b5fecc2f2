// UCT with random roll-outs (Kocsis and Szepesvari 2006) for 2 to 4 players: each node
// maximises the mean return of the player to move there, UCB1 picks among the visited
// children after every child was tried once (in a seeded random order), and a new leaf is
// valued by `rollouts` random games to the end. With `solve` (MCTS-Solver, Winands et al.
// 2008) exact results travel up the tree: a node is proven once its mover has a proven
// win (the best return, 1) or all its children are proven, so short mates are found and
// played rather than estimated.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "agents/agent.h"
#include "agents/rollout.h"
#include "agents/tree.h"
#include "env/core/params.h"

namespace knightgym {

struct MctsConfig {
  int sims = 1000;
  double c = 1.4;  // UCB1 exploration constant
  int rollouts = 1;
  bool solve = true;
};

template <Game G>
class MctsAgent final : public Agent<G> {
 public:
  using State = typename G::State;

  MctsAgent(const G& game, const MctsConfig& config, uint64_t seed)
      : game_(game), config_(config), num_players_(game.info().num_players), rng_(seed) {}

  Action act(const State& root, const SearchLimits& limits = {}) override {
    const int64_t sims = limits.sims > 0 ? limits.sims : config_.sims;
    tree_.reset(static_cast<int8_t>(game_.current_player(root)));
    int64_t done = 0;
    while (done < sims && !tree_[0].solved) {
      if ((done & 15) == 0 && done > 0 && stop_early(limits)) break;
      simulate(root);
      ++done;
    }
    report_.sims = done;
    report_.value = root_value();
    report_.depth = principal_line_length();
    tree_.root_visit_shares(report_.visit_shares);
    return tree_[best_child(0)].action;
  }

  SearchReport last_report() const override { return report_; }

 private:
  bool stop_early(const SearchLimits& limits) const {
    return limits.timed_out() || (limits.depth > 0 && principal_line_length() >= limits.depth);
  }

  void simulate(const State& root) {
    State state = root;
    path_.clear();
    path_.push_back(0);
    int32_t node = 0;
    float values[kMaxPlayers] = {};
    while (true) {
      if (tree_[node].solved) {
        std::copy_n(tree_[node].exact, kMaxPlayers, values);
        break;
      }
      if (game_.terminal(state)) {
        game_.returns(state, values);
        mark_solved(node, values, 0);
        break;
      }
      if (tree_[node].first_child < 0) expand(node, state);
      node = select(node);
      game_.apply(state, tree_[node].action);
      path_.push_back(node);
      if (tree_[node].visits == 0 && !game_.terminal(state)) {
        rollout_returns(game_, state, config_.rollouts, rng_, values);
        break;
      }
    }
    for (const int32_t n : path_) {
      Node& visited = tree_[n];
      ++visited.visits;
      for (int p = 0; p < num_players_; ++p) visited.value_sum[p] += values[p];
    }
    if (config_.solve) propagate_proofs();
  }

  // Children in a seeded random order, so that "the first unvisited" is a random one.
  void expand(int32_t node, const State& state) {
    Action legal[G::kMaxActions];
    const int n = game_.legal_actions(state, legal);
    for (int i = n - 1; i > 0; --i) std::swap(legal[i], legal[rng_.below(i + 1)]);
    tree_.expand(node, legal, n, static_cast<int8_t>(game_.current_player(state)));
  }

  int32_t select(int32_t node) const {
    const Node& parent = tree_[node];
    const int mover = parent.mover;
    const float log_visits = std::log(static_cast<float>(std::max(parent.visits, 1)));
    int32_t best = parent.first_child;
    float best_score = -INFINITY;
    for (int32_t c = parent.first_child; c < parent.first_child + parent.num_children; ++c) {
      const Node& child = tree_[c];
      if (child.visits == 0 && !child.solved) return c;
      const float q = child.solved ? child.exact[mover] : child.mean(mover);
      const float n = static_cast<float>(std::max(child.visits, 1));
      const float score = q + static_cast<float>(config_.c) * std::sqrt(log_visits / n);
      if (score > best_score) best_score = score, best = c;
    }
    return best;
  }

  void mark_solved(int32_t node, const float* returns, int plies) {
    Node& n = tree_[node];
    n.solved = 1;
    n.proof_plies = static_cast<int16_t>(std::min(plies, 32767));
    std::copy_n(returns, kMaxPlayers, n.exact);
  }

  // Walks the path upwards while nodes become proven. The mover of a proven node takes a
  // proven win (return 1) by its shortest line, else, once all children are proven, the
  // best return, winning soon and losing late.
  void propagate_proofs() {
    for (int i = static_cast<int>(path_.size()) - 2; i >= 0; --i) {
      const int32_t node = path_[i];
      const Node& n = tree_[node];
      if (n.solved || n.first_child < 0) return;
      int32_t best = -1;
      bool all_solved = true;
      for (int32_t c = n.first_child; c < n.first_child + n.num_children; ++c) {
        const Node& child = tree_[c];
        if (!child.solved) {
          all_solved = false;
          continue;
        }
        if (best < 0 || proof_better(child, tree_[best], n.mover)) best = c;
      }
      if (best < 0) return;
      if (!all_solved && tree_[best].exact[n.mover] < 1.0f) return;
      mark_solved(node, tree_[best].exact, tree_[best].proof_plies + 1);
    }
  }

  static bool proof_better(const Node& a, const Node& b, int mover) {
    if (a.exact[mover] != b.exact[mover]) return a.exact[mover] > b.exact[mover];
    return a.exact[mover] > 0 ? a.proof_plies < b.proof_plies : a.proof_plies > b.proof_plies;
  }

  // The proven best child if the node is proven, else the most visited (ties: the
  // higher mean for the mover).
  int32_t best_child(int32_t node) const {
    const Node& n = tree_[node];
    int32_t best = n.first_child;
    for (int32_t c = n.first_child + 1; c < n.first_child + n.num_children; ++c) {
      const Node& a = tree_[c];
      const Node& b = tree_[best];
      if (n.solved) {
        if (a.solved && (!b.solved || proof_better(a, b, n.mover))) best = c;
      } else if (a.visits != b.visits ? a.visits > b.visits
                                      : a.visits > 0 && a.mean(n.mover) > b.mean(n.mover)) {
        best = c;
      }
    }
    return best;
  }

  float root_value() const {
    const Node& root = tree_[0];
    if (root.solved) return root.exact[root.mover];
    return root.visits > 0 ? root.mean(root.mover) : 0.0f;
  }

  int principal_line_length() const {
    int length = 0;
    for (int32_t node = 0; tree_[node].first_child >= 0 && tree_[node].visits > 0; ++length)
      node = best_child(node);
    return length;
  }

  const G& game_;
  MctsConfig config_;
  int num_players_;
  Rng rng_;
  Tree tree_;
  std::vector<int32_t> path_;
  SearchReport report_;
};

struct MctsKind : SharesNothing {
  static constexpr std::string_view kName = "mcts";
  static constexpr std::string_view kSummary =
      "UCT with random roll-outs and MCTS-Solver, no network";
  using Config = MctsConfig;
  static void read(ParamReader& r, Config& c) {
    c.sims = r.get_int("sims", c.sims, 1, 100000000, "simulations per decision");
    c.c = r.get_float("c", c.c, 0, 100, "UCB1 exploration constant");
    c.rollouts = r.get_int("rollouts", c.rollouts, 1, 10000, "random games per new leaf");
    c.solve = r.get_bool("solve", c.solve, "prove wins and losses (MCTS-Solver)");
  }
  template <Game G>
  static std::unique_ptr<Agent<G>> make(const G& game, const Config& config,
                                        const std::shared_ptr<SharedResource>&, uint64_t seed) {
    return std::make_unique<MctsAgent<G>>(game, config, seed);
  }
};

}  // namespace knightgym
