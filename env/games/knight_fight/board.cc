#include "env/games/knight_fight/board.h"

#include "env/core/squares.h"

namespace knightgym::knight_fight {

std::string square_name(int square) { return knightgym::square_name(square, kSize); }

std::optional<int> parse_square(std::string_view text) {
  return knightgym::parse_square(text, kSize, kSize);
}

}  // namespace knightgym::knight_fight
