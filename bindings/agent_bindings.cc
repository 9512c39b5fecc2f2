// knightgym.agents: the agents of agents/ (the kinds of agents/agent_kinds.h) on Python's
// games and states. A Factory parses a spec against a game and makes what its agents
// share (a network, engine processes) once; each Agent it makes has its own seeded stream.
// Searches release the GIL; calls from several threads are serialised (bindings/
// serialised.h), but for stop(), which ends the search in progress from any thread.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "agents/any_agent.h"
#include "agents/network.h"
#include "agents/pretrained.h"
#include "bindings/bindings.h"
#include "bindings/serialised.h"
#include "env/registry/registry.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

using GameArg = std::variant<std::shared_ptr<AnyGame>, std::string>;

std::shared_ptr<AgentFactory> make_factory(const std::string& spec, const GameArg& game) {
  std::shared_ptr<const AnyGame> loaded = std::holds_alternative<std::string>(game)
                                              ? load_game(std::get<std::string>(game))
                                              : std::get<std::shared_ptr<AnyGame>>(game);
  py::gil_scoped_release release;  // an az spec may build or load a network
  return std::make_shared<AgentFactory>(spec, std::move(loaded));
}

std::string describe_factory(const AgentFactory& factory) {
  return factory.config().spec + " for " + factory.game().spec();
}

class PyAgent {
 public:
  PyAgent(std::shared_ptr<const AgentFactory> factory, uint64_t seed)
      : factory_(std::move(factory)), agent_(factory_->make(seed)), seed_(seed) {}

  Action act(const AnyState& state, std::optional<int64_t> sims, std::optional<double> time_limit,
             std::optional<int64_t> simulations) {
    if (simulations) {  // the name before one name for the budget: sims
      if (sims) throw py::value_error("give sims, not also its old name simulations");
      if (PyErr_WarnEx(PyExc_DeprecationWarning,
                       "act(simulations=N) is now act(sims=N); simulations= will go", 1) < 0)
        throw py::error_already_set();
      sims = simulations;
    }
    if (sims && *sims < 1)
      throw py::value_error("sims must be at least 1, got " + std::to_string(*sims));
    if (time_limit && !(*time_limit > 0))
      throw py::value_error("time_limit must be a positive number of seconds, got " +
                            std::to_string(*time_limit));
    const Serialised::Guard guard(lock_, "this agent");
    stop_.store(false, std::memory_order_relaxed);  // a stop() before now is for no search
    py::gil_scoped_release release;
    SearchLimits limits;
    limits.stop = &stop_;
    limits.sims = sims.value_or(0);
    if (time_limit) {
      // Capped at 10^9 s (31 years) so that the deadline cannot overflow the clock.
      const std::chrono::duration<double> seconds(std::min(*time_limit, 1e9));
      limits.deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(seconds);
    }
    return agent_->act(state, limits);
  }

  py::array_t<Action> act_batch(const std::vector<const AnyState*>& states) {
    for (size_t i = 0; i < states.size(); ++i)
      if (!states[i])
        throw py::type_error("states[" + std::to_string(i) + "] is None, not a knightgym.State");
    std::vector<Action> actions;
    {
      const Serialised::Guard guard(lock_, "this agent");
      stop_.store(false, std::memory_order_relaxed);
      py::gil_scoped_release release;
      SearchLimits limits;
      limits.stop = &stop_;
      actions = agent_->act_batch(states, limits);
    }
    return py::array_t<Action>(static_cast<py::ssize_t>(actions.size()), actions.data());
  }

  py::dict last_report() const {
    SearchReport report;
    {
      const Serialised::Guard guard(lock_, "this agent");  // waits for a search in progress
      report = agent_->last_report();
    }
    py::dict out;
    out["sims"] = report.sims;
    out["simulations"] = report.sims;  // its old name, kept for a release
    out["value"] = report.value;
    out["depth"] = report.depth;
    py::dict shares;
    for (const auto& [action, share] : report.visit_shares) shares[py::int_(action)] = share;
    out["visit_shares"] = shares;
    return out;
  }

  // Ends the search in progress, if any, at once (it returns its best action so far).
  // Takes no lock, so it works from any thread while another searches. A stop() that comes
  // before act() starts is lost (act clears it), so callers that stop searches from
  // another thread also bound them by time_limit.
  void stop() { stop_.store(true, std::memory_order_relaxed); }

  const AgentConfig& config() const { return factory_->config(); }

  std::string repr() const {
    return "<knightgym.agents.Agent " + describe_factory(*factory_) + ", seed " +
           std::to_string(seed_) + ">";
  }

 private:
  std::shared_ptr<const AgentFactory> factory_;
  std::unique_ptr<AnyAgent> agent_;
  uint64_t seed_;
  mutable Serialised lock_;  // an agent's search state serves one call at a time
  std::atomic<bool> stop_{false};
};

// Networks come from knightgym._knightgym_torch, imported the first time one is asked
// for (agents/network.h), so that `import knightgym` loads no libtorch. A build without
// LibTorch has no such module, and network specs are refused with the reason.
void load_network_backend() {
  py::gil_scoped_acquire gil;
  py::object module;
  try {
    module = py::module_::import("knightgym._knightgym_torch");
  } catch (py::error_already_set& error) {
    if (error.matches(PyExc_ModuleNotFoundError)) return;
    throw std::runtime_error(std::string("cannot load knightgym's LibTorch networks: ") +
                             error.what());
  }
  const auto capsule = module.attr("network_backend").cast<py::capsule>();
  set_network_backend(capsule.get_pointer<const NetworkBackend>());
}

}  // namespace

void init_agents(py::module_& m) {
  set_network_loader(&load_network_backend);
  py::module_ agents = m.def_submodule(
      "agents",
      "Agents for any game: random, greedy, mcts (UCT with roll-outs) and az (AlphaZero "
      "search over a network). make(\"mcts:sims=400\", game, seed).act(state) -> action.");

  py::class_<PyAgent>(agents, "Agent")
      .def("act", &PyAgent::act, py::arg("state").none(false), py::arg("sims") = py::none(),
           py::arg("time_limit") = py::none(), py::kw_only(), py::arg("simulations") = py::none(),
           "The action for `state`. `sims` replaces the spec's sims for this decision "
           "(`simulations`, its old name, is deprecated); "
           "`time_limit` (seconds) stops the search earlier if it runs out, and so does stop() "
           "from another thread. Releases the GIL; calls from several threads run one at a "
           "time. Raises ValueError for a finished state or a state of another game.")
      .def("act_batch", &PyAgent::act_batch, py::arg("states"),
           "int32 [len(states)]: the actions of act() on each state in turn, with the "
           "searches advanced together and their leaves evaluated in shared batches. "
           "Releases the GIL; stop() ends every search of the batch.")
      .def("stop", &PyAgent::stop,
           "Ends the search in progress (act or act_batch, in another thread) at once: it "
           "returns its best action so far, always a legal one. Safe from any thread; takes "
           "no lock. A stop() that comes before the search starts is lost (act clears it), "
           "so bound searches by time_limit too.")
      .def_property_readonly(
          "spec", [](const PyAgent& a) { return a.config().spec; },
          "The canonical spec: every parameter spelled out.")
      .def_property_readonly("kind",
                             [](const PyAgent& a) { return std::string(a.config().kind()); })
      .def_property_readonly("last_report", &PyAgent::last_report,
                             "{'sims' (simulations run; 'simulations' holds the same, "
                             "under its deprecated name), 'value' (the mover's expected "
                             "return at the "
                             "root, in [-1, 1]), 'depth' (of the most visited line), "
                             "'visit_shares' ({action: share of the root's visits})} of the "
                             "last decision; zeros and {} for agents that do not search.")
      .def("__repr__", &PyAgent::repr);

  py::class_<AgentFactory, std::shared_ptr<AgentFactory>>(agents, "Factory")
      .def(py::init(&make_factory), py::arg("spec"), py::arg("game").none(false),
           "Parses `spec` for `game` (a Game or a game spec) and loads what the agents share, "
           "such as a network. Raises ValueError naming a bad kind, parameter or value.")
      .def(
          "make",
          [](const std::shared_ptr<AgentFactory>& factory, const py::object& seed) {
            return std::make_unique<PyAgent>(factory, python_seed(seed));
          },
          py::arg("seed") = 0, "An agent with its own stream, sharing the factory's network.")
      .def_property_readonly("spec", [](const AgentFactory& f) { return f.config().spec; })
      .def_property_readonly("kind",
                             [](const AgentFactory& f) { return std::string(f.config().kind()); })
      .def("__repr__", [](const AgentFactory& f) {
        return "<knightgym.agents.Factory " + describe_factory(f) + ">";
      });

  agents.def(
      "make",
      [](const std::string& spec, const GameArg& game, const py::object& seed) {
        return std::make_unique<PyAgent>(make_factory(spec, game), python_seed(seed));
      },
      py::arg("spec"), py::arg("game").none(false), py::arg("seed") = 0,
      "An agent from a spec such as 'mcts:sims=400' or 'az:sims=64,model=resnet' for `game` "
      "(a Game or a game spec). Raises ValueError naming a bad kind, parameter or value.");
  agents.def(
      "parse_spec",
      [](const std::string& spec) {
        const Spec parsed = parse_agent_spec(spec);
        return py::make_tuple(parsed.name, parsed.params);
      },
      py::arg("spec"),
      "(kind, [(key, value), ...]) of an agent spec as written, checking nothing against "
      "the kind (which make() does). Raises ValueError for text that is not a spec.");
  agents.def(
      "kinds",
      [] {
        py::dict out;
        for (size_t k = 0; k < AgentKinds::kNames.size(); ++k)
          out[py::str(AgentKinds::kNames[k])] = AgentKinds::kSummaries[k];
        return out;
      },
      "{kind: one-line summary} of every agent kind, in the table's order.");
  agents.def(
      "params",
      [](const std::string& kind) {
        py::list out;
        for (const ParamInfo& param : agent_params(kind)) out.append(to_python(param));
        return out;
      },
      py::arg("kind"), "The parameters of a kind: [{name, type, default, choices, doc}].");
  agents.def(
      "pretrained",
      [] {
        py::list out;
        for (const PretrainedModel& model : read_manifest(models_directory())) {
          py::dict entry;
          entry["name"] = model.name;
          entry["path"] = model.path();
          for (const auto& [key, value] : model.fields) entry[py::str(key)] = value;
          out.append(entry);
        }
        return out;
      },
      "The networks shipped with knightgym (models/manifest.txt), which 'az:model=pretrained' "
      "plays: [{name, path, file, game, settings, minutes, steps, strength, ...}].");
  agents.def(
      "set_models_directory", &set_models_directory, py::arg("directory"),
      "Where 'az:model=pretrained' looks for manifest.json and its networks ($KNIGHTGYM_MODELS "
      "wins; '' restores the default).");
}

}  // namespace knightgym::python
