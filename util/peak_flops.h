// The processor's peak floating-point rate, measured: fused multiply-adds on independent
// registers of the widest vectors the processor has (AVX-512, else AVX2 with FMA, else
// SSE), on each of `threads` threads at once. What a benchmark's FLOP/s are a fraction of;
// no vendor table or clock guess is needed, and a throttled or shared core shows as such.
#pragma once

#include <string>

namespace knightgym {

struct PeakFlops {
  double flops_per_second = 0;  // float32, all threads together
  std::string instructions;     // "AVX-512 FMA", "AVX2 FMA" or "SSE multiply and add"
};

// Runs for about `seconds`.
PeakFlops measure_peak_flops(int threads, double seconds = 0.5);

}  // namespace knightgym
