// Knightmate's picture (env/core/picture.h): the pieces, the royal knight in check.
#include "env/core/picture.h"
#include "env/games/knightmate/knightmate.h"

namespace knightgym {
namespace {

// In the order of knightmate::Kind: P B R Q M K; the royal knight in a gold halo.
constexpr PieceStyle kPieces[] = {
    styles::kPawn,           {"bishop", "\u265d", ""},   {"rook", "\u265c", ""},
    {"queen", "\u265b", ""}, {"commoner", "\u265a", ""}, {"royal_knight", "\u265e", "#d4a017"}};
constexpr MarkStyle kMarks[] = {{"check", MarkLook::kHalo, "#e53935"}};
enum : uint16_t { kMarkCheck = 1 << 0 };

}  // namespace

void Knightmate::draw(const State& s, Picture& out) const {
  using namespace knightmate;
  const Position& p = s.position;
  out.reset(kGrid, {"White", "Black"}, kPieces, kMarks);
  out.to_move = terminal(s) ? -1 : p.side;
  for (int square = 0; square < 64; ++square) {
    const Piece piece = p.board[square];
    if (piece == kNoPiece) continue;
    out.cells[square].put(kind_of(piece), color_of(piece));
    if (kind_of(piece) == kRoyal && color_of(piece) == p.side && p.in_check())
      out.cells[square].marks |= kMarkCheck;
  }
  const std::vector<std::string> lines = text_lines(render(s));
  out.notes.assign(lines.end() - 2, lines.end());  // the FEN and the status
}

}  // namespace knightgym
