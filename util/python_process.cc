#include "util/python_process.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

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

}  // namespace knightgym
