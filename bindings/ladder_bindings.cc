// knightgym._knightgym.run_ladder and fit_ladder: the rating ladder of training/ladder/
// and its Elo fit, for knightgym.ladder, which returns the ladder's JSON as a dict. The
// run releases the GIL.
#include <pybind11/stl.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
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
         int64_t games, const std::string& schedule, int threads, int64_t batch, int64_t chunk,
         uint64_t seed, const std::optional<std::string>& anchor, double prior_draws,
         int challengers) {
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
        options.chunk = chunk;
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
      py::arg("batch"), py::arg("chunk"), py::arg("seed"), py::arg("anchor"),
      py::arg("prior_draws"), py::arg("challengers"),
      "Runs a rating ladder; returns its JSON text. Use knightgym.ladder.run.");

  m.def(
      "fit_ladder",
      [](int agents, const std::vector<std::tuple<int, int, int64_t, int64_t, int64_t>>& pairs,
         int anchor, double prior_draws) {
        if (agents < 2) throw std::invalid_argument("fit_ladder: at least two agents are needed");
        if (anchor < 0 || anchor >= agents)
          throw std::invalid_argument("fit_ladder: anchor " + std::to_string(anchor) +
                                      " is out of range");
        std::vector<LadderPair> fitted;
        for (const auto& [first, second, wins, draws, losses] : pairs) {
          if (first < 0 || first >= agents || second < 0 || second >= agents || first == second)
            throw std::invalid_argument("fit_ladder: a pair of agents " + std::to_string(first) +
                                        " and " + std::to_string(second) + " of " +
                                        std::to_string(agents));
          if (wins < 0 || draws < 0 || losses < 0)
            throw std::invalid_argument("fit_ladder: negative counts in a pair");
          LadderPair pair{first, second, {}};
          pair.first_score.wins = wins;
          pair.first_score.draws = draws;
          pair.first_score.losses = losses;
          pair.first_score.games = wins + draws + losses;
          fitted.push_back(pair);
        }
        std::vector<py::tuple> out;
        for (const LadderRating& r : fit_ladder(agents, fitted, anchor, prior_draws))
          out.push_back(py::make_tuple(r.elo, r.half_width, r.games, r.score));
        return out;
      },
      py::arg("agents"), py::arg("pairs"), py::arg("anchor"), py::arg("prior_draws"),
      "Bradley-Terry Elo of agents 0..agents-1 from pairs (first, second, first's wins, "
      "draws, losses): [(elo, half_width, games, score)]. Use knightgym.ladder.merge.");
}

}  // namespace knightgym::python
