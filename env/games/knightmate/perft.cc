#include "env/games/knightmate/perft.h"

namespace knightgym::knightmate {

uint64_t perft(const Position& p, int depth) {
  if (depth <= 1) {
    if (depth < 1) return 1;
    MoveSets sets;  // bulk count: the last ply's moves are counted as sets, not listed
    p.legal_move_sets(sets);
    return static_cast<uint64_t>(sets.count());
  }
  Move moves[kMaxMoves];
  const int count = p.legal_moves(moves);
  uint64_t nodes = 0;
  for (int i = 0; i < count; ++i) {
    Position child = p;
    child.play(moves[i]);
    nodes += perft(child, depth - 1);
  }
  return nodes;
}

std::vector<std::pair<Move, uint64_t>> perft_divide(const Position& p, int depth) {
  Move moves[kMaxMoves];
  const int count = p.legal_moves(moves);
  std::vector<std::pair<Move, uint64_t>> out;
  for (int i = 0; i < count; ++i) {
    Position child = p;
    child.play(moves[i]);
    out.emplace_back(moves[i], depth > 1 ? perft(child, depth - 1) : 1);
  }
  return out;
}

}  // namespace knightgym::knightmate
