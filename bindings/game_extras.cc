#include "bindings/game_extras.h"

#include <algorithm>
#include <vector>

namespace py = pybind11;

namespace knightgym::python {
namespace {

struct Extras {
  const char* name;
  const char* doc;
  ExtrasInit init;
};

// A function-local static: the extras files register while the module loads, in an
// order no one fixes.
std::vector<Extras>& registry() {
  static std::vector<Extras> extras;
  return extras;
}

}  // namespace

bool register_game_extras(const char* name, const char* doc, ExtrasInit init) {
  registry().push_back({name, doc, init});
  return true;
}

void init_game_extras(py::module_& m) {
  std::vector<Extras> extras = registry();
  std::sort(extras.begin(), extras.end(),
            [](const Extras& a, const Extras& b) { return std::string_view(a.name) < b.name; });
  py::list names;
  for (const Extras& e : extras) {
    py::module_ submodule = m.def_submodule(e.name, e.doc);
    e.init(submodule);
    names.append(e.name);
  }
  m.attr("game_extras") = names;
}

}  // namespace knightgym::python
