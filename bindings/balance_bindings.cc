// knightgym._knightgym.run_balance: the balance run of training/balance/ for
// knightgym.balance, which parses its JSON and writes balance.md and the plots from it;
// and BalanceChunkPlayer, which plays a run's chunks in a Ray task on any machine
// (knightgym.balance_ray). Both release the GIL while games are played.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cstdio>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "agents/agent_kinds.h"
#include "bindings/bindings.h"
#include "training/balance/balance_chunks.h"
#include "training/balance/progress_printer.h"
#include "training/balance/result_json.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

// Thrown through the C++ run when a Python error (Ctrl-C, or one raised in a runner) is
// set; the binding raises that error once the run has unwound.
struct PythonError {};

using AgentSpecs = std::variant<std::string, std::vector<std::string>>;

BalanceOptions balance_options(const std::string& game, const std::vector<std::string>& sweeps,
                               const AgentSpecs& agents, int64_t games, int threads, uint64_t seed,
                               const std::optional<std::string>& sprt, int64_t check_every,
                               int64_t batch, int64_t chunk, int opening_plies) {
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
  options.batch = batch;
  options.chunk = chunk;
  options.opening_plies = opening_plies;
  return options;
}

// A Python runner(rule_set, first, count, consume) as a ChunkRunner: it hands each
// chunk's serialized tally to consume(bytes), in chunk order. Called without the GIL.
// Ctrl-C, whether it lands in the runner's Python code or in the run's progress callback,
// unwinds the runner's frames as KeyboardInterrupt and the run's as BalanceStopped, which
// saves the progress; the binding then raises the KeyboardInterrupt.
ChunkRunner python_runner(const py::function& runner) {
  return [runner](int rule_set, int64_t first, int64_t count,
                  const std::function<void(const RuleSetTally&)>& consume) {
    py::gil_scoped_acquire acquire;
    bool stopped = false;
    try {
      const py::cpp_function take([&](const py::bytes& text) {
        try {
          consume(RuleSetTally::parse(std::string(text)));
        } catch (const BalanceStopped&) {
          stopped = true;
          throw py::error_already_set();
        } catch (const PythonError&) {
          throw py::error_already_set();  // back into the runner's Python frames
        }
      });
      runner(rule_set, first, count, take);
    } catch (py::error_already_set& error) {
      const bool interrupted = stopped || error.matches(PyExc_KeyboardInterrupt);
      error.restore();
      if (interrupted) throw BalanceStopped("");
      throw PythonError{};
    }
  };
}

}  // namespace

void init_balance(py::module_& m) {
  m.def(
      "run_balance",
      [](const std::string& game, const std::vector<std::string>& sweeps, const AgentSpecs& agents,
         int64_t games, int threads, uint64_t seed, const std::optional<std::string>& sprt,
         int64_t check_every, int64_t batch, int64_t chunk, int opening_plies,
         const std::optional<std::string>& out, bool resume, bool progress,
         const std::optional<py::function>& runner) {
        BalanceOptions options = balance_options(game, sweeps, agents, games, threads, seed, sprt,
                                                 check_every, batch, chunk, opening_plies);
        if (out) {
          refuse_a_finished_run(*out);
          options.progress_file = progress_path(*out);
        }
        options.resume = resume;
        const ChunkRunner chunk_runner = runner ? python_runner(*runner) : ChunkRunner{};
        // Ctrl-C: the progress callback finds the signal and stops the run, which saves
        // its progress and ends with KeyboardInterrupt, writing no balance.json.
        std::optional<BalanceResult> result;
        std::atomic<bool> stop{false};
        {
          py::gil_scoped_release release;
          BalanceProgressPrinter printer(stderr);
          try {
            result = run_balance(
                options,
                [&](const BalanceProgress& p) {
                  if (progress) printer(p);
                  py::gil_scoped_acquire acquire;
                  if (!stop && PyErr_CheckSignals() != 0) stop = true;  // the error stays set
                },
                chunk_runner, &stop);
          } catch (const BalanceStopped&) {
          } catch (const PythonError&) {  // the runner raised
          }
          if (progress) printer.finish();
          // balance.progress stays: resume=True with more games extends the run.
          if (result && out) write_balance_json(*out, *result);
        }
        if (!result || stop) throw py::error_already_set();
        return balance_json(*result);
      },
      py::arg("game"), py::arg("sweeps"), py::arg("agents"), py::arg("games"), py::arg("threads"),
      py::arg("seed"), py::arg("sprt"), py::arg("check_every"), py::arg("batch"), py::arg("chunk"),
      py::arg("opening_plies"), py::arg("out"), py::arg("resume"), py::arg("progress"),
      py::arg("runner") = py::none(),
      "Runs a balance study; returns the text of balance.json and writes it into `out` "
      "when given, keeping the run's progress in out/balance.progress until then (resume: "
      "go on from that file). runner(rule_set, first, count, consume), when given, plays the "
      "chunks "
      "and hands each one's serialized tally to consume in order. Use "
      "knightgym.balance.run.");

  m.def(
      "balance_networks",
      [](const std::string& game, const std::vector<std::string>& sweeps,
         const AgentSpecs& agents) {
        const BalanceOptions options =
            balance_options(game, sweeps, agents, 0, 1, 0, std::nullopt, 100, 0, 0, 0);
        std::vector<std::string> specs;
        for (const RuleSet& rules : expand_grid(options.game, options.sweeps))
          specs.push_back(rules.spec);
        return from_json(networks_json(networks_used(options.agents, specs)));
      },
      py::arg("game"), py::arg("sweeps"), py::arg("agents"),
      "The networks a balance run of these options loads, as its balance.json records them. "
      "Use knightgym.balance.networks.");

  py::class_<BalanceChunkPlayer>(m, "BalanceChunkPlayer",
                                 "Plays chunks of a balance run's games: every rule set and agent "
                                 "loaded once, for the Ray tasks of knightgym.balance_ray.")
      .def(py::init([](const std::string& game, const std::vector<std::string>& sweeps,
                       const AgentSpecs& agents, int64_t games, int threads, uint64_t seed,
                       const std::optional<std::string>& sprt, int64_t check_every, int64_t batch,
                       int64_t chunk, int opening_plies) {
             return BalanceChunkPlayer(balance_options(game, sweeps, agents, games, threads, seed,
                                                       sprt, check_every, batch, chunk,
                                                       opening_plies));
           }),
           py::arg("game"), py::arg("sweeps"), py::arg("agents"), py::arg("games"),
           py::arg("threads"), py::arg("seed"), py::arg("sprt"), py::arg("check_every"),
           py::arg("batch"), py::arg("chunk"), py::arg("opening_plies"))
      .def_property_readonly("chunks",
                             [](const BalanceChunkPlayer& p) { return p.layout().chunks; })
      .def_property_readonly(
          "rule_sets",
          [](const BalanceChunkPlayer& p) { return static_cast<int>(p.grid().size()); })
      .def(
          "play",
          [](const BalanceChunkPlayer& player, int rule_set, int64_t first, int64_t count) {
            std::vector<std::string> texts;
            {
              py::gil_scoped_release release;
              for (int64_t chunk = first; chunk < first + count; ++chunk)
                texts.push_back(player.play(rule_set, chunk).serialize());
            }
            std::vector<py::bytes> tallies(texts.begin(), texts.end());
            return tallies;
          },
          py::arg("rule_set"), py::arg("first"), py::arg("count"),
          "The serialized tallies of chunks [first, first + count) of rule set `rule_set`.");
}

}  // namespace knightgym::python
