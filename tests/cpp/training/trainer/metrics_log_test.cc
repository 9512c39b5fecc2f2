// metrics.csv takes a whole row or none: a row that the file cannot take (here a file size
// limit, as a full disk) is refused by name and cut off again, and the next row, once
// there is room, follows the last whole one.
#include <signal.h>
#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <string>

#include "tests/cpp/test_files.h"
#include "training/trainer/run_directory.h"
#include "util/atomic_file.h"

namespace knightgym {
namespace {

using Catch::Matchers::Contains;

// The process's file size limit at `bytes` while it lives (SIGXFSZ ignored, so that a
// write past it fails with EFBIG instead of ending the process).
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) : old_signal_(signal(SIGXFSZ, SIG_IGN)) {
    getrlimit(RLIMIT_FSIZE, &old_);
    const rlimit limit{bytes, old_.rlim_max};
    REQUIRE(setrlimit(RLIMIT_FSIZE, &limit) == 0);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    signal(SIGXFSZ, old_signal_);
  }

 private:
  rlimit old_{};
  sighandler_t old_signal_;
};

TEST_CASE("MetricsLog: a row the file cannot take is cut off again, by name", "[trainer]") {
  const std::string path = testing::temporary_dir("metrics_log_full") + "/metrics.csv";
  MetricsLog log(path, {"step", "loss"}, std::nullopt);
  log.append({"1", "0.5"});
  const std::string whole = "step,loss\n1,0.5\n";
  REQUIRE(read_file(path) == whole);
  {
    // Room for part of the next row: the write stops inside it.
    const FileSizeLimit limit(whole.size() + 4);
    CHECK_THROWS_WITH(log.append({"2", "0.25000000"}),
                      Contains("cannot append to '" + path + "': File too large") &&
                          Contains("the file is as it was before the row"));
    CHECK(read_file(path) == whole);
  }
  log.append({"3", "0.125"});  // room again: on from the last whole row
  CHECK(read_file(path) == whole + "3,0.125\n");
}

}  // namespace
}  // namespace knightgym
