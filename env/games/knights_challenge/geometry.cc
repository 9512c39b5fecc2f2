#include "env/games/knights_challenge/geometry.h"

#include <stdexcept>

namespace knightgym::knights_challenge {

Geometry::Geometry(int size) : grid_{size, size} {
  if (size < kMinSize || size > kMaxSize)
    throw std::invalid_argument("board size " + std::to_string(size) + " is outside [" +
                                std::to_string(kMinSize) + ", " + std::to_string(kMaxSize) + "]");
  camp_.fill(kNoCamp);
  cell_.fill(-1);
  for (int sq = 0; sq < grid_.size(); ++sq) {
    int x = grid_.file_of(sq), y = grid_.rank_of(sq);
    for (int turns = 0; turns < 4; ++turns) {
      rotated_[turns][sq] = static_cast<uint8_t>(grid_.square(x, y));
      const int turned_x = size - 1 - y;
      y = x;
      x = turned_x;
    }
    for (int leap = 0; leap < kNumLeaps; ++leap) {
      const int lx = grid_.file_of(sq) + kLeaps[leap][0], ly = grid_.rank_of(sq) + kLeaps[leap][1];
      leaps_[sq][leap] =
          static_cast<int16_t>(grid_.contains(lx, ly) ? grid_.square(lx, ly) : kNoSquare);
    }
  }
  for (int camp = 0; camp < kNumColours; ++camp)
    for (int cell = 0; cell < kCampCells; ++cell) {
      const int sq = camp_square(camp, cell);
      camp_[sq] = static_cast<int8_t>(camp);
      cell_[sq] = static_cast<int8_t>(cell);
    }
}

std::vector<int> Geometry::default_safe_squares() const {
  std::vector<int> out;
  for (const int seed : {grid_.square(size() / 2 - 1, 3), grid_.square(2, size() / 2 - 1)})
    for (int turns = 0; turns < 4; ++turns) out.push_back(rotate(seed, turns));
  return out;
}

}  // namespace knightgym::knights_challenge
