// The action texts of every game (Knightmate's UCI moves among them): the first byte picks
// a registered game at its default rules, the bytes up to the first newline pick the moves
// that reach a position, and each further line is a move's text there. string_to_action either
// refuses a text or names an action in range (legal or not: the contract leaves legality to
// apply_action), whose own text reads back to it.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_checks.h"

using namespace knightgym;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::vector<GameEntry>& games = registered_games();
  const auto game = load_game(std::string(games[data[0] % games.size()].name));
  const auto [path, texts] = fuzz::first_line(fuzz::text_of(data + 1, size - 1));
  auto state = game->new_initial_state(0);
  for (const char choice : path) {
    if (state->is_terminal()) break;
    const std::vector<Action> legal = state->legal_actions();
    state->apply_action(legal[static_cast<unsigned char>(choice) % legal.size()]);
  }
  std::string_view rest = texts;
  while (!rest.empty()) {
    const auto [text, after] = fuzz::first_line(rest);
    rest = after;
    Action action = -1;
    try {
      action = state->string_to_action(text);
    } catch (const std::invalid_argument&) {
      continue;
    }
    fuzz::require(action >= 0 && action < game->info().num_actions, "'", text,
                  "' names an action out of range");
    const std::vector<Action> legal = state->legal_actions();
    if (std::find(legal.begin(), legal.end(), action) != legal.end())
      fuzz::require(state->string_to_action(state->action_to_string(action)) == action,
                    "the text of '", text, "' does not read back");
  }
  return 0;
}
