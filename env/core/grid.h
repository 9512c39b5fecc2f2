// Squares of rectangular boards, one convention for every game:
//
//   rank h-1 | (h-1)*w ...  h*w-1      square = rank * width + file
//     ...    |                         file 0 = 'a' on the first player's left,
//   rank 0   |  0  1  ...   w-1        rank 0 = "1" on the first player's side
//               a  b  ...
//
// Coordinates are always given file first, then rank (x, y), as square names are ("c1"
// is file c, rank 1). Games keep their own bit sets; this says where squares are.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace knightgym {

struct Grid {
  int width = 0, height = 0;

  constexpr int size() const { return width * height; }
  constexpr int square(int file, int rank) const { return rank * width + file; }
  // Unsigned arithmetic: for a power-of-two width known at compile time these are a mask
  // and a shift, as hand-written bitboard code would have them.
  constexpr int file_of(int square) const {
    return static_cast<int>(static_cast<unsigned>(square) % static_cast<unsigned>(width));
  }
  constexpr int rank_of(int square) const {
    return static_cast<int>(static_cast<unsigned>(square) / static_cast<unsigned>(width));
  }
  constexpr bool contains(int file, int rank) const {
    return file >= 0 && file < width && rank >= 0 && rank < height;
  }
  // The square seen from the other side of the board: rank r becomes rank h-1-r.
  constexpr int flip_rank(int square) const {
    return this->square(file_of(square), height - 1 - rank_of(square));
  }

  // Calls f(target) for every square a (df, dr) step from `square` reaches on the board.
  template <size_t N, class F>
  constexpr void for_each_step(int square, const std::array<std::array<int, 2>, N>& steps,
                               F&& f) const {
    for (const auto& [df, dr] : steps) {
      const int file = file_of(square) + df, rank = rank_of(square) + dr;
      if (contains(file, rank)) f(this->square(file, rank));
    }
  }

  // "a1": the file letter and the rank number.
  std::string name(int square) const;
  // The square named by `text`, or nullopt ("a01" and "a0" are not names).
  std::optional<int> parse(std::string_view text) const;
};

// The knight's eight leaps, as (file, rank) steps. Their order is part of Knightmate's
// action encoding (its knight planes): never reorder them.
inline constexpr std::array<std::array<int, 2>, 8> kKnightLeaps = {
    {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}};

}  // namespace knightgym
