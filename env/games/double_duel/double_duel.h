// Knights Double-Duel (S. Grottel, 2011): two knights and eight pawns a side on a 6x6
// board; a knight's leap, a pawn filling the field it left, and a free pawn move make a
// turn. Rules and encodings: docs/rules/double_duel.md.
//
// Parameters (the four extensions, all off by default, and the cap):
//   neighbor_attack         a knight that landed next to an enemy knight may capture it
//                           with a step in its player's next turn, if that knight stayed
//   switch_move             a knight may leap onto two own pawns instead of steps 1 and 2
//   single_pawn_blocks      a single enemy pawn also blocks a knight's landing
//   double_free_pawn_moves  after step 3 the player may make a second step 3, or stop
//   max_turns               1..10000 (default 200): turns before truncation (a draw)
//
// A turn is a sequence of decisions by one player (Phase below). Actions (38), in the
// mover's frame (fields mirrored rank-wise for Black):
//   0..35  a field (a1 = 0, b1 = 1, ..., f6 = 35)
//   36     reserve: step 2 takes a pawn from the reserve
//   37     stop: decline the optional second step 3
// Observation: kNumPlanes planes of 6x6 from the observer's side, ranks flipped for
// Black (see Plane below).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "env/core/check.h"
#include "env/core/game.h"
#include "env/games/double_duel/board.h"

namespace knightgym {

struct Picture;

class DoubleDuel : public EndOfGame<DoubleDuel> {
 public:
  using Fields = double_duel::Fields;

  static constexpr std::string_view kName = "double_duel";
  static constexpr std::string_view kSummary =
      "two knights and eight pawns a side on 6x6, with four rule extensions (2 players)";
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumFields = double_duel::kNumFields;
  static constexpr int kReserve = kNumFields;
  static constexpr int kStop = kNumFields + 1;
  static constexpr int kNumActions = kNumFields + 2;
  static constexpr int kMaxActions = kNumActions;
  static constexpr int kPawnsPerSide = 8;
  // Decisions in one turn: knight, target, fill, pawn, target, then a second pawn and
  // target (or stop).
  static constexpr int kMaxDecisionsPerTurn = 7;

  // The decision the mover faces.
  enum Phase : uint8_t {
    kChooseKnight,    // step 1: the field of a knight that has a move
    kKnightTarget,    // step 1: its destination (leap, neighbour attack, switch)
    kFillPawn,        // step 2: `reserve`, or the field a pawn comes from
    kFreePawn,        // step 3: the field of the pawn to move
    kFreeTarget,      // step 3: its destination
    kSecondFreePawn,  // double_free_pawn_moves: another step 3's pawn, or `stop`
    kNumPhases
  };

  // Observation planes, each 6x6 in the observer's frame.
  enum Plane : int {
    kPlaneOwnKnights,
    kPlaneOwnSinglePawns,
    kPlaneOwnDoublePawns,
    kPlaneOpponentKnights,
    kPlaneOpponentSinglePawns,
    kPlaneOpponentDoublePawns,
    kPlaneOwnReserve,       // reserve pawns / 8, constant plane
    kPlaneOpponentReserve,  // likewise
    kPlanePhase,            // kNumPhases one-hot constant planes: the pending decision
    kPlaneSelected = kPlanePhase + kNumPhases,  // the knight or pawn chosen this decision pair
    kPlaneVacated,                              // the field the knight left (holds the step-2 pawn)
    kPlaneFreeStepFollows,                      // all ones if step 3 applies this turn
    kPlaneFreeMovesMade,                        // step 3 moves made this turn / 2, constant plane
    kPlaneOwnAttackTargets,                     // enemy knights the observer may attack next turn
    kPlaneOwnAttacker,                          // the observer's knight holding those rights
    kPlaneOpponentAttackTargets,                // the observer's knights the opponent may attack
    kPlaneOpponentAttacker,                     // the opponent's knight holding those rights
    kPlaneObserverToMove,                       // all ones if the observer decides now
    kPlaneNeighborAttack,                       // the four extension flags, constant planes
    kPlaneSwitchMove,
    kPlaneSinglePawnBlocks,
    kPlaneDoubleFreePawnMoves,
    kPlaneProgress,  // turns / max_turns
    kNumPlanes
  };

  struct Params {
    bool neighbor_attack = false;
    bool switch_move = false;
    bool single_pawn_blocks = false;
    bool double_free_pawn_moves = false;
    int max_turns = 200;
  };

  struct State {
    std::array<Fields, 2> knights;
    std::array<Fields, 2> singles;  // fields holding one pawn of the colour
    std::array<Fields, 2> doubles;  // fields holding two
    std::array<uint8_t, 2> reserve;
    // Neighbour-attack rights made by each player's last step 1: the enemy knights it
    // may capture in its next turn, from attacker (-1 if none).
    std::array<Fields, 2> attack_targets;
    std::array<int8_t, 2> attacker;
    int16_t turns;       // completed turns
    uint8_t to_move;     // the player deciding (while not over)
    uint8_t phase;       // Phase
    int8_t selected;     // the chosen knight (kKnightTarget) or pawn (kFreeTarget), else -1
    int8_t vacated;      // the field the knight left this turn, -1 before step 1
    uint8_t free_step;   // step 3 applies this turn: no pawn was captured
    uint8_t free_moves;  // step 3 moves made this turn
    int8_t winner;       // -1 unless won
    End end;             // truncated by the max_turns cap: a draw
  };

  static Params read_params(ParamReader& reader);

  DoubleDuel() = default;
  explicit DoubleDuel(const Params& params) : params_(params) {}
  const Params& params() const { return params_; }

  GameInfo info() const {
    return {kNumPlayers,
            kNumActions,
            {kNumPlanes, double_duel::kSize, double_duel::kSize},
            kMaxDecisionsPerTurn * params_.max_turns};
  }

  void init(State& s, Rng& rng) const;

  int legal_actions(const State& s, Action* out) const {
    int n = 0;
    for (uint64_t b = legal_set(s); b; b &= b - 1) out[n++] = std::countr_zero(b);
    return n;
  }
  void legal_mask(const State& s, uint8_t* mask) const;
  void apply(State& s, Action action) const;
  // A broken invariant of `s` (debug checks, env/core/check.h), nullptr if none.
  const char* broken_invariant(const State& s) const;

  void returns(const State& s, float* out) const {
    const float white = s.winner < 0 ? 0.0f : s.winner == 0 ? 1.0f : -1.0f;
    out[0] = white;
    out[1] = -white;
  }

  void observe(const State& s, int player, float* out) const;

  // The greedy agent's view (env/core/heuristic.h): knights (10 each) and pawns on the
  // board and in reserve, minus the opponent's.
  float heuristic(const State& s, int player) const {
    const auto strength = [&s](int p) {
      return 10 * std::popcount(s.knights[p]) + std::popcount(s.singles[p]) +
             2 * std::popcount(s.doubles[p]) + s.reserve[p];
    };
    return static_cast<float>(strength(player) - strength(1 - player));
  }

  std::string action_to_string(const State& s, Action action) const;
  Action string_to_action(const State& s, std::string_view text) const;
  std::string render(const State& s) const;
  std::string serialize(const State& s) const;
  State deserialize(std::string_view text) const;
  // The picture of a state (env/core/picture.h).
  void draw(const State& s, Picture& out) const;

  // The legal actions as a set: bit a = action a (mover's frame), empty once over.
  uint64_t legal_set(const State& s) const;
  // Where `player`'s knight on `field` may go in step 1 (absolute fields).
  Fields knight_targets(const State& s, int player, int field) const;
  // Whether `player` has a knight with a legal step 1.
  bool can_move_knight(const State& s, int player) const;

 private:
  static int pawns_on_board(const State& s, int player) {
    return std::popcount(s.singles[player]) + 2 * std::popcount(s.doubles[player]);
  }
  static Fields occupied(const State& s) {
    return s.knights[0] | s.knights[1] | s.singles[0] | s.singles[1] | s.doubles[0] | s.doubles[1];
  }
  // Pawns the mover may move in step 3 (the step-2 pawn stays), each with a destination.
  static Fields free_pawns(const State& s);
  static Fields free_targets(const State& s, int from);
  static Fields fill_sources(const State& s);
  // Absolute field of an action in the mover's frame and back.
  static int to_field(const State& s, int action) {
    return s.to_move == 0 ? action : double_duel::kGrid.flip_rank(action);
  }
  static uint64_t to_frame(const State& s, Fields fields) {
    return s.to_move == 0 ? fields : double_duel::flip_ranks(fields);
  }

  void move_knight(State& s, int from, int to) const;
  // After each completed turn: the next player, the end test, then the cap.
  void settle(State& s) const;

  Params params_;
};

static_assert(Game<DoubleDuel>);

}  // namespace knightgym
