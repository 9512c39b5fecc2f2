// Networks behind the Evaluator interface, for the agents that need one: the project's
// ResNet made fresh from a seed, or a TorchScript file (agents/torch_evaluator.h says
// what such a module computes). LibTorch stays behind a NetworkBackend, like KataGo's
// backends: a build without it (KNIGHTGYM_TORCH=OFF) has none, and Python loads it only
// when a network is first asked for, so that everything else runs without libtorch in
// the process.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "agents/evaluator.h"

namespace knightgym {

// How the network turns its trunk into one logit per action: a dense layer over the
// whole board (each action its own weights), or, where the actions come k per square
// (action = square * k + j in the observation's square order, as AlphaZero's chess
// planes), a convolution's k logits on every square: the same weights everywhere.
enum class PolicyHead : uint8_t { kDense, kConv };
const char* policy_head_name(PolicyHead head);
PolicyHead policy_head_named(const std::string& name);  // "dense" or "conv"

struct NetConfig {
  int blocks = 6;     // residual blocks
  int channels = 64;  // channels of the trunk
  // Planes between the trunk and the policy's dense layer, whose weights (policy_channels
  // x board x actions) are most of a network for a game of many actions: Knightmate's
  // 4,672 take 4.8 MB at 4 planes.
  int policy_channels = 4;
  PolicyHead policy_head = PolicyHead::kDense;
};

// The number format a network infers in: float32 as trained, or half precision, where the
// device computes it faster (bfloat16: on CPUs with AVX-512 BF16 or AMX, and GPUs;
// float16: GPUs only). Its answers differ from float32's by rounding (docs/benchmarks.md).
enum class Precision : uint8_t { kFloat32, kBFloat16, kFloat16 };
const char* precision_name(Precision precision);
Precision precision_named(const std::string& name);  // float32, bfloat16 or float16

// Whether networks made or loaded on a CUDA device from now on capture their forward
// passes as CUDA graphs, where the backend has them (agents/cuda_lane.h); on unless set
// off. A process setting, like the intra-op threads, for benchmarks to compare.
void set_cuda_graphs(bool on);
bool cuda_graphs();

// The project's ResNet (agents/resnet.h): its value head's hidden width, and the
// floating-point operations of one position's forward pass (a multiply-add counts two;
// convolutions and fully connected layers, which are all but a fraction of a percent of
// the work).
inline constexpr int kValueHeadHidden = 64;
int64_t resnet_flops(const GameInfo& info, const NetConfig& net);

class NetworkBackend {
 public:
  virtual ~NetworkBackend() = default;
  // A fresh ResNet for a game (info and its canonical spec), its weights drawn from seed.
  // device: "cpu", "cuda" or "cuda:N"; threads > 0: LibTorch's intra-op threads, on every
  // thread that evaluates it; precision: its inference's number format (float16 needs a
  // GPU: refused by name on the CPU).
  virtual std::shared_ptr<Evaluator> create(const GameInfo& info, const std::string& game_spec,
                                            const NetConfig& net, uint64_t seed,
                                            const std::string& device, int threads,
                                            Precision precision) const = 0;
  // A TorchScript module from `path`. Throws std::invalid_argument naming the problem: no
  // such file, not TorchScript, made for another game, or outputs of the wrong shape. A
  // `game_spec` that is a bare game name ("knight_fight") accepts a module made for any
  // rules of that game.
  virtual std::shared_ptr<Evaluator> load(const std::string& path, const GameInfo& info,
                                          const std::string& game_spec, const std::string& device,
                                          int threads, Precision precision) const = 0;
  // The same from a module's bytes (as Learner::model_bytes gives them); errors name it
  // as `what`.
  virtual std::shared_ptr<Evaluator> read(std::string_view bytes, const std::string& what,
                                          const GameInfo& info, const std::string& game_spec,
                                          const std::string& device, int threads,
                                          Precision precision) const = 0;
  // The calling thread's intra-op threads; setting them also sets the default that
  // threads take on their first use (NetworkThreadShare below).
  virtual int intra_op_threads() const = 0;
  virtual void set_intra_op_threads(int threads) const = 0;
  // Whether it can capture CUDA graphs (agents/cuda_graph.h): its LibTorch has CUDA.
  virtual bool has_cuda_graphs() const = 0;
};

// The backend networks come from (it must outlive every use). A program linked with
// LibTorch sets it at start (use_torch_networks, agents/torch_evaluator.h).
void set_network_backend(const NetworkBackend* backend);

// Called, once, the first time a network is asked for while no backend is set: it may
// load one (the Python module imports its LibTorch part) and set it.
void set_network_loader(std::function<void()> loader);

// Through the backend; without one, std::invalid_argument saying that this build or
// process has no LibTorch.
std::shared_ptr<Evaluator> create_network(const GameInfo& info, const std::string& game_spec,
                                          const NetConfig& net, uint64_t seed,
                                          const std::string& device, int threads,
                                          Precision precision = Precision::kFloat32);
std::shared_ptr<Evaluator> load_network(const std::string& path, const GameInfo& info,
                                        const std::string& game_spec, const std::string& device,
                                        int threads, Precision precision = Precision::kFloat32);
// On `device`: "on", "off" (set_cuda_graphs), "not in this build", or "" on the CPU; and
// the same as a heading's words (", CUDA graphs on"; "" on the CPU).
std::string cuda_graphs_state(const std::string& device);
std::string cuda_graphs_heading(const std::string& device);

std::shared_ptr<Evaluator> read_network(std::string_view bytes, const std::string& what,
                                        const GameInfo& info, const std::string& game_spec,
                                        const std::string& device, int threads,
                                        Precision precision = Precision::kFloat32);

// Intra-op threads (those one forward pass runs on) when T threads play at once, each
// with its networks. LibTorch on OpenMP keeps the count per thread: a thread takes a
// process-wide default on its first use, and at::set_num_threads sets the calling
// thread's count and that default both. Left alone, each of T threads would take the
// default, every core, for teams of OpenMP threads of its own; beside the idle team of the
// thread that loaded the networks, such teams outnumber the cores, and OpenMP then sleeps
// and wakes its threads around every small parallel step: on 2 cores, one worker with 2
// intra-op threads played 2.4x slower than with 1 (docs/benchmarks.md). While a
// NetworkThreadShare lives on the thread that starts T > 1 workers, the default is one
// intra-op thread, which the workers take, so that T workers fit T cores; a network whose
// spec names `threads` keeps them. After it the default is as before. With T = 1 (games
// then best stay on the thread that loaded the networks), or no backend loaded, it does
// nothing.
class NetworkThreadShare {
 public:
  explicit NetworkThreadShare(int workers);
  ~NetworkThreadShare();
  NetworkThreadShare(const NetworkThreadShare&) = delete;
  NetworkThreadShare& operator=(const NetworkThreadShare&) = delete;

 private:
  const NetworkBackend* backend_ = nullptr;  // null: nothing to restore
  int saved_ = 0;
};

}  // namespace knightgym
