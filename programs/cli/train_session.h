// A training session of a run directory for the commands that train (train, iterate),
// behind a face without LibTorch: train_command.cc, the one file of the program that
// includes the trainer's headers, implements it.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "env/registry/any_game.h"
#include "training/trainer/train_config.h"

namespace knightgym {
class ChunkChannel;
}

namespace knightgym::cli {

// The text of a training settings file (--config FILE); throws std::invalid_argument
// naming the file where it cannot be read or is far larger than settings are.
std::string read_settings(const std::string& path);

// Trains the run in `dir` (a new one with `config`, or with `resume` the one there) on
// `device` within `minutes` of training time or `steps` optimizer steps in all, printing
// to `log`, its self-play from `actors` where given (a Ray cluster's), else its own.
// Returns the run's training seconds, or nothing once `stop` ended it (a checkpoint
// written).
std::optional<double> train_session(const AnyGame& game, const TrainConfig& config,
                                    const std::string& device, const std::string& dir, bool resume,
                                    double minutes, int64_t steps, const std::atomic<bool>& stop,
                                    std::FILE* log, ChunkChannel* actors = nullptr);

}  // namespace knightgym::cli
