// Perft: the leaves of the legal-action tree `depth` decisions deep, the standard check of
// a move generator, for every game. A decision is one action, so a turn of several
// decisions (Knight Fight's erase, Double-Duel's steps) is several levels; a state that is
// over has no children, so a game that ends above `depth` adds nothing.
//
// A game may offer its own `uint64_t perft(const State&, int depth) const` (Knightmate
// counts on its bitboards, where, as in Fairy-Stockfish, draw rules below the root do not
// cut the tree); the others are counted here by copying the state into each child.
// Allocation-free: one action array per level, on the stack.
#pragma once

#include <cstdint>

#include "env/core/game.h"

namespace knightgym {

template <class G>
concept HasPerft = requires(const G game, const typename G::State state, int depth) {
  { game.perft(state, depth) } -> std::same_as<uint64_t>;
};

// Precondition: depth >= 0.
template <Game G>
uint64_t perft(const G& game, const typename G::State& state, int depth) {
  if constexpr (HasPerft<G>) {
    return game.perft(state, depth);
  } else {
    if (depth == 0) return 1;
    if (game.terminal(state)) return 0;
    Action legal[G::kMaxActions];
    const int n = game.legal_actions(state, legal);
    if (depth == 1) return static_cast<uint64_t>(n);  // the last level is counted, not played
    uint64_t leaves = 0;
    for (int i = 0; i < n; ++i) {
      typename G::State child = state;
      game.apply(child, legal[i]);
      leaves += perft(game, child, depth - 1);
    }
    return leaves;
  }
}

}  // namespace knightgym
