// The "key=value key=value ..." text that every game's serialize() writes (one format for
// all games; a value holding spaces is bracketed, "fen=[... w - - 0 1]"), read back with
// every problem named: a field without '=', an unknown or repeated key, a missing key, a
// number out of range. Errors are std::invalid_argument prefixed with `context` (for
// example "knight_fight: cannot read state: ").
#pragma once

#include <array>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "env/core/end.h"

namespace knightgym {

class KeyValues {
 public:
  // `keys`: every key the text must hold, each exactly once; `optional`: keys it may
  // hold, at most once each (a field added to a format, so that older texts still read).
  KeyValues(std::string_view text, std::string context,
            std::initializer_list<std::string_view> keys,
            std::initializer_list<std::string_view> optional = {});

  // Whether the text holds `key`.
  bool has(std::string_view key) const;
  std::string_view get(std::string_view key) const;
  int integer(std::string_view key, int min, int max) const;
  int integer(std::string_view key, std::string_view value, int min, int max) const;
  // A value written as "A,B".
  std::array<std::string_view, 2> pair(std::string_view key) const;
  // The "end" field: running, rules or truncated (env/core/end.h).
  End end() const;

  [[noreturn]] void fail(const std::string& why) const;

 private:
  std::string context_;
  std::vector<std::pair<std::string_view, std::string_view>> fields_;
};

}  // namespace knightgym
