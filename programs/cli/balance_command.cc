// knightgym balance: seat-rotated tournaments over a grid of rule sets, with seat win
// rates, the first seat's advantage, balance and an optional sequential test; writes
// DIR/balance.json, DIR/balance.md and the plots (drawn by knightgym.balance in Python).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "agents/agent_kinds.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "training/balance/progress_printer.h"
#include "training/balance/report.h"

namespace knightgym::cli {
namespace {

// Runs `python -m knightgym.balance plot DIR` with the interpreter and package this
// program was built with; returns its exit status.
int draw_plots(const std::string& directory) {
#ifdef KNIGHTGYM_PLOT_PYTHON
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    const char* old_path = std::getenv("PYTHONPATH");
    const std::string path =
        std::string(KNIGHTGYM_PLOT_PYTHONPATH) + (old_path ? std::string(":") + old_path : "");
    setenv("PYTHONPATH", path.c_str(), 1);
    execlp(KNIGHTGYM_PLOT_PYTHON, KNIGHTGYM_PLOT_PYTHON, "-m", "knightgym.balance", "plot",
           directory.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  if (waitpid(child, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
#else
  (void)directory;
  std::fputs("knightgym balance: no plots: this build has no Python module\n", stderr);
  return 0;
#endif
}

}  // namespace

int balance_command(Args& args) {
  if (args.positional().size() != 1)
    throw std::invalid_argument(
        "usage: knightgym balance GAME[(params)] [--sweep KEY=V1,V2,...]... --agents "
        "SPEC[,SPEC] [--games N] [--threads T] [--seed S] [--sprt a1=X,...] "
        "[--check-every N] --out DIR [--no-plots]");
  BalanceOptions options;
  options.game = args.positional()[0];
  for (const std::string& sweep : args.get_strings("sweep"))
    options.sweeps.push_back(parse_sweep(sweep));
  const std::string agents = args.get_string("agents", "");
  if (agents.empty()) throw std::invalid_argument("--agents SPEC[,SPEC...] is required");
  options.agents = split_agent_specs(agents);
  options.games = args.get_int("games", 1000, 1);
  options.threads = static_cast<int>(args.get_int("threads", 1, 1));
  options.seed = static_cast<uint64_t>(args.get_int("seed", 0, 0));
  if (args.has("sprt")) options.sprt = parse_sprt(args.get_string("sprt", ""));
  options.check_every = args.get_int("check-every", 100, 1);
  const std::string out = args.get_string("out", "");
  if (out.empty()) throw std::invalid_argument("--out DIR is required");
  const bool plots = !args.get_switch("no-plots");
  args.finish();

  BalanceProgressPrinter printer(stderr);
  const BalanceResult result =
      run_balance(options, [&](const BalanceProgress& progress) { printer(progress); });
  printer.finish();
  write_balance_files(out, result);
  std::fputs(balance_markdown(result).c_str(), stdout);
  std::printf("\nwrote %s/balance.json and %s/balance.md\n", out.c_str(), out.c_str());
  if (!plots) return 0;
  const int status = draw_plots(out);
  if (status != 0) {
    std::fprintf(stderr, "knightgym balance: drawing the plots failed (status %d)\n", status);
    return 1;
  }
  return 0;
}

}  // namespace knightgym::cli
