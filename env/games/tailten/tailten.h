// Tailten "Kingdoms" (Singles, Level 1; M. Heasman): two players build ringforts on the
// 45 hills of the Tara board, first a knight's leap apart, then in Battle next to their
// own, capturing isolated besieged enemy ringforts; fewer kingdoms, then more territory,
// wins. Rules and encodings: docs/rules/tailten.md.
//
// Parameters:
//   first_player  0 (Red, default) or 1 (Blue) starts
//   ringforts     each player's supply, 1..45 (default 30)
//   max_turns     turns before truncation (default 200)
//
// Actions (45): the hills in square order (b1 = 0, ..., f7 = 44): a build or a capture,
// by where. Observation: kNumPlanes planes of 7 x 7 from the observer's side (Plane).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "env/core/check.h"
#include "env/core/extras.h"
#include "env/core/game.h"
#include "env/core/symmetry.h"
#include "env/games/tailten/board.h"

namespace knightgym {

struct Picture;

class Tailten : public EndOfGame<Tailten> {
 public:
  using Squares = tailten::Squares;

  static constexpr std::string_view kName = "tailten";
  static constexpr std::string_view kSummary =
      "ringforts on 45 hills: knight's-leap opening, battle, captures (2 players)";
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = tailten::kNumHills;
  static constexpr int kMaxActions = kNumActions;

  enum class Phase : uint8_t {
    kOpening,   // builds a knight's leap from an own ringfort, none closer
    kBattle,    // captures, else builds next to an own ringfort, else afresh
    kLastTurn,  // the other player is out: this is the mover's one more turn
  };

  // Observation planes, each 7 x 7, from the observer's side.
  enum Plane : int {
    kPlaneOwn,
    kPlaneEnemy,
    kPlaneVacant,
    kPlaneHills,    // the board: 1 on the 45 hills
    kPlaneOpening,  // constant planes: the phase, one-hot (all zero once over)
    kPlaneBattle,
    kPlaneLastTurn,
    kPlaneCaptures,        // the captures the mover must choose from (when observer moves)
    kPlaneOwnSupply,       // constant: ringforts in the observer's supply / ringforts
    kPlaneEnemySupply,     // likewise for the opponent
    kPlaneObserverToMove,  // all ones if the observer moves now
    kPlaneProgress,        // turns / max_turns
    kNumPlanes
  };

  struct Params {
    int first_player = 0;
    int ringforts = 30;
    int max_turns = 200;
  };

  struct State {
    std::array<Squares, 2> forts;  // each player's ringforts
    Squares legal;                 // the mover's legal hills (squares)
    uint8_t to_move;
    Phase phase;        // while running
    uint8_t capturing;  // the legal hills are captures
    End end;
    int16_t turns;
  };

  // The result of a finished game for the match: kingdoms, territory and match points.
  struct Score {
    std::array<int, 2> kingdoms, territory, match_points;
    int winner;  // -1 for a draw
  };

  static Params read_params(ParamReader& reader);

  Tailten() = default;
  explicit Tailten(const Params& params) : params_(params) {}
  const Params& params() const { return params_; }

  GameInfo info() const {
    return {
        kNumPlayers, kNumActions, {kNumPlanes, tailten::kSize, tailten::kSize}, params_.max_turns};
  }

  void init(State& s, Rng& rng) const;

  int legal_actions(const State& s, Action* out) const {
    int n = 0;
    for (Squares b = s.legal; b; b &= b - 1) out[n++] = tailten::kHillOfSquare[std::countr_zero(b)];
    return n;
  }
  void legal_mask(const State& s, uint8_t* mask) const;
  void apply(State& s, Action action) const;
  // A broken invariant of `s` (debug checks, env/core/check.h), nullptr if none.
  const char* broken_invariant(const State& s) const;
  void returns(const State& s, float* out) const {
    const Score score = this->score(s);
    out[0] = !terminal(s) || score.winner < 0 ? 0.0f : score.winner == 0 ? 1.0f : -1.0f;
    out[1] = -out[0];
  }
  void observe(const State& s, int player, float* out) const;

  std::string action_to_string(const State& s, Action action) const;
  Action string_to_action(const State& s, std::string_view text) const;
  std::string render(const State& s) const;
  std::string serialize(const State& s) const;
  State deserialize(std::string_view text) const;
  // The picture of a state (env/core/picture.h).
  void draw(const State& s, Picture& out) const;

  // Kingdoms, territory and match points of the position (final once over).
  Score score(const State& s) const;
  // The score as an extra (env/core/extras.h, extras.cc).
  static std::span<const StateExtra<Tailten>> extras();

  // The greedy agent's view (env/core/heuristic.h): fewer kingdoms first, then more
  // territory, against the opponent.
  float heuristic(const State& s, int player) const {
    const Score now = score(s);
    const int other = 1 - player;
    return static_cast<float>(100 * (now.kingdoms[other] - now.kingdoms[player]) +
                              now.territory[player] - now.territory[other]);
  }

  // The board is the 7 x 7 grid without its corners, so all eight symmetries of the
  // square keep it (env/core/symmetry.h).
  static constexpr int kNumSymmetries = 8;
  static constexpr int symmetric_cell(int k, int cell) {
    return dihedral_cell(k, tailten::kSize, cell);
  }
  static constexpr Action symmetric_action(int k, Action a) {
    return tailten::kHillOfSquare[symmetric_cell(k, tailten::kSquareOfHill[a])];
  }
  int supply(const State& s, int player) const {
    return params_.ringforts - std::popcount(s.forts[player]);
  }
  // The hills `player` may build on in the opening (a knight's leap from an own
  // ringfort, none closer; anywhere for the first), and its legal hills in Battle.
  Squares opening_builds(const State& s, int player) const;
  Squares battle_turns(const State& s, int player, bool* capturing) const;

 private:
  // Sets the mover's legal hills for `player`, to move next, and the phase; makes the
  // other player's last turn or ends the game where `player` is out.
  void settle(State& s, int player) const;

  Params params_;
};

static_assert(Game<Tailten>);

}  // namespace knightgym
