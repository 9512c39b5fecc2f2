// knightgym.<game>: what a game offers beyond the API every game shares, made from the
// registry so that no file here names a game:
//   - each extra of its states (env/core/extras.h) as f(state), the JSON answer as Python
//     values;
//   - for a game a UCI engine plays (env/core/uci_game.h): START_FEN, and perft,
//     perft_divide and legal_moves from a FEN, for differential tests against the engine.
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings/bindings.h"
#include "env/registry/registry.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

void define_extra(py::module_& submodule, std::string game, const ExtraInfo& extra) {
  const std::string name(extra.name);
  submodule.def(
      name.c_str(),
      [game, name](const AnyState& state) {
        if (state.game().name() != game)
          throw py::value_error("expected a " + game + " state, got one of " + state.game().spec());
        return from_json(state.extra(name));
      },
      py::arg("state"),
      (std::string(extra.doc) + " Raises ValueError for a state of another game.").c_str());
}

void define_fen_functions(py::module_& submodule, const GameEntry& entry) {
  const std::shared_ptr<const AnyGame> game = load_game(entry.name);
  const std::string start(entry.uci->start_fen);
  // "startpos" or a FEN; a bad FEN raises ValueError naming the problem.
  const auto read = [game, start](const std::string& fen) {
    return game->state_from_fen(fen == "startpos" ? start : fen);
  };
  submodule.attr("START_FEN") = start;
  submodule.def(
      "perft",
      [read](const std::string& fen, int depth) {
        const std::unique_ptr<AnyState> state = read(fen);
        py::gil_scoped_release release;
        return state->perft(depth);
      },
      py::arg("fen") = "startpos", py::arg("depth"),
      "Leaf nodes of the legal move tree `depth` plies deep from `fen` (\"startpos\" or a "
      "FEN); draw rules do not cut the tree. Raises ValueError for a bad FEN or depth < 0. "
      "Releases the GIL while counting.");
  submodule.def(
      "perft_divide",
      [read](const std::string& fen, int depth) {
        const std::unique_ptr<AnyState> state = read(fen);
        std::vector<std::pair<std::string, uint64_t>> lines;
        {
          py::gil_scoped_release release;
          lines = state->perft_divide(depth);
        }
        py::dict out;
        for (const auto& [move, count] : lines) out[py::str(move)] = count;
        return out;
      },
      py::arg("fen") = "startpos", py::arg("depth"),
      "{UCI move: perft(depth - 1) below it} for each legal move, sorted by move text; the "
      "values add up to perft(fen, depth). Raises ValueError for a bad FEN or depth < 1.");
  submodule.def(
      "legal_moves",
      [read](const std::string& fen) {
        const std::unique_ptr<AnyState> state = read(fen);
        std::vector<std::string> moves;
        for (const Action action : state->legal_actions())
          moves.push_back(state->action_to_string(action));
        std::sort(moves.begin(), moves.end());
        return moves;
      },
      py::arg("fen") = "startpos", "The legal moves of `fen` in UCI notation, sorted.");
}

}  // namespace

void init_game_extras(py::module_& m) {
  py::list names;
  for (const GameEntry& entry : registered_games()) {
    if (entry.extras.empty() && !entry.uci) continue;
    const std::string name(entry.name);
    std::string doc = "What " + name + " offers beyond every game's API (" +
                      std::string(entry.summary) + "). Games and states: knightgym.load_game(\"" +
                      name + "(...)\").";
    if (entry.uci)
      doc += " Its FENs and moves are those of the UCI variant " + std::string(entry.uci->variant) +
             ".";
    py::module_ submodule = m.def_submodule(name.c_str(), doc.c_str());
    for (const ExtraInfo& extra : entry.extras) define_extra(submodule, name, extra);
    if (entry.uci) define_fen_functions(submodule, entry);
    names.append(name);
  }
  m.attr("game_extras") = names;
}

}  // namespace knightgym::python
