// The temporaries write_file_atomically leaves when killed: a cleaner removes those of
// writers that no longer run, never a live process's write in progress.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "util/atomic_file.h"

namespace knightgym {
namespace {

TEST_CASE("is_stale_temporary: a dead writer's temporary is stale, a live one's is not", "[util]") {
  // Past any pid_max (at most 2^22): no process has these pids.
  CHECK(is_stale_temporary("model.pt.tmp99999999"));
  CHECK(is_stale_temporary("step-000000010.ckpt.tmp123456789012"));
  CHECK_FALSE(is_stale_temporary("model.pt.tmp" + std::to_string(getpid())));
  CHECK_FALSE(is_stale_temporary("model.pt.tmp" + std::to_string(getppid())));
  CHECK_FALSE(is_stale_temporary("model.pt"));
  CHECK_FALSE(is_stale_temporary("model.pt.tmp"));
}

}  // namespace
}  // namespace knightgym
