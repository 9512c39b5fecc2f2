// Knight Fight (Andy Lewicki): two knights leap over a 10x10 board of numbered squares,
// scoring the numbers they land on. Rules: docs/rules/knight_fight.md.
//
// Parameters:
//   double_erase     optional | forced | off  (default optional): after landing on a
//                    double (00, 11, ..., 99) the mover may / must / never erase another.
//   mirror_on_moves  bool (default true): leaps erase the mirrored number too, not only
//                    the two placements.
//   max_turns        int (default 200): turns (placements and leaps) before truncation.
//   layout           random | identity | 200 digits (default random): the numbers.
//
// Actions (101), in the mover's frame (ranks mirrored for Black), like the observation:
//   a = 0..99  the square in row a / 10, column a % 10 of the mover's view (placement,
//              leap target or double to erase): square a for White, square
//              (9 - a / 10) * 10 + a % 10 for Black. Strings name the real square
//              (a1..j10) whoever moves.
//   100        pass: decline to erase a double (double_erase=optional)
// Observation: 14 planes of 10x10 from the observer's side, ranks flipped for Black, the
// last four the rules (see kPlane* below and docs/rules/knight_fight.md).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "env/core/bits.h"
#include "env/core/check.h"
#include "env/core/game.h"
#include "env/core/symmetry.h"
#include "env/core/training_defaults.h"
#include "env/games/knight_fight/board.h"

namespace knightgym {

struct Picture;

class KnightFight : public EndOfGame<KnightFight> {
 public:
  static constexpr std::string_view kName = "knight_fight";
  static constexpr std::string_view kSummary =
      "two knights score the numbers of a 10x10 board (2 players)";
  static constexpr int kNumPlayers = 2;
  static constexpr int kSize = knight_fight::kSize;
  static constexpr int kNumSquares = knight_fight::kNumSquares;
  static constexpr int kPass = kNumSquares;
  static constexpr int kNumActions = kNumSquares + 1;
  static constexpr int kMaxActions = kNumActions;

  // Observation planes.
  enum Plane : int {
    kPlaneOwnKnight,
    kPlaneOpponentKnight,
    kPlaneUsable,
    kPlaneNumber,           // number / 99
    kPlaneDouble,           // squares holding 00, 11, ..., 99
    kPlaneOpponentAttacks,  // squares the opponent's knight attacks
    kPlaneOwnAttacks,       // squares the observer's knight attacks
    kPlanePendingErase,     // all ones while the mover chooses a double to erase
    kPlaneScoreDifference,  // (own score - opponent score) / 100, constant plane
    kPlaneProgress,         // turns played / max_turns, constant plane
    // The rules, constant planes, so that one network can play every rule set: double_erase
    // one-hot (optional, forced, off: DoubleErase's order), then mirror_on_moves.
    kPlaneDoubleErase,
    kPlaneMirrorOnMoves = kPlaneDoubleErase + 3,
    kNumPlanes
  };

  enum class DoubleErase : uint8_t { kOptional, kForced, kOff };

  struct Params {
    DoubleErase double_erase = DoubleErase::kOptional;
    bool mirror_on_moves = true;
    int max_turns = 200;
    bool random_layout = true;
    std::array<uint8_t, kNumSquares> layout{};  // number on each square, if not random
  };

  struct State {
    std::array<uint8_t, kNumSquares> number;     // number on each square
    std::array<uint8_t, kNumSquares> square_of;  // square holding each number
    Bits128 usable;                              // never visited, never erased
    Bits128 doubles;                             // squares holding a double
    std::array<int8_t, 2> knight;                // square, or -1 before the placement
    std::array<int16_t, 2> score;
    int16_t turns;          // completed turns (placements and leaps)
    uint8_t to_move;        // player deciding next (while not over)
    uint8_t pending_erase;  // the mover landed on a double and chooses one to erase
    End end;
  };

  static Params read_params(ParamReader& reader);

  KnightFight() = default;
  explicit KnightFight(const Params& params) : params_(params) {}
  const Params& params() const { return params_; }

  GameInfo info() const {
    // The score difference plane is the one outside [0, 1]: at most every number, 00 to
    // 99, won by one side, / 100.
    constexpr float kMaxScoreDifference = 49.5f;
    return {.num_players = kNumPlayers,
            .num_actions = kNumActions,
            .observation_shape = {kNumPlanes, kSize, kSize},
            .max_game_length = 2 * params_.max_turns,
            .observation_low = -kMaxScoreDifference,
            .observation_high = kMaxScoreDifference};
  }

  void init(State& state, Rng& rng) const;

  int legal_actions(const State& s, Action* out) const {
    int n = 0;
    for_each_bit(legal_set(s), [&](int action) { out[n++] = action; });
    if (pass_legal(s)) out[n++] = kPass;
    return n;
  }

  void legal_mask(const State& s, uint8_t* mask) const {
    write_mask(legal_set(s), kNumSquares, mask);
    mask[kPass] = pass_legal(s);
  }

  void apply(State& s, Action action) const {
    check_apply(*this, s, action);
    if (s.pending_erase) {
      if (action != kPass) s.usable &= ~bit128(to_square(s, action));
      s.pending_erase = 0;
      settle(s);
      return;
    }
    const int player = s.to_move;
    const int square = to_square(s, action);
    const bool placement = s.knight[player] < 0;
    const int number = s.number[square];
    s.knight[player] = static_cast<int8_t>(square);
    s.usable &= ~bit128(square);
    s.score[player] = static_cast<int16_t>(s.score[player] + number);
    if (!is_double(number)) {
      if (placement || params_.mirror_on_moves) s.usable &= ~bit128(s.square_of[mirror(number)]);
    } else if (params_.double_erase != DoubleErase::kOff && (s.usable & s.doubles)) {
      s.pending_erase = 1;  // the erase is a second decision of this turn
      return;
    }
    settle(s);
  }

  void returns(const State& s, float* out) const {
    const int sign = over(s.end) ? (s.score[0] > s.score[1]) - (s.score[0] < s.score[1]) : 0;
    out[0] = static_cast<float>(sign);
    out[1] = static_cast<float>(-sign);
  }

  void observe(const State& s, int player, float* out) const;

  // The greedy agent's view (env/core/heuristic.h): own score minus the opponent's.
  float heuristic(const State& s, int player) const {
    return static_cast<float>(s.score[player] - s.score[1 - player]);
  }

  // The left-right mirror (env/core/symmetry.h): placements are on the players' back
  // ranks, so no other symmetry of the square keeps the rules. Actions 0..99 are cells
  // of the mover's view; 100 (pass) stays.
  static constexpr int kNumSymmetries = 2;
  static constexpr int symmetric_cell(int k, int cell) {
    return dihedral_cell(k ? 4 : 0, kSize, cell);
  }
  static constexpr Action symmetric_action(int k, Action a) {
    return a == kPass ? a : static_cast<Action>(symmetric_cell(k, a));
  }

  // A 10 x 10 board with at most 8 moves a turn: a smaller network and search give 2.4x
  // the games per minute, which buys more than depth in 20 minutes (docs/training.md).
  static constexpr TrainingDefaults training_defaults() {
    return {.blocks = 2, .channels = 32, .games = 128, .sims = 16};
  }

  std::string action_to_string(const State& s, Action action) const;
  Action string_to_action(const State& s, std::string_view text) const;
  std::string render(const State& s) const;
  std::string serialize(const State& s) const;
  State deserialize(std::string_view text) const;
  // The picture of a state (env/core/picture.h).
  void draw(const State& s, Picture& out) const;

  // Where `player` may land now (absolute squares): placements before the knight is on
  // the board, leaps after. Knights' own squares are never usable, so they are excluded
  // already.
  static Bits128 targets(const State& s, int player) {
    const Bits128 opponent_attacks = attacks(s, 1 - player);
    if (s.knight[player] >= 0)
      return knight_fight::kKnightAttacks[s.knight[player]] & s.usable & ~opponent_attacks;
    return s.usable & ~opponent_attacks &
           (player == 0 ? knight_fight::kFirstRank : knight_fight::kLastRank);
  }

  // A broken invariant of `s` (debug checks, env/core/check.h), nullptr if none.
  const char* broken_invariant(const State& s) const;

 private:
  static constexpr bool is_double(int number) { return number % 11 == 0; }
  static constexpr int mirror(int number) { return number % 10 * 10 + number / 10; }
  // Derives square_of and doubles from the numbers on the squares.
  static void index_layout(State& s);
  // Reads a layout given as 200 digits (the two-digit number of each square in square
  // order) into `layout`; returns what is wrong with it, or an empty string.
  static std::string parse_layout(std::string_view digits,
                                  std::array<uint8_t, knight_fight::kNumSquares>& layout);

  static Bits128 attacks(const State& s, int player) {
    return s.knight[player] >= 0 ? knight_fight::kKnightAttacks[s.knight[player]] : Bits128{0};
  }

  // The absolute square of an action 0..99 in the mover's frame, and the action of a
  // square (mirroring the ranks is its own inverse).
  static int to_square(const State& s, int action) {
    return s.to_move ? knight_fight::kGrid.flip_rank(action) : action;
  }

  // The legal squares in the mover's frame (bit a = action a), empty once over: one
  // flip of the set for Black.
  static Bits128 legal_set(const State& s) {
    if (over(s.end)) return 0;
    const Bits128 squares = s.pending_erase ? s.usable & s.doubles : targets(s, s.to_move);
    return s.to_move ? knight_fight::flip_ranks(squares) : squares;
  }

  bool pass_legal(const State& s) const {
    return !over(s.end) && s.pending_erase && params_.double_erase == DoubleErase::kOptional;
  }

  // After each completed turn: the end test (after White's placement only Black's
  // placements count), then the cap. A natural end wins over truncation.
  void settle(State& s) const {
    ++s.turns;
    s.to_move ^= 1;
    const bool blocked = s.turns == 1 ? !targets(s, 1) : !targets(s, 0) || !targets(s, 1);
    s.end = blocked ? End::kRules : s.turns >= params_.max_turns ? End::kTruncated : End::kRunning;
  }

  Params params_;
};

static_assert(Game<KnightFight>);

}  // namespace knightgym
