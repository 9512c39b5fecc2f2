// What a drawing of a state shows, in one vocabulary for every game: the optional
// capability `draw(state, picture)`. C++ says what is where and how each kind of piece and
// each mark looks; the Python package draws it (bindings/python/knightgym/svg.py), knowing
// no game: a game declares its own pieces and marks, in its folder.
//
//   grid     the board's squares (env/core/grid.h), drawn with rank 1 at the bottom
//   sides    the colours pieces and zones belong to, by name ("White", "red"), in order
//   pieces   the kinds of piece the game shows, each a glyph (or a ring) and a halo
//   marks    the marks a square may carry, each drawn in one of a few looks (MarkLook)
//   to_move  the side to move, -1 once the game is over
//   cells    one per square: the piece on it (its kind, side, how many stacked), its
//            number, the side whose zone it lies in (a camp) and its marks
//   links    pairs of squares joined by a line in a side's colour (bridges)
//   reserves pieces of a side off the board, by kind and count
//   notes    lines of text beside the board: scores, reserves, captures, who moves
//
// Drawing is not a hot path: a picture is a few vectors, built on demand.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "env/core/game.h"
#include "env/core/grid.h"

namespace knightgym {

// How a kind of piece is drawn: its glyph (UTF-8 text in the side's colour, chess's
// figurines for the chess pieces), or none for a ring (a disc in the side's colour with a
// hole, a fort); and a halo, a circle in a colour of its own around it (a royal piece), or
// none.
struct PieceStyle {
  std::string_view name;
  std::string_view glyph;
  std::string_view halo;  // "#rrggbb", or "" for none
};

// How a mark of a square is drawn: one of a few looks, in a colour (and an accent) the
// game chooses.
enum class MarkLook : uint8_t {
  kBlank,        // inside the grid but not a square of the board: no fill, no zone
  kShaded,       // no longer playable: the square greyed, its number struck out
  kTerrain,      // the square filled with `colour`, a mound in `accent` on it
  kNumber,       // the square's number in `colour`
  kStar,         // a star, in the corner when a piece stands on the square
  kFrame,        // a frame in `colour` inside the square
  kDashedFrame,  // a dashed frame in `colour`
  kSideFrame,    // a frame around the piece in its side's outline colour
  kHalo,         // a disc in `colour` behind the piece
  kDashedHalo,   // a dashed circle in `colour` around the piece
};
inline constexpr std::string_view kMarkLookNames[] = {
    "blank", "shaded",       "terrain",    "number", "star",
    "frame", "dashed_frame", "side_frame", "halo",   "dashed_halo"};

struct MarkStyle {
  std::string_view name;
  MarkLook look;
  std::string_view colour = "";
  std::string_view accent = "";
};

// What several games show alike: one name and one look each.
namespace styles {
inline constexpr PieceStyle kKnight{"knight", "\u265e", ""};
inline constexpr PieceStyle kPawn{"pawn", "\u265f", ""};
inline constexpr MarkStyle kOffBoard{"off_board", MarkLook::kBlank};
inline constexpr MarkStyle kOutOfPlay{"out_of_play", MarkLook::kShaded};
inline constexpr MarkStyle kSelected{"selected", MarkLook::kFrame, "#1565c0"};
}  // namespace styles

// The most marks a game may declare: a cell's marks are bits.
inline constexpr int kMaxMarks = 16;

struct Cell {
  int8_t piece = -1;    // the kind of the piece on it, an index into Picture::pieces; -1: none
  int8_t owner = -1;    // the side of the piece
  uint8_t count = 0;    // pieces stacked on the square (Double-Duel's double pawns: 2)
  int16_t number = -1;  // a number printed on the square, -1 if none
  int8_t zone = -1;     // the side whose zone (camp) holds the square
  uint16_t marks = 0;   // bit i: the mark Picture::marks[i]

  void put(int kind, int side, int how_many = 1) {
    piece = static_cast<int8_t>(kind);
    owner = static_cast<int8_t>(side);
    count = static_cast<uint8_t>(how_many);
  }
};

// Pieces a side holds off the board.
struct Reserve {
  int side = 0;
  int piece = 0;  // an index into Picture::pieces
  int count = 0;
};

struct Picture {
  Grid grid;
  std::vector<std::string> sides;
  std::span<const PieceStyle> pieces;  // the game's, static
  std::span<const MarkStyle> marks;    // the game's, static; at most kMaxMarks
  int to_move = -1;
  std::vector<Cell> cells;
  std::vector<std::array<int, 3>> links;  // square, square, side
  std::vector<Reserve> reserves;
  std::vector<std::string> notes;

  // An empty board of `grid` for `sides`, with the game's kinds of pieces and marks.
  void reset(Grid board, std::vector<std::string> side_names,
             std::span<const PieceStyle> piece_styles = {},
             std::span<const MarkStyle> mark_styles = {}) {
    grid = board;
    sides = std::move(side_names);
    pieces = piece_styles;
    marks = mark_styles;
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
