// CUDA graphs: GPU work captured once and launched again as one unit, which spares the
// CPU a kernel launch per layer (lc0 and KataGo capture their forward passes likewise).
// They need LibTorch's CUDA part at build time: a build against a CPU-only LibTorch, as
// Debian's, or one that found no CUDA headers, has none (CudaGraph::available), and the
// networks then launch their kernels one by one (agents/cuda_lane.h).
#pragma once

#include <functional>
#include <memory>

namespace knightgym {

class CudaGraph {
 public:
  // Whether this build can capture graphs.
  static bool available();

  // Captures what `launch` enqueues on the calling thread's current CUDA stream, which
  // must not be the default stream. Whatever `launch` allocates stays the graph's, so
  // tensors made there are its outputs, refilled by each replay. Other threads may use
  // the device meanwhile (the capture is the calling thread's own). Throws
  // std::logic_error where the build has no graphs.
  explicit CudaGraph(const std::function<void()>& launch);
  ~CudaGraph();
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;

  // Launches the captured work again on the stream it was captured on.
  void replay();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace knightgym
