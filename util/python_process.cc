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

int run_python_module(const std::string& python, const std::string& package_dir,
                      const std::string& module, const std::vector<std::string>& args) {
  std::vector<std::string> argv{python, "-m", module};
  argv.insert(argv.end(), args.begin(), args.end());
  // The child's environment is built here: nothing runs in the child before the exec,
  // which keeps spawning safe in a threaded program, and our own PYTHONPATH is unchanged.
  std::string python_path = "PYTHONPATH=" + package_dir;
  if (const char* old_path = std::getenv("PYTHONPATH"); old_path && *old_path)
    python_path.append(":").append(old_path);
  std::vector<std::string> environment{python_path};
  for (char** entry = environ; *entry; ++entry)
    if (std::strncmp(*entry, "PYTHONPATH=", 11) != 0) environment.emplace_back(*entry);

  const auto pointers = [](std::vector<std::string>& strings) {
    std::vector<char*> result;
    for (std::string& s : strings) result.push_back(s.data());
    result.push_back(nullptr);
    return result;
  };
  std::vector<char*> c_argv = pointers(argv), c_environment = pointers(environment);
  // Whatever this process printed comes before the child's output.
  std::fflush(nullptr);
  pid_t child = -1;
  const int error =
      posix_spawnp(&child, python.c_str(), nullptr, nullptr, c_argv.data(), c_environment.data());
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
