#include "env/core/squares.h"

#include <charconv>

namespace knightgym {

std::string square_name(int square, int width) {
  return static_cast<char>('a' + square % width) + std::to_string(square / width + 1);
}

std::optional<int> parse_square(std::string_view text, int width, int height) {
  if (text.size() < 2 || text[0] < 'a' || text[0] >= 'a' + width) return std::nullopt;
  int rank = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data() + 1, end, rank);
  if (error != std::errc() || ptr != end || text[1] == '0' || rank < 1 || rank > height)
    return std::nullopt;
  return (rank - 1) * width + (text[0] - 'a');
}

}  // namespace knightgym
