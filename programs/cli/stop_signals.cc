#include "programs/cli/stop_signals.h"

#include <csignal>

namespace knightgym::cli {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};

extern "C" void on_stop_signal(int signal) {
  g_signal = signal;
  g_stop = true;
}

}  // namespace

const std::atomic<bool>& stop_on_signals() {
  struct sigaction action = {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGHUP, &action, nullptr);  // the terminal closed: stop as asked, not mid-write
  return g_stop;
}

int stop_signal() { return g_signal.load(); }

}  // namespace knightgym::cli
