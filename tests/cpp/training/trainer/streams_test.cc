// The trainer's named random streams: distinct (stream, index) pairs get distinct seeds,
// over every stream and the first indices a run uses, and the run seed changes them all.
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>

#include "training/trainer/streams.h"

namespace knightgym {
namespace {

constexpr uint64_t kIndices = 10000;

std::set<uint64_t> all_seeds(uint64_t run_seed) {
  std::set<uint64_t> seeds;
  for (int s = 0; s < kNumStreams; ++s)
    for (uint64_t index = 0; index < kIndices; ++index)
      seeds.insert(stream_seed(run_seed, static_cast<Stream>(s), index));
  return seeds;
}

TEST_CASE("streams: no two (stream, index) pairs share a seed", "[streams]") {
  for (const uint64_t run_seed : {uint64_t{0}, uint64_t{1}, uint64_t{2147483647}})
    REQUIRE(all_seeds(run_seed).size() == kNumStreams * kIndices);
}

TEST_CASE("streams: the run seed changes every stream's seeds", "[streams]") {
  std::set<uint64_t> both = all_seeds(0);
  both.merge(all_seeds(1));
  REQUIRE(both.size() == 2 * kNumStreams * kIndices);
}

TEST_CASE("streams: a match round's opponents and rounds number apart", "[streams]") {
  std::set<uint64_t> indices;
  constexpr uint64_t kRounds = 100;
  for (uint64_t round = 0; round < kRounds; ++round)
    for (int opponent = 0; opponent <= kMaxBaselines; ++opponent)
      indices.insert(match_index(round, opponent));
  REQUIRE(indices.size() == kRounds * (kMaxBaselines + 1));
}

// Only where the checks are compiled; elsewhere tests/CMakeLists.txt lists it as not run.
#ifdef KNIGHTGYM_DEBUG_CHECKS
TEST_CASE("streams: an index past the bounds fails the debug checks", "[streams][debug_checks]") {
  const uint64_t too_far = uint64_t{1} << kStreamIndexBits;
  CHECK_NOTHROW(stream_seed(1, Stream::kSelfPlay, too_far - 1));
  CHECK_THROWS_WITH(stream_seed(1, Stream::kSelfPlay, too_far), Catch::Contains("over 56 bits"));
  CHECK_THROWS_WITH(match_index(0, kMaxBaselines + 1), Catch::Contains("opponent out of"));
}
#endif

}  // namespace
}  // namespace knightgym
