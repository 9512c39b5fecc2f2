// knightgym.tailten: the score of a Tailten state (kingdoms, territory, match points),
// which the returns only sign. The rules: docs/rules/tailten.md.
#include <pybind11/stl.h>

#include "bindings/bindings.h"
#include "env/games/tailten/tailten.h"
#include "env/registry/game_adapter.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

py::dict score(const AnyState& state) {
  const auto* adapter = dynamic_cast<const StateAdapter<Tailten>*>(&state);
  if (!adapter)
    throw py::value_error("expected a tailten state, got one of " + state.game().spec());
  const Tailten::Score score = adapter->rules().score(adapter->state());
  py::dict out;
  out["kingdoms"] = score.kingdoms;
  out["territory"] = score.territory;
  out["match_points"] = score.match_points;
  out["winner"] = score.winner;
  return out;
}

}  // namespace

void init_tailten(py::module_& m) {
  py::module_ tt = m.def_submodule(
      "tailten", "Tailten's score. Games and states: knightgym.load_game(\"tailten(...)\").");
  tt.def("score", &score, py::arg("state"),
         "{'kingdoms': [red, blue], 'territory': [red, blue], 'match_points': [red, blue], "
         "'winner': 0, 1 or -1 for a draw} of this position (final once the game is over). "
         "Raises ValueError for a state of another game.");
}

}  // namespace knightgym::python
