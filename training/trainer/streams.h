// The random streams of a training run, each named. stream_seed packs the stream into the
// top byte of derive_seed's index, and derive_seed is a bijection of its index for a given
// run seed (env/core/rng.h): distinct (stream, index) pairs get distinct seeds by
// construction, where offsets added to one index (2 + decisions, 3 + steps) ran into each
// other.
#pragma once

#include <cstdint>

#include "env/core/check.h"
#include "env/core/rng.h"

namespace knightgym {

enum class Stream : uint8_t {
  kLearnerInit,     // the network's first weights; index 0
  kSelfPlay,        // self-play; index: the run's decisions when a session starts
  kReplaySampling,  // batches and their symmetries; index: the run's steps then
  kMatchCandidate,  // the trained agent of a match round; index: the round's number
  kMatchOpponent,   // a match round's opponent; index: match_index(round, opponent)
  kMatchGames,      // its games against that opponent; index: the same
  kSelfPlayChunk,   // a distributed run's self-play chunk; index: its number
};
inline constexpr int kNumStreams = static_cast<int>(Stream::kSelfPlayChunk) + 1;

// The stream takes the top 8 bits of the index derive_seed sees, an index the other 56.
inline constexpr int kStreamIndexBits = 56;

constexpr uint64_t stream_seed(uint64_t run_seed, Stream stream, uint64_t index) {
  KNIGHTGYM_CHECK(index >> kStreamIndexBits == 0, "stream_seed: index over 56 bits");
  return derive_seed(run_seed, static_cast<uint64_t>(stream) << kStreamIndexBits | index);
}

// A match round plays the best network (opponent 0) and at most kMaxBaselines baselines
// (opponents 1...): a bound, so that rounds number their opponents without overlapping.
inline constexpr int kMaxBaselines = 63;

constexpr uint64_t match_index(uint64_t round, int opponent) {
  KNIGHTGYM_CHECK(0 <= opponent && opponent <= kMaxBaselines,
                  "match_index: opponent out of 0..kMaxBaselines");
  return round * (kMaxBaselines + 1) + static_cast<uint64_t>(opponent);
}

}  // namespace knightgym
