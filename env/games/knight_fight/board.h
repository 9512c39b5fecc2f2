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

// The board seen from the other side: rank r becomes rank 9 - r, files unchanged.
constexpr Bits128 flip_ranks(Bits128 b) {
  constexpr Bits128 kRankBits = (Bits128{1} << kSize) - 1;
  Bits128 out = 0;
  for (int rank = 0; rank < kSize; ++rank)
    out |= ((b >> (rank * kSize)) & kRankBits) << ((kSize - 1 - rank) * kSize);
  return out;
}

// "a1" .. "j10".
std::string square_name(int square);
// The square named by text, or nullopt.
std::optional<int> parse_square(std::string_view text);

}  // namespace knightgym::knight_fight
