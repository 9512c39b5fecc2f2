#include "training/trainer/train_config.h"

#include <sstream>
#include <stdexcept>

#include "agents/agent_config.h"

namespace knightgym {
namespace {

// Per game: a network and search sized to train in minutes on two CPU cores.
TrainConfig game_defaults(std::string_view game) {
  TrainConfig c;
  c.search.sims = 32;
  c.search.considered = 16;
  if (game == "knightmate") {
    c.net = {6, 64};
    c.games = 32;
    c.search.sims = 64;
    c.baselines = {"mcts:sims=400"};
  } else if (game == "knight_fight") {
    // A 10 x 10 board with at most 8 moves a turn: a smaller network and search give 2.4x
    // the games per minute, which buys more than depth in 20 minutes (docs/training.md).
    c.net = {2, 32};
    c.games = 128;
    c.search.sims = 16;
  } else if (game == "knights_challenge") {
    c.net = {4, 48};
    c.games = 32;
  }
  return c;
}

Spec parse_settings(std::string_view settings) {
  Spec spec{"train", {}};
  std::istringstream lines{std::string(settings)};
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    const auto trim = [](std::string text) {
      const size_t first = text.find_first_not_of(" \t\r");
      if (first == std::string::npos) return std::string();
      return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
    };
    line = trim(line);
    if (line.empty()) continue;
    const size_t equals = line.find('=');
    if (equals == std::string::npos)
      throw std::invalid_argument("training settings, line " + std::to_string(number) + " ('" +
                                  line + "'): expected key=value");
    const std::string key = trim(line.substr(0, equals));
    for (const auto& [known, value] : spec.params)
      if (known == key) throw std::invalid_argument("training settings: '" + key + "' twice");
    spec.params.emplace_back(key, trim(line.substr(equals + 1)));
  }
  return spec;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

void read(ParamReader& r, TrainConfig& c) {
  c.net.blocks = r.get_int("blocks", c.net.blocks, 0, 100, "residual blocks of the network");
  c.net.channels = r.get_int("channels", c.net.channels, 1, 4096, "channels of the network");
  c.search.sims = r.get_int("sims", c.search.sims, 1, 100000, "self-play simulations per move");
  c.search.gumbel = r.get_choice("search", c.search.gumbel ? "gumbel" : "puct", {"gumbel", "puct"},
                                 "self-play search") == "gumbel";
  c.search.considered = r.get_int("considered", c.search.considered, 1, 4096,
                                  "Gumbel: root actions considered at most");
  c.search.dirichlet_fraction = static_cast<float>(
      r.get_float("noise", 0.25, 0, 1, "PUCT: share of Dirichlet noise at the root"));
  c.search.dirichlet_alpha = static_cast<float>(
      r.get_float("dirichlet_alpha", c.search.dirichlet_alpha, 1e-6, 100, "PUCT: noise alpha"));
  c.search.rollouts = r.get_int("rollouts", c.search.rollouts, 0, 10000,
                                "random games per leaf mixed into its value (AlphaGo)");
  c.search.mix = static_cast<float>(
      r.get_float("mix", c.search.mix, 0, 1, "weight of the roll-outs in a leaf's value"));
  c.sample_plies = r.get_int("sample_plies", c.sample_plies, 0, 100000,
                             "PUCT: first moves of a game sampled from the visits");
  c.games = r.get_int("games", c.games, 1, 100000, "concurrent self-play games");
  c.batch = r.get_int("batch", c.batch, 1, 1 << 20, "training batch size");
  c.learner.learning_rate =
      r.get_float("lr", c.learner.learning_rate, 1e-9, 10, "AdamW learning rate");
  c.learner.weight_decay =
      r.get_float("weight_decay", c.learner.weight_decay, 0, 1, "AdamW weight decay");
  c.learner.value_weight =
      r.get_float("value_weight", c.learner.value_weight, 0, 100, "weight of the value loss");
  c.window = r.get_int("window", c.window, 1, 100000000, "replay buffer: recent decisions kept");
  c.min_replay = r.get_int("min_replay", c.min_replay, 1, 100000000,
                           "decisions in the buffer before training starts");
  c.ratio = r.get_float("ratio", c.ratio, 1e-3, 1000, "training samples per self-play decision");
  c.augment = r.get_bool("augment", c.augment, "augment batches with the board's symmetries");
  c.eval_seconds = r.get_int("eval_seconds", c.eval_seconds, 0, 100000000,
                             "seconds between evaluations (0: only at the end)");
  c.eval_games = r.get_int("eval_games", c.eval_games, 0, 100000,
                           "games against each opponent per evaluation");
  c.eval_sims = r.get_int("eval_sims", c.eval_sims, 1, 100000,
                          "simulations of the trained agent in evaluations");
  std::string baselines =
      r.get_string("baselines", join(c.baselines),
                   "fixed opponents in evaluations, agent specs: mcts:sims=200,random");
  if (baselines.size() >= 2 && baselines.front() == '[' && baselines.back() == ']')
    baselines = baselines.substr(1, baselines.size() - 2);
  c.baselines = baselines.empty() ? std::vector<std::string>{} : split_agent_specs(baselines);
  for (const std::string& spec : c.baselines) {
    const AgentConfig agent = read_agent_config(spec);
    if (agent.kind == "az" && agent.model == "resnet")
      r.fail("baselines", "'" + spec + "' is an untrained network");
  }
  c.gate = r.get_float("gate", c.gate, 0, 1, "score against the best network that replaces it");
  c.checkpoint_seconds = r.get_int("checkpoint_seconds", c.checkpoint_seconds, 1, 100000000,
                                   "seconds between checkpoints");
  c.keep = r.get_int("keep", c.keep, 1, 1000, "checkpoints kept");
  c.log_seconds =
      r.get_int("log_seconds", c.log_seconds, 1, 100000, "seconds between metrics rows");
  c.seed = static_cast<uint64_t>(r.get_int("seed", 0, 0, 2147483647, "seed of everything"));
  c.threads = r.get_int("threads", c.threads, 0, 1024, "LibTorch intra-op threads (0: default)");
}

}  // namespace

TrainConfig read_train_config(std::string_view game, std::string_view settings) {
  TrainConfig config = game_defaults(game);
  ParamReader reader(parse_settings(settings));
  read(reader, config);
  reader.finish();
  for (const ParamInfo& info : reader.infos()) config.spec += info.name + "=" + info.value + "\n";
  config.params = reader.infos();
  return config;
}

}  // namespace knightgym
