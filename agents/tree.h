// The search tree shared by MCTS and AlphaZero search: nodes in one array, the children
// of a node contiguous. Nodes hold no game state: a simulation replays the actions from
// the root, which keeps a node at one cache line for every game. The array keeps its
// capacity between searches, so a warmed-up search allocates nothing.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "env/core/types.h"

namespace knightgym {

struct alignas(64) Node {
  float value_sum[kMaxPlayers];  // each player's returns summed over completed visits
  float exact[kMaxPlayers];      // the returns, once `solved`
  float prior;                   // AlphaZero: the evaluator's prior of `action`
  float raw_value;               // AlphaZero: the evaluator's value for `mover`
  int32_t first_child;           // -1 until expanded
  int32_t visits;                // completed visits
  Action action;                 // the action from the parent
  int16_t num_children;
  int16_t in_flight;    // visits waiting for an evaluation (virtual loss)
  int8_t chooser;       // the player who chose `action` (the parent's mover)
  int8_t mover;         // the player to move here; kTerminalPlayer once over
  uint8_t solved;       // `exact` holds the returns under best play (terminal or proven)
  uint8_t pending;      // AlphaZero: evaluation requested, not yet received
  int16_t proof_plies;  // plies to the end of the game under best play, once solved

  float mean(int player) const { return value_sum[player] / static_cast<float>(visits); }
};

class Tree {
 public:
  void reset(int8_t root_mover) {
    nodes_.clear();
    nodes_.push_back(make_node(0, -1));
    nodes_[0].mover = root_mover;
  }

  // Appends a child per action; references to nodes are invalidated.
  void expand(int32_t parent, const Action* actions, int n, int8_t mover) {
    nodes_[parent].first_child = static_cast<int32_t>(nodes_.size());
    nodes_[parent].num_children = static_cast<int16_t>(n);
    nodes_[parent].mover = mover;
    for (int i = 0; i < n; ++i) nodes_.push_back(make_node(actions[i], mover));
  }

  Node& operator[](int32_t index) { return nodes_[index]; }
  const Node& operator[](int32_t index) const { return nodes_[index]; }
  int32_t size() const { return static_cast<int32_t>(nodes_.size()); }

  // Each root child's action with its share of their visits (all zero before any).
  void root_visit_shares(std::vector<std::pair<Action, float>>& out) const {
    out.clear();
    const Node& root = nodes_[0];
    int64_t total = 0;
    for (int i = 0; i < root.num_children; ++i) total += nodes_[root.first_child + i].visits;
    for (int i = 0; i < root.num_children; ++i) {
      const Node& child = nodes_[root.first_child + i];
      out.emplace_back(
          child.action,
          total > 0 ? static_cast<float>(child.visits) / static_cast<float>(total) : 0.0f);
    }
  }

 private:
  static Node make_node(Action action, int8_t chooser) {
    Node node{};
    node.first_child = -1;
    node.action = action;
    node.chooser = chooser;
    node.mover = -2;  // not reached yet
    return node;
  }

  std::vector<Node> nodes_;
};

}  // namespace knightgym
