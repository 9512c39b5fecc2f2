#include "agents/torch_evaluator.h"

#include <ATen/Parallel.h>
#include <dlfcn.h>
#include <torch/cuda.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "agents/cuda_lane.h"

#include "agents/resnet.h"
#include "util/atomic_file.h"
#include "util/text.h"
#include "util/zip_archive_check.h"

namespace knightgym {

struct TorchEvaluator::Impl {
  torch::jit::Module module;
  GameInfo info;
  torch::Device device;
  std::mutex mutex;  // for the learner's module (over), which trains between calls
  // For networks that only infer: `module` frozen and optimized for inference.
  std::optional<torch::jit::Module> inference;
  int threads = 0;                       // intra-op threads the spec names; 0: the calling thread's
  torch::Dtype dtype = torch::kFloat32;  // of the inference network and its inputs
  // On a CUDA device: each calling thread's lane (agents/cuda_lane.h), made on its first call.
  std::mutex lanes_mutex{};
  std::unordered_map<std::thread::id, std::unique_ptr<CudaLane>> lanes{};
  bool graphs = cuda_graphs();  // for the lanes of a network that only infers

  CudaLane& lane() {
    std::lock_guard lock(lanes_mutex);
    std::unique_ptr<CudaLane>& lane = lanes[std::this_thread::get_id()];
    if (!lane)
      lane = inference ? std::make_unique<CudaLane>(*inference, info, device, dtype,
                                                    ModuleWeights::kFrozen, graphs)
                       : std::make_unique<CudaLane>(module, info, device, dtype,
                                                    ModuleWeights::kLive, false);
    return *lane;
  }
};

namespace {

torch::Device parse_device(const std::string& name) {
  if (name != "cpu" && name.rfind("cuda", 0) != 0)
    throw std::invalid_argument("device '" + name + "': expected cpu, cuda or cuda:N");
  if (name != "cpu" && !torch::cuda::is_available())
    throw std::invalid_argument("device '" + name +
                                "': CUDA is not available (no GPU, or LibTorch without CUDA)");
  try {
    return torch::Device(name);
  } catch (const c10::Error&) {
    throw std::invalid_argument("device '" + name + "': not a device name");
  }
}

void set_threads(int threads) {
  if (threads > 0) set_libtorch_threads(threads);
}

// The calling thread's intra-op threads: `threads` where the spec names them, else
// LibTorch's default, taken here on the thread's first call, before the first forward
// pass (whose oneDNN convolutions would otherwise run on OpenMP's own default, every
// core). Set only when they differ, since setting them clears the thread's oneDNN cache.
void use_threads(int threads) {
  if (at::get_num_threads() != threads && threads > 0) at::set_num_threads(threads);
}

std::string shape_text(const torch::Tensor& t) {
  std::string out = "[";
  for (int64_t i = 0; i < t.dim(); ++i) out += (i ? ", " : "") + std::to_string(t.size(i));
  return out + "]";
}

// One forward pass; checks the outputs' shapes against the game.
std::pair<torch::Tensor, torch::Tensor> forward(torch::jit::Module& module, const GameInfo& info,
                                                const torch::Tensor& observations) {
  const torch::IValue output = module.forward({observations});
  if (!output.isTuple() || output.toTupleRef().elements().size() != 2)
    throw std::invalid_argument("the model's forward must return (policy logits, values)");
  const auto& elements = output.toTupleRef().elements();
  torch::Tensor logits = elements[0].toTensor(), values = elements[1].toTensor();
  const int64_t n = observations.size(0);
  if (logits.dim() != 2 || logits.size(0) != n || logits.size(1) != info.num_actions)
    throw std::invalid_argument("the model's policy logits are " + shape_text(logits) +
                                ", expected [" + std::to_string(n) + ", " +
                                std::to_string(info.num_actions) + "]");
  if (values.dim() != 2 || values.size(0) != n || values.size(1) != info.num_players)
    throw std::invalid_argument("the model's values are " + shape_text(values) + ", expected [" +
                                std::to_string(n) + ", " + std::to_string(info.num_players) + "]");
  return {logits, values};
}

// The tensors' type for `precision` on `device`; float16 refused on the CPU.
torch::Dtype dtype_of(Precision precision, const torch::Device& device) {
  if (precision == Precision::kFloat16 && device.is_cpu())
    throw std::invalid_argument(
        "precision float16 needs a CUDA device: the CPU's convolutions have none (bfloat16 "
        "runs there)");
  return precision == Precision::kBFloat16  ? torch::kBFloat16
         : precision == Precision::kFloat16 ? torch::kFloat16
                                            : torch::kFloat32;
}

// A frozen copy of `module` for inference in `dtype`; in float32 also optimized for
// inference (the header says why; its oneDNN rewrites are float32's).
torch::jit::Module optimized(const torch::jit::Module& module, torch::Dtype dtype) {
  torch::jit::Module copy = module.clone();
  if (dtype != torch::kFloat32) {
    copy.to(dtype);
    return torch::jit::freeze(copy);
  }
  torch::jit::Module frozen = torch::jit::freeze(copy);
  return torch::jit::optimize_for_inference(frozen);
}

torch::Tensor zero_batch(const GameInfo& info, int n) {
  const Shape& s = info.observation_shape;
  return torch::zeros({n, s.channels, s.height, s.width});
}

}  // namespace

TorchEvaluator::TorchEvaluator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TorchEvaluator::~TorchEvaluator() = default;

std::unique_ptr<TorchEvaluator> TorchEvaluator::create(const GameInfo& info,
                                                       const std::string& game_spec,
                                                       const NetConfig& net, uint64_t seed,
                                                       const std::string& device, int threads,
                                                       Precision precision) {
  if (net.blocks < 0 || net.channels < 1)
    throw std::invalid_argument("a network needs blocks >= 0 and channels >= 1");
  const torch::Device where = parse_device(device);
  const torch::Dtype dtype = dtype_of(precision, where);
  set_threads(threads);
  auto impl = std::unique_ptr<Impl>(
      new Impl{make_resnet(info, game_spec, net, seed), info, where, {}, {}, threads, dtype});
  impl->module.eval();
  impl->module.to(where);
  impl->inference = optimized(impl->module, dtype);
  return std::unique_ptr<TorchEvaluator>(new TorchEvaluator(std::move(impl)));
}

std::unique_ptr<TorchEvaluator> TorchEvaluator::load(const std::string& path, const GameInfo& info,
                                                     const std::string& game_spec,
                                                     const std::string& device, int threads,
                                                     Precision precision) {
  if (!std::filesystem::is_regular_file(path))
    throw std::invalid_argument("model '" + path + "': no such file");
  std::ifstream file(path, std::ios::binary);
  return read(file, "model '" + path + "'", info, game_spec, device, threads, precision);
}

std::unique_ptr<TorchEvaluator> TorchEvaluator::read(std::istream& bytes, const std::string& what,
                                                     const GameInfo& info,
                                                     const std::string& game_spec,
                                                     const std::string& device, int threads,
                                                     Precision precision) {
  const torch::Device where = parse_device(device);
  const torch::Dtype dtype = dtype_of(precision, where);
  set_threads(threads);
  // Checked before anything inflates: the stream's bytes (a file's) read whole, once.
  std::istringstream archive(std::string(std::istreambuf_iterator<char>(bytes), {}));
  if (const auto problem = zip_archive_problem(archive.view()))
    throw std::invalid_argument(what + " is not a TorchScript module: " + *problem);
  torch::jit::Module module;
  try {
    module = torch::jit::load(archive, where);
  } catch (const c10::Error& error) {
    throw std::invalid_argument(what +
                                " is not a TorchScript module: " + error.what_without_backtrace());
  }
  if (module.hasattr("game_spec")) {
    const std::string made_for = module.attr("game_spec").toStringRef();
    const std::vector<std::string> rule_sets = recorded_rule_sets(module);
    // A bare game name accepts a module made for any rules of that game (az's rules=any).
    const bool fits =
        made_for == game_spec ||
        std::find(rule_sets.begin(), rule_sets.end(), game_spec) != rule_sets.end() ||
        (game_spec.find('(') == std::string::npos && made_for.starts_with(game_spec + "("));
    if (!fits && rule_sets.size() > 1)
      throw std::invalid_argument(what + " was trained over " + std::to_string(rule_sets.size()) +
                                  " rule sets, not " + game_spec +
                                  " (its rule sets: " + join(rule_sets, "; ") + ")");
    if (!fits)
      throw std::invalid_argument(what + " was made for " + made_for + ", not " + game_spec);
  }
  module.eval();
  auto impl = std::unique_ptr<Impl>(new Impl{module, info, where, {}, {}, threads, dtype});
  try {
    torch::InferenceMode guard;
    forward(impl->module, info, zero_batch(info, 1).to(where));
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(what + ": " + error.what());
  } catch (const c10::Error& error) {
    throw std::invalid_argument(
        what + " fails on this game's observations: " + error.what_without_backtrace());
  }
  impl->inference = optimized(impl->module, dtype);
  return std::unique_ptr<TorchEvaluator>(new TorchEvaluator(std::move(impl)));
}

std::unique_ptr<TorchEvaluator> TorchEvaluator::over(const torch::jit::Module& module,
                                                     const GameInfo& info,
                                                     const std::string& device,
                                                     Precision precision) {
  const torch::Device where = parse_device(device);
  auto impl =
      std::unique_ptr<Impl>(new Impl{module, info, where, {}, {}, 0, dtype_of(precision, where)});
  impl->module.eval();
  return std::unique_ptr<TorchEvaluator>(new TorchEvaluator(std::move(impl)));
}

const GameInfo& TorchEvaluator::info() const { return impl_->info; }

void TorchEvaluator::evaluate(int n, const float* observations, const uint8_t* masks, float* priors,
                              float* values) {
  if (n <= 0) return;
  const GameInfo& info = impl_->info;
  const Shape& s = info.observation_shape;
  use_threads(impl_->threads);
  // A frozen network is called from many threads at once (TorchScript runs a module's
  // forward concurrently); the learner's module, which trains between calls, one at a time.
  std::unique_lock lock(impl_->mutex, std::defer_lock);
  if (!impl_->inference) lock.lock();
  torch::InferenceMode guard;
  if (impl_->device.is_cuda())
    return impl_->lane().evaluate(n, observations, masks, priors, values);
  // LibTorch runs the convolutions of a single small CPU input on a slow generic path
  // instead of oneDNN; a copy of the row as a second one keeps it on the fast path (5x).
  const int rows = n == 1 ? 2 : n;
  const torch::Tensor input =
      torch::from_blob(const_cast<float*>(observations), {n, s.channels, s.height, s.width})
          .expand({rows, s.channels, s.height, s.width})
          .to(impl_->dtype);
  const torch::Tensor legal =
      torch::from_blob(const_cast<uint8_t*>(masks), {n, info.num_actions}, torch::kUInt8)
          .expand({rows, info.num_actions})
          .to(torch::kBool);
  auto [logits, value] = forward(impl_->inference ? *impl_->inference : impl_->module, info, input);
  const torch::Tensor policy =
      torch::softmax(logits.to(torch::kFloat32).masked_fill(legal.logical_not(), -INFINITY), 1)
          .slice(0, 0, n)
          .contiguous();
  const torch::Tensor value_cpu = value.to(torch::kFloat32).slice(0, 0, n).contiguous();
  std::memcpy(priors, policy.data_ptr<float>(), sizeof(float) * n * info.num_actions);
  std::memcpy(values, value_cpu.data_ptr<float>(), sizeof(float) * n * info.num_players);
}

void TorchEvaluator::save(const std::string& path) const {
  std::ostringstream bytes;
  try {
    std::lock_guard lock(impl_->mutex);
    impl_->module.save(bytes);
  } catch (const c10::Error& error) {
    throw std::runtime_error("cannot write model '" + path +
                             "': " + error.what_without_backtrace());
  }
  write_file_atomically(path, bytes.view());
}

namespace {

class TorchBackend final : public NetworkBackend {
 public:
  std::shared_ptr<Evaluator> create(const GameInfo& info, const std::string& game_spec,
                                    const NetConfig& net, uint64_t seed, const std::string& device,
                                    int threads, Precision precision) const override {
    return TorchEvaluator::create(info, game_spec, net, seed, device, threads, precision);
  }
  std::shared_ptr<Evaluator> load(const std::string& path, const GameInfo& info,
                                  const std::string& game_spec, const std::string& device,
                                  int threads, Precision precision) const override {
    return TorchEvaluator::load(path, info, game_spec, device, threads, precision);
  }
  std::shared_ptr<Evaluator> read(std::string_view bytes, const std::string& what,
                                  const GameInfo& info, const std::string& game_spec,
                                  const std::string& device, int threads,
                                  Precision precision) const override {
    std::istringstream stream{std::string(bytes)};
    return TorchEvaluator::read(stream, what, info, game_spec, device, threads, precision);
  }
  int intra_op_threads() const override { return at::get_num_threads(); }
  void set_intra_op_threads(int threads) const override { set_libtorch_threads(threads); }
  bool has_cuda_graphs() const override { return CudaGraph::available(); }
};

}  // namespace

void set_libtorch_threads(int threads) {
  at::set_num_threads(threads);
  using SetThreads = void (*)(int);
  static const auto openblas =
      reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (openblas) openblas(threads);
}

const NetworkBackend& torch_network_backend() {
  static const TorchBackend backend;
  return backend;
}

void use_torch_networks() { set_network_backend(&torch_network_backend()); }

}  // namespace knightgym
