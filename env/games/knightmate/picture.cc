// Knightmate's picture (env/core/picture.h): the pieces, the royal knight in check.
#include "env/core/picture.h"
#include "env/games/knightmate/knightmate.h"

namespace knightgym {

void Knightmate::draw(const State& s, Picture& out) const {
  using namespace knightmate;
  constexpr PieceKind kKinds[kNumKinds] = {PieceKind::kPawn,     PieceKind::kBishop,
                                           PieceKind::kRook,     PieceKind::kQueen,
                                           PieceKind::kCommoner, PieceKind::kRoyalKnight};
  const Position& p = s.position;
  out.reset(kGrid, {"White", "Black"});
  out.to_move = terminal(s) ? -1 : p.side;
  for (int square = 0; square < 64; ++square) {
    const Piece piece = p.board[square];
    if (piece == kNoPiece) continue;
    out.cells[square].put(kKinds[kind_of(piece)], color_of(piece));
    if (kind_of(piece) == kRoyal && color_of(piece) == p.side && p.in_check())
      out.cells[square].marks |= kMarkCheck;
  }
  const std::vector<std::string> lines = text_lines(render(s));
  out.notes.assign(lines.end() - 2, lines.end());  // the FEN and the status
}

}  // namespace knightgym
