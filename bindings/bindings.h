// One init function per concern; module.cc only calls them.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "util/fields.h"

namespace knightgym::python {

template <class T>
struct IsList : std::false_type {};
template <class T>
struct IsList<std::vector<T>> : std::true_type {};
template <class T>
struct IsPairList : std::false_type {};
template <class K, class V>
struct IsPairList<std::vector<std::pair<K, V>>> : std::true_type {};

// An action index given from Python, checked rather than coerced: a Python int or a numpy
// integer (anything with __index__ but a bool), in [0, num_actions). Raises TypeError
// naming the type and the value (cut short) of anything else, and ValueError naming the
// action as given if it is out of range; never wraps a value around.
int checked_action(const pybind11::handle& action, int num_actions);

// The Python value of a C++ result: a struct with fields (util/fields.h) as a dict of its
// fields, a list of pairs as a dict, any other list as a list, and anything else as
// pybind11 casts it. The one place where C++ results become Python's plain data.
template <class T>
pybind11::object to_python(const T& value) {
  if constexpr (HasFields<T>) {
    pybind11::dict out;
    for_each_field(value, [&](std::string_view name, const auto& member) {
      out[pybind11::str(std::string(name))] = to_python(member);
    });
    return out;
  } else if constexpr (IsPairList<T>::value) {
    pybind11::dict out;
    for (const auto& [key, item] : value) out[to_python(key)] = to_python(item);
    return out;
  } else if constexpr (IsList<T>::value) {
    pybind11::list out;
    for (const auto& item : value) out.append(to_python(item));
    return out;
  } else {
    return pybind11::cast(value);
  }
}

// The Python value of a JSON text that the C++ side wrote (util/json_writer.h): what a
// C++ struct becomes in Python, in the one shape its file on disk has.
inline pybind11::object from_json(const std::string& json) {
  return pybind11::module_::import("json").attr("loads")(json);
}

// `seed` as knightgym.make takes it (knightgym._checks.checked_seed, the one rule: an
// integer in [0, 2**64 - 1], not a bool, a float or a string), or the TypeError or
// ValueError that names `name`.
inline uint64_t python_seed(const pybind11::handle& seed, const char* name = "seed") {
  return pybind11::module_::import("knightgym._checks")
      .attr("checked_seed")(seed, name)
      .cast<uint64_t>();
}

void init_games(pybind11::module_& m);
void init_states(pybind11::module_& m);
void init_vector_env(pybind11::module_& m);
void init_game_extras(pybind11::module_& m);  // knightgym.<game>, from the registry
void init_teacher(pybind11::module_& m);
void init_agents(pybind11::module_& m);       // knightgym.agents
void init_balance(pybind11::module_& m);      // run_balance, for knightgym.balance
void init_ladder(pybind11::module_& m);       // run_ladder, for knightgym.ladder
void init_statistics(pybind11::module_& m);   // for knightgym.statistics
void init_run_files(pybind11::module_& m);    // training settings and run folders
void init_output_lock(pybind11::module_& m);  // OutputLock, OutputRefused as OSError

}  // namespace knightgym::python
