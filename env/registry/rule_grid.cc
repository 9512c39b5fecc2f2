#include "env/registry/rule_grid.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "env/core/params.h"
#include "env/registry/registry.h"
#include "util/text.h"

namespace knightgym {
namespace {

// Splits at the commas outside brackets and parentheses.
std::vector<std::string> split_top_level(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  int depth = 0;
  for (const char c : text) {
    depth += c == '(' || c == '[' ? 1 : c == ')' || c == ']' ? -1 : 0;
    if (c == ',' && depth == 0) {
      items.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  items.push_back(item);
  return items;
}

}  // namespace

Sweep parse_sweep(const std::string& text) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw std::invalid_argument("sweep '" + excerpt(text) + "': expected KEY=V1,V2,...");
  Sweep sweep{text.substr(0, equals), split_top_level(text.substr(equals + 1))};
  std::unordered_set<std::string_view> seen;  // to find a value given twice in linear time
  for (const std::string& value : sweep.values) {
    if (value.empty()) throw std::invalid_argument("sweep '" + excerpt(text) + "': an empty value");
    if (!seen.insert(value).second)
      throw std::invalid_argument("sweep '" + excerpt(text) + "': value '" + excerpt(value) +
                                  "' appears twice");
  }
  return sweep;
}

std::vector<Sweep> parse_sweeps(const std::string& text) {
  std::vector<Sweep> sweeps;
  if (trim(text).empty()) return sweeps;
  size_t begin = 0;
  while (true) {
    const size_t end = text.find(';', begin);
    sweeps.push_back(parse_sweep(std::string(trim(text.substr(begin, end - begin)))));
    if (end == std::string::npos) return sweeps;
    begin = end + 1;
  }
}

std::string sweeps_text(const std::vector<Sweep>& sweeps) {
  std::vector<std::string> parts;
  for (const Sweep& sweep : sweeps) parts.push_back(sweep.key + "=" + join(sweep.values, ","));
  return join(parts, ";");
}

int grid_size(const std::vector<Sweep>& sweeps) {
  int size = 1;
  for (const Sweep& sweep : sweeps) size *= static_cast<int>(sweep.values.size());
  return size;
}

std::vector<RuleSet> expand_grid(const std::string& game, const std::vector<Sweep>& sweeps) {
  const Spec base = parse_spec(game);
  for (size_t i = 0; i < sweeps.size(); ++i) {
    if (sweeps[i].values.empty())
      throw std::invalid_argument("sweep " + sweeps[i].key + ": no values");
    for (size_t j = 0; j < i; ++j)
      if (sweeps[i].key == sweeps[j].key)
        throw std::invalid_argument("sweep " + sweeps[i].key + " is given twice");
  }
  std::vector<RuleSet> grid;
  std::unordered_set<std::string> specs;
  std::vector<size_t> index(sweeps.size(), 0);
  while (true) {
    Spec spec = base;
    RuleSet rules;
    for (size_t i = 0; i < sweeps.size(); ++i) {
      const std::string& key = sweeps[i].key;
      const std::string& value = sweeps[i].values[index[i]];
      rules.values.emplace_back(key, value);
      const auto found = std::find_if(spec.params.begin(), spec.params.end(),
                                      [&](const auto& param) { return param.first == key; });
      if (found != spec.params.end())
        found->second = value;
      else
        spec.params.emplace_back(key, value);
    }
    rules.spec = load_game(spec)->spec();
    if (!specs.insert(rules.spec).second)
      throw std::invalid_argument("the sweep makes " + rules.spec +
                                  " twice (two spellings of one value?)");
    grid.push_back(std::move(rules));
    size_t i = sweeps.size();
    while (i > 0 && ++index[i - 1] == sweeps[i - 1].values.size()) index[--i] = 0;
    if (i == 0) break;
  }
  return grid;
}

}  // namespace knightgym
