#include "util/uci_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <utility>

#include "util/child_pipes.h"

namespace knightgym {

UciProcess::UciProcess(const std::vector<std::string>& argv, std::string name,
                       std::chrono::milliseconds silence_limit)
    : name_(std::move(name)), program_(argv.at(0)), silence_limit_(silence_limit) {
  // A process group of its own (spawn_piped): a terminal's Ctrl-C, or a timeout's signal
  // to the group, reaches this process, which stops between moves, and not the engine in
  // the middle of one. If this process dies, the engine reads the end of its input and
  // quits.
  std::vector<std::string> args = argv;
  std::vector<char*> c_args;
  for (std::string& arg : args) c_args.push_back(arg.data());
  c_args.push_back(nullptr);
  PipedChild child;
  if (const int error = spawn_piped(c_args.data(), environ, child))
    throw std::runtime_error("cannot start " + name_ + " '" + program_ +
                             "': " + std::strerror(error));
  pid_ = child.pid;
  to_child_ = child.to_child;
  from_child_ = child.from_child;
}

UciProcess::~UciProcess() { stop(); }

void UciProcess::send(const std::string& line) {
  // A dead child shows as EPIPE, not as SIGPIPE ending this process (write_all).
  if (const int error = write_all(to_child_, line + '\n'))
    fail_dead("could not be sent '" + line + "' (" + std::strerror(error) + ")");
}

std::string UciProcess::read_line() {
  for (;;) {
    if (const size_t end = pending_.find('\n'); end != std::string::npos) {
      std::string line = pending_.substr(0, end);
      pending_.erase(0, end + 1);
      return line;
    }
    if (silence_limit_.count() > 0) {
      pollfd readable{from_child_, POLLIN, 0};
      const int ready = poll(&readable, 1, static_cast<int>(silence_limit_.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) {
        kill(pid_, SIGKILL);
        fail_dead("said nothing for " + std::to_string(silence_limit_.count()) + " ms");
      }
    }
    char chunk[4096];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_dead("closed its output");
    pending_.append(chunk, static_cast<size_t>(n));
  }
}

bool UciProcess::has_output(std::chrono::milliseconds wait) {
  if (pending_.find('\n') != std::string::npos) return true;
  pollfd readable{from_child_, POLLIN, 0};
  const int ready = poll(&readable, 1, static_cast<int>(wait.count()));
  return ready > 0;  // an interrupted wait counts as none
}

std::string UciProcess::read_until_prefix(const std::string& prefix) {
  for (;;) {
    std::string line = read_line();
    if (line.starts_with(prefix)) return line;
  }
}

void UciProcess::fail_dead(const std::string& what) {
  std::string how = "it is not running";
  int status = 0;
  if (pid_ > 0 && waitpid(pid_, &status, 0) == pid_) {
    how = how_it_ended(status);
    pid_ = -1;
  }
  throw std::runtime_error(name_ + " (" + program_ + ") " + what + ": " + how);
}

void UciProcess::stop() {
  if (pid_ > 0) {
    try {
      send("quit");
    } catch (const std::runtime_error&) {
      // It has exited already, and fail_dead reaped it.
    }
  }
  // Our read end first: a child blocked writing to a full pipe then gets EPIPE and ends.
  if (from_child_ >= 0) close(from_child_);
  if (to_child_ >= 0) close(to_child_);
  if (pid_ > 0) {
    // A second to quit, then killed: an engine that hangs must not hang its caller.
    pid_t reaped = 0;
    for (int wait = 0; wait < 100 && (reaped = waitpid(pid_, nullptr, WNOHANG)) == 0; ++wait)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (reaped == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  from_child_ = -1;
  to_child_ = -1;
  pid_ = -1;
}

std::string engine_program(const std::string& engine) {
  if (engine != "fairy-stockfish") return engine;
  if (const char* path = std::getenv("KNIGHTGYM_FAIRY_STOCKFISH"); path && *path) return path;
  constexpr const char* kDebianPath = "/usr/games/fairy-stockfish";
  if (access(kDebianPath, X_OK) == 0) return kDebianPath;
  return engine;  // posix_spawnp looks it up on PATH
}

std::string engine_install_hint(const std::string& engine) {
  return engine == "fairy-stockfish" ? " (install Debian's fairy-stockfish package, or set "
                                       "KNIGHTGYM_FAIRY_STOCKFISH to the binary)"
                                     : "";
}

}  // namespace knightgym
