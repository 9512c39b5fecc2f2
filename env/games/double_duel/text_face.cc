// Knights Double-Duel's text face (env/core/game.h): fields, reserve and stop as actions,
// the board as text, and the state's key=value form, read back with every field checked.
#include "env/games/double_duel/double_duel.h"

#include <bit>
#include <string>
#include <string_view>

#include "env/core/key_values.h"
#include "util/text.h"

namespace knightgym {
namespace {

using double_duel::field_bit;
using double_duel::kGrid;
using double_duel::kSize;
using Fields = double_duel::Fields;

constexpr const char* kPlayerNames[2] = {"White", "Black"};
constexpr const char* kPhaseNames[DoubleDuel::kNumPhases] = {
    "knight", "knight_target", "fill", "free_pawn", "free_target", "second_free_pawn"};

}  // namespace

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

}  // namespace knightgym
