// Game specs and their parameters, for every game: whatever load_game accepts has a
// canonical spec that loads to itself, and its games play soundly (fuzz_checks.h).
#include <stdexcept>

#include "tests/fuzz/fuzz_checks.h"

using namespace knightgym;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string spec(fuzz::text_of(data, size));
  std::shared_ptr<const AnyGame> game;
  try {
    game = load_game(spec);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  fuzz::require(load_game(game->spec())->spec() == game->spec(),
                "the canonical spec does not load to itself: ", game->spec());
  const uint64_t seed = fuzz::seed_of(spec);
  fuzz::check_state(*game->new_initial_state(seed), seed);
  return 0;
}
