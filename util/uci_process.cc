#include "util/uci_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <utility>

namespace knightgym {

UciProcess::UciProcess(const std::vector<std::string>& argv, std::string name,
                       std::chrono::milliseconds silence_limit)
    : name_(std::move(name)), program_(argv.at(0)), silence_limit_(silence_limit) {
  // O_CLOEXEC everywhere: the child keeps only the two ends dup2-ed onto its stdin/stdout,
  // and no other child of this process inherits ours.
  int in[2] = {-1, -1}, out[2] = {-1, -1};
  int error = pipe2(in, O_CLOEXEC) == 0 && pipe2(out, O_CLOEXEC) == 0 ? 0 : errno;
  if (!error) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    std::vector<std::string> args = argv;
    std::vector<char*> c_args;
    for (std::string& arg : args) c_args.push_back(arg.data());
    c_args.push_back(nullptr);
    // A process group of its own: a terminal's Ctrl-C (or a timeout's signal to the
    // group) reaches this process, which stops between moves, and not the engine in the
    // middle of one. If this process dies, the engine reads the end of its input and quits.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    error = posix_spawnp(&pid_, program_.c_str(), &actions, &attributes, c_args.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (error) pid_ = -1;
  }
  for (const int fd : {in[0], out[1]})
    if (fd >= 0) close(fd);
  to_child_ = in[1];
  from_child_ = out[0];
  if (error) {
    stop();
    throw std::runtime_error("cannot start " + name_ + " '" + program_ +
                             "': " + std::strerror(error));
  }
}

UciProcess::~UciProcess() { stop(); }

void UciProcess::send(const std::string& line) {
  const std::string text = line + '\n';
  // A dead child must show as EPIPE, not kill us with SIGPIPE: block the signal in this
  // thread while writing, and take back the one a failed write raised.
  sigset_t pipe_signal, saved;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &saved);
  int error = 0;
  for (size_t done = 0; done < text.size() && !error;) {
    const ssize_t n = write(to_child_, text.data() + done, text.size() - done);
    if (n >= 0)
      done += static_cast<size_t>(n);
    else if (errno != EINTR)
      error = errno;
  }
  if (error == EPIPE) {
    const timespec no_wait{};
    sigtimedwait(&pipe_signal, nullptr, &no_wait);
  }
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  if (error) fail_dead("could not be sent '" + line + "' (" + std::strerror(error) + ")");
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
    how = WIFSIGNALED(status) ? "it was killed by signal " + std::to_string(WTERMSIG(status))
                              : "it exited with status " + std::to_string(WEXITSTATUS(status));
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
