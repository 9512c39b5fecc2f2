// Lines of knights in a camp and the best choice of disjoint ones. A camp's cells are
// w + 4 d (w = 0..3 across, d = 0..2 deep); its seven lines are the four columns of 3
// (one knight behind the other, d = 0..2 at one w) and the three rows of 4 (side by side,
// one d). A column counts 12 instead of 3 x 2, a row 16 instead of 4 x 2, and a knight
// belongs to at most one line.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "env/games/knights_challenge/geometry.h"

namespace knightgym::knights_challenge {

constexpr int kNumLines = 7;
constexpr int kColumnBonus = 6;  // 12 - 3 x 2
constexpr int kRowBonus = 8;     // 16 - 4 x 2

// The lines as cell masks: columns w = 0..3, then rows d = 0..2.
constexpr std::array<uint16_t, kNumLines> kLines = [] {
  std::array<uint16_t, kNumLines> lines{};
  for (int w = 0; w < kCampWidth; ++w) lines[w] = static_cast<uint16_t>((1 | 1 << 4 | 1 << 8) << w);
  for (int d = 0; d < kCampDepth; ++d) lines[kCampWidth + d] = static_cast<uint16_t>(0xf << 4 * d);
  return lines;
}();

constexpr int line_bonus(int line) { return line < kCampWidth ? kColumnBonus : kRowBonus; }

// The points lines add to the knights on `cells` (beyond 2 a knight), with the best
// choice of disjoint lines: one table entry per set of cells. A best choice is empty or
// holds some line, with a best choice for the cells that line leaves.
inline constexpr std::array<uint8_t, 1 << kCampCells> kBestLineBonus = [] {
  std::array<uint8_t, 1 << kCampCells> best{};
  for (int cells = 1; cells < (1 << kCampCells); ++cells)
    for (int line = 0; line < kNumLines; ++line)
      if ((cells & kLines[line]) == kLines[line])
        best[cells] = std::max(
            best[cells], static_cast<uint8_t>(line_bonus(line) + best[cells & ~kLines[line]]));
  return best;
}();

}  // namespace knightgym::knights_challenge
