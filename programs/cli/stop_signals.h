// SIGINT, SIGTERM and SIGHUP as a flag that long commands (train, teach, balance) poll, so
// that they stop with whole files written instead of dying mid-write.
#pragma once

#include <atomic>

namespace knightgym::cli {

// Installs the handlers (once) and returns the flag they set.
const std::atomic<bool>& stop_on_signals();

// The signal that set the flag (0: none yet).
int stop_signal();

}  // namespace knightgym::cli
