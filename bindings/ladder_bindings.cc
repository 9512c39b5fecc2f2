// knightgym._knightgym.run_ladder: the rating ladder of training/ladder/ for
// knightgym.ladder, which returns its JSON as a dict. The run releases the GIL.
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "agents/agent_kinds.h"
#include "bindings/bindings.h"
#include "env/registry/registry.h"
#include "training/ladder/ladder.h"

namespace py = pybind11;

namespace knightgym::python {

void init_ladder(py::module_& m) {
  m.def(
      "run_ladder",
      [](const std::string& game, const std::variant<std::string, std::vector<std::string>>& agents,
         int64_t games, const std::string& schedule, int threads, int64_t batch, uint64_t seed,
         const std::optional<std::string>& anchor, double prior_draws, int challengers) {
        LadderOptions options;
        // One text "random,mcts:sims=100" as on the command line, or a list.
        options.agents = std::holds_alternative<std::string>(agents)
                             ? split_agent_specs(std::get<std::string>(agents))
                             : std::get<std::vector<std::string>>(agents);
        options.schedule = parse_ladder_schedule(schedule);
        options.challengers = challengers;
        options.games = games;
        options.threads = threads;
        options.batch = batch;
        options.seed = seed;
        options.anchor = anchor.value_or("");
        options.prior_draws = prior_draws;
        const auto loaded = load_game(game);
        // Ctrl-C: the progress callback finds the signal and stops the run, which ends
        // with KeyboardInterrupt.
        struct Interrupted {};
        std::optional<LadderResult> result;
        {
          py::gil_scoped_release release;
          try {
            result = run_ladder(loaded, options, [](int64_t, int64_t) {
              py::gil_scoped_acquire acquire;
              if (PyErr_CheckSignals() != 0) throw Interrupted{};
            });
          } catch (const Interrupted&) {
          }
        }
        if (!result) throw py::error_already_set();
        return ladder_json(*result);
      },
      py::arg("game"), py::arg("agents"), py::arg("games"), py::arg("schedule"), py::arg("threads"),
      py::arg("batch"), py::arg("seed"), py::arg("anchor"), py::arg("prior_draws"),
      py::arg("challengers"),
      "Runs a rating ladder; returns its JSON text. Use knightgym.ladder.run.");
}

}  // namespace knightgym::python
