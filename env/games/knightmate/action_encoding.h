// The AlphaZero move encoding, 8 x 8 x 73 = 4672 actions, in the mover's frame: for
// Black every square is mirrored (rank r -> 7 - r), so the mover always plays "up".
//
//   action = from * 73 + plane        from = square index in the mover's frame (a1 = 0)
//
//   planes  0..55  queen-like moves: direction * 7 + (distance - 1), directions
//                  0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW (N = towards the enemy).
//                  Pawn pushes and captures, slider and commoner moves, promotions to a
//                  queen, and castling (the royal knight's two-square step E or W).
//   planes 56..63  knight leaps of the royal knight, in the order
//                  (+1,+2) (+2,+1) (+2,-1) (+1,-2) (-1,-2) (-2,-1) (-2,+1) (-1,+2)
//                  as (files, ranks).
//   planes 64..72  under-promotions: 64 + 3 * piece + direction, piece 0 rook, 1 bishop,
//                  2 commoner; direction 0 capture towards the a-file, 1 push, 2 capture
//                  towards the h-file (for Black in the mover's frame: the same files).
//
//        NW  N  NE            . 63 .  56 .           the knight planes around a
//          \ | /            62  .  .  .  57          from-square (files across,
//       W -- * -- E          .  .  *  .  .           ranks up), in the mover's
//          / | \            61  .  .  .  58          frame
//        SW  S  SE           . 60 .  59 .
#pragma once

#include <array>
#include <cstdint>

#include "env/games/knightmate/bitboard.h"
#include "env/games/knightmate/position.h"

namespace knightgym::knightmate {

constexpr int kNumPlanes = 73;
constexpr int kNumActions = 64 * kNumPlanes;
constexpr int kKnightPlane = 56;
constexpr int kUnderPromotionPlane = 64;

namespace detail {

constexpr int kQueenSteps[8][2] = {{0, 1},  {1, 1},   {1, 0},  {1, -1},
                                   {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};

struct ActionTables {
  // Destination of each (from, plane < 64) in the mover's frame, -1 if off the board.
  std::array<int8_t, 64 * 64> target{};
  // Plane (< 64) of each (from, to) move in the mover's frame; 255 if none.
  std::array<std::array<uint8_t, 64>, 64> plane{};
};

inline constexpr ActionTables kActionTables = [] {
  ActionTables t{};
  for (auto& row : t.plane) row.fill(255);
  for (int from = 0; from < 64; ++from) {
    const auto set = [&](int plane, int df, int dr) {
      const int f = kGrid.file_of(from) + df, r = kGrid.rank_of(from) + dr;
      const bool on_board = f >= 0 && f < 8 && r >= 0 && r < 8;
      t.target[from * 64 + plane] = static_cast<int8_t>(on_board ? kGrid.square(f, r) : -1);
      if (on_board) t.plane[from][kGrid.square(f, r)] = static_cast<uint8_t>(plane);
    };
    for (int direction = 0; direction < 8; ++direction)
      for (int distance = 1; distance <= 7; ++distance)
        set(direction * 7 + distance - 1, kQueenSteps[direction][0] * distance,
            kQueenSteps[direction][1] * distance);
    for (int leap = 0; leap < 8; ++leap)
      set(kKnightPlane + leap, kKnightLeaps[leap][0], kKnightLeaps[leap][1]);
  }
  return t;
}();

// The action of each (from, to) move that is not an under-promotion, by the mover's colour
// and in board squares: one load where the move generator writes actions.
inline constexpr auto kMoveAction = [] {
  std::array<std::array<std::array<uint16_t, 64>, 64>, 2> table{};
  for (int us = 0; us < 2; ++us)
    for (int from = 0; from < 64; ++from)
      for (int to = 0; to < 64; ++to) {
        const int flip = us == kWhite ? 0 : 56;
        const int plane = kActionTables.plane[from ^ flip][to ^ flip];
        table[us][from][to] = static_cast<uint16_t>((from ^ flip) * kNumPlanes + plane);
      }
  return table;
}();

// Under-promotion piece order of planes 64..72.
constexpr Kind kUnderPromotions[3] = {kRook, kBishop, kCommoner};

}  // namespace detail

// The action of a legal move of the side `us`.
constexpr int encode_move(Move m, Color us) {
  if (!is_promotion(m) || promotion_kind(m) == kQueen)
    return detail::kMoveAction[us][move_from(m)][move_to(m)];
  const int flip = us == kWhite ? 0 : 56;
  const int from = move_from(m) ^ flip, to = move_to(m) ^ flip;
  const int piece = promotion_kind(m) == kRook ? 0 : promotion_kind(m) == kBishop ? 1 : 2;
  return from * kNumPlanes + kUnderPromotionPlane + 3 * piece +
         (kGrid.file_of(to) - kGrid.file_of(from) + 1);
}

// The destination of (from, plane) in the mover's frame, -1 if it leaves the board (an
// under-promotion must start on the seventh rank).
constexpr int action_target(int from, int plane) {
  if (plane < kUnderPromotionPlane) return detail::kActionTables.target[from * 64 + plane];
  const int file = kGrid.file_of(from) + (plane - kUnderPromotionPlane) % 3 - 1;
  return file >= 0 && file < 8 && kGrid.rank_of(from) == 6 ? kGrid.square(file, 7) : -1;
}

namespace detail {
// Each action as a move in the mover's frame, with the flag of an under-promotion plane,
// or 0 (no move starts and ends on a1) where it leaves the board: decoding is one load.
inline constexpr auto kActionMoves = [] {
  std::array<Move, kNumActions> moves{};
  for (int action = 0; action < kNumActions; ++action) {
    const int from = action / kNumPlanes, plane = action % kNumPlanes;
    const int to = action_target(from, plane);
    const int flag = plane < kUnderPromotionPlane
                         ? kNormal
                         : 2 + kUnderPromotions[(plane - kUnderPromotionPlane) / 3];
    if (to >= 0) moves[action] = make_move(from, to, flag);
  }
  return moves;
}();
}  // namespace detail

// The move an action stands for in position p, or 0 if the action names no move of a
// piece of the side to move onto a square on the board. It is the legal move with that
// action whenever one exists.
inline Move decode_action(const Position& p, int action) {
  if (action < 0 || action >= kNumActions) return 0;
  const Move framed = detail::kActionMoves[action];
  if (framed == 0) return 0;
  const int flip = p.side == kWhite ? 0 : 56;
  const int from = move_from(framed) ^ flip, to = move_to(framed) ^ flip;
  const Piece piece = p.board[from];
  if (piece == kNoPiece || color_of(piece) != p.side) return 0;
  int flag = kNormal;
  if (kind_of(piece) == kPawn) {
    if (kGrid.rank_of(move_to(framed)) == 7)
      flag = is_promotion(framed) ? move_flag(framed) : kPromoteQueen;
    else if (to == p.en_passant && kGrid.file_of(to) != kGrid.file_of(from))
      flag = kEnPassant;
  } else if (kind_of(piece) == kRoyal && !is_promotion(framed) &&
             !(kKnightAttacks[from] & square_bb(to))) {
    flag = kCastling;  // the royal knight's only queen-like move
  }
  return make_move(from, to, flag);
}

}  // namespace knightgym::knightmate
