// Knights Double-Duel geometry: the 6x6 board, field names, knight leaps and neighbours.
//
//   rank 6 | 30 31 32 33 34 35      field = (rank - 1) * 6 + file, file a = 0 ... f = 5
//   rank 5 | 24 ...          29     bit f of a Fields set = field f
//     ...  |
//   rank 1 |  0  1  2  3  4  5
//             a  b  c  d  e  f
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "env/core/squares.h"

namespace knightgym::double_duel {

using Fields = uint64_t;

inline constexpr int kSize = 6;
inline constexpr int kNumFields = kSize * kSize;
inline constexpr Fields kAllFields = (Fields{1} << kNumFields) - 1;

constexpr int rank_of(int field) { return field / kSize; }
constexpr int file_of(int field) { return field % kSize; }
constexpr int make_field(int rank, int file) { return rank * kSize + file; }
constexpr Fields field_bit(int field) { return Fields{1} << field; }
// The field seen from the other side: rank r becomes rank 5 - r, files unchanged.
constexpr int flip_field(int field) {
  return make_field(kSize - 1 - rank_of(field), file_of(field));
}

namespace detail {
template <size_t N>
constexpr std::array<Fields, kNumFields> step_table(
    const std::array<std::array<int, 2>, N>& steps) {
  std::array<Fields, kNumFields> table{};
  for (int field = 0; field < kNumFields; ++field)
    for (const auto& [dr, df] : steps) {
      const int rank = rank_of(field) + dr, file = file_of(field) + df;
      if (rank >= 0 && rank < kSize && file >= 0 && file < kSize)
        table[field] |= field_bit(make_field(rank, file));
    }
  return table;
}
}  // namespace detail

// The fields a knight leaps to, and the eight neighbours of each field.
inline constexpr auto kKnightLeaps = detail::step_table(std::array<std::array<int, 2>, 8>{
    {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}});
inline constexpr auto kNeighbours = detail::step_table(std::array<std::array<int, 2>, 8>{
    {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}});

// The whole set seen from the other side (ranks mirrored).
constexpr Fields flip_ranks(Fields fields) {
  constexpr Fields kRank = (Fields{1} << kSize) - 1;
  Fields out = 0;
  for (int rank = 0; rank < kSize; ++rank)
    out |= ((fields >> (rank * kSize)) & kRank) << ((kSize - 1 - rank) * kSize);
  return out;
}

inline std::string field_name(int field) { return square_name(field, kSize); }
inline std::optional<int> parse_field(std::string_view text) {
  return parse_square(text, kSize, kSize);
}

}  // namespace knightgym::double_duel
