#include "training/iteration/iteration_state.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "training/trainer/train_config.h"
#include "util/atomic_file.h"
#include "util/binary_io.h"
#include "util/json_reader.h"
#include "util/json_writer.h"

namespace knightgym {
namespace {

constexpr const char* kFormat = "knightgym.iterate";
constexpr int kVersion = 1;
// A state of a thousand generations is some 400 kB; a file far larger is something else.
constexpr uintmax_t kMostBytes = 16u << 20;
// The file is {"fnv1a":"<16 hex digits>","state":STATE}, the hash of STATE's bytes.
constexpr std::string_view kHead = "{\"fnv1a\":\"";
constexpr std::string_view kMiddle = "\",\"state\":";
constexpr std::string_view kTail = "}\n";

const char* const kPhases[] = {"teach", "train", "gate", "done"};
const char* const kDecisions[] = {"undecided", "keep", "discard"};

// A CSV field, quoted where it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, value);
  return text;
}

template <class Enum, size_t N>
Enum named(const JsonValue& value, const char* const (&names)[N]) {
  for (size_t i = 0; i < N; ++i)
    if (value.as_string() == names[i]) return static_cast<Enum>(i);
  value.fail("'" + value.as_string() + "' is not one of its names");
}

std::string state_json(const IterationState& state) {
  JsonWriter json;
  json.begin_object().key("format").value(kFormat).key("version").value(kVersion);
  json.key("run").raw(state.run).key("generations").begin_array();
  for (const GenerationState& g : state.generations) {
    json.begin_object().key("generation").value(g.generation);
    json.key("parent").value(g.parent).key("parent_fnv1a").value(g.parent_fnv1a);
    json.key("phase").value(generation_phase_name(g.phase));
    json.key("teach_seconds").exact(g.teach_seconds);
    json.key("train_seconds").exact(g.train_seconds);
    json.key("gate").begin_object().key("games").value(g.gate.results.count);
    json.key("sum").exact(g.gate.results.sum).key("squares").exact(g.gate.results.squares);
    json.key("wins").value(g.gate.wins).key("draws").value(g.gate.draws);
    json.key("losses").value(g.gate.losses).end_object();
    json.key("decision").value(gate_decision_name(g.decision));
    json.key("truncated").value(g.truncated).end_object();
  }
  json.end_array().end_object();
  return json.text();
}

// The saved options with their recipe as the settings it gives (settings_lines): a run
// recorded before the loop wrote it so holds the recipe's text whole, comments and all,
// and comments or spacing edited between sessions change nothing the run does.
JsonValue with_settings_lines(const JsonValue& run) {
  if (run.kind() != JsonValue::Kind::kObject) return run;
  JsonWriter json;
  json.begin_object();
  for (const auto& [key, value] : run.as_object()) {
    json.key(key);
    if (key == "settings" && value.kind() == JsonValue::Kind::kString)
      json.value(settings_lines(value.as_string()));
    else
      json.raw(value.text());
  }
  return parse_json(json.end_object().text());
}

IterationState read_state(const JsonValue& root, const std::string& run) {
  if (root.at("format").as_string() != kFormat)
    root.at("format").fail("not an iteration run's state");
  if (root.at("version").as_int() != kVersion)
    root.at("version").fail("a version this build does not read");
  const JsonValue expected = parse_json(run);
  const std::string differing = differing_members(with_settings_lines(root.at("run")), expected);
  if (!differing.empty())
    throw std::invalid_argument("a run of other options (" + differing +
                                "): resume it with its own, or choose another --out");
  IterationState state;
  state.run = run;
  for (const JsonValue& value : root.at("generations").as_array()) {
    GenerationState g;
    g.generation = static_cast<int>(value.at("generation").as_int(1, 1000000));
    if (g.generation != static_cast<int>(state.generations.size()) + 1)
      value.at("generation").fail("generations out of order");
    g.parent = value.at("parent").as_string();
    g.parent_fnv1a = value.at("parent_fnv1a").as_string();
    g.phase = named<GenerationPhase>(value.at("phase"), kPhases);
    g.teach_seconds = value.at("teach_seconds").as_double();
    g.train_seconds = value.at("train_seconds").as_double();
    const JsonValue& gate = value.at("gate");
    g.gate.results.count = gate.at("games").as_int(0);
    g.gate.results.sum = gate.at("sum").as_double();
    g.gate.results.squares = gate.at("squares").as_double();
    g.gate.wins = gate.at("wins").as_int(0);
    g.gate.draws = gate.at("draws").as_int(0);
    g.gate.losses = gate.at("losses").as_int(0);
    if (g.gate.wins + g.gate.draws + g.gate.losses != g.gate.results.count)
      gate.fail("wins, draws and losses do not add up to its games");
    g.decision = named<GateDecision>(value.at("decision"), kDecisions);
    g.truncated = value.at("truncated").as_bool();
    state.generations.push_back(std::move(g));
  }
  return state;
}

}  // namespace

const char* generation_phase_name(GenerationPhase phase) {
  return kPhases[static_cast<int>(phase)];
}

void save_iteration_state(const std::string& path, const IterationState& state) {
  const std::string body = state_json(state);
  std::string text;
  text.append(kHead).append(hex(fnv1a(body))).append(kMiddle).append(body).append(kTail);
  write_file_atomically(path, text);
}

IterationState load_iteration_state(const std::string& path, const std::string& run) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > kMostBytes)
    throw std::invalid_argument(path + ": " + std::to_string(size) +
                                " bytes, more than an iteration run's state");
  const std::optional<std::string> bytes = read_file(path);
  if (!bytes) throw std::invalid_argument(path + ": cannot be read (or is no regular file)");
  const std::string_view text = *bytes;
  const size_t body_at = kHead.size() + 16 + kMiddle.size();
  if (text.size() < body_at + kTail.size() || !text.starts_with(kHead) ||
      text.substr(kHead.size() + 16, kMiddle.size()) != kMiddle || !text.ends_with(kTail))
    throw std::invalid_argument(path + ": not an iteration run's state (its frame is wrong)");
  const std::string_view body = text.substr(body_at, text.size() - body_at - kTail.size());
  if (text.substr(kHead.size(), 16) != hex(fnv1a(body)))
    throw std::invalid_argument(path + ": damaged (its hash does not match its state)");
  try {
    return read_state(parse_json(body), run);
  } catch (const std::invalid_argument& problem) {
    throw std::invalid_argument(path + ": " + problem.what());
  }
}

std::string generations_csv(const IterationState& state, const GateOptions& gate) {
  std::string csv =
      "generation,parent,parent_fnv1a,phase,teach_seconds,train_seconds,gate_games,wins,draws,"
      "losses,score,llr,decision,truncated\n";
  for (const GenerationState& g : state.generations) {
    const GateVerdict verdict = gate_verdict(gate, g.gate);
    char numbers[160];
    std::snprintf(numbers, sizeof numbers, "%.1f,%.1f,%lld,%lld,%lld,%lld,%.4f,%.3f",
                  g.teach_seconds, g.train_seconds, static_cast<long long>(g.gate.games()),
                  static_cast<long long>(g.gate.wins), static_cast<long long>(g.gate.draws),
                  static_cast<long long>(g.gate.losses), g.gate.score(), verdict.sprt.llr);
    csv += std::to_string(g.generation) + "," + csv_field(g.parent) + "," + g.parent_fnv1a + "," +
           generation_phase_name(g.phase) + "," + numbers + "," + gate_decision_name(g.decision) +
           "," + (g.truncated ? "true" : "false") + "\n";
  }
  return csv;
}

}  // namespace knightgym
