// Square names shared by the games' boards: file letter + rank number, "a1" bottom-left
// from the first player's side, index = (rank - 1) * width + file.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace knightgym {

std::string square_name(int square, int width);
// The square named by text on a width x height board, or nullopt ("a01" and "a0" are not
// names).
std::optional<int> parse_square(std::string_view text, int width, int height);

}  // namespace knightgym
