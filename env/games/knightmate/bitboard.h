// 8x8 bitboards for Knightmate: square bit i is file i % 8, rank i / 8 (a1 = 0, h8 = 63).
// Leaper tables (knight, king-like commoner, pawn captures) are computed at compile time;
// sliding attacks use magic bitboards whose tables bitboard.cc fills once at start-up.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "env/core/grid.h"

namespace knightgym::knightmate {

using Bitboard = uint64_t;

enum Color : int { kWhite, kBlack };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

constexpr int kNumSquares = 64;
constexpr int kNoSquare = 64;
constexpr Bitboard kRank1 = 0xffull, kRank8 = kRank1 << 56;
constexpr Bitboard kFileA = 0x0101010101010101ull, kFileH = kFileA << 7;

inline constexpr Grid kGrid{8, 8};
constexpr Bitboard square_bb(int square) { return Bitboard{1} << square; }
constexpr Bitboard rank_bb(int rank) { return kRank1 << (8 * rank); }
// Mirrors the ranks of a whole board (rank 1 <-> rank 8).
constexpr Bitboard flip_ranks(Bitboard b) { return __builtin_bswap64(b); }

inline int lsb(Bitboard b) { return std::countr_zero(b); }
inline int pop_lsb(Bitboard& b) {
  const int square = std::countr_zero(b);
  b &= b - 1;
  return square;
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

namespace detail {

// Squares reached by the given (file, rank) steps from each square, one step each.
template <size_t N>
constexpr std::array<Bitboard, 64> leaper_table(const std::array<std::array<int, 2>, N>& steps) {
  std::array<Bitboard, 64> table{};
  for (int square = 0; square < 64; ++square)
    kGrid.for_each_step(square, steps, [&](int to) { table[square] |= square_bb(to); });
  return table;
}

constexpr std::array<std::array<int, 2>, 8> kKingSteps{
    {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}};

struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  unsigned shift;
  unsigned index(Bitboard occupied) const {
    return static_cast<unsigned>(((occupied & mask) * magic) >> shift);
  }
};

extern Magic rook_magics[64];
extern Magic bishop_magics[64];
extern Bitboard between_table[64][64];  // squares strictly between two aligned squares
extern Bitboard line_table[64][64];     // the whole line through two aligned squares, or 0

}  // namespace detail

inline constexpr auto kKnightAttacks = detail::leaper_table(kKnightLeaps);
inline constexpr auto kKingAttacks = detail::leaper_table(detail::kKingSteps);
// kPawnAttacks[c][s]: the squares a pawn of colour c on s attacks.
inline constexpr std::array<std::array<Bitboard, 64>, 2> kPawnAttacks{
    detail::leaper_table(std::array<std::array<int, 2>, 2>{{{-1, 1}, {1, 1}}}),
    detail::leaper_table(std::array<std::array<int, 2>, 2>{{{-1, -1}, {1, -1}}})};

namespace detail {
// Squares along the given directions from each square on an empty board.
constexpr std::array<Bitboard, 64> ray_table(const std::array<std::array<int, 2>, 4>& steps) {
  std::array<Bitboard, 64> table{};
  for (int square = 0; square < 64; ++square)
    for (const auto& [df, dr] : steps)
      for (int f = kGrid.file_of(square) + df, r = kGrid.rank_of(square) + dr;
           f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr)
        table[square] |= square_bb(kGrid.square(f, r));
  return table;
}
}  // namespace detail

// Rook and bishop attacks on an empty board.
inline constexpr auto kRookRays = detail::ray_table({{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}});
inline constexpr auto kBishopRays = detail::ray_table({{{1, 1}, {1, -1}, {-1, -1}, {-1, 1}}});

inline Bitboard rook_attacks(int square, Bitboard occupied) {
  const detail::Magic& m = detail::rook_magics[square];
  return m.attacks[m.index(occupied)];
}
inline Bitboard bishop_attacks(int square, Bitboard occupied) {
  const detail::Magic& m = detail::bishop_magics[square];
  return m.attacks[m.index(occupied)];
}
inline Bitboard between(int a, int b) { return detail::between_table[a][b]; }
inline Bitboard line(int a, int b) { return detail::line_table[a][b]; }
inline bool aligned(int a, int b, int c) { return line(a, b) & square_bb(c); }

// Pawns of colour c shifted one rank forward.
template <Color c>
constexpr Bitboard push(Bitboard b) {
  return c == kWhite ? b << 8 : b >> 8;
}

}  // namespace knightgym::knightmate
