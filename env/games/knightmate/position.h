// A Knightmate position (pieces, side to move, castling rights, en-passant square,
// clocks, Zobrist key) with legal move generation and make-move. No draw or end
// rules here: those belong to the game (knightmate.h), which keeps the history.
//
// Legality is tested only where it can fail: the royal knight's own moves (each
// landing square must not be attacked), pinned pieces (they stay on the line of the
// pin), moves while in check (capture the checker or block a slider; only the royal
// moves in double check), en passant (the whole position after the capture), and
// castling (not in check, no attacked square passed over or landed on).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "env/core/rng.h"
#include "env/core/types.h"
#include "env/games/knightmate/bitboard.h"

namespace knightgym::knightmate {

// Piece kinds in FEN-letter order P B R Q M K: the commoner moves like a chess king, the
// royal knight like a knight.
enum Kind : int { kPawn, kBishop, kRook, kQueen, kCommoner, kRoyal, kNumKinds };

// A piece on a square: 0 for none, else 1 + kind + 8 * colour.
using Piece = uint8_t;
constexpr Piece kNoPiece = 0;
constexpr Piece make_piece(Color c, Kind k) { return static_cast<Piece>(1 + k + 8 * c); }
constexpr Kind kind_of(Piece p) { return Kind((p - 1) & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// Castling rights.
enum : uint8_t { kWhiteShort = 1, kWhiteLong = 2, kBlackShort = 4, kBlackLong = 8 };

// A move in 16 bits: from (6), to (6), flag (4). Castling is the royal knight's two-square
// step (e1g1); the rook's move is implied.
enum MoveFlag : int {
  kNormal = 0,
  kEnPassant = 1,
  kCastling = 2,
  kPromoteBishop = 2 + kBishop,
  kPromoteRook = 2 + kRook,
  kPromoteQueen = 2 + kQueen,
  kPromoteCommoner = 2 + kCommoner,
};
using Move = uint16_t;
constexpr Move make_move(int from, int to, int flag = kNormal) {
  return static_cast<Move>(from | to << 6 | flag << 12);
}
constexpr int move_from(Move m) { return m & 63; }
constexpr int move_to(Move m) { return (m >> 6) & 63; }
constexpr int move_flag(Move m) { return m >> 12; }
constexpr bool is_promotion(Move m) { return move_flag(m) >= kPromoteBishop; }
constexpr Kind promotion_kind(Move m) { return Kind(move_flag(m) - 2); }

// Promotion flags in the order the move lists give them.
constexpr int kPromotionFlags[4] = {kPromoteQueen, kPromoteRook, kPromoteBishop, kPromoteCommoner};

// Bound on legal moves in any position the FEN reader accepts (at most 16 pieces a side).
constexpr int kMaxMoves = 512;

namespace zobrist {
struct Keys {
  uint64_t piece[16][64];
  uint64_t castling[16];
  uint64_t en_passant[8];  // by file
  uint64_t black_to_move;
};
inline constexpr Keys kKeys = [] {
  Keys keys{};
  uint64_t seed = 0x4b6e696768746d61ull;  // "Knightma"
  const auto next = [&seed] { return mix64(seed++); };
  for (auto& row : keys.piece)
    for (uint64_t& key : row) key = next();
  for (uint64_t& key : keys.castling) key = next();
  for (uint64_t& key : keys.en_passant) key = next();
  keys.black_to_move = next();
  return keys;
}();
}  // namespace zobrist

// The legal moves of a position as sets of target squares: those of one piece, of one
// pawn step (each origin is the target minus the step), of promotions (four moves per
// target), or a single move. Counting the moves and drawing one takes no list of them
// all: the random playouts' form. The add_ calls are the move generator's.
class MoveSets {
 public:
  int count() const { return count_; }
  // The index-th move, 0 <= index < count(), in the order of the sets.
  Move move(int index) const;

  void clear() { size_ = count_ = 0; }
  void add_piece(int from, Bitboard targets) { add(targets, from, 0, kNormal, 1); }
  void add_pawn_step(Bitboard targets, int step) { add(targets, 0, step, kNormal, 1); }
  void add_promotions(Bitboard targets, int step) { add(targets, 0, step, kPromoteQueen, 4); }
  void add_move(int from, int to, int flag) { add(square_bb(to), from, 0, flag, 1); }

 private:
  struct Set {
    Bitboard targets;
    int8_t from;  // the origin of every target, unless step is not 0
    int8_t step;  // target - origin of a pawn step
    uint8_t flag;
    uint8_t moves_per_target;  // 4 for promotions, whose flags follow kPromotionFlags
  };
  // Empty sets are written but not kept.
  void add(Bitboard targets, int from, int step, int flag, int moves_per_target) {
    sets_[size_] = {targets, static_cast<int8_t>(from), static_cast<int8_t>(step),
                    static_cast<uint8_t>(flag), static_cast<uint8_t>(moves_per_target)};
    size_ += targets != 0;
    count_ += std::popcount(targets) * moves_per_target;
  }

  // Non-empty sets: at most 16 pieces, 8 pawn sets for the unpinned pawns and 8 for each
  // of at most 8 pinned ones, 2 en-passant captures and 2 castlings; one more is written.
  static constexpr int kMaxSets = 96;
  std::array<Set, kMaxSets> sets_;
  int size_ = 0, count_ = 0;
};

struct Position {
  std::array<Bitboard, 2> colors;
  std::array<Bitboard, kNumKinds> kinds;
  std::array<Piece, 64> board;
  uint64_t key;        // Zobrist key of pieces, side, castling rights and en-passant file
  uint16_t halfmove;   // plies since the last capture or pawn move
  uint16_t fullmove;   // starts at 1, grows after Black's move
  uint8_t side;        // Color to move
  uint8_t castling;    // kWhiteShort | ...
  uint8_t en_passant;  // target square, kNoSquare if no pawn could capture there
  // Derived from the above for the side to move by refresh(), which play(), start() and
  // the FEN reader call: move generation and the end tests share one computation.
  Bitboard danger;    // squares the opponent attacks, seen through the mover's royal knight
  Bitboard checkers;  // opponent pieces giving check
  Bitboard pinned;    // the mover's pieces pinned to its royal knight

  static Position start();

  Color to_move() const { return Color(side); }
  Bitboard occupied() const { return colors[0] | colors[1]; }
  Bitboard pieces(Color c, Kind k) const { return colors[c] & kinds[k]; }
  int royal(Color c) const { return lsb(pieces(c, kRoyal)); }

  // Pieces of both colours attacking `square` with `occupied` as the blockers.
  Bitboard attackers_to(int square, Bitboard occupied) const {
    return (kPawnAttacks[kWhite][square] & pieces(kBlack, kPawn)) |
           (kPawnAttacks[kBlack][square] & pieces(kWhite, kPawn)) |
           (kKnightAttacks[square] & kinds[kRoyal]) | (kKingAttacks[square] & kinds[kCommoner]) |
           (bishop_attacks(square, occupied) & (kinds[kBishop] | kinds[kQueen])) |
           (rook_attacks(square, occupied) & (kinds[kRook] | kinds[kQueen]));
  }
  bool in_check() const { return checkers != 0; }

  // Writes the legal moves, returns their count (at most kMaxMoves).
  int legal_moves(Move* out) const;
  // The same moves as actions of the AlphaZero encoding (action_encoding.h).
  int legal_actions(Action* out) const;
  // The same moves as sets.
  void legal_move_sets(MoveSets& sets) const;
  bool has_legal_move() const;
  void play(Move m);  // precondition: m is legal
  // Takes back a move that changed nothing but its piece's square, the side and the
  // clocks: no capture, pawn move, castling or promotion, no castling right lost, and no
  // en-passant square before it. Precondition: the piece of the side not to move stands
  // on the move's target, its origin is empty, the halfmove clock is above 0.
  void unplay_reversible(Move m);

  // Piece placement helpers, keeping the key in step; refresh() once the pieces are set.
  void put(Piece p, int square);
  void remove(int square);
  void move_piece(int from, int to);  // onto an empty square
  void refresh();
};

}  // namespace knightgym::knightmate
