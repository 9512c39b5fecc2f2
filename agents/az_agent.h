// The AlphaZero agent: PUCT or Gumbel search (az_search.h) over a shared evaluator. Each
// decision draws its search's seed from the agent's stream, so act_batch over n states
// plays exactly the actions of n calls to act().
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/network.h"
#include "agents/pretrained.h"
#include "agents/search_batch.h"
#include "env/core/params.h"

namespace knightgym {

template <Game G>
class AzAgent final : public Agent<G> {
 public:
  using State = typename G::State;

  AzAgent(const G& game, const AzConfig& config, std::shared_ptr<Evaluator> evaluator,
          uint64_t seed)
      : evaluator_(std::move(evaluator)), batch_(game, config, *evaluator_), rng_(seed) {}

  Action act(const State& state, const SearchLimits& limits = {}) override {
    const uint64_t seed = rng_.next();
    batch_.run(std::span<const State>(&state, 1), &seed, limits);
    report_ = batch_.search(0).report();
    return batch_.search(0).best_action();
  }

  void act_batch(std::span<const State> states, Action* out, const SearchLimits& limits = {},
                 SearchReport* reports = nullptr) override {
    seeds_.resize(states.size());
    for (uint64_t& seed : seeds_) seed = rng_.next();
    batch_.run(states, seeds_.data(), limits);
    for (size_t i = 0; i < states.size(); ++i) {
      out[i] = batch_.search(static_cast<int>(i)).best_action();
      if (reports) reports[i] = batch_.search(static_cast<int>(i)).report();
    }
    if (!states.empty()) report_ = batch_.search(static_cast<int>(states.size()) - 1).report();
  }

  SearchReport last_report() const override { return report_; }

 private:
  std::shared_ptr<Evaluator> evaluator_;
  SearchBatch<G> batch_;
  Rng rng_;
  std::vector<uint64_t> seeds_;
  SearchReport report_;
};

struct AzKind {
  static constexpr std::string_view kName = "az";
  static constexpr std::string_view kSummary =
      "AlphaZero search (Gumbel or PUCT) over a network, or over uniform priors";
  struct Config {
    AzConfig search;
    std::string model = "uniform";  // uniform, resnet (fresh, from net_seed), pretrained or a file
    NetConfig net;
    uint64_t net_seed = 0;
    std::string device = "cpu";
    int threads = 0;  // LibTorch intra-op threads per playing thread; 0: its default
    NetworkRules rules = NetworkRules::kExact;
  };

  static void read(ParamReader& r, Config& config) {
    AzConfig& c = config.search;
    config.model = r.get_string("model", config.model,
                                "uniform (no network), resnet (fresh, from net_seed), "
                                "pretrained (the network shipped for the game, models/) or a "
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
    config.net.policy_channels = r.get_int("policy_channels", config.net.policy_channels, 1, 256,
                                           "model=resnet: policy head planes");
    config.net.policy_head = policy_head_named(r.get_choice(
        "policy_head", policy_head_name(config.net.policy_head), {"dense", "conv"},
        "model=resnet: policy head, dense over the board or conv (k logits per square)"));
    config.net_seed = static_cast<uint64_t>(
        r.get_int("net_seed", 0, 0, 2147483647, "model=resnet: seed of the weights"));
    config.device = r.get_string("device", config.device, "cpu, cuda or cuda:N");
    config.threads =
        r.get_int("threads", config.threads, 0, 1024,
                  "LibTorch intra-op threads per playing thread (0: its default, or 1 where "
                  "several threads play)");
    config.rules = r.get_choice("rules", "exact", {"exact", "any"},
                                "exact: a network plays only the rules it was made for; any: "
                                "also its game's other rules (pretrained: the closest)") == "any"
                       ? NetworkRules::kAny
                       : NetworkRules::kExact;
  }

  // The evaluator the agents of one spec share: uniform priors, or a network.
  static std::shared_ptr<SharedResource> share(const Config& config, const GameInfo& info,
                                               const std::string& game_spec) {
    if (info.num_players > kMaxPlayers)
      throw std::invalid_argument("search supports at most 4 players");
    if (config.model == "uniform") return std::make_shared<UniformEvaluator>(info);
    if (config.model == "resnet")
      return create_network(info, game_spec, config.net, config.net_seed, config.device,
                            config.threads);
    const std::string path = config.model == "pretrained"
                                 ? pretrained_model_path(game_spec, config.rules)
                                 : config.model;
    const std::string made_for =
        config.rules == NetworkRules::kAny ? game_name(game_spec) : game_spec;
    return load_network(path, info, made_for, config.device, config.threads);
  }

  template <Game G>
  static std::unique_ptr<Agent<G>> make(const G& game, const Config& config,
                                        const std::shared_ptr<SharedResource>& shared,
                                        uint64_t seed) {
    // share() above made it, so it is an Evaluator.
    return std::make_unique<AzAgent<G>>(game, config.search,
                                        std::static_pointer_cast<Evaluator>(shared), seed);
  }
};

}  // namespace knightgym
