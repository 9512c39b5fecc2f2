// One init function per concern; module.cc only calls them.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace knightgym {
struct ParamInfo;
}  // namespace knightgym

namespace knightgym::python {

// {"name", "type", "default", "choices", "doc"} of a game's or an agent's parameter.
pybind11::dict describe(const ParamInfo& param);

// An action index given from Python, checked rather than coerced: a Python int or a numpy
// integer (anything with __index__ but a bool), in [0, num_actions). Raises TypeError
// naming the type and the value (cut short) of anything else, and ValueError naming the
// action as given if it is out of range; never wraps a value around.
int checked_action(const pybind11::handle& action, int num_actions);

// The Python value of a JSON text that the C++ side wrote (util/json_writer.h): what a
// C++ struct becomes in Python, in the one shape its file on disk has.
inline pybind11::object from_json(const std::string& json) {
  return pybind11::module_::import("json").attr("loads")(json);
}

void init_games(pybind11::module_& m);
void init_states(pybind11::module_& m);
void init_vector_env(pybind11::module_& m);
void init_game_extras(pybind11::module_& m);  // knightgym.<game>, from the registry
void init_teacher(pybind11::module_& m);
void init_agents(pybind11::module_& m);      // knightgym.agents
void init_balance(pybind11::module_& m);     // run_balance, for knightgym.balance
void init_ladder(pybind11::module_& m);      // run_ladder, for knightgym.ladder
void init_statistics(pybind11::module_& m);  // for knightgym.statistics
void init_run_files(pybind11::module_& m);   // training settings and run folders

}  // namespace knightgym::python
