// The tests' main: Catch2's, with the LibTorch network backend set first where the build
// has one (as the knightgym program does), and one option of its own, --shard I/N: of the
// test cases that the rest of the command line selects, in Catch's order, the I-th of
// every N (I from 1). A process that links LibTorch spends about 0.6 s starting it, so
// ctest and tools/ci/run_test_shards.sh run the cases a shard a process, not one each.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#if KNIGHTGYM_TORCH
#include "agents/torch_evaluator.h"
#endif

namespace {

struct Shard {
  size_t index = 0, count = 1;  // index from 0
};

// Removes --shard I/N from the arguments; false (with a message) where its value is bad.
bool take_shard(int& argc, char** argv, Shard& shard) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) != "--shard") continue;
    size_t index = 0, count = 0;
    char end = 0;
    if (i + 1 >= argc || std::sscanf(argv[i + 1], "%zu/%zu%c", &index, &count, &end) != 2 ||
        count == 0 || index == 0 || index > count) {
      std::fprintf(stderr, "--shard: expected I/N with 1 <= I <= N\n");
      return false;
    }
    shard = {index - 1, count};
    for (int j = i; j + 2 <= argc; ++j) argv[j] = argv[j + 2];
    argc -= 2;
    return true;
  }
  return true;
}

// A test spec that selects the case named `name` alone: in quotes, with the characters
// that Catch2 reads as syntax (a comma splits specs even within quotes) escaped.
std::string exact_name(const std::string& name) {
  std::string spec = "\"";
  for (const char c : name) {
    if (std::string_view("\\,[]~*\"").find(c) != std::string_view::npos) spec += '\\';
    spec += c;
  }
  return spec + '"';
}

}  // namespace

int main(int argc, char** argv) {
#if KNIGHTGYM_TORCH
  knightgym::use_torch_networks();
#endif
  Shard shard;
  if (!take_shard(argc, argv, shard)) return 2;
  Catch::Session session;
  if (const int status = session.applyCommandLine(argc, argv); status != 0) return status;
  const Catch::Config& config = session.config();
  const std::vector<Catch::TestCase> selected =
      Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
  // A spec that selects nothing is left to Catch, which says so and fails.
  if (shard.count > 1 && !selected.empty()) {
    Catch::ConfigData data = session.configData();
    data.testsOrTags.clear();
    for (size_t i = shard.index; i < selected.size(); i += shard.count) {
      if (!data.testsOrTags.empty()) data.testsOrTags.emplace_back(",");
      data.testsOrTags.push_back(exact_name(selected[i].name));
    }
    if (data.testsOrTags.empty()) return 0;  // more shards than cases: nothing here
    session.useConfigData(data);
  }
  return session.run();
}
