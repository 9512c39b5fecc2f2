// knightgym: the command-line program. One table of commands: each has its usage, what it
// does and the function that runs it; the usage declares the command's flags (args.h), so
// what `knightgym COMMAND --help` shows is what the command takes. `knightgym` alone lists
// them all; docs/api.md shows that list, and a test checks it is the same.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

#include "agents/pretrained.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/python_package.h"
#if KNIGHTGYM_TORCH
#include "agents/torch_evaluator.h"
#endif

namespace {

using knightgym::cli::Args;

struct Command {
  std::string_view name;
  std::string_view usage;    // the arguments after the name; lines after the first indented
  std::string_view summary;  // what it does, one or more lines
  int (*run)(Args& args);
  // Its arguments go unread to the Python program that declares them, --help included.
  bool hands_over = false;
};

#if KNIGHTGYM_TORCH
constexpr auto kTrain = &knightgym::cli::train_command;
constexpr auto kKeep = &knightgym::cli::keep_command;
constexpr auto kIterate = &knightgym::cli::iterate_command;
#else
int no_training(Args&) {
  throw std::invalid_argument("this build has no LibTorch (configured with KNIGHTGYM_TORCH=OFF)");
}
constexpr auto kTrain = &no_training;
constexpr auto kKeep = &no_training;
constexpr auto kIterate = &no_training;
#endif

const Command kCommands[] = {
    {"list", "[--agents | --names]",
     "games and their parameters (agents' with --agents; the games' names alone with --names)",
     &knightgym::cli::list_command},
    {"bench", "GAME [--envs N] [--threads T] [--steps S] [--repeat R] [--python PATH|none]",
     "steps/s of the rules, the vector env and Python", &knightgym::cli::bench_command},
    {"perft", "GAME [--seed S | --fen FEN] --depth D [--divide]",
     "perft counts of a game's start (or of a FEN), per action with --divide",
     &knightgym::cli::perft_command},
    {"perft-bench", "[GAME...] [--depth D] [--seconds T] [--repeat R]",
     "perft nodes/s of every game; against Fairy-Stockfish's where it plays the game",
     &knightgym::cli::perft_bench_command},
    {"search-bench",
     "[GAME...] [--sims N] [--az-sims N] [--batch B,B] [--blocks K]\n"
     "[--channels C] [--threads T] [--device cpu|cuda] [--precision float32|bfloat16|float16]\n"
     "[--no-cuda-graphs] [--seconds S] [--repeat R]",
     "MCTS simulations/s; AlphaZero search against the network (on the GPU with --device cuda)",
     &knightgym::cli::search_bench_command},
    {"selfplay-bench",
     "[GAME...] [--model pretrained|PATH|resnet] [--blocks K] [--channels C] [--sims N]\n"
     "[--batch B] [--threads T,T] [--torch-threads N] [--device cpu|cuda]\n"
     "[--precision float32|bfloat16|float16] [--no-cuda-graphs] [--seconds S] [--repeat R]\n"
     "[--json FILE]",
     "self-play positions/s and evaluations/s on T threads of B games each, and where the\n"
     "time goes: tree search, network, game, waiting; the device's busy share",
     &knightgym::cli::selfplay_bench_command},
    {"network-check",
     "[NETWORK...] [--device cpu|cuda] [--precision float32|bfloat16|float16]\n"
     "[--no-cuda-graphs] [--positions N] [--seed S]",
     "how closely the shipped networks answer on a device, in a precision, with CUDA graphs,\n"
     "as float32 on the CPU does; exit status 1 beyond rounding",
     &knightgym::cli::network_check_command},
    {"play",
     "GAME --agents SPEC,SPEC[,...] [--games N] [--threads T] [--batch B [--chunk C]]\n"
     "[--seed S] [--json FILE] [--record FILE]",
     "seat-rotated games: scores with 95% intervals; --record writes their moves (JSON lines);\n"
     "on T threads (default: every core), with --batch in chunks of B games played together\n"
     "(--chunk: chunks of C games, B of them in play, a finished game's place refilled)",
     &knightgym::cli::play_command},
    {"ladder",
     "GAME --agents SPEC,SPEC[,...] [--games N] [--schedule roundrobin|gauntlet]\n"
     "[--challengers K] [--anchor SPEC] [--prior-draws D] [--threads T]\n"
     "[--batch B [--chunk C]] [--seed S] [--json FILE]",
     "Bradley-Terry Elo of agents, random at 0; threads and batches as play's",
     &knightgym::cli::ladder_command},
    {"uci", "[--game SPEC] [--agent SPEC] [--seed S]",
     "a UCI engine on stdin/stdout for a game with the UCI capability (default: the first\n"
     "registered one; agent mcts:sims=800)",
     &knightgym::cli::uci_command},
    {"train",
     "GAME --out DIR [--minutes M | --steps S] [--resume] [--device cpu|cuda]\n"
     "[--config FILE] [--print-config] [--ray ADDRESS [--actors N]]",
     "AlphaZero-style training (teacher= in the settings: from teacher data first; --ray:\n"
     "self-play on a Ray cluster); see docs/training.md",
     kTrain},
    {"iterate",
     "GAME --out DIR --parent MODEL|pretrained [--generations N] [--minutes M | --steps S]\n"
     "[--config FILE] [--teacher-sims N] [--teacher-steps N] [--teach-games N]\n"
     "[--opening-plies P] [--shard-games K] [--threads T] [--batch B]\n"
     "[--teacher-device cpu|cuda] [--device cpu|cuda] [--gate-games N] [--gate-batch B]\n"
     "[--gate-sims N] [--gate-sprt a0=A,a1=B,alpha=X,beta=Y] [--seed S] [--resume]",
     "expert iteration: the parent's search teaches, the child trains from its weights and\n"
     "replaces it if a sequential gate keeps it; a budget per generation; see docs/training.md",
     kIterate},
    {"keep", "RUN DEST [--compact] [--replay-decisions N]",
     "a training run's state to go on from elsewhere, a few MB to commit: settings,\n"
     "networks, metrics and its newest checkpoint (--compact: float16 weights, bfloat16\n"
     "moments, no model.pt), its replay sample cut to N decisions; see docs/training.md",
     kKeep},
    {"balance",
     "GAME [--sweep KEY=V1,V2,...]... --agents SPEC[,SPEC] [--games N]\n"
     "[--threads T] [--batch B [--chunk C]] [--opening-plies P] [--seed S]\n"
     "[--sprt a0=A,a1=B,alpha=X,beta=Y] [--check-every N] [--ray ADDRESS]\n"
     "--out DIR [--resume] [--no-plots] [--record N]",
     "seat balance of rule sets; see docs/balance.md; --record: the first N games of each\n"
     "in DIR/records.jsonl",
     &knightgym::cli::balance_command},
    {"teach",
     "GAME --teacher SPEC --games N --out DIR [--threads T] [--batch B] [--seed S]\n"
     "[--opening-plies P] [--shard-games K] [--rules KEY=V1,V2[;KEY=...]] [--resume]",
     "teacher data: SPEC plays every seat, each decision kept with its policy and value in\n"
     "DIR/shard-*.kgt (--batch: B games at once per thread; --rules: N games of each rule\n"
     "set of the grid in DIR/rules-NNN, for train's rules=); see docs/training.md",
     &knightgym::cli::teach_command},
    {"view", "[FILE|DIR...] [FLAGS...]",
     "a web app on http://H:P/ (default 127.0.0.1:8000; port 0 picks one), opened with the\n"
     "token it prints: replay game records, play against agents; its flags are the viewer's\n"
     "(knightgym view --help lists them); see docs/api.md",
     &knightgym::cli::view_command, true},
};

// `text` with `indent` before every line.
std::string indented(std::string_view text, std::string_view indent) {
  std::string out;
  for (size_t start = 0; start <= text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    out.append(indent).append(text.substr(start, end - start)).append("\n");
    start = end + 1;
  }
  return out;
}

// The usage of `c` after `head`, its later lines aligned under the first's arguments.
std::string usage_after(const std::string& head, const Command& c) {
  std::string usage = indented(c.usage, std::string(head.size(), ' '));
  return usage.replace(0, head.size(), head);
}

std::string usage_of(const Command& c) {
  return usage_after("usage: knightgym " + std::string(c.name) + " ", c) + "\n" +
         indented(c.summary, "");
}

std::string all_usages() {
  std::string out =
      "usage: knightgym COMMAND [ARGS]   (knightgym COMMAND --help: one command; "
      "knightgym --version)\n";
  for (const Command& c : kCommands)
    out += usage_after("  " + std::string(c.name) + " ", c) + indented(c.summary, "      ");
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "help") {
    std::fputs(all_usages().c_str(), argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  if (name == "--version") {
    std::puts("knightgym " KNIGHTGYM_VERSION);
    return 0;
  }
  if (const std::string models = knightgym::cli::installed_models_dir(); !models.empty())
    knightgym::set_models_directory(models);
  const Command* command = nullptr;
  for (const Command& c : kCommands)
    if (c.name == name) command = &c;
  if (!command) {
    std::fprintf(stderr, "knightgym: unknown command '%s'\n%s", name.c_str(), all_usages().c_str());
    return 2;
  }
#if KNIGHTGYM_TORCH
  knightgym::use_torch_networks();
#endif
  try {
    if (command->hands_over) {
      Args args = Args::unread(argc, argv, 2, name);
      return command->run(args);
    }
    for (int i = 2; i < argc; ++i)
      if (std::string_view(argv[i]) == "--help") {
        std::fputs(usage_of(*command).c_str(), stdout);
        return 0;
      }
    std::string usage = usage_after("usage: knightgym " + name + " ", *command);
    usage.pop_back();  // its last newline
    Args args(argc, argv, 2, name, usage);
    return command->run(args);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "knightgym %s: %s\n", name.c_str(), error.what());
    return 1;
  }
}
