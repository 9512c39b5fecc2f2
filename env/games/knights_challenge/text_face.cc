// Knights Challenge's text face (env/core/game.h): moves as actions, the board as text,
// and the state's key=value form, read back with every field checked.
#include "env/games/knights_challenge/knights_challenge.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>

#include "env/core/key_values.h"
#include "util/text.h"

namespace knightgym {
namespace {

using namespace knights_challenge;

constexpr char kColourLetters[kNumColours + 1] = "rbyg";
constexpr const char* kColourNames[kNumColours] = {"red", "blue", "yellow", "green"};
constexpr const char* kReasonNames[] = {"",
                                        "all 8 knights of a colour stuck",
                                        "target points reached",
                                        "alliance in the other alliance's camps",
                                        "two colours finished",
                                        "no colour can move"};

}  // namespace

std::string KnightsChallenge::action_to_string(const State& s, Action action) const {
  const int colour = s.to_move;
  const int from = from_frame(colour, action / kNumLeaps);
  const int to = geometry_.leap(from, (action + 2 * colour) & 7);
  return geometry_.grid().name(from) + "-" +
         (to == kNoSquare ? std::string("off") : geometry_.grid().name(to));
}

Action KnightsChallenge::string_to_action(const State& s, std::string_view text) const {
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("knights_challenge: move '" + excerpt(text) + "' " + why);
  };
  if (terminal(s)) fail("cannot be played: the game is over");
  const size_t dash = text.find('-');
  if (dash == std::string_view::npos) fail("is not of the form from-to, e.g. b2-c4");
  const std::optional<int> from = geometry_.grid().parse(text.substr(0, dash));
  const std::optional<int> to = geometry_.grid().parse(text.substr(dash + 1));
  if (!from || !to) fail("names a square that is not on the board");
  int found = -1;
  for_each_move(s, s.to_move, [&](int f, int leap, int t) {
    if (f == *from && t == *to) found = to_action(s.to_move, f, leap);
    return found >= 0;
  });
  if (found < 0) fail(std::string("is not a legal move of ") + kColourNames[s.to_move] + " here");
  return found;
}

std::string KnightsChallenge::render(const State& s) const {
  const int n = params_.board_size;
  std::string out;
  for (int y = n - 1; y >= 0; --y) {
    if (y < 9) out += ' ';
    out += std::to_string(y + 1);
    for (int x = 0; x < n; ++x) {
      const int sq = geometry_.grid().square(x, y), occupant = s.board[sq];
      const int camp = geometry_.camp(sq);
      char cell = camp != kNoCamp && in_play(camp) ? ':' : safe_[sq] ? '*' : '.';
      if (occupant) {
        const int owner = (occupant - 1) / kKnights;
        cell = kColourLetters[owner];
        if (region_[owner][sq] == kHostileCamp) cell = static_cast<char>(cell - 'a' + 'A');
      }
      out += ' ';
      out += cell;
    }
    out += '\n';
  }
  out += "  ";
  for (int x = 0; x < n; ++x) {
    out += ' ';
    out += static_cast<char>('a' + x);
  }
  out += "\n";
  std::array<int, kNumColours> tally{};
  tallies(s, tally.data());
  out += "tallies";
  for (int side = 0; side < num_sides_; ++side) {
    out += ' ';
    out += std::to_string(tally[side]);
  }
  if (terminal(s))
    out += std::string("; over after ") + std::to_string(s.turns) + " turns: " +
           (truncated(s) ? "truncated at max_turns" : kReasonNames[static_cast<int>(s.reason)]);
  else
    out += std::string("; turn ") + std::to_string(s.turns) + ": " + kColourNames[s.to_move] +
           " to move";
  return out;
}

// "board=ROWS to_move=C turns=N captures=A,B,C,D": ROWS from the top rank down, '/'
// between ranks, '.' for an empty square and r b y g for the colours' knights.
std::string KnightsChallenge::serialize(const State& s) const {
  const int n = params_.board_size;
  std::string out = "board=";
  for (int y = n - 1; y >= 0; --y) {
    for (int x = 0; x < n; ++x) {
      const int occupant = s.board[geometry_.grid().square(x, y)];
      out += occupant ? kColourLetters[(occupant - 1) / kKnights] : '.';
    }
    if (y) out += '/';
  }
  out += std::string(" to_move=") + kColourLetters[s.to_move] +
         " turns=" + std::to_string(s.turns) + " captures=";
  for (int c = 0; c < kNumColours; ++c) {
    if (c) out += ',';
    out += std::to_string(s.captures[c]);
  }
  return out;
}

KnightsChallenge::State KnightsChallenge::deserialize(std::string_view text) const {
  const KeyValues fields(
      text, "knights_challenge: cannot read state: ", {"board", "to_move", "turns", "captures"});
  const int n = params_.board_size;
  State s{};
  for (auto& row : s.knights) row.fill(kCaptured);
  const std::vector<std::string_view> ranks = split(fields.get("board"), '/');
  if (static_cast<int>(ranks.size()) != n)
    fields.fail("board has " + std::to_string(ranks.size()) + " ranks, not " + std::to_string(n));
  std::array<int, kNumColours> on_board{};
  for (int row = 0; row < n; ++row) {
    const std::string_view rank = ranks[static_cast<size_t>(row)];
    const int y = n - 1 - row;
    if (static_cast<int>(rank.size()) != n)
      fields.fail("rank " + std::to_string(y + 1) + " has " + std::to_string(rank.size()) +
                  " squares, not " + std::to_string(n));
    for (int x = 0; x < n; ++x) {
      const int sq = geometry_.grid().square(x, y);
      if (rank[static_cast<size_t>(x)] == '.') continue;
      const char* letter = std::strchr(kColourLetters, rank[static_cast<size_t>(x)]);
      if (!letter || !*letter)
        fields.fail(std::string("unknown piece '") + rank[static_cast<size_t>(x)] + "' on " +
                    geometry_.grid().name(sq));
      const int c = static_cast<int>(letter - kColourLetters);
      if (!in_play(c)) fields.fail(std::string(kColourNames[c]) + " is not in play in this mode");
      if (on_board[c] == kKnights)
        fields.fail(std::string(kColourNames[c]) + " has more than 8 knights");
      if (region_[c][sq] == kClosedCamp)
        fields.fail(std::string(kColourNames[c]) + " knight on " + geometry_.grid().name(sq) +
                    ", in its partner's camp");
      s.knights[c][on_board[c]] = static_cast<int16_t>(sq);
      s.board[sq] = static_cast<uint8_t>(1 + c * kKnights + on_board[c]++);
      if (region_[c][sq] == kHostileCamp) {
        ++s.stuck[c];
        s.camp_cells[c][geometry_.camp(sq)] |= static_cast<uint16_t>(1 << geometry_.cell(sq));
      }
      if (region_[c][sq] != kOwnCamp) s.left_camp |= static_cast<uint8_t>(1 << c);
    }
  }
  const std::vector<std::string_view> captures = split(fields.get("captures"), ',');
  if (captures.size() != kNumColours) fields.fail("captures needs 4 numbers, as 0,0,0,0");
  int captured = 0, lost = 0;
  for (int c = 0; c < kNumColours; ++c) {
    s.captures[c] =
        static_cast<uint8_t>(fields.integer("captures", captures[static_cast<size_t>(c)], 0, 24));
    if (!in_play(c) && s.captures[c])
      fields.fail(std::string(kColourNames[c]) + " is not in play but has captures");
    captured += s.captures[c];
    if (in_play(c)) {
      s.lost[c] = static_cast<uint8_t>(kKnights - on_board[c]);
      if (s.lost[c]) s.left_camp |= static_cast<uint8_t>(1 << c);
      lost += s.lost[c];
    }
  }
  if (captured != lost)
    fields.fail("captures add up to " + std::to_string(captured) + " but " + std::to_string(lost) +
                " knights are missing from the board");
  const std::string_view mover = fields.get("to_move");
  const char* letter = mover.size() == 1 ? std::strchr(kColourLetters, mover[0]) : nullptr;
  if (!letter || !*letter || !in_play(static_cast<int>(letter - kColourLetters)))
    fields.fail("to_move '" + std::string(mover) + "' is not a colour in play");
  s.to_move = static_cast<uint8_t>(letter - kColourLetters);
  s.turns = fields.integer("turns", 0, params_.max_turns);
  settle(s, s.to_move);
  if (!terminal(s) && s.to_move != letter - kColourLetters)
    fields.fail(std::string(kColourNames[letter - kColourLetters]) + " has no legal move");
  return s;
}

}  // namespace knightgym
