#include "agents/pretrained.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "env/core/params.h"
#include "env/registry/rule_grid.h"
#include "util/json_reader.h"
#include "util/text.h"

namespace knightgym {
namespace {

std::mutex mutex;
std::string chosen_directory;

bool has_field(const PretrainedModel& model, const std::string& key) {
  for (const auto& [known, value] : model.fields)
    if (known == key) return true;
  return false;
}

}  // namespace

std::string models_directory() {
  if (const char* path = std::getenv("KNIGHTGYM_MODELS"); path && *path) return path;
  std::lock_guard lock(mutex);
  return chosen_directory.empty() ? KNIGHTGYM_MODELS_DIR : chosen_directory;
}

void set_models_directory(std::string directory) {
  std::lock_guard lock(mutex);
  chosen_directory = std::move(directory);
}

std::string manifest_path(const std::string& directory) {
  const std::string json = directory + "/manifest.json", text = directory + "/manifest.txt";
  return !std::filesystem::exists(json) && std::filesystem::exists(text) ? text : json;
}

namespace {

// The canonical specs a network plays: its game, and the grid of its rules over it.
std::vector<std::string> covered(const PretrainedModel& model) {
  if (model.rules.empty()) return {model.game};
  std::vector<std::string> specs;
  for (const RuleSet& rules : expand_grid(model.game, parse_sweeps(model.rules)))
    specs.push_back(rules.spec);
  if (std::find(specs.begin(), specs.end(), model.game) == specs.end()) specs.push_back(model.game);
  return specs;
}

// Two networks for one rule set, a network without its file or game, or rules that are no
// sweeps of its game, named.
void check_entries(const std::string& path, const std::vector<PretrainedModel>& models) {
  std::vector<std::vector<std::string>> specs;
  for (size_t i = 0; i < models.size(); ++i) {
    for (const char* key : {"file", "game"})
      if (!has_field(models[i], key))
        throw std::invalid_argument(path + ": [" + models[i].name + "] has no '" + key + "'");
    try {
      specs.push_back(covered(models[i]));
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument(path + ": [" + models[i].name + "] rules: " + error.what());
    }
    for (size_t j = 0; j < i; ++j)
      for (const std::string& spec : specs[i])
        if (std::find(specs[j].begin(), specs[j].end(), spec) != specs[j].end())
          throw std::invalid_argument(path + ": [" + models[j].name + "] and [" + models[i].name +
                                      "] are both for " + spec);
  }
}

void add_field(PretrainedModel& model, std::string key, std::string value) {
  if (key == "file") model.file = value;
  if (key == "game") model.game = value;
  if (key == "rules") model.rules = value;
  model.fields.emplace_back(std::move(key), std::move(value));
}

std::vector<PretrainedModel> read_json_manifest(const std::string& path, std::istream& in,
                                                const std::string& directory) {
  std::stringstream text;
  text << in.rdbuf();
  std::vector<PretrainedModel> models;
  try {
    const JsonValue json = parse_json(text.view());
    for (const auto& [name, entry] : json.at("networks").as_object()) {
      PretrainedModel& model =
          models.emplace_back(PretrainedModel{name, "", "", "", directory, {}});
      for (const auto& [key, value] : entry.as_object()) {
        if (value.kind() != JsonValue::Kind::kString && value.kind() != JsonValue::Kind::kNumber)
          value.fail("expected a string or a number");
        // A number keeps the text it was written as.
        add_field(
            model, key,
            value.kind() == JsonValue::Kind::kString ? value.as_string() : value.number_text());
      }
    }
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(path + ": " + error.what());
  }
  return models;
}

// The format before JSON: [name] sections of key = value lines, # comments.
std::vector<PretrainedModel> read_text_manifest(const std::string& path, std::istream& in,
                                                const std::string& directory) {
  std::vector<PretrainedModel> models;
  int number = 0;
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(path + ", line " + std::to_string(number) + ": " + why);
  };
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    if (text.front() == '[') {
      if (text.back() != ']' || text.size() < 3) throw fail("expected [name]");
      const std::string name(trim(text.substr(1, text.size() - 2)));
      for (const PretrainedModel& model : models)
        if (model.name == name) throw fail("[" + name + "] twice");
      models.push_back({name, "", "", "", directory, {}});
      continue;
    }
    const size_t equals = text.find('=');
    if (equals == std::string_view::npos) throw fail("expected [name] or key = value");
    if (models.empty()) throw fail("key = value before the first [name]");
    PretrainedModel& model = models.back();
    std::string key(trim(text.substr(0, equals)));
    std::string value(trim(text.substr(equals + 1)));
    if (key.empty() || value.empty()) throw fail("expected key = value");
    if (has_field(model, key)) throw fail("'" + key + "' twice in [" + model.name + "]");
    add_field(model, std::move(key), std::move(value));
  }
  return models;
}

}  // namespace

std::vector<PretrainedModel> read_manifest(const std::string& directory) {
  const std::string path = manifest_path(directory);
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("no manifest of shipped networks at '" + path + "'");
  std::vector<PretrainedModel> models = path.ends_with(".json")
                                            ? read_json_manifest(path, in, directory)
                                            : read_text_manifest(path, in, directory);
  check_entries(path, models);
  return models;
}

std::string game_name(const std::string& game_spec) { return parse_spec(game_spec).name; }

namespace {

// The parameters in which two canonical specs of one game differ.
size_t differences(const std::string& a, const std::string& b) {
  const Spec x = parse_spec(a), y = parse_spec(b);
  size_t count = 0;
  for (const auto& [key, value] : x.params) {
    const auto other = std::find_if(y.params.begin(), y.params.end(),
                                    [&](const auto& param) { return param.first == key; });
    count += other == y.params.end() || other->second != value;
  }
  return count;
}

// The network that covers `game_spec` (check_entries: at most one), or under kAny the
// closest one of its game.
const PretrainedModel* choose(const std::vector<PretrainedModel>& models,
                              const std::string& game_spec, NetworkRules rules) {
  for (const PretrainedModel& model : models) {
    const std::vector<std::string> specs = covered(model);
    if (std::find(specs.begin(), specs.end(), game_spec) != specs.end()) return &model;
  }
  if (rules == NetworkRules::kExact) return nullptr;
  const std::string name = game_name(game_spec);
  const PretrainedModel *closest = nullptr, *as_close = nullptr;
  size_t best = SIZE_MAX;
  for (const PretrainedModel& model : models) {
    if (game_name(model.game) != name) continue;
    const size_t distance = differences(model.game, game_spec);
    if (distance == best) as_close = &model;
    if (distance < best) closest = &model, as_close = nullptr, best = distance;
  }
  if (as_close)
    throw std::invalid_argument("rules=any: the shipped networks for " + closest->game + " and " +
                                as_close->game + " are as close to " + game_spec +
                                "; give the network's file");
  return closest;
}

}  // namespace

std::string pretrained_model_path(const std::string& game_spec, NetworkRules rules) {
  const std::string directory = models_directory();
  const std::vector<PretrainedModel> models = read_manifest(directory);
  const PretrainedModel* model = choose(models, game_spec, rules);
  if (!model) {
    std::vector<std::string> games;
    for (const PretrainedModel& other : models)
      games.push_back(other.game + (other.rules.empty() ? "" : " over rules " + other.rules));
    throw std::invalid_argument("no shipped network for " + game_spec +
                                " (model=pretrained covers the games of " +
                                manifest_path(directory) + ": " +
                                (games.empty() ? std::string("none") : join(games, "; ")) +
                                "); train one with knightgym train and give its model.pt");
  }
  if (!std::filesystem::is_regular_file(model->path()))
    throw std::invalid_argument("the shipped network for " + game_spec + " is missing: '" +
                                model->path() + "'");
  return model->path();
}

}  // namespace knightgym
