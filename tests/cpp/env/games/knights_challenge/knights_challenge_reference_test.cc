// Differential test of the Knights Challenge engine (env/games/knights_challenge) against
// an independent reference written here from the rules text (docs/rules/knights_challenge.md,
// the project's board design for the published rules, which give none).
//
// What is checked: for each mode (ffa4, ffa3, duel, alliance2, team4) and a few boards
// and options off the defaults, random games are played, choosing uniformly among the
// ENGINE's legal actions. Every chosen action is applied to the engine and, as its string
// ("b2-c4": from and to square, absolute), to the reference. At every decision:
//   - the engine's set of legal move strings equals the reference's set (no duplicates);
//   - the player to decide agrees, and so does the colour to move;
//   - the board, the ply count and each colour's captures in the engine's serialize()
//     text equal the reference's.
// When the engine says the game is over, the reference must say so too, with the same
// kind of end (by the rules, or truncated by max_turns), and the rule the engine names
// (State::end and State::reason) must hold in the reference's final position; the engine's tallies
// (per side) and returns must equal the ones the reference computes from its own tally and ranking.
// Every 16th game that ends by the rules is played again with max_turns equal to its length (the
// rules still end it: they win over the cap) and one less (truncated). Games per mode: 2 *
// KNIGHTGYM_CONFORMANCE_GAMES (default 1000), at least 10; the other boards and options
// KNIGHTGYM_CONFORMANCE_GAMES / 5, at least 10. On top of these, one game in 8 more is "eager": it
// still plays only the engine's legal moves and is checked the same way, but prefers moves into an
// opponent's camp, so that lines, camp bonuses and the end by all 8 knights stuck (rare in uniform
// play) come up too.
//
// Why the reference is independent: it includes nothing from env/games/knights_challenge/
// and shares no tables or helpers with the engine. It keeps the board as a plain N x N
// array of colours (or empty), builds the camps from the rules' definition (camp 0 is
// x 0..3, y 0..2, with width w = x and depth d = y; camp k is camp 0 turned k quarter-turns
// counter-clockwise, (x, y) -> (N-1-y, x)), finds every move with plain loops over the
// board and the 8 leaps, testing the rules one by one as the rules file states them, and
// tallies by trying every set of lines in a camp. It parses and names squares itself.
// Only the driver below uses the engine, through its public API.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "env/core/rng.h"
#include "env/games/knights_challenge/knights_challenge.h"
#include "tests/cpp/env/games/game_test_helpers.h"
#include "tests/cpp/env/registry/conformance_specs.h"

namespace knightgym {
namespace {

// ---------------------------------------------------------------------------------------
// The reference: the rules, written out plainly. Nothing here uses the engine.
// ---------------------------------------------------------------------------------------
namespace reference {

constexpr int kMaxSide = 16;
constexpr int kEmpty = -1;
constexpr int kColours = 4;
constexpr int kKnights = 8;
constexpr int kCampWide = 4;  // w = 0..3 across a camp
constexpr int kCampDeep = 3;  // d = 0..2, d = 0 at the board's edge
constexpr const char* kColourLetters = "rbyg";
constexpr const char* kColourNames[] = {"red", "blue", "yellow", "green"};

enum class Mode { kFfa4, kFfa3, kDuel, kAlliance2, kTeam4 };
constexpr const char* kModeNames[] = {"ffa4", "ffa3", "duel", "alliance2", "team4"};

// The ways a game ends, as bits of a set (more than one can hold at once).
enum End : unsigned {
  kAllStuck = 1,        // a colour has all 8 knights stuck in opponents' camps
  kTarget = 2,          // duel, ffa3: a player's camp knights and lines reach the target
  kAllianceInCamp = 4,  // alliance2: 8 knights in the other alliance's camps, 4 of each
  kTwoFinished = 8,     // two colours have each knight stuck or captured
  kNoMoves = 16,        // no colour has a legal move
  kTruncated = 32,      // max_turns moves were played
};

struct Options {
  Mode mode = Mode::kFfa4;
  int board_size = 12;
  std::string safe_squares = "default";  // "default", "none" or "[f5,g8]"
  bool central_first = true;
  bool mixed_lines = false;
  int target_points = 16;
  int max_turns = 1000;

  // The spec string that gives the engine the same game.
  std::string spec() const {
    std::string out = "knights_challenge(mode=";
    out += kModeNames[static_cast<int>(mode)];
    out += ",board_size=";
    out += std::to_string(board_size);
    out += ",safe_squares=";
    out += safe_squares;
    out += central_first ? ",central_first=true" : ",central_first=false";
    out += mixed_lines ? ",mixed_lines=true" : ",mixed_lines=false";
    out += ",target_points=";
    out += std::to_string(target_points);
    out += ",max_turns=";
    out += std::to_string(max_turns);
    out += ')';
    return out;
  }
};

// A square is a pair (x, y): x the file from the left, y the rank from the bottom; its
// code in move sets is x + 16 y, and a move's code from * 256 + to.
struct Square {
  int x = 0, y = 0;
};
int code_of(Square s) { return s.x + kMaxSide * s.y; }
Square square_of(int code) { return {code % kMaxSide, code / kMaxSide}; }
int move_code(Square from, Square to) { return code_of(from) * 256 + code_of(to); }

// "b2": file letter from the left, rank number from the bottom.
std::string square_name(Square s) {
  std::string name(1, static_cast<char>('a' + s.x));
  name += std::to_string(s.y + 1);
  return name;
}

// The square named `text` on an n x n board, or false.
bool parse_square(std::string_view text, int n, Square& out) {
  if (text.size() < 2 || text.size() > 3 || text[0] < 'a' || text[0] >= 'a' + n) return false;
  int rank = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    rank = rank * 10 + (text[i] - '0');
  }
  if (text[1] == '0' || rank < 1 || rank > n) return false;
  out = {text[0] - 'a', rank - 1};
  return true;
}

std::string move_name(int code) {
  std::string name = square_name(square_of(code / 256));
  name += '-';
  name += square_name(square_of(code % 256));
  return name;
}

// The move code of "from-to" on an n x n board, or -1.
int parse_move(std::string_view text, int n) {
  const size_t dash = text.find('-');
  Square from, to;
  if (dash == std::string_view::npos || !parse_square(text.substr(0, dash), n, from) ||
      !parse_square(text.substr(dash + 1), n, to))
    return -1;
  return move_code(from, to);
}

// A chess knight's leaps: two squares one way and one square across.
constexpr int kLeaps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                              {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

class Game {
 public:
  explicit Game(const Options& options) : options_(options), n_(options.board_size) {
    for (auto& column : camp_) column.fill(-1);
    for (auto& column : board_) column.fill(kEmpty);
    // Camp 0 is x 0..3, y 0..2 (w = x, d = y); camp k is camp 0 turned k quarter-turns
    // counter-clockwise about the centre, R(x, y) = (N-1-y, x), carrying w and d along.
    for (int k = 0; k < kColours; ++k)
      for (int w = 0; w < kCampWide; ++w)
        for (int d = 0; d < kCampDeep; ++d) {
          Square s = turned({w, d}, k);
          camp_[s.x][s.y] = k;
          width_[s.x][s.y] = w;
          depth_[s.x][s.y] = d;
        }
    // Safe squares: the rotation orbits of (N/2-1, 3) and (2, N/2-1), or those listed.
    if (options.safe_squares == "default") {
      for (int k = 0; k < kColours; ++k) {
        for (Square s : {Square{n_ / 2 - 1, 3}, Square{2, n_ / 2 - 1}}) {
          const Square t = turned(s, k);
          safe_[t.x][t.y] = true;
        }
      }
    } else if (options.safe_squares != "none") {
      std::string_view list = options.safe_squares;
      if (!list.empty() && list.front() == '[') list = list.substr(1, list.size() - 2);
      while (!list.empty()) {
        const size_t comma = std::min(list.find(','), list.size());
        Square s;
        REQUIRE(parse_square(list.substr(0, comma), n_, s));
        safe_[s.x][s.y] = true;
        list = list.substr(std::min(comma + 1, list.size()));
      }
    }
    // Colours in play and the player each belongs to.
    for (int c = 0; c < kColours; ++c) player_[c] = -1;
    switch (options.mode) {
      case Mode::kFfa4:
      case Mode::kTeam4:
        for (int c = 0; c < kColours; ++c) player_[c] = c;
        players_ = 4;
        break;
      case Mode::kFfa3:
        for (int c = 0; c < 3; ++c) player_[c] = c;
        players_ = 3;
        break;
      case Mode::kDuel:
        player_[0] = 0;
        player_[2] = 1;
        players_ = 2;
        break;
      case Mode::kAlliance2:
        player_[0] = player_[2] = 0;
        player_[1] = player_[3] = 1;
        players_ = 2;
        break;
    }
    // Each colour's 8 knights start on d = 0 and d = 1 of its camp.
    for (int c = 0; c < kColours; ++c) {
      if (!in_play(c)) continue;
      for (int w = 0; w < kCampWide; ++w)
        for (int d = 0; d < 2; ++d) {
          const Square s = turned({w, d}, c);
          board_[s.x][s.y] = c;
        }
    }
    // Colour 0 starts (it can always move from the start position), in turn order 0..3.
    to_move_ = 0;
    REQUIRE(!legal_moves(0).empty());
  }

  int size() const { return n_; }
  int players() const { return players_; }
  bool over() const { return over_; }
  bool truncated() const { return (ends_ & kTruncated) != 0; }
  // The ways the game ended that hold in the final position (bits of End).
  unsigned ends() const { return ends_; }
  int to_move() const { return to_move_; }
  int player_to_move() const { return player_[to_move_]; }
  int turns() const { return turns_; }
  int captures(int colour) const { return captures_[colour]; }
  int at(int x, int y) const { return board_[x][y]; }
  int passes() const { return passes_; }
  bool in_play(int colour) const { return player_[colour] >= 0; }

  // The legal moves of `colour`, as sorted move codes.
  std::vector<int> legal_moves(int colour) const {
    std::vector<int> moves;
    for (int x = 0; x < n_; ++x)
      for (int y = 0; y < n_; ++y) {
        if (board_[x][y] != colour) continue;
        for (const auto& leap : kLeaps) {
          const Square to{x + leap[0], y + leap[1]};
          if (allowed(colour, {x, y}, to)) moves.push_back(move_code({x, y}, to));
        }
      }
    std::sort(moves.begin(), moves.end());
    return moves;
  }

  // Plays the move named `text` for the colour to move; false (and nothing changes) if it
  // is not legal here.
  bool apply(std::string_view text) {
    if (over_) return false;
    const int code = parse_move(text, n_);
    const std::vector<int> moves = legal_moves(to_move_);
    if (code < 0 || !std::binary_search(moves.begin(), moves.end(), code)) return false;
    const int me = to_move_;
    const Square from = square_of(code / 256), to = square_of(code % 256);
    if (board_[to.x][to.y] != kEmpty) ++captures_[me];  // the capturer keeps the knight
    if (camp_[from.x][from.y] == me && camp_[to.x][to.y] != me) left_camp_[me] = true;
    board_[to.x][to.y] = me;
    board_[from.x][from.y] = kEmpty;
    ++turns_;

    // The end conditions, checked after every move.
    ends_ = rule_ends();
    if (ends_ != 0) {
      over_ = true;
      return true;
    }
    // The next colour in turn order with a legal move; the others pass. The mover comes
    // last: if nobody can move, the game ends.
    int next = -1;
    for (int step = 1; step <= kColours; ++step) {
      const int c = (me + step) % kColours;
      if (!in_play(c)) continue;
      if (!legal_moves(c).empty()) {
        next = c;
        break;
      }
      ++passes_;
    }
    if (next < 0) {
      ends_ = kNoMoves;
      over_ = true;
      return true;
    }
    to_move_ = next;
    if (turns_ >= options_.max_turns) {
      ends_ = kTruncated;
      over_ = true;
    }
    return true;
  }

  // The sides the tally ranks: a colour in ffa4, ffa3 and duel (in turn order), the
  // alliance in alliance2, the team in team4.
  int num_sides() const { return options_.mode == Mode::kTeam4 ? 2 : players_; }
  int side_of_player(int player) const {
    return options_.mode == Mode::kTeam4 ? player % 2 : player;
  }
  int side_of_colour(int colour) const { return side_of_player(player_[colour]); }

  // The final tally of a side: camp knights, lines, captures and camp bonuses.
  int tally(int side) const {
    int points = target_score(side);
    for (int c = 0; c < kColours; ++c)
      if (in_play(c) && side_of_colour(c) == side) points += captures_[c];
    points += camp_bonus(side);
    return points;
  }

  // What the duel and ffa3 target counts: 2 a knight stuck in an opponent's camp, and the
  // extra of the best set of disjoint lines.
  int target_score(int side) const {
    int points = 0;
    for (int c = 0; c < kColours; ++c)
      if (in_play(c) && side_of_colour(c) == side) points += 2 * stuck_count(c);
    // Lines are of one colour, except in alliance2 and in team4 with mixed_lines.
    const bool mixed = options_.mode == Mode::kAlliance2 ||
                       (options_.mode == Mode::kTeam4 && options_.mixed_lines);
    for (int camp = 0; camp < kColours; ++camp) {
      if (mixed) {
        std::vector<int> group;
        for (int c = 0; c < kColours; ++c)
          if (in_play(c) && side_of_colour(c) == side) group.push_back(c);
        points += best_line_extra(group, camp);
      } else {
        for (int c = 0; c < kColours; ++c)
          if (in_play(c) && side_of_colour(c) == side) points += best_line_extra({c}, camp);
      }
    }
    return points;
  }

  // Returns per player: for two sides +1 / -1 / 0, for ffa3 and ffa4 (players ranked
  // below - players ranked above) / (players - 1). In duel and ffa3 a side whose target
  // score reaches target_points ranks first; otherwise the higher tally ranks higher.
  std::vector<float> returns() const {
    std::vector<long> key(static_cast<size_t>(num_sides()));
    const bool targets = options_.mode == Mode::kDuel || options_.mode == Mode::kFfa3;
    for (int side = 0; side < num_sides(); ++side) {
      const bool reached = targets && target_score(side) >= options_.target_points;
      key[side] = (reached ? 1000000L : 0L) + tally(side);
    }
    std::vector<float> out(static_cast<size_t>(players_));
    for (int p = 0; p < players_; ++p) {
      const int mine = side_of_player(p);
      int below = 0, above = 0;
      for (int side = 0; side < num_sides(); ++side) {
        if (key[side] < key[mine]) ++below;
        if (key[side] > key[mine]) ++above;
      }
      out[p] = num_sides() == 2
                   ? static_cast<float>(below - above)
                   : static_cast<float>(below - above) / static_cast<float>(players_ - 1);
    }
    return out;
  }

  // Knights of `colour` stuck in opponents' camps.
  int stuck_count(int colour) const {
    int count = 0;
    for (int x = 0; x < n_; ++x)
      for (int y = 0; y < n_; ++y)
        if (board_[x][y] == colour && stuck({x, y})) ++count;
    return count;
  }

  int knights_on_board(int colour) const {
    int count = 0;
    for (int x = 0; x < n_; ++x)
      for (int y = 0; y < n_; ++y) count += board_[x][y] == colour;
    return count;
  }

  // The best extra for lines in `camp` of the knights of `group` stuck there: every set
  // of lines is tried, and a set counts only if its lines are full and share no knight.
  // A column (3 knights at one w) adds 6 (12 instead of 6), a row (4 at one d) adds 8.
  int best_line_extra(const std::vector<int>& group, int camp) const {
    bool full[kCampWide][kCampDeep] = {};
    int knights = 0;
    for (int x = 0; x < n_; ++x)
      for (int y = 0; y < n_; ++y)
        if (camp_[x][y] == camp && stuck({x, y}) &&
            std::find(group.begin(), group.end(), board_[x][y]) != group.end()) {
          full[width_[x][y]][depth_[x][y]] = true;
          ++knights;
        }
    if (knights < kCampDeep) return 0;  // no line has fewer than 3 knights
    // Lines 0..3: the columns w = 0..3; lines 4..6: the rows d = 0..2.
    int best = 0;
    for (int set = 0; set < 1 << 7; ++set) {
      bool used[kCampWide][kCampDeep] = {};
      bool fine = true;
      int extra = 0;
      for (int line = 0; line < 7 && fine; ++line) {
        if (!(set >> line & 1)) continue;
        for (int i = 0; i < (line < 4 ? kCampDeep : kCampWide); ++i) {
          const int w = line < 4 ? line : i, d = line < 4 ? i : line - 4;
          if (!full[w][d] || used[w][d]) fine = false;
          used[w][d] = true;
        }
        extra += line < 4 ? 6 : 8;
      }
      if (fine) best = std::max(best, extra);
    }
    return best;
  }

  // Whether square s lies in the camp of an opponent of `colour`: a camp whose colour is
  // in play and hostile (in ffa3 and duel the unused camps are ordinary ground).
  bool opponent_camp(int colour, Square s) const {
    const int camp = camp_[s.x][s.y];
    return camp >= 0 && opponents(colour, camp);
  }

  std::string describe() const {
    std::ostringstream out;
    out << "reference: turn " << turns_ << ", "
        << (over_ ? std::string("over") : std::string(kColourNames[to_move_]) + " to move")
        << ", ends " << ends_ << ", captures";
    for (int c = 0; c < kColours; ++c) out << ' ' << captures_[c];
    out << ", left camp";
    for (int c = 0; c < kColours; ++c) out << ' ' << left_camp_[c];
    out << ", tallies";
    for (int side = 0; side < num_sides(); ++side) out << ' ' << tally(side);
    out << "\n";
    // Capitals: stuck knights; ':' camp squares, '*' safe squares.
    for (int y = n_ - 1; y >= 0; --y) {
      out << (y < 9 ? "  " : " ") << y + 1;
      for (int x = 0; x < n_; ++x) {
        char cell = camp_[x][y] >= 0 ? ':' : safe_[x][y] ? '*' : '.';
        if (board_[x][y] != kEmpty) {
          cell = kColourLetters[board_[x][y]];
          if (stuck({x, y})) cell = static_cast<char>(cell - 'a' + 'A');
        }
        out << ' ' << cell;
      }
      out << "\n";
    }
    out << "   ";
    for (int x = 0; x < n_; ++x) out << ' ' << static_cast<char>('a' + x);
    out << "\n";
    return out.str();
  }

 private:
  Square turned(Square s, int turns) const {
    for (int i = 0; i < turns; ++i) s = {n_ - 1 - s.y, s.x};
    return s;
  }

  bool on_board(Square s) const { return s.x >= 0 && s.x < n_ && s.y >= 0 && s.y < n_; }

  bool team_mode() const {
    return options_.mode == Mode::kAlliance2 || options_.mode == Mode::kTeam4;
  }
  // Partners in the team modes: colours 0 and 2, colours 1 and 3.
  bool allies(int a, int b) const { return team_mode() && a != b && a % 2 == b % 2; }
  // Opponents: two different colours in play that are not partners.
  bool opponents(int a, int b) const { return a != b && in_play(a) && in_play(b) && !allies(a, b); }

  // A knight in an opponent's camp landed there, and is stuck for the rest of the game.
  bool stuck(Square s) const {
    const int owner = board_[s.x][s.y];
    return owner != kEmpty && opponent_camp(owner, s);
  }

  // A knight cannot be captured in its own camp, on a safe square, or stuck.
  bool capturable(Square s) const {
    const int owner = board_[s.x][s.y];
    return owner != kEmpty && camp_[s.x][s.y] != owner && !safe_[s.x][s.y] && !stuck(s);
  }

  bool central(Square s) const {
    return depth_[s.x][s.y] == 1 && (width_[s.x][s.y] == 1 || width_[s.x][s.y] == 2);
  }

  // Whether the knight of `colour` on `from` may leap to `to`, by the rules' list.
  bool allowed(int colour, Square from, Square to) const {
    if (!on_board(to)) return false;
    // Stuck knights never move.
    if (stuck(from)) return false;
    const int target = board_[to.x][to.y];
    // Not onto an own knight, a partner's, or one that cannot be captured.
    if (target == colour || (target != kEmpty && allies(colour, target))) return false;
    if (target != kEmpty && !capturable(to)) return false;
    const bool from_home = camp_[from.x][from.y] == colour;
    const bool to_home = camp_[to.x][to.y] == colour;
    // A knight that has left its camp never returns: a knight outside its camp has left it
    // (it started there and cannot come back), so it may not move into it.
    if (to_home && !from_home) return false;
    // Inside its own camp a knight only moves forwards: strictly deeper.
    if (from_home && to_home && depth_[to.x][to.y] <= depth_[from.x][from.y]) return false;
    // central_first: until the colour has moved a knight out of its camp, a move leaving
    // the camp starts on a central square.
    if (options_.central_first && !left_camp_[colour] && from_home && !to_home && !central(from))
      return false;
    // Team modes: a partner's camp is closed.
    const int camp = camp_[to.x][to.y];
    if (camp >= 0 && in_play(camp) && allies(colour, camp)) return false;
    return true;
  }

  // The end conditions by the rules that hold now (bits of End, without kNoMoves and
  // kTruncated).
  unsigned rule_ends() const {
    unsigned ends = 0;
    int finished = 0;
    int stuck[kColours] = {};
    for (int c = 0; c < kColours; ++c) {
      if (!in_play(c)) continue;
      stuck[c] = stuck_count(c);
      if (stuck[c] == kKnights) ends |= kAllStuck;
      // Finished: each knight is stuck or captured, that is no knight is free.
      if (stuck[c] == knights_on_board(c)) ++finished;
    }
    if (finished >= 2) ends |= kTwoFinished;
    if (options_.mode == Mode::kDuel || options_.mode == Mode::kFfa3)
      for (int side = 0; side < num_sides(); ++side)
        if (target_score(side) >= options_.target_points) ends |= kTarget;
    if (options_.mode == Mode::kAlliance2)
      for (int a = 0; a < 2; ++a)  // the alliances {0, 2} and {1, 3}
        if (stuck[a] + stuck[a + 2] >= kKnights && stuck[a] >= 4 && stuck[a + 2] >= 4)
          ends |= kAllianceInCamp;
    return ends;
  }

  // Camp bonuses. ffa4: at least 1 knight in each of the 3 opponents' camps +6, at least 2
  // in each +12. team4: at least 2 knights of each team colour in each of the other team's
  // camps +6, at least 3 of each +12. No bonus in the other modes.
  int camp_bonus(int side) const {
    if (options_.mode != Mode::kFfa4 && options_.mode != Mode::kTeam4) return 0;
    int fewest = kKnights;  // the fewest knights of one of the side's colours in one camp
    for (int c = 0; c < kColours; ++c) {
      if (side_of_colour(c) != side) continue;
      for (int camp = 0; camp < kColours; ++camp) {
        if (!opponents(c, camp)) continue;
        int count = 0;
        for (int x = 0; x < n_; ++x)
          for (int y = 0; y < n_; ++y) count += camp_[x][y] == camp && board_[x][y] == c;
        fewest = std::min(fewest, count);
      }
    }
    if (options_.mode == Mode::kFfa4) return fewest >= 2 ? 12 : fewest >= 1 ? 6 : 0;
    return fewest >= 3 ? 12 : fewest >= 2 ? 6 : 0;
  }

  Options options_;
  int n_;
  std::array<std::array<int, kMaxSide>, kMaxSide> board_;    // [x][y]: colour or kEmpty
  std::array<std::array<int, kMaxSide>, kMaxSide> camp_;     // [x][y]: camp 0..3 or -1
  std::array<std::array<int, kMaxSide>, kMaxSide> width_{};  // w in that camp
  std::array<std::array<int, kMaxSide>, kMaxSide> depth_{};  // d in that camp
  std::array<std::array<bool, kMaxSide>, kMaxSide> safe_{};
  int player_[kColours] = {};
  int players_ = 0;
  bool left_camp_[kColours] = {};  // the colour has moved a knight out of its camp
  int captures_[kColours] = {};
  int to_move_ = 0;
  int turns_ = 0;
  int passes_ = 0;
  bool over_ = false;
  unsigned ends_ = 0;
};

}  // namespace reference

// ---------------------------------------------------------------------------------------
// The driver: plays the engine and the reference side by side.
// ---------------------------------------------------------------------------------------

using Reason = KnightsChallenge::Reason;

// The engine's end as one index: the Reason (0 while running), or kTruncatedEnd.
constexpr int kTruncatedEnd = 6;
int end_index(const KnightsChallenge::State& s) {
  return s.end == End::kTruncated ? kTruncatedEnd : static_cast<int>(s.reason);
}

std::string joined(const std::vector<int>& moves) {
  std::string out;
  for (int code : moves) {
    if (!out.empty()) out += ' ';
    out += reference::move_name(code);
  }
  return out.empty() ? std::string("(none)") : out;
}

// What serialize() shows: "board=ROWS to_move=C turns=N captures=A,B,C,D", ROWS from the
// top rank down, '/' between ranks, '.' empty, r b y g the colours' knights.
struct Shown {
  bool parsed = false;
  std::vector<int> cells;  // [x + n * y]: colour or -1
  int to_move = -1;
  int turns = -1;
  int captures[4] = {-1, -1, -1, -1};
};

Shown parse_serialized(const std::string& text, int n) {
  Shown shown;
  std::istringstream in(text);
  std::string board, to_move, turns, captures;
  if (!(in >> board >> to_move >> turns >> captures)) return shown;
  if (board.rfind("board=", 0) != 0 || to_move.rfind("to_move=", 0) != 0 ||
      turns.rfind("turns=", 0) != 0 || captures.rfind("captures=", 0) != 0)
    return shown;
  const std::string rows = board.substr(6);
  if (static_cast<int>(rows.size()) != n * (n + 1) - 1) return shown;
  shown.cells.assign(static_cast<size_t>(n * n), -1);
  for (int r = 0; r < n; ++r) {
    for (int x = 0; x < n; ++x) {
      const char c = rows[static_cast<size_t>(r * (n + 1) + x)];
      const char* letter = c == '.' ? nullptr : std::strchr(reference::kColourLetters, c);
      if (c != '.' && (letter == nullptr || c == '\0')) return shown;
      shown.cells[static_cast<size_t>(x + n * (n - 1 - r))] =
          c == '.' ? -1 : static_cast<int>(letter - reference::kColourLetters);
    }
    if (r + 1 < n && rows[static_cast<size_t>(r * (n + 1) + n)] != '/') return shown;
  }
  if (to_move.size() != 9) return shown;
  const char* letter = std::strchr(reference::kColourLetters, to_move[8]);
  if (letter == nullptr || to_move[8] == '\0') return shown;
  shown.to_move = static_cast<int>(letter - reference::kColourLetters);
  shown.turns = std::stoi(turns.substr(6));
  std::istringstream list(captures.substr(9));
  for (int c = 0; c < 4; ++c) {
    std::string item;
    if (!std::getline(list, item, ',') || item.empty()) return shown;
    shown.captures[c] = std::stoi(item);
  }
  shown.parsed = true;
  return shown;
}

// Whether the engine's serialized position equals the reference's.
bool same_position(const Shown& shown, const reference::Game& ref) {
  if (!shown.parsed || shown.turns != ref.turns()) return false;
  const int n = ref.size();
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y)
      if (shown.cells[static_cast<size_t>(x + n * y)] != ref.at(x, y)) return false;
  for (int c = 0; c < 4; ++c)
    if (shown.captures[c] != ref.captures(c)) return false;
  return true;
}

// The reference's name for the rule the engine says ended the game.
unsigned end_of(const KnightsChallenge::State& s) {
  if (s.end == End::kTruncated) return reference::kTruncated;
  switch (s.reason) {
    case Reason::kAllStuck:
      return reference::kAllStuck;
    case Reason::kTargetPoints:
      return reference::kTarget;
    case Reason::kAllianceInCamp:
      return reference::kAllianceInCamp;
    case Reason::kTwoFinished:
      return reference::kTwoFinished;
    case Reason::kNoMoves:
      return reference::kNoMoves;
    case Reason::kNone:
      break;
  }
  return 0;
}

KnightsChallenge make_engine(const reference::Options& options) {
  return testing::game_from_spec<KnightsChallenge>(options.spec());
}

// Empty if the engine's players, sides and tallies (valid in any position) agree with the
// reference's; else both, side by side.
std::string tally_mismatch(const KnightsChallenge& game, const KnightsChallenge::State& s,
                           const reference::Game& ref) {
  const int players = game.info().num_players;
  int tallies[4] = {};
  game.tallies(s, tallies);
  bool agree = players == ref.players() && game.num_sides() == ref.num_sides();
  for (int p = 0; agree && p < players; ++p)
    agree = game.side_of_player(p) == ref.side_of_player(p) &&
            tallies[game.side_of_player(p)] == ref.tally(ref.side_of_player(p));
  if (agree) return {};
  std::ostringstream both;
  both << "engine: " << players << " players, " << game.num_sides() << " sides (of the players:";
  for (int p = 0; p < players; ++p) both << ' ' << game.side_of_player(p);
  both << "), tallies";
  for (int side = 0; side < game.num_sides(); ++side) both << ' ' << tallies[side];
  both << "\nreference: " << ref.players() << " players, " << ref.num_sides()
       << " sides (of the players:";
  for (int p = 0; p < ref.players(); ++p) both << ' ' << ref.side_of_player(p);
  both << "), tallies";
  for (int side = 0; side < ref.num_sides(); ++side) both << ' ' << ref.tally(side);
  return both.str();
}

// Counts of what the games exercised, so that a mode cannot pass vacuously.
struct Coverage {
  long games = 0, decisions = 0, passes = 0, captures = 0, replays = 0;
  long ends[7] = {};        // games by the engine's outcome
  long lines = 0;           // games whose final tally has a line
  long bonuses = 0;         // games whose final tally has a camp bonus (ffa4, team4)
  long target_reached = 0;  // duel, ffa3: games a player won by reaching the target

  std::string summary() const {
    std::ostringstream out;
    out << games << " games (" << replays << " replays), " << decisions << " decisions, " << passes
        << " passes, " << captures << " captures, " << lines << " games with a line, " << bonuses
        << " with a camp bonus, " << target_reached << " reaching the target; ends: all stuck "
        << ends[1] << ", target " << ends[2] << ", alliance in camp " << ends[3]
        << ", two finished " << ends[4] << ", no moves " << ends[5] << ", truncated " << ends[6];
    return out.str();
  }
};

// Plays one game on the engine and the reference; returns its length in turns and sets
// `natural` to whether the rules ended it (rather than max_turns). An eager game picks,
// 7 times in 8, a move into an opponent's camp when there is one, so that stuck knights,
// lines and the end by all 8 knights stuck come up more often.
int play_game(const reference::Options& options, const KnightsChallenge& game, uint64_t seed,
              bool eager, const std::string& label, Coverage& seen, bool& natural) {
  Rng rng(seed);
  KnightsChallenge::State s;
  game.init(s, rng);
  reference::Game ref(options);
  const int n = options.board_size;
  Action actions[KnightsChallenge::kMaxActions];
  std::string names[KnightsChallenge::kMaxActions];
  std::vector<int> engine_moves;
  ++seen.games;
  for (int decision = 0;; ++decision) {
    const std::string serialized = game.serialize(s);
    // The full context is built only when something disagrees.
    const auto context = [&] {
      return label + ", decision " + std::to_string(decision) + "\nengine: " + serialized + "\n" +
             game.render(s) + "\n" + ref.describe();
    };
    if (game.terminal(s)) {
      const unsigned end = end_of(s);
      const Shown shown = parse_serialized(serialized, n);
      if (!ref.over() || ref.truncated() != game.truncated(s) || !(ref.ends() & end) ||
          !same_position(shown, ref)) {
        INFO(context());
        INFO("engine outcome " << end_index(s) << ", reference ends " << ref.ends()
                               << " (bits: 1 all stuck, 2 target, 4 alliance "
                               << "in camp, 8 two finished, 16 no moves, 32 truncated)");
        REQUIRE(ref.over());
        REQUIRE(ref.truncated() == game.truncated(s));
        REQUIRE((ref.ends() & end) != 0);
        REQUIRE(same_position(shown, ref));
      }
      // Tallies per side and returns per player.
      const std::string tallies = tally_mismatch(game, s, ref);
      float returns[4] = {};
      game.returns(s, returns);
      const std::vector<float> expected = ref.returns();
      bool agree = tallies.empty();
      for (int p = 0; agree && p < ref.players(); ++p)
        agree = std::fabs(returns[p] - expected[static_cast<size_t>(p)]) < 1e-6f;
      if (!agree) {
        INFO(context());
        std::ostringstream both;
        both << "engine returns:   ";
        for (int p = 0; p < ref.players(); ++p) both << ' ' << returns[p];
        both << "\nreference returns:";
        for (float r : expected) both << ' ' << r;
        INFO(both.str());
        INFO(tallies);
        FAIL("the engine's tallies or returns differ from the reference's");
      }
      ++seen.ends[end_index(s)];
      bool line = false, bonus = false, target = false;
      for (int side = 0; side < ref.num_sides(); ++side) {
        int stuck = 0;
        for (int c = 0; c < 4; ++c)
          if (ref.in_play(c) && ref.side_of_colour(c) == side) stuck += 2 * ref.stuck_count(c);
        const int score = ref.target_score(side);
        line = line || score > stuck;
        int captured = 0;
        for (int c = 0; c < 4; ++c)
          if (ref.in_play(c) && ref.side_of_colour(c) == side) captured += ref.captures(c);
        bonus = bonus || ref.tally(side) > score + captured;
        target =
            target ||
            ((options.mode == reference::Mode::kDuel || options.mode == reference::Mode::kFfa3) &&
             score >= options.target_points);
      }
      seen.lines += line;
      seen.bonuses += bonus;
      seen.target_reached += target;
      seen.passes += ref.passes();
      natural = !ref.truncated();
      return ref.turns();
    }

    ++seen.decisions;
    const int count = game.legal_actions(s, actions);
    engine_moves.clear();
    bool parsed = true;
    for (int i = 0; i < count; ++i) {
      names[i] = game.action_to_string(s, actions[i]);
      const int code = reference::parse_move(names[i], n);
      if (code < 0) parsed = false;
      engine_moves.push_back(code);
    }
    std::sort(engine_moves.begin(), engine_moves.end());
    const std::vector<int> ref_moves =
        ref.over() ? std::vector<int>{} : ref.legal_moves(ref.to_move());
    const Shown shown = parse_serialized(serialized, n);
    if (!parsed || count == 0 || engine_moves != ref_moves || ref.over() ||
        game.current_player(s) != ref.player_to_move() || shown.to_move != ref.to_move() ||
        !same_position(shown, ref)) {
      INFO(context());
      std::vector<int> only_engine, only_reference;
      std::set_difference(engine_moves.begin(), engine_moves.end(), ref_moves.begin(),
                          ref_moves.end(), std::back_inserter(only_engine));
      std::set_difference(ref_moves.begin(), ref_moves.end(), engine_moves.begin(),
                          engine_moves.end(), std::back_inserter(only_reference));
      std::string engine_names;
      for (int i = 0; i < count; ++i) {
        if (i) engine_names += ' ';
        engine_names += names[i];
      }
      INFO("engine moves:         " << (count ? engine_names : std::string("(none)")));
      INFO("reference moves:      " << joined(ref_moves));
      INFO("only the engine's:    " << joined(only_engine));
      INFO("only the reference's: " << joined(only_reference));
      REQUIRE(parsed);
      REQUIRE(count > 0);
      REQUIRE_FALSE(ref.over());
      REQUIRE(game.current_player(s) == ref.player_to_move());
      REQUIRE(shown.to_move == ref.to_move());
      REQUIRE(same_position(shown, ref));
      REQUIRE(joined(engine_moves) == joined(ref_moves));
    }

    // The tallies, valid in any position, now and then during the game too.
    if (decision % 32 == 31) {
      const std::string tallies = tally_mismatch(game, s, ref);
      if (!tallies.empty()) {
        INFO(context());
        INFO(tallies);
        FAIL("the engine's tallies differ from the reference's");
      }
    }

    int k = static_cast<int>(rng.below(static_cast<uint32_t>(count)));
    if (eager && rng.below(8) != 0) {
      std::vector<int> into_camp;
      for (int i = 0; i < count; ++i)
        if (ref.opponent_camp(ref.to_move(),
                              reference::square_of(reference::parse_move(names[i], n) % 256)))
          into_camp.push_back(i);
      if (!into_camp.empty()) k = into_camp[rng.below(static_cast<uint32_t>(into_camp.size()))];
    }
    const reference::Square to = reference::square_of(reference::parse_move(names[k], n) % 256);
    seen.captures += ref.at(to.x, to.y) != reference::kEmpty;
    game.apply(s, actions[k]);
    if (!ref.apply(names[k])) {
      INFO(context());
      FAIL("the reference refuses " << names[k]);
    }
  }
}

// Plays `games` uniformly random games and games / 8 eager ones (at least one) of the
// variant; every 16th game that the rules ended is played again with the cap on its last
// move (the rules still end it) and on the move before (truncated).
void check_variant(const reference::Options& base, int games, uint64_t seed) {
  const std::string name = base.spec();
  const KnightsChallenge game = make_engine(base);
  Coverage seen;
  const int eager_games = std::max(1, games / 8);
  for (int g = 0; g < games + eager_games; ++g) {
    const bool eager = g >= games;
    const uint64_t game_seed = derive_seed(seed, static_cast<uint64_t>(g));
    const std::string label = name + (eager ? ", eager game " : ", game ") + std::to_string(g);
    bool natural = false;
    const int length = play_game(base, game, game_seed, eager, label, seen, natural);
    if (g % 16 == 0 && natural && length >= 2) {
      for (int cap : {length, length - 1}) {
        reference::Options capped = base;
        capped.max_turns = cap;
        bool again = false;
        ++seen.replays;
        const int replayed =
            play_game(capped, make_engine(capped), game_seed, eager,
                      label + " again with max_turns=" + std::to_string(cap), seen, again);
        INFO(label << " again with max_turns=" << cap << " (" << length
                   << " turns without the cap)");
        REQUIRE(replayed == cap);
        REQUIRE(again == (cap == length));
      }
    }
  }
  INFO(name << ": " << seen.summary());
  REQUIRE(seen.decisions > 0);
  // With enough games each rule of the mode must have come up (the sanitizer run plays
  // fewer).
  if (games >= 1000) {
    CHECK(seen.captures > 0);
    CHECK(seen.passes > 0);
    CHECK(seen.lines > 0);
    CHECK(seen.ends[static_cast<int>(Reason::kTwoFinished)] > 0);
    CHECK(seen.ends[kTruncatedEnd] > 0);
    // In duel the target (16) is reached before the 8th knight is stuck but in rare games.
    if (base.mode != reference::Mode::kDuel)
      CHECK(seen.ends[static_cast<int>(Reason::kAllStuck)] > 0);
    const reference::Mode mode = base.mode;
    CHECK((seen.bonuses > 0) ==
          (mode == reference::Mode::kFfa4 || mode == reference::Mode::kTeam4));
    const bool targets = mode == reference::Mode::kDuel || mode == reference::Mode::kFfa3;
    CHECK((seen.ends[static_cast<int>(Reason::kTargetPoints)] > 0) == targets);
    CHECK((seen.ends[static_cast<int>(Reason::kAllianceInCamp)] > 0) ==
          (mode == reference::Mode::kAlliance2));
  }
}

int mode_games() { return std::max(10, 2 * testing::conformance_games()); }
int variant_games() { return std::max(10, testing::conformance_games() / 5); }

reference::Options with_mode(reference::Mode mode) {
  reference::Options options;
  options.mode = mode;
  return options;
}

TEST_CASE("knights_challenge reference: ffa4 legal moves, board, end and returns",
          "[knights_challenge][reference]") {
  check_variant(with_mode(reference::Mode::kFfa4), mode_games(), 0xc4a11e00);
}

TEST_CASE("knights_challenge reference: ffa3 legal moves, board, end and returns",
          "[knights_challenge][reference]") {
  check_variant(with_mode(reference::Mode::kFfa3), mode_games(), 0xc4a11e01);
}

TEST_CASE("knights_challenge reference: duel legal moves, board, end and returns",
          "[knights_challenge][reference]") {
  check_variant(with_mode(reference::Mode::kDuel), mode_games(), 0xc4a11e02);
}

TEST_CASE("knights_challenge reference: alliance2 legal moves, board, end and returns",
          "[knights_challenge][reference]") {
  check_variant(with_mode(reference::Mode::kAlliance2), mode_games(), 0xc4a11e03);
}

TEST_CASE("knights_challenge reference: team4 legal moves, board, end and returns",
          "[knights_challenge][reference]") {
  check_variant(with_mode(reference::Mode::kTeam4), mode_games(), 0xc4a11e04);
}

// Other boards and options, with fewer games.
reference::Options variant(reference::Mode mode, int board_size, const char* safe_squares,
                           bool central_first, bool mixed_lines, int target_points) {
  reference::Options options = with_mode(mode);
  options.board_size = board_size;
  options.safe_squares = safe_squares;
  options.central_first = central_first;
  options.mixed_lines = mixed_lines;
  options.target_points = target_points;
  return options;
}

TEST_CASE("knights_challenge reference: ffa4 on 10x10 without central_first",
          "[knights_challenge][reference]") {
  check_variant(variant(reference::Mode::kFfa4, 10, "default", false, false, 16), variant_games(),
                0xc4a11e10);
}

TEST_CASE("knights_challenge reference: ffa4 on 16x16 without safe squares",
          "[knights_challenge][reference]") {
  check_variant(variant(reference::Mode::kFfa4, 16, "none", true, false, 16), variant_games(),
                0xc4a11e11);
}

TEST_CASE("knights_challenge reference: team4 with mixed lines", "[knights_challenge][reference]") {
  check_variant(variant(reference::Mode::kTeam4, 12, "default", true, true, 16), variant_games(),
                0xc4a11e12);
}

TEST_CASE("knights_challenge reference: duel with two safe squares and target 8",
          "[knights_challenge][reference]") {
  check_variant(variant(reference::Mode::kDuel, 12, "[f5,g8]", true, false, 8), variant_games(),
                0xc4a11e13);
}

TEST_CASE("knights_challenge reference: alliance2 on 13x13 without central_first",
          "[knights_challenge][reference]") {
  check_variant(variant(reference::Mode::kAlliance2, 13, "default", false, false, 16),
                variant_games(), 0xc4a11e14);
}

TEST_CASE("knights_challenge reference: ffa3 on 11x11 with target 24",
          "[knights_challenge][reference]") {
  check_variant(variant(reference::Mode::kFfa3, 11, "default", true, false, 24), variant_games(),
                0xc4a11e15);
}

// The known perft counts of the start with four players and with three.
TEST_CASE("knights_challenge perft: the known counts of the start, the reference's",
          "[knights_challenge][reference][perft]") {
  const auto legal = [](const reference::Game& g) {
    return g.over() ? std::vector<int>{} : g.legal_moves(g.to_move());
  };
  const auto play = [](reference::Game& g, int move) {
    REQUIRE(g.apply(reference::move_name(move)));
  };
  reference::Options options;
  testing::check_known_perft<KnightsChallenge>(options.spec(), reference::Game(options),
                                               {16, 256, 4096, 65536}, legal, play);
  options.mode = reference::Mode::kFfa3;
  testing::check_known_perft<KnightsChallenge>(options.spec(), reference::Game(options),
                                               {16, 256, 4096, 69888}, legal, play);
}

}  // namespace
}  // namespace knightgym
