// The Python side of this build, for the commands that hand work to the knightgym
// package (util/python_process.h): the interpreter its module was built for, and the
// folder beside this program that holds the package. In a wheel (KNIGHTGYM_WHEEL) the
// program is site-packages/knightgym/_bin/knightgym, started by the package's `knightgym`
// script (knightgym/__main__.py), which names its interpreter in $KNIGHTGYM_PYTHON.
#pragma once

#include <string>

namespace knightgym::cli {

// CMake's Python_EXECUTABLE (in a wheel, $KNIGHTGYM_PYTHON); empty when the build has no
// Python module (configured with KNIGHTGYM_PYTHON=OFF).
std::string built_python();

// The project's .venv interpreter, which also sees the PyPI packages (Ray), when it
// exists; else built_python().
std::string venv_python();

// DIR/python for this program at DIR/knightgym (build/python), found from the program's
// own path so that a moved build directory still finds its package; empty in a wheel,
// whose interpreter finds the installed package itself.
std::string python_package_dir();

// In a wheel, the shipped networks inside the installed package (knightgym/models),
// found from the program's own path; empty otherwise (agents/pretrained.h's default).
std::string installed_models_dir();

}  // namespace knightgym::cli
