#include "env/games/knightmate/position.h"

#include <bit>
#include <type_traits>

#include "env/core/check.h"
#include "env/games/knightmate/action_encoding.h"

namespace knightgym::knightmate {
namespace {

constexpr int kE1 = 4, kE8 = 60;

// Castling rights that survive a move from or to each square.
constexpr auto kCastlingKept = [] {
  std::array<uint8_t, 64> kept{};
  kept.fill(15);
  kept[0] = 15 & ~kWhiteLong;
  kept[7] = 15 & ~kWhiteShort;
  kept[kE1] = 15 & ~(kWhiteShort | kWhiteLong);
  kept[56] = 15 & ~kBlackLong;
  kept[63] = 15 & ~kBlackShort;
  kept[kE8] = 15 & ~(kBlackShort | kBlackLong);
  return kept;
}();

// Pawn captures of colour Us shifted towards the west (file - 1) and east (file + 1).
template <Color Us>
constexpr Bitboard west_captures(Bitboard pawns) {
  return Us == kWhite ? (pawns & ~kFileA) << 7 : (pawns & ~kFileA) >> 9;
}
template <Color Us>
constexpr Bitboard east_captures(Bitboard pawns) {
  return Us == kWhite ? (pawns & ~kFileH) << 9 : (pawns & ~kFileH) >> 7;
}

// Squares attacked by colour C's pieces with `occupied` as the blockers.
template <Color C>
Bitboard attacks_by(const Position& p, Bitboard occupied) {
  const Bitboard pawns = p.pieces(C, kPawn);
  Bitboard attacks = east_captures<C>(pawns) | west_captures<C>(pawns) | kKnightAttacks[p.royal(C)];
  for (Bitboard b = p.pieces(C, kCommoner); b;) attacks |= kKingAttacks[pop_lsb(b)];
  for (Bitboard b = p.colors[C] & (p.kinds[kBishop] | p.kinds[kQueen]); b;)
    attacks |= bishop_attacks(pop_lsb(b), occupied);
  for (Bitboard b = p.colors[C] & (p.kinds[kRook] | p.kinds[kQueen]); b;)
    attacks |= rook_attacks(pop_lsb(b), occupied);
  return attacks;
}

// Pieces of `us` between the royal knight and an enemy slider aiming at it.
Bitboard pinned_pieces(const Position& p, Color us, int royal, Bitboard occupied) {
  const Color them = ~us;
  Bitboard snipers = ((kRookRays[royal] & (p.kinds[kRook] | p.kinds[kQueen])) |
                      (kBishopRays[royal] & (p.kinds[kBishop] | p.kinds[kQueen]))) &
                     p.colors[them];
  Bitboard pinned = 0;
  while (snipers) {
    const Bitboard blockers = between(royal, pop_lsb(snipers)) & occupied;
    if (blockers && !more_than_one(blockers)) pinned |= blockers;
  }
  return pinned & p.colors[us];
}

// A sink of the generator that writes every move, as a Move or as an action of the
// AlphaZero encoding, so that the game's action lists need no second pass. MoveSets
// (position.h) is the other sink: it keeps the sets.
template <Color Us, class Out>
class ListSink {
 public:
  explicit ListSink(Out* out) : out_(out) {}
  Out* end() const { return out_; }

  void add_piece(int from, Bitboard targets) {
    while (targets) add(from, pop_lsb(targets));
  }
  void add_pawn_step(Bitboard targets, int step) {
    while (targets) {
      const int to = pop_lsb(targets);
      add(to - step, to);
    }
  }
  void add_promotions(Bitboard targets, int step) {
    while (targets) {
      const int to = pop_lsb(targets);
      for (int flag : kPromotionFlags) add_move(to - step, to, flag);
    }
  }
  void add_move(int from, int to, int flag) {
    if constexpr (std::is_same_v<Out, Move>)
      *out_++ = make_move(from, to, flag);
    else
      *out_++ = encode_move(make_move(from, to, flag), Us);
  }

 private:
  // Actions of ordinary moves come straight from the (from, to) table: the hottest store.
  void add(int from, int to) {
    if constexpr (std::is_same_v<Out, Move>)
      *out_++ = make_move(from, to);
    else
      *out_++ = detail::kMoveAction[Us][from][to];
  }

  Out* out_;
};

// The legal moves of side Us, into a sink.
template <Color Us, class Sink>
class Generator {
 public:
  Generator(const Position& p, Sink& sink) : p_(p), sink_(sink) {}

  void run() {
    const Bitboard us = p_.colors[Us];
    occupied_ = us | p_.colors[~Us];
    royal_ = p_.royal(Us);
    pinned_ = p_.pinned;
    sink_.add_piece(royal_, kKnightAttacks[royal_] & ~us & ~p_.danger);
    const Bitboard checkers = p_.checkers;
    if (more_than_one(checkers)) return;

    // Squares that resolve a single check; any square not ours otherwise.
    const Bitboard target = checkers ? between(royal_, lsb(checkers)) | checkers : ~us;
    pawn_moves(target, p_.colors[~Us]);
    piece_moves(p_.pieces(Us, kCommoner), target,
                [](int square, Bitboard) { return kKingAttacks[square]; });
    piece_moves(p_.pieces(Us, kBishop) | p_.pieces(Us, kQueen), target,
                [](int square, Bitboard occupied) { return bishop_attacks(square, occupied); });
    piece_moves(p_.pieces(Us, kRook) | p_.pieces(Us, kQueen), target,
                [](int square, Bitboard occupied) { return rook_attacks(square, occupied); });
    if (!checkers) castling();
  }

 private:
  static constexpr int kUp = Us == kWhite ? 8 : -8;

  void add_pawn_moves(Bitboard targets, int step) {
    constexpr Bitboard kLastRank = Us == kWhite ? kRank8 : kRank1;
    sink_.add_pawn_step(targets & ~kLastRank, step);
    sink_.add_promotions(targets & kLastRank, step);
  }

  // Pushes and captures of `pawns` onto `target`, set-wise.
  void pawn_set_moves(Bitboard pawns, Bitboard target, Bitboard enemies) {
    constexpr Bitboard kThirdRank = Us == kWhite ? rank_bb(2) : rank_bb(5);
    const Bitboard empty = ~occupied_;
    const Bitboard single = push<Us>(pawns) & empty;
    add_pawn_moves(single & target, kUp);
    add_pawn_moves(push<Us>(single & kThirdRank) & empty & target, 2 * kUp);
    add_pawn_moves(west_captures<Us>(pawns) & enemies & target, kUp - 1);
    add_pawn_moves(east_captures<Us>(pawns) & enemies & target, kUp + 1);
  }

  // A pinned pawn may move only along the line through its royal knight.
  void pawn_moves(Bitboard target, Bitboard enemies) {
    const Bitboard pawns = p_.pieces(Us, kPawn);
    pawn_set_moves(pawns & ~pinned_, target, enemies);
    for (Bitboard b = pawns & pinned_; b;) {
      const int from = pop_lsb(b);
      pawn_set_moves(square_bb(from), target & line(royal_, from), enemies);
    }
    if (p_.en_passant != kNoSquare) en_passant(p_.en_passant);
  }

  // Tested on the whole position after the capture: it removes two pawns from their
  // squares at once, which may open a line to the royal knight.
  void en_passant(int to) {
    const int captured = to - kUp;
    for (Bitboard b = kPawnAttacks[~Us][to] & p_.pieces(Us, kPawn); b;) {
      const int from = pop_lsb(b);
      const Bitboard after = (occupied_ ^ square_bb(from) ^ square_bb(captured)) | square_bb(to);
      if (!(p_.attackers_to(royal_, after) & p_.colors[~Us] & ~square_bb(captured)))
        sink_.add_move(from, to, kEnPassant);
    }
  }

  template <class Attacks>
  void piece_moves(Bitboard pieces, Bitboard target, Attacks attacks) {
    while (pieces) {
      const int from = pop_lsb(pieces);
      Bitboard to = attacks(from, occupied_) & target;
      if (pinned_ & square_bb(from)) to &= line(royal_, from);
      sink_.add_piece(from, to);
    }
  }

  // Not in check, so no enemy line runs through the royal knight's home square: the
  // danger map drawn without it holds for the squares beside it.
  void castling() {
    constexpr int kHome = Us == kWhite ? kE1 : kE8;
    constexpr uint8_t kShort = Us == kWhite ? kWhiteShort : kBlackShort;
    constexpr uint8_t kLong = Us == kWhite ? kWhiteLong : kBlackLong;
    const auto safe = [&](int square) { return !(p_.danger & square_bb(square)); };
    if ((p_.castling & kShort) && !(occupied_ & (square_bb(kHome + 1) | square_bb(kHome + 2))) &&
        safe(kHome + 1) && safe(kHome + 2))
      sink_.add_move(kHome, kHome + 2, kCastling);
    if ((p_.castling & kLong) &&
        !(occupied_ & (square_bb(kHome - 1) | square_bb(kHome - 2) | square_bb(kHome - 3))) &&
        safe(kHome - 1) && safe(kHome - 2))
      sink_.add_move(kHome, kHome - 2, kCastling);
  }

  const Position& p_;
  Sink& sink_;
  Bitboard occupied_ = 0, pinned_ = 0;
  int royal_ = 0;
};

}  // namespace

Position Position::start() {
  Position p{};
  constexpr Kind kBackRank[8] = {kRook,  kCommoner, kBishop,   kQueen,
                                 kRoyal, kBishop,   kCommoner, kRook};
  for (int file = 0; file < 8; ++file) {
    p.put(make_piece(kWhite, kBackRank[file]), kGrid.square(file, 0));
    p.put(make_piece(kWhite, kPawn), kGrid.square(file, 1));
    p.put(make_piece(kBlack, kPawn), kGrid.square(file, 6));
    p.put(make_piece(kBlack, kBackRank[file]), kGrid.square(file, 7));
  }
  p.fullmove = 1;
  p.castling = kWhiteShort | kWhiteLong | kBlackShort | kBlackLong;
  p.key ^= zobrist::kKeys.castling[p.castling];
  p.en_passant = kNoSquare;
  p.refresh();
  return p;
}

void Position::put(Piece piece, int square) {
  colors[color_of(piece)] |= square_bb(square);
  kinds[kind_of(piece)] |= square_bb(square);
  board[square] = piece;
  key ^= zobrist::kKeys.piece[piece][square];
}

void Position::remove(int square) {
  const Piece piece = board[square];
  colors[color_of(piece)] ^= square_bb(square);
  kinds[kind_of(piece)] ^= square_bb(square);
  board[square] = kNoPiece;
  key ^= zobrist::kKeys.piece[piece][square];
}

template <Color Us, class Out>
int list_moves_for(const Position& p, Out* out) {
  ListSink<Us, Out> sink(out);
  Generator<Us, ListSink<Us, Out>>(p, sink).run();
  return static_cast<int>(sink.end() - out);
}

template <class Out>
int list_moves(const Position& p, Out* out) {
  return p.side == kWhite ? list_moves_for<kWhite>(p, out) : list_moves_for<kBlack>(p, out);
}

int Position::legal_moves(Move* out) const { return list_moves(*this, out); }
int Position::legal_actions(Action* out) const { return list_moves(*this, out); }

void Position::legal_move_sets(MoveSets& sets) const {
  sets.clear();
  if (side == kWhite)
    Generator<kWhite, MoveSets>(*this, sets).run();
  else
    Generator<kBlack, MoveSets>(*this, sets).run();
}

Move MoveSets::move(int index) const {
  KNIGHTGYM_CHECK(index >= 0 && index < count_, "MoveSets::move: index out of range");
  for (const Set* set = sets_.data();; ++set) {
    const int moves = std::popcount(set->targets) * set->moves_per_target;
    if (index >= moves) {
      index -= moves;
      continue;
    }
    Bitboard targets = set->targets;
    for (int skip = index / set->moves_per_target; skip > 0; --skip) targets &= targets - 1;
    const int to = lsb(targets);
    const int from = set->step ? to - set->step : set->from;
    const int flag = set->moves_per_target == 1 ? set->flag : kPromotionFlags[index % 4];
    return make_move(from, to, flag);
  }
}

bool Position::has_legal_move() const {
  // The royal knight usually has a safe leap, which answers without generating the rest.
  const Color us = to_move();
  if (kKnightAttacks[royal(us)] & ~colors[us] & ~danger) return true;
  if (more_than_one(checkers)) return false;
  // Out of check, so does an unpinned commoner with a square free of its own pieces.
  if (!checkers)
    for (Bitboard b = pieces(us, kCommoner) & ~pinned; b;)
      if (kKingAttacks[pop_lsb(b)] & ~colors[us]) return true;
  Move moves[kMaxMoves];
  return legal_moves(moves) > 0;
}

template <Color Us>
void refresh_for(Position& p) {
  const int royal = p.royal(Us);
  const Bitboard occupied = p.occupied();
  // Every square the enemy attacks, seen through the royal knight: its leaps and the
  // castling squares must avoid them.
  p.danger = attacks_by<~Us>(p, occupied ^ square_bb(royal));
  p.checkers = p.danger & square_bb(royal) ? p.attackers_to(royal, occupied) & p.colors[~Us] : 0;
  p.pinned = pinned_pieces(p, Us, royal, occupied);
}

void Position::refresh() {
  if (side == kWhite)
    refresh_for<kWhite>(*this);
  else
    refresh_for<kBlack>(*this);
}

void Position::move_piece(int from, int to) {
  const Piece piece = board[from];
  const Bitboard from_to = square_bb(from) | square_bb(to);
  colors[color_of(piece)] ^= from_to;
  kinds[kind_of(piece)] ^= from_to;
  board[from] = kNoPiece;
  board[to] = piece;
  key ^= zobrist::kKeys.piece[piece][from] ^ zobrist::kKeys.piece[piece][to];
}

void Position::play(Move m) {
  const int from = move_from(m), to = move_to(m), flag = move_flag(m);
  const Color us = to_move();
  const int up = us == kWhite ? 8 : -8;
  const Piece piece = board[from];

  key ^= zobrist::kKeys.black_to_move;
  if (en_passant != kNoSquare) {
    key ^= zobrist::kKeys.en_passant[kGrid.file_of(en_passant)];
    en_passant = kNoSquare;
  }
  ++halfmove;
  if (castling) {  // once every right is gone, the key's castling part stays as it is
    key ^= zobrist::kKeys.castling[castling];
    castling &= kCastlingKept[from] & kCastlingKept[to];
    key ^= zobrist::kKeys.castling[castling];
  }

  if (flag == kCastling) {
    const bool short_side = to > from;
    move_piece(from, to);
    move_piece(short_side ? from + 3 : from - 4, short_side ? from + 1 : from - 1);
  } else {
    if (board[to] != kNoPiece) {
      remove(to);
      halfmove = 0;
    }
    if (is_promotion(m)) {
      remove(from);
      put(make_piece(us, promotion_kind(m)), to);
    } else {
      move_piece(from, to);
    }
    if (kind_of(piece) == kPawn) {
      halfmove = 0;
      if (flag == kEnPassant) {
        remove(to - up);
      } else if (to - from == 2 * up && (kPawnAttacks[us][from + up] & pieces(~us, kPawn))) {
        // Recorded only where an enemy pawn could capture, as Fairy-Stockfish does.
        en_passant = static_cast<uint8_t>(from + up);
        key ^= zobrist::kKeys.en_passant[kGrid.file_of(en_passant)];
      }
    }
  }
  if (us == kBlack) ++fullmove;
  side ^= 1;
  refresh();
}

void Position::unplay_reversible(Move m) {
  move_piece(move_to(m), move_from(m));
  side ^= 1;
  key ^= zobrist::kKeys.black_to_move;
  --halfmove;
  if (side == kBlack) --fullmove;
  refresh();
}

}  // namespace knightgym::knightmate
