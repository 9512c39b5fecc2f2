#include "training/balance/progress_file.h"

#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>

#include "agents/agent_kinds.h"
#include "util/atomic_file.h"
#include "util/json_reader.h"
#include "util/json_writer.h"

namespace knightgym {
namespace {

constexpr const char* kFormat = "knightgym-balance-progress";
// Version 3 holds the games and the sequences' tuning beside the run's options; 2, still
// read, held the games among the options.
constexpr int64_t kVersion = 3;

// The games a run of version 2 planned, from its options (0 where they hold none).
int64_t games_of(const JsonValue& saved) {
  const JsonValue* games = saved.find("games");
  return games ? games->as_int(1) : 0;
}

// Throws std::invalid_argument naming the problem (not the file).
SavedProgress load_progress_json(const std::string& text, const std::string& identity) {
  SavedProgress progress;
  const JsonValue json = parse_json(text);
  const JsonValue* format = json.find("format");
  if (!format || format->kind() != JsonValue::Kind::kString || format->as_string() != kFormat)
    throw std::invalid_argument(
        std::string("not a balance run's progress (its \"format\" is not \"") + kFormat + "\")");
  const int64_t version = json.at("version").as_int();
  if (version != 2 && version != kVersion)
    throw std::invalid_argument("version " + std::to_string(version) +
                                " of the format; this build reads 1 to " +
                                std::to_string(kVersion));
  const JsonValue expected = parse_json(identity);
  // A saved run's "games" (version 2 held them) is not matched.
  const std::string differing = differing_members(json.at("run"), expected, "games");
  if (!differing.empty())
    throw std::invalid_argument("it holds a run with other options (" + differing + ") than\n  " +
                                identity +
                                "\nRun those options again, or delete the file to start afresh");
  if (version == 2) {
    progress.games = games_of(json.at("run"));
  } else {
    progress.games = json.at("games").as_int(0);
    progress.tuned_blocks = json.at("tuned_blocks").as_int(0);
  }
  std::vector<SavedRuleSet>& rule_sets = progress.rule_sets;
  for (const JsonValue& entry : json.at("rule_sets").as_array()) {
    SavedRuleSet saved;
    saved.chunks_done = entry.at("chunks_done").as_int(0);
    saved.seconds = entry.at("seconds").as_double();
    if (!(saved.seconds >= 0)) entry.at("seconds").fail("not a number of seconds");
    saved.tally = RuleSetTally::from_json(entry.at("tally"));
    rule_sets.push_back(std::move(saved));
  }
  return progress;
}

// The FNV-1a hashes of the network files the agents load in the grid: the bytes, not the
// paths, so that a run goes on in another clone of the repository.
void write_networks(JsonWriter& json, const std::vector<std::string>& agent_specs,
                    const std::vector<RuleSet>& grid) {
  std::vector<std::string> specs;
  for (const RuleSet& rules : grid) specs.push_back(rules.spec);
  std::set<std::string> hashes;
  for (const NetworkUsed& network : networks_used(agent_specs, specs)) hashes.insert(network.fnv1a);
  json.array(std::vector<std::string>(hashes.begin(), hashes.end()));
}

}  // namespace

std::string progress_identity(const BalanceOptions& options,
                              const std::vector<std::string>& agent_specs, int64_t chunk_games,
                              const std::vector<RuleSet>& grid) {
  JsonWriter json;
  json.begin_object().key("game").value(options.game).key("agents").array(agent_specs);
  json.key("sweeps").begin_array();
  for (const Sweep& sweep : options.sweeps)
    json.begin_object().key("key").value(sweep.key).key("values").array(sweep.values).end_object();
  json.end_array();
  json.key("seed").value(static_cast<int64_t>(options.seed));
  json.key("batch").value(options.batch).key("chunk_games").value(chunk_games);
  json.key("opening_plies").value(options.opening_plies);
  json.key("check_every").value(options.check_every).key("sprt");
  if (options.sprt) {
    const SprtSettings& s = *options.sprt;
    json.array(std::vector<double>{s.a0, s.a1, s.alpha, s.beta});
  } else {
    json.null();
  }
  json.key("networks");
  write_networks(json, agent_specs, grid);
  json.end_object();
  return json.text();
}

void save_progress(const std::string& path, const std::string& identity,
                   const SavedProgress& progress) {
  JsonWriter json;
  json.begin_object().key("format").value(kFormat).key("version").value(kVersion);
  json.key("run").raw(identity);
  json.key("games").value(progress.games).key("tuned_blocks").value(progress.tuned_blocks);
  json.key("rule_sets").begin_array();
  for (const SavedRuleSet& saved : progress.rule_sets) {
    json.begin_object().key("chunks_done").value(saved.chunks_done);
    json.key("seconds").exact(saved.seconds).key("tally");
    saved.tally.write_json(json);
    json.end_object();
  }
  json.end_array().end_object();
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  write_file_atomically(path, json.text() + "\n");
}

SavedProgress load_progress(const std::string& path, const std::string& identity) {
  const std::optional<std::string> bytes = read_file(path);
  if (!bytes) throw std::invalid_argument(path + ": cannot be read (or is no regular file)");
  if (!looks_like_json(*bytes))
    throw std::invalid_argument(path +
                                ": not a balance run's progress (not JSON; version 1's text "
                                "format is no longer read: play the run again)");
  try {
    return load_progress_json(*bytes, identity);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(path + ": " + error.what());
  }
}

}  // namespace knightgym
