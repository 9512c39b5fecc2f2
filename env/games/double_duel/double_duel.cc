#include "env/games/double_duel/double_duel.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "env/core/bits.h"
#include "env/core/key_values.h"
#include "util/text.h"

namespace knightgym {
namespace {

using double_duel::field_bit;
using double_duel::flip_ranks;
using double_duel::kAllFields;
using double_duel::kGrid;
using double_duel::kLeapTargets;
using double_duel::kNeighbours;
using double_duel::kSize;
using Fields = double_duel::Fields;

constexpr const char* kPlayerNames[2] = {"White", "Black"};
constexpr const char* kPhaseNames[DoubleDuel::kNumPhases] = {
    "knight", "knight_target", "fill", "free_pawn", "free_target", "second_free_pawn"};

// The home rank of White: a 2 pawns, b knight, c and d 2 pawns, e knight, f 2 pawns.
constexpr Fields kWhiteDoubles = field_bit(0) | field_bit(2) | field_bit(3) | field_bit(5);
constexpr Fields kWhiteKnights = field_bit(1) | field_bit(4);

int pawns_on_board(const DoubleDuel::State& s, int player) {
  return std::popcount(s.singles[player]) + 2 * std::popcount(s.doubles[player]);
}

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

std::string DoubleDuel::action_to_string(const State& s, Action action) const {
  if (action == kReserve) return "reserve";
  if (action == kStop) return "stop";
  if (action < 0 || action > kStop) return "invalid(" + std::to_string(action) + ")";
  return kGrid.name(to_field(s, action));
}

Action DoubleDuel::string_to_action(const State& s, std::string_view text) const {
  if (text == "reserve") return kReserve;
  if (text == "stop") return kStop;
  if (const auto field = kGrid.parse(text))
    return to_field(s, *field);  // flipping is its own inverse
  throw std::invalid_argument("double_duel: '" + excerpt(text) +
                              "' is not an action: expected a field a1..f6, 'reserve' or 'stop'");
}

namespace {

// One character per field: '.' empty, N/n knight, P/p one pawn, D/d two pawns
// (upper case White).
char field_char(const DoubleDuel::State& s, int field) {
  const Fields bit = field_bit(field);
  for (int p = 0; p < 2; ++p) {
    const char c = s.knights[p] & bit   ? 'N'
                   : s.singles[p] & bit ? 'P'
                   : s.doubles[p] & bit ? 'D'
                                        : 0;
    if (c) return p == 0 ? c : static_cast<char>(c - 'A' + 'a');
  }
  return '.';
}

std::string fields_text(Fields fields) {
  if (!fields) return "-";
  std::string out;
  for (Fields b = fields; b; b &= b - 1) out += kGrid.name(std::countr_zero(b));
  return out;
}

}  // namespace

std::string DoubleDuel::render(const State& s) const {
  std::string out = "Knights Double-Duel, turn " + std::to_string(s.turns) + " of " +
                    std::to_string(params_.max_turns) + ", reserves White " +
                    std::to_string(s.reserve[0]) + " Black " + std::to_string(s.reserve[1]) + ": ";
  if (over(s.end))
    out += s.winner >= 0 ? std::string(kPlayerNames[s.winner]) + " wins" : "draw (truncated)";
  else
    out += std::string(kPlayerNames[s.to_move]) + " decides " + kPhaseNames[s.phase];
  out += "\n";
  for (int rank = kSize - 1; rank >= 0; --rank) {
    out += static_cast<char>('1' + rank);
    for (int file = 0; file < kSize; ++file) {
      out += ' ';
      out += field_char(s, kGrid.square(file, rank));
    }
    out += "\n";
  }
  out += "  a b c d e f\n";
  return out;
}

// Text form: space-separated key=value fields, e.g.
// "board=DNDDND...dnddnd reserve=0,0 rights=-,- turns=0 to_move=0 phase=knight selected=-
//  vacated=- free_step=0 free_moves=0 winner=- end=running", where board lists
// the fields a1, b1, ..., f6 as render() draws them and rights are ATTACKER:TARGETS.
std::string DoubleDuel::serialize(const State& s) const {
  std::string board;
  for (int field = 0; field < kNumFields; ++field) board += field_char(s, field);
  const auto field_or_dash = [](int field) { return field >= 0 ? kGrid.name(field) : "-"; };
  const auto rights = [&](int p) {
    return s.attacker[p] < 0 ? std::string("-")
                             : kGrid.name(s.attacker[p]) + ":" + fields_text(s.attack_targets[p]);
  };
  return "board=" + board + " reserve=" + std::to_string(s.reserve[0]) + "," +
         std::to_string(s.reserve[1]) + " rights=" + rights(0) + "," + rights(1) +
         " turns=" + std::to_string(s.turns) + " to_move=" + std::to_string(s.to_move) +
         " phase=" + kPhaseNames[s.phase] + " selected=" + field_or_dash(s.selected) +
         " vacated=" + field_or_dash(s.vacated) + " free_step=" + std::to_string(s.free_step) +
         " free_moves=" + std::to_string(s.free_moves) +
         " winner=" + (s.winner >= 0 ? std::to_string(s.winner) : "-") +
         " end=" + std::string(end_name(s.end));
}

DoubleDuel::State DoubleDuel::deserialize(std::string_view text) const {
  const KeyValues fields(text, "double_duel: cannot read state: ",
                         {"board", "reserve", "rights", "turns", "to_move", "phase", "selected",
                          "vacated", "free_step", "free_moves", "winner", "end"});
  const auto fail = [&](const std::string& why) { fields.fail(why); };
  const auto square_or_dash = [&](std::string_view key, std::string_view value) {
    if (value == "-") return -1;
    const auto parsed = kGrid.parse(value);
    if (!parsed) fail(std::string(key) + " '" + std::string(value) + "' is not a field or '-'");
    return *parsed;
  };
  State s{};
  const std::string_view board = fields.get("board");
  if (board.size() != kNumFields) fail("board must have 36 characters, one per field");
  for (int f = 0; f < kNumFields; ++f) {
    const char c = board[f];
    const int p = c >= 'a' ? 1 : 0;
    const Fields bit = field_bit(f);
    switch (c) {
      case '.':
        break;
      case 'N':
      case 'n':
        s.knights[p] |= bit;
        break;
      case 'P':
      case 'p':
        s.singles[p] |= bit;
        break;
      case 'D':
      case 'd':
        s.doubles[p] |= bit;
        break;
      default:
        fail(std::string("board character '") + c + "' is not one of . N n P p D d");
    }
  }
  const auto reserves = fields.pair("reserve");
  for (int p = 0; p < 2; ++p) {
    s.reserve[p] = static_cast<uint8_t>(fields.integer("reserve", reserves[p], 0, kPawnsPerSide));
    if (std::popcount(s.knights[p]) > 2)
      fail(std::string(kPlayerNames[p]) + " has more than two knights");
    if (pawns_on_board(s, p) + s.reserve[p] != kPawnsPerSide)
      fail(std::string(kPlayerNames[p]) + " has " + std::to_string(pawns_on_board(s, p)) +
           " pawns on the board and " + std::to_string(s.reserve[p]) +
           " in reserve; they must make 8");
  }
  const auto rights = fields.pair("rights");
  for (int p = 0; p < 2; ++p) {
    s.attacker[p] = -1;
    if (rights[p] == "-") continue;
    const size_t colon = rights[p].find(':');
    if (colon == std::string_view::npos) fail("rights must be '-' or ATTACKER:TARGETS");
    s.attacker[p] = static_cast<int8_t>(square_or_dash("rights", rights[p].substr(0, colon)));
    const std::string_view targets = rights[p].substr(colon + 1);
    if (targets.size() % 2) fail("rights targets '" + std::string(targets) + "' are not fields");
    for (size_t i = 0; i < targets.size(); i += 2)
      s.attack_targets[p] |= field_bit(square_or_dash("rights", targets.substr(i, 2)));
    if (s.attacker[p] < 0 || !s.attack_targets[p])
      fail("rights '" + std::string(rights[p]) + "' need an attacker and a target");
  }
  s.turns = static_cast<int16_t>(fields.integer("turns", 0, params_.max_turns));
  s.to_move = static_cast<uint8_t>(fields.integer("to_move", 0, 1));
  const std::string_view phase = fields.get("phase");
  const auto* found = std::find(std::begin(kPhaseNames), std::end(kPhaseNames), phase);
  if (found == std::end(kPhaseNames)) fail("phase '" + std::string(phase) + "' is unknown");
  s.phase = static_cast<uint8_t>(found - std::begin(kPhaseNames));
  s.selected = static_cast<int8_t>(square_or_dash("selected", fields.get("selected")));
  s.vacated = static_cast<int8_t>(square_or_dash("vacated", fields.get("vacated")));
  s.free_step = static_cast<uint8_t>(fields.integer("free_step", 0, 1));
  s.free_moves = static_cast<uint8_t>(fields.integer("free_moves", 0, 2));
  const std::string_view winner = fields.get("winner");
  s.winner = static_cast<int8_t>(winner == "-" ? -1 : fields.integer("winner", winner, 0, 1));
  s.end = fields.end();
  if ((s.winner >= 0) != (s.end == End::kRules)) fail("a winner goes with end=rules only");
  const bool needs_selected = s.phase == kKnightTarget || s.phase == kFreeTarget;
  if ((s.selected >= 0) != needs_selected)
    fail("selected names a field exactly in phases knight_target and free_target");
  if (s.phase == kKnightTarget && !(s.knights[s.to_move] & field_bit(s.selected)))
    fail("the selected field holds no knight of the mover");
  if (s.phase == kFreeTarget && !(free_pawns(s) & field_bit(s.selected)))
    fail("the selected field holds no pawn of the mover that may move");
  if (s.phase >= kFillPawn && s.vacated < 0) fail("after step 1 the vacated field must be set");
  return s;
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
