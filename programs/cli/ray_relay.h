// The Ray side of `knightgym train --ray` and `knightgym balance --ray`: the program keeps
// the run (its options, checks, files and learner, as on one machine), and a child
// process, python -m knightgym.ray_relay, carries its work to and from the Ray cluster
// and does nothing else: one hand-over between the languages. They speak in frames
// (util/python_process.h: PythonChild); the module's docstring lists them.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "training/balance/balance.h"
#include "util/python_process.h"

namespace knightgym::cli {

class RayRelay {
 public:
  // Starts the relay with the venv's Python and sends it `start` (a JSON object: the
  // run's kind, the cluster's address and what the run's actors or tasks need); waits
  // for its answer (a JSON object), or until `stop`. Throws std::invalid_argument with the
  // relay's reason where it cannot start (no Python module in this build, no cluster
  // answers, no CPU for an actor), before the run writes anything.
  RayRelay(const std::string& start, const std::atomic<bool>& stop);

  // The relay's answer to the start; empty if `stop` came first.
  const std::string& started() const { return started_; }

  // One exchange at a time, whatever the thread.
  void send(char kind, std::string_view payload);
  // The next frame, of `kind` or (a stream's end) `or_kind`; nothing once `stop` is set.
  // Throws std::runtime_error with the relay's message where it failed (E), or naming a
  // frame of another kind.
  std::optional<Frame> next(char kind, char or_kind = 0);
  std::mutex& mutex() { return mutex_; }

 private:
  std::mutex mutex_;
  PythonChild child_;
  const std::atomic<bool>& stop_;
  std::string started_;
};

// A number as the relay reads it: 8 bytes, little-endian.
std::string little_endian(int64_t value);

// A balance run's ChunkRunner (training/balance/balance.h) over a relay started for it:
// each window of chunks played as the cluster's tasks, the tallies back in chunk order.
// Once `stop` is set it returns with the window unfinished, and the run stops.
ChunkRunner relay_runner(RayRelay& relay);

}  // namespace knightgym::cli
