// Knights Challenge's picture (env/core/picture.h): the camps of the colours in play, the
// safe squares, the knights (those stuck in a hostile camp marked) and the captures.
#include "env/core/picture.h"
#include "env/games/knights_challenge/knights_challenge.h"

namespace knightgym {
namespace {

constexpr PieceStyle kPieces[] = {styles::kKnight};
enum : int { kKnight };
constexpr MarkStyle kMarks[] = {{"safe", MarkLook::kStar},
                                {"stuck", MarkLook::kSideFrame}};  // in a hostile camp
enum : uint16_t { kMarkSafe = 1 << 0, kMarkStuck = 1 << 1 };

}  // namespace

void KnightsChallenge::draw(const State& s, Picture& out) const {
  using namespace knights_challenge;
  out.reset(geometry_.grid(), {"red", "blue", "yellow", "green"}, kPieces, kMarks);
  out.to_move = over(s.end) ? -1 : s.to_move;
  for (int square = 0; square < geometry_.grid().size(); ++square) {
    Cell& cell = out.cells[square];
    const int camp = geometry_.camp(square);
    if (camp != kNoCamp && in_play(camp)) cell.zone = static_cast<int8_t>(camp);
    if (safe_[square]) cell.marks |= kMarkSafe;
    if (const int occupant = s.board[square]) {
      const int colour = (occupant - 1) / kKnights;
      cell.put(kKnight, colour);
      if (region_[colour][square] == kHostileCamp) cell.marks |= kMarkStuck;
    }
  }
  out.notes = {text_lines(render(s)).back()};
  std::string captures = "captures";
  for (const int colour : colours_)
    captures += std::string(colour == colours_.front() ? " " : ", ") + out.sides[colour] + " " +
                std::to_string(s.captures[colour]);
  out.notes.push_back(captures);
}

}  // namespace knightgym
