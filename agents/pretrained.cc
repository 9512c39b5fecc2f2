#include "agents/pretrained.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>

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

std::vector<PretrainedModel> read_manifest(const std::string& directory) {
  const std::string path = directory + "/manifest.txt";
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("no manifest of shipped networks at '" + path + "'");
  std::vector<PretrainedModel> models;
  int number = 0;
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(path + ", line " + std::to_string(number) + ": " + why);
  };
  const auto check_complete = [&] {
    if (models.empty()) return;
    const PretrainedModel& last = models.back();
    for (const char* key : {"file", "game"})
      if (!has_field(last, key))
        throw std::invalid_argument(path + ": [" + last.name + "] has no '" + key + "'");
    for (size_t i = 0; i + 1 < models.size(); ++i)
      if (models[i].game == last.game)
        throw std::invalid_argument(path + ": [" + models[i].name + "] and [" + last.name +
                                    "] are both for " + last.game);
  };
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    if (text.front() == '[') {
      if (text.back() != ']' || text.size() < 3) throw fail("expected [name]");
      check_complete();
      const std::string name(trim(text.substr(1, text.size() - 2)));
      for (const PretrainedModel& model : models)
        if (model.name == name) throw fail("[" + name + "] twice");
      models.push_back({name, "", "", directory, {}});
      continue;
    }
    const size_t equals = text.find('=');
    if (equals == std::string_view::npos) throw fail("expected [name] or key = value");
    if (models.empty()) throw fail("key = value before the first [name]");
    PretrainedModel& model = models.back();
    const std::string key(trim(text.substr(0, equals)));
    const std::string value(trim(text.substr(equals + 1)));
    if (key.empty() || value.empty()) throw fail("expected key = value");
    if (has_field(model, key)) throw fail("'" + key + "' twice in [" + model.name + "]");
    if (key == "file") model.file = value;
    if (key == "game") model.game = value;
    model.fields.emplace_back(key, value);
  }
  check_complete();
  return models;
}

std::string pretrained_model_path(const std::string& game_spec) {
  const std::string directory = models_directory();
  const std::vector<PretrainedModel> models = read_manifest(directory);
  std::vector<std::string> games;
  for (const PretrainedModel& model : models) {
    if (model.game != game_spec) {
      games.push_back(model.game);
      continue;
    }
    if (!std::filesystem::is_regular_file(model.path()))
      throw std::invalid_argument("the shipped network for " + game_spec + " is missing: '" +
                                  model.path() + "'");
    return model.path();
  }
  throw std::invalid_argument(
      "no shipped network for " + game_spec + " (model=pretrained covers the games of " +
      directory + "/manifest.txt: " + (games.empty() ? std::string("none") : join(games, "; ")) +
      "); train one with knightgym train and give its model.pt");
}

}  // namespace knightgym
