#include "training/balance/checkpoint.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "util/atomic_file.h"
#include "util/json_writer.h"

namespace knightgym {
namespace {

constexpr const char* kMagic = "knightgym-balance-progress-1";

}  // namespace

std::string checkpoint_identity(const BalanceOptions& options,
                                const std::vector<std::string>& agent_specs, int64_t chunk_games) {
  JsonWriter json;
  json.begin_object().key("game").value(options.game).key("agents").array(agent_specs);
  json.key("sweeps").begin_array();
  for (const Sweep& sweep : options.sweeps)
    json.begin_object().key("key").value(sweep.key).key("values").array(sweep.values).end_object();
  json.end_array();
  json.key("games").value(options.games).key("seed").value(static_cast<int64_t>(options.seed));
  json.key("batch").value(options.batch).key("chunk_games").value(chunk_games);
  json.key("opening_plies").value(options.opening_plies);
  json.key("check_every").value(options.check_every).key("sprt");
  if (options.sprt) {
    const SprtSettings& s = *options.sprt;
    json.array(std::vector<double>{s.a0, s.a1, s.alpha, s.beta});
  } else {
    json.null();
  }
  json.end_object();
  return json.text();
}

void save_checkpoint(const std::string& path, const std::string& identity,
                     const std::vector<SavedRuleSet>& rule_sets) {
  std::string text =
      std::string(kMagic) + "\n" + identity + "\n" + std::to_string(rule_sets.size()) + "\n";
  for (const SavedRuleSet& saved : rule_sets) {
    char seconds[48];
    std::snprintf(seconds, sizeof seconds, "%a", saved.seconds);
    text +=
        std::to_string(saved.chunks_done) + " " + seconds + "\n" + saved.tally.serialize() + "\n";
  }
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  write_file_atomically(path, text);
}

std::vector<SavedRuleSet> load_checkpoint(const std::string& path, const std::string& identity) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot be read");
  const auto fail = [&](const std::string& problem) {
    throw std::invalid_argument(path + ": " + problem);
  };
  std::string line;
  if (!std::getline(in, line) || line != kMagic)
    fail(std::string("not a balance run's progress (it does not start with ") + kMagic + ")");
  if (!std::getline(in, line)) fail("it ends before the run's options");
  if (line != identity)
    fail("it holds a run with other options:\n  " + line + "\nnot\n  " + identity +
         "\nRun those options again, or delete the file to start afresh");
  std::vector<SavedRuleSet> rule_sets;
  size_t count = 0;
  if (!std::getline(in, line) || std::sscanf(line.c_str(), "%zu", &count) != 1)
    fail("no count of rule sets");
  for (size_t r = 0; r < count; ++r) {
    SavedRuleSet saved;
    if (!std::getline(in, line)) fail("it ends in rule set " + std::to_string(r));
    std::istringstream fields(line);
    std::string seconds;
    if (!(fields >> saved.chunks_done >> seconds) || saved.chunks_done < 0)
      fail("rule set " + std::to_string(r) + ": a bad line '" + line + "'");
    char* end = nullptr;
    saved.seconds = std::strtod(seconds.c_str(), &end);
    if (end != seconds.c_str() + seconds.size() || !(saved.seconds >= 0))
      fail("rule set " + std::to_string(r) + ": seconds '" + seconds + "' is not a number");
    if (!std::getline(in, line)) fail("it ends before rule set " + std::to_string(r) + "'s tally");
    try {
      saved.tally = RuleSetTally::parse(line);
    } catch (const std::invalid_argument& error) {
      fail("rule set " + std::to_string(r) + ": " + error.what());
    }
    rule_sets.push_back(std::move(saved));
  }
  if (std::getline(in, line) && !line.empty()) fail("text follows the last rule set");
  return rule_sets;
}

}  // namespace knightgym
