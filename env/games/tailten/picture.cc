// Tailten's picture (env/core/picture.h): the 45 hills, the ringforts, and the bridges
// between orthogonally adjacent ringforts of one player that link a kingdom.
#include "env/core/picture.h"
#include "env/games/tailten/tailten.h"

namespace knightgym {
namespace {

constexpr PieceStyle kPieces[] = {{"ringfort", "", ""}};  // a ring in the player's colour
enum : int { kRingfort };
constexpr MarkStyle kMarks[] = {styles::kOffBoard,
                                {"hill", MarkLook::kTerrain, "#b9d4a0", "#8fbf6a"}};
enum : uint16_t { kMarkOffBoard = 1 << 0, kMarkHill = 1 << 1 };

}  // namespace

void Tailten::draw(const State& s, Picture& out) const {
  using namespace tailten;
  out.reset(kGrid, {"Red", "Blue"}, kPieces, kMarks);
  out.to_move = terminal(s) ? -1 : s.to_move;
  for (int square = 0; square < kNumSquares; ++square)
    out.cells[square].marks = kHillOfSquare[square] < 0 ? kMarkOffBoard : kMarkHill;
  for (int player = 0; player < kNumPlayers; ++player)
    for (Squares forts = s.forts[player]; forts; forts &= forts - 1) {
      const int square = std::countr_zero(forts);
      out.cells[square].put(kRingfort, player);
      // Each bridge once: to the neighbours to the right and above.
      const Squares ahead = kAdjacent[square] & s.forts[player] &
                            (square_bit(square + 1) | square_bit(square + kSize));
      for (Squares b = ahead; b; b &= b - 1)
        out.links.push_back({square, std::countr_zero(b), player});
    }
  out.notes = {text_lines(render(s)).back()};
  out.notes.push_back("supply Red " + std::to_string(supply(s, 0)) + ", Blue " +
                      std::to_string(supply(s, 1)));
}

}  // namespace knightgym
