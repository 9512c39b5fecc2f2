// Knight Fight geometry: the 10x10 board, square names and knight leaps as bitboards.
//
//   rank 10 | 90 91 92 93 94 95 96 97 98 99      square = (rank - 1) * 10 + file
//   rank  9 | 80 81 ...                  89      file a = 0 ... j = 9
//     ...   |                                    bit s of a Bits128 = square s
//   rank  1 |  0  1  2  3  4  5  6  7  8  9
//             a  b  c  d  e  f  g  h  i  j
#pragma once

#include <array>

#include "env/core/bits.h"
#include "env/core/grid.h"

namespace knightgym::knight_fight {

inline constexpr int kSize = 10;
inline constexpr Grid kGrid{kSize, kSize};
inline constexpr int kNumSquares = kGrid.size();

inline constexpr Bits128 kAllSquares = (Bits128{1} << kNumSquares) - 1;
inline constexpr Bits128 kFirstRank = (Bits128{1} << kSize) - 1;
inline constexpr Bits128 kLastRank = kFirstRank << (kNumSquares - kSize);

inline constexpr auto kKnightAttacks = [] {
  std::array<Bits128, kNumSquares> table{};
  for (int square = 0; square < kNumSquares; ++square)
    kGrid.for_each_step(square, kKnightLeaps, [&](int to) { table[square] |= bit128(to); });
  return table;
}();

// The board seen from the other side: rank r becomes rank 9 - r, files unchanged. Two
// steps without a loop: swap the halves of five ranks, then within each half swap ranks
// 0 and 4 and ranks 1 and 3 (bits beyond the board are dropped).
constexpr Bits128 flip_ranks(Bits128 b) {
  constexpr int kHalf = 5 * kSize;
  constexpr Bits128 kLowHalf = (Bits128{1} << kHalf) - 1;
  // Rank 0 of each half (ranks 0 and 5), rank 1 (1 and 6) and rank 2 (2 and 7).
  constexpr Bits128 kRank0 = ((Bits128{1} << kSize) - 1) * ((Bits128{1} << kHalf) + 1);
  constexpr Bits128 kRank1 = kRank0 << kSize, kRank2 = kRank0 << (2 * kSize);
  b &= kAllSquares;
  b = b >> kHalf | (b & kLowHalf) << kHalf;
  return (b & kRank2) | (b & kRank0) << (4 * kSize) | (b >> (4 * kSize) & kRank0) |
         (b & kRank1) << (2 * kSize) | (b >> (2 * kSize) & kRank1);
}

}  // namespace knightgym::knight_fight
