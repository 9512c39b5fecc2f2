// Seeded randomness: xoshiro256** seeded through SplitMix64. Trivially copyable, so it
// can live inside arrays of environments; every stream is derived from a 64-bit seed.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace knightgym {

// SplitMix64 step: a bijective mixer, used to seed and to derive independent streams.
constexpr uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Seed of stream `index` under `seed` (e.g. environment i of a vector env).
constexpr uint64_t derive_seed(uint64_t seed, uint64_t index) {
  return mix64(mix64(seed) ^ mix64(index + 0x632be59bd9b4e019ull));
}

class Rng {
 public:
  constexpr explicit Rng(uint64_t seed = 0) { reseed(seed); }

  constexpr void reseed(uint64_t seed) {
    for (uint64_t& word : s_) {
      seed += 0x9e3779b97f4a7c15ull;
      word = mix64(seed);
    }
  }

  constexpr uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // The stream's position as four words, and a stream set to a position saved so;
  // all-zero words are no position (xoshiro never leaves them) and are refused.
  constexpr std::array<uint64_t, 4> words() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  static constexpr std::optional<Rng> from_words(const std::array<uint64_t, 4>& words) {
    if ((words[0] | words[1] | words[2] | words[3]) == 0) return std::nullopt;
    Rng rng;
    for (int k = 0; k < 4; ++k) rng.s_[k] = words[k];
    return rng;
  }

  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; bias below 2^-32 * n).
  constexpr uint32_t below(uint32_t n) {
    return static_cast<uint32_t>(((next() >> 32) * static_cast<uint64_t>(n)) >> 32);
  }

 private:
  static constexpr uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4] = {};
};

}  // namespace knightgym
