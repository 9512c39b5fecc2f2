// One init function per concern; module.cc only calls them.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "env/core/params.h"
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

// What Python hands C++, checked once (checks.cc, bound for the Python faces by
// init_checks as knightgym._checks): each raises TypeError or ValueError naming the
// argument and quoting the value as `shortened` writes it.

// The largest seed: the envs, states and agents take 64-bit unsigned seeds.
inline constexpr uint64_t kMostSeed = std::numeric_limits<uint64_t>::max();

// `value` as an error quotes it: its repr(), cut after 60 characters with the whole length
// said (Python's messages quote with it too: knightgym._checks.shortened).
std::string shortened(const pybind11::handle& value);

// The name of `value`'s type as errors give it: "float", "numpy.float32".
std::string type_name(const pybind11::handle& value);

// `value` as a Python int if it is an integer: a Python int, a numpy integer, anything else
// with __index__ (a 0-d integer array), but not a bool (Python's or numpy's); nullopt if
// it is not one.
std::optional<pybind11::int_> integer_or_none(const pybind11::handle& value);

// integer_or_none's integer, or TypeError "`name` must be an integer, got <type> <value>".
pybind11::int_ integer_of(const pybind11::handle& value, const std::string& name);

// An integer in [low, high] (knightgym.make's num_envs, num_threads, seat): ValueError
// "`name` must be at least/most ..." outside it.
pybind11::int_ checked_integer(const std::string& name, const pybind11::handle& value,
                               const pybind11::int_& low, const pybind11::int_& high);

// A seed: an integer in [0, 2**64 - 1], not a bool, a float or a string. python_seed
// refuses None; checked_seed reads it as no seed.
uint64_t python_seed(const pybind11::handle& seed, const char* name = "seed");
std::optional<uint64_t> checked_seed(const pybind11::handle& seed, const char* name = "seed");

// An action index, checked rather than coerced: an integer (integer_of) in
// [0, num_actions); ValueError naming the action as given if it is out of range, however
// wide; never wraps a value around.
int checked_action(const pybind11::handle& action, int num_actions);

// (key, value) texts that Python's keywords set over a spec's parameters.
using SpecParams = std::vector<std::pair<std::string, std::string>>;

// The spec `text` with `params` set over it, as knightgym.make's keywords are: a key the
// text has takes its new value where it stands, a new key goes at the end. Parsed once;
// the values reach the game as given. Throws std::invalid_argument for a bad spec.
Spec spec_with(std::string_view text, const SpecParams& params);

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

void init_checks(pybind11::module_& m);  // knightgym._checks' integers, seeds, actions
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
