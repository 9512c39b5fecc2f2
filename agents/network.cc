#include "agents/network.h"

#include <atomic>
#include <mutex>
#include <stdexcept>

namespace knightgym {
namespace {

std::mutex mutex;
const NetworkBackend* backend = nullptr;
std::function<void()> loader;
std::atomic<bool> graphs_on{true};

const NetworkBackend& require_backend() {
  std::function<void()> load;
  {
    std::lock_guard lock(mutex);
    if (backend) return *backend;
    load = std::move(loader);  // tried once: a failed load is not retried on every call
    loader = nullptr;
  }
  if (load) load();  // outside the lock: it sets the backend
  std::lock_guard lock(mutex);
  if (!backend)
    throw std::invalid_argument(
        "networks need LibTorch, which this build does not have (configured with "
        "KNIGHTGYM_TORCH=OFF); model=uniform needs none");
  return *backend;
}

}  // namespace

void set_network_backend(const NetworkBackend* new_backend) {
  std::lock_guard lock(mutex);
  backend = new_backend;
}

void set_cuda_graphs(bool on) { graphs_on = on; }
bool cuda_graphs() { return graphs_on; }

void set_network_loader(std::function<void()> new_loader) {
  std::lock_guard lock(mutex);
  loader = std::move(new_loader);
}

std::shared_ptr<Evaluator> create_network(const GameInfo& info, const std::string& game_spec,
                                          const NetConfig& net, uint64_t seed,
                                          const std::string& device, int threads,
                                          Precision precision) {
  return require_backend().create(info, game_spec, net, seed, device, threads, precision);
}

std::shared_ptr<Evaluator> load_network(const std::string& path, const GameInfo& info,
                                        const std::string& game_spec, const std::string& device,
                                        int threads, Precision precision) {
  return require_backend().load(path, info, game_spec, device, threads, precision);
}

std::string cuda_graphs_state(const std::string& device) {
  if (device == "cpu") return "";
  if (!require_backend().has_cuda_graphs()) return "not in this build";
  return cuda_graphs() ? "on" : "off";
}

std::string cuda_graphs_heading(const std::string& device) {
  const std::string state = cuda_graphs_state(device);
  return state.empty() ? "" : ", CUDA graphs " + state;
}

std::shared_ptr<Evaluator> read_network(std::string_view bytes, const std::string& what,
                                        const GameInfo& info, const std::string& game_spec,
                                        const std::string& device, int threads,
                                        Precision precision) {
  return require_backend().read(bytes, what, info, game_spec, device, threads, precision);
}

NetworkThreadShare::NetworkThreadShare(int workers) {
  {
    std::lock_guard lock(mutex);
    if (workers > 1) backend_ = backend;
  }
  if (!backend_) return;
  saved_ = backend_->intra_op_threads();
  backend_->set_intra_op_threads(1);
}

NetworkThreadShare::~NetworkThreadShare() {
  if (backend_) backend_->set_intra_op_threads(saved_);
}

const char* policy_head_name(PolicyHead head) {
  return head == PolicyHead::kConv ? "conv" : "dense";
}

PolicyHead policy_head_named(const std::string& name) {
  if (name == "dense") return PolicyHead::kDense;
  if (name == "conv") return PolicyHead::kConv;
  throw std::invalid_argument("policy head '" + name + "' is neither dense nor conv");
}

const char* precision_name(Precision precision) {
  switch (precision) {
    case Precision::kBFloat16:
      return "bfloat16";
    case Precision::kFloat16:
      return "float16";
    default:
      return "float32";
  }
}

Precision precision_named(const std::string& name) {
  for (const Precision p : {Precision::kFloat32, Precision::kBFloat16, Precision::kFloat16})
    if (name == precision_name(p)) return p;
  throw std::invalid_argument("precision '" + name + "': expected float32, bfloat16 or float16");
}

int64_t resnet_flops(const GameInfo& info, const NetConfig& net) {
  const Shape& s = info.observation_shape;
  const int64_t board = int64_t{s.height} * s.width, c = net.channels, p = net.policy_channels;
  const int64_t policy = net.policy_head == PolicyHead::kConv
                             ? board * c * c * 9 + c * info.num_actions       // 3x3, then 1x1
                             : board * c * p + board * p * info.num_actions;  // 1x1, dense
  const int64_t multiply_adds = board * s.channels * c * 9                    // stem, 3x3
                                + net.blocks * 2 * board * c * c * 9          // two 3x3 per block
                                + policy                                      //
                                + board * c + board * kValueHeadHidden        // value 1x1, hidden
                                + int64_t{kValueHeadHidden} * info.num_players;  // values
  return 2 * multiply_adds;
}

}  // namespace knightgym
