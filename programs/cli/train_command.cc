// knightgym train: AlphaZero-style training of a game into DIR, with --resume, and
// SIGINT/SIGTERM ending the run with a checkpoint. With --ray ADDRESS, self-play runs on
// a Ray cluster's actors: the run is handed whole to knightgym.training.train. The
// training session itself (train_session.h) is here, the program's one file that
// includes the trainer's LibTorch headers; knightgym iterate trains through it too.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/markdown_report.h"
#include "programs/cli/python_package.h"
#include "programs/cli/stop_signals.h"
#include "programs/cli/train_session.h"
#include "training/trainer/typed_training.h"
#include "util/atomic_file.h"
#include "util/json_writer.h"
#include "util/python_process.h"

namespace knightgym::cli {
namespace {

// A settings file is a few hundred bytes; one far larger is something else.
constexpr size_t kMostSettingsBytes = 1 << 20;

}  // namespace

std::string read_settings(const std::string& path) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > kMostSettingsBytes)
    throw std::invalid_argument("--config '" + path + "': " + std::to_string(size) +
                                " bytes, more than a settings file's " +
                                std::to_string(kMostSettingsBytes));
  std::optional<std::string> text = read_file(path);
  if (!text) throw std::invalid_argument("--config '" + path + "': cannot read it");
  return std::move(*text);
}

namespace {

// The run handed to knightgym.training.train(..., ray_address=...) in the project's
// .venv, which holds Ray: the options go as the JSON of its keyword arguments.
int train_on_ray(const std::string& game, const std::string& out, double minutes, int64_t steps,
                 bool resume, const std::string& device, const std::string& settings,
                 const std::string& address, int actors) {
  const std::string python = venv_python();
  if (python.empty())
    throw std::invalid_argument("--ray needs the Python module, which this build lacks");
  JsonWriter json;
  json.begin_object().key("game").value(game).key("out").value(out);
  json.key("minutes").value(minutes).key("steps").value(steps).key("resume").value(resume);
  json.key("device").value(device).key("settings").value(settings);
  json.key("ray_address").value(address).key("actors");
  if (actors > 0)
    json.value(actors);
  else
    json.null();
  json.end_object();
  return run_python_module(python, python_package_dir(), "knightgym.training",
                           {"run", json.text()});
}

}  // namespace

std::optional<double> train_session(const AnyGame& game, const TrainConfig& config,
                                    const std::string& device, const std::string& dir, bool resume,
                                    double minutes, int64_t steps, const std::atomic<bool>& stop,
                                    std::FILE* log) {
  const std::unique_ptr<AnyTrainer> trainer = make_trainer(game, config, device, dir, resume, log);
  std::fprintf(log, "%s: %lld parameters, %s; run in %s\n", game.spec().c_str(),
               static_cast<long long>(trainer->parameters()), device.c_str(), dir.c_str());
  if (!trainer->run({minutes, steps}, stop, nullptr)) return std::nullopt;
  return static_cast<double>(trainer->counters().milliseconds) / 1000;
}

int train_command(Args& args) {
  args.expect_positional(1);
  const auto game = load_game(args.positional()[0]);
  const std::string out = args.get_string("out", "");
  const double minutes = args.get_double("minutes", 0, 0);
  const int64_t steps = args.get_int("steps", 0, 0);
  const bool resume = args.get_switch("resume");
  const bool print_config = args.get_switch("print-config");
  const std::string device = args.get_string("device", "cpu");
  const std::string config_file = args.get_string("config", "");
  const std::string ray = args.get_string("ray", "");
  const int actors = static_cast<int>(args.get_int("actors", 0, 1));
  args.finish();
  if (args.has("ray") && ray.empty())
    throw std::invalid_argument("--ray ADDRESS: an empty address");
  if (args.has("actors") && ray.empty())
    throw std::invalid_argument("--actors N is for runs on a Ray cluster: give --ray ADDRESS");

  if (print_config) {  // a valid settings file, each line with its doc as a comment
    const TrainConfig config = read_train_config(
        game->training_defaults(), config_file.empty() ? "" : read_settings(config_file));
    for (const ParamInfo& p : config.params) {
      const std::string line = p.name + "=" + p.value;
      std::printf("%-26s # %s\n", line.c_str(), p.doc.c_str());
    }
    return 0;
  }
  if (out.empty()) throw std::invalid_argument("--out DIR is required");
  if (minutes == 0 && steps == 0) throw std::invalid_argument("give --minutes M or --steps S");
  if (resume && !config_file.empty())
    throw std::invalid_argument("--resume reads the run's own " + out +
                                "/config.json; --config is for new runs");
  if (!resume && RunDirectory::holds_run(out))
    throw std::invalid_argument("'" + out +
                                "' already holds a run: --resume continues it, or choose "
                                "another --out");
  const std::string settings =
      resume || config_file.empty() ? std::string() : read_settings(config_file);
  if (!ray.empty())
    return train_on_ray(game->spec(), out, minutes, steps, resume, device, settings, ray, actors);
  // Read before the directory is made: bad settings leave nothing behind.
  const TrainConfig config = read_train_config(
      game->training_defaults(), resume ? RunDirectory(out).read_config().second : settings);

  const bool finished =
      train_session(*game, config, device, out, resume, minutes, steps, stop_on_signals(), stderr)
          .has_value();
  if (finished) return print_markdown_report("knightgym.training", out + "/summary.json");
  std::fprintf(stderr, "stopped by signal %d: checkpoint written; --resume continues\n",
               stop_signal());
  return 128 + stop_signal();
}

}  // namespace knightgym::cli
