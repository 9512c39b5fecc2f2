#include "training/trainer/train_config.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include "agents/agent_kinds.h"
#include "training/trainer/streams.h"
#include "util/json_reader.h"
#include "util/json_writer.h"
#include "util/run_threads.h"
#include "util/text.h"

namespace knightgym {
namespace {

// The game's starting point (env/core/training_defaults.h) in a full configuration.
TrainConfig defaults_of(const TrainingDefaults& game) {
  TrainConfig c;
  c.net = {game.blocks, game.channels, game.policy_channels,
           policy_head_named(std::string(game.policy_head))};
  c.games = game.games;
  c.search.sims = game.sims;
  c.search.considered = 16;
  if (!game.baselines.empty()) c.baselines = split_agent_specs(game.baselines);
  return c;
}

// A JSON object of settings: strings, numbers and booleans as they are, a list (of
// baselines) joined with commas.
Spec parse_json_settings(std::string_view settings) {
  Spec spec{"train", {}};
  try {
    const JsonValue json = parse_json(settings);
    for (const auto& [key, value] : json.as_object()) {
      std::string text;
      switch (value.kind()) {
        case JsonValue::Kind::kString:
          text = value.as_string();
          break;
        case JsonValue::Kind::kNumber:
          text = value.number_text();
          break;
        case JsonValue::Kind::kBool:
          text = value.as_bool() ? "true" : "false";
          break;
        case JsonValue::Kind::kArray:
          for (const JsonValue& item : value.as_array())
            text += (text.empty() ? "" : ",") + item.as_string();
          break;
        default:
          value.fail("expected a string, number, boolean or list of strings");
      }
      spec.params.emplace_back(key, std::move(text));
    }
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(std::string("training settings: ") + error.what());
  }
  return spec;
}

// "key=value" lines, blank lines and # comments.
Spec parse_settings_lines(std::string_view settings) {
  Spec spec{"train", {}};
  std::unordered_set<std::string> keys;  // to find a key given twice in linear time
  std::istringstream lines{std::string(settings)};
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    line = std::string(trim(line));
    if (line.empty()) continue;
    const size_t equals = line.find('=');
    if (equals == std::string::npos)
      throw std::invalid_argument("training settings, line " + std::to_string(number) + " ('" +
                                  excerpt(line) + "'): expected key=value");
    const std::string key(trim(std::string_view(line).substr(0, equals)));
    if (!keys.insert(key).second)
      throw std::invalid_argument("training settings: '" + excerpt(key) + "' twice");
    spec.params.emplace_back(key, trim(std::string_view(line).substr(equals + 1)));
  }
  return spec;
}

void read(ParamReader& r, TrainConfig& c) {
  c.net.blocks = r.get_int("blocks", c.net.blocks, 0, 100, "residual blocks of the network");
  c.net.channels = r.get_int("channels", c.net.channels, 1, 4096, "channels of the network");
  c.net.policy_channels = r.get_int("policy_channels", c.net.policy_channels, 1, 256,
                                    "planes of the network's policy head");
  c.net.policy_head = policy_head_named(r.get_choice(
      "policy_head", policy_head_name(c.net.policy_head), {"dense", "conv"},
      "the network's policy head: dense over the board, or conv (k logits per square, for "
      "games whose actions come k per square)"));
  c.init = r.get_string("init", c.init,
                        "first weights: empty (fresh), pretrained (the shipped network of the "
                        "game) or a TorchScript file of the same game and shape");
  const std::string rules = r.get_string(
      "rules", sweeps_text(c.rules),
      "rule sets to play, one drawn for each self-play game: swept parameters of the game, "
      "KEY=V1,V2 separated by ';' (\"neighbor_attack=false,true;switch_move=false,true\": "
      "every combination), for one network that plays them all; empty: the game's own rules");
  try {
    c.rules = parse_sweeps(rules);
  } catch (const std::invalid_argument& error) {
    r.fail("rules", error.what());
  }
  c.teacher =
      r.get_string("teacher", c.teacher,
                   "a teacher run directory (knightgym teach), or a folder of them (one per rule "
                   "set), to learn from before self-play, for teacher_steps optimizer "
                   "steps (empty: none)");
  c.teacher_steps = r.get_int("teacher_steps", c.teacher_steps, 0, 1000000000,
                              "optimizer steps on the teacher's data, then self-play");
  c.teacher_holdout = r.get_float("teacher_holdout", c.teacher_holdout, 0, 0.5,
                                  "share of the teacher's games held out to measure the "
                                  "policy's loss and agreement with the teacher");
  if (c.teacher.empty() != (c.teacher_steps == 0))
    r.fail("teacher_steps",
           "teacher and teacher_steps go together: a teacher run directory "
           "and the optimizer steps to learn from it");
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
  c.playout_cap.fast_sims = r.get_int(
      "fast_sims", c.playout_cap.fast_sims, 0, 100000,
      "playout cap randomization: simulations of the fast searches, which are not recorded "
      "(0: off, every search full)");
  c.playout_cap.full_fraction =
      r.get_float("full_fraction", c.playout_cap.full_fraction, 1e-3, 1,
                  "playout cap randomization: share of the decisions searched in full");
  if (c.playout_cap.fast_sims >= c.search.sims)
    r.fail("fast_sims",
           "fast searches need fewer simulations than sims=" + std::to_string(c.search.sims));
  c.horizon = r.get_int("horizon", c.horizon, 0, 1000000,
                        "self-play games stop after so many decisions and are scored as the "
                        "game scores a truncation there (0: the game's own max_turns)");
  c.q_weight = r.get_float("q_weight", c.q_weight, 0, 1,
                           "share of the search's root value in the value targets (0: the game's "
                           "returns alone)");
  c.games = r.get_int("games", c.games, 1, 100000, "concurrent self-play games");
  c.selfplay_batch =
      r.get_int("selfplay_batch", c.selfplay_batch, 0, 100000,
                "self-play games searched together, one evaluator call per round of "
                "simulations: `games` split into groups of so many (0: one group of them all)");
  c.selfplay_threads = r.get_int(
      "selfplay_threads", c.selfplay_threads, 1, kMaxRunThreads,
      "threads playing the self-play groups, group g on thread g mod T, each with a copy of "
      "the network: the games do not depend on it");
  c.selfplay_precision = precision_named(r.get_choice(
      "selfplay_precision", precision_name(c.selfplay_precision),
      {"float32", "bfloat16", "float16"},
      "number format of self-play's copies of the network (bfloat16: faster on CPUs with "
      "AVX-512 BF16 and on GPUs; float16: GPUs only); the learner trains in float32"));
  if (const int group = c.selfplay_batch > 0 ? std::min(c.selfplay_batch, c.games) : c.games,
      groups = (c.games + group - 1) / group;
      c.selfplay_threads > groups)
    r.fail("selfplay_threads", std::to_string(c.games) + " games in groups of " +
                                   std::to_string(group) + " make " + std::to_string(groups) +
                                   " groups, fewer than " + std::to_string(c.selfplay_threads) +
                                   " threads: lower selfplay_batch");
  c.chunk_games = r.get_int("chunk_games", c.games, 1, 1000000,
                            "on a Ray cluster: games of a self-play chunk, an actor's unit of "
                            "work (played `games` at a time, then sent to the learner whole)");
  c.chunks_ahead = r.get_int("chunks_ahead", c.chunks_ahead, 1, 1000000,
                             "on a Ray cluster: chunks asked of the actors ahead of the one the "
                             "learner takes next; at least twice the actors keeps every actor "
                             "busy, and it bounds how stale their weights get");
  c.publish_steps = r.get_int("publish_steps", c.publish_steps, 1, 100000000,
                              "on a Ray cluster: optimizer steps between the weights sent to the "
                              "actors");
  c.batch = r.get_int("batch", c.batch, 1, 1 << 20, "training batch size");
  c.learner.learning_rate =
      r.get_float("lr", c.learner.learning_rate, 1e-9, 10, "AdamW learning rate");
  c.learner.weight_decay =
      r.get_float("weight_decay", c.learner.weight_decay, 0, 1, "AdamW weight decay");
  c.learner.value_weight =
      r.get_float("value_weight", c.learner.value_weight, 0, 100, "weight of the value loss");
  c.window = r.get_int("window", c.window, 1, 100000000, "replay buffer: recent decisions kept");
  c.kept_replay = r.get_int("kept_replay", c.kept_replay, 0, 100000000,
                            "newest decisions of the replay window written with each "
                            "checkpoint, to refill it when the run resumes (0: none)");
  c.min_replay = r.get_int("min_replay", c.min_replay, 1, 100000000,
                           "decisions in the buffer before training starts");
  c.ratio = r.get_float("ratio", c.ratio, 1e-3, 1000, "training samples per self-play decision");
  c.overlap = r.get_bool("overlap", c.overlap,
                         "self-play on a thread of its own beside the learner, a round behind "
                         "it (false: between the learner's steps, on one thread)");
  c.augment = r.get_bool("augment", c.augment, "augment batches with the board's symmetries");
  c.match_seconds = r.get_int("match_seconds", c.match_seconds, 0, 100000000,
                              "seconds between match rounds (0: only at the end)");
  c.match_games = r.get_int("match_games", c.match_games, 0, 100000,
                            "games against each opponent per match round");
  c.match_sims = r.get_int("match_sims", c.match_sims, 1, 100000,
                           "simulations of the trained agent in match rounds");
  std::string baselines =
      r.get_string("baselines", join(c.baselines, ","),
                   "fixed opponents in match rounds, agent specs: mcts:sims=200,random");
  if (baselines.size() >= 2 && baselines.front() == '[' && baselines.back() == ']')
    baselines = baselines.substr(1, baselines.size() - 2);
  c.baselines = baselines.empty() ? std::vector<std::string>{} : split_agent_specs(baselines);
  if (static_cast<int>(c.baselines.size()) > kMaxBaselines)
    r.fail("baselines", "at most " + std::to_string(kMaxBaselines) + " fixed opponents");
  for (const std::string& spec : c.baselines) {
    const AgentConfig agent = read_agent_config(spec);
    const auto* az = std::get_if<AzKind::Config>(&agent.settings);
    if (az && az->model == "resnet") r.fail("baselines", "'" + spec + "' is an untrained network");
  }
  c.gate = r.get_float("gate", c.gate, 0, 1, "score against the best network that replaces it");
  c.checkpoint_seconds = r.get_int("checkpoint_seconds", c.checkpoint_seconds, 1, 100000000,
                                   "seconds between checkpoints");
  c.keep = r.get_int("keep", c.keep, 1, 1000, "checkpoints kept");
  c.snapshot_seconds = r.get_int("snapshot_seconds", c.snapshot_seconds, 0, 100000000,
                                 "seconds of training between snapshots/ of the network (0: none)");
  c.log_seconds =
      r.get_int("log_seconds", c.log_seconds, 1, 100000, "seconds between metrics rows");
  c.seed = static_cast<uint64_t>(r.get_int("seed", 0, 0, 2147483647, "seed of everything"));
  c.threads = r.get_int("threads", c.threads, 0, 1024, "LibTorch intra-op threads (0: default)");
}

}  // namespace

std::vector<std::pair<std::string, std::string>> settings_given(std::string_view settings) {
  // A file saved with a byte-order mark (some editors write one) reads as without it.
  if (settings.starts_with("\xEF\xBB\xBF")) settings.remove_prefix(3);
  return (looks_like_json(settings) ? parse_json_settings(settings)
                                    : parse_settings_lines(settings))
      .params;
}

std::string settings_lines(std::string_view settings) {
  std::string lines;
  for (const auto& [key, value] : settings_given(settings)) lines += key + "=" + value + "\n";
  return lines;
}

TrainConfig read_train_config(const TrainingDefaults& defaults, std::string_view settings) {
  TrainConfig config = defaults_of(defaults);
  ParamReader reader(Spec{"train", settings_given(settings)});
  read(reader, config);
  reader.finish();
  config.params = reader.infos();
  config.spec = settings_json(config.params);
  return config;
}

std::string settings_json(const std::vector<ParamInfo>& settings) {
  JsonWriter json;
  json.begin_object();
  for (const ParamInfo& setting : settings) {
    json.key(setting.name);
    if (setting.type == "bool")
      json.value(setting.value == "true");
    else if (setting.type == "int" || setting.type == "float")
      json.raw(setting.value);  // canonical numbers, as the reader wrote them
    else
      json.value(setting.value);
  }
  return json.end_object().text();
}

}  // namespace knightgym
