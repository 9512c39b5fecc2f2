#include "agents/cuda_lane.h"

#include <c10/core/Event.h>
#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>

#include <bit>
#include <cstring>

namespace knightgym {

namespace {

// A stream of the device's pool, not its default stream: work on the default stream
// waits for every other stream's, and graphs cannot be captured there.
c10::Stream pool_stream(torch::Device device) {
  return c10::impl::VirtualGuardImpl(device.type()).getStreamFromGlobalPool(device);
}

torch::Tensor pinned(std::vector<int64_t> sizes, torch::Dtype dtype) {
  return torch::empty(sizes, torch::TensorOptions().dtype(dtype).pinned_memory(true));
}

}  // namespace

CudaLane::CudaLane(torch::jit::Module& module, const GameInfo& info, torch::Device device,
                   torch::Dtype dtype, ModuleWeights weights, bool graphs)
    : module_(module),
      info_(info),
      device_(device),
      dtype_(dtype),
      weights_(weights),
      graphs_(graphs && weights == ModuleWeights::kFrozen && CudaGraph::available()),
      stream_(pool_stream(device)) {}

std::pair<torch::Tensor, torch::Tensor> CudaLane::forward(const torch::Tensor& observations,
                                                          const torch::Tensor& masks) {
  const auto output = module_.forward({observations.to(dtype_)}).toTuple();
  const torch::Tensor logits = output->elements()[0].toTensor().to(torch::kFloat32);
  const torch::Tensor legal = masks.to(torch::kBool);
  return {torch::softmax(logits.masked_fill(legal.logical_not(), -INFINITY), 1),
          output->elements()[1].toTensor().to(torch::kFloat32)};
}

void CudaLane::reserve(int rows) {
  if (rows <= capacity_) return;
  const Shape& s = info_.observation_shape;
  host_observations_ = pinned({rows, s.channels, s.height, s.width}, torch::kFloat32);
  host_masks_ = pinned({rows, info_.num_actions}, torch::kUInt8);
  host_priors_ = pinned({rows, info_.num_actions}, torch::kFloat32);
  host_values_ = pinned({rows, info_.num_players}, torch::kFloat32);
  capacity_ = rows;
}

CudaLane::Captured& CudaLane::captured(int rows) {
  const auto found = captured_.find(rows);
  if (found != captured_.end()) return found->second;
  const Shape& s = info_.observation_shape;
  const auto on_device = torch::TensorOptions().device(device_);
  Captured c;
  c.observations = torch::zeros({rows, s.channels, s.height, s.width}, on_device);
  c.masks = torch::ones({rows, info_.num_actions}, on_device.dtype(torch::kUInt8));
  // A few passes before the capture: TorchScript's profiling executor settles its graph
  // and cuDNN picks its algorithms on the first calls of a shape.
  for (int i = 0; i < 3; ++i) forward(c.observations, c.masks);
  stream_.synchronize();
  c.graph = std::make_unique<CudaGraph>(
      [&] { std::tie(c.priors, c.values) = forward(c.observations, c.masks); });
  return captured_.emplace(rows, std::move(c)).first->second;
}

void CudaLane::evaluate(int n, const float* observations, const uint8_t* masks, float* priors,
                        float* values) {
  if (weights_ == ModuleWeights::kLive) {
    c10::Event updated(device_.type());
    updated.record(c10::impl::VirtualGuardImpl(device_.type()).getDefaultStream(device_));
    updated.block(stream_);
  }
  const c10::StreamGuard on_stream(stream_);
  const int rows = graphs_ ? static_cast<int>(std::bit_ceil(static_cast<unsigned>(n))) : n;
  reserve(rows);
  const int64_t observation_size = info_.observation_shape.size();
  std::memcpy(host_observations_.data_ptr<float>(), observations,
              sizeof(float) * n * observation_size);
  std::memcpy(host_masks_.data_ptr<uint8_t>(), masks, size_t{1} * n * info_.num_actions);
  torch::Tensor device_priors, device_values;
  if (graphs_) {
    // The rows past n keep an earlier batch's positions: computed, and never read.
    Captured& c = captured(rows);
    c.observations.slice(0, 0, n).copy_(host_observations_.slice(0, 0, n), true);
    c.masks.slice(0, 0, n).copy_(host_masks_.slice(0, 0, n), true);
    c.graph->replay();
    device_priors = c.priors.slice(0, 0, n);
    device_values = c.values.slice(0, 0, n);
  } else {
    std::tie(device_priors, device_values) =
        forward(host_observations_.slice(0, 0, n).to(device_, true),
                host_masks_.slice(0, 0, n).to(device_, true));
  }
  host_priors_.slice(0, 0, n).copy_(device_priors, true);
  host_values_.slice(0, 0, n).copy_(device_values, true);
  stream_.synchronize();
  std::memcpy(priors, host_priors_.data_ptr<float>(), sizeof(float) * n * info_.num_actions);
  std::memcpy(values, host_values_.data_ptr<float>(), sizeof(float) * n * info_.num_players);
}

}  // namespace knightgym
