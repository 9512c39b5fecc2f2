// The Tara board of Tailten: 45 hills, the 7 x 7 grid (files a-g, ranks 1-7) without its
// four corners. Squares are rank * 7 + file; sets of squares are 49-bit words. Hills are
// adjacent when they are orthogonal neighbours.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "env/core/grid.h"

namespace knightgym::tailten {

using Squares = uint64_t;  // bit = rank * 7 + file

constexpr int kSize = 7;
inline constexpr Grid kGrid{kSize, kSize};
constexpr int kNumSquares = kGrid.size();
constexpr int kNumHills = kNumSquares - 4;

constexpr Squares square_bit(int square) { return Squares{1} << square; }

constexpr Squares kHills = ((Squares{1} << kNumSquares) - 1) & ~square_bit(0) &
                           ~square_bit(kSize - 1) & ~square_bit(kNumSquares - kSize) &
                           ~square_bit(kNumSquares - 1);

namespace detail {
constexpr Squares squares_around(int square, bool (*within)(int dx, int dy)) {
  Squares out = 0;
  for (int dx = -2; dx <= 2; ++dx)
    for (int dy = -2; dy <= 2; ++dy) {
      const int x = kGrid.file_of(square) + dx, y = kGrid.rank_of(square) + dy;
      if ((dx || dy) && within(dx, dy) && kGrid.contains(x, y))
        out |= square_bit(kGrid.square(x, y));
    }
  return out & kHills;
}
template <bool (*Within)(int, int)>
constexpr std::array<Squares, kNumSquares> table() {
  std::array<Squares, kNumSquares> out{};
  for (int square = 0; square < kNumSquares; ++square) out[square] = squares_around(square, Within);
  return out;
}
constexpr bool orthogonal(int dx, int dy) { return dx * dx + dy * dy == 1; }
constexpr bool knight_leap(int dx, int dy) { return dx * dx + dy * dy == 5; }
constexpr bool closer_than_a_leap(int dx, int dy) { return dx * dx + dy * dy < 5; }
}  // namespace detail

// Per square: the adjacent hills, the hills a knight's leap away, and the hills closer
// than a knight's leap (squared distance below 5: orthogonal and diagonal neighbours and
// two steps in a straight line).
inline constexpr auto kAdjacent = detail::table<detail::orthogonal>();
inline constexpr auto kLeapTargets = detail::table<detail::knight_leap>();
inline constexpr auto kTooClose = detail::table<detail::closer_than_a_leap>();

// The hills adjacent to any square of `squares`.
constexpr Squares adjacent_to(Squares squares) {
  constexpr Squares kNotFileA = 0x1fbf7efdfbf7eull;  // squares not on file a
  constexpr Squares kNotFileG = kNotFileA >> 1;
  const Squares all = (Squares{1} << kNumSquares) - 1;
  return (((squares & kNotFileG) << 1) | ((squares & kNotFileA) >> 1) | (squares << kSize) |
          (squares >> kSize)) &
         all & kHills;
}

// Hill index (the action) of each square, -1 for the corners, and back.
inline constexpr auto kHillOfSquare = [] {
  std::array<int8_t, kNumSquares> out{};
  int hill = 0;
  for (int square = 0; square < kNumSquares; ++square)
    out[square] = static_cast<int8_t>(kHills >> square & 1 ? hill++ : -1);
  return out;
}();
inline constexpr auto kSquareOfHill = [] {
  std::array<int8_t, kNumHills> out{};
  for (int square = 0; square < kNumSquares; ++square)
    if (kHillOfSquare[square] >= 0) out[kHillOfSquare[square]] = static_cast<int8_t>(square);
  return out;
}();

// The number of groups of orthogonally connected squares in `squares`.
constexpr int count_groups(Squares squares) {
  int groups = 0;
  while (squares) {
    Squares group = squares & (~squares + 1);
    for (Squares grown = group; (grown = (group | adjacent_to(group)) & squares) != group;)
      group = grown;
    squares &= ~group;
    ++groups;
  }
  return groups;
}

}  // namespace knightgym::tailten
