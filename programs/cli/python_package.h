// The Python side of this build, for the commands that hand work to the knightgym
// package (util/python_process.h): the interpreter its module was built for, and the
// folder beside this program that holds the package.
#pragma once

#include <string>

namespace knightgym::cli {

// CMake's Python_EXECUTABLE; empty when the build has no Python module
// (configured with KNIGHTGYM_PYTHON=OFF).
std::string built_python();

// The project's .venv interpreter, which also sees the PyPI packages (Ray), when it
// exists; else built_python().
std::string venv_python();

// DIR/python for this program at DIR/knightgym (build/python), found from the program's
// own path so that a moved build directory still finds its package.
std::string python_package_dir();

}  // namespace knightgym::cli
