// knightgym view: the viewer's web server (knightgym.viewer, in Python), run in place of
// this program so that stopping it stops the server.
#include <stdexcept>
#include <string>
#include <vector>

#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/python_package.h"
#include "util/python_process.h"

namespace knightgym::cli {

int view_command(Args& args) {
  std::vector<std::string> arguments = args.positional();
  const int64_t port = args.get_int("port", 8000, 0);
  if (port > 65535) throw std::invalid_argument("--port must be at most 65535");
  const std::string host = args.get_string("host", "127.0.0.1");
  // The viewer's own flags go through as given; Python checks them.
  const auto pass = [&](const char* flag, const std::vector<std::string>& values) {
    for (const std::string& value : values)
      if (!value.empty()) arguments.insert(arguments.end(), {std::string("--") + flag, value});
  };
  pass("folder", args.get_strings("folder"));
  pass("model", args.get_strings("model"));
  pass("engine", args.get_strings("engine"));
  pass("max-sims", {args.get_string("max-sims", "")});
  pass("move-seconds", {args.get_string("move-seconds", "")});
  pass("memory-mb", {args.get_string("memory-mb", "")});
  args.finish();
  const std::string python = venv_python();
  if (python.empty())
    throw std::invalid_argument("view needs the Python module, which this build lacks");
  arguments.insert(arguments.end(), {"--port", std::to_string(port), "--host", host});
  exec_python_module(python, python_package_dir(), "knightgym.viewer", arguments);
}

}  // namespace knightgym::cli
