#include "env/core/params.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <unordered_set>

#include "util/text.h"

namespace knightgym {
namespace {

// The shortest text that reads back as `value` ("0.25", "1e-05"); a value that is a
// float's (a float default such as 0.3f) is written as that float, "0.3".
std::string format_number(double value) {
  char buffer[32];
  const auto as_float = static_cast<float>(value);
  const auto result = static_cast<double>(as_float) == value
                          ? std::to_chars(buffer, buffer + sizeof buffer, as_float)
                          : std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

[[noreturn]] void bad_spec(std::string_view text, const std::string& why) {
  throw std::invalid_argument("bad spec '" + excerpt(text) + "': " + why);
}

}  // namespace

Spec parse_spec(std::string_view text) {
  if (text.size() > kMaxSpecLength)
    throw std::invalid_argument("a spec is at most " + std::to_string(kMaxSpecLength) +
                                " characters, got " + std::to_string(text.size()));
  Spec spec;
  const std::string_view whole = trim(text);
  const auto open = whole.find('(');
  spec.name = std::string(trim(whole.substr(0, open)));
  if (spec.name.empty()) bad_spec(text, "no game name");
  if (open == std::string_view::npos) return spec;
  if (whole.back() != ')') bad_spec(text, "missing ')' at the end");

  const std::string_view body = whole.substr(open + 1, whole.size() - open - 2);
  std::unordered_set<std::string_view> keys;  // views of `text`, to find a key given twice
  size_t pos = 0;
  while (pos < body.size()) {
    // A value in brackets may hold commas; otherwise an item ends at the next comma.
    size_t end = pos;
    int depth = 0;
    while (end < body.size() && (depth > 0 || body[end] != ',')) {
      depth += body[end] == '[' ? 1 : body[end] == ']' ? -1 : 0;
      ++end;
    }
    if (depth != 0) bad_spec(text, "unbalanced '['");
    const std::string_view item = trim(body.substr(pos, end - pos));
    pos = end + 1;
    if (item.empty()) {
      if (end == body.size() && spec.params.empty()) break;  // "name()"
      bad_spec(text, "empty parameter");
    }
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) bad_spec(text, "'" + excerpt(item) + "' has no '='");
    const std::string_view key = trim(item.substr(0, eq));
    std::string_view value = trim(item.substr(eq + 1));
    if (key.empty()) bad_spec(text, "a parameter has no name");
    if (value.size() >= 2 && value.front() == '[' && value.back() == ']')
      value = value.substr(1, value.size() - 2);
    if (!keys.insert(key).second) bad_spec(text, "parameter '" + excerpt(key) + "' given twice");
    if (spec.params.size() == kMaxSpecParams)
      bad_spec(text, "a spec has at most " + std::to_string(kMaxSpecParams) + " parameters");
    spec.params.emplace_back(std::string(key), std::string(value));
  }
  return spec;
}

std::string format_spec(const Spec& spec) {
  std::string out = spec.name + "(";
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const auto& [key, value] = spec.params[i];
    // In brackets wherever parse_spec would read the bare value otherwise: a comma ends
    // it, spaces around it are trimmed, and one pair of outer brackets is taken off.
    const bool bracket =
        value.find_first_of(",[]") != std::string::npos || trim(value).size() != value.size();
    out += (i ? "," : "") + key + "=" + (bracket ? "[" + value + "]" : value);
  }
  return out + ")";
}

ParamReader::ParamReader(const Spec& spec) : spec_(spec) {
  index_.reserve(spec_.params.size());
  for (size_t i = 0; i < spec_.params.size(); ++i) index_.emplace(spec_.params[i].first, i);
}

const std::string* ParamReader::find(const std::string& name) const {
  const auto found = index_.find(name);
  return found == index_.end() ? nullptr : &spec_.params[found->second].second;
}

std::string ParamReader::declare(ParamInfo info) {
  const std::string* given = find(info.name);
  info.value = given ? *given : info.default_value;
  infos_.push_back(info);
  return info.value;
}

void ParamReader::fail(const std::string& name, const std::string& why) const {
  const std::string* given = find(name);
  throw std::invalid_argument(spec_.name + ": parameter '" + name + "'" +
                              (given ? " = '" + excerpt(*given) + "'" : "") + ": " + why);
}

bool ParamReader::get_bool(const std::string& name, bool default_value, const std::string& doc) {
  const std::string value =
      declare({name, "bool", default_value ? "true" : "false", "", {"true", "false"}, doc});
  if (value != "true" && value != "1" && value != "false" && value != "0")
    fail(name, "expected true or false");
  const bool parsed = value == "true" || value == "1";
  infos_.back().value = parsed ? "true" : "false";  // one canonical spelling per value
  return parsed;
}

int ParamReader::get_int(const std::string& name, int default_value, int min, int max,
                         const std::string& doc) {
  const std::string value = declare({name, "int", std::to_string(default_value), "", {}, doc});
  int parsed = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (error != std::errc() || end != value.data() + value.size()) fail(name, "expected an integer");
  if (parsed < min || parsed > max)
    fail(name, "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  infos_.back().value = std::to_string(parsed);  // "012" and "12" name one game
  return parsed;
}

double ParamReader::get_float(const std::string& name, double default_value, double min, double max,
                              const std::string& doc) {
  const std::string value = declare({name, "float", format_number(default_value), "", {}, doc});
  double parsed = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (error != std::errc() || end != value.data() + value.size() || !std::isfinite(parsed))
    fail(name, "expected a number");
  if (parsed < min || parsed > max)
    fail(name, "expected a number in [" + format_number(min) + ", " + format_number(max) + "]");
  infos_.back().value = format_number(parsed);
  return parsed;
}

std::string ParamReader::get_choice(const std::string& name, const std::string& default_value,
                                    const std::vector<std::string>& choices,
                                    const std::string& doc) {
  const std::string value = declare({name, "choice", default_value, "", choices, doc});
  if (std::find(choices.begin(), choices.end(), value) == choices.end())
    fail(name, "expected one of: " + join(choices, ", "));
  return value;
}

std::string ParamReader::get_string(const std::string& name, const std::string& default_value,
                                    const std::string& doc) {
  return declare({name, "string", default_value, "", {}, doc});
}

void ParamReader::finish() const {
  std::unordered_set<std::string_view> declared;
  std::vector<std::string> allowed;
  for (const auto& info : infos_)
    if (declared.insert(info.name).second) allowed.push_back(info.name);
  for (const auto& [key, value] : spec_.params)
    if (!declared.contains(key))
      throw std::invalid_argument(excerpt(spec_.name) + ": unknown parameter '" + excerpt(key) +
                                  "'; allowed: " + join(allowed, ", "));
}

std::string ParamReader::canonical_spec() const {
  Spec canonical{spec_.name, {}};
  for (const auto& info : infos_) canonical.params.emplace_back(info.name, info.value);
  return format_spec(canonical);
}

}  // namespace knightgym
