// What Python hands C++, checked in one place, with the messages every face gives:
// integers (counts, seats), seeds and single actions. States, the vector env, agents and
// the teacher check their arguments here, and init_checks binds the same functions for
// the Python faces (knightgym._checks: Gymnasium, PettingZoo, SB3, balance, ladder,
// OpenSpiel), so that each rule is written once, in C++, and no check calls back into
// Python.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bindings/bindings.h"

namespace py = pybind11;

namespace knightgym::python {

namespace {

constexpr size_t kShown = 60;  // characters of a refused value that an error quotes

// Python's bool and numpy's: each has __index__ (numpy's deprecated), neither is a number
// a caller means.
bool is_bool(const py::handle& value) {
  const std::string_view type = Py_TYPE(value.ptr())->tp_name;
  return PyBool_Check(value.ptr()) || type == "numpy.bool_" || type == "numpy.bool";
}

}  // namespace

std::string type_name(const py::handle& value) {
  const py::handle type = py::type::handle_of(value);
  try {
    const auto name = py::str(type.attr("__qualname__")).cast<std::string>();
    const auto module = py::str(type.attr("__module__")).cast<std::string>();
    return module == "builtins" ? name : module + "." + name;
  } catch (const py::error_already_set&) {
    return Py_TYPE(value.ptr())->tp_name;
  }
}

std::string shortened(const py::handle& value) {
  std::string text;
  try {
    text = py::repr(value).cast<std::string>();
  } catch (const py::error_already_set&) {
    // An int of more digits than Python writes (sys.get_int_max_str_digits()).
    if (!PyLong_Check(value.ptr())) return "?";
    const auto bits = value.attr("bit_length")().cast<uint64_t>();
    return "<an integer of " + std::to_string(bits) + " bits>";
  }
  // Python counts characters, not bytes: the cut falls before character kShown.
  size_t characters = 0;
  size_t cut = text.size();
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xc0) == 0x80) continue;  // continues one
    if (characters == kShown) cut = i;
    ++characters;
  }
  if (characters <= kShown) return text;
  return text.substr(0, cut) + "... (" + std::to_string(characters) + " characters)";
}

std::optional<py::int_> integer_or_none(const py::handle& value) {
  if (is_bool(value) || !PyIndex_Check(value.ptr())) return std::nullopt;
  PyObject* index = PyNumber_Index(value.ptr());
  if (index != nullptr) return py::reinterpret_steal<py::int_>(index);
  // numpy arrays have __index__ but refuse it unless they hold one integer.
  if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw py::error_already_set();
  PyErr_Clear();
  return std::nullopt;
}

py::int_ integer_of(const py::handle& value, const std::string& name) {
  std::optional<py::int_> integer = integer_or_none(value);
  if (!integer)
    throw py::type_error(name + " must be an integer, got " + type_name(value) + " " +
                         shortened(value));
  return *integer;
}

py::int_ checked_integer(const std::string& name, const py::handle& value, const py::int_& low,
                         const py::int_& high) {
  const py::int_ integer = integer_of(value, name);
  if (integer < low)
    throw py::value_error(name + " must be at least " + shortened(low) + ", got " +
                          shortened(integer));
  if (integer > high)
    throw py::value_error(name + " must be at most " + shortened(high) + ", got " +
                          shortened(integer));
  return integer;
}

std::optional<uint64_t> checked_seed(const py::handle& seed, const char* name) {
  if (seed.is_none()) return std::nullopt;
  return python_seed(seed, name);
}

uint64_t python_seed(const py::handle& seed, const char* name) {
  return checked_integer(name, seed, py::int_(0), py::int_(kMostSeed)).cast<uint64_t>();
}

int checked_action(const py::handle& action, int num_actions) {
  const py::int_ index = integer_of(action, "action");
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow == 0 && value == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0 || value < 0 || value >= num_actions)
    throw py::value_error("action " + shortened(index) + " is out of range [0, " +
                          std::to_string(num_actions) + ")");
  return static_cast<int>(value);
}

void init_checks(py::module_& m) {
  m.attr("MOST_SEED") = py::int_(kMostSeed);
  m.def(
      "shortened", [](const py::object& value) { return shortened(value); }, py::arg("value"),
      "`value` as an error quotes it: its repr(), cut after 60 characters with the whole "
      "length said.");
  m.def(
      "checked_integer",
      [](const std::string& name, const py::object& value, const py::int_& low,
         const py::int_& high) { return checked_integer(name, value, low, high); },
      py::arg("name"), py::arg("value"), py::arg("low"), py::arg("high"),
      "`value` as an int if it is an integer (a Python int, a numpy integer or anything else "
      "with __index__; not a bool) in [low, high]; otherwise TypeError or ValueError naming "
      "`name` and the value.");
  m.def(
      "checked_seed",
      [](const py::object& seed, const std::string& name, const py::int_& most) -> py::object {
        if (seed.is_none()) return py::none();
        return checked_integer(name, seed, py::int_(0), most);
      },
      py::arg("seed"), py::arg("name") = "seed", py::arg("most") = py::int_(kMostSeed),
      "`seed` as an int, or None for None (no seed): the one rule of every interface that "
      "takes a seed (make and the envs, their reset, states, agents, PettingZoo, SB3's "
      "seed(), OpenSpiel's rng_seed with its own `most`). An integer (not a bool, a float "
      "or a string) in [0, most]; otherwise TypeError or ValueError naming `name`.");
  m.def(
      "checked_action",
      [](const py::object& action, int num_actions) { return checked_action(action, num_actions); },
      py::arg("action"), py::arg("num_actions"),
      "`action` as an int if it is an integer (a Python int, a numpy integer or a 0-d integer "
      "array; not a bool) in [0, num_actions); otherwise TypeError or ValueError naming the "
      "action as given: nothing is rounded, parsed or wrapped around.");
}

}  // namespace knightgym::python
