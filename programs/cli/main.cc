// knightgym: the command-line program. Thin dispatch to one function per subcommand.
#include <cstdio>
#include <exception>
#include <set>
#include <stdexcept>
#include <string>

#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#if KNIGHTGYM_TORCH
#include "agents/torch_evaluator.h"
#endif

namespace {

constexpr const char* kUsage =
    "usage: knightgym COMMAND [ARGS]\n"
    "  list [--agents]                   games and their parameters (agents' with --agents)\n"
    "  bench GAME [--envs N] [--threads T] [--steps S] [--python PATH|none]\n"
    "                                    steps/s of the rules, the vector env and Python\n"
    "  demo [--envs N] [--games G] [--seed S]\n"
    "                                    random Knight Fight games, a board, a throughput\n"
    "  perft [--game knightmate] [--fen FEN] --depth D [--divide]\n"
    "                                    Knightmate perft counts, per move with --divide\n"
    "  perft-bench [--depth D] [--repeat R]\n"
    "                                    our perft against Fairy-Stockfish's, nodes/s\n"
    "  search-bench [GAME...] [--sims N] [--az-sims N] [--batch B,B] [--blocks K]\n"
    "               [--channels C] [--threads T] [--seconds S] [--repeat R]\n"
    "                                    MCTS sims/s; AlphaZero search against the network\n"
    "  play GAME --agents SPEC,SPEC[,...] [--games N] [--threads T | --batch B] [--seed S]\n"
    "       [--json FILE] [--record FILE]\n"
    "                                    seat-rotated games: scores with 95% intervals;\n"
    "                                    --record writes their moves (JSON lines)\n"
    "  ladder GAME --agents SPEC,SPEC[,...] [--games N] [--schedule roundrobin|gauntlet]\n"
    "         [--anchor SPEC] [--threads T | --batch B] [--seed S] [--json FILE]\n"
    "                                    Bradley-Terry Elo of agents, random at 0\n"
    "  uci [--agent SPEC] [--seed S]     a UCI engine for Knightmate on stdin/stdout\n"
    "                                    (default agent mcts:sims=800)\n"
    "  train GAME --out DIR [--minutes M | --steps S] [--resume] [--device cpu|cuda]\n"
    "        [--config FILE] [--print-config] [--ray ADDRESS [--actors N]]\n"
    "                                    AlphaZero-style training (teacher= in the\n"
    "                                    settings: from teacher data first; --ray:\n"
    "                                    self-play on a Ray cluster); see\n"
    "                                    docs/training.md\n"
    "  balance GAME [--sweep KEY=V1,V2,...]... --agents SPEC[,SPEC] [--games N]\n"
    "          [--threads T] [--batch B] [--opening-plies P] [--seed S]\n"
    "          [--sprt a0=A,a1=B,alpha=X,beta=Y] [--check-every N] [--ray ADDRESS]\n"
    "          --out DIR [--resume] [--no-plots] [--record N]\n"
    "                                    seat balance of rule sets; see docs/balance.md;\n"
    "                                    --record: the first N games of each in\n"
    "                                    DIR/records.jsonl\n"
    "  teach GAME --teacher SPEC --games N --out DIR [--threads T] [--seed S]\n"
    "        [--opening-plies P] [--shard-games K] [--resume]\n"
    "                                    teacher data: SPEC plays every seat, each\n"
    "                                    decision kept with its policy and value in\n"
    "                                    DIR/shard-*.kgt; see docs/training.md\n"
    "  view [FILE|DIR...] [--folder DIR]... [--model NAME=PATH]...\n"
    "       [--engine NAME=PATH]... [--max-sims N] [--move-seconds S] [--port P] [--host H]\n"
    "                                    a web app on http://H:P/ (default 127.0.0.1:8000;\n"
    "                                    port 0 picks one), opened with the token it\n"
    "                                    prints: replay game records, play against\n"
    "                                    agents; see docs/api.md\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace knightgym::cli;
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "help") {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
#if KNIGHTGYM_TORCH
  knightgym::use_torch_networks();
#endif
  try {
    // Switches take no value; `play --agents` does, `list --agents` does not.
    const std::set<std::string> switches =
        command == "list"      ? std::set<std::string>{"agents"}
        : command == "train"   ? std::set<std::string>{"resume", "print-config"}
        : command == "balance" ? std::set<std::string>{"no-plots", "resume"}
        : command == "teach"   ? std::set<std::string>{"resume"}
                               : std::set<std::string>{"divide"};
    Args args(argc, argv, 2, switches);
    if (command == "list") return list_command(args);
    if (command == "bench") return bench_command(args);
    if (command == "demo") return demo_command(args);
    if (command == "perft") return perft_command(args);
    if (command == "perft-bench") return perft_bench_command(args);
    if (command == "search-bench") return search_bench_command(args);
    if (command == "play") return play_command(args);
    if (command == "ladder") return ladder_command(args);
    if (command == "view") return view_command(args);
    if (command == "uci") return uci_command(args);
#if KNIGHTGYM_TORCH
    if (command == "train") return train_command(args);
#else
    if (command == "train")
      throw std::invalid_argument(
          "this build has no LibTorch (configured with KNIGHTGYM_TORCH=OFF)");
#endif
    if (command == "balance") return balance_command(args);
    if (command == "teach") return teach_command(args);
    std::fprintf(stderr, "knightgym: unknown command '%s'\n%s", command.c_str(), kUsage);
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "knightgym %s: %s\n", command.c_str(), error.what());
    return 1;
  }
}
