// Symmetries for data augmentation: transformations of the board under which a game's
// rules are unchanged, applied to a training example (observation planes, legal mask and
// policy target; the values are invariant). Tailten's board is the 7 x 7 grid without
// its corners, so all eight symmetries of the square keep it. Knight Fight keeps its
// left-right mirror (placements are on the players' back ranks, so no other symmetry
// holds). The other games have none: Knightmate's kings and queens stand on fixed files,
// Double-Duel's and Knights Challenge's starting camps are not mirror images.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "env/games/knight_fight/knight_fight.h"
#include "env/games/tailten/tailten.h"

namespace knightgym {

// Element k of the dihedral group of an n x n grid: bit 0 transposes, bit 1 reverses the
// rows, bit 2 reverses the columns (in that order). k = 0 is the identity.
constexpr int dihedral_cell(int k, int n, int cell) {
  int row = cell / n, col = cell % n;
  if (k & 1) std::swap(row, col);
  if (k & 2) row = n - 1 - row;
  if (k & 4) col = n - 1 - col;
  return row * n + col;
}

// A game's symmetries: kCount transformations; cell(k, c) maps an observation cell,
// action(k, a) an action. The primary template: none but the identity.
template <Game G>
struct Symmetries {
  static constexpr int kCount = 1;
  static constexpr int cell(int, int c) { return c; }
  static constexpr Action action(int, Action a) { return a; }
};

template <>
struct Symmetries<Tailten> {
  static constexpr int kCount = 8;
  static constexpr int cell(int k, int c) { return dihedral_cell(k, tailten::kSize, c); }
  static constexpr Action action(int k, Action a) {
    return tailten::kHillOfSquare[cell(k, tailten::kSquareOfHill[a])];
  }
};

template <>
struct Symmetries<KnightFight> {
  static constexpr int kCount = 2;
  // Actions 0..99 are cells of the mover's view; 100 (pass) stays.
  static constexpr int cell(int k, int c) {
    return dihedral_cell(k ? 4 : 0, KnightFight::kSize, c);
  }
  static constexpr Action action(int k, Action a) {
    return a == KnightFight::kPass ? a : static_cast<Action>(cell(k, a));
  }
};

// Applies symmetry k to one example in place; `scratch` holds at least one plane and
// num_actions floats.
template <Game G>
void apply_symmetry(int k, const GameInfo& info, float* observation, uint8_t* mask, float* policy,
                    float* scratch, uint8_t* mask_scratch) {
  if (k == 0) return;
  const Shape& s = info.observation_shape;
  const int area = s.height * s.width;
  for (int plane = 0; plane < s.channels; ++plane) {
    float* data = observation + static_cast<int64_t>(plane) * area;
    for (int c = 0; c < area; ++c) scratch[Symmetries<G>::cell(k, c)] = data[c];
    std::copy_n(scratch, area, data);
  }
  for (Action a = 0; a < info.num_actions; ++a) {
    scratch[Symmetries<G>::action(k, a)] = policy[a];
    mask_scratch[Symmetries<G>::action(k, a)] = mask[a];
  }
  std::copy_n(scratch, info.num_actions, policy);
  std::copy_n(mask_scratch, info.num_actions, mask);
}

}  // namespace knightgym
