// knightgym.knights_challenge: the final tally of a Knights Challenge state, which the
// returns only rank. The rules: docs/rules/knights_challenge.md. Compiled only into the
// Python module (bindings/game_extras.h).
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/game_extras.h"
#include "env/games/knights_challenge/knights_challenge.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

std::vector<int> tallies(const AnyState& state) {
  const auto& adapter = typed_state<KnightsChallenge>(state);
  std::vector<int> out(static_cast<size_t>(adapter.rules().num_sides()));
  adapter.rules().tallies(adapter.state(), out.data());
  return out;
}

std::vector<int> sides(const AnyState& state) {
  const auto& rules = typed_state<KnightsChallenge>(state).rules();
  std::vector<int> out;
  for (int player = 0; player < rules.info().num_players; ++player)
    out.push_back(rules.side_of_player(player));
  return out;
}

void init(py::module_& kc) {
  kc.def("tallies", &tallies, py::arg("state"),
         "The tally of each side in this position (camp knights, lines, captures, camp "
         "bonuses): one per colour in ffa4, ffa3 and duel; one per alliance or team "
         "(colours 0 and 2, then 1 and 3) in alliance2 and team4. Raises ValueError for a "
         "state of another game.");
  kc.def("sides", &sides, py::arg("state"),
         "The side of each player, the index into tallies(state).");
}

const bool registered = register_game_extras("knights_challenge",
                                             "Knights Challenge's tallies. Games and states: "
                                             "knightgym.load_game(\"knights_challenge(...)\").",
                                             &init);

}  // namespace
}  // namespace knightgym::python
