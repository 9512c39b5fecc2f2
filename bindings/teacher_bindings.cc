// knightgym.teacher: teacher data (training/teacher/teacher_data.h) from Python, and its
// shards read back as plain data.
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <optional>
#include <string>

#include "bindings/bindings.h"
#include "env/registry/registry.h"
#include "training/teacher/teacher_data.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

py::dict run_as_dict(const TeacherRun& run) {
  py::dict out;
  out["games"] = run.games;
  out["positions"] = run.decisions;
  out["seconds"] = run.seconds;
  out["positions_per_s"] = static_cast<double>(run.decisions) / std::max(run.seconds, 1e-9);
  out["shards"] = run.shards;
  return out;
}

py::dict shard_as_dict(const TeacherShard& shard) {
  py::list games;
  for (const TeacherGame& game : shard.games) {
    py::list decisions;
    for (const TeacherDecision& decision : game.decisions) {
      py::dict policy;
      for (const auto& [action, probability] : decision.policy)
        policy[py::int_(action)] = probability;
      py::dict entry;
      entry["state"] = decision.state;
      entry["value"] = decision.value;
      entry["policy"] = policy;
      decisions.append(entry);
    }
    py::dict entry;
    entry["index"] = game.index;
    entry["start_seed"] = game.start_seed;
    entry["truncated"] = game.truncated;
    entry["returns"] = game.returns;
    entry["decisions"] = decisions;
    games.append(entry);
  }
  py::dict out;
  out["game"] = shard.game_spec;
  out["teacher"] = shard.teacher;
  out["games"] = games;
  return out;
}

}  // namespace

void init_teacher(py::module_& m) {
  py::module_ teacher = m.def_submodule(
      "teacher",
      "Teacher data: a strong player's games, each decision with its policy and value, in "
      "shards that training learns from (the trainer's teacher= setting).");
  teacher.def(
      "generate",
      [](const std::string& game, const std::string& out, const std::string& teacher_spec,
         int64_t games, int threads, uint64_t seed, int opening_plies, int64_t shard_games,
         int64_t batch, bool resume, bool verbose) {
        const auto loaded = load_game(game);
        TeacherOptions options{teacher_spec,  games,       threads, seed,
                               opening_plies, shard_games, batch};
        const std::atomic<bool> no_stop{false};
        TeacherRun run;
        {
          py::gil_scoped_release release;
          run = generate_teacher_data(*loaded, options, out, resume, verbose ? stderr : nullptr,
                                      no_stop);
        }
        return run_as_dict(run);
      },
      py::arg("game"), py::arg("out"), py::arg("teacher") = "mcts:sims=800", py::arg("games") = 100,
      py::arg("threads") = 1, py::arg("seed") = 0, py::arg("opening_plies") = 0,
      py::arg("shard_games") = 64, py::arg("batch") = 1, py::arg("resume") = false,
      py::arg("verbose") = false,
      "Plays `games` games of `game` (a spec) with `teacher` (any agent spec) in every seat "
      "on `threads` threads, `batch` games at once on each (a search deciding for all of "
      "them together; it must divide shard_games), and writes OUT/shard-*.kgt (resume=True "
      "goes on with the run there). Returns {games, positions, seconds, positions_per_s, shards}; "
      "releases the "
      "GIL. Raises ValueError naming a bad option or a directory that holds another run.");
  teacher.def(
      "read_shard",
      [](const std::string& path, std::optional<std::string> game) {
        const std::string spec = game ? load_game(*game)->spec() : std::string();
        return shard_as_dict(read_shard(path, spec));
      },
      py::arg("path"), py::arg("game") = py::none(),
      "A shard as {game, teacher, games: [{index, start_seed, truncated, returns, decisions: "
      "[{state, value, policy: {action: probability}}]}]}. Raises ValueError naming the file "
      "and the problem (not a shard, truncated, damaged, or of another game than `game`).");
}

}  // namespace knightgym::python
