// Board symmetries: transformations under which a game's rules are unchanged, used to
// augment training examples (observation planes, legal mask and policy target; values
// are invariant). A game with symmetries offers
//   static constexpr int kNumSymmetries;                    // the identity included
//   static constexpr int symmetric_cell(int k, int cell);    // an observation cell's image
//   static constexpr Action symmetric_action(int k, Action);  // an action's image
// with k = 0 the identity; a game without them has the identity alone.
#pragma once

#include <utility>

#include "env/core/game.h"

namespace knightgym {

template <class G>
concept HasSymmetries = requires(int k, int cell, Action action) {
  { G::kNumSymmetries } -> std::convertible_to<int>;
  { G::symmetric_cell(k, cell) } -> std::same_as<int>;
  { G::symmetric_action(k, action) } -> std::same_as<Action>;
};

// A game's symmetries, the identity alone where it declares none.
template <Game G>
struct Symmetries {
  static constexpr int kCount = 1;
  static constexpr int cell(int, int c) { return c; }
  static constexpr Action action(int, Action a) { return a; }
};

template <Game G>
requires HasSymmetries<G>
struct Symmetries<G> {
  static constexpr int kCount = G::kNumSymmetries;
  static constexpr int cell(int k, int c) { return G::symmetric_cell(k, c); }
  static constexpr Action action(int k, Action a) { return G::symmetric_action(k, a); }
};

// Element k of the dihedral group of an n x n grid: bit 0 transposes, bit 1 reverses the
// rows, bit 2 reverses the columns (in that order). k = 0 is the identity.
constexpr int dihedral_cell(int k, int n, int cell) {
  int row = cell / n, col = cell % n;
  if (k & 1) std::swap(row, col);
  if (k & 2) row = n - 1 - row;
  if (k & 4) col = n - 1 - col;
  return row * n + col;
}

}  // namespace knightgym
