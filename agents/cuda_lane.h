// One thread's way to a network on a CUDA device. Each thread that calls a network gets a
// lane of its own, so that several threads keep the device busy (KataGo's self-play
// feeds its GPU from many search threads likewise):
// - its own stream, so that one thread's batch runs while another's is copied;
// - pinned host buffers, whose copies to and from the device are asynchronous DMA, not
//   the staged copies that pageable memory needs;
// - where the build has CUDA graphs and they are asked for, the forward pass captured
//   once per batch size, batches padded to the next power of two, so that a call
//   launches one graph instead of a kernel per layer.
// The inputs go to the device in float32 and are converted there, and the masked softmax
// is computed there, so only the priors and values come back.
// Included only by agents/torch_evaluator.cc, one of the files that include LibTorch.
#pragma once

#include <torch/script.h>

#include <c10/core/Stream.h>

#include <cstdint>
#include <map>
#include <memory>

#include "agents/cuda_graph.h"
#include "agents/evaluator.h"

namespace knightgym {

// A frozen module's weights never change, so its forward passes may be captured. A live
// one (the learner's module, and its copies for self-play) is changed between calls by
// work on the device's default stream, where the learner runs: each call of its lane
// waits for that stream's work first, as it did when every call ran there.
enum class ModuleWeights : uint8_t { kFrozen, kLive };

class CudaLane {
 public:
  // `module` infers in `dtype` on `device` (a CUDA one); graphs: capture the forward
  // passes of a frozen module (where CudaGraph::available()). The module must outlive the
  // lane.
  CudaLane(torch::jit::Module& module, const GameInfo& info, torch::Device device,
           torch::Dtype dtype, ModuleWeights weights, bool graphs);

  // The network's priors (masked softmax) and values for n positions, as
  // Evaluator::evaluate.
  void evaluate(int n, const float* observations, const uint8_t* masks, float* priors,
                float* values);

 private:
  // A batch size's device tensors, and its captured forward pass.
  struct Captured {
    torch::Tensor observations, masks;  // the graph's inputs, refilled before each replay
    torch::Tensor priors, values;       // its outputs, refilled by each replay
    std::unique_ptr<CudaGraph> graph;
  };

  // Priors and values for the device tensors of `rows` positions.
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& observations,
                                                  const torch::Tensor& masks);
  Captured& captured(int rows);
  void reserve(int rows);

  torch::jit::Module& module_;
  const GameInfo& info_;
  torch::Device device_;
  torch::Dtype dtype_;
  ModuleWeights weights_;
  bool graphs_;
  c10::Stream stream_;
  int capacity_ = 0;  // rows of the pinned buffers
  torch::Tensor host_observations_, host_masks_, host_priors_, host_values_;
  std::map<int, Captured> captured_;  // by batch size, a power of two
};

}  // namespace knightgym
