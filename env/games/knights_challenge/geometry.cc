#include "env/games/knights_challenge/geometry.h"

#include <stdexcept>

#include "env/core/squares.h"

namespace knightgym::knights_challenge {

Geometry::Geometry(int size) : size_(size) {
  if (size < kMinSize || size > kMaxSize)
    throw std::invalid_argument("board size " + std::to_string(size) + " is outside [" +
                                std::to_string(kMinSize) + ", " + std::to_string(kMaxSize) + "]");
  camp_.fill(kNoCamp);
  cell_.fill(-1);
  for (int sq = 0; sq < num_squares(); ++sq) {
    int x = file(sq), y = rank(sq);
    for (int turns = 0; turns < 4; ++turns) {
      rotated_[turns][sq] = static_cast<uint8_t>(square(x, y));
      const int turned_x = size - 1 - y;
      y = x;
      x = turned_x;
    }
    for (int leap = 0; leap < kNumLeaps; ++leap) {
      const int lx = file(sq) + kLeaps[leap][0], ly = rank(sq) + kLeaps[leap][1];
      const bool on_board = lx >= 0 && lx < size && ly >= 0 && ly < size;
      leaps_[sq][leap] = static_cast<int16_t>(on_board ? square(lx, ly) : kNoSquare);
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
  for (const int seed : {square(size_ / 2 - 1, 3), square(2, size_ / 2 - 1)})
    for (int turns = 0; turns < 4; ++turns) out.push_back(rotate(seed, turns));
  return out;
}

std::string Geometry::name(int square) const { return square_name(square, size_); }

std::optional<int> Geometry::parse(std::string_view text) const {
  return parse_square(text, size_, size_);
}

}  // namespace knightgym::knights_challenge
