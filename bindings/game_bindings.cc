// Games: the registry, specs and Game objects.
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings/bindings.h"
#include "env/registry/registry.h"

namespace py = pybind11;

namespace knightgym::python {

namespace {

py::list registered_names() {
  py::list out;
  for (const GameEntry& entry : registered_games()) out.append(std::string(entry.name));
  return out;
}

py::dict describe_game(const std::string& name) {
  const auto game = load_game(Spec{name, {}});  // an unknown name throws, listing the games
  py::list params;
  for (const ParamInfo& param : game->params()) params.append(to_python(param));
  py::dict item;
  item["name"] = name;
  for (const GameEntry& entry : registered_games())
    if (entry.name == name) item["summary"] = std::string(entry.summary);
  item["parameters"] = params;
  return item;
}

}  // namespace

Spec spec_with(std::string_view text, const SpecParams& params) {
  Spec spec = parse_spec(text);
  for (const auto& [key, value] : params) {
    const auto same = [&key](const auto& pair) { return pair.first == key; };
    const auto found = std::find_if(spec.params.begin(), spec.params.end(), same);
    if (found != spec.params.end())
      found->second = value;
    else
      spec.params.emplace_back(key, value);
  }
  return spec;
}

void init_games(py::module_& m) {
  m.def("registered_names", &registered_names, "The registered games' names (pyspiel's name).");
  m.def("games", &registered_names, "The registered games' names (as registered_names).");
  m.def("describe_game", &describe_game, py::arg("name"),
        "A registered game's summary and parameters (name, type, default, choices, doc).");
  m.def(
      "parse_spec",
      [](const std::string& text) {
        Spec spec;
        {
          py::gil_scoped_release release;  // other threads run while a long input is read
          spec = parse_spec(text);
        }
        return py::make_tuple(spec.name, spec.params);
      },
      "Splits 'name(k=v,...)' into (name, [(k, v), ...]).");
  m.def(
      "format_spec",
      [](const std::string& name, const std::vector<std::pair<std::string, std::string>>& params) {
        return format_spec(Spec{name, params});
      },
      "Joins a name and (key, value) pairs into a spec string.");

  m.def(
      "make_spec",
      [](const std::string& spec, const SpecParams& params) {
        Spec merged;
        {
          py::gil_scoped_release release;  // other threads run while a long input is read
          merged = spec_with(spec, params);
        }
        return format_spec(merged);
      },
      py::arg("spec"), py::arg("params"),
      "The spec `spec` with the (key, value) texts `params` set over it (a key it has takes "
      "the new value), as one spec string: knightgym.make_spec.");
  py::class_<AnyGame, std::shared_ptr<AnyGame>>(m, "Game")
      .def_property_readonly("name", [](const AnyGame& g) { return std::string(g.name()); })
      .def_property_readonly("spec", &AnyGame::spec, "Every parameter spelled out.")
      .def_property_readonly("num_actions", [](const AnyGame& g) { return g.info().num_actions; })
      .def_property_readonly("observation_shape",
                             [](const AnyGame& g) {
                               const Shape& s = g.info().observation_shape;
                               return py::make_tuple(s.channels, s.height, s.width);
                             })
      .def_property_readonly("observation_bounds",
                             [](const AnyGame& g) {
                               return py::make_tuple(g.info().observation_low,
                                                     g.info().observation_high);
                             })
      .def_property_readonly("parameters",
                             [](const AnyGame& g) {
                               py::dict out;
                               for (const ParamInfo& p : g.params()) out[py::str(p.name)] = p.value;
                               return out;
                             })
      // pyspiel's names, as methods.
      .def("num_players", [](const AnyGame& g) { return g.info().num_players; })
      .def("num_distinct_actions", [](const AnyGame& g) { return g.info().num_actions; })
      .def(
          "max_game_length", [](const AnyGame& g) { return g.info().max_game_length; },
          "An upper bound on the decisions of one game.")
      .def("observation_tensor_shape",
           [](const AnyGame& g) {
             const Shape& s = g.info().observation_shape;
             return std::vector<int>{s.channels, s.height, s.width};
           })
      .def("observation_tensor_size",
           [](const AnyGame& g) { return g.info().observation_shape.size(); })
      .def(
          "get_type",
          [](const std::shared_ptr<AnyGame>& g) {
            return py::module_::import("knightgym.game_type").attr("game_type")(g);
          },
          "pyspiel's GameType: knightgym.game_type.GameType.")
      .def("get_parameters",
           [](const AnyGame& g) {
             py::dict out;
             for (const ParamInfo& p : g.params()) out[py::str(p.name)] = p.value;
             return out;
           })
      // Every game's returns lie in [-1, 1] and sum to zero.
      .def("min_utility", [](const AnyGame&) { return -1.0; })
      .def("max_utility", [](const AnyGame&) { return 1.0; })
      .def("utility_sum", [](const AnyGame&) { return 0.0; })
      .def(
          "new_initial_state",
          [](const AnyGame& game, const py::object& seed) {
            return game.new_initial_state(python_seed(seed));
          },
          py::arg("seed") = 0,
          "A new episode; the seed (as knightgym.make takes it) draws the game's randomness "
          "(a random layout, say).")
      .def("deserialize_state", &AnyGame::deserialize_state, py::arg("text"))
      .def("state_from_fen", &AnyGame::state_from_fen, py::arg("fen"),
           "A state from a FEN, for a game a UCI engine plays (uci_variant is set). Raises "
           "ValueError naming what is wrong with the FEN, or that the game has none.")
      .def_property_readonly(
          "uci_variant",
          [](const AnyGame& g) -> py::object {
            if (!g.uci()) return py::none();
            return py::str(std::string(g.uci()->variant));
          },
          "The UCI_Variant a UCI engine plays this game as, None for a game no engine plays.")
      .def("__eq__", [](const AnyGame& a, const AnyGame& b) { return a.spec() == b.spec(); })
      .def("__hash__", [](const AnyGame& g) { return py::hash(py::str(g.spec())); })
      .def("__repr__", [](const AnyGame& g) { return "<knightgym.Game " + g.spec() + ">"; })
      .def(py::pickle([](const AnyGame& g) { return py::make_tuple(g.spec()); },
                      [](const py::tuple& t) {
                        return std::const_pointer_cast<AnyGame>(
                            load_game(t[0].cast<std::string>()));
                      }));

  m.def(
      "load_game",
      [](const std::string& spec, const SpecParams& params) {
        std::shared_ptr<const AnyGame> game;
        {
          py::gil_scoped_release release;  // other threads run while a long input is read
          game = load_game(spec_with(spec, params));
        }
        return std::const_pointer_cast<AnyGame>(game);
      },
      py::arg("spec"), py::arg("params") = SpecParams{},
      "A game from a spec: its name, or name(key=value,...) with parameters; `params`, "
      "(key, value) texts, are set over the spec's (a key it has takes the new value).");
}

}  // namespace knightgym::python
