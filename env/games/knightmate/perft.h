// Perft: the number of leaf nodes of the legal move tree to a given depth, the standard
// check of a move generator. Draw rules do not cut the tree (as in Fairy-Stockfish).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "env/games/knightmate/position.h"

namespace knightgym::knightmate {

uint64_t perft(const Position& p, int depth);

// The count below each legal move of `p`, in generation order.
std::vector<std::pair<Move, uint64_t>> perft_divide(const Position& p, int depth);

}  // namespace knightgym::knightmate
