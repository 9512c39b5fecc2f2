// FEN and UCI move text for Knightmate, with Fairy-Stockfish's `knightmate` conventions:
// K/k the royal knight, M/m the commoner, no N/n; moves as e2e4, b7b8m, castling e1g1.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "env/games/knightmate/position.h"

namespace knightgym::knightmate {

inline constexpr std::string_view kStartFen =
    "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1";

// Reads a FEN (the two counters may be left out). Throws std::invalid_argument naming
// what is wrong: an unknown letter, a rank without 8 squares, not one royal knight a
// side, a pawn on the first or last rank, more than 16 pieces or 8 pawns a side, a
// castling right without its royal knight and rook at home, an impossible en-passant
// square, or the side not to move in check. An en-passant square that no pawn can
// capture on is dropped, as Fairy-Stockfish does.
Position parse_fen(std::string_view fen);
std::string to_fen(const Position& p);

// The piece-placement field alone.
std::array<Piece, 64> parse_placement(std::string_view text);
std::string placement_to_string(const std::array<Piece, 64>& board);

std::string move_to_uci(Move m);

}  // namespace knightgym::knightmate
