#include "env/core/grid.h"

#include <charconv>

namespace knightgym {

std::string Grid::name(int square) const {
  return static_cast<char>('a' + file_of(square)) + std::to_string(rank_of(square) + 1);
}

std::optional<int> Grid::parse(std::string_view text) const {
  if (text.size() < 2 || text[0] < 'a' || text[0] >= 'a' + width) return std::nullopt;
  int rank = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data() + 1, end, rank);
  if (error != std::errc() || ptr != end || text[1] == '0' || rank < 1 || rank > height)
    return std::nullopt;
  return square(text[0] - 'a', rank - 1);
}

}  // namespace knightgym
