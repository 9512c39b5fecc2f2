// knightgym.tailten: the score of a Tailten state (kingdoms, territory, match points),
// which the returns only sign. The rules: docs/rules/tailten.md. Compiled only into the
// Python module (bindings/game_extras.h).
#include <pybind11/stl.h>

#include "bindings/game_extras.h"
#include "env/games/tailten/tailten.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

py::dict score(const AnyState& state) {
  const auto& typed = typed_state<Tailten>(state);
  const Tailten::Score score = typed.rules().score(typed.state());
  py::dict out;
  out["kingdoms"] = score.kingdoms;
  out["territory"] = score.territory;
  out["match_points"] = score.match_points;
  out["winner"] = score.winner;
  return out;
}

void init(py::module_& tt) {
  tt.def("score", &score, py::arg("state"),
         "{'kingdoms': [red, blue], 'territory': [red, blue], 'match_points': [red, blue], "
         "'winner': 0, 1 or -1 for a draw} of this position (final once the game is over). "
         "Raises ValueError for a state of another game.");
}

const bool registered = register_game_extras(
    "tailten", "Tailten's score. Games and states: knightgym.load_game(\"tailten(...)\").", &init);

}  // namespace
}  // namespace knightgym::python
