// Teacher data: a strong player (any agent spec: roll-out MCTS at many simulations, a
// shipped network's search, an external UCI engine) plays every seat of many games on
// every core, and each decision is kept with the player's policy and value
// (teacher_shard.h) for a network to learn from (the trainer's teacher= setting).
//
// A run directory holds teach.txt (the game and the settings; --resume reads it back)
// and shard-NNNNNN.kgt, shard i holding games [i * shard_games, (i + 1) * shard_games),
// each written whole. Game i is seeded from the seed and i alone, so a run cut short and
// resumed, or played on more threads, writes the same shards as one unbroken run. With
// batch B > 1, a thread plays a shard's games with B of them in play, one agent deciding
// for all of them together (a network's search sends one batch per round of simulations)
// and a finished game's place going to the shard's next: game i's decisions then depend on
// the seed, its shard and B (teach.txt records them), still not on the threads or a resume.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "agents/any_agent.h"
#include "training/teacher/teacher_shard.h"
#include "util/fields.h"

namespace knightgym {

struct TeacherOptions {
  std::string teacher = "mcts:sims=800";  // the agent that plays every seat
  int64_t games = 100;                    // in all, with those already written
  int threads = 1;
  uint64_t seed = 0;
  int opening_plies = 0;     // uniformly random legal moves before the teacher plays
  int64_t shard_games = 64;  // games per shard
  int64_t batch = 1;         // games in play together on a thread; at most shard_games
};

struct TeacherRun {
  int64_t games = 0;      // written by this call
  int64_t decisions = 0;  // written by this call
  double seconds = 0;
  int64_t shards = 0;  // in the directory

  static auto fields() {
    return std::tuple{
        field("games", &TeacherRun::games), field("positions", &TeacherRun::decisions),
        field("seconds", &TeacherRun::seconds),
        field("positions_per_s",
              [](const TeacherRun& run) {
                return static_cast<double>(run.decisions) / std::max(run.seconds, 1e-9);
              }),
        field("shards", &TeacherRun::shards)};
  }
};

// Game `index` of a series: the teacher in every seat, each seat's agent seeded apart.
TeacherGame play_teacher_game(const AnyGame& game, const AgentFactory& teacher, int64_t index,
                              uint64_t seed, int opening_plies, const std::atomic<bool>* stop);

// Games [first, first + count) of a series, `slots` of them in play at once: one agent,
// seeded from the seed and `first`, decides every game in play (every seat's move) with one
// act_batch a round, and a game that ends gives its place to the next. Games start and open
// as play_teacher_game's; returns nothing once `stop` is set.
std::vector<TeacherGame> play_teacher_games_together(const AnyGame& game,
                                                     const AgentFactory& teacher, int64_t first,
                                                     int64_t count, int64_t slots, uint64_t seed,
                                                     int opening_plies,
                                                     const std::atomic<bool>* stop);

// Plays and writes the games not yet in `dir` (resume: the run there, whose settings
// must agree with `options` but for the number of games). Prints progress with
// positions per second to `log` about every 10 s. Returns early, with whole shards
// written, once `stop` is set. Throws std::invalid_argument for bad options, a
// directory that holds another run (or, without resume, any run); OutputRefused
// (util/output_lock.h) for one that cannot be written or that another writer holds.
TeacherRun generate_teacher_data(const AnyGame& game, const TeacherOptions& options,
                                 const std::string& dir, bool resume, std::FILE* log,
                                 const std::atomic<bool>& stop);

// Every shard of a teacher run directory, in order, each checked (teacher_shard.h) and,
// unless `game_spec` is empty, of that game; throws std::invalid_argument naming the
// file and the problem, or a directory without shards.
std::vector<TeacherShard> read_teacher_data(const std::string& dir,
                                            const std::string& game_spec = "");

// Whether `dir` can take a teacher run: with `resume`, one must be there (teach.txt);
// without, neither a run nor shards may be. Throws std::invalid_argument naming the
// folder and the problem.
void check_teacher_dir(const std::string& dir, bool resume);

// The teacher runs of `dir`: itself where it holds shards, else its folders that do, in
// the order of their names (a teacher for many rule sets: a run for each). Throws
// std::invalid_argument if there are none.
std::vector<std::string> teacher_run_dirs(const std::string& dir);

}  // namespace knightgym
