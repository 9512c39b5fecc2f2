// Knights Challenge: eight knights per colour leave their corner camp and try to get
// stuck in the opponents' camps, in lines where they can; for 2, 3 and 4 players, an
// alliance game (two players, two colours each) and a team game. The board is this
// project's design (the published rules give none). Rules and encodings:
// docs/rules/knights_challenge.md.
//
// Parameters:
//   mode           ffa4 (default), ffa3, duel, alliance2, team4
//   board_size     10..16 (default 12)
//   safe_squares   default (two rotation orbits), none, or a list: [f4,i6,g9,d7]
//   central_first  a colour's first knight to leave its camp starts on a central square
//   mixed_lines    team4: lines may mix the two colours of a team
//   target_points  duel and ffa3: camp knights and lines that end the game (default 16)
//   max_turns      turns (one move each) before truncation (default 1000)
//
// Colours 0..3 (red, blue, yellow, green) move in that order, skipping colours not in
// play and colours with no legal move. Actions (board_size^2 x 8): from * 8 + leap, in
// the mover's frame (the board turned so that the mover's camp is camp 0; kLeaps order).
// Observation: kNumPlanes planes of board_size^2 in the same frame (Plane below).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "env/core/check.h"
#include "env/core/extras.h"
#include "env/core/game.h"
#include "env/core/training_defaults.h"
#include "env/games/knights_challenge/geometry.h"

namespace knightgym {

struct Picture;

class KnightsChallenge : public EndOfGame<KnightsChallenge> {
 public:
  using Geometry = knights_challenge::Geometry;

  static constexpr std::string_view kName = "knights_challenge";
  static constexpr std::string_view kSummary =
      "eight knights a colour race into the opponents' camps (2, 3, 4 players, teams)";
  static constexpr int kNumColours = knights_challenge::kNumColours;
  static constexpr int kKnights = knights_challenge::kKnightsPerColour;
  // A colour moves one of its knights by one of eight leaps.
  static constexpr int kMaxActions = kKnights * knights_challenge::kNumLeaps;

  enum class Mode : uint8_t { kFfa4, kFfa3, kDuel, kAlliance2, kTeam4 };

  struct Params {
    Mode mode = Mode::kFfa4;
    int board_size = 12;
    std::optional<std::vector<int>> safe_squares;  // absolute squares; nullopt: the default
    bool central_first = true;
    bool mixed_lines = false;
    int target_points = 16;
    int max_turns = 1000;
  };

  // Which rule ended the game (end == End::kRules); kNone otherwise.
  enum class Reason : uint8_t {
    kNone,
    kAllStuck,        // a colour has all 8 knights stuck in opponents' camps
    kTargetPoints,    // duel, ffa3: a player reached target_points
    kAllianceInCamp,  // alliance2: 8 knights in the other alliance's camps, 4 of each colour
    kTwoFinished,     // two colours have no free knight left (each stuck or captured)
    kNoMoves,         // no colour can move
  };

  // Observation planes, each board_size^2 in the frame of the observer's colour; "colour
  // r" is the colour r places after the observer's in turn order (r = 0: the observer's).
  enum Plane : int {
    kPlaneFreeKnights = 0,   // 4 planes: knights of colour r that may still move
    kPlaneStuckKnights = 4,  // 4 planes: knights of colour r stuck in an opponent's camp
    kPlaneCamps = 8,         // 4 planes: the camp of colour r, if it is in play
    kPlaneSafeSquares = 12,
    kPlaneLeftCamp = 13,        // 4 constant planes: colour r has moved a knight out of its camp
    kPlaneCaptures = 17,        // 4 constant planes: knights colour r captured / 8
    kPlaneObserverToMove = 21,  // all ones if the observer's colour moves now
    kPlaneProgress = 22,        // turns / max_turns
    // The rules, constant planes, so that one network can play several rule sets: the
    // mode one-hot (5 planes, Mode's order), then central_first.
    kPlaneMode = 23,
    kPlaneCentralFirst = 28,
    kNumPlanes = 29
  };

  struct State {
    // 0 for an empty square, else 1 + colour * 8 + the knight's index.
    std::array<uint8_t, knights_challenge::kMaxSquares> board;
    std::array<std::array<int16_t, kKnights>, kNumColours> knights;  // square, or kCaptured
    // [colour][camp]: cells of `camp` holding a knight of `colour` stuck there.
    std::array<std::array<uint16_t, kNumColours>, kNumColours> camp_cells;
    std::array<uint8_t, kNumColours> captures;  // enemy knights each colour captured
    std::array<uint8_t, kNumColours> lost;      // knights each colour lost
    std::array<uint8_t, kNumColours> stuck;     // knights each colour has stuck
    uint8_t left_camp;                          // bit c: colour c has left its camp
    uint8_t to_move;                            // the colour to move (while not over)
    End end;
    Reason reason;
    int32_t turns;
  };
  static constexpr int16_t kCaptured = -1;

  static Params read_params(ParamReader& reader);

  KnightsChallenge() : KnightsChallenge(Params{}) {}
  explicit KnightsChallenge(const Params& params);
  const Params& params() const { return params_; }
  const Geometry& geometry() const { return geometry_; }

  GameInfo info() const {
    const int squares = geometry_.grid().size();
    // The capture planes count knights / 8, and a colour may capture the other three's.
    constexpr float kMostCaptures = kNumColours - 1;
    return {.num_players = num_players_,
            .num_actions = squares * knights_challenge::kNumLeaps,
            .observation_shape = {kNumPlanes, params_.board_size, params_.board_size},
            .max_game_length = params_.max_turns,
            .observation_high = kMostCaptures};
  }

  void init(State& s, Rng& rng) const;

  // The player of the colour to move, while the game runs (EndOfGame).
  int mover(const State& s) const { return player_of_colour_[s.to_move]; }

  int legal_actions(const State& s, Action* out) const;
  void legal_mask(const State& s, uint8_t* mask) const;
  void apply(State& s, Action action) const;
  // A broken invariant of `s` (debug checks, env/core/check.h), nullptr if none.
  const char* broken_invariant(const State& s) const;
  void returns(const State& s, float* out) const;
  void observe(const State& s, int player, float* out) const;

  std::string action_to_string(const State& s, Action action) const;
  Action string_to_action(const State& s, std::string_view text) const;
  std::string render(const State& s) const;
  std::string serialize(const State& s) const;
  State deserialize(std::string_view text) const;
  // The picture of a state (env/core/picture.h).
  void draw(const State& s, Picture& out) const;

  // Sides are what the tally ranks: each colour in ffa4, ffa3 and duel; the two
  // alliances (colours 0, 2 and 1, 3) in alliance2; the two teams in team4.
  int num_sides() const { return num_sides_; }
  int side_of_player(int player) const { return side_of_player_[player]; }
  // The final tally of each side (camp knights, lines, captures, camp bonuses), valid in
  // any position; out has num_sides() entries.
  void tallies(const State& s, int* out) const;
  // The tallies and sides as extras (env/core/extras.h, extras.cc).
  static std::span<const StateExtra<KnightsChallenge>> extras();

  // The greedy agent's view (env/core/heuristic.h): the own side's tally minus the best
  // other side's.
  float heuristic(const State& s, int player) const {
    int tally[kNumColours];
    tallies(s, tally);
    const int own = side_of_player(player);
    int best_other = -1000;
    for (int side = 0; side < num_sides_; ++side)
      if (side != own) best_other = std::max(best_other, tally[side]);
    return static_cast<float>(tally[own] - best_other);
  }

  static constexpr TrainingDefaults training_defaults() {
    return {.blocks = 4, .channels = 48, .games = 32};
  }
  // The duel and ffa3 target score of a side: camp knights and lines, no captures.
  int target_score(const State& s, int side) const;

  int player_of_colour(int colour) const { return player_of_colour_[colour]; }
  bool in_play(int colour) const { return player_of_colour_[colour] >= 0; }
  bool hostile(int a, int b) const { return hostile_[a] >> b & 1; }
  bool is_safe(int square) const { return safe_[square]; }

  // The absolute square of `frame_square` seen from colour `colour`'s frame, and back.
  int from_frame(int colour, int frame_square) const {
    return geometry_.rotate(frame_square, colour);
  }
  int to_frame(int colour, int square) const { return geometry_.rotate(square, -colour); }

 private:
  // How a square looks to a colour.
  enum Region : uint8_t {
    kGround,       // open ground or a safe square: knights there may be captured ...
    kSafe,         // ... except on safe squares
    kOwnCamp,      // forward moves only, never re-entered
    kHostileCamp,  // a knight landing here is stuck, and cannot be captured
    kClosedCamp,   // a partner's camp (team modes): never entered
  };

  // Calls f(from, leap, to) for each legal move of `colour`; stops early when f returns
  // true, and returns whether it did.
  template <class F>
  bool for_each_move(const State& s, int colour, F&& f) const {
    const auto& allowed = leaps_allowed_[!(s.left_camp >> colour & 1)][colour];
    const unsigned enemies = hostile_[colour];
    for (const int16_t from : s.knights[colour]) {
      if (from == kCaptured) continue;
      for (unsigned leaps = allowed[from]; leaps; leaps &= leaps - 1) {
        const int leap = std::countr_zero(leaps);
        const int to = geometry_.leap(from, leap);
        // An occupied square is open only to capture an enemy knight that is not guarded.
        if (const int occupant = s.board[to];
            occupant && !((enemies & ~guarded_[to]) >> ((occupant - 1) / kKnights) & 1))
          continue;
        if (f(from, leap, to)) return true;
      }
    }
    return false;
  }
  bool can_move(const State& s, int colour) const;
  Action to_action(int colour, int from, int leap) const {
    return to_frame(colour, from) * knights_challenge::kNumLeaps + ((leap - 2 * colour) & 7);
  }
  // After a move (or on a state built from text): the end tests and the next colour to
  // move, starting from `first` in turn order.
  void settle(State& s, int first) const;
  Reason natural_end(const State& s) const;
  int line_points(const State& s, int side, int camp) const;
  int frame_colour(const State& s, int player) const;
  int next_colour(int colour) const;

  Params params_;
  Geometry geometry_;
  int num_players_ = 0, num_sides_ = 0;
  std::vector<int> colours_;                            // in play, in turn order
  std::array<int8_t, kNumColours> player_of_colour_{};  // -1 if not in play
  std::array<int8_t, kNumColours> side_of_colour_{};    // -1 if not in play
  std::array<int8_t, kNumColours> side_of_player_{};
  std::array<uint8_t, kNumColours> hostile_{};  // bit b: colours a and b are enemies
  bool mixed_lines_ = false;                    // lines mix a side's colours
  std::array<std::array<uint8_t, knights_challenge::kMaxSquares>, kNumColours> region_{};
  // [first][colour][square]: the leaps the squares alone allow, as a bit set; first = 1
  // while the colour has not left its camp (central_first).
  std::array<std::array<std::array<uint8_t, knights_challenge::kMaxSquares>, kNumColours>, 2>
      leaps_allowed_{};
  // Bit c: a knight of colour c on the square cannot be captured.
  std::array<uint8_t, knights_challenge::kMaxSquares> guarded_{};
  std::array<bool, knights_challenge::kMaxSquares> safe_{};
  // The planes that depend on the frame only (camps, safe squares), per frame colour.
  std::array<std::vector<float>, kNumColours> static_planes_;
};

static_assert(Game<KnightsChallenge>);

}  // namespace knightgym
