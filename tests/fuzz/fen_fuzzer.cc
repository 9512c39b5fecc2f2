// Knightmate FENs, then UCI moves: the first line is a FEN. One parse_fen accepts writes
// back (to_fen) to a FEN that parses to the same position, its legal moves are the
// game's, and its game state is checked as a parser's (fuzz_checks.h); each further word
// is a move in UCI notation, played while legal.
#include <algorithm>
#include <stdexcept>

#include "env/games/knightmate/fen.h"
#include "env/games/knightmate/position.h"
#include "tests/fuzz/fuzz_checks.h"
#include "util/text.h"

using namespace knightgym;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto [fen, moves] = fuzz::first_line(fuzz::text_of(data, size));
  knightmate::Position position;
  try {
    position = knightmate::parse_fen(fen);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string written = knightmate::to_fen(position);
  fuzz::require(knightmate::to_fen(knightmate::parse_fen(written)) == written,
                "to_fen does not read back: ", written);
  static const auto game = load_game("knightmate");
  auto state = game->deserialize_state("fen=[" + written + "] turns=0 keys= history=");
  knightmate::Move list[knightmate::kMaxMoves];
  const int count = position.legal_moves(list);
  std::vector<std::string> generated, from_state;
  for (int i = 0; i < count; ++i) generated.push_back(knightmate::move_to_uci(list[i]));
  for (const Action action : state->legal_actions())
    from_state.push_back(state->action_to_string(action));
  std::sort(generated.begin(), generated.end());
  std::sort(from_state.begin(), from_state.end());
  // The game may end a position that still has moves (a draw by rule): then it has none.
  fuzz::require(from_state == generated || (state->is_terminal() && from_state.empty()),
                "the game's legal moves differ from the position's: ", written);
  fuzz::check_state(*state, fuzz::seed_of(written));
  for (const std::string_view move : split_words(moves)) {
    if (state->is_terminal()) break;
    try {
      state->apply_action(state->string_to_action(move));
    } catch (const std::invalid_argument&) {
    }
  }
  return 0;
}
