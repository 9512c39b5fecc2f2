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
  for (const char* flag : {"folder", "model", "engine"})
    for (const std::string& value : args.get_strings(flag))
      arguments.insert(arguments.end(), {std::string("--") + flag, value});
  for (const char* flag : {"max-sims", "move-seconds"})
    if (args.has(flag))
      arguments.insert(arguments.end(), {std::string("--") + flag, args.get_string(flag, "")});
  args.finish();
  const std::string python = venv_python();
  if (python.empty())
    throw std::invalid_argument("view needs the Python module, which this build lacks");
  arguments.insert(arguments.end(), {"--port", std::to_string(port), "--host", host});
  exec_python_module(python, python_package_dir(), "knightgym.viewer", arguments);
}

}  // namespace knightgym::cli
