// AlphaZero search over an Evaluator, templated on the game: PUCT (Silver et al. 2018)
// with Dirichlet noise at the root, or Gumbel search (Danihelka et al. 2022): Gumbel-top-k
// at the root, Sequential Halving over the considered actions, completed Q-values and
// deterministic selection inside the tree, which improves the policy even with 2 to 16
// simulations. Values are kept per player, so 3- and 4-player games work.
//
// One search is a state machine so that many can share one evaluator call (search_batch.h):
// collect() walks from the root to leaves and writes their observations and masks,
// receive() takes the evaluator's answers, expands the leaves and backs their values up.
// A search may contribute several leaves to a batch (`leaves`); virtual loss (an in-flight
// visit counted as a loss for the player who chose it) spreads them apart. Simulations that
// reach the end of the game are backed up at once with the exact returns. The evaluator's
// first answer, for the root, is not counted as a simulation.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <vector>

#include "agents/agent.h"
#include "agents/env_clock.h"
#include "agents/evaluator.h"
#include "agents/gumbel.h"
#include "agents/random_variates.h"
#include "agents/rollout.h"
#include "agents/tree.h"

namespace knightgym {

struct AzConfig {
  int sims = 64;
  bool gumbel = true;    // search=gumbel, else PUCT
  float c_puct = 1.25f;  // PUCT's exploration constant
  float dirichlet_alpha = 0.3f;
  float dirichlet_fraction = 0.0f;  // share of noise in the root priors (PUCT; 0.25 in self-play)
  int considered = 16;              // Gumbel: root actions considered at most
  float gumbel_scale = 1.0f;        // Gumbel: 0 considers the top priors without noise
  gumbel::Transform transform;      // Gumbel: sigma(q)
  int leaves = 1;                   // leaves one search adds to a batch
  // AlphaGo's (Silver et al. 2016) leaf value: (1 - mix) * the evaluator's + mix * the mean
  // of `rollouts` random games from the leaf. Off (0 roll-outs) in AlphaZero; with the
  // uniform evaluator it gives a search that plays well without a network.
  int rollouts = 0;
  float mix = 0.5f;
};

template <Game G>
class AzSearch {
 public:
  using State = typename G::State;

  AzSearch(const G& game, const AzConfig& config)
      : game_(&game), config_(config), info_(game.info()) {}

  // The rules of the searches from the next start() on: another rule set of the same game,
  // whose actions and observations have the same shapes (self-play over many rule sets).
  void set_game(const G& game) { game_ = &game; }
  // Times the game's code into `clock` from now on (env_clock.h); null: no timing.
  void set_env_clock(EnvClock* clock) { env_clock_ = clock; }

  // A new search from `root` (not over) with `sims` simulations (0: the configured number).
  void start(const State& root, uint64_t seed, int64_t sims = 0) {
    root_ = root;
    rng_.reseed(seed);
    tie_seed_ = rng_.next();
    sims_ = sims > 0 ? sims : config_.sims;
    started_ = completed_ = 0;
    tree_.reset(static_cast<int8_t>(game_->current_player(root)));
    root_evaluated_ = false;
    done_ = false;
  }

  bool done() const { return done_; }
  // Ends the search after the evaluations in flight (time limits).
  void stop() { sims_ = std::min(sims_, started_); }

  // Writes up to min(capacity, leaves) leaf requests: observations (observation_shape
  // floats each) and masks (num_actions bytes each). Returns how many; 0 once done.
  int collect(float* observations, uint8_t* masks, int capacity) {
    pending_.clear();
    paths_.clear();
    if (done_) return 0;
    if (!root_evaluated_) {
      if (capacity < 1) return 0;
      request(0, root_, observations, masks);
      return 1;
    }
    const int limit = std::min(capacity, config_.leaves);
    int rows = 0;
    while (rows < limit && started_ < sims_) {
      State state = root_;
      const size_t path_begin = paths_.size();
      paths_.push_back(0);
      int32_t node = 0;
      while (tree_[node].first_child >= 0 && !tree_[node].pending) {
        node = select(node, node == 0);
        const EnvTimer timer(env_clock_);
        game_->apply(state, tree_[node].action);
        paths_.push_back(node);
      }
      Node& leaf = tree_[node];
      if (leaf.pending) {  // a collision with a leaf of this batch: try again next batch
        paths_.resize(path_begin);
        break;
      }
      ++started_;
      if (leaf.mover == kTerminalPlayer || terminal(state)) {
        if (!leaf.solved) {
          const EnvTimer timer(env_clock_);
          game_->returns(state, leaf.exact);
          leaf.solved = 1;
          leaf.mover = kTerminalPlayer;
        }
        backup(path_begin, paths_.size(), tree_[node].exact, false);
        paths_.resize(path_begin);
        ++completed_;
        continue;
      }
      for (size_t i = path_begin; i < paths_.size(); ++i) ++tree_[paths_[i]].in_flight;
      request(node, state, observations + rows * info_.observation_shape.size(),
              masks + rows * info_.num_actions);
      pending_.back().path_begin = path_begin;
      pending_.back().path_end = paths_.size();
      if (config_.rollouts > 0) {
        const EnvTimer timer(env_clock_);
        rollout_returns(*game_, state, config_.rollouts, rng_, pending_.back().rollout);
      }
      ++rows;
    }
    if (rows == 0 && completed_ >= sims_) done_ = true;
    return rows;
  }

  // The evaluator's answers for the rows of the last collect(), in order.
  void receive(const float* priors, const float* values) {
    for (size_t r = 0; r < pending_.size(); ++r) {
      const Pending& leaf = pending_[r];
      const float* prior = priors + r * info_.num_actions;
      const float* value = values + r * info_.num_players;
      Node& node = tree_[leaf.node];
      node.pending = 0;
      for (int32_t c = node.first_child; c < node.first_child + node.num_children; ++c)
        tree_[c].prior = prior[tree_[c].action];
      float absolute[kMaxPlayers] = {};
      for (int k = 0; k < info_.num_players; ++k)
        absolute[(node.mover + k) % info_.num_players] = value[k];
      if (config_.rollouts > 0 && leaf.node != 0)
        for (int p = 0; p < info_.num_players; ++p)
          absolute[p] = (1 - config_.mix) * absolute[p] + config_.mix * leaf.rollout[p];
      node.raw_value = absolute[node.mover];
      if (leaf.node == 0 && !root_evaluated_) {
        root_evaluated_ = true;
        prepare_root();
        backup_root(absolute);
      } else {
        backup(leaf.path_begin, leaf.path_end, absolute, true);
        ++completed_;
      }
    }
    pending_.clear();
    if (root_evaluated_ && completed_ >= sims_) done_ = true;
  }

  // The action to play: PUCT's most visited (ties: the higher mean); Gumbel's best
  // remaining candidate of Sequential Halving.
  Action best_action() const {
    const Node& root = tree_[0];
    if (config_.gumbel) {
      float sigma[G::kMaxActions];
      root_sigma(sigma);
      int max_visits = 0;
      for (int i = 0; i < root.num_children; ++i)
        max_visits = std::max(max_visits, tree_[root.first_child + i].visits);
      int best = 0;
      float best_score = -INFINITY;
      for (int i = 0; i < root.num_children; ++i) {
        if (tree_[root.first_child + i].visits != max_visits) continue;
        const float score = gumbel_[i] + logit(root.first_child + i) + sigma[i];
        if (score > best_score) best_score = score, best = i;
      }
      return tree_[root.first_child + best].action;
    }
    // Ties in visits go to the higher mean, then to a seeded random order (not to the
    // lowest action, which would bias play where the priors are flat).
    const auto key = [&](const Node& n) {
      return std::tuple(n.visits, n.visits > 0 ? n.mean(root.mover) : 0.0f,
                        mix64(tie_seed_ ^ static_cast<uint64_t>(n.action)));
    };
    int32_t best = root.first_child;
    for (int32_t c = root.first_child + 1; c < root.first_child + root.num_children; ++c)
      if (key(tree_[c]) > key(tree_[best])) best = c;
    return tree_[best].action;
  }

  // The search's policy over all num_actions (zero off the legal ones): PUCT's visit
  // distribution, Gumbel's improved policy softmax(logits + sigma(completed Q)).
  void policy(float* out) const {
    std::fill_n(out, info_.num_actions, 0.0f);
    const Node& root = tree_[0];
    if (config_.gumbel) {
      float sigma[G::kMaxActions];
      root_sigma(sigma);
      float high = -INFINITY;
      for (int i = 0; i < root.num_children; ++i)
        high = std::max(high, sigma[i] += logit(root.first_child + i));
      float sum = 0;
      for (int i = 0; i < root.num_children; ++i) sum += sigma[i] = std::exp(sigma[i] - high);
      for (int i = 0; i < root.num_children; ++i)
        out[tree_[root.first_child + i].action] = sigma[i] / sum;
      return;
    }
    int total = 0;
    for (int i = 0; i < root.num_children; ++i) total += tree_[root.first_child + i].visits;
    for (int i = 0; i < root.num_children; ++i) {
      const Node& child = tree_[root.first_child + i];
      out[child.action] =
          total > 0 ? static_cast<float>(child.visits) / static_cast<float>(total) : child.prior;
    }
  }

  // Each player's expected return at the root (by player, not relative to the mover): the
  // mean over the search's visits, or the proven returns once the root is solved.
  void root_values(float* out) const {
    const Node& root = tree_[0];
    for (int p = 0; p < info_.num_players; ++p)
      out[p] = root.solved ? root.exact[p] : root.visits > 0 ? root.mean(p) : 0.0f;
  }

  // The tree after the search, for tests and analysis.
  const Tree& tree() const { return tree_; }

  SearchReport report() const {
    const Node& root = tree_[0];
    int depth = 0;
    for (int32_t node = 0; tree_[node].first_child >= 0 && tree_[node].visits > 1; ++depth) {
      const Node& n = tree_[node];
      int32_t next = n.first_child;
      for (int32_t c = n.first_child + 1; c < n.first_child + n.num_children; ++c)
        if (tree_[c].visits > tree_[next].visits) next = c;
      node = next;
    }
    SearchReport report{completed_, root.visits > 0 ? root.mean(root.mover) : 0.0f, depth, {}};
    tree_.root_visit_shares(report.visit_shares);
    return report;
  }

 private:
  struct Pending {
    int32_t node;
    size_t path_begin, path_end;  // in paths_
    float rollout[kMaxPlayers];   // the roll-outs' mean returns, if any
  };

  bool terminal(const State& state) const {
    const EnvTimer timer(env_clock_);
    return game_->terminal(state);
  }

  void request(int32_t node, const State& state, float* observation, uint8_t* mask) {
    Action legal[G::kMaxActions];
    int mover, n;
    {
      const EnvTimer timer(env_clock_);
      mover = game_->current_player(state);
      n = game_->legal_actions(state, legal);
    }
    tree_.expand(node, legal, n, static_cast<int8_t>(mover));
    tree_[node].pending = 1;
    {
      const EnvTimer timer(env_clock_);
      game_->observe(state, mover, observation);
      game_->legal_mask(state, mask);
    }
    pending_.push_back({node, 0, 0, {}});
  }

  float logit(int32_t child) const { return std::log(std::max(tree_[child].prior, 1e-30f)); }

  // Visits counted for selection: completed and in flight.
  int visits_with_flight(const Node& n) const { return n.visits + n.in_flight; }

  int32_t select(int32_t node, bool at_root) const {
    if (!config_.gumbel) return select_puct(node);
    return at_root ? select_gumbel_root() : select_gumbel_interior(node);
  }

  // Q + c * P * sqrt(N) / (1 + n), an in-flight visit counting as a loss; an unvisited
  // child takes the parent's mean (first-play urgency).
  int32_t select_puct(int32_t node) const {
    const Node& parent = tree_[node];
    const int mover = parent.mover;
    const float parent_q = parent.visits > 0 ? parent.mean(mover) : 0.0f;
    const float sqrt_n = std::sqrt(static_cast<float>(visits_with_flight(parent)));
    int32_t best = parent.first_child;
    float best_score = -INFINITY;
    for (int32_t c = parent.first_child; c < parent.first_child + parent.num_children; ++c) {
      const Node& child = tree_[c];
      const int n = visits_with_flight(child);
      const float q = n > 0 ? (child.value_sum[mover] - static_cast<float>(child.in_flight)) /
                                  static_cast<float>(n)
                            : parent_q;
      const float score = q + config_.c_puct * child.prior * sqrt_n / static_cast<float>(1 + n);
      if (score > best_score) best_score = score, best = c;
    }
    return best;
  }

  // sigma(completed Q) of a node's children, from completed visits only.
  void children_sigma(int32_t node, float* out) const {
    const Node& parent = tree_[node];
    for (int i = 0; i < parent.num_children; ++i) {
      const Node& child = tree_[parent.first_child + i];
      scratch_visits_[i] = child.visits;
      scratch_q_[i] = child.visits > 0 ? child.mean(parent.mover) : 0.0f;
      scratch_prior_[i] = child.prior;
    }
    gumbel::completed_q(parent.num_children, scratch_q_.data(), scratch_visits_.data(),
                        scratch_prior_.data(), parent.raw_value, config_.transform, out);
  }
  void root_sigma(float* out) const { children_sigma(0, out); }

  // argmax of softmax(logits + sigma) - N / (1 + sum N): visits follow the improved policy.
  int32_t select_gumbel_interior(int32_t node) const {
    const Node& parent = tree_[node];
    float score[G::kMaxActions];
    children_sigma(node, score);
    float high = -INFINITY;
    int total = 0;
    for (int i = 0; i < parent.num_children; ++i) {
      high = std::max(high, score[i] += logit(parent.first_child + i));
      total += visits_with_flight(tree_[parent.first_child + i]);
    }
    float sum = 0;
    for (int i = 0; i < parent.num_children; ++i) sum += score[i] = std::exp(score[i] - high);
    int best = 0;
    float best_score = -INFINITY;
    for (int i = 0; i < parent.num_children; ++i) {
      const float s =
          score[i] / sum - static_cast<float>(visits_with_flight(tree_[parent.first_child + i])) /
                               static_cast<float>(1 + total);
      if (s > best_score) best_score = s, best = i;
    }
    return parent.first_child + best;
  }

  // Sequential Halving: among the root actions whose visits equal the schedule's count
  // for this simulation, the best by gumbel + logit + sigma(q).
  int32_t select_gumbel_root() const {
    const Node& root = tree_[0];
    float sigma[G::kMaxActions];
    root_sigma(sigma);
    int simulation = 0;
    for (int i = 0; i < root.num_children; ++i)
      simulation += visits_with_flight(tree_[root.first_child + i]);
    const int wanted = schedule_[std::min<size_t>(simulation, schedule_.size() - 1)];
    int best = -1;
    float best_score = -INFINITY;
    for (int i = 0; i < root.num_children; ++i) {
      if (visits_with_flight(tree_[root.first_child + i]) != wanted) continue;
      const float score = gumbel_[i] + logit(root.first_child + i) + sigma[i];
      if (best < 0 || score > best_score) best_score = score, best = i;
    }
    return best >= 0 ? root.first_child + best : select_gumbel_interior(0);
  }

  // Root noise: Dirichlet for PUCT, a Gumbel draw per action and the halving schedule.
  void prepare_root() {
    Node& root = tree_[0];
    const int n = root.num_children;
    if (!config_.gumbel) {
      if (config_.dirichlet_fraction <= 0) return;
      float noise[G::kMaxActions];
      dirichlet(rng_, config_.dirichlet_alpha, n, noise);
      for (int i = 0; i < n; ++i) {
        Node& child = tree_[root.first_child + i];
        child.prior =
            (1 - config_.dirichlet_fraction) * child.prior + config_.dirichlet_fraction * noise[i];
      }
      return;
    }
    gumbel_.resize(n);
    for (int i = 0; i < n; ++i)
      gumbel_[i] = config_.gumbel_scale * static_cast<float>(standard_gumbel(rng_));
    schedule_ = gumbel::considered_visits(std::min(config_.considered, n),
                                          static_cast<int>(std::max<int64_t>(sims_, 1)));
  }

  void backup_root(const float* values) {
    Node& root = tree_[0];
    ++root.visits;
    for (int p = 0; p < info_.num_players; ++p) root.value_sum[p] += values[p];
  }

  void backup(size_t path_begin, size_t path_end, const float* values, bool was_in_flight) {
    for (size_t i = path_begin; i < path_end; ++i) {
      Node& node = tree_[paths_[i]];
      ++node.visits;
      if (was_in_flight) --node.in_flight;
      for (int p = 0; p < info_.num_players; ++p) node.value_sum[p] += values[p];
    }
  }

  const G* game_;
  EnvClock* env_clock_ = nullptr;
  AzConfig config_;
  GameInfo info_;
  State root_;
  Rng rng_;
  uint64_t tie_seed_ = 0;
  Tree tree_;
  int64_t sims_ = 0, started_ = 0, completed_ = 0;
  bool root_evaluated_ = false, done_ = false;
  std::vector<Pending> pending_;
  std::vector<int32_t> paths_;  // the paths of this batch's simulations, root first
  std::vector<float> gumbel_;   // per root child
  std::vector<int> schedule_;   // Gumbel: visits wanted for simulation k's root action
  // Gumbel: the children's statistics gathered for completed_q.
  mutable std::array<float, G::kMaxActions> scratch_q_, scratch_prior_;
  mutable std::array<int, G::kMaxActions> scratch_visits_;
};

}  // namespace knightgym
