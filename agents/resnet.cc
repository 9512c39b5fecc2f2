#include "agents/resnet.h"

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace knightgym {
namespace {

// Declares the parameters of each layer and writes its TorchScript expression.
class Builder {
 public:
  Builder(torch::jit::Module& module, uint64_t seed)
      : module_(module), generator_(at::detail::createCPUGenerator(seed)) {}

  // conv(x) without bias, He-initialised; 3x3 keeps the board size.
  std::string conv(const std::string& name, const std::string& x, int in, int out, int kernel) {
    const double std_dev = std::sqrt(2.0 / (in * kernel * kernel));
    parameter(name + "_w", torch::randn({out, in, kernel, kernel}, generator_) * std_dev);
    const int pad = kernel / 2;
    return "torch.conv2d(" + x + ", self." + name + "_w, None, [1, 1], [" + std::to_string(pad) +
           ", " + std::to_string(pad) + "])";
  }

  // A 1x1 convolution with a bias, its weights small so that the logits start near
  // uniform.
  std::string conv_with_bias(const std::string& name, const std::string& x, int in, int out) {
    parameter(name + "_w", torch::randn({out, in, 1, 1}, generator_) * (0.1 / std::sqrt(in)));
    parameter(name + "_b", torch::zeros({out}));
    return "torch.conv2d(" + x + ", self." + name + "_w, self." + name + "_b)";
  }

  std::string batch_norm(const std::string& name, const std::string& x, int channels) {
    parameter(name + "_gamma", torch::ones({channels}));
    parameter(name + "_beta", torch::zeros({channels}));
    module_.register_buffer(name + "_mean", torch::zeros({channels}));
    module_.register_buffer(name + "_var", torch::ones({channels}));
    return "torch.batch_norm(" + x + ", self." + name + "_gamma, self." + name + "_beta, self." +
           name + "_mean, self." + name + "_var, self.training, 0.1, 1e-05, True)";
  }

  std::string linear(const std::string& name, const std::string& x, int in, int out,
                     double scale = 1.0) {
    parameter(name + "_w", torch::randn({out, in}, generator_) * (scale / std::sqrt(in)));
    parameter(name + "_b", torch::zeros({out}));
    return "torch.linear(" + x + ", self." + name + "_w, self." + name + "_b)";
  }

  // A fully connected layer from `channels` planes of height x width to `out` features,
  // written as a convolution with a kernel the size of the board: the same weights and
  // result as linear(flatten(x)), but run by oneDNN rather than LibTorch's generic matrix
  // product (Debian's has no BLAS), 25x faster for Knightmate's 4672 policy logits.
  std::string dense_over_board(const std::string& name, const std::string& x, int channels,
                               int height, int width, int out) {
    const int in = channels * height * width;
    parameter(name + "_w", torch::randn({out, in}, generator_) / std::sqrt(in));
    parameter(name + "_b", torch::zeros({out}));
    return "torch.flatten(torch.conv2d(" + x + ", self." + name + "_w.view([" +
           std::to_string(out) + ", " + std::to_string(channels) + ", " + std::to_string(height) +
           ", " + std::to_string(width) + "]), self." + name + "_b), 1)";
  }

 private:
  void parameter(const std::string& name, const torch::Tensor& value) {
    module_.register_parameter(name, value, /*is_buffer=*/false);
  }

  torch::jit::Module& module_;
  at::Generator generator_;
};

}  // namespace

torch::jit::Module make_resnet(const GameInfo& info, const std::string& game_spec,
                               const NetConfig& net, uint64_t seed,
                               const std::vector<std::string>& rule_sets) {
  torch::NoGradGuard no_grad;
  torch::jit::Module module("knightgym.ResNet");
  module.register_attribute("training", c10::BoolType::get(), true);
  module.register_attribute("game_spec", c10::StringType::get(), game_spec);
  c10::List<std::string> rules;
  for (const std::string& spec :
       rule_sets.empty() ? std::vector<std::string>{game_spec} : rule_sets)
    rules.push_back(spec);
  module.register_attribute("rule_sets", c10::ListType::ofStrings(), rules);
  module.register_attribute("num_actions", c10::IntType::get(), int64_t{info.num_actions});
  module.register_attribute("num_players", c10::IntType::get(), int64_t{info.num_players});

  const Shape& shape = info.observation_shape;
  const int board = shape.height * shape.width;
  const int c = net.channels;
  Builder b(module, seed);
  std::string code = "def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:\n";
  const auto line = [&code](const std::string& text) { code += "    " + text + "\n"; };
  line("x = torch.relu(" + b.batch_norm("stem_bn", b.conv("stem", "x", shape.channels, c, 3), c) +
       ")");
  for (int i = 0; i < net.blocks; ++i) {
    const std::string block = "block" + std::to_string(i);
    line("y = torch.relu(" +
         b.batch_norm(block + "_bn1", b.conv(block + "_conv1", "x", c, c, 3), c) + ")");
    line("y = " + b.batch_norm(block + "_bn2", b.conv(block + "_conv2", "y", c, c, 3), c));
    line("x = torch.relu(x + y)");
  }
  if (net.policy_head == PolicyHead::kConv) {
    if (info.num_actions % board != 0)
      throw std::invalid_argument(
          "policy_head=conv needs the same number of actions on every square: " + game_spec +
          " has " + std::to_string(info.num_actions) + " actions on " +
          std::to_string(shape.height) + " x " + std::to_string(shape.width) + " squares");
    const int per_square = info.num_actions / board;
    line("p = torch.relu(" + b.batch_norm("policy_bn", b.conv("policy_conv", "x", c, c, 3), c) +
         ")");
    // [N, k, H, W] -> [N, H, W, k] -> action square * k + j.
    line("p = torch.flatten(" + b.conv_with_bias("policy_squares", "p", c, per_square) +
         ".permute([0, 2, 3, 1]), 1)");
  } else {
    line("p = torch.relu(" +
         b.batch_norm("policy_bn", b.conv("policy_conv", "x", c, net.policy_channels, 1),
                      net.policy_channels) +
         ")");
    line("p = " + b.dense_over_board("policy_fc", "p", net.policy_channels, shape.height,
                                     shape.width, info.num_actions));
  }
  line("v = torch.relu(" + b.batch_norm("value_bn", b.conv("value_conv", "x", c, 1, 1), 1) + ")");
  line("v = torch.relu(" + b.linear("value_fc1", "torch.flatten(v, 1)", board, kValueHeadHidden) +
       ")");
  // A small last layer starts every value near 0.
  line("v = torch.tanh(" + b.linear("value_fc2", "v", kValueHeadHidden, info.num_players, 0.1) +
       ")");
  line("return p, v");
  module.define(code);
  return module;
}

std::vector<std::string> recorded_rule_sets(const torch::jit::Module& module) {
  std::vector<std::string> out;
  if (module.hasattr("rule_sets") && module.attr("rule_sets").isList()) {
    for (const c10::IValue& spec : module.attr("rule_sets").toListRef())
      if (spec.isString()) out.push_back(spec.toStringRef());
  } else if (module.hasattr("game_spec") && module.attr("game_spec").isString()) {
    out.push_back(module.attr("game_spec").toStringRef());
  }
  return out;
}

}  // namespace knightgym
