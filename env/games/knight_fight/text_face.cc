// Knight Fight's text face (env/core/game.h): squares and pass as actions, the board as
// text, and the state's key=value form, read back with every field checked.
#include "env/games/knight_fight/knight_fight.h"

#include <string>
#include <string_view>

#include "env/core/key_values.h"
#include "util/text.h"

namespace knightgym {
namespace {

using knight_fight::kGrid;
using knight_fight::kNumSquares;
using knight_fight::kSize;

constexpr const char* kPlayerNames[2] = {"White", "Black"};

std::string two_digits(int number) { return {char('0' + number / 10), char('0' + number % 10)}; }

}  // namespace

// Strings name the real square; actions are in the mover's frame.
std::string KnightFight::action_to_string(const State& s, Action action) const {
  return action == kPass ? "pass" : kGrid.name(to_square(s, action));
}

Action KnightFight::string_to_action(const State& s, std::string_view text) const {
  if (text == "pass") return kPass;
  if (const auto square = kGrid.parse(text)) return to_square(s, *square);
  throw std::invalid_argument("knight_fight: '" + excerpt(text) +
                              "' is not an action: expected a square a1..j10 or 'pass'");
}

std::string KnightFight::render(const State& s) const {
  std::string out = "Knight Fight, turn " + std::to_string(s.turns) + " of " +
                    std::to_string(params_.max_turns) + ": White " + std::to_string(s.score[0]) +
                    ", Black " + std::to_string(s.score[1]) + ", ";
  if (over(s.end)) {
    const int diff = s.score[0] - s.score[1];
    out += std::string(diff > 0   ? "White wins"
                       : diff < 0 ? "Black wins"
                                  : "draw") +
           (truncated(s) ? " (truncated)" : "");
  } else {
    out += std::string(kPlayerNames[s.to_move]) + " to " +
           (s.pending_erase           ? "erase a double"
            : s.knight[s.to_move] < 0 ? "place"
                                      : "leap");
  }
  out += "\n";
  for (int rank = kSize - 1; rank >= 0; --rank) {
    char label[8];
    std::snprintf(label, sizeof label, "%3d ", rank + 1);
    out += label;
    for (int file = 0; file < kSize; ++file) {
      const int square = kGrid.square(file, rank);
      const int number = s.number[square];
      const char cell[4] = {' ', test128(s.usable, square) ? char('0' + number / 10) : ' ',
                            square == s.knight[0]       ? 'W'
                            : square == s.knight[1]     ? 'B'
                            : test128(s.usable, square) ? char('0' + number % 10)
                                                        : '.',
                            '\0'};
      out += cell;
    }
    out += "\n";
  }
  out += "     a  b  c  d  e  f  g  h  i  j\n";
  return out;
}

// Text form: space-separated key=value fields, e.g.
// "layout=<200 digits> usable=<100 of 0/1> knights=c1,- scores=57,0 turns=1 to_move=1
//  pending_erase=0 end=running".
std::string KnightFight::serialize(const State& s) const {
  std::string layout, usable;
  for (int square = 0; square < kNumSquares; ++square) {
    layout += two_digits(s.number[square]);
    usable += test128(s.usable, square) ? '1' : '0';
  }
  const auto knight = [&](int p) { return s.knight[p] < 0 ? "-" : kGrid.name(s.knight[p]); };
  return "layout=" + layout + " usable=" + usable + " knights=" + knight(0) + "," + knight(1) +
         " scores=" + std::to_string(s.score[0]) + "," + std::to_string(s.score[1]) +
         " turns=" + std::to_string(s.turns) + " to_move=" + std::to_string(s.to_move) +
         " pending_erase=" + std::to_string(s.pending_erase) +
         " end=" + std::string(end_name(s.end));
}

KnightFight::State KnightFight::deserialize(std::string_view text) const {
  const KeyValues fields(
      text, "knight_fight: cannot read state: ",
      {"layout", "usable", "knights", "scores", "turns", "to_move", "pending_erase", "end"});
  const auto fail = [&](const std::string& why) { fields.fail(why); };

  State s{};
  if (const std::string why = parse_layout(fields.get("layout"), s.number); !why.empty())
    fail("layout: " + why);
  index_layout(s);
  const std::string_view usable = fields.get("usable");
  if (usable.size() != kNumSquares || usable.find_first_not_of("01") != std::string_view::npos)
    fail("usable must be 100 characters 0 or 1");
  for (int square = 0; square < kNumSquares; ++square)
    if (usable[square] == '1') s.usable |= bit128(square);
  const auto [white, black] = fields.pair("knights");
  for (int p = 0; p < 2; ++p) {
    const std::string_view name = p == 0 ? white : black;
    if (name == "-") {
      s.knight[p] = -1;
      continue;
    }
    const auto square = kGrid.parse(name);
    if (!square) fail("knight '" + std::string(name) + "' is not a square or '-'");
    if (test128(s.usable, *square)) fail("a knight stands on usable square " + std::string(name));
    s.knight[p] = static_cast<int8_t>(*square);
  }
  if (s.knight[0] >= 0 && s.knight[0] == s.knight[1]) fail("both knights on one square");
  const auto [white_score, black_score] = fields.pair("scores");
  s.score[0] = static_cast<int16_t>(fields.integer("scores", white_score, 0, 4950));
  s.score[1] = static_cast<int16_t>(fields.integer("scores", black_score, 0, 4950));
  s.turns = static_cast<int16_t>(fields.integer("turns", 0, params_.max_turns));
  s.to_move = static_cast<uint8_t>(fields.integer("to_move", 0, 1));
  s.pending_erase = static_cast<uint8_t>(fields.integer("pending_erase", 0, 1));
  s.end = fields.end();
  if (s.pending_erase && (over(s.end) || s.knight[s.to_move] < 0))
    fail("pending_erase=1 needs a game in progress and the mover's knight on the board");
  return s;
}

}  // namespace knightgym
