#include "env/core/key_values.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace knightgym {

KeyValues::KeyValues(std::string_view text, std::string context,
                     std::initializer_list<std::string_view> keys,
                     std::initializer_list<std::string_view> optional)
    : context_(std::move(context)) {
  for (size_t pos = 0; pos < text.size();) {
    size_t end = std::min(text.find(' ', pos), text.size());
    const size_t eq = text.substr(pos, end - pos).find('=');
    // A bracketed value runs to its ']' and may hold spaces: "fen=[8/8/... w - - 0 1]".
    const bool bracketed =
        eq != std::string_view::npos && pos + eq + 1 < text.size() && text[pos + eq + 1] == '[';
    if (bracketed) {
      const size_t close = text.find(']', pos + eq + 1);
      if (close == std::string_view::npos)
        fail("field '" + std::string(text.substr(pos)) + "' has no closing ']'");
      end = close + 1;
      if (end < text.size() && text[end] != ' ')
        fail("field '" + std::string(text.substr(pos, end - pos)) + "' runs on after its ']'");
    }
    const std::string_view item = text.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    if (eq == std::string_view::npos) fail("field '" + std::string(item) + "' has no '='");
    const std::string_view value = item.substr(eq + 1);
    fields_.emplace_back(item.substr(0, eq), bracketed ? value.substr(1, value.size() - 2) : value);
  }
  for (const auto& [key, value] : fields_)
    if (std::find(keys.begin(), keys.end(), key) == keys.end() &&
        std::find(optional.begin(), optional.end(), key) == optional.end())
      fail("unknown field '" + std::string(key) + "'");
  for (const std::string_view key : keys) get(key);
  for (const std::string_view key : optional)
    if (has(key)) get(key);
}

bool KeyValues::has(std::string_view key) const {
  return std::any_of(fields_.begin(), fields_.end(),
                     [&](const auto& field) { return field.first == key; });
}

std::string_view KeyValues::get(std::string_view key) const {
  std::string_view found;
  int count = 0;
  for (const auto& [k, v] : fields_)
    if (k == key) found = v, ++count;
  if (count != 1) fail("expected one field '" + std::string(key) + "'");
  return found;
}

int KeyValues::integer(std::string_view key, int min, int max) const {
  return integer(key, get(key), min, max);
}

int KeyValues::integer(std::string_view key, std::string_view value, int min, int max) const {
  int parsed = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (error != std::errc() || end != value.data() + value.size() || parsed < min || parsed > max)
    fail(std::string(key) + " '" + std::string(value) + "' is not an integer in [" +
         std::to_string(min) + ", " + std::to_string(max) + "]");
  return parsed;
}

std::array<std::string_view, 2> KeyValues::pair(std::string_view key) const {
  const std::string_view value = get(key);
  const size_t comma = value.find(',');
  if (comma == std::string_view::npos) fail(std::string(key) + " needs two values");
  return {value.substr(0, comma), value.substr(comma + 1)};
}

End KeyValues::end() const {
  const std::string_view value = get("end");
  const std::optional<End> end = parse_end(value);
  if (!end) fail("end '" + std::string(value) + "' is not running, rules or truncated");
  return *end;
}

void KeyValues::fail(const std::string& why) const { throw std::invalid_argument(context_ + why); }

}  // namespace knightgym
