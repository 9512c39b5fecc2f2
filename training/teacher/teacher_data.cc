#include "training/teacher/teacher_data.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "agents/agent_kinds.h"
#include "agents/network.h"
#include "env/core/rng.h"
#include "training/teacher/typed_teacher.h"
#include "util/atomic_file.h"
#include "util/ordered_parallel.h"
#include "util/output_lock.h"
#include "util/run_threads.h"
#include "util/text.h"

namespace knightgym {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMaxShardGames = 1 << 20;
constexpr const char* kNetworksKey = "networks=";
constexpr const char* kBatchRefill = "batch_refill=true";

std::string shard_path(const std::string& dir, int64_t shard) {
  char name[32];
  std::snprintf(name, sizeof name, "shard-%06lld.kgt", static_cast<long long>(shard));
  return dir + "/" + name;
}

// teach.txt: what makes the games what they are (the number of games aside), and the hash
// of every network file the teacher loads: a file shipped anew under the same name is
// another teacher.
std::string settings_text(const AnyGame& game, const std::string& teacher,
                          const TeacherOptions& options) {
  std::string networks;
  for (const NetworkUsed& network : networks_used({teacher}, {game.spec()}))
    networks += (networks.empty() ? "" : ",") + network.file + ":" + network.fnv1a;
  // batch=B only where B > 1, so that the runs from before batches read as they were;
  // kBatchRefill marks the batches of play_teacher_games_together, whose games differ from
  // those of the batches before it (each seat's agent apart, a batch's games begun together).
  return "game=" + game.spec() + "\nteacher=" + teacher + "\nseed=" + std::to_string(options.seed) +
         "\nopening_plies=" + std::to_string(options.opening_plies) +
         "\nshard_games=" + std::to_string(options.shard_games) + "\n" +
         (options.batch > 1 ? "batch=" + std::to_string(options.batch) + "\n" + kBatchRefill + "\n"
                            : "") +
         (networks.empty() ? "" : kNetworksKey + networks + "\n");
}

// teach.txt's line that starts with `key`, without its newline; empty if none.
std::string line_of(const std::string& text, std::string_view key) {
  for (const std::string_view line : split(text, '\n'))
    if (line.starts_with(key)) return std::string(line);
  return "";
}

// teach.txt's settings that make its games what they are, whatever the batches' kind and
// the teacher's files: its lines but the networks' hashes and the mark of the batches.
std::string games_settings(const std::string& text) {
  std::string out;
  for (const std::string_view line : split(text, '\n'))
    if (!line.starts_with(kNetworksKey) && !line.starts_with(kBatchRefill))
      out.append(line).push_back('\n');
  return out;
}

// Why a run's kept settings differ from this run's.
std::string other_settings(const std::string& dir, const std::string& kept,
                           const std::string& settings) {
  if (games_settings(kept) != games_settings(settings))
    return "'" + dir + "' holds a teacher run of other settings:\n" + kept + "not\n" + settings;
  if (!line_of(kept, "batch=").empty() && line_of(kept, kBatchRefill).empty())
    return "'" + dir + "' was taught in batches of an earlier kind (each seat's agent apart, a " +
           "batch's games begun together), which this knightgym no longer plays: finish it with " +
           "the knightgym that began it (commit f8bd5b3 or before), or start anew";
  if (line_of(kept, kNetworksKey).empty())
    return "'" + dir + "/teach.txt' records no hash of the teacher's networks (written before " +
           "knightgym recorded them), so a network shipped anew since cannot be told apart; if " +
           "it is unchanged since the run began, append the line " +
           line_of(settings, kNetworksKey);
  return "'" + dir + "' was taught by other network files than the teacher's now: " +
         line_of(kept, kNetworksKey) + ", not " + line_of(settings, kNetworksKey);
}

void check(const TeacherOptions& options) {
  const auto bad = [](const std::string& what) { throw std::invalid_argument(what); };
  if (options.games < 1) bad("games must be at least 1, got " + std::to_string(options.games));
  if (options.threads < 1 || options.threads > kMaxRunThreads)
    bad("threads must be in 1.." + std::to_string(kMaxRunThreads) + ", got " +
        std::to_string(options.threads));
  if (options.shard_games < 1 || options.shard_games > kMaxShardGames)
    bad("shard_games must be in 1.." + std::to_string(kMaxShardGames) + ", got " +
        std::to_string(options.shard_games));
  if (options.opening_plies < 0)
    bad("opening_plies must be at least 0, got " + std::to_string(options.opening_plies));
  // Batches are played within a shard.
  if (options.batch < 1 || options.batch > options.shard_games)
    bad("batch must be in 1..shard_games (" + std::to_string(options.shard_games) + "), got " +
        std::to_string(options.batch));
}

// The first game not yet written whole: shards are whole from the first on, and a
// shard shorter than shard_games counts only if it ends the series.
int64_t first_missing_game(const std::string& dir, const AnyGame& game,
                           const TeacherOptions& options) {
  int64_t first = 0;
  for (int64_t shard = 0; fs::exists(shard_path(dir, shard)); ++shard) {
    const TeacherShard read = read_shard(shard_path(dir, shard), game.spec());
    const auto games = static_cast<int64_t>(read.games.size());
    if (games != options.shard_games && first + games < options.games) break;
    first += games;
    if (games != options.shard_games) break;
  }
  return std::min(first, options.games);
}

struct Stopped {};

}  // namespace

TeacherGame play_teacher_game(const AnyGame& game, const AgentFactory& teacher, int64_t index,
                              uint64_t seed, int opening_plies, const std::atomic<bool>* stop) {
  const int players = game.info().num_players;
  std::vector<std::unique_ptr<AnyAgent>> seated;
  for (int seat = 0; seat < players; ++seat)
    seated.push_back(
        teacher.make(derive_seed(seed, static_cast<uint64_t>(index) * players + seat)));
  TeacherGame out;
  out.index = index;
  out.start_seed = teacher_start_seed(seed, index);
  auto state = game.new_initial_state(out.start_seed);
  Rng opening = teacher_opening_rng(seed, index);
  for (int ply = 0; ply < opening_plies && !state->is_terminal(); ++ply) {
    const std::vector<Action> legal = state->legal_actions();
    state->apply_action(legal[opening.below(static_cast<uint32_t>(legal.size()))]);
  }
  SearchLimits limits;
  limits.stop = stop;
  while (!state->is_terminal()) {
    AnyAgent& agent = *seated[state->current_player()];
    std::string text = state->serialize();
    const Action action = agent.act(*state, limits);
    out.decisions.push_back(teacher_decision(std::move(text), action, agent.last_report()));
    state->apply_action(action);
  }
  out.returns = state->returns();
  out.truncated = state->is_truncated();
  return out;
}

std::vector<TeacherGame> play_teacher_games_together(const AnyGame& game,
                                                     const AgentFactory& teacher, int64_t first,
                                                     int64_t count, int64_t slots, uint64_t seed,
                                                     int opening_plies,
                                                     const std::atomic<bool>* stop) {
  const std::unique_ptr<AnyAgent> agent =
      teacher.make(derive_seed(seed ^ 0x5107ull, static_cast<uint64_t>(first)));
  return TypedCode<TypedTeacher>::of(game, "batched teaching")
      .play_together(game, *agent, first, count, slots, seed, opening_plies, stop);
}

TeacherRun generate_teacher_data(const AnyGame& game, const TeacherOptions& options,
                                 const std::string& dir, bool resume, std::FILE* log,
                                 const std::atomic<bool>& stop) {
  check(options);
  const AgentFactory teacher(options.teacher, game.shared_from_this());
  const std::string settings = settings_text(game, teacher.config().spec, options);
  const std::string settings_file = dir + "/teach.txt";
  // Held to the end: one writer per run. Checked under it, so a run beside is not missed.
  const OutputLock lock = OutputLock::folder(dir);
  check_teacher_dir(dir, resume);
  if (resume) {
    const std::string kept = read_file(settings_file).value_or("");
    // A whole run has no game left to play, whatever kind of batches or files played it.
    if (kept != settings && !(games_settings(kept) == games_settings(settings) &&
                              first_missing_game(dir, game, options) == options.games))
      throw std::invalid_argument(other_settings(dir, kept, settings));
  } else {
    write_file_atomically(settings_file, settings);
  }

  const int64_t first = resume ? first_missing_game(dir, game, options) : 0;
  TeacherRun run;
  const auto start = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (first > 0 && log)
    std::fprintf(log, "resuming at game %lld of %lld\n", static_cast<long long>(first),
                 static_cast<long long>(options.games));

  TeacherShard shard{
      game.spec(), teacher.config().spec, game.info().num_players, game.info().num_actions, {}};
  double last_report = 0;
  const auto report = [&] {
    if (!log) return;
    const double s = std::max(seconds(), 1e-9);
    std::fprintf(log, "%lld/%lld games, %lld positions, %.1f positions/s\n",
                 static_cast<long long>(first + run.games), static_cast<long long>(options.games),
                 static_cast<long long>(run.decisions), static_cast<double>(run.decisions) / s);
    std::fflush(log);
  };
  const auto take = [&](TeacherGame&& played) {
    if (stop) throw Stopped{};
    const int64_t index = played.index;
    run.decisions += static_cast<int64_t>(played.decisions.size());
    ++run.games;
    shard.games.push_back(std::move(played));
    if ((index + 1) % options.shard_games == 0 || index + 1 == options.games) {
      write_shard(shard_path(dir, index / options.shard_games), shard);
      shard.games.clear();
    }
    if (seconds() - last_report >= 10) {
      report();
      last_report = seconds();
    }
  };
  const auto stopped = [&] {
    if (stop) throw Stopped{};
  };
  const int64_t window = 4 * static_cast<int64_t>(options.threads);
  const NetworkThreadShare share(options.threads);  // threads that teach beside each other
  try {
    if (options.batch > 1) {
      // A shard's games on one thread, `batch` of them in play; `first` starts a shard.
      const int64_t left = options.games - first, per = options.shard_games;
      ordered_parallel((left + per - 1) / per, options.threads, window,
                       [&](int64_t i, const std::atomic<bool>& quit) {
                         const int64_t shard_first = first + i * per;
                         return play_teacher_games_together(
                             game, teacher, shard_first, std::min(per, options.games - shard_first),
                             options.batch, options.seed, options.opening_plies, &quit);
                       },
                       [&](std::vector<TeacherGame>&& games) {
                         for (TeacherGame& played : games) take(std::move(played));
                       },
                       stopped);
    } else {
      ordered_parallel(
          options.games - first, options.threads, window,
          [&](int64_t i, const std::atomic<bool>& quit) {
            return play_teacher_game(game, teacher, first + i, options.seed, options.opening_plies,
                                     &quit);
          },
          take, stopped);
    }
  } catch (const Stopped&) {
    // The games of the shard under way are played again on --resume.
    run.games -= static_cast<int64_t>(shard.games.size());
    run.decisions -= shard.decisions();
  }
  run.seconds = seconds();
  report();
  while (fs::exists(shard_path(dir, run.shards))) ++run.shards;
  return run;
}

std::vector<TeacherShard> read_teacher_data(const std::string& dir, const std::string& game_spec) {
  std::vector<TeacherShard> shards;
  for (int64_t i = 0; fs::exists(shard_path(dir, i)); ++i)
    shards.push_back(read_shard(shard_path(dir, i), game_spec));
  if (shards.empty())
    throw std::invalid_argument("'" + dir + "' holds no teacher shards (shard-000000.kgt, ...)");
  return shards;
}

void check_teacher_dir(const std::string& dir, bool resume) {
  if (resume) {
    if (!fs::exists(dir + "/teach.txt"))
      throw std::invalid_argument("'" + dir + "' holds no teacher run to resume (no teach.txt)");
    return;
  }
  if (fs::exists(dir + "/teach.txt"))
    throw std::invalid_argument("'" + dir +
                                "' already holds a teacher run: --resume continues it, or "
                                "choose another --out");
  // Shards without their teach.txt are another run's: new ones would mix with them.
  if (fs::is_directory(dir))
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".kgt")
        throw std::invalid_argument("'" + dir + "' holds teacher shards (" +
                                    entry.path().filename().string() +
                                    ") but no teach.txt: choose another --out");
}

std::vector<std::string> teacher_run_dirs(const std::string& dir) {
  if (fs::exists(shard_path(dir, 0))) return {dir};
  std::vector<std::string> runs;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error))
    if (entry.is_directory() && fs::exists(shard_path(entry.path().string(), 0)))
      runs.push_back(entry.path().string());
  if (runs.empty())
    throw std::invalid_argument("'" + dir +
                                "' holds no teacher shards (shard-000000.kgt, ...), nor folders "
                                "that do");
  std::sort(runs.begin(), runs.end());
  return runs;
}

}  // namespace knightgym
