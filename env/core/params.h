// Game specs such as "knight_fight(double_erase=forced,mirror_on_moves=false)" and the
// reader through which each game declares, parses and documents its parameters once.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace knightgym {

// A parsed spec: the game name and its key=value pairs in the order written. A value
// that must contain commas is written in brackets: "safe_squares=[d4,e5]".
struct Spec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;
};

// Throws std::invalid_argument naming the problem (missing ')', empty key, duplicate key).
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

  // Throws std::invalid_argument: "<game>: parameter '<name>' = '<value>': <why>".
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
  std::vector<ParamInfo> infos_;
};

}  // namespace knightgym
