#include "env/games/knight_fight/board.h"

#include <charconv>

namespace knightgym::knight_fight {

std::string square_name(int square) {
  return static_cast<char>('a' + file_of(square)) + std::to_string(rank_of(square) + 1);
}

std::optional<int> parse_square(std::string_view text) {
  if (text.size() < 2 || text[0] < 'a' || text[0] >= 'a' + kSize) return std::nullopt;
  int rank = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data() + 1, end, rank);
  if (error != std::errc() || ptr != end || text[1] == '0' || rank < 1 || rank > kSize)
    return std::nullopt;
  return make_square(rank - 1, text[0] - 'a');
}

}  // namespace knightgym::knight_fight
