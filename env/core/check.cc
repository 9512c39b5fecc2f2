#include "env/core/check.h"

#include <stdexcept>

namespace knightgym {

void check_failed(const std::string& what, std::source_location where) {
  throw std::logic_error("knightgym debug check failed at " + std::string(where.file_name()) + ":" +
                         std::to_string(where.line()) + ": " + what);
}

}  // namespace knightgym
