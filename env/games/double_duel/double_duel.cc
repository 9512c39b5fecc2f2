#include "env/games/double_duel/double_duel.h"

#include <algorithm>
#include <bit>

#include "env/core/bits.h"

namespace knightgym {
namespace {

using double_duel::field_bit;
using double_duel::flip_ranks;
using double_duel::kAllFields;
using double_duel::kLeapTargets;
using double_duel::kNeighbours;
using Fields = double_duel::Fields;

// The home rank of White: a 2 pawns, b knight, c and d 2 pawns, e knight, f 2 pawns.
constexpr Fields kWhiteDoubles = field_bit(0) | field_bit(2) | field_bit(3) | field_bit(5);
constexpr Fields kWhiteKnights = field_bit(1) | field_bit(4);

// Takes one pawn off `field` (a double becomes a single).
void take_pawn(DoubleDuel::State& s, int player, int field) {
  const Fields bit = field_bit(field);
  if (s.doubles[player] & bit) {
    s.doubles[player] ^= bit;
    s.singles[player] |= bit;
  } else {
    s.singles[player] ^= bit;
  }
}

// Puts one pawn on `field`, empty or holding one own pawn.
void put_pawn(DoubleDuel::State& s, int player, int field) {
  const Fields bit = field_bit(field);
  if (s.singles[player] & bit) {
    s.singles[player] ^= bit;
    s.doubles[player] |= bit;
  } else {
    s.singles[player] |= bit;
  }
}

}  // namespace

DoubleDuel::Params DoubleDuel::read_params(ParamReader& reader) {
  Params params;
  params.neighbor_attack = reader.get_bool(
      "neighbor_attack", false,
      "a knight that landed next to an enemy knight may step onto it and capture it in its "
      "player's next turn, if that knight did not move");
  params.switch_move = reader.get_bool(
      "switch_move", false,
      "a knight may leap onto a field of two own pawns instead of steps 1 and 2: one pawn "
      "goes to the field it left, the other to the reserve, and step 3 is skipped");
  params.single_pawn_blocks = reader.get_bool(
      "single_pawn_blocks", false, "a single enemy pawn also closes its field to knights");
  params.double_free_pawn_moves =
      reader.get_bool("double_free_pawn_moves", false,
                      "after step 3 the player may perform step 3 a second time, or stop");
  params.max_turns = reader.get_int("max_turns", 200, 1, 10000,
                                    "turns (all the decisions of one player) before a draw");
  return params;
}

void DoubleDuel::init(State& s, Rng&) const {
  s = State{};
  s.knights = {kWhiteKnights, flip_ranks(kWhiteKnights)};
  s.doubles = {kWhiteDoubles, flip_ranks(kWhiteDoubles)};
  s.attacker = {-1, -1};
  s.selected = -1;
  s.vacated = -1;
  s.winner = -1;
}

Fields DoubleDuel::knight_targets(const State& s, int player, int field) const {
  const int enemy = 1 - player;
  const Fields own = s.knights[player] | s.singles[player] | s.doubles[player];
  Fields closed = own | s.doubles[enemy];
  if (params_.single_pawn_blocks) closed |= s.singles[enemy];
  Fields targets = kLeapTargets[field] & ~closed;
  if (params_.switch_move) targets |= kLeapTargets[field] & s.doubles[player];
  // A right holds while its knight and the enemy knight stand where they stood: neither
  // side's other knight can have taken either field in the one turn between.
  if (params_.neighbor_attack && s.attacker[player] == field)
    targets |= s.attack_targets[player] & s.knights[enemy];
  return targets;
}

bool DoubleDuel::can_move_knight(const State& s, int player) const {
  for (Fields b = s.knights[player]; b; b &= b - 1)
    if (knight_targets(s, player, std::countr_zero(b))) return true;
  return false;
}

Fields DoubleDuel::free_targets(const State& s, int from) {
  return ((kAllFields & ~occupied(s)) | s.singles[s.to_move]) & ~field_bit(from);
}

Fields DoubleDuel::free_pawns(const State& s) {
  const int me = s.to_move;
  // One pawn on the vacated field is the step-2 pawn; a second one there may move.
  const Fields vacated = s.vacated >= 0 ? field_bit(s.vacated) : 0;
  Fields pawns = ((s.singles[me] | s.doubles[me]) & ~vacated) | (s.doubles[me] & vacated);
  // With an empty field or two own single pawns every pawn has a destination: test each
  // only otherwise.
  if (!(kAllFields & ~occupied(s)) && std::popcount(s.singles[me]) < 2)
    for (Fields b = pawns; b; b &= b - 1)
      if (!free_targets(s, std::countr_zero(b))) pawns &= ~(b & -b);
  return pawns;
}

Fields DoubleDuel::fill_sources(const State& s) {
  const int me = s.to_move;
  if (s.reserve[me]) return 0;  // the reserve, which is its own action
  return s.doubles[me] ? s.doubles[me] : s.singles[me];
}

uint64_t DoubleDuel::legal_set(const State& s) const {
  if (over(s.end)) return 0;
  const int me = s.to_move;
  switch (s.phase) {
    case kChooseKnight: {
      Fields knights = 0;
      for (Fields b = s.knights[me]; b; b &= b - 1)
        if (knight_targets(s, me, std::countr_zero(b))) knights |= b & -b;
      return to_frame(s, knights);
    }
    case kKnightTarget:
      return to_frame(s, knight_targets(s, me, s.selected));
    case kFillPawn:
      return s.reserve[me] ? uint64_t{1} << kReserve : to_frame(s, fill_sources(s));
    case kFreePawn:
      return to_frame(s, free_pawns(s));
    case kFreeTarget:
      return to_frame(s, free_targets(s, s.selected));
    case kSecondFreePawn:
      return to_frame(s, free_pawns(s)) | uint64_t{1} << kStop;
  }
  return 0;
}

void DoubleDuel::legal_mask(const State& s, uint8_t* mask) const {
  const uint64_t set = legal_set(s);
  write_mask(static_cast<Bits128>(set), kNumFields, mask);
  mask[kReserve] = (set >> kReserve) & 1;
  mask[kStop] = (set >> kStop) & 1;
}

void DoubleDuel::move_knight(State& s, int from, int to) const {
  const int me = s.to_move, enemy = 1 - me;
  const Fields to_bit = field_bit(to);
  s.knights[me] ^= field_bit(from) | to_bit;
  s.vacated = static_cast<int8_t>(from);
  if (s.doubles[me] & to_bit) {  // a switch: one pawn to `from`, one to the reserve
    s.doubles[me] ^= to_bit;
    s.singles[me] |= field_bit(from);
    ++s.reserve[me];
  } else {
    s.free_step = !(s.singles[enemy] & to_bit);  // no pawn captured
    s.reserve[enemy] = static_cast<uint8_t>(s.reserve[enemy] + ((s.singles[enemy] & to_bit) != 0));
    s.knights[enemy] &= ~to_bit;
    s.singles[enemy] &= ~to_bit;
  }
  // Rights against the enemy knights next to the landing field, for the mover's next turn.
  s.attack_targets[me] = params_.neighbor_attack ? kNeighbours[to] & s.knights[enemy] : 0;
  s.attacker[me] = s.attack_targets[me] ? static_cast<int8_t>(to) : -1;
}

void DoubleDuel::apply(State& s, Action action) const {
  check_apply(*this, s, action);
  const int me = s.to_move;
  const int field = action < kNumFields ? to_field(s, action) : -1;
  switch (s.phase) {
    case kChooseKnight:
      s.selected = static_cast<int8_t>(field);
      s.phase = kKnightTarget;
      return;
    case kKnightTarget: {
      const bool switched = (s.doubles[me] & field_bit(field)) != 0;
      move_knight(s, s.selected, field);
      s.selected = -1;
      if (switched) return settle(s);
      s.phase = kFillPawn;
      return;
    }
    case kFillPawn:
      if (action == kReserve)
        --s.reserve[me];
      else
        take_pawn(s, me, field);
      put_pawn(s, me, s.vacated);
      if (s.free_step && free_pawns(s)) {
        s.phase = kFreePawn;
        return;
      }
      return settle(s);
    case kFreePawn:
    case kSecondFreePawn:
      if (action == kStop) return settle(s);
      s.selected = static_cast<int8_t>(field);
      s.phase = kFreeTarget;
      return;
    case kFreeTarget:
      take_pawn(s, me, s.selected);
      put_pawn(s, me, field);
      s.selected = -1;
      ++s.free_moves;
      if (params_.double_free_pawn_moves && s.free_moves == 1 && free_pawns(s)) {
        s.phase = kSecondFreePawn;
        return;
      }
      return settle(s);
  }
}

// The next player loses at the start of its turn without a knight move; that natural end
// wins over the cap.
void DoubleDuel::settle(State& s) const {
  ++s.turns;
  s.to_move ^= 1;
  s.phase = kChooseKnight;
  s.selected = s.vacated = -1;
  s.free_step = s.free_moves = 0;
  if (!can_move_knight(s, s.to_move)) {
    s.end = End::kRules;
    s.winner = static_cast<int8_t>(1 - s.to_move);
  } else if (s.turns >= params_.max_turns) {
    s.end = End::kTruncated;
  }
}

void DoubleDuel::observe(const State& s, int player, float* out) const {
  constexpr int kArea = kNumFields;
  const int opponent = 1 - player;
  const auto plane = [&](int index, Fields fields) {
    write_plane(static_cast<Bits128>(player == 0 ? fields : flip_ranks(fields)), kArea,
                out + index * kArea);
  };
  const auto fill = [&](int index, float value) { std::fill_n(out + index * kArea, kArea, value); };
  const auto one = [](int field) { return field >= 0 ? field_bit(field) : Fields{0}; };

  plane(kPlaneOwnKnights, s.knights[player]);
  plane(kPlaneOwnSinglePawns, s.singles[player]);
  plane(kPlaneOwnDoublePawns, s.doubles[player]);
  plane(kPlaneOpponentKnights, s.knights[opponent]);
  plane(kPlaneOpponentSinglePawns, s.singles[opponent]);
  plane(kPlaneOpponentDoublePawns, s.doubles[opponent]);
  fill(kPlaneOwnReserve, static_cast<float>(s.reserve[player]) / kPawnsPerSide);
  fill(kPlaneOpponentReserve, static_cast<float>(s.reserve[opponent]) / kPawnsPerSide);
  for (int phase = 0; phase < kNumPhases; ++phase)
    fill(kPlanePhase + phase, !over(s.end) && s.phase == phase ? 1.0f : 0.0f);
  plane(kPlaneSelected, one(s.selected));
  plane(kPlaneVacated, one(s.vacated));
  fill(kPlaneFreeStepFollows, s.free_step ? 1.0f : 0.0f);
  fill(kPlaneFreeMovesMade, static_cast<float>(s.free_moves) / 2.0f);
  plane(kPlaneOwnAttackTargets, s.attack_targets[player]);
  plane(kPlaneOwnAttacker, one(s.attacker[player]));
  plane(kPlaneOpponentAttackTargets, s.attack_targets[opponent]);
  plane(kPlaneOpponentAttacker, one(s.attacker[opponent]));
  fill(kPlaneObserverToMove, !over(s.end) && s.to_move == player ? 1.0f : 0.0f);
  fill(kPlaneNeighborAttack, params_.neighbor_attack);
  fill(kPlaneSwitchMove, params_.switch_move);
  fill(kPlaneSinglePawnBlocks, params_.single_pawn_blocks);
  fill(kPlaneDoubleFreePawnMoves, params_.double_free_pawn_moves);
  fill(kPlaneProgress, static_cast<float>(s.turns) / static_cast<float>(params_.max_turns));
}

const char* DoubleDuel::broken_invariant(const State& s) const {
  for (int p = 0; p < 2; ++p) {
    if (std::popcount(s.knights[p]) > 2) return "more than two knights a side";
    if (pawns_on_board(s, p) + s.reserve[p] != kPawnsPerSide)
      return "pawns on the board and in reserve do not make 8";
  }
  if ((s.winner >= 0) != (s.end == End::kRules)) return "a winner without end=rules";
  if (s.turns > params_.max_turns || s.to_move > 1) return "turns or to_move out of range";
  return nullptr;
}

}  // namespace knightgym
