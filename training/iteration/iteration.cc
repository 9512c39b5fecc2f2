#include "training/iteration/iteration.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "agents/agent_kinds.h"
#include "env/registry/rule_grid.h"
#include "training/iteration/iteration_state.h"
#include "util/atomic_file.h"
#include "util/json_writer.h"
#include "util/output_lock.h"

namespace knightgym {
namespace {

// The settings a recipe may hold that the loop sets for each generation.
constexpr std::string_view kLoopSettings[] = {"init", "teacher", "teacher_steps", "seed"};

std::string generation_dir(const std::string& out, int generation) {
  return out + "/gen-" + std::to_string(generation);
}

std::string child_model(const std::string& out, int generation) {
  return generation_dir(out, generation) + "/train/model.pt";
}

// The network a generation starts from: the run's first parent, or the last kept child
// before it (state.generations[0, g) decided).
struct Parent {
  std::string name;  // as the state and the table name it
  std::string file;  // as the agents and the trainer load it
};

Parent parent_of(const IterationState& state, size_t g, const IterationOptions& options,
                 const std::string& out) {
  for (size_t k = g; k-- > 0;)
    if (state.generations[k].decision == GateDecision::kKeep)
      return {"gen-" + std::to_string(k + 1), child_model(out, static_cast<int>(k + 1))};
  return {options.parent, options.parent};
}

std::string network_hash(const std::string& model, const AnyGame& game) {
  const std::vector<NetworkUsed> used = networks_used({"az:model=" + model}, {game.spec()});
  if (used.empty() || used[0].fnv1a == std::string(16, '0'))
    throw std::invalid_argument("the parent network '" + model + "' cannot be read");
  return used[0].fnv1a;
}

void print(std::FILE* log, const GenerationState& g, const GateOptions& gate) {
  const GateVerdict verdict = gate_verdict(gate, g.gate);
  std::fprintf(log,
               "generation %d: %.1f%% (+%lld =%lld -%lld) in %lld games against %s, LLR %.2f in "
               "[%.2f, %.2f]: %s%s\n",
               g.generation, 100 * g.gate.score(), static_cast<long long>(g.gate.wins),
               static_cast<long long>(g.gate.draws), static_cast<long long>(g.gate.losses),
               static_cast<long long>(g.gate.games()), g.parent.c_str(), verdict.sprt.llr,
               verdict.sprt.lower, verdict.sprt.upper, gate_decision_name(g.decision),
               g.truncated ? " (truncated at the gate's games)" : "");
}

class Loop {
 public:
  Loop(const std::shared_ptr<const AnyGame>& game, const IterationOptions& options, std::string out,
       const TrainSession& train, std::FILE* log, const std::atomic<bool>& stop)
      : game_(game),
        options_(options),
        out_(std::move(out)),
        train_(train),
        log_(log),
        stop_(stop),
        rules_(read_train_config(game->training_defaults(), options.settings).rules) {}

  IterationEnd run(IterationState& state) {
    state_ = &state;
    for (int k = 1; k <= options_.generations; ++k) {
      if (static_cast<int>(state.generations.size()) < k) start(k);
      GenerationState& g = state.generations[k - 1];
      if (g.phase == GenerationPhase::kTeach && !teach(g)) return IterationEnd::kStopped;
      if (g.phase == GenerationPhase::kTrain && !train(g)) return IterationEnd::kStopped;
      if (g.phase == GenerationPhase::kGate) {
        if (options_.gate.max_games == 0) {
          std::fprintf(log_, "generation %d trained; its gate is left to a run with gate games\n",
                       k);
          return IterationEnd::kGateLeft;
        }
        if (!gate(g)) return IterationEnd::kStopped;
      }
    }
    return IterationEnd::kFinished;
  }

 private:
  void save() {
    save_iteration_state(out_ + "/iterate.json", *state_);
    write_file_atomically(out_ + "/generations.csv", generations_csv(*state_, options_.gate));
  }

  void start(int k) {
    const Parent parent = parent_of(*state_, k - 1, options_, out_);
    GenerationState g;
    g.generation = k;
    g.parent = parent.name;
    g.parent_fnv1a = network_hash(parent.file, *game_);
    state_->generations.push_back(g);
    save();
  }

  // The parent's file, its bytes checked against the state's record of them.
  std::string parent_file(const GenerationState& g) const {
    const Parent parent = parent_of(*state_, g.generation - 1, options_, out_);
    if (network_hash(parent.file, *game_) != g.parent_fnv1a)
      throw std::invalid_argument("the parent network of generation " +
                                  std::to_string(g.generation) + ", '" + parent.file +
                                  "', has changed since the generation started");
    return parent.file;
  }

  // The rule sets the children play: the game's own, or each of the settings' grid.
  std::vector<std::string> rule_set_specs() const {
    if (rules_.empty()) return {game_->spec()};
    std::vector<std::string> specs;
    for (const RuleSet& rule_set : expand_grid(game_->spec(), rules_))
      specs.push_back(rule_set.spec);
    return specs;
  }

  // Over a grid, a network made for one of its rule sets plays them all (rules=any).
  std::string network_rules() const { return rules_.empty() ? "" : ",rules=any"; }

  // The parent's search plays the teacher's games: of the game's own rules, or, where the
  // children train over a grid of rule sets (the settings' `rules`), of each rule set in
  // gen-K/teach/rules-NNN, as `knightgym teach --rules` writes them.
  bool teach(GenerationState& g) {
    const std::string dir = generation_dir(out_, g.generation) + "/teach";
    TeacherOptions teach = options_.teach;
    teach.teacher = "az:model=" + parent_file(g) +
                    ",sims=" + std::to_string(options_.teacher_sims) +
                    ",threads=1,device=" + options_.teacher_device + network_rules();
    teach.seed = options_.seed + static_cast<uint64_t>(g.generation);
    std::vector<std::pair<std::string, std::string>> runs;  // spec, directory
    const std::vector<std::string> specs = rule_set_specs();
    for (size_t r = 0; r < specs.size(); ++r) {
      char name[32];
      std::snprintf(name, sizeof name, "/rules-%03zu", r);
      runs.emplace_back(specs[r], rules_.empty() ? dir : dir + name);
    }
    std::fprintf(log_, "generation %d: %s teaches, %lld games%s\n", g.generation,
                 teach.teacher.c_str(), static_cast<long long>(teach.games),
                 runs.size() > 1 ? " of each rule set" : "");
    for (const auto& [spec, run_dir] : runs) {
      const bool again = std::filesystem::exists(run_dir + "/teach.txt");
      g.teach_seconds +=
          generate_teacher_data(*load_game(spec), teach, run_dir, again, log_, stop_).seconds;
      if (stop_) {
        save();
        return false;
      }
    }
    g.phase = GenerationPhase::kTrain;
    save();
    return true;
  }

  bool train(GenerationState& g) {
    const std::string dir = generation_dir(out_, g.generation) + "/train";
    const std::string settings = generation_settings(options_, g.generation, parent_file(g),
                                                     generation_dir(out_, g.generation) + "/teach");
    const TrainConfig config = read_train_config(game_->training_defaults(), settings);
    // The teacher's minutes come off the generation's; a tenth of them is left to train
    // at least, where the teacher took them all.
    const double minutes = options_.minutes > 0 ? std::max(options_.minutes - g.teach_seconds / 60,
                                                           options_.minutes / 10)
                                                : 0;
    std::fprintf(log_, "generation %d: the child trains in %s\n", g.generation, dir.c_str());
    const std::optional<double> seconds =
        train_(config, dir, std::filesystem::exists(dir + "/config.json"), minutes, options_.steps);
    if (!seconds) return false;
    g.train_seconds = *seconds;
    g.phase = GenerationPhase::kGate;
    save();
    return true;
  }

  // Over a grid of rule sets, chunk c of the gate plays rule set c mod R, so that every
  // look of the test has played them as evenly as whole chunks allow.
  bool gate(GenerationState& g) {
    const GateOptions& gate = options_.gate;
    struct Pair {
      std::shared_ptr<const AnyGame> game;
      std::shared_ptr<const AgentFactory> child, parent;
    };
    std::vector<Pair> pairs;
    for (const std::string& spec : rule_set_specs()) {
      const std::shared_ptr<const AnyGame> game = rules_.empty() ? game_ : load_game(spec);
      const auto agent = [&](const std::string& model) {
        return std::make_shared<const AgentFactory>(
            gate_agent(model, gate, options_.device) + network_rules(), game);
      };
      pairs.push_back({game, agent(child_model(out_, g.generation)), agent(parent_file(g))});
    }
    const uint64_t seed = options_.seed + static_cast<uint64_t>(g.generation);
    while (gate_verdict(gate, g.gate).decision == GateDecision::kUndecided) {
      if (stop_) return false;
      const int64_t chunk = g.gate.games() / gate.chunk_games;
      const Pair& pair = pairs[static_cast<size_t>(chunk) % pairs.size()];
      add_gate_games(g.gate,
                     play_gate_chunk(*pair.game, pair.child, pair.parent, gate, chunk, seed));
      save();
      std::fprintf(log_, "generation %d: gate %lld games, %.1f%%\n", g.generation,
                   static_cast<long long>(g.gate.games()), 100 * g.gate.score());
    }
    const GateVerdict verdict = gate_verdict(gate, g.gate);
    g.decision = verdict.decision;
    g.truncated = verdict.truncated;
    g.phase = GenerationPhase::kDone;
    if (g.decision == GateDecision::kKeep) {
      const std::optional<std::string> bytes = read_file(child_model(out_, g.generation));
      if (!bytes) throw std::runtime_error(child_model(out_, g.generation) + ": cannot be read");
      write_file_atomically(out_ + "/best.pt", *bytes);
    }
    save();
    print(log_, g, gate);
    return true;
  }

  std::shared_ptr<const AnyGame> game_;
  const IterationOptions& options_;
  std::string out_;
  const TrainSession& train_;
  std::FILE* log_;
  const std::atomic<bool>& stop_;
  std::vector<Sweep> rules_;  // the children's grid of rule sets; none: the game's own rules
  IterationState* state_ = nullptr;
};

}  // namespace

void check_iteration_options(const IterationOptions& options) {
  if (options.parent.empty())
    throw std::invalid_argument("--parent MODEL is required (a TorchScript file or pretrained)");
  if (options.generations < 1)
    throw std::invalid_argument("generations: " + std::to_string(options.generations) +
                                ", not 1 or more");
  if ((options.minutes > 0) == (options.steps > 0))
    throw std::invalid_argument(
        "give a generation's budget: --minutes M or --steps S, one of them");
  if (options.teacher_sims < 1 || options.teacher_steps < 1)
    throw std::invalid_argument("teacher sims and teacher steps must be 1 or more");
  for (const std::string& device : {options.device, options.teacher_device})
    if (device != "cpu" && !device.starts_with("cuda"))
      throw std::invalid_argument("device '" + device + "': cpu or cuda[:N]");
  check_gate_options(options.gate);
}

std::string iteration_run_json(const AnyGame& game, const IterationOptions& options,
                               const std::string& parent_fnv1a) {
  const GateOptions& gate = options.gate;
  JsonWriter json;
  json.begin_object().key("game").value(game.spec()).key("parent").value(options.parent);
  json.key("parent_fnv1a").value(parent_fnv1a);
  json.key("settings").value(settings_lines(options.settings));
  json.key("teacher_sims").value(options.teacher_sims);
  json.key("teacher_steps").value(options.teacher_steps);
  json.key("teach_games").value(options.teach.games);
  json.key("opening_plies").value(options.teach.opening_plies);
  json.key("shard_games").value(options.teach.shard_games);
  json.key("teach_batch").value(options.teach.batch);
  json.key("gate_batch").value(gate.chunk_games).key("gate_sims").value(gate.sims);
  json.key("sprt").begin_object().key("a0").exact(gate.sprt.a0).key("a1").exact(gate.sprt.a1);
  json.key("alpha").exact(gate.sprt.alpha).key("beta").exact(gate.sprt.beta).end_object();
  json.key("seed").value(options.seed).end_object();
  return json.text();
}

std::string generation_settings(const IterationOptions& options, int generation,
                                const std::string& parent, const std::string& teacher_dir) {
  std::string lines;
  for (const auto& [key, value] : settings_given(options.settings))
    if (std::find(std::begin(kLoopSettings), std::end(kLoopSettings), key) ==
        std::end(kLoopSettings))
      lines += key + "=" + value + "\n";
  lines += "init=" + parent + "\nteacher=" + teacher_dir + "\n";
  lines += "teacher_steps=" + std::to_string(options.teacher_steps) + "\n";
  lines += "seed=" + std::to_string(options.seed + static_cast<uint64_t>(generation)) + "\n";
  return lines;
}

IterationEnd run_iteration(const std::shared_ptr<const AnyGame>& game,
                           const IterationOptions& options, const std::string& out, bool resume,
                           const TrainSession& train, std::FILE* log,
                           const std::atomic<bool>& stop) {
  check_iteration_options(options);
  // The settings are read once before any work: a bad recipe leaves nothing behind.
  read_train_config(game->training_defaults(),
                    generation_settings(options, 1, options.parent, out + "/gen-1/teach"));
  const std::string state_file = out + "/iterate.json";
  const bool held = std::filesystem::exists(state_file);
  if (resume && !held)
    throw std::invalid_argument("'" + out + "' holds no iteration run to resume (no iterate.json)");
  if (!resume && std::filesystem::exists(out) && !std::filesystem::is_empty(out))
    throw std::invalid_argument("'" + out +
                                "' is not empty: --resume continues the run there, or choose "
                                "another --out");
  const std::string run = iteration_run_json(*game, options, network_hash(options.parent, *game));
  const OutputLock lock = OutputLock::folder(out);  // before the state is read: one writer
  IterationState state;
  state.run = run;
  if (resume) state = load_iteration_state(state_file, run);
  Loop loop(game, options, out, train, log, stop);
  return loop.run(state);
}

}  // namespace knightgym
