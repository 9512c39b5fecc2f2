#include "programs/cli/python_package.h"

#include <filesystem>

namespace knightgym::cli {

std::string built_python() {
#ifdef KNIGHTGYM_PYTHON_EXECUTABLE
  return KNIGHTGYM_PYTHON_EXECUTABLE;
#else
  return "";
#endif
}

std::string venv_python() {
#ifdef KNIGHTGYM_VENV_PYTHON
  if (std::filesystem::exists(KNIGHTGYM_VENV_PYTHON)) return KNIGHTGYM_VENV_PYTHON;
#endif
  return built_python();
}

std::string python_package_dir() {
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "python").string();
}

}  // namespace knightgym::cli
