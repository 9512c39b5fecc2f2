#include "env/registry/registry.h"

#include <stdexcept>

#include "util/text.h"

namespace knightgym {

std::shared_ptr<const AnyGame> load_game(const Spec& spec) {
  std::string known;
  for (const GameEntry& entry : registered_games()) {
    if (entry.name == spec.name) return entry.load(spec);
    known += (known.empty() ? "" : ", ") + std::string(entry.name);
  }
  throw std::invalid_argument("unknown game '" + excerpt(spec.name) + "'; known games: " + known);
}

std::shared_ptr<const AnyGame> load_game(std::string_view spec) {
  return load_game(parse_spec(spec));
}

}  // namespace knightgym
