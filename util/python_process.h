// A Python module run as a child process, the one way the programs hand work to the
// knightgym package (balance.md and plots, bench's Python row, the viewer). No shell comes between:
// every argument reaches Python as given, so paths with spaces or quotes are safe.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace knightgym {

// Runs `python -m module args...` with `package_dir` put in front of PYTHONPATH (left as
// it is if `package_dir` is empty: an installed package that the interpreter finds), its
// standard streams shared with this process, and waits for it. `python` is looked up on
// PATH if it has no '/'. Returns its exit status, or 128 + N if signal N ended it.
// Throws std::runtime_error if it cannot be started.
int run_python_module(const std::string& python, const std::string& package_dir,
                      const std::string& module, const std::vector<std::string>& args);

// The same module in place of this process (a server, which a signal to this process's
// id must stop); returns only by throwing std::runtime_error if it cannot be started.
[[noreturn]] void exec_python_module(const std::string& python, const std::string& package_dir,
                                     const std::string& module,
                                     const std::vector<std::string>& args);

// One message between this process and a PythonChild: a kind (a letter) and its bytes.
struct Frame {
  char kind = 0;
  std::string payload;
};

// A Python module run as a child spoken to in frames over its standard input and output
// (its standard error is this process's): each frame its kind, its payload's length as 8
// bytes little-endian, then the payload. A frame read is bounded (kMostFrameBytes), so a
// child that writes something else fails by name rather than exhausts memory.
class PythonChild {
 public:
  static constexpr uint64_t kMostFrameBytes = uint64_t{1} << 30;

  // Starts `python -m module args...` as run_python_module does; `name` labels it in
  // errors. Throws std::runtime_error if it cannot be started.
  PythonChild(const std::string& python, const std::string& package_dir, const std::string& module,
              const std::vector<std::string>& args, std::string name);
  // Its input closed; SIGTERM if it has not ended within 2 s, SIGKILL if not within 10 s
  // more; reaped either way.
  ~PythonChild();
  PythonChild(const PythonChild&) = delete;
  PythonChild& operator=(const PythonChild&) = delete;

  // Throws std::runtime_error if the child has ended (naming how).
  void send(char kind, std::string_view payload);
  // The next frame, waiting for it; nothing if `stop` was set meanwhile (looked at every
  // 200 ms). Throws std::runtime_error if the child closed its output (naming how it
  // ended) or wrote more than kMostFrameBytes.
  std::optional<Frame> receive(const std::atomic<bool>& stop);

 private:
  [[noreturn]] void fail_ended(const std::string& what);

  std::string name_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
};

}  // namespace knightgym
