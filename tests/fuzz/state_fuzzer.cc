// Serialized states of every game: the first line is a game spec, the rest a state's
// text. A state deserialize_state accepts is checked as a parser's (fuzz_checks.h).
#include <stdexcept>

#include "tests/fuzz/fuzz_checks.h"

using namespace knightgym;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto [spec, text] = fuzz::first_line(fuzz::text_of(data, size));
  std::shared_ptr<const AnyGame> game;
  std::unique_ptr<AnyState> state;
  try {
    game = load_game(spec);
    state = game->deserialize_state(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  fuzz::check_state(*state, fuzz::seed_of(text));
  return 0;
}
