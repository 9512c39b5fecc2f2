// knightgym selfplay-bench [GAME...]: self-play as training plays it, and where its time
// goes. For each game and each thread count T: T threads, each playing B games whose
// searches are evaluated together (training/selfplay/parallel_self_play.h), with the
// game's shipped network (or a file, or a fresh ResNet of a given size) on the CPU or a
// GPU. A row gives the positions (decisions) and network evaluations per second, the
// mean batch of the network's calls, the share of the threads' time in tree search, in the
// network, in the game's code and waiting for the other threads at the end of each step,
// and the share of the time at least one network call was in flight (the device's busy
// share, as the host sees it).
//
// Every cell is the median of --repeat measurements of at least --seconds each, after a
// warm-up. The rates come from passes that time the network's calls alone; the shares
// from passes that also time the game's code (a clock read around each move, which
// costs a few percent), run in alternation so that the machine's load hits both alike.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "agents/network.h"
#include "agents/pretrained.h"
#include "agents/timed_evaluator.h"
#include "env/core/training_defaults.h"
#include "env/registry/typed_code.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "training/selfplay/parallel_self_play.h"
#include "util/atomic_file.h"
#include "util/json_writer.h"
#include "util/output_lock.h"
#include "util/quantiles.h"
#include "util/text.h"
#include "util/timing.h"

namespace knightgym::cli {
namespace {

constexpr int kWarmupSteps = 3;  // LibTorch sets up each batch shape on its first use
constexpr uint64_t kSeed = 1;

struct Options {
  std::string model;  // pretrained, a TorchScript file, or resnet (fresh)
  NetConfig net;      // resnet's size
  int sims = 0;       // 0: the game's self-play default
  int batch = 0;      // games per thread; 0: the game's self-play default
  std::vector<int> threads;
  int torch_threads = 1;
  std::string device;
  Precision precision = Precision::kFloat32;
  double seconds = 0;
  int repeat = 0;
};

struct Row {
  std::string game, network;
  int sims = 0, threads = 0, batch = 0;
  double positions = 0, evaluations = 0, mean_batch = 0;
  double search = 0, network_share = 0, environment = 0, waiting = 0, device_busy = 0;
};

// What one pass measured.
struct Pass {
  double seconds = 0;
  int64_t decisions = 0, evaluations = 0, calls = 0, rows = 0;
  int64_t network_ns = 0, busy_ns = 0, environment_ns = 0, playing_ns = 0;
};

template <Game G>
class Bench {
 public:
  Bench(const G& game, const std::string& spec, const Options& options, int threads,
        std::shared_ptr<Evaluator> network)
      : options_(options),
        threads_(threads),
        network_(std::move(network)),
        meter_(std::make_unique<BusyMeter>()) {
    std::vector<Evaluator*> each;
    for (int t = 0; t < threads; ++t)
      each.push_back(
          timed_.emplace_back(std::make_unique<TimedEvaluator>(*network_, *meter_)).get());
    const TrainingDefaults defaults = training_defaults<G>();
    search_.sims = options.sims > 0 ? options.sims : defaults.sims;
    batch_ = options.batch > 0 ? options.batch : defaults.games;
    self_play_ = std::make_unique<ParallelSelfPlay<G>>(RuleSets<G>(game, spec), search_, each,
                                                       threads * batch_, batch_, kSeed);
    clocks_.resize(threads);
  }

  int sims() const { return search_.sims; }
  int batch() const { return batch_; }

  void warm_up() {
    for (int s = 0; s < kWarmupSteps; ++s) self_play_->step([](Trajectory<G>&&) {});
  }

  // Steps for at least `seconds`, timing the game's code too if `profiled`.
  Pass pass(double seconds, bool profiled) {
    for (SelfPlayThreadClock& clock : clocks_) clock = {};
    self_play_->set_clocks(profiled ? std::span(clocks_) : std::span<SelfPlayThreadClock>());
    const Pass before = totals();
    const auto start = SteadyClock::now();
    Pass after;
    do {
      self_play_->step([](Trajectory<G>&&) {});
    } while (seconds_since(start) < seconds);
    after = totals();
    after.seconds = seconds_since(start);
    self_play_->set_clocks({});
    Pass got = after;
    got.decisions -= before.decisions, got.evaluations -= before.evaluations;
    got.calls -= before.calls, got.rows -= before.rows;
    got.network_ns -= before.network_ns, got.busy_ns -= before.busy_ns;
    for (const SelfPlayThreadClock& clock : clocks_) {
      got.environment_ns += clock.env.nanoseconds;
      got.playing_ns += clock.playing_nanoseconds;
    }
    return got;
  }

 private:
  Pass totals() const {
    Pass p;
    p.decisions = self_play_->decisions();
    p.evaluations = self_play_->evaluations();
    for (const auto& timed : timed_) {
      p.calls += timed->calls();
      p.rows += timed->rows();
      p.network_ns += timed->nanoseconds();
    }
    p.busy_ns = meter_->nanoseconds();
    return p;
  }

  const Options& options_;
  int threads_;
  std::shared_ptr<Evaluator> network_;
  std::unique_ptr<BusyMeter> meter_;
  std::vector<std::unique_ptr<TimedEvaluator>> timed_;
  AzConfig search_;
  int batch_ = 0;
  std::unique_ptr<ParallelSelfPlay<G>> self_play_;
  std::vector<SelfPlayThreadClock> clocks_;
};

template <Game G>
Row bench_row(const G& game, const std::string& spec, const Options& options, int threads,
              const std::shared_ptr<Evaluator>& network) {
  Bench<G> bench(game, spec, options, threads, network);
  bench.warm_up();
  std::vector<double> positions, evaluations, batches, busy, search, in_network, environment,
      waiting;
  for (int r = 0; r < options.repeat; ++r) {
    const Pass plain = bench.pass(options.seconds, false);
    positions.push_back(static_cast<double>(plain.decisions) / plain.seconds);
    evaluations.push_back(static_cast<double>(plain.evaluations) / plain.seconds);
    batches.push_back(static_cast<double>(plain.rows) /
                      static_cast<double>(std::max<int64_t>(plain.calls, 1)));
    busy.push_back(static_cast<double>(plain.busy_ns) / (plain.seconds * 1e9));
    const Pass profiled = bench.pass(options.seconds, true);
    const double thread_ns = profiled.seconds * 1e9 * threads;
    const double net = static_cast<double>(profiled.network_ns) / thread_ns;
    const double env = static_cast<double>(profiled.environment_ns) / thread_ns;
    const double playing = static_cast<double>(profiled.playing_ns) / thread_ns;
    in_network.push_back(net);
    environment.push_back(env);
    search.push_back(std::max(0.0, playing - net - env));
    waiting.push_back(std::max(0.0, 1 - playing));
  }
  Row row;
  row.game = G::kName;
  row.network = options.model == "resnet" ? "resnet " + std::to_string(options.net.blocks) + "x" +
                                                std::to_string(options.net.channels)
                                          : options.model;
  row.sims = bench.sims();
  row.threads = threads;
  row.batch = bench.batch();
  row.positions = median(positions);
  row.evaluations = median(evaluations);
  row.mean_batch = median(batches);
  row.device_busy = median(busy);
  row.search = median(search);
  row.network_share = median(in_network);
  row.environment = median(environment);
  row.waiting = median(waiting);
  return row;
}

// The benchmark's typed code for a game (env/registry/typed_code.h).
struct TypedSelfPlayRow {
  Row (*row)(const AnyGame& game, const Options& options, int threads,
             const std::shared_ptr<Evaluator>& network);

  template <Game G>
  static TypedSelfPlayRow of() {
    return {[](const AnyGame& game, const Options& options, int threads,
               const std::shared_ptr<Evaluator>& network) {
      return bench_row(typed_rules<G>(game), game.spec(), options, threads, network);
    }};
  }
};

void print_row(const Row& r) {
  std::printf(
      "| %-18s | %-10s | %4d | %2d | %5d | %11.0f | %13.0f | %10.1f | %5.1f%% | %6.1f%% | %5.1f%% "
      "| %6.1f%% | %6.1f%% |\n",
      r.game.c_str(), r.network.c_str(), r.sims, r.threads, r.batch, r.positions, r.evaluations,
      r.mean_batch, 100 * r.search, 100 * r.network_share, 100 * r.environment, 100 * r.waiting,
      100 * r.device_busy);
  std::fflush(stdout);
}

std::string rows_json(const std::vector<Row>& rows, const Options& options) {
  JsonWriter json;
  json.begin_object().key("device").value(options.device);
  json.key("precision").value(precision_name(options.precision));
  json.key("cuda_graphs").value(cuda_graphs_state(options.device));
  json.key("torch_threads").value(options.torch_threads);
  json.key("seconds").value(options.seconds).key("repeat").value(options.repeat);
  json.key("rows").begin_array();
  for (const Row& r : rows) {
    json.begin_object().key("game").value(r.game).key("network").value(r.network);
    json.key("sims").value(r.sims).key("threads").value(r.threads).key("batch").value(r.batch);
    json.key("positions_per_s").value(r.positions).key("evaluations_per_s").value(r.evaluations);
    json.key("mean_batch").value(r.mean_batch).key("search_share").value(r.search);
    json.key("network_share").value(r.network_share).key("game_share").value(r.environment);
    json.key("waiting_share").value(r.waiting).key("device_busy").value(r.device_busy);
    json.end_object();
  }
  return json.end_array().end_object().text() + "\n";
}

// "1,2" -> {1, 2}.
std::vector<int> parse_counts(const std::string& flag, const std::string& text) {
  std::vector<int> counts;
  for (const std::string_view part : split(text, ',')) {
    int value = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (error != std::errc() || end != part.data() + part.size() || value < 1 || value > 4096)
      throw std::invalid_argument("--" + flag + " '" + text +
                                  "': expected counts from 1 to 4096, e.g. 1,2");
    counts.push_back(value);
  }
  return counts;
}

}  // namespace

int selfplay_bench_command(Args& args) {
  const int hardware = hardware_threads();
  Options options;
  options.model = args.get_string("model", "pretrained");
  options.net.blocks = static_cast<int>(args.get_int("blocks", options.net.blocks, 0));
  options.net.channels = static_cast<int>(args.get_int("channels", options.net.channels, 1));
  options.sims = static_cast<int>(args.get_int("sims", 0, 1));
  options.batch = static_cast<int>(args.get_int("batch", 0, 1));
  options.threads = parse_counts(
      "threads", args.get_string("threads", hardware > 1 ? "1," + std::to_string(hardware) : "1"));
  options.torch_threads = static_cast<int>(args.get_int("torch-threads", 1, 1));
  options.device = args.get_string("device", "cpu");
  options.precision = precision_named(args.get_string("precision", "float32"));
  set_cuda_graphs(!args.get_switch("no-cuda-graphs"));
  options.seconds = args.get_double("seconds", 3, 0.01);
  options.repeat = static_cast<int>(args.get_int("repeat", 3, 1));
  const std::string json = args.get_string("json", "");
  args.finish();
  if (options.model.empty()) throw std::invalid_argument("--model: an empty name");
  const std::vector<OutputLock> outputs = lock_files({json});  // held to the end

  std::vector<std::string> names = args.positional();
  if (names.empty())
    for (const GameEntry& entry : registered_games()) names.emplace_back(entry.name);
  std::vector<std::shared_ptr<const AnyGame>> games;
  std::vector<std::shared_ptr<Evaluator>> networks;  // made before any work, one per game
  for (const std::string& name : names) {
    const auto& game = games.emplace_back(load_game(name));
    const GameInfo info = game->info();
    networks.push_back(options.model == "resnet"
                           ? create_network(info, game->spec(), options.net, kSeed, options.device,
                                            options.torch_threads, options.precision)
                           : load_network(options.model == "pretrained"
                                              ? pretrained_model_path(game->spec())
                                              : options.model,
                                          info, game->spec(), options.device, options.torch_threads,
                                          options.precision));
  }

  std::printf(
      "knightgym selfplay-bench: network %s on %s in %s%s, %d LibTorch thread(s) per self-play "
      "thread; median of %d measurements of at least %g s\n",
      options.model.c_str(), options.device.c_str(), precision_name(options.precision),
      cuda_graphs_heading(options.device).c_str(), options.torch_threads, options.repeat,
      options.seconds);
  for (const auto& game : games) std::printf("  %s\n", game->spec().c_str());
  std::printf(
      "\nT threads each playing B games, Gumbel search at the game's self-play simulations; "
      "positions (decisions) and network evaluations per second, the network's mean batch; "
      "the threads' time in tree search, the network, the game's code and waiting for the "
      "others; the share of the time a network call was in flight\n\n");
  std::printf(
      "| %-18s | %-10s | sims |  T |     B | positions/s | evaluations/s | mean batch | search | "
      "network |   game | waiting |  device |\n",
      "game", "network");
  std::printf(
      "|%s|------------|-----:|---:|------:|------------:|--------------:|-----------:|-------:|"
      "--------:|-------:|--------:|--------:|\n",
      std::string(20, '-').c_str());
  std::vector<Row> rows;
  for (size_t g = 0; g < games.size(); ++g)
    for (const int threads : options.threads) {
      rows.push_back(TypedCode<TypedSelfPlayRow>::of(*games[g], "selfplay-bench")
                         .row(*games[g], options, threads, networks[g]));
      print_row(rows.back());
    }
  if (!json.empty()) write_file_atomically(json, rows_json(rows, options));
  return 0;
}

}  // namespace knightgym::cli
