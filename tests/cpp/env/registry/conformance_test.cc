// The conformance suite: random games of every registered game under every spec of
// tests/cpp/env/games/*/conformance_specs.txt, checking the contract at every step.
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <set>

#include "env/registry/registry.h"
#include "tests/cpp/env/registry/conformance_specs.h"

namespace knightgym {
namespace {

std::vector<float> observation(const AnyState& state, int player) {
  std::vector<float> out(state.game().info().observation_shape.size());
  state.observe(player, out.data());
  return out;
}

std::vector<uint8_t> mask(const AnyState& state) {
  std::vector<uint8_t> out(state.game().info().num_actions);
  state.legal_mask(out.data());
  return out;
}

// Same state: same text, same legal actions in the same order (what a seeded sampler
// picks by), same observation from every side.
void require_same(const AnyState& a, const AnyState& b) {
  REQUIRE(a.serialize() == b.serialize());
  REQUIRE(a.legal_actions() == b.legal_actions());
  REQUIRE(mask(a) == mask(b));
  for (int p = 0; p < a.game().info().num_players; ++p)
    REQUIRE(observation(a, p) == observation(b, p));
}

void check_state(const AnyGame& game, const AnyState& state) {
  const GameInfo& info = game.info();
  const std::vector<Action> legal = state.legal_actions();
  const std::vector<uint8_t> legal_mask = mask(state);
  REQUIRE(std::set<Action>(legal.begin(), legal.end()).size() == legal.size());
  std::vector<uint8_t> expected_mask(info.num_actions, 0);
  for (Action a : legal) {
    REQUIRE((a >= 0 && a < info.num_actions));
    expected_mask[a] = 1;
  }
  REQUIRE(legal_mask == expected_mask);

  const std::vector<float> returns = state.returns();
  REQUIRE(returns.size() == static_cast<size_t>(info.num_players));
  REQUIRE(std::accumulate(returns.begin(), returns.end(), 0.0f) == Approx(0.0f).margin(1e-6));
  REQUIRE(std::all_of(returns.begin(), returns.end(), [](float r) { return r >= -1 && r <= 1; }));
  if (state.is_terminal()) {
    REQUIRE(state.current_player() == kTerminalPlayer);
    REQUIRE(legal.empty());
  } else {
    REQUIRE(state.current_player() >= 0);
    REQUIRE(state.current_player() < info.num_players);
    REQUIRE(!legal.empty());
    REQUIRE_FALSE(state.is_truncated());
    REQUIRE(std::all_of(returns.begin(), returns.end(), [](float r) { return r == 0.0f; }));
  }
  for (int p = 0; p < info.num_players; ++p) {
    const std::vector<float> obs = observation(state, p);
    REQUIRE(std::all_of(obs.begin(), obs.end(), [&info](float x) {
      return x >= info.observation_low && x <= info.observation_high;  // false for NaN
    }));
  }

  const auto copy = game.deserialize_state(state.serialize());
  require_same(state, *copy);
  for (Action a : legal) REQUIRE(state.string_to_action(state.action_to_string(a)) == a);
}

// Plays `games` random games, or fewer where they are long, by the budget policy of
// tests/cpp/env/games/*/conformance_specs.txt (shared with tests/python/test_conformance.py).
void play_random_games(const std::string& spec, int games) {
  const auto game = load_game(spec);
  Rng rng(derive_seed(12345, std::hash<std::string>{}(spec)));
  const int64_t budget = 100 * static_cast<int64_t>(games);
  int64_t total_decisions = 0;
  for (int g = 0; g < games && (total_decisions < budget || g < 10); ++g) {
    auto state = game->new_initial_state(rng.next());
    int decisions = 0;
    while (true) {
      check_state(*game, *state);
      if (state->is_terminal()) break;
      const std::vector<Action> legal = state->legal_actions();
      const Action action = legal[rng.below(static_cast<uint32_t>(legal.size()))];
      auto clone = state->clone();
      clone->apply_action(action);
      state->apply_action(action);
      require_same(*state, *clone);
      REQUIRE(++decisions <= game->info().max_game_length);
    }
    total_decisions += decisions;
  }
}

TEST_CASE("every registered game is in the conformance list", "[conformance]") {
  std::set<std::string> listed;
  for (const auto& spec : testing::conformance_specs()) listed.insert(parse_spec(spec).name);
  for (const GameEntry& entry : registered_games()) {
    INFO(entry.name);
    REQUIRE(listed.count(std::string(entry.name)) == 1);
  }
}

TEST_CASE("random games keep the game contract", "[conformance]") {
  for (const auto& spec : testing::conformance_specs()) {
    INFO(spec);
    play_random_games(spec, testing::conformance_games());
  }
}

}  // namespace
}  // namespace knightgym
