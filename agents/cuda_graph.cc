#include "agents/cuda_graph.h"

#include <mutex>
#include <stdexcept>

#ifdef KNIGHTGYM_CUDA_GRAPHS
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace knightgym {

#ifdef KNIGHTGYM_CUDA_GRAPHS

struct CudaGraph::Impl {
  at::cuda::CUDAGraph graph;
};

bool CudaGraph::available() { return true; }

CudaGraph::CudaGraph(const std::function<void()>& launch) : impl_(std::make_unique<Impl>()) {
  // One capture at a time in the process: captures are rare (one per batch size and
  // thread), and their private memory pools are then set up one after the other.
  static std::mutex capturing;
  std::lock_guard lock(capturing);
  // Thread-local capture: other threads' CUDA calls (allocations, copies) go on as usual
  // during it, and only this thread's own unsafe calls would end it with an error.
  impl_->graph.capture_begin({0, 0}, cudaStreamCaptureModeThreadLocal);
  try {
    launch();
  } catch (...) {
    // The stream's capture is ended and the graph dropped; the launch's error is the one
    // to report, not what ending a broken capture adds to it.
    try {
      impl_->graph.capture_end();
    } catch (const std::exception&) {
    }
    throw;
  }
  impl_->graph.capture_end();
}

void CudaGraph::replay() { impl_->graph.replay(); }

#else

struct CudaGraph::Impl {};

bool CudaGraph::available() { return false; }

CudaGraph::CudaGraph(const std::function<void()>&) {
  throw std::logic_error("this build has no CUDA graphs (LibTorch without CUDA)");
}

void CudaGraph::replay() {}

#endif

CudaGraph::~CudaGraph() = default;

}  // namespace knightgym
