#include "util/peak_flops.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "util/timing.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace knightgym {
namespace {

// Independent accumulators: enough to keep two FMA pipes of 4-cycle latency busy.
constexpr int kChains = 12;
constexpr int64_t kRounds = 1 << 14;  // per call, between looks at the clock

// Each kernel runs kRounds x kChains vector operations and returns the FLOPs done; acc =
// acc * a + b stays near b / (1 - a), far from overflow and denormals.
#if defined(__x86_64__)
__attribute__((target("avx512f"))) int64_t avx512_kernel(float* sink) {
  __m512 acc[kChains];
  for (int i = 0; i < kChains; ++i) acc[i] = _mm512_set1_ps(1.0f + 0.001f * i);
  const __m512 a = _mm512_set1_ps(0.999f), b = _mm512_set1_ps(0.001f);
  for (int64_t r = 0; r < kRounds; ++r)
#pragma GCC unroll 12
    for (int i = 0; i < kChains; ++i) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  float lanes[16];
  for (int i = 1; i < kChains; ++i) acc[0] = _mm512_add_ps(acc[0], acc[i]);
  _mm512_storeu_ps(lanes, acc[0]);
  for (const float lane : lanes) *sink += lane;
  return kRounds * kChains * 16 * 2;
}

__attribute__((target("avx2,fma"))) int64_t avx2_kernel(float* sink) {
  __m256 acc[kChains];
  for (int i = 0; i < kChains; ++i) acc[i] = _mm256_set1_ps(1.0f + 0.001f * i);
  const __m256 a = _mm256_set1_ps(0.999f), b = _mm256_set1_ps(0.001f);
  for (int64_t r = 0; r < kRounds; ++r)
#pragma GCC unroll 12
    for (int i = 0; i < kChains; ++i) acc[i] = _mm256_fmadd_ps(acc[i], a, b);
  float lanes[8];
  for (int i = 1; i < kChains; ++i) acc[0] = _mm256_add_ps(acc[0], acc[i]);
  _mm256_storeu_ps(lanes, acc[0]);
  for (const float lane : lanes) *sink += lane;
  return kRounds * kChains * 8 * 2;
}
#endif

// The portable fallback: separate multiply and add on whatever vectors the compiler picks.
int64_t plain_kernel(float* sink) {
  float acc[kChains * 4];
  for (int i = 0; i < kChains * 4; ++i) acc[i] = 1.0f + 0.001f * i;
  for (int64_t r = 0; r < kRounds; ++r)
    for (float& x : acc) x = x * 0.999f + 0.001f;
  for (const float x : acc) *sink += x;
  return kRounds * kChains * 4 * 2;
}

struct Kernel {
  int64_t (*run)(float*);
  const char* instructions;
};

Kernel widest_kernel() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) return {avx512_kernel, "AVX-512 FMA"};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return {avx2_kernel, "AVX2 FMA"};
#endif
  return {plain_kernel, "SSE multiply and add"};
}

}  // namespace

PeakFlops measure_peak_flops(int threads, double seconds) {
  const Kernel kernel = widest_kernel();
  std::atomic<int64_t> flops{0};
  std::atomic<float> sinks{0};
  const auto start = SteadyClock::now();
  {
    std::vector<std::jthread> pool;
    for (int t = 0; t < std::max(1, threads); ++t)
      pool.emplace_back([&] {
        float sink = 0;
        int64_t done = 0;
        do done += kernel.run(&sink);
        while (seconds_since(start) < seconds);
        flops += done;
        sinks.fetch_add(sink);  // keeps the arithmetic from being optimised away
      });
  }
  return {static_cast<double>(flops) / seconds_since(start), kernel.instructions};
}

}  // namespace knightgym
