// Knight Fight's picture (env/core/picture.h): the numbers, the squares out of play, the
// doubles and the two knights.
#include "env/core/picture.h"
#include "env/games/knight_fight/knight_fight.h"

namespace knightgym {
namespace {

constexpr PieceStyle kPieces[] = {styles::kKnight};
enum : int { kKnight };
constexpr MarkStyle kMarks[] = {styles::kOutOfPlay, {"double", MarkLook::kNumber, "#a0142a"}};
enum : uint16_t { kMarkOutOfPlay = 1 << 0, kMarkDouble = 1 << 1 };

}  // namespace

void KnightFight::draw(const State& s, Picture& out) const {
  using knight_fight::kGrid;
  out.reset(kGrid, {"White", "Black"}, kPieces, kMarks);
  out.to_move = over(s.end) ? -1 : s.to_move;
  for (int square = 0; square < kNumSquares; ++square) {
    Cell& cell = out.cells[square];
    cell.number = s.number[square];
    if (!test128(s.usable, square)) cell.marks |= kMarkOutOfPlay;
    if (test128(s.doubles, square)) cell.marks |= kMarkDouble;
  }
  for (int player = 0; player < kNumPlayers; ++player)
    if (s.knight[player] >= 0) out.cells[s.knight[player]].put(kKnight, player);
  out.notes = {text_lines(render(s)).front()};
}

}  // namespace knightgym
