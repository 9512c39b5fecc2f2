// Double-Duel's picture (env/core/picture.h): knights, single and stacked pawns, the
// reserves, the turn's chosen piece and vacated field, and the knights a neighbour attack
// may take.
#include "env/core/picture.h"
#include "env/games/double_duel/double_duel.h"

namespace knightgym {
namespace {

constexpr PieceStyle kPieces[] = {styles::kKnight, styles::kPawn};
enum : int { kKnight, kPawn };
constexpr MarkStyle kMarks[] = {styles::kSelected,
                                {"vacated", MarkLook::kDashedFrame, "#1565c0"},
                                {"attackable", MarkLook::kDashedHalo, "#e53935"}};
enum : uint16_t { kMarkSelected = 1 << 0, kMarkVacated = 1 << 1, kMarkAttackable = 1 << 2 };

}  // namespace

void DoubleDuel::draw(const State& s, Picture& out) const {
  using double_duel::kGrid;
  out.reset(kGrid, {"White", "Black"}, kPieces, kMarks);
  out.to_move = over(s.end) ? -1 : s.to_move;
  const auto put_all = [&](Fields fields, int kind, int player, int count) {
    for (; fields; fields &= fields - 1)
      out.cells[std::countr_zero(fields)].put(kind, player, count);
  };
  for (int player = 0; player < kNumPlayers; ++player) {
    put_all(s.knights[player], kKnight, player, 1);
    put_all(s.singles[player], kPawn, player, 1);
    put_all(s.doubles[player], kPawn, player, 2);
    out.reserves.push_back({player, kPawn, s.reserve[player]});
  }
  if (!over(s.end)) {
    if (s.selected >= 0) out.cells[s.selected].marks |= kMarkSelected;
    if (s.vacated >= 0) out.cells[s.vacated].marks |= kMarkVacated;
    if (s.attacker[s.to_move] >= 0)
      for (Fields f = s.attack_targets[s.to_move] & s.knights[1 - s.to_move]; f; f &= f - 1)
        out.cells[std::countr_zero(f)].marks |= kMarkAttackable;
  }
  out.notes = {text_lines(render(s)).front()};
}

}  // namespace knightgym
