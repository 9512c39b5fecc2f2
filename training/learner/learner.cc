#include "training/learner/learner.h"

#include <ATen/Parallel.h>
#include <torch/optim/adamw.h>
#include <torch/script.h>
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "agents/resnet.h"
#include "util/atomic_file.h"
#include "util/binary_io.h"
#include "util/zip_archive_check.h"

namespace knightgym {
namespace {

// What ends a checkpoint, before the hash of the bytes before it.
constexpr char kChecksumMagic[] = "KGCKSUM1";

// Each counter's name in a checkpoint ("counter.NAME"), the one place that names it.
struct CounterField {
  const char* name;
  int64_t TrainingCounters::*field;
};
constexpr CounterField kCounterFields[] = {
    {"steps", &TrainingCounters::steps},
    {"samples", &TrainingCounters::samples},
    {"games", &TrainingCounters::games},
    {"decisions", &TrainingCounters::decisions},
    {"evaluations", &TrainingCounters::evaluations},
    {"milliseconds", &TrainingCounters::milliseconds},
    {"match_rounds", &TrainingCounters::match_rounds},
    {"generation", &TrainingCounters::generation},
    {"chunks", &TrainingCounters::chunks},
};
// A field added to TrainingCounters and not here would be lost on resume.
static_assert(sizeof(TrainingCounters) == std::size(kCounterFields) * sizeof(int64_t));

// AdamW's per-parameter tensors, each passed through `convert` (undefined ones as they are).
void convert_moments(torch::optim::AdamWParamState& state,
                     const std::function<torch::Tensor(const torch::Tensor&)>& convert) {
  const auto each = [&](const torch::Tensor& t) { return t.defined() ? convert(t) : t; };
  state.exp_avg(each(state.exp_avg()));
  state.exp_avg_sq(each(state.exp_avg_sq()));
  state.max_exp_avg_sq(each(state.max_exp_avg_sq()));
}

// A floating-point tensor in `type`; any other as it is.
torch::Tensor stored_as(const torch::Tensor& t, torch::Dtype type) {
  return t.is_floating_point() ? t.to(type) : t;
}

}  // namespace

struct Learner::Impl {
  GameInfo info;
  std::string game_spec;
  NetConfig net;
  LearnerConfig config;
  torch::Device device;
  torch::jit::Module module;
  std::vector<torch::Tensor> parameters;
  std::unique_ptr<torch::optim::AdamW> optimizer;
  std::shared_ptr<TorchEvaluator> evaluator;
  std::vector<torch::jit::Module> copies;  // Learner::copies()' networks, once made
  std::vector<std::shared_ptr<Evaluator>> copy_evaluators;
  Precision copies_precision = Precision::kFloat32;

  std::unique_ptr<torch::optim::AdamW> make_optimizer() const {
    return std::make_unique<torch::optim::AdamW>(
        parameters,
        torch::optim::AdamWOptions(config.learning_rate).weight_decay(config.weight_decay));
  }

  // The tensors a checkpoint holds: parameters and buffers (batch-norm statistics).
  std::vector<std::pair<std::string, torch::Tensor>> state() const {
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (const auto& p : module.named_parameters()) out.emplace_back(p.name, p.value);
    for (const auto& b : module.named_buffers()) out.emplace_back(b.name, b.value);
    return out;
  }
};

Learner::Learner(const GameInfo& info, const std::string& game_spec, const NetConfig& net,
                 uint64_t seed, const LearnerConfig& config, const std::string& device,
                 const std::vector<std::string>& rule_sets)
    : impl_(new Impl{info, game_spec, net, config, torch::kCPU, {}, {}, {}, {}, {}, {}}) {
  if (config.learning_rate <= 0 || config.weight_decay < 0 || config.value_weight < 0)
    throw std::invalid_argument("a learner needs lr > 0, weight_decay >= 0, value_weight >= 0");
  if (net.blocks < 0 || net.channels < 1 || net.policy_channels < 1)
    throw std::invalid_argument(
        "a network needs blocks >= 0, channels >= 1 and policy_channels >= 1");
  impl_->module = make_resnet(info, game_spec, net, seed, rule_sets);
  // over() checks the device name and that CUDA is there; the module moves after it.
  impl_->evaluator = TorchEvaluator::over(impl_->module, info, device);
  impl_->device = torch::Device(device);
  impl_->module.to(impl_->device);
  // make_resnet builds its weights without autograd; the learner needs their gradients.
  for (const auto& p : impl_->module.parameters()) impl_->parameters.push_back(p.requires_grad_());
  impl_->optimizer = impl_->make_optimizer();
}

Learner::~Learner() = default;

std::shared_ptr<Evaluator> Learner::evaluator() const { return impl_->evaluator; }

std::vector<std::shared_ptr<Evaluator>> Learner::copies(int count, Precision precision) {
  Impl& m = *impl_;
  if (count < 1 || (!m.copies.empty() && (static_cast<int>(m.copies.size()) != count ||
                                          precision != m.copies_precision)))
    throw std::logic_error("Learner::copies(" + std::to_string(count) + ", " +
                           precision_name(precision) +
                           "): " + (count < 1 ? "below 1" : "not what the first call asked"));
  if (m.copies.empty()) {
    for (int i = 0; i < count; ++i) {
      torch::jit::Module copy = m.module.deepcopy();
      // over() refuses float16 on the CPU before the copy changes type.
      m.copy_evaluators.push_back(TorchEvaluator::over(copy, m.info, m.device.str(), precision));
      if (precision == Precision::kBFloat16) copy.to(torch::kBFloat16);
      if (precision == Precision::kFloat16) copy.to(torch::kFloat16);
      m.copies.push_back(copy);
    }
    m.copies_precision = precision;
  }
  return m.copy_evaluators;
}

void Learner::sync_copies() {
  Impl& m = *impl_;
  torch::NoGradGuard no_grad;
  const auto from = m.state();
  for (torch::jit::Module& copy : m.copies) {
    size_t i = 0;
    for (const auto& p : copy.named_parameters()) p.value.copy_(from[i++].second);
    for (const auto& b : copy.named_buffers()) b.value.copy_(from[i++].second);
  }
}

void Learner::set_intra_op_threads(int threads) {
  if (threads > 0) set_libtorch_threads(threads);
}

int64_t Learner::num_parameters() const {
  int64_t n = 0;
  for (const torch::Tensor& p : impl_->parameters) n += p.numel();
  return n;
}

Losses Learner::train(const TrainingBatch& batch) {
  Impl& m = *impl_;
  const Shape& s = m.info.observation_shape;
  const int64_t n = batch.size, actions = m.info.num_actions;
  const auto to_device = [&](const void* data, std::vector<int64_t> sizes, torch::Dtype type) {
    return torch::from_blob(const_cast<void*>(data), sizes, type).to(m.device);
  };
  const torch::Tensor x =
      to_device(batch.observations, {n, s.channels, s.height, s.width}, torch::kFloat32);
  const torch::Tensor legal = to_device(batch.masks, {n, actions}, torch::kUInt8).to(torch::kBool);
  const torch::Tensor target_policy = to_device(batch.policies, {n, actions}, torch::kFloat32);
  const torch::Tensor target_value =
      to_device(batch.values, {n, m.info.num_players}, torch::kFloat32);

  m.module.train(true);
  const auto output = m.module.forward({x}).toTuple();
  const torch::Tensor logits = output->elements()[0].toTensor();
  const torch::Tensor value = output->elements()[1].toTensor();
  // Illegal actions get no probability; where() keeps their 0 * -inf out of the sums.
  const torch::Tensor log_p = torch::log_softmax(logits.masked_fill(legal.logical_not(), -1e9), 1);
  const torch::Tensor zero = torch::zeros({}, log_p.options());
  const torch::Tensor policy_loss = -torch::where(legal, target_policy * log_p, zero).sum(1).mean();
  const torch::Tensor value_loss = torch::mse_loss(value, target_value);
  const torch::Tensor loss = policy_loss + m.config.value_weight * value_loss;
  m.optimizer->zero_grad();
  loss.backward();
  m.optimizer->step();
  m.module.train(false);

  torch::NoGradGuard no_grad;
  const torch::Tensor entropy = -torch::where(legal, log_p.exp() * log_p, zero).sum(1).mean();
  return {policy_loss.item<double>(), value_loss.item<double>(), entropy.item<double>()};
}

void Learner::save_checkpoint(const std::string& path, const TrainingCounters& counters,
                              CheckpointPrecision precision) const {
  const Impl& m = *impl_;
  const bool compact = precision == CheckpointPrecision::kCompact;
  torch::serialize::OutputArchive archive;
  archive.write("format", kCheckpointFormat);
  archive.write("game_spec", m.game_spec);
  archive.write("blocks", int64_t{m.net.blocks});
  archive.write("channels", int64_t{m.net.channels});
  for (const auto& [name, tensor] : m.state())
    archive.write("net." + name, compact ? stored_as(tensor.cpu(), torch::kHalf) : tensor.cpu());
  torch::serialize::OutputArchive optimizer;
  if (compact) {  // a copy of the optimizer whose moments are bfloat16
    auto rounded = m.make_optimizer();
    for (const auto& [key, state] : m.optimizer->state()) {
      auto copy = state->clone();
      convert_moments(static_cast<torch::optim::AdamWParamState&>(*copy),
                      [](const torch::Tensor& t) { return stored_as(t, torch::kBFloat16); });
      rounded->state()[key] = std::move(copy);
    }
    rounded->save(optimizer);
  } else {
    m.optimizer->save(optimizer);
  }
  archive.write("optimizer", optimizer);
  for (const CounterField& c : kCounterFields)
    archive.write(std::string("counter.") + c.name, counters.*c.field);
  std::ostringstream out;
  archive.save_to(out);
  std::string bytes = std::move(out).str();
  const uint64_t hash = fnv1a(bytes);
  bytes.append(kChecksumMagic);
  bytes.append(reinterpret_cast<const char*>(&hash), sizeof hash);
  write_file_atomically(path, bytes);
}

TrainingCounters Learner::load_checkpoint(const std::string& path) {
  Impl& m = *impl_;
  const auto fail = [&](const std::string& why) -> std::invalid_argument {
    return std::invalid_argument("checkpoint '" + path + "': " + why);
  };
  if (!std::filesystem::is_regular_file(path)) throw fail("no such file");
  const std::optional<std::string> file = read_file(path);
  if (!file) throw fail("unreadable");
  // The trailer: the magic, then the hash of every byte before it.
  std::string_view bytes = *file;
  constexpr size_t kTrailer = std::size(kChecksumMagic) - 1 + sizeof(uint64_t);
  if (bytes.size() < kTrailer ||
      bytes.substr(bytes.size() - kTrailer, kTrailer - sizeof(uint64_t)) != kChecksumMagic)
    throw fail("has no checksum (cut short, damaged or of a format before 5)");
  uint64_t hash;
  std::memcpy(&hash, bytes.data() + bytes.size() - sizeof hash, sizeof hash);
  bytes.remove_suffix(kTrailer);
  if (fnv1a(bytes) != hash) throw fail("damaged (its checksum does not match its bytes)");
  if (const auto problem = zip_archive_problem(bytes))  // before anything inflates
    throw fail("unreadable (" + *problem + ")");
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(bytes.data(), bytes.size(), m.device);
  } catch (const c10::Error& error) {
    throw fail(std::string("unreadable (") + error.what_without_backtrace() + ")");
  }
  // A value by its key, refused by name where it is missing or of another type.
  const auto read = [&](const std::string& key, bool (c10::IValue::*is_type)() const,
                        const char* type) {
    c10::IValue value;
    if (!archive.try_read(key, value)) throw fail("has no '" + key + "'");
    if (!(value.*is_type)()) throw fail("'" + key + "' is not " + type);
    return value;
  };
  const auto read_int = [&](const std::string& key) {
    return read(key, &c10::IValue::isInt, "an integer").toInt();
  };
  c10::IValue format;
  const int64_t version = archive.try_read("format", format) ? read_int("format") : 1;
  if (version != kCheckpointFormat)
    throw fail("has format version " + std::to_string(version) + ", this build reads version " +
               std::to_string(kCheckpointFormat));
  const std::string spec = read("game_spec", &c10::IValue::isString, "a string").toStringRef();
  if (spec != m.game_spec) throw fail("is for " + spec + ", not " + m.game_spec);
  const int64_t blocks = read_int("blocks"), channels = read_int("channels");
  if (blocks != m.net.blocks || channels != m.net.channels)
    throw fail("holds a network of " + std::to_string(blocks) + " blocks x " +
               std::to_string(channels) + " channels, not " + std::to_string(m.net.blocks) + " x " +
               std::to_string(m.net.channels));

  // Everything is read and checked before anything changes.
  std::vector<torch::Tensor> loaded;
  for (const auto& [name, tensor] : m.state()) {
    torch::Tensor value;
    if (!archive.try_read("net." + name, value)) throw fail("has no tensor '" + name + "'");
    if (value.sizes() != tensor.sizes()) throw fail("tensor '" + name + "' has another shape");
    if (value.is_floating_point() != tensor.is_floating_point())
      throw fail("tensor '" + name + "' has another type");
    loaded.push_back(value);
  }
  TrainingCounters counters;
  for (const CounterField& c : kCounterFields)
    counters.*c.field = read_int(std::string("counter.") + c.name);
  torch::serialize::InputArchive optimizer_archive;
  if (!archive.try_read("optimizer", optimizer_archive)) throw fail("has no optimizer state");
  auto optimizer = m.make_optimizer();
  try {
    optimizer->load(optimizer_archive);
  } catch (const c10::Error& error) {
    throw fail(std::string("bad optimizer state (") + error.what_without_backtrace() + ")");
  }
  // A compact checkpoint's moments (CheckpointPrecision) are trained on as float32.
  for (const auto& [key, state] : optimizer->state())
    convert_moments(static_cast<torch::optim::AdamWParamState&>(*state),
                    [](const torch::Tensor& t) { return stored_as(t, torch::kFloat32); });

  torch::NoGradGuard no_grad;
  size_t i = 0;
  for (auto& [name, tensor] : m.state()) tensor.copy_(loaded[i++]);
  m.optimizer = std::move(optimizer);
  return counters;
}

void Learner::load_weights(const std::string& path) {
  Impl& m = *impl_;
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument("init '" + path + "': " + why);
  };
  if (!std::filesystem::is_regular_file(path)) throw fail("no such file");
  const std::optional<std::string> file = read_file(path);
  if (!file) throw fail("unreadable");
  if (const auto problem = zip_archive_problem(*file))  // before anything inflates
    throw fail("not a TorchScript module (" + *problem + ")");
  torch::jit::Module source;
  try {
    std::istringstream bytes(*file);
    source = torch::jit::load(bytes, m.device);
  } catch (const c10::Error& error) {
    throw fail(std::string("not a TorchScript module (") + error.what_without_backtrace() + ")");
  }
  if (!source.hasattr("game_spec") || !source.attr("game_spec").isString())
    throw fail("records no game_spec: not a knightgym network");
  const std::string spec = source.attr("game_spec").toStringRef();
  if (spec != m.game_spec) throw fail("is a network for " + spec + ", not " + m.game_spec);
  std::vector<std::pair<std::string, torch::Tensor>> tensors;
  for (const auto& p : source.named_parameters()) tensors.emplace_back(p.name, p.value);
  for (const auto& b : source.named_buffers()) tensors.emplace_back(b.name, b.value);
  std::vector<torch::Tensor> loaded;
  const std::string shape =
      std::to_string(m.net.blocks) + " blocks x " + std::to_string(m.net.channels) + " channels";
  for (const auto& [name, tensor] : m.state()) {
    const auto found = std::find_if(tensors.begin(), tensors.end(),
                                    [&](const auto& named) { return named.first == name; });
    if (found == tensors.end() || found->second.sizes() != tensor.sizes())
      throw fail("has no tensor '" + name + "' of this network's shape (" + shape + ")");
    loaded.push_back(found->second);
  }
  if (tensors.size() != loaded.size()) throw fail("is a larger network than " + shape);
  torch::NoGradGuard no_grad;
  size_t i = 0;
  for (auto& [name, tensor] : m.state()) tensor.copy_(loaded[i++]);
}

std::string Learner::model_bytes() const {
  torch::jit::Module module = impl_->device.is_cpu() ? impl_->module : impl_->module.clone();
  if (!impl_->device.is_cpu()) module.to(torch::kCPU);
  std::ostringstream bytes;
  module.save(bytes);
  return std::move(bytes).str();
}

void Learner::export_model(const std::string& path) const {
  write_file_atomically(path, model_bytes());
}

}  // namespace knightgym
