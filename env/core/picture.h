// What a drawing of a state shows, in one vocabulary for every game: the optional
// capability `draw(state, picture)`. C++ says what is where; the Python package draws it
// (bindings/python/knightgym/svg.py picks the shapes and colours).
//
//   grid     the board's squares (env/core/grid.h), drawn with rank 1 at the bottom
//   sides    the colours pieces and zones belong to, by name ("White", "red"), in order
//   to_move  the side to move, -1 once the game is over
//   cells    one per square: the piece on it (kind, side, how many stacked), its number
//            (Knight Fight), the side whose zone it lies in (a camp) and its marks
//   links    pairs of squares joined by a line in a side's colour (Tailten's bridges)
//   reserves pieces of a side off the board, by kind and count (Double-Duel's reserves)
//   notes    lines of text beside the board: scores, reserves, captures, who moves
//
// Drawing is not a hot path: a picture is a few vectors, built on demand.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "env/core/game.h"
#include "env/core/grid.h"

namespace knightgym {

enum class PieceKind : uint8_t {
  kNone,
  kKnight,
  kRoyalKnight,  // Knightmate's royal piece
  kPawn,
  kBishop,
  kRook,
  kQueen,
  kCommoner,  // moves like a chess king, not royal
  kRingfort,  // Tailten
};
inline constexpr std::string_view kPieceKindNames[] = {
    "none", "knight", "royal_knight", "pawn", "bishop", "rook", "queen", "commoner", "ringfort"};

// Marks of a square, as bits.
enum CellMark : uint16_t {
  kMarkOffBoard = 1 << 0,    // inside the grid but not a square of the board (Tailten's corners)
  kMarkOutOfPlay = 1 << 1,   // no longer playable (Knight Fight's visited and erased squares)
  kMarkDouble = 1 << 2,      // Knight Fight: holds a double (00, 11, ..., 99)
  kMarkSafe = 1 << 3,        // Knights Challenge: knights here cannot be captured
  kMarkHill = 1 << 4,        // Tailten: a hill a ringfort may stand on
  kMarkSelected = 1 << 5,    // the piece chosen by the turn's decisions so far
  kMarkVacated = 1 << 6,     // Double-Duel: the field the knight left this turn
  kMarkCheck = 1 << 7,       // Knightmate: the royal knight in check
  kMarkStuck = 1 << 8,       // Knights Challenge: a knight stuck in a hostile camp
  kMarkAttackable = 1 << 9,  // Double-Duel: an enemy knight the mover may capture
  kNumMarks = 10,
};
inline constexpr std::string_view kCellMarkNames[kNumMarks] = {
    "off_board", "out_of_play", "double", "safe",  "hill",
    "selected",  "vacated",     "check",  "stuck", "attackable"};

struct Cell {
  PieceKind piece = PieceKind::kNone;
  int8_t owner = -1;    // the side of the piece
  uint8_t count = 0;    // pieces stacked on the square (Double-Duel's double pawns: 2)
  int16_t number = -1;  // a number printed on the square, -1 if none
  int8_t zone = -1;     // the side whose zone (camp) holds the square
  uint16_t marks = 0;   // CellMark bits

  void put(PieceKind kind, int side, int how_many = 1) {
    piece = kind;
    owner = static_cast<int8_t>(side);
    count = static_cast<uint8_t>(how_many);
  }
};

// Pieces a side holds off the board.
struct Reserve {
  int side = 0;
  PieceKind piece = PieceKind::kNone;
  int count = 0;
};

struct Picture {
  Grid grid;
  std::vector<std::string> sides;
  int to_move = -1;
  std::vector<Cell> cells;
  std::vector<std::array<int, 3>> links;  // square, square, side
  std::vector<Reserve> reserves;
  std::vector<std::string> notes;

  // An empty board of `grid` for `sides`.
  void reset(Grid board, std::vector<std::string> side_names) {
    grid = board;
    sides = std::move(side_names);
    to_move = -1;
    cells.assign(static_cast<size_t>(grid.size()), Cell{});
    links.clear();
    reserves.clear();
    notes.clear();
  }
};

template <class G>
concept Drawable = requires(const G game, const typename G::State& state, Picture& picture) {
  { game.draw(state, picture) } -> std::same_as<void>;
};

// The lines of a game's text rendering, for the notes.
inline std::vector<std::string> text_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The picture of `state`: the game's own drawing, or for a game without one an empty
// board of its observation's size with the text rendering as its notes.
template <Game G>
Picture draw(const G& game, const typename G::State& state) {
  Picture picture;
  if constexpr (Drawable<G>) {
    game.draw(state, picture);
  } else {
    const Shape shape = game.info().observation_shape;
    std::vector<std::string> sides;
    for (int p = 0; p < game.info().num_players; ++p)
      sides.push_back("player " + std::to_string(p));
    picture.reset({shape.width, shape.height}, std::move(sides));
    picture.to_move = game.terminal(state) ? -1 : game.current_player(state);
    picture.notes = text_lines(game.render(state));
  }
  return picture;
}

}  // namespace knightgym
