#include "programs/cli/python_package.h"

#include <cstdlib>
#include <filesystem>

namespace knightgym::cli {

namespace {

std::filesystem::path program_dir() {
  return std::filesystem::read_symlink("/proc/self/exe").parent_path();
}

}  // namespace

#if KNIGHTGYM_WHEEL

std::string built_python() {
  const char* python = std::getenv("KNIGHTGYM_PYTHON");
  return python ? python : "";
}

std::string venv_python() { return built_python(); }

std::string python_package_dir() { return ""; }

std::string installed_models_dir() { return (program_dir().parent_path() / "models").string(); }

#else

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

std::string python_package_dir() { return (program_dir() / "python").string(); }

std::string installed_models_dir() { return ""; }

#endif

}  // namespace knightgym::cli
