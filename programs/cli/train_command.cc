// knightgym train: AlphaZero-style training of a game into DIR, with --resume, and
// SIGINT/SIGTERM ending the run with a checkpoint. With --ray ADDRESS, self-play runs on
// a Ray cluster's actors, reached through a Python child that only carries chunks and
// weights (ray_relay_channel.h); the run stays here. The training session itself
// (train_session.h) is here, the program's one file that includes the trainer's LibTorch
// headers; knightgym iterate trains through it too.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/markdown_report.h"
#include "programs/cli/python_package.h"
#include "programs/cli/ray_relay_channel.h"
#include "programs/cli/stop_signals.h"
#include "programs/cli/train_session.h"
#include "training/trainer/typed_training.h"
#include "util/atomic_file.h"

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

std::optional<double> train_session(const AnyGame& game, const TrainConfig& config,
                                    const std::string& device, const std::string& dir, bool resume,
                                    double minutes, int64_t steps, const std::atomic<bool>& stop,
                                    std::FILE* log, ChunkChannel* actors) {
  const std::unique_ptr<AnyTrainer> trainer = make_trainer(game, config, device, dir, resume, log);
  std::fprintf(log, "%s: %lld parameters, %s; run in %s\n", game.spec().c_str(),
               static_cast<long long>(trainer->parameters()), device.c_str(), dir.c_str());
  if (!trainer->run({minutes, steps}, stop, actors)) return std::nullopt;
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
  // Read before the directory is made: bad settings leave nothing behind.
  const TrainConfig config = read_train_config(
      game->training_defaults(), resume ? RunDirectory(out).read_config().second : settings);
  // Connected, with the actors started, before anything is written.
  std::optional<RayRelayChannel> cluster;
  if (!ray.empty()) {
    cluster.emplace(ray, actors, game->spec(), config.spec, stop_on_signals());
    std::fprintf(stderr, "%d self-play actors on the Ray cluster at %s\n", cluster->actors(),
                 ray.c_str());
  }

  const bool finished = train_session(*game, config, device, out, resume, minutes, steps,
                                      stop_on_signals(), stderr, cluster ? &*cluster : nullptr)
                            .has_value();
  if (finished) return print_markdown_report("knightgym.training", out + "/summary.json");
  std::fprintf(stderr, "stopped by signal %d: checkpoint written; --resume continues\n",
               stop_signal());
  return 128 + stop_signal();
}

}  // namespace knightgym::cli
