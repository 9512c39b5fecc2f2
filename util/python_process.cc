#include "util/python_process.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "util/child_pipes.h"

namespace knightgym {

namespace {

// `python -m module args...` and this process's environment with `package_dir` (if any) in
// front of PYTHONPATH, built before any child runs: nothing runs in a child before its exec,
// which keeps spawning safe in a threaded program, and our own PYTHONPATH is unchanged.
struct Invocation {
  std::vector<std::string> argv, environment;
  std::vector<char*> c_argv, c_environment;

  Invocation(const std::string& python, const std::string& package_dir, const std::string& module,
             const std::vector<std::string>& args)
      : argv{python, "-m", module} {
    argv.insert(argv.end(), args.begin(), args.end());
    const bool prepend = !package_dir.empty();
    if (prepend) {
      std::string python_path = "PYTHONPATH=" + package_dir;
      if (const char* old_path = std::getenv("PYTHONPATH"); old_path && *old_path)
        python_path.append(":").append(old_path);
      environment.push_back(python_path);
    }
    for (char** entry = environ; *entry; ++entry)
      if (!prepend || std::strncmp(*entry, "PYTHONPATH=", 11) != 0)
        environment.emplace_back(*entry);
    c_argv = pointers(argv);
    c_environment = pointers(environment);
  }

  static std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> result;
    for (std::string& s : strings) result.push_back(s.data());
    result.push_back(nullptr);
    return result;
  }
};

}  // namespace

[[noreturn]] void exec_python_module(const std::string& python, const std::string& package_dir,
                                     const std::string& module,
                                     const std::vector<std::string>& args) {
  Invocation invocation(python, package_dir, module, args);
  std::fflush(nullptr);
  execvpe(python.c_str(), invocation.c_argv.data(), invocation.c_environment.data());
  throw std::runtime_error("cannot start '" + python + "' for " + module + ": " +
                           std::strerror(errno));
}

int run_python_module(const std::string& python, const std::string& package_dir,
                      const std::string& module, const std::vector<std::string>& args) {
  Invocation invocation(python, package_dir, module, args);
  // Whatever this process printed comes before the child's output.
  std::fflush(nullptr);
  pid_t child = -1;
  const int error = posix_spawnp(&child, python.c_str(), nullptr, nullptr, invocation.c_argv.data(),
                                 invocation.c_environment.data());
  if (error)
    throw std::runtime_error("cannot start '" + python + "' for " + module + ": " +
                             std::strerror(error));
  int status = 0;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR)
      throw std::runtime_error("waiting for '" + python + "' (" + module +
                               "): " + std::strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

PythonChild::PythonChild(const std::string& python, const std::string& package_dir,
                         const std::string& module, const std::vector<std::string>& args,
                         std::string name)
    : name_(std::move(name)) {
  Invocation invocation(python, package_dir, module, args);
  std::fflush(nullptr);
  // A process group of its own (spawn_piped): a terminal's Ctrl-C reaches this process,
  // which ends the child in its turn, not the child in the middle of an exchange.
  PipedChild child;
  if (const int error =
          spawn_piped(invocation.c_argv.data(), invocation.c_environment.data(), child))
    throw std::runtime_error("cannot start '" + python + "' for " + module + ": " +
                             std::strerror(error));
  pid_ = child.pid;
  to_child_ = child.to_child;
  from_child_ = child.from_child;
}

namespace {

// Whether `pid` ended within `seconds` (reaped).
bool ended_within(pid_t pid, double seconds) {
  for (int wait = 0; wait < seconds * 100; ++wait) {
    if (waitpid(pid, nullptr, WNOHANG) != 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

PythonChild::~PythonChild() {
  // The end of its input first, which a child reading it takes as the end; then SIGTERM
  // for one busy with something else, and SIGKILL for one that does not end.
  if (to_child_ >= 0) close(to_child_);
  if (pid_ > 0 && !ended_within(pid_, 2)) {
    kill(pid_, SIGTERM);
    if (!ended_within(pid_, 10)) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  if (from_child_ >= 0) close(from_child_);
}

void PythonChild::send(char kind, std::string_view payload) {
  std::string frame(1, kind);
  for (int i = 0; i < 8; ++i) frame.push_back(static_cast<char>(payload.size() >> (8 * i)));
  frame.append(payload);
  // An ended child shows as EPIPE, not as SIGPIPE ending this process (write_all).
  if (const int error = write_all(to_child_, frame))
    fail_ended(std::string("could not be sent a frame (") + std::strerror(error) + ")");
}

std::optional<Frame> PythonChild::receive(const std::atomic<bool>& stop) {
  std::string bytes;
  uint64_t wanted = 9;  // the header, then the whole frame
  while (bytes.size() < wanted) {
    pollfd readable{from_child_, POLLIN, 0};
    const int ready = poll(&readable, 1, 200);
    if (stop) return std::nullopt;
    if (ready < 0 && errno != EINTR) fail_ended(std::string("poll: ") + std::strerror(errno));
    if (ready <= 0) continue;
    char chunk[1 << 16];
    const size_t room = std::min<uint64_t>(sizeof chunk, wanted - bytes.size());
    const ssize_t n = read(from_child_, chunk, room);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_ended("closed its output");
    bytes.append(chunk, static_cast<size_t>(n));
    if (wanted == 9 && bytes.size() == 9) {
      uint64_t length = 0;
      for (int i = 0; i < 8; ++i)
        length |= uint64_t{static_cast<unsigned char>(bytes[1 + i])} << (8 * i);
      if (length > kMostFrameBytes)
        fail_ended("wrote a frame of " + std::to_string(length) + " bytes, more than " +
                   std::to_string(kMostFrameBytes));
      wanted += length;
    }
  }
  return Frame{bytes[0], bytes.substr(9)};
}

void PythonChild::fail_ended(const std::string& what) {
  // A child that closed its pipes is ending: up to 10 s to see how.
  std::string how = "it is still running";
  int status = 0;
  for (int wait = 0; pid_ > 0 && wait < 1000; ++wait) {
    const pid_t reaped = waitpid(pid_, &status, WNOHANG);
    if (reaped == pid_) {
      how = how_it_ended(status);
      pid_ = -1;
    } else if (reaped == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } else if (errno != EINTR) {
      break;
    }
  }
  throw std::runtime_error(name_ + " " + what + ": " + how);
}

}  // namespace knightgym
