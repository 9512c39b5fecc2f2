// knightgym perft and perft-bench: perft counts of every game's move generator
// (env/core/perft.h), and their speed, against the real Fairy-Stockfish (programs/engines)
// for a game it plays.
//
//   knightgym perft GAME [--seed S | --fen FEN] --depth D [--divide]
//     From the start of an episode drawn with --seed (default 0), or from --fen for a game
//     a UCI engine plays. With --divide, one line "action: count" per legal action,
//     sorted by action text. The last line is always "nodes N", N the total.
//   knightgym perft-bench [GAME ...] [--depth D] [--seconds T] [--repeat R]
//     A markdown table over the games given (default every registered game): each game's
//     start (seed 0) at the first depth whose count takes at least T seconds (default
//     0.5), or at --depth D; for a game Fairy-Stockfish plays, instead, its perft
//     positions (env/core/uci_game.h, the start among them, each at its own depth unless
//     --depth is given) against Fairy-Stockfish, both single-threaded, bulk-counting the
//     last ply, and Fairy-Stockfish timed from the `go perft` request to its answer. The
//     median of R runs (default 1).
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "env/registry/registry.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/engines/fairy_stockfish.h"
#include "util/quantiles.h"
#include "util/timing.h"

namespace knightgym::cli {
namespace {

using Clock = SteadyClock;

constexpr int kMaxAutoDepth = 64;

struct Timed {
  uint64_t nodes = 0;
  double seconds = 0;
};

// The last of `repeat` counts, each made by count(), and their median time.
template <class Count>
Timed median_time(int repeat, Count count) {
  std::vector<double> seconds;
  uint64_t nodes = 0;
  for (int r = 0; r < repeat; ++r) {
    const auto start = Clock::now();
    nodes = count();
    seconds.push_back(seconds_since(start));
  }
  return {nodes, median(seconds)};
}

Timed time_perft(const AnyState& state, int depth, int repeat) {
  return median_time(repeat, [&] { return state.perft(depth); });
}

// The first depth whose count takes at least `seconds`, or the first at which the tree
// ends (no deeper leaves), or kMaxAutoDepth.
int auto_depth(const AnyState& state, double seconds) {
  for (int depth = 1; depth < kMaxAutoDepth; ++depth) {
    const auto start = Clock::now();
    if (state.perft(depth) == 0 || seconds_since(start) >= seconds) return depth;
  }
  return kMaxAutoDepth;
}

void print_header() {
  std::printf("| %-17s | %-22s | depth | %13s | %13s | %13s | ratio |\n", "game", "position",
              "nodes", "ours Mnodes/s", "FSF Mnodes/s");
  std::printf("|%s|%s|------:|--------------:|--------------:|--------------:|------:|\n",
              std::string(19, '-').c_str(), std::string(24, '-').c_str());
}

void print_row(std::string_view game, std::string_view position, int depth, const Timed& ours,
               const std::optional<Timed>& theirs) {
  const double n = static_cast<double>(ours.nodes);
  char fsf[64] = "-", ratio[16] = "-";
  if (theirs) {
    std::snprintf(fsf, sizeof fsf, "%.2f", n / theirs->seconds / 1e6);
    std::snprintf(ratio, sizeof ratio, "%.2f", theirs->seconds / ours.seconds);
  }
  std::printf("| %-17.*s | %-22.*s | %5d | %13llu | %13.2f | %13s | %5s |\n",
              static_cast<int>(game.size()), game.data(), static_cast<int>(position.size()),
              position.data(), depth, static_cast<unsigned long long>(ours.nodes),
              n / ours.seconds / 1e6, fsf, ratio);
  std::fflush(stdout);
}

// Fairy-Stockfish's count of `fen` at `depth`, timed; throws if it differs from ours.
Timed reference_perft(engines::FairyStockfish& fairy, std::string_view game, const std::string& fen,
                      int depth, int repeat, uint64_t ours) {
  const Timed theirs = median_time(repeat, [&] { return fairy.perft(fen, depth); });
  if (theirs.nodes != ours)
    throw std::runtime_error(std::string(game) + " perft " + std::to_string(depth) + " of " + fen +
                             ": ours " + std::to_string(ours) + ", Fairy-Stockfish " +
                             std::to_string(theirs.nodes));
  return theirs;
}

void bench_game(const AnyGame& game, int depth, double seconds, int repeat) {
  const std::optional<UciInfo> uci = game.uci();
  if (!uci) {
    const std::unique_ptr<AnyState> start = game.new_initial_state(0);
    const int start_depth = depth ? depth : auto_depth(*start, seconds);
    print_row(game.name(), "start", start_depth, time_perft(*start, start_depth, repeat),
              std::nullopt);
    return;
  }
  engines::FairyStockfish fairy(*uci);
  for (const UciPerftPosition& position : uci->perft_positions) {
    const int d = depth ? depth : position.depth;
    const std::string fen(position.fen);
    const Timed our_count = time_perft(*game.state_from_fen(fen), d, repeat);
    print_row(game.name(), position.name, d, our_count,
              reference_perft(fairy, game.name(), fen, d, repeat, our_count.nodes));
  }
}

}  // namespace

int perft_command(Args& args) {
  const bool divide = args.get_switch("divide");
  if (!args.has("depth")) throw std::invalid_argument("--depth D is required");
  const int depth = static_cast<int>(args.get_int("depth", 1, divide ? 1 : 0));
  const bool from_fen = args.has("fen");
  const std::string fen = args.get_string("fen", "");
  const bool seeded = args.has("seed");
  const auto seed = static_cast<uint64_t>(args.get_int("seed", 0, 0));
  args.finish();
  args.expect_positional(1);
  if (from_fen && seeded) throw std::invalid_argument("give --fen or --seed, not both");

  const std::shared_ptr<const AnyGame> game = load_game(args.positional()[0]);
  const std::unique_ptr<AnyState> state =
      from_fen ? game->state_from_fen(fen) : game->new_initial_state(seed);
  uint64_t nodes = 0;
  if (divide) {
    for (const auto& [action, count] : state->perft_divide(depth)) {
      std::printf("%s: %llu\n", action.c_str(), static_cast<unsigned long long>(count));
      nodes += count;
    }
  } else {
    nodes = state->perft(depth);
  }
  std::printf("nodes %llu\n", static_cast<unsigned long long>(nodes));
  return 0;
}

int perft_bench_command(Args& args) {
  const int depth = static_cast<int>(args.get_int("depth", 0, 1));  // 0: each position's own
  const double seconds = args.get_double("seconds", 0.5, 0.001);
  const int repeat = static_cast<int>(args.get_int("repeat", 1, 1));
  args.finish();
  std::vector<std::shared_ptr<const AnyGame>> games;
  for (const std::string& spec : args.positional()) games.push_back(load_game(spec));
  if (games.empty())
    for (const GameEntry& entry : registered_games()) games.push_back(load_game(entry.name));

  std::printf(
      "knightgym perft-bench: perft from each game's start (seed 0), at the first depth "
      "taking %.2f s unless --depth is given; a game Fairy-Stockfish plays on its perft "
      "positions instead, against Fairy-Stockfish; one thread each, median of %d; ratio = "
      "our speed / Fairy-Stockfish's\n\n",
      seconds, repeat);
  for (const auto& game : games)
    if (const std::optional<UciInfo> uci = game->uci())
      for (const UciPerftPosition& position : uci->perft_positions)
        std::printf("  %s %-22.*s %.*s\n", std::string(game->name()).c_str(),
                    static_cast<int>(position.name.size()), position.name.data(),
                    static_cast<int>(position.fen.size()), position.fen.data());
  std::printf("\n");
  print_header();
  for (const auto& game : games) bench_game(*game, depth, seconds, repeat);
  return 0;
}

}  // namespace knightgym::cli
