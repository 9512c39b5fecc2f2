// Game specs such as "knight_fight(double_erase=forced,mirror_on_moves=false)" and the
// reader through which each game declares, parses and documents its parameters once.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "util/fields.h"

namespace knightgym {

// A parsed spec: the game name and its key=value pairs in the order written. A value
// that must contain commas is written in brackets: "safe_squares=[d4,e5]".
struct Spec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;
};

// Bounds on what parse_spec reads, so that any input is refused at once and in time
// linear in its size (a 1 MB input of 120,000 parameters once took 44 s to refuse). They
// are far above every real spec: the longest registered one
// (tests/cpp/env/games/*/conformance_specs.txt) is about 100 characters with 4 parameters, a
// Knightmate FEN under 100 characters, and no game or agent declares more than a few dozen
// parameters.
inline constexpr size_t kMaxSpecLength = 65536;  // characters
inline constexpr size_t kMaxSpecParams = 256;

// Throws std::invalid_argument naming the problem (missing ')', empty key, duplicate key,
// a bound above exceeded); a message quotes at most the first characters of the input
// (util/text.h: excerpt). Linear in the text's length.
Spec parse_spec(std::string_view text);
std::string format_spec(const Spec& spec);

// One declared parameter, with the value it resolved to.
struct ParamInfo {
  std::string name;
  std::string type;  // "bool", "int", "float", "choice" or "string"
  std::string default_value;
  std::string value;
  std::vector<std::string> choices;  // for "choice"
  std::string doc;

  // What describes a parameter (its value is the spec's, not the declaration's).
  static auto fields() {
    return std::tuple{field("name", &ParamInfo::name), field("type", &ParamInfo::type),
                      field("default", &ParamInfo::default_value),
                      field("choices", &ParamInfo::choices), field("doc", &ParamInfo::doc)};
  }
};

// A game's read_params(ParamReader&) asks for each parameter with its default and doc;
// the reader returns the spec's value (or the default) and records the declaration.
// finish() rejects keys that no declaration asked for. Reading an empty spec this way
// is also how the CLI and Python list a game's parameters.
class ParamReader {
 public:
  explicit ParamReader(const Spec& spec);

  bool get_bool(const std::string& name, bool default_value, const std::string& doc);
  int get_int(const std::string& name, int default_value, int min, int max, const std::string& doc);
  double get_float(const std::string& name, double default_value, double min, double max,
                   const std::string& doc);
  std::string get_choice(const std::string& name, const std::string& default_value,
                         const std::vector<std::string>& choices, const std::string& doc);
  // Free-form text; the game validates it and reports problems through fail().
  std::string get_string(const std::string& name, const std::string& default_value,
                         const std::string& doc);

  // Throws std::invalid_argument: "<game>: parameter '<name>' = '<value>': <why>", the
  // value cut short if it is long.
  [[noreturn]] void fail(const std::string& name, const std::string& why) const;

  // Throws if the spec holds a key that was never read, listing the allowed keys.
  void finish() const;

  const std::vector<ParamInfo>& infos() const { return infos_; }
  // The spec with every parameter spelled out: the game's canonical name.
  std::string canonical_spec() const;

 private:
  const std::string* find(const std::string& name) const;
  std::string declare(ParamInfo info);

  Spec spec_;
  // Each key's first position in spec_.params, so that a lookup does not scan them all.
  std::unordered_map<std::string, size_t> index_;
  std::vector<ParamInfo> infos_;
};

}  // namespace knightgym
