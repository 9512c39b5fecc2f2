// knightgym.teacher: teacher data (training/teacher/teacher_data.h) from Python, and its
// shards read back as plain data.
#include <pybind11/stl.h>

#include <atomic>
#include <cstdio>
#include <optional>
#include <string>

#include "bindings/bindings.h"
#include "bindings/stoppable.h"
#include "env/registry/registry.h"
#include "training/teacher/teacher_data.h"

namespace py = pybind11;

namespace knightgym::python {

void init_teacher(py::module_& m) {
  py::module_ teacher = m.def_submodule(
      "teacher",
      "Teacher data: a strong player's games, each decision with its policy and value, in "
      "shards that training learns from (the trainer's teacher= setting).");
  teacher.def(
      "generate",
      [](const std::string& game, const std::string& out, const std::string& teacher_spec,
         int64_t games, int threads, const py::object& seed, int opening_plies, int64_t shard_games,
         int64_t batch, bool resume, bool verbose) {
        const auto loaded = load_game(game);
        TeacherOptions options{teacher_spec,  games,       threads, python_seed(seed),
                               opening_plies, shard_games, batch};
        const TeacherRun run = run_stoppable([&](const std::atomic<bool>& stop) {
          return generate_teacher_data(*loaded, options, out, resume, verbose ? stderr : nullptr,
                                       stop);
        });
        return to_python(run);
      },
      py::arg("game"), py::arg("out"), py::arg("teacher") = "mcts:sims=800", py::arg("games") = 100,
      py::arg("threads") = 1, py::arg("seed") = 0, py::arg("opening_plies") = 0,
      py::arg("shard_games") = 64, py::arg("batch") = 1, py::arg("resume") = false,
      py::arg("verbose") = false,
      "Plays `games` games of `game` (a spec) with `teacher` (any agent spec) in every seat "
      "on `threads` threads, `batch` games in play at once on each (a search deciding for all "
      "of them together, a finished game replaced by the next; at most shard_games), and writes "
      "OUT/shard-*.kgt (resume=True "
      "goes on with the run there). Returns {games, positions, seconds, positions_per_s, shards}; "
      "releases the GIL. Ctrl-C stops it within a second with whole shards written "
      "(resume=True goes on) and raises KeyboardInterrupt. Raises ValueError naming a bad "
      "option or a directory that holds another run, BlockingIOError while another writer "
      "holds `out`.");
  teacher.def(
      "read_shard",
      [](const std::string& path, std::optional<std::string> game) {
        const std::string spec = game ? load_game(*game)->spec() : std::string();
        return to_python(read_shard(path, spec));
      },
      py::arg("path"), py::arg("game") = py::none(),
      "A shard as {game, teacher, games: [{index, start_seed, truncated, returns, decisions: "
      "[{state, value, policy: {action: probability}}]}]}. Raises ValueError naming the file "
      "and the problem (not a shard, truncated, damaged, or of another game than `game`).");
}

}  // namespace knightgym::python
