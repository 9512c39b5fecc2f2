#include "training/trainer/kept_run.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "env/registry/registry.h"
#include "training/teacher/teacher_shard.h"
#include "training/trainer/run_directory.h"
#include "training/trainer/train_config.h"
#include "util/output_lock.h"

namespace knightgym {
namespace fs = std::filesystem;

namespace {

// The newest whole games of `shard` holding at most `limit` decisions (limit < 0: all).
void keep_newest(TeacherShard& shard, int64_t limit) {
  if (limit < 0) return;
  auto first = shard.games.end();
  for (int64_t left = limit;
       first != shard.games.begin() && static_cast<int64_t>((first - 1)->decisions.size()) <= left;)
    left -= static_cast<int64_t>((--first)->decisions.size());
  shard.games.erase(shard.games.begin(), first);
}

}  // namespace

KeptRun keep_run(const std::string& run, const std::string& dest, const KeepOptions& options) {
  if (!RunDirectory::holds_run(run))
    throw std::invalid_argument("'" + run + "' holds no training run (no config.json)");
  const auto refuse_dest = [&] {
    std::error_code error;
    if (!fs::exists(dest)) return;
    if (!RunDirectory::holds_run(dest) && !fs::is_empty(dest, error))
      throw std::invalid_argument("'" + dest + "' exists and holds no run: it is not replaced");
    if (fs::equivalent(run, dest, error))
      throw std::invalid_argument("'" + dest + "' is the run itself");
  };
  refuse_dest();
  const RunDirectory from(run);
  const auto [spec, settings] = from.read_config();
  const auto game = load_game(spec);
  const TrainConfig config = read_train_config(game->training_defaults(), settings);
  Learner learner(game->info(), game->spec(), config.net, 0, config.learner, "cpu");

  std::string checkpoint, skipped;
  TrainingCounters counters;
  for (const std::string& path : from.checkpoints()) {
    try {
      counters = learner.load_checkpoint(path);
      checkpoint = path;
      break;
    } catch (const std::invalid_argument& error) {
      skipped += std::string("; ") + error.what();
    }
  }
  if (checkpoint.empty())
    throw std::invalid_argument("'" + run + "' holds no checkpoint that loads" + skipped);
  std::vector<std::string> files = {"config.json", "best.pt", "metrics.csv"};
  if (!options.compact) files.push_back("model.pt");
  for (const std::string& name : files)
    if (!fs::is_regular_file(from.file(name)))
      throw std::invalid_argument("'" + run + "' lacks " + name);
  // teacher_best.pt matters while the run learns from its teacher; past that, to go on
  // needs it no more.
  const bool teaching = counters.steps < config.teacher_steps;
  if (fs::is_regular_file(from.file("teacher_best.pt")) && (teaching || !options.compact))
    files.push_back("teacher_best.pt");

  // dest's lock, held to the end: one writer per output (it makes dest if missing, and
  // removes it again if the keep fails). dest is looked at again under it.
  const OutputLock lock = OutputLock::folder(dest);
  refuse_dest();
  // This process's own: a keep beside never removes another's staging.
  const std::string staging = dest + ".keeping" + std::to_string(::getpid());
  fs::remove_all(staging);
  KeptRun kept{counters.steps, 0, 0};
  try {
    const RunDirectory to(staging);
    to.create();
    for (const std::string& name : files) fs::copy_file(from.file(name), to.file(name));
    const std::string saved = to.checkpoint(counters.steps);
    learner.save_checkpoint(
        saved, counters,
        options.compact ? CheckpointPrecision::kCompact : CheckpointPrecision::kFull);
    if (fs::exists(RunDirectory::replay_sample(checkpoint))) {
      TeacherShard replay = read_shard(RunDirectory::replay_sample(checkpoint), game->spec());
      keep_newest(replay, options.replay_decisions);
      kept.replay_decisions = replay.decisions();
      write_shard(RunDirectory::replay_sample(saved), replay);
    }
    for (const auto& entry : fs::recursive_directory_iterator(staging))
      if (entry.is_regular_file()) kept.bytes += static_cast<int64_t>(entry.file_size());
    // Swapped in one step: dest holds the old run or the new, never neither nor a mix;
    // the old is then removed from the staging name. A file system that cannot swap
    // (EINVAL) gets the old in two steps, under the lock all the same.
    if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, dest.c_str(), RENAME_EXCHANGE) != 0) {
      if (errno != EINVAL)
        throw std::runtime_error("cannot put '" + staging + "' in place of '" + dest +
                                 "': " + std::strerror(errno));
      fs::remove_all(dest);
      fs::rename(staging, dest);
    }
    fs::remove_all(staging);
  } catch (...) {
    fs::remove_all(staging);
    throw;
  }
  return kept;
}

}  // namespace knightgym
