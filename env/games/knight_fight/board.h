// Knight Fight geometry: the 10x10 board, square names and knight leaps as bitboards.
//
//   rank 10 | 90 91 92 93 94 95 96 97 98 99      square = (rank - 1) * 10 + file
//   rank  9 | 80 81 ...                  89      file a = 0 ... j = 9
//     ...   |                                    bit s of a Bits128 = square s
//   rank  1 |  0  1  2  3  4  5  6  7  8  9
//             a  b  c  d  e  f  g  h  i  j
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "env/core/bits.h"

namespace knightgym::knight_fight {

inline constexpr int kSize = 10;
inline constexpr int kNumSquares = kSize * kSize;

constexpr int rank_of(int square) { return square / kSize; }
constexpr int file_of(int square) { return square % kSize; }
constexpr int make_square(int rank, int file) { return rank * kSize + file; }

inline constexpr Bits128 kAllSquares = (Bits128{1} << kNumSquares) - 1;
inline constexpr Bits128 kFirstRank = (Bits128{1} << kSize) - 1;
inline constexpr Bits128 kLastRank = kFirstRank << (kNumSquares - kSize);

inline constexpr auto kKnightAttacks = [] {
  constexpr int kLeaps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  std::array<Bits128, kNumSquares> table{};
  for (int square = 0; square < kNumSquares; ++square)
    for (const auto& [dr, df] : kLeaps) {
      const int rank = rank_of(square) + dr, file = file_of(square) + df;
      if (rank >= 0 && rank < kSize && file >= 0 && file < kSize)
        table[square] |= bit128(make_square(rank, file));
    }
  return table;
}();

// The square seen from the other side: rank r becomes rank 9 - r, file unchanged.
constexpr int flip_square(int square) {
  return make_square(kSize - 1 - rank_of(square), file_of(square));
}

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

// "a1" .. "j10".
std::string square_name(int square);
// The square named by text, or nullopt.
std::optional<int> parse_square(std::string_view text);

}  // namespace knightgym::knight_fight
