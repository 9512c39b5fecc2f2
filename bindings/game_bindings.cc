// Games: the registry, specs and Game objects.
#include <pybind11/stl.h>

#include "bindings/bindings.h"
#include "env/registry/registry.h"

namespace py = pybind11;

namespace knightgym::python {

py::dict describe(const ParamInfo& param) {
  py::dict out;
  out["name"] = param.name;
  out["type"] = param.type;
  out["default"] = param.default_value;
  out["choices"] = param.choices;
  out["doc"] = param.doc;
  return out;
}

namespace {

py::list games() {
  py::list out;
  for (const GameEntry& entry : registered_games()) {
    const auto game = entry.load(Spec{std::string(entry.name), {}});
    py::list params;
    for (const ParamInfo& param : game->params()) params.append(describe(param));
    py::dict item;
    item["name"] = std::string(entry.name);
    item["summary"] = std::string(entry.summary);
    item["parameters"] = params;
    out.append(item);
  }
  return out;
}

}  // namespace

void init_games(py::module_& m) {
  m.def("games", &games, "The registered games with their parameters.");
  m.def(
      "parse_spec",
      [](const std::string& text) {
        const Spec spec = parse_spec(text);
        return py::make_tuple(spec.name, spec.params);
      },
      "Splits 'name(k=v,...)' into (name, [(k, v), ...]).");
  m.def(
      "format_spec",
      [](const std::string& name, const std::vector<std::pair<std::string, std::string>>& params) {
        return format_spec(Spec{name, params});
      },
      "Joins a name and (key, value) pairs into a spec string.");

  py::class_<AnyGame, std::shared_ptr<AnyGame>>(m, "Game")
      .def_property_readonly("name", [](const AnyGame& g) { return std::string(g.name()); })
      .def_property_readonly("spec", &AnyGame::spec, "Every parameter spelled out.")
      .def_property_readonly("num_players", [](const AnyGame& g) { return g.info().num_players; })
      .def_property_readonly("num_actions", [](const AnyGame& g) { return g.info().num_actions; })
      .def_property_readonly("observation_shape",
                             [](const AnyGame& g) {
                               const Shape& s = g.info().observation_shape;
                               return py::make_tuple(s.channels, s.height, s.width);
                             })
      .def_property_readonly("max_game_length",
                             [](const AnyGame& g) { return g.info().max_game_length; })
      .def_property_readonly("parameters",
                             [](const AnyGame& g) {
                               py::dict out;
                               for (const ParamInfo& p : g.params()) out[py::str(p.name)] = p.value;
                               return out;
                             })
      .def("new_initial_state", &AnyGame::new_initial_state, py::arg("seed") = 0,
           "A new episode; the seed draws the game's randomness (e.g. Knight Fight's layout).")
      .def("deserialize_state", &AnyGame::deserialize_state, py::arg("text"))
      .def("__repr__", [](const AnyGame& g) { return "<knightgym.Game " + g.spec() + ">"; });

  m.def(
      "load_game",
      [](const std::string& spec) {
        return std::const_pointer_cast<AnyGame>(load_game(std::string_view(spec)));
      },
      py::arg("spec"), "A game from a spec such as 'knight_fight(double_erase=forced)'.");
}

}  // namespace knightgym::python
