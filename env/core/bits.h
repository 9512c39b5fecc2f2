// 128-bit square sets and the fast writers that turn them into observation planes and
// action masks (one table lookup per 4 or 8 squares, no branch per square).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace knightgym {

__extension__ typedef unsigned __int128 Bits128;

constexpr Bits128 bit128(int square) { return Bits128{1} << square; }
constexpr bool test128(Bits128 b, int square) { return (b >> square) & 1; }
constexpr uint64_t low64(Bits128 b) { return static_cast<uint64_t>(b); }
constexpr uint64_t high64(Bits128 b) { return static_cast<uint64_t>(b >> 64); }

constexpr int popcount128(Bits128 b) { return std::popcount(low64(b)) + std::popcount(high64(b)); }

// Index of the lowest set bit; b must be non-zero.
constexpr int lsb128(Bits128 b) {
  return low64(b) ? std::countr_zero(low64(b)) : 64 + std::countr_zero(high64(b));
}

// Calls f(square) for each set bit, lowest first.
template <class F>
constexpr void for_each_bit(Bits128 b, F&& f) {
  for (uint64_t w = low64(b); w; w &= w - 1) f(std::countr_zero(w));
  for (uint64_t w = high64(b); w; w &= w - 1) f(64 + std::countr_zero(w));
}

namespace detail {
// Four floats (0.0f or 1.0f) for each 4-bit pattern.
inline constexpr auto kNibbleFloats = [] {
  std::array<std::array<float, 4>, 16> table{};
  for (int n = 0; n < 16; ++n)
    for (int i = 0; i < 4; ++i) table[n][i] = (n >> i) & 1 ? 1.0f : 0.0f;
  return table;
}();
// Eight bytes (0 or 1) for each 8-bit pattern.
inline constexpr auto kByteMask = [] {
  std::array<std::array<uint8_t, 8>, 256> table{};
  for (int n = 0; n < 256; ++n)
    for (int i = 0; i < 8; ++i) table[n][i] = (n >> i) & 1;
  return table;
}();
}  // namespace detail

// out[i] = bit i of b as 0.0f/1.0f for i < n (n <= 128, a multiple of 4).
inline void write_plane(Bits128 b, int n, float* out) {
  for (int i = 0; i < n; i += 4, b >>= 4)
    std::memcpy(out + i, detail::kNibbleFloats[static_cast<unsigned>(b) & 15].data(), 16);
}

// out[i] = bit i of b as 0/1 bytes for i < n (n <= 128, a multiple of 4).
inline void write_mask(Bits128 b, int n, uint8_t* out) {
  int i = 0;
  for (; i + 8 <= n; i += 8, b >>= 8)
    std::memcpy(out + i, detail::kByteMask[static_cast<unsigned>(b) & 255].data(), 8);
  if (i < n) std::memcpy(out + i, detail::kByteMask[static_cast<unsigned>(b) & 15].data(), 4);
}

}  // namespace knightgym
