#include "programs/cli/markdown_report.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "programs/cli/python_package.h"
#include "util/atomic_file.h"
#include "util/python_process.h"

namespace knightgym::cli {

namespace {

// Python's exit status.
int run_report(const std::string& python, const std::string& module, const std::string& path) {
  std::fflush(stdout);  // what the command printed comes before the report
  return run_python_module(python, python_package_dir(), module, {"report", path});
}

}  // namespace

int print_markdown_report(const std::string& module, const std::string& json_path) {
  const std::string python = built_python();
  if (python.empty()) {
    std::fputs(read_file(json_path).value_or("").c_str(), stdout);
    return 0;
  }
  const int status = run_report(python, module, json_path);
  if (status == 0) return 0;
  std::fprintf(stderr, "knightgym: printing the report failed (status %d); %s holds the results\n",
               status, json_path.c_str());
  return 1;
}

int print_markdown_report_of(const std::string& module, const std::string& json) {
  const std::string python = built_python();
  int status = 0;
  if (!python.empty()) {
    std::string path = (std::filesystem::temp_directory_path() / "knightgym-XXXXXX.json").string();
    const int fd = mkstemps(path.data(), 5);
    if (fd < 0) throw std::runtime_error("cannot make a temporary file like " + path);
    close(fd);
    try {
      write_file_atomically(path, json);
      status = run_report(python, module, path);
    } catch (...) {
      std::filesystem::remove(path);
      throw;
    }
    std::filesystem::remove(path);
    if (status == 0) return 0;
    std::fprintf(stderr, "knightgym: printing the report failed (status %d); the results:\n",
                 status);
  }
  std::fputs(json.c_str(), stdout);
  return status == 0 ? 0 : 1;
}

}  // namespace knightgym::cli
