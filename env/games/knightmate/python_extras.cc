// knightgym.knightmate: perft, perft_divide and legal moves of the Knightmate engine from a
// FEN, for differential tests against Fairy-Stockfish. The rules: docs/rules/knightmate.md.
// Compiled only into the Python module (bindings/game_extras.h).
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bindings/game_extras.h"
#include "env/games/knightmate/fen.h"
#include "env/games/knightmate/perft.h"
#include "env/games/knightmate/position.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

using knightmate::Position;

// "startpos" or a FEN; a bad FEN throws std::invalid_argument (ValueError) naming the problem.
Position read_fen(const std::string& fen) {
  return fen == "startpos" ? Position::start() : knightmate::parse_fen(fen);
}

void check_depth(int depth, int least) {
  if (depth < least)
    throw py::value_error("depth must be >= " + std::to_string(least) + ", got " +
                          std::to_string(depth));
}

uint64_t perft(const std::string& fen, int depth) {
  check_depth(depth, 0);
  const Position p = read_fen(fen);
  py::gil_scoped_release release;
  return knightmate::perft(p, depth);
}

py::dict perft_divide(const std::string& fen, int depth) {
  check_depth(depth, 1);
  const Position p = read_fen(fen);
  std::vector<std::pair<std::string, uint64_t>> lines;
  {
    py::gil_scoped_release release;
    for (const auto& [move, count] : knightmate::perft_divide(p, depth))
      lines.emplace_back(knightmate::move_to_uci(move), count);
    std::sort(lines.begin(), lines.end());
  }
  py::dict out;
  for (const auto& [move, count] : lines) out[py::str(move)] = count;
  return out;
}

std::vector<std::string> legal_moves(const std::string& fen) {
  const Position p = read_fen(fen);
  knightmate::Move moves[knightmate::kMaxMoves];
  const int count = p.legal_moves(moves);
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back(knightmate::move_to_uci(moves[i]));
  std::sort(out.begin(), out.end());
  return out;
}

void init(py::module_& km) {
  km.attr("START_FEN") = std::string(knightmate::kStartFen);
  km.def("perft", &perft, py::arg("fen") = "startpos", py::arg("depth"),
         "Leaf nodes of the legal move tree `depth` plies deep from `fen` (\"startpos\" or a "
         "FEN); draw rules do not cut the tree. Raises ValueError for a bad FEN or depth < 0. "
         "Releases the GIL while counting.");
  km.def("perft_divide", &perft_divide, py::arg("fen") = "startpos", py::arg("depth"),
         "{UCI move: perft(depth - 1) below it} for each legal move, sorted by move text; the "
         "values add up to perft(fen, depth). Raises ValueError for a bad FEN or depth < 1.");
  km.def("legal_moves", &legal_moves, py::arg("fen") = "startpos",
         "The legal moves of `fen` in UCI notation (e2e4, e1g1 castling, b7b8m), sorted.");
}

const bool registered = register_game_extras(
    "knightmate",
    "Knightmate's move generator from a FEN (Fairy-Stockfish's knightmate conventions: K/k "
    "royal knight, M/m commoner). Games and states: knightgym.load_game(\"knightmate(...)\").",
    &init);

}  // namespace
}  // namespace knightgym::python
