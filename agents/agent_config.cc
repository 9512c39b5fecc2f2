#include "agents/agent_config.h"

#include <algorithm>
#include <stdexcept>

namespace knightgym {
namespace {

Spec parse_agent_spec(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos || text.find('(') < colon) return parse_spec(text);
  std::string as_call(text.substr(0, colon));
  as_call += '(';
  as_call += text.substr(colon + 1);
  as_call += ')';
  return parse_spec(as_call);
}

void read_mcts(ParamReader& r, MctsConfig& c) {
  c.sims = r.get_int("sims", c.sims, 1, 100000000, "simulations per decision");
  c.c = r.get_float("c", c.c, 0, 100, "UCB1 exploration constant");
  c.rollouts = r.get_int("rollouts", c.rollouts, 1, 10000, "random games per new leaf");
  c.solve = r.get_bool("solve", c.solve, "prove wins and losses (MCTS-Solver)");
}

void read_az(ParamReader& r, AgentConfig& config) {
  AzConfig& c = config.az;
  config.model = r.get_string("model", config.model,
                              "uniform (no network), resnet (fresh, from net_seed) or a "
                              "TorchScript file");
  c.sims = r.get_int("sims", c.sims, 1, 100000000, "simulations per decision");
  c.gumbel = r.get_choice("search", c.gumbel ? "gumbel" : "puct", {"gumbel", "puct"},
                          "Gumbel (Sequential Halving) or PUCT") == "gumbel";
  c.c_puct = static_cast<float>(r.get_float("c_puct", c.c_puct, 0, 100, "PUCT exploration"));
  c.dirichlet_alpha = static_cast<float>(
      r.get_float("dirichlet_alpha", c.dirichlet_alpha, 1e-6, 100, "PUCT root noise: alpha"));
  c.dirichlet_fraction = static_cast<float>(r.get_float(
      "noise", c.dirichlet_fraction, 0, 1, "PUCT root noise: share of the Dirichlet draw"));
  c.considered =
      r.get_int("considered", c.considered, 1, 4096, "Gumbel: root actions considered at most");
  c.gumbel_scale = static_cast<float>(
      r.get_float("gumbel_scale", c.gumbel_scale, 0, 100, "Gumbel: scale of the root noise"));
  c.transform.c_visit = static_cast<float>(
      r.get_float("c_visit", c.transform.c_visit, 0, 1e6, "Gumbel: sigma's visit offset"));
  c.transform.c_scale = static_cast<float>(
      r.get_float("c_scale", c.transform.c_scale, 0, 1e6, "Gumbel: sigma's scale"));
  c.leaves = r.get_int("leaves", c.leaves, 1, 4096,
                       "leaves one search adds to a batch (virtual loss beyond 1)");
  c.rollouts = r.get_int("rollouts", c.rollouts, 0, 10000,
                         "random games per leaf, mixed into its value (AlphaGo)");
  c.mix = static_cast<float>(
      r.get_float("mix", c.mix, 0, 1, "weight of the roll-outs in a leaf's value"));
  config.net.blocks = r.get_int("blocks", config.net.blocks, 0, 100, "model=resnet: blocks");
  config.net.channels =
      r.get_int("channels", config.net.channels, 1, 4096, "model=resnet: channels");
  config.net_seed = static_cast<uint64_t>(
      r.get_int("net_seed", 0, 0, 2147483647, "model=resnet: seed of the weights"));
  config.device = r.get_string("device", config.device, "cpu, cuda or cuda:N");
  config.threads =
      r.get_int("threads", config.threads, 0, 1024, "LibTorch intra-op threads (0: its default)");
}

}  // namespace

AgentConfig read_agent_config(std::string_view text) {
  const Spec spec = parse_agent_spec(text);
  const auto& kinds = agent_kinds();
  if (std::find(kinds.begin(), kinds.end(), spec.name) == kinds.end())
    throw std::invalid_argument("unknown agent '" + spec.name +
                                "' (known: random, greedy, mcts, az)");
  AgentConfig config;
  config.kind = spec.name;
  ParamReader reader(spec);
  if (config.kind == "mcts") read_mcts(reader, config.mcts);
  if (config.kind == "az") read_az(reader, config);
  reader.finish();
  // The reader writes "kind(k=v,...)"; agent specs read "kind:k=v,...".
  const std::string canonical = reader.canonical_spec();
  const size_t open = canonical.find('(');
  config.spec = reader.infos().empty()
                    ? spec.name
                    : spec.name + ":" + canonical.substr(open + 1, canonical.size() - open - 2);
  return config;
}

std::vector<ParamInfo> agent_params(const std::string& kind) {
  ParamReader reader(Spec{kind, {}});
  AgentConfig config;
  if (kind == "mcts") read_mcts(reader, config.mcts);
  if (kind == "az") read_az(reader, config);
  return reader.infos();
}

std::vector<std::string> split_agent_specs(std::string_view list) {
  std::vector<std::string> specs;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t end = pos;
    for (int depth = 0; end < list.size() && (depth > 0 || list[end] != ','); ++end)
      depth += list[end] == '(' || list[end] == '['   ? 1
               : list[end] == ')' || list[end] == ']' ? -1
                                                      : 0;
    const std::string item(list.substr(pos, end - pos));
    const bool continues = item.find('=') != std::string::npos &&
                           item.find(':') == std::string::npos &&
                           item.find('(') == std::string::npos;
    if (continues && !specs.empty() && specs.back().find(':') != std::string::npos) {
      specs.back() += "," + item;
    } else {
      if (item.empty()) throw std::invalid_argument("empty agent in '" + std::string(list) + "'");
      specs.push_back(item);
    }
    pos = end + 1;
  }
  return specs;
}

}  // namespace knightgym
