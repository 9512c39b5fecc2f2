#include "agents/agent_kinds.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "agents/pretrained.h"
#include "util/atomic_file.h"
#include "util/binary_io.h"
#include "util/json_writer.h"
#include "util/text.h"

namespace knightgym {

Spec parse_agent_spec(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos || text.find('(') < colon) return parse_spec(text);
  std::string as_call(text.substr(0, colon));
  as_call += '(';
  as_call += text.substr(colon + 1);
  as_call += ')';
  return parse_spec(as_call);
}

namespace {

// The table's index of `kind`; throws naming the known kinds.
size_t kind_index(std::string_view kind) {
  const auto& names = AgentKinds::kNames;
  const auto found = std::find(names.begin(), names.end(), kind);
  if (found == names.end())
    throw std::invalid_argument("unknown agent '" + excerpt(kind) +
                                "' (known: " + join({names.begin(), names.end()}, ", ") + ")");
  return static_cast<size_t>(found - names.begin());
}

}  // namespace

AgentConfig read_agent_config(std::string_view text) {
  const Spec spec = parse_agent_spec(text);
  ParamReader reader(spec);
  AgentConfig config;
  config.settings = AgentKinds::visit(kind_index(spec.name), [&]<class Kind>() {
    typename Kind::Config settings;
    Kind::read(reader, settings);
    return AgentKinds::Config(std::move(settings));
  });
  reader.finish();
  // The reader writes "kind(k=v,...)"; agent specs read "kind:k=v,...".
  const std::string canonical = reader.canonical_spec();
  const size_t open = canonical.find('(');
  config.spec = reader.infos().empty()
                    ? spec.name
                    : spec.name + ":" + canonical.substr(open + 1, canonical.size() - open - 2);
  return config;
}

std::vector<ParamInfo> agent_params(std::string_view kind) {
  ParamReader reader(Spec{std::string(kind), {}});
  AgentKinds::visit(kind_index(kind), [&]<class Kind>() {
    typename Kind::Config settings;
    Kind::read(reader, settings);
  });
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
      if (item.empty()) throw std::invalid_argument("empty agent in '" + excerpt(list) + "'");
      specs.push_back(item);
    }
    pos = end + 1;
  }
  return specs;
}

std::shared_ptr<SharedResource> share_for_game(const AgentConfig& config, const GameInfo& info,
                                               const std::string& game_spec) {
  return AgentKinds::visit(config.settings.index(), [&]<class Kind>() {
    return Kind::share(std::get<typename Kind::Config>(config.settings), info, game_spec);
  });
}

std::string network_file(const AgentConfig& config, const std::string& game_spec) {
  const auto* az = std::get_if<AzKind::Config>(&config.settings);
  if (!az || az->model == "uniform" || az->model == "resnet") return "";
  return az->model == "pretrained" ? pretrained_model_path(game_spec, az->rules) : az->model;
}

std::vector<NetworkUsed> networks_used(const std::vector<std::string>& agent_specs,
                                       const std::vector<std::string>& game_specs) {
  std::map<std::string, std::string> paths;  // the file as named -> its path
  for (const std::string& spec : agent_specs) {
    const AgentConfig config = read_agent_config(spec);
    const auto* az = std::get_if<AzKind::Config>(&config.settings);
    for (const std::string& game_spec : game_specs) {
      try {
        const std::string path = network_file(config, game_spec);
        if (path.empty()) continue;
        const bool shipped = az->model == "pretrained";
        paths.emplace(shipped ? std::filesystem::path(path).filename().string() : path, path);
      } catch (const std::invalid_argument&) {
        // no shipped network for these rules: the games themselves say so
      }
    }
  }
  std::vector<NetworkUsed> networks;
  for (const auto& [file, path] : paths) {
    const std::optional<std::string> bytes = read_file(path);
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx",
                  static_cast<unsigned long long>(bytes ? fnv1a(*bytes) : 0));
    networks.push_back({file, hash});
  }
  return networks;
}

std::string networks_json(const std::vector<NetworkUsed>& networks) {
  JsonWriter json;
  json.begin_array();
  for (const NetworkUsed& network : networks)
    json.begin_object()
        .key("file")
        .value(network.file)
        .key("fnv1a")
        .value(network.fnv1a)
        .end_object();
  json.end_array();
  return json.text();
}

}  // namespace knightgym
