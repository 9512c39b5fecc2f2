// knightgym balance: seat-rotated tournaments over a grid of rule sets, with seat win
// rates, the first seat's advantage, balance and an optional sequential test. C++ writes
// the figures, DIR/balance.json; knightgym.balance in Python then writes DIR/balance.md
// and the plots from that file (`python -m knightgym.balance report DIR`). With --ray
// ADDRESS the run stays here and its chunks are played as a Ray cluster's tasks, through
// a Python child that only carries them (ray_relay.h). --record N adds
// DIR/records.jsonl, the first N games of each rule set with their moves. SIGINT or
// SIGTERM stops a run with its progress saved, for --resume to go on from. The run holds
// DIR's OutputLock throughout: a second run on DIR is refused at once.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/agent_kinds.h"
#include "env/registry/registry.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/python_package.h"
#include "programs/cli/ray_relay.h"
#include "programs/cli/stop_signals.h"
#include "training/arena/game_record_file.h"
#include "training/balance/balance_chunks.h"
#include "training/balance/progress_printer.h"
#include "training/balance/result_json.h"
#include "util/atomic_file.h"
#include "util/json_reader.h"
#include "util/json_writer.h"
#include "util/output_lock.h"
#include "util/python_process.h"

namespace knightgym::cli {
namespace {

// `text` as one shell word, for the commands the messages suggest.
std::string shell_word(const std::string& text) {
  std::string word = "'";
  for (const char c : text) word += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return word + "'";
}

// balance.md (also printed) and, unless --no-plots, the plots, from DIR/balance.json.
// A build without Python writes neither: balance.json holds every figure, so that is a
// note, not a failure, and the report can be written from it later.
int write_report(const std::string& directory, bool plots) {
  const std::string python = built_python();
  const std::string command = (python.empty() ? "python3" : shell_word(python)) +
                              " -m knightgym.balance report " + shell_word(directory) +
                              (plots ? "" : " --no-plots");
  if (python.empty()) {
    std::fprintf(stderr,
                 "knightgym balance: this build has no Python module, so %s not written. With "
                 "the knightgym package on PYTHONPATH,\n  %s\nwrites %s from balance.json.\n",
                 plots ? "balance.md and the plots were" : "balance.md was", command.c_str(),
                 plots ? "them" : "it");
    return 0;
  }
  std::vector<std::string> arguments{"report", directory};
  if (!plots) arguments.emplace_back("--no-plots");
  const int status =
      run_python_module(python, python_package_dir(), "knightgym.balance", arguments);
  if (status == 0) return 0;
  std::fprintf(stderr,
               "knightgym balance: writing balance.md%s failed (status %d). balance.json is "
               "written, and\n  PYTHONPATH=%s %s\nwrites them from it.\n",
               plots ? " and the plots" : "", status, shell_word(python_package_dir()).c_str(),
               command.c_str());
  return 1;
}

// DIR/records.jsonl: the first `count` games of each rule set, played again with their
// moves (BalanceChunkPlayer::first_games: the same games; where a sequential test stopped
// a rule set before `count` games, the games it would have played next), as game records
// (training/arena/game_record_file.h).
void write_records(const BalanceOptions& options, int64_t count, const std::string& directory) {
  BalanceOptions replay = options;
  replay.progress_file.clear();
  const BalanceChunkPlayer player(replay);
  const std::vector<std::string> specs = player.agent_specs();
  std::string lines;
  for (int r = 0; r < static_cast<int>(player.grid().size()); ++r) {
    const auto game = load_game(player.grid()[r].spec);
    lines +=
        game_record_lines(*game, player.first_games(r, count), specs, 0, options.opening_plies);
  }
  const std::string path = directory + "/records.jsonl";
  write_file_atomically(path, lines);
  std::printf("wrote %s (the first %lld games of each rule set)\n", path.c_str(),
              static_cast<long long>(count));
}

// The start of a Ray relay for the run's tasks (ray_relay.h): the address and the options
// of the chunk player that every task makes, as texts.
std::string relay_start(const BalanceOptions& options, const std::vector<std::string>& sweeps,
                        const std::string& sprt, const std::string& address) {
  JsonWriter json;
  json.begin_object().key("run").value("balance").key("address").value(address);
  json.key("options").begin_object().key("game").value(options.game);
  json.key("sweeps").array(sweeps).key("agents").array(options.agents);
  json.key("games").value(options.games).key("threads").value(options.threads);
  json.key("seed").value(static_cast<int64_t>(options.seed)).key("sprt");
  if (options.sprt)
    json.value(sprt);
  else
    json.null();
  json.key("check_every").value(options.check_every).key("batch").value(options.batch);
  json.key("chunk").value(options.chunk).key("opening_plies").value(options.opening_plies);
  return json.end_object().end_object().text();
}

}  // namespace

int balance_command(Args& args) {
  args.expect_positional(1);
  BalanceOptions options;
  options.game = args.positional()[0];
  const std::vector<std::string> sweeps = args.get_strings("sweep");
  for (const std::string& sweep : sweeps) options.sweeps.push_back(parse_sweep(sweep));
  const std::string agents = args.get_string("agents", "");
  if (agents.empty()) throw std::invalid_argument("--agents SPEC[,SPEC...] is required");
  options.agents = split_agent_specs(agents);
  options.games = args.get_int("games", 1000, 1);
  options.threads = args.get_threads("threads", 1);
  options.batch = args.get_int("batch", 0, 0);
  options.chunk = args.get_int("chunk", 0, 0);
  options.opening_plies = static_cast<int>(args.get_int("opening-plies", 0, 0));
  options.seed = static_cast<uint64_t>(args.get_int("seed", 0, 0));
  const std::string sprt = args.get_string("sprt", "");
  if (args.has("sprt")) options.sprt = parse_sprt(sprt);
  options.check_every = args.get_int("check-every", 100, 1);
  const std::string out = args.get_string("out", "");
  if (out.empty()) throw std::invalid_argument("--out DIR is required");
  const bool plots = !args.get_switch("no-plots");
  options.resume = args.get_switch("resume");
  const std::string ray = args.get_string("ray", "");
  if (args.has("ray") && ray.empty())
    throw std::invalid_argument("--ray ADDRESS: an empty address");
  const int64_t record = args.get_int("record", 0, 0);
  args.finish();
  refuse_a_finished_run(out);
  // With --ray, the options checked here (a typo fails before any connection), then the
  // relay connected before anything is written; the games at once are then the
  // cluster's CPUs (the first windows of chunks are sized by them).
  std::optional<RayRelay> cluster;
  if (!ray.empty()) {
    const BalanceChunkPlayer checked(options);
    cluster.emplace(relay_start(options, sweeps, sprt, ray), stop_on_signals());
    if (!cluster->started().empty())
      options.threads = std::max<int>(
          options.threads, static_cast<int>(parse_json(cluster->started()).at("cpus").as_int(1)));
  }
  // Held to the end, the report's Python child writing under it. Taken before any game, it
  // also refuses an --out that cannot be written.
  const OutputLock lock = OutputLock::folder(out);

  options.progress_file = progress_path(out);
  BalanceProgressPrinter printer(stderr);
  BalanceResult result;
  try {
    result = run_balance(
        options, [&](const BalanceProgress& progress) { printer(progress); },
        cluster ? relay_runner(*cluster) : ChunkRunner{}, &stop_on_signals());
  } catch (const BalanceStopped& stopped) {
    printer.finish();
    std::fprintf(stderr, "%s (signal %d)\n", stopped.what(), stop_signal());
    return 128 + stop_signal();
  }
  printer.finish();
  write_balance_json(out, result);  // balance.progress stays: --resume --games extends the run
  std::printf("wrote %s/balance.json\n", out.c_str());
  if (record > 0) write_records(options, record, out);
  return write_report(out, plots);
}

}  // namespace knightgym::cli
