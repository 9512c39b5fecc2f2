// knightgym search-bench [GAME...]: throughput of the searching agents.
//   - MCTS with random roll-outs (mcts_agent.h): simulations/s at 1 and T threads, T
//     independent agents on different positions.
//   - AlphaZero search (search_batch.h, Gumbel) with the default network on the CPU or,
//     with --device cuda, on the GPU: the network's forward throughput on a batch of B real
//     observations (also as GFLOP/s and, on the CPU, as a fraction of the processor's peak,
//     measured by util/peak_flops.h), the positions/s that
//     B searches advancing together get evaluated (the two measured in alternation), their
//     ratio (what search, env and batching leave of the network's speed), and the same
//     searches over the uniform evaluator (search and env alone).
// Every cell is the median of --repeat measurements of at least --seconds each; the cells
// of a row are measured in turn. A measurement repeats one fixed piece of work (the same
// positions, reached by random moves from seeded starts, and the same search seeds),
// whatever the thread count.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/evaluator.h"
#include "agents/mcts_agent.h"
#include "agents/network.h"
#include "agents/search_batch.h"
#include "env/core/sample.h"
#include "env/registry/typed_code.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "util/peak_flops.h"
#include "util/quantiles.h"
#include "util/timing.h"

namespace knightgym::cli {
namespace {

using Clock = SteadyClock;

constexpr int kOpeningPlies = 8;    // random moves from the start to each position
constexpr int kMctsPositions = 16;  // decisions in one MCTS pass, shared among the threads
constexpr int kForwardWarmup = 3;   // first calls pay LibTorch's one-time set-up per shape

struct Options {
  int mcts_sims, az_sims, threads, blocks, channels, repeat;
  double seconds;
  std::string device;
  Precision precision = Precision::kFloat32;
  std::vector<int> batches;
};

// Calls pass(), which returns the units of work it did, until `seconds` have passed.
template <class Pass>
double units_per_second(double seconds, Pass&& pass) {
  int64_t units = 0;
  const auto start = Clock::now();
  double elapsed = 0;
  do {
    units += pass();
  } while ((elapsed = seconds_since(start)) < seconds);
  return static_cast<double>(units) / elapsed;
}

// Position i: kOpeningPlies random moves from a start drawn with seed i (again, with the
// stream going on, if the game ended).
template <Game G>
std::vector<typename G::State> random_positions(const G& game, int count) {
  std::vector<typename G::State> positions(count);
  for (int i = 0; i < count; ++i) {
    Rng rng(static_cast<uint64_t>(i));
    typename G::State& state = positions[i];
    do {
      game.init(state, rng);
      for (int ply = 0; ply < kOpeningPlies && !game.terminal(state); ++ply)
        game.apply(state, sample_legal_action(game, state, rng));
    } while (game.terminal(state));
  }
  return positions;
}

// One decision per position, the positions shared out among `threads` threads; returns
// the simulations done. Each decision gets a fresh agent seeded with the position's
// index, so the work does not depend on which thread takes it.
template <Game G>
int64_t mcts_pass(const G& game, std::span<const typename G::State> positions,
                  const MctsConfig& config, int threads) {
  std::atomic<int> next{0};
  std::atomic<int64_t> simulations{0};
  const int count = static_cast<int>(positions.size());
  const auto work = [&] {
    int64_t done = 0;
    for (int i = next++; i < count; i = next++) {
      MctsAgent<G> agent(game, config, static_cast<uint64_t>(i));
      agent.act(positions[i]);
      done += agent.last_report().sims;
    }
    simulations += done;
  };
  {
    std::vector<std::jthread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(work);
  }
  return simulations;
}

// A row's measurements take turns, so that the shared machine's drift hits them alike.
template <Game G>
void mcts_rows(const G& game, const Options& options) {
  const auto positions = random_positions(game, kMctsPositions);
  MctsConfig config;
  config.sims = options.mcts_sims;
  std::vector<int> threads = {1};
  if (options.threads > 1) threads.push_back(options.threads);
  std::vector<std::vector<double>> rates(threads.size());
  for (int r = 0; r < options.repeat; ++r)
    for (size_t t = 0; t < threads.size(); ++t)
      rates[t].push_back(units_per_second(options.seconds, [&] {
        return mcts_pass(game, std::span(positions), config, threads[t]);
      }));
  for (size_t t = 0; t < threads.size(); ++t)
    std::printf("| %-18s | %7d | %12.0f |\n", G::kName.data(), threads[t], median(rates[t]));
  std::fflush(stdout);
}

// One run of the batch's searches; returns the positions evaluated.
template <Game G>
int64_t search_pass(SearchBatch<G>& searches, std::span<const typename G::State> roots,
                    const std::vector<uint64_t>& seeds) {
  const int64_t before = searches.evaluated();
  searches.run(roots, seeds.data());
  return searches.evaluated() - before;
}

struct Rates {
  double forward, search;
};

// Alternates one run of the searches with forward calls on the fixed batch for as many
// positions as the run evaluated, until each side has had `seconds`: both see the same load
// on the shared machine, so their ratio holds while the load changes.
template <class Forward, class Search>
Rates forward_and_search(double seconds, int batch, Forward&& forward, Search&& search) {
  double forward_time = 0, search_time = 0;
  int64_t forwarded = 0, searched = 0;
  while (std::min(forward_time, search_time) < seconds) {
    auto start = Clock::now();
    const int64_t evaluated = search();
    search_time += seconds_since(start);
    searched += evaluated;
    start = Clock::now();
    for (int64_t done = 0; done < evaluated; done += batch, forwarded += batch) forward();
    forward_time += seconds_since(start);
  }
  return {static_cast<double>(forwarded) / forward_time,
          static_cast<double>(searched) / search_time};
}

// The rows of one game: its network made once, then each batch size.
template <Game G>
void az_rows(const G& game, const std::string& spec, const Options& options, double peak_gflops) {
  const GameInfo info = game.info();
  const int64_t flops = resnet_flops(info, NetConfig{options.blocks, options.channels});
  const auto network = create_network(info, spec, NetConfig{options.blocks, options.channels}, 0,
                                      options.device, options.threads, options.precision);
  UniformEvaluator uniform(info);
  AzConfig config;
  config.sims = options.az_sims;
  for (const int batch : options.batches) {
    const auto roots = random_positions(game, batch);
    const size_t observation_size = info.observation_shape.size();
    std::vector<float> observations(batch * observation_size);
    std::vector<uint8_t> masks(static_cast<size_t>(batch) * info.num_actions);
    std::vector<float> priors(static_cast<size_t>(batch) * info.num_actions);
    std::vector<float> values(static_cast<size_t>(batch) * info.num_players);
    for (int i = 0; i < batch; ++i) {
      game.observe(roots[i], game.current_player(roots[i]), &observations[i * observation_size]);
      game.legal_mask(roots[i], &masks[static_cast<size_t>(i) * info.num_actions]);
    }
    const auto forward = [&] {
      network->evaluate(batch, observations.data(), masks.data(), priors.data(), values.data());
    };
    std::vector<uint64_t> seeds(batch);
    std::iota(seeds.begin(), seeds.end(), uint64_t{0});
    SearchBatch<G> with_network(game, config, *network), with_uniform(game, config, uniform);
    const auto network_pass = [&] { return search_pass(with_network, std::span(roots), seeds); };
    const auto uniform_pass = [&] { return search_pass(with_uniform, std::span(roots), seeds); };

    // Warm-up: LibTorch sets up each batch shape on first use (the searches' last batches
    // are smaller), and the trees grow to their size.
    for (int i = 0; i < kForwardWarmup; ++i) forward();
    network_pass();
    uniform_pass();
    std::vector<double> forward_rates, network_rates, uniform_rates;
    for (int r = 0; r < options.repeat; ++r) {
      const Rates rates = forward_and_search(options.seconds, batch, forward, network_pass);
      forward_rates.push_back(rates.forward);
      network_rates.push_back(rates.search);
      uniform_rates.push_back(units_per_second(options.seconds, uniform_pass));
    }
    const double forward_rate = median(forward_rates), search_rate = median(network_rates);
    const double gflops = forward_rate * static_cast<double>(flops) / 1e9;
    char of_peak[16] = "-";  // the processor's peak says nothing of a GPU's
    if (options.device == "cpu")
      std::snprintf(of_peak, sizeof of_peak, "%.1f%%", 100 * gflops / peak_gflops);
    std::printf("| %-18s | %5d | %13.0f | %8.1f | %9s | %12.0f | %13.1f%% | %16.0f |\n",
                G::kName.data(), batch, forward_rate, gflops, of_peak, search_rate,
                100 * search_rate / forward_rate, median(uniform_rates));
    std::fflush(stdout);
  }
}

// The search benchmark's typed code for a game (env/registry/typed_code.h).
struct TypedSearchRows {
  void (*mcts)(const AnyGame& game, const Options& options);
  void (*az)(const AnyGame& game, const Options& options, double peak_gflops);

  template <Game G>
  static TypedSearchRows of() {
    return {[](const AnyGame& game, const Options& options) {
              mcts_rows(typed_rules<G>(game), options);
            },
            [](const AnyGame& game, const Options& options, double peak_gflops) {
              az_rows(typed_rules<G>(game), game.spec(), options, peak_gflops);
            }};
  }
};

// "16,64" -> {16, 64}.
std::vector<int> parse_batches(const std::string& text) {
  std::vector<int> batches;
  size_t begin = 0;
  while (begin <= text.size()) {
    const size_t end = std::min(text.find(',', begin), text.size());
    int value = 0;
    const auto [stop, error] = std::from_chars(text.data() + begin, text.data() + end, value);
    if (error != std::errc() || stop != text.data() + end || value < 1)
      throw std::invalid_argument("--batch '" + text + "': expected sizes >= 1, e.g. 16,64");
    batches.push_back(value);
    begin = end + 1;
  }
  return batches;
}

}  // namespace

int search_bench_command(Args& args) {
  const int hardware = hardware_threads();
  const NetConfig net;
  Options options;
  options.mcts_sims = static_cast<int>(args.get_int("sims", 400, 1));
  options.az_sims = static_cast<int>(args.get_int("az-sims", 32, 1));
  options.batches = parse_batches(args.get_string("batch", "16,64"));
  options.blocks = static_cast<int>(args.get_int("blocks", net.blocks, 0));
  options.channels = static_cast<int>(args.get_int("channels", net.channels, 1));
  options.threads = static_cast<int>(args.get_int("threads", hardware, 1));
  options.seconds = static_cast<double>(args.get_int("seconds", 2, 1));
  options.repeat = static_cast<int>(args.get_int("repeat", 3, 1));
  options.device = args.get_string("device", "cpu");
  options.precision = precision_named(args.get_string("precision", "float32"));
  set_cuda_graphs(!args.get_switch("no-cuda-graphs"));
  args.finish();

  std::vector<std::string> names = args.positional();
  if (names.empty())
    for (const GameEntry& entry : registered_games()) names.emplace_back(entry.name);
  std::vector<std::shared_ptr<const AnyGame>> games;
  for (const std::string& name : names) games.push_back(load_game(name));

  std::printf("knightgym search-bench: %d threads, median of %d measurements of at least %g s\n",
              options.threads, options.repeat, options.seconds);
  for (const auto& game : games) std::printf("  %s\n", game->spec().c_str());

  std::printf(
      "\nMCTS, random roll-outs: %d simulations per decision from %d positions (%d random "
      "plies from the start), a fresh agent per decision, one per thread at a time\n\n",
      options.mcts_sims, kMctsPositions, kOpeningPlies);
  std::printf("| %-18s | threads | %12s |\n|%s|--------:|-------------:|\n", "game", "sims/s",
              std::string(20, '-').c_str());
  for (const auto& game : games)
    TypedCode<TypedSearchRows>::of(*game, "search-bench").mcts(*game, options);

  const PeakFlops peak = measure_peak_flops(options.threads);
  const double peak_gflops = peak.flops_per_second / 1e9;
  std::printf(
      "\nAlphaZero search, Gumbel, %d simulations: B searches evaluated together; ResNet %d "
      "blocks x %d channels on %s in %s%s, %d LibTorch threads; positions/s. The forward pass's "
      "GFLOP/s (convolutions and dense layers) against the processor's float32 peak, "
      "measured: %.1f GFLOP/s of %s on %d threads\n\n",
      options.az_sims, options.blocks, options.channels, options.device.c_str(),
      precision_name(options.precision), cuda_graphs_heading(options.device).c_str(),
      options.threads, peak_gflops, peak.instructions.c_str(), options.threads);
  std::printf("| %-18s | batch | %13s | %8s | %9s | %12s | %14s | %16s |\n", "game", "forward",
              "GFLOP/s", "of peak", "search", "search/forward", "uniform search");
  std::printf(
      "|%s|------:|--------------:|---------:|----------:|-------------:|---------------:|---------"
      "--------:|\n",
      std::string(20, '-').c_str());
  for (const auto& game : games)
    TypedCode<TypedSearchRows>::of(*game, "search-bench").az(*game, options, peak_gflops);
  return 0;
}

}  // namespace knightgym::cli
