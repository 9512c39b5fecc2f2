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

#include "env/core/grid.h"

namespace knightgym::double_duel {

using Fields = uint64_t;

inline constexpr int kSize = 6;
inline constexpr Grid kGrid{kSize, kSize};
inline constexpr int kNumFields = kGrid.size();
inline constexpr Fields kAllFields = (Fields{1} << kNumFields) - 1;

constexpr Fields field_bit(int field) { return Fields{1} << field; }

namespace detail {
template <size_t N>
constexpr std::array<Fields, kNumFields> step_table(
    const std::array<std::array<int, 2>, N>& steps) {
  std::array<Fields, kNumFields> table{};
  for (int field = 0; field < kNumFields; ++field)
    kGrid.for_each_step(field, steps, [&](int to) { table[field] |= field_bit(to); });
  return table;
}
}  // namespace detail

// The fields a knight leaps to, and the eight neighbours of each field.
inline constexpr auto kLeapTargets = detail::step_table(kKnightLeaps);
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

}  // namespace knightgym::double_duel
