// JSON read back into values: how the project's own files (training settings, a balance
// run's progress and tallies, the manifest of shipped networks) are read. JsonWriter
// (json_writer.h) writes them; together they are the one module for the project's
// structured files.
//
// Numbers keep the text they were written as, so a 64-bit integer and a double written
// with JsonWriter::exact read back to the same value. A value knows where it
// stands in its document ("rule_sets[2].tally.games"), and every accessor that finds
// something else than it asks for throws std::invalid_argument naming that place.
//
// Reading takes time linear in the text and memory a small multiple of it: a value keeps
// its last step ("games", ".games", "[2]") and a link to its container's, whose steps
// where() joins, and an object's keys are checked for repeats through a hash set.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace knightgym {

class JsonValue {
 public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  using Member = std::pair<std::string, JsonValue>;

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  // Where the value stands: "" for the document, then keys and [indices].
  std::string where() const;

  bool as_bool() const;
  // An integer in [low, high] written without fraction or exponent.
  int64_t as_int(int64_t low = INT64_MIN, int64_t high = INT64_MAX) const;
  double as_double() const;
  // A number's text as written ("27.6", "1e-3").
  const std::string& number_text() const;
  const std::string& as_string() const;
  const std::vector<JsonValue>& as_array() const;
  // The members in the document's order (keys are unique).
  const std::vector<Member>& as_object() const;

  // An object's member, or nullptr where there is none (or this is not an object).
  const JsonValue* find(std::string_view key) const;
  // An object's member; throws naming the key where there is none.
  const JsonValue& at(std::string_view key) const;

  // The value as one line of JSON (numbers as written).
  std::string text() const;

  // The same JSON: kinds, numbers' texts, strings and members in order (not where()).
  bool operator==(const JsonValue& other) const;

  // Throws std::invalid_argument, naming where the value is, with `problem`.
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  friend class JsonParser;
  // where(), each step quoted short (util/text.h's excerpt) where `short_steps`.
  std::string place(bool short_steps) const;
  Kind kind_ = Kind::kNull;
  bool flag_ = false;
  std::string text_;  // a number's literal or a string's characters
  std::vector<JsonValue> items_;
  std::vector<Member> members_;
  struct Place;                          // a container's step and its container's
  std::shared_ptr<const Place> parent_;  // null: the document
  std::string step_;                     // "" for the document, "key" in it, ".key" or "[i]"
};

// A whole document (RFC 8259; nesting at most 128 deep). Throws std::invalid_argument
// naming the line, column and problem.
JsonValue parse_json(std::string_view text);

// Whether `text` holds a JSON document rather than an older plain-text format: its first
// character other than white space opens an object.
bool looks_like_json(std::string_view text);

// The members that `saved` and `expected` (a saved run's options and a resumed run's)
// differ in, joined with ", ": those of `expected` that `saved` lacks or holds otherwise,
// then those only `saved` has, but for `ignored`. Empty where they agree; "its options"
// where either is no object and they differ.
std::string differing_members(const JsonValue& saved, const JsonValue& expected,
                              std::string_view ignored = "");

}  // namespace knightgym
