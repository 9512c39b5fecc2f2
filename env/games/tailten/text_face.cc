// Tailten's text face (env/core/game.h): hill names as actions, the board as text, and
// the state's key=value form, read back with every field checked.
#include "env/games/tailten/tailten.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "env/core/key_values.h"
#include "util/text.h"

namespace knightgym {
namespace {

using namespace tailten;
using Phase = Tailten::Phase;

constexpr char kPlayerLetters[2] = {'r', 'b'};
constexpr const char* kPlayerNames[2] = {"Red", "Blue"};
// The phase field of the text form: a running game's phase, else how it ended.
constexpr const char* kPhaseNames[] = {"opening", "battle", "last_turn"};
constexpr const char* kOverName = "over";
constexpr const char* kTruncatedName = "truncated";

}  // namespace

std::string Tailten::action_to_string(const State&, Action action) const {
  return kGrid.name(kSquareOfHill[action]);
}

Action Tailten::string_to_action(const State& s, std::string_view text) const {
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("tailten: move '" + excerpt(text) + "' " + why);
  };
  if (terminal(s)) fail("cannot be played: the game is over");
  const std::optional<int> square = kGrid.parse(text);
  if (!square || kHillOfSquare[*square] < 0)
    fail("is not a hill (a1, g1, a7 and g7 are corners, not hills)");
  if (!(s.legal & square_bit(*square)))
    fail(std::string("is not a legal turn of ") + kPlayerNames[s.to_move] + " here");
  return kHillOfSquare[*square];
}

std::string Tailten::render(const State& s) const {
  std::string out;
  for (int rank = kSize - 1; rank >= 0; --rank) {
    out += static_cast<char>('1' + rank);
    for (int file = 0; file < kSize; ++file) {
      const int square = kGrid.square(file, rank);
      out += ' ';
      out += kHillOfSquare[square] < 0         ? ' '
             : s.forts[0] & square_bit(square) ? 'R'
             : s.forts[1] & square_bit(square) ? 'B'
                                               : '.';
    }
    out += '\n';
  }
  out += "  a b c d e f g\n";
  const Score score = this->score(s);
  out += "kingdoms " + std::to_string(score.kingdoms[0]) + "-" + std::to_string(score.kingdoms[1]) +
         ", territory " + std::to_string(score.territory[0]) + "-" +
         std::to_string(score.territory[1]) + "; ";
  if (terminal(s)) {
    out += "over after " + std::to_string(s.turns) + " turns";
    if (truncated(s)) out += " (truncated)";
    out += score.winner < 0 ? std::string(": a draw")
                            : std::string(": ") + kPlayerNames[score.winner] + " wins " +
                                  std::to_string(score.match_points[score.winner]) + " points";
  } else {
    out += std::string(kPhaseNames[static_cast<int>(s.phase)]) + ", " + kPlayerNames[s.to_move] +
           " to move" + (s.capturing ? ", must capture" : "");
  }
  return out;
}

// "board=ROWS to_move=P phase=NAME turns=N": ROWS rank 7 first, '/' between ranks, '-'
// for a corner, '.' for a vacant hill, r and b for the players' ringforts.
std::string Tailten::serialize(const State& s) const {
  std::string out = "board=";
  for (int rank = kSize - 1; rank >= 0; --rank) {
    for (int file = 0; file < kSize; ++file) {
      const int square = kGrid.square(file, rank);
      out += kHillOfSquare[square] < 0         ? '-'
             : s.forts[0] & square_bit(square) ? 'r'
             : s.forts[1] & square_bit(square) ? 'b'
                                               : '.';
    }
    if (rank) out += '/';
  }
  out += " to_move=";
  out += kPlayerLetters[s.to_move];
  out += " phase=";
  out += truncated(s)  ? kTruncatedName
         : over(s.end) ? kOverName
                       : kPhaseNames[static_cast<int>(s.phase)];
  out += " turns=" + std::to_string(s.turns);
  return out;
}

Tailten::State Tailten::deserialize(std::string_view text) const {
  const KeyValues fields(text,
                         "tailten: cannot read state: ", {"board", "to_move", "phase", "turns"});
  State s{};
  const std::string_view board = fields.get("board");
  if (board.size() != kSize * (kSize + 1) - 1)
    fields.fail("board must be 7 ranks of 7 squares separated by '/'");
  for (int row = 0; row < kSize; ++row) {
    const int rank = kSize - 1 - row;
    if (row && board[static_cast<size_t>(row * (kSize + 1) - 1)] != '/')
      fields.fail("board must be 7 ranks of 7 squares separated by '/'");
    for (int file = 0; file < kSize; ++file) {
      const int square = kGrid.square(file, rank);
      const char c = board[static_cast<size_t>(row * (kSize + 1) + file)];
      const bool hill = kHillOfSquare[square] >= 0;
      const std::string where = kGrid.name(square);
      if (!hill && c != '-') fields.fail("the corner " + where + " must be '-'");
      if (hill && c == '-') fields.fail("the hill " + where + " must be '.', 'r' or 'b'");
      if (c == 'r' || c == 'b')
        s.forts[c == 'b'] |= square_bit(square);
      else if (hill && c != '.')
        fields.fail(std::string("unknown mark '") + c + "' on " + where);
    }
  }
  for (int p = 0; p < 2; ++p)
    if (std::popcount(s.forts[p]) > params_.ringforts)
      fields.fail(std::string(kPlayerNames[p]) + " has more ringforts than its supply of " +
                  std::to_string(params_.ringforts));
  const std::string_view mover = fields.get("to_move");
  if (mover != "r" && mover != "b") fields.fail("to_move must be r or b");
  s.to_move = mover == "b";
  s.turns = static_cast<int16_t>(fields.integer("turns", 0, params_.max_turns));
  const std::string_view phase = fields.get("phase");
  const auto* found = std::find(std::begin(kPhaseNames), std::end(kPhaseNames), phase);
  s.end = phase == kTruncatedName ? End::kTruncated
          : phase == kOverName    ? End::kRules
                                  : End::kRunning;
  if (found == std::end(kPhaseNames) && !over(s.end))
    fields.fail("unknown phase '" + std::string(phase) + "'");
  s.phase = over(s.end) ? Phase::kBattle : Phase(found - std::begin(kPhaseNames));
  if (truncated(s) && s.turns < params_.max_turns)
    fields.fail("phase truncated needs turns = max_turns (" + std::to_string(params_.max_turns) +
                ")");
  if (!over(s.end) && s.turns >= params_.max_turns)
    fields.fail("turns reached max_turns: the game would be over");
  bool capturing = false;
  if (s.phase == Phase::kOpening) {
    s.legal = opening_builds(s, s.to_move);
    if (!s.legal) fields.fail("the mover has no opening build: the phase would be battle");
  } else if (!over(s.end)) {
    s.legal = battle_turns(s, s.to_move, &capturing);
    if (!s.legal) fields.fail("the mover has no legal turn");
  }
  s.capturing = capturing;
  return s;
}

}  // namespace knightgym
