// The network behind the Evaluator interface: a TorchScript module with
//   forward(observations: [B, C, H, W] float) -> (policy logits [B, num_actions],
//                                                 values [B, num_players] in [-1, 1])
// (values relative to the observer, as evaluator.h says). It is either the project's
// ResNet, made fresh from a seed (agents/resnet.h), or any such module loaded from a file,
// also one written from Python with torch.jit.save. Illegal actions are masked out
// before the softmax. Runs on CPU or CUDA. Threads call a network that only infers at
// once, each on its own intra-op threads (agents/network.h: NetworkThreadShare); calls
// to the learner's (over) are serialised.
// LibTorch stays out of this header, so only its own translation units compile it.
//
// A network that only infers (create, load) runs a frozen copy optimized for inference
// (torch::jit::freeze, then optimize_for_inference: batch norms folded into the
// convolutions, and on the CPU oneDNN's blocked layout kept from layer to layer instead
// of reordered around each convolution). On 10 x 10 and 12 x 12 boards that doubles the
// forward pass (docs/benchmarks.md); its answers equal the module's up to rounding. The
// learner's evaluator (over) runs its module as it is, since it trains between calls.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

#include "agents/evaluator.h"
#include "agents/network.h"

namespace torch::jit {
struct Module;
}

namespace knightgym {

class TorchEvaluator final : public Evaluator {
 public:
  // A fresh ResNet for a game (info and its canonical spec), its weights drawn from seed.
  // device: "cpu", "cuda" or "cuda:N"; threads > 0: LibTorch's intra-op threads, on
  // every thread that calls it.
  // precision: inference's number format (network.h); float16 on the CPU is refused.
  static std::unique_ptr<TorchEvaluator> create(const GameInfo& info, const std::string& game_spec,
                                                const NetConfig& net, uint64_t seed,
                                                const std::string& device, int threads = 0,
                                                Precision precision = Precision::kFloat32);
  // A TorchScript module from `path`. Throws std::invalid_argument naming the problem: no
  // such file, not TorchScript, made for another game, or outputs of the wrong shape.
  static std::unique_ptr<TorchEvaluator> load(const std::string& path, const GameInfo& info,
                                              const std::string& game_spec,
                                              const std::string& device, int threads = 0,
                                              Precision precision = Precision::kFloat32);
  // The same from a module's bytes; errors name it as `what` ("model 'PATH'").
  static std::unique_ptr<TorchEvaluator> read(std::istream& bytes, const std::string& what,
                                              const GameInfo& info, const std::string& game_spec,
                                              const std::string& device, int threads = 0,
                                              Precision precision = Precision::kFloat32);

  // An evaluator over `module` itself, not a copy, on `device` (where the module already
  // is): the learner trains that module between calls. It is left in eval mode; whoever
  // trains it sets train mode for its steps and eval mode again before inference. Its
  // inputs are given `precision`'s type, which must be the module's (the learner's copies
  // for self-play may infer in half precision).
  static std::unique_ptr<TorchEvaluator> over(const torch::jit::Module& module,
                                              const GameInfo& info, const std::string& device,
                                              Precision precision = Precision::kFloat32);

  ~TorchEvaluator() override;

  const GameInfo& info() const override;
  void evaluate(int n, const float* observations, const uint8_t* masks, float* priors,
                float* values) override;

  // Writes the module to `path` atomically (a temporary file, flushed, then renamed).
  void save(const std::string& path) const;

  struct Impl;

 private:
  explicit TorchEvaluator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// LibTorch's intra-op threads on the calling thread (and the default threads take), and
// OpenBLAS's where LibTorch links it (Debian's does): OpenBLAS keeps a pool of its own,
// whose idle threads spin (sched_yield) beside a one-thread run, a core's worth of system
// time on the VM, unless told the same count.
void set_libtorch_threads(int threads);

// The LibTorch backend of agents/network.h, and setting it as the process's backend
// (programs linked with LibTorch call this at start).
const NetworkBackend& torch_network_backend();
void use_torch_networks();

}  // namespace knightgym
