// knightgym._knightgym.run_balance: the balance run of training/balance/ for
// knightgym.balance, which parses its JSON and writes balance.md and the plots from it.
// The run releases the GIL.
#include <pybind11/stl.h>

#include <cstdio>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "agents/agent_kinds.h"
#include "bindings/bindings.h"
#include "training/balance/progress_printer.h"
#include "training/balance/report.h"

namespace py = pybind11;

namespace knightgym::python {

void init_balance(py::module_& m) {
  m.def(
      "run_balance",
      [](const std::string& game, const std::vector<std::string>& sweeps,
         const std::variant<std::string, std::vector<std::string>>& agents, int64_t games,
         int threads, uint64_t seed, const std::optional<std::string>& sprt, int64_t check_every,
         const std::optional<std::string>& out, bool progress) {
        BalanceOptions options;
        options.game = game;
        for (const std::string& sweep : sweeps) options.sweeps.push_back(parse_sweep(sweep));
        // One text "mcts:sims=16,mcts:sims=64" as on the command line, or a list.
        options.agents = std::holds_alternative<std::string>(agents)
                             ? split_agent_specs(std::get<std::string>(agents))
                             : std::get<std::vector<std::string>>(agents);
        options.games = games;
        options.threads = threads;
        options.seed = seed;
        if (sprt) options.sprt = parse_sprt(*sprt);
        options.check_every = check_every;
        // Ctrl-C: the progress callback finds the signal and stops the run, which ends
        // with KeyboardInterrupt and writes nothing.
        struct Interrupted {};
        std::optional<BalanceResult> result;
        {
          py::gil_scoped_release release;
          BalanceProgressPrinter printer(stderr);
          try {
            result = run_balance(options, [&](const BalanceProgress& p) {
              if (progress) printer(p);
              py::gil_scoped_acquire acquire;
              if (PyErr_CheckSignals() != 0) throw Interrupted{};
            });
          } catch (const Interrupted&) {
          }
          if (progress) printer.finish();
          if (result && out) write_balance_json(*out, *result);
        }
        if (!result) throw py::error_already_set();
        return balance_json(*result);
      },
      py::arg("game"), py::arg("sweeps"), py::arg("agents"), py::arg("games"), py::arg("threads"),
      py::arg("seed"), py::arg("sprt"), py::arg("check_every"), py::arg("out"), py::arg("progress"),
      "Runs a balance evaluation; returns the text of balance.json and writes it into `out` "
      "when given. Use knightgym.balance.evaluate.");
}

}  // namespace knightgym::python
