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

std::string python_package_dir() {
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "python").string();
}

}  // namespace knightgym::cli
