// A Python module run as a child process, the one way the programs hand work to the
// knightgym package (balance.md and plots, bench's Python row, the viewer). No shell comes between:
// every argument reaches Python as given, so paths with spaces or quotes are safe.
#pragma once

#include <string>
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

}  // namespace knightgym
