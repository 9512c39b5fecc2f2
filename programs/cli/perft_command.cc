// knightgym perft and perft-bench: perft counts of the Knightmate move generator, and their
// speed against the real Fairy-Stockfish (programs/engines) on the same positions.
//
//   knightgym perft [--game knightmate] [--fen FEN] --depth D [--divide]
//     With --divide, one line "move: count" per legal move, sorted by move text. The last
//     line is always "nodes N", N the total.
//   knightgym perft-bench [--depth D] [--repeat R]
//     A markdown table over fixed positions, each at its own depth unless --depth is given;
//     both engines single-threaded, bulk-counting the last ply; Fairy-Stockfish timed from
//     the `go perft` request to its answer. The median of R runs (default 1).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "env/games/knightmate/fen.h"
#include "env/games/knightmate/perft.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/engines/fairy_stockfish.h"
#include "util/statistics.h"
#include "util/timing.h"

namespace knightgym::cli {
namespace {

using Clock = SteadyClock;

struct BenchPosition {
  const char* name;
  const char* fen;
  int depth;  // Fairy-Stockfish takes a few seconds
};

constexpr BenchPosition kBenchPositions[] = {
    {"start", knightmate::kStartFen.data(), 6},
    {"castling, en passant", "r3k2r/ppp1qppp/2m1bm2/3pP3/8/2M1BM2/PPP1QPPP/R3K2R w KQkq d6 0 9", 5},
    {"promotions", "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1", 5},
    {"endgame", "4k3/P1p5/8/1P6/8/8/p5P1/4K3 b - - 0 1", 7},
};

void print_row(const char* name, const std::string& depth, uint64_t nodes, double ours,
               double theirs) {
  const double n = static_cast<double>(nodes);
  std::printf("| %-22s | %5s | %12llu | %14.2f | %14.2f | %5.2f |\n", name, depth.c_str(),
              static_cast<unsigned long long>(nodes), n / ours / 1e6, n / theirs / 1e6,
              theirs / ours);
  std::fflush(stdout);
}

}  // namespace

int perft_command(Args& args) {
  const std::string game = args.get_string("game", "knightmate");
  const std::string fen = args.get_string("fen", std::string(knightmate::kStartFen));
  const bool divide = args.get_switch("divide");
  if (!args.has("depth")) throw std::invalid_argument("--depth D is required");
  const int depth = static_cast<int>(args.get_int("depth", 1, 1));
  args.finish();
  if (!args.positional().empty())
    throw std::invalid_argument("unexpected argument '" + args.positional()[0] + "'");
  if (game != "knightmate")
    throw std::invalid_argument("--game '" + game + "': perft supports only knightmate");

  const knightmate::Position p = knightmate::parse_fen(fen);
  uint64_t nodes = 0;
  if (divide) {
    std::vector<std::pair<std::string, uint64_t>> lines;
    for (const auto& [move, count] : knightmate::perft_divide(p, depth)) {
      lines.emplace_back(knightmate::move_to_uci(move), count);
      nodes += count;
    }
    std::sort(lines.begin(), lines.end());
    for (const auto& [move, count] : lines)
      std::printf("%s: %llu\n", move.c_str(), static_cast<unsigned long long>(count));
  } else {
    nodes = knightmate::perft(p, depth);
  }
  std::printf("nodes %llu\n", static_cast<unsigned long long>(nodes));
  return 0;
}

int perft_bench_command(Args& args) {
  const int depth = static_cast<int>(args.get_int("depth", 0, 1));  // 0: each position's own
  const int repeat = static_cast<int>(args.get_int("repeat", 1, 1));
  args.finish();

  engines::FairyStockfish fairy;
  std::printf(
      "knightgym perft-bench: Knightmate perft, ours against Fairy-Stockfish (%s), one "
      "thread each, median of %d; ratio = our speed / Fairy-Stockfish's\n\n",
      fairy.path().c_str(), repeat);
  for (const BenchPosition& position : kBenchPositions)
    std::printf("  %-22s %s\n", position.name, position.fen);
  std::printf("\n| %-22s | depth | %12s | %14s | %14s | ratio |\n", "position", "nodes",
              "ours Mnodes/s", "FSF Mnodes/s");
  std::printf("|%s|------:|-------------:|---------------:|---------------:|------:|\n",
              std::string(24, '-').c_str());

  uint64_t total_nodes = 0;
  double total_ours = 0, total_theirs = 0;
  for (const BenchPosition& position : kBenchPositions) {
    const int d = depth ? depth : position.depth;
    const knightmate::Position p = knightmate::parse_fen(position.fen);
    std::vector<double> ours, theirs;
    uint64_t nodes = 0;
    for (int r = 0; r < repeat; ++r) {
      auto start = Clock::now();
      nodes = knightmate::perft(p, d);
      ours.push_back(seconds_since(start));
      start = Clock::now();
      const uint64_t reference_nodes = fairy.perft(position.fen, d);
      theirs.push_back(seconds_since(start));
      if (nodes != reference_nodes)
        throw std::runtime_error("perft " + std::to_string(d) + " of " + position.fen + ": ours " +
                                 std::to_string(nodes) + ", Fairy-Stockfish " +
                                 std::to_string(reference_nodes));
    }
    print_row(position.name, std::to_string(d), nodes, median(ours), median(theirs));
    total_nodes += nodes;
    total_ours += median(ours);
    total_theirs += median(theirs);
  }
  print_row("total", "", total_nodes, total_ours, total_theirs);
  return 0;
}

}  // namespace knightgym::cli
