// knightgym view: the viewer's web server (knightgym.viewer, in Python), run in place of
// this program so that stopping it stops the server. Its arguments go through unread:
// the viewer's parser is the one declaration of its flags (`knightgym view --help` prints
// it), and checks them.
#include <stdexcept>
#include <string>

#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/python_package.h"
#include "util/python_process.h"

namespace knightgym::cli {

int view_command(Args& args) {
  const std::string python = venv_python();
  if (python.empty())
    throw std::invalid_argument("view needs the Python module, which this build lacks");
  exec_python_module(python, python_package_dir(), "knightgym.viewer", args.positional());
}

}  // namespace knightgym::cli
