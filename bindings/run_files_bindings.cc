// A training run's settings and directory, read by the C++ readers (training/trainer/) for
// knightgym.training: one reader of each format, in every build, LibTorch or not.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "bindings/bindings.h"
#include "env/registry/registry.h"
#include "training/trainer/run_directory.h"
#include "training/trainer/train_config.h"

namespace py = pybind11;

namespace knightgym::python {

void init_run_files(py::module_& m) {
  m.def("training_settings", &settings_given, py::arg("text"),
        "The training settings of `text` as given, [(key, value)] in order: a JSON object or "
        "key=value lines (# comments). Raises ValueError naming the problem (a key given twice, "
        "a line without '=').");
  m.def("holds_run", &RunDirectory::holds_run, py::arg("out"),
        "Whether `out` holds a training run (its config.json).");
  m.def(
      "run_config",
      [](const std::string& out) {
        const auto [game, settings] = RunDirectory(out).read_config();
        const TrainConfig config =
            read_train_config(load_game(game)->training_defaults(), settings);
        return py::make_tuple(game, from_json(config.spec));
      },
      py::arg("out"),
      "(game spec, {every setting: its typed value}) of the run in `out` (its config.json). "
      "Raises ValueError where there is no run or its settings do not read.");
}

}  // namespace knightgym::python
