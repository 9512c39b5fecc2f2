// A game's Python extras (knightgym.<game>: functions beyond the API every game shares)
// live in the game's folder, env/games/<game>/python_extras.cc, which only the Python
// module compiles (bindings/CMakeLists.txt finds them). Each file registers itself when
// the module loads, so neither module.cc nor any list names a game:
//
//   const bool registered = register_game_extras("tailten", "Tailten's score...", &init);
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "env/registry/game_adapter.h"

namespace knightgym::python {

using ExtrasInit = void (*)(pybind11::module_& submodule);

// Records the submodule knightgym.<name> with its docstring and the function that fills
// it; returns true, for a namespace-scope initializer.
bool register_game_extras(const char* name, const char* doc, ExtrasInit init);

// Defines every registered submodule in `m`, and `m.game_extras`, their names.
void init_game_extras(pybind11::module_& m);

// The typed state behind `state`; ValueError naming both games if it is another game's.
template <Game G>
const StateAdapter<G>& typed_state(const AnyState& state) {
  const auto* adapter = dynamic_cast<const StateAdapter<G>*>(&state);
  if (!adapter)
    throw pybind11::value_error("expected a " + std::string(G::kName) + " state, got one of " +
                                state.game().spec());
  return *adapter;
}

}  // namespace knightgym::python
