// Knightmate: chess with a royal knight (K/k) and two commoners (M/m) that move like
// chess kings. Rules, FEN, encodings: docs/rules/knightmate.md. FEN and UCI moves follow
// Fairy-Stockfish's `knightmate` variant.
//
// Parameters:
//   fen        startpos | a FEN (default startpos): the position each episode starts from
//   history    1..8 (default 1): positions stacked in the observation, newest first
//   max_turns  1..100000 (default 512): turns (one player's move, a ply) before truncation
//              (scored as a draw)
//
// Actions (4672): the AlphaZero encoding in the mover's frame (action_encoding.h).
// Observation: 14 * history + 8 planes of 8x8 from the observer's side, ranks mirrored
// for Black (see Plane below).
//
// The game ends by checkmate (the side to move loses), stalemate, the fifty-move rule
// (100 plies without a capture or pawn move; a mate on that ply counts), threefold
// repetition, or bare royal knights; all but mate are draws. It is truncated after
// max_turns turns (plies), unless it ended naturally on the last one.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "env/core/check.h"
#include "env/core/game.h"
#include "env/core/training_defaults.h"
#include "env/core/uci_game.h"
#include "env/games/knightmate/action_encoding.h"
#include "env/games/knightmate/fen.h"
#include "env/games/knightmate/perft.h"
#include "env/games/knightmate/position.h"

namespace knightgym {

struct Picture;

class Knightmate : public EndOfGame<Knightmate> {
 public:
  using Position = knightmate::Position;
  using Bitboard = knightmate::Bitboard;

  static constexpr std::string_view kName = "knightmate";
  static constexpr std::string_view kSummary =
      "chess with a royal knight and commoners, Fairy-Stockfish's knightmate (2 players)";
  static constexpr int kNumPlayers = 2;
  static constexpr int kNumActions = knightmate::kNumActions;
  static constexpr int kMaxActions = knightmate::kMaxMoves;
  static constexpr int kMaxHistory = 8;
  // Keys (and moves) kept for repetition: the fifty-move rule ends a game within 100 plies
  // of the last irreversible move, so earlier positions can never repeat.
  static constexpr int kKeyHistory = 128;

  // Observation planes. Each of the `history` positions (t = 0 the current one) has
  // kPlanesPerPosition planes starting at t * kPlanesPerPosition; the constant planes
  // follow them.
  enum PositionPlane : int {
    kPlaneOwnPieces = 0,       // 6 planes, P B R Q M K of the observer
    kPlaneOpponentPieces = 6,  // 6 planes, the opponent's
    kPlaneRepeatedOnce = 12,   // the position occurred once before
    kPlaneRepeatedTwice = 13,  // ... twice before (threefold repetition)
    kPlanesPerPosition = 14
  };
  enum ConstantPlane : int {
    kPlaneObserverIsBlack,
    kPlaneObserverToMove,
    kPlaneOwnShortCastling,
    kPlaneOwnLongCastling,
    kPlaneOpponentShortCastling,
    kPlaneOpponentLongCastling,
    kPlaneNoProgress,  // halfmove clock / 100
    kPlaneProgress,    // turns / max_turns
    kNumConstantPlanes
  };

  // Which rule ended the game (end == End::kRules); kNone otherwise.
  enum class Reason : uint8_t {
    kNone,
    kCheckmate,
    kStalemate,
    kFiftyMoves,
    kRepetition,
    kBareRoyals
  };

  struct Params {
    Position start = Position::start();
    int history = 1;
    int max_turns = 512;
  };

  // The pieces of an earlier position, for the history planes.
  struct Snapshot {
    std::array<Bitboard, 2> colors;
    std::array<Bitboard, knightmate::kNumKinds> kinds;
    uint8_t repetitions;
  };

  struct State {
    Position position;
    std::array<uint64_t, kKeyHistory> keys;  // keys[ply % kKeyHistory], this episode's plies
    // A Bloom filter (bit key >> 56) of the keys repetition looks at: a miss proves the
    // position new, so the scan of `keys` runs only on a hit.
    std::array<uint64_t, 4> key_filter;
    std::array<Snapshot, kMaxHistory> snapshots;  // snapshots[ply % kMaxHistory] if history > 1
    // The moves played since turn reversible_since, for uci_position: moves[ply %
    // kKeyHistory] was played at turn ply. The list restarts after every move that the
    // position after it cannot take back alone: one that reset the halfmove clock (a
    // capture or pawn move), changed the castling rights (castling too), or was played
    // from a position with an en-passant square. Each listed move is then a plain piece
    // move, and taking them back gives the earlier positions exactly; no position before
    // the list can recur after it. At most 100 (the fifty-move rule).
    std::array<knightmate::Move, kKeyHistory> moves;
    int32_t turns;             // turns (plies) played in this episode
    int32_t reversible_since;  // the turn the moves start at, <= turns
    uint8_t repetitions;       // earlier occurrences of the current position, at most 2
    End end;
    Reason reason;
  };

  static Params read_params(ParamReader& reader);

  Knightmate() = default;
  explicit Knightmate(const Params& params) : params_(params) {}
  const Params& params() const { return params_; }

  GameInfo info() const {
    return {kNumPlayers,
            kNumActions,
            {kPlanesPerPosition * params_.history + kNumConstantPlanes, 8, 8},
            params_.max_turns};
  }

  void init(State& s, Rng& rng) const;
  // A state for `position` at the start of an episode (turns 0, no history).
  State state_from_position(const Position& position) const;

  // The side to move, while the game runs (EndOfGame).
  int mover(const State& s) const { return s.position.side; }

  int legal_actions(const State& s, Action* out) const {
    return terminal(s) ? 0 : s.position.legal_actions(out);
  }

  void legal_mask(const State& s, uint8_t* mask) const;
  // A uniformly random legal action, drawn from the move sets without listing every
  // action (env/core/sample.h). Precondition: the state is not over.
  Action sample_action(const State& s, Rng& rng) const {
    knightmate::MoveSets sets;
    s.position.legal_move_sets(sets);
    const auto count = static_cast<uint32_t>(sets.count());
    return knightmate::encode_move(sets.move(static_cast<int>(rng.below(count))),
                                   s.position.to_move());
  }

  void apply(State& s, Action action) const {
    check_apply(*this, s, action);
    play(s, knightmate::decode_action(s.position, action));
  }

  // A broken invariant of `s` (debug checks, env/core/check.h), nullptr if none.
  const char* broken_invariant(const State& s) const;
  // Plays a legal move (the engine's own form of an action).
  void play(State& s, knightmate::Move move) const;

  // Perft on the bitboards (env/core/perft.h): draw rules below the root do not cut it.
  uint64_t perft(const State& s, int depth) const {
    return depth == 0 ? 1 : terminal(s) ? 0 : knightmate::perft(s.position, depth);
  }

  void returns(const State& s, float* out) const {
    // Checkmate is the only decisive end: the side to move has lost.
    const int white = s.reason != Reason::kCheckmate          ? 0
                      : s.position.side == knightmate::kWhite ? -1
                                                              : 1;
    out[0] = static_cast<float>(white);
    out[1] = static_cast<float>(-white);
  }

  void observe(const State& s, int player, float* out) const;

  // The greedy agent's view (env/core/heuristic.h): material (P 1, B 3, M 3, R 5, Q 9)
  // minus the opponent's.
  float heuristic(const State& s, int player) const {
    constexpr int kValue[knightmate::kNumKinds] = {1, 3, 5, 9, 3, 0};  // P B R Q M K
    int balance = 0;
    for (int kind = 0; kind < knightmate::kNumKinds; ++kind) {
      const auto count = [&](int p) {
        return std::popcount(s.position.pieces(knightmate::Color(p), knightmate::Kind(kind)));
      };
      balance += kValue[kind] * (count(player) - count(1 - player));
    }
    return static_cast<float>(balance);
  }

  // What a UCI engine plays (env/core/uci_game.h): Fairy-Stockfish's variant, its start,
  // positions for perft-bench, a state from a FEN, and the FEN of the current position
  // alone (no earlier positions, so no repetitions).
  static constexpr std::string_view kUciVariant = "knightmate";
  static constexpr std::string_view kUciStartFen = knightmate::kStartFen;
  static constexpr std::array<UciPerftPosition, 4> kUciPerftPositions{{
      {"start", knightmate::kStartFen, 6},
      {"castling, en passant", "r3k2r/ppp1qppp/2m1bm2/3pP3/8/2M1BM2/PPP1QPPP/R3K2R w KQkq d6 0 9",
       5},
      {"promotions", "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1", 5},
      {"endgame", "4k3/P1p5/8/1P6/8/8/p5P1/4K3 b - - 0 1", 7},
  }};
  State state_from_fen(std::string_view fen) const {
    return state_from_position(knightmate::parse_fen(fen));
  }
  std::string fen(const State& s) const;
  // The arguments of UCI's `position` command for the game so far: "fen ROOT moves M1
  // M2 ..." (no "moves" when there are none), ROOT the position at turn
  // reversible_since and the moves those since, so that the engine sees every earlier
  // position a repetition can still reach.
  std::string uci_position(const State& s) const;

  // Chess-sized: a deeper, wider network and search, judged against stronger MCTS.
  static constexpr TrainingDefaults training_defaults() {
    // The policy head: a convolution's 73 logits per square (AlphaZero's chess head),
    // which won an A/B against a dense layer from 2 planes (docs/training.md).
    return {.blocks = 6,
            .channels = 64,
            .policy_channels = 2,
            .policy_head = "conv",
            .games = 32,
            .sims = 64,
            .baselines = "mcts:sims=400"};
  }

  std::string action_to_string(const State& s, Action action) const;
  Action string_to_action(const State& s, std::string_view text) const;
  std::string render(const State& s) const;
  std::string serialize(const State& s) const;
  State deserialize(std::string_view text) const;
  // The picture of a state (env/core/picture.h).
  void draw(const State& s, Picture& out) const;

 private:
  // Adds a key to the Bloom filter of State::key_filter.
  static void add_to_filter(std::array<uint64_t, 4>& filter, uint64_t key) {
    filter[key >> 62] |= uint64_t{1} << ((key >> 56) & 63);
  }
  // Counts earlier occurrences of the current position and decides whether the game is
  // over, after the position changed.
  void settle(State& s) const;
  static Snapshot snapshot(const Position& p, int repetitions);

  Params params_;
};

static_assert(Game<Knightmate>);
static_assert(UciGame<Knightmate>);

}  // namespace knightgym
