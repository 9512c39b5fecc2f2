// The files of a training run, all under one directory:
//   config.json                    the game and every setting; --resume reads it back
//   checkpoints/step-NNNNNNNNN.ckpt the last `keep` checkpoints (learner.h), each with
//   checkpoints/step-NNNNNNNNN.replay the newest games of its replay window (kept_replay
//                                  decisions, a teacher shard: teacher_shard.h)
//   checkpoints/*.damaged          checkpoints that did not load, set aside on resume
//   model.pt                       the latest network as TorchScript
//   best.pt                        the best network so far, by match rounds against the last
//   teacher_best.pt                while learning from a teacher with games held out: the
//                                  network of the lowest held-out policy loss measured
//   metrics.csv                    one row per period: losses, speeds, scores
//   summary.json                   when a session ends: totals, last match round (run_summary.h)
//   snapshots/seconds-NNNNNNN.pt   with snapshot_seconds: the network after N seconds
// Every file but metrics.csv is written atomically; metrics.csv takes a whole row or none
// (a row the disk cannot take is cut off again) and is cut back to the rows of the
// checkpoint a run resumes from, so neither a full disk nor a kill leaves a half row.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace knightgym {

class RunDirectory {
 public:
  // The run in `dir`; nothing is made on disk until create().
  explicit RunDirectory(std::string dir);
  // Makes the directory and checkpoints/ if needed (once a run is sure to start).
  void create() const;

  const std::string& dir() const { return dir_; }
  std::string file(const std::string& name) const { return dir_ + "/" + name; }
  std::string checkpoint(int64_t step) const;
  // Checkpoint files, newest (highest step) first; temporaries are not listed.
  std::vector<std::string> checkpoints() const;
  // The replay sample written with a checkpoint (checkpoints/step-NNNNNNNNN.replay).
  static std::string replay_sample(const std::string& checkpoint);
  // snapshots/seconds-NNNNNNN.pt, the network after `seconds` of training (creates
  // snapshots/ if needed).
  std::string snapshot(int64_t seconds) const;
  // Deletes all but the newest `keep` checkpoints, the temporaries of killed writers
  // (never a live process's write in progress) and replay samples without their
  // checkpoint (a run killed between the two).
  void prune(int keep) const;
  // Renames a checkpoint that does not load, and its replay sample, to NAME.damaged: out
  // of checkpoints() and prune()'s count, kept for whoever wants to look at it.
  void set_aside(const std::string& checkpoint) const;

  // config.json: {"game": spec, "settings": settings_json}.
  void write_config(const std::string& game_spec, const std::string& settings_json) const;
  // The game and the settings (as read_train_config reads them) of config.json. Throws
  // std::invalid_argument if there is none (nothing to resume) or it is malformed.
  std::pair<std::string, std::string> read_config() const;
  // Whether `dir` holds a run (a config.json).
  static bool holds_run(const std::string& dir);

 private:
  std::string dir_;
};

// Where a resumed run's metrics.csv is cut: a row is kept if each named column holds an
// integer at most the bound (the counters of the checkpoint the run resumes from).
using MetricsBounds = std::vector<std::pair<std::string, int64_t>>;

// metrics.csv: a header, then rows appended one at a time, each whole or not at all.
class MetricsLog {
 public:
  // Fresh (no bounds): writes the header, dropping any rows there. Resuming: keeps the
  // rows within the bounds and drops those past them and a last row cut short; a line
  // that is no whole row is refused (std::invalid_argument naming it), nothing changed.
  MetricsLog(const std::string& path, const std::vector<std::string>& columns,
             const std::optional<MetricsBounds>& resume);
  ~MetricsLog();
  MetricsLog(const MetricsLog&) = delete;
  MetricsLog& operator=(const MetricsLog&) = delete;

  // One value per column ("" for none). A row the file cannot take (a full disk, a file
  // size limit) is cut back off, leaving the file as it was, and throws
  // std::runtime_error naming the file and the reason: the run stops with its last
  // checkpoint, and a resume once there is room goes on.
  void append(const std::vector<std::string>& row);

 private:
  std::string path_;
  int fd_ = -1;
  off_t size_ = 0;  // the bytes of whole rows written
  size_t columns_;
};

}  // namespace knightgym
