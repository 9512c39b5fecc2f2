// The Knights Challenge board: an N x N grid (N = 10..16) with a 4 x 3 camp in each
// corner, camp k being camp 0 turned k quarter-turns counter-clockwise about the centre.
// Squares are y * N + x (x the file from the left, y the rank from the bottom) and are
// named as in the rules file ("a1" bottom-left). Rules: docs/rules/knights_challenge.md.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "env/core/grid.h"

namespace knightgym::knights_challenge {

constexpr int kMinSize = 10;
constexpr int kMaxSize = 16;
constexpr int kMaxSquares = kMaxSize * kMaxSize;
constexpr int kNumColours = 4;
constexpr int kKnightsPerColour = 8;
constexpr int kCampWidth = 4;                        // w = 0..3 across the camp
constexpr int kCampDepth = 3;                        // d = 0..2, d = 0 at the board's edge
constexpr int kCampCells = kCampWidth * kCampDepth;  // cell = w + 4 d
constexpr int kNoSquare = -1;
constexpr int kNoCamp = -1;

// The eight leaps in counter-clockwise order, so that a quarter-turn takes leap d to leap
// (d + 2) % 8.
constexpr int kNumLeaps = 8;
constexpr int kLeaps[kNumLeaps][2] = {{2, 1},   {1, 2},   {-1, 2}, {-2, 1},
                                      {-2, -1}, {-1, -2}, {1, -2}, {2, -1}};

// The central squares of a camp, (w 1, d 1) and (w 2, d 1): the only squares a colour's
// first knight may leave its camp from under `central_first`.
constexpr bool is_central_cell(int cell) { return cell == 5 || cell == 6; }

class Geometry {
 public:
  explicit Geometry(int size);

  int size() const { return grid_.width; }
  // Squares, their coordinates and names (env/core/grid.h).
  const Grid& grid() const { return grid_; }

  // `square` turned `turns` quarter-turns counter-clockwise about the centre
  // ((x, y) -> (N - 1 - y, x) per turn); negative turns go clockwise.
  int rotate(int square, int turns) const { return rotated_[turns & 3][square]; }
  // Where leap `leap` from `square` lands, kNoSquare off the board.
  int leap(int square, int leap) const { return leaps_[square][leap]; }
  // The camp holding `square` (0..3), kNoCamp outside the camps.
  int camp(int square) const { return camp_[square]; }
  // The square's cell w + 4 d in its camp's own coordinates; only for camp squares.
  int cell(int square) const { return cell_[square]; }
  // The square of cell `cell` of camp `camp`.
  int camp_square(int camp, int cell) const {
    return rotate(grid_.square(cell % kCampWidth, cell / kCampWidth), camp);
  }

  // The default safe squares: the rotation orbits of (N/2 - 1, 3) and (2, N/2 - 1).
  std::vector<int> default_safe_squares() const;

 private:
  Grid grid_;
  std::array<std::array<uint8_t, kMaxSquares>, 4> rotated_{};
  std::array<std::array<int16_t, kNumLeaps>, kMaxSquares> leaps_{};
  std::array<int8_t, kMaxSquares> camp_{};
  std::array<int8_t, kMaxSquares> cell_{};
};

}  // namespace knightgym::knights_challenge
