// Batched matches with fewer games in play than games to play: every call holds as many
// games as are in play until the last game has begun, a game that ends gives its place
// to the next, and each game is the one played with every game at once where the agents
// decide by the state alone.
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <span>
#include <vector>

#include "env/core/rng.h"
#include "env/games/knight_fight/knight_fight.h"
#include "env/registry/registry.h"
#include "env/registry/typed_code.h"
#include "training/arena/batched_match.h"

namespace knightgym {
namespace {

// Picks a legal action by a stream seeded from the legal actions: a choice of the state
// alone, varied enough to give games of many lengths. Keeps each act_batch's size.
class StateChooser final : public Agent<KnightFight> {
 public:
  explicit StateChooser(const KnightFight& game) : game_(game) {}
  Action act(const State& state, const SearchLimits&) override {
    Action legal[KnightFight::kMaxActions];
    const int count = game_.legal_actions(state, legal);
    uint64_t key = static_cast<uint64_t>(count);
    for (int i = 0; i < count; ++i) key = key * 1000003u + static_cast<uint64_t>(legal[i]);
    Rng rng(key);
    return legal[rng.below(static_cast<uint32_t>(count))];
  }
  void act_batch(std::span<const State> states, Action* out, const SearchLimits& limits,
                 SearchReport* reports) override {
    sizes.push_back(static_cast<int>(states.size()));
    Agent<KnightFight>::act_batch(states, out, limits, reports);
  }
  std::vector<int> sizes;

 private:
  const KnightFight& game_;
};

TEST_CASE("batched matches refill: full calls, every game the same as with all at once",
          "[arena_batches]") {
  const auto game = load_game("knight_fight(max_turns=30)");
  const KnightFight& rules = typed_rules<KnightFight>(*game);
  StateChooser all_at_once(rules), refilled(rules);
  Agent<KnightFight>* agents[] = {&all_at_once};
  const std::vector<GameRecord> together =
      play_batched(rules, std::span<Agent<KnightFight>* const>(agents), 11, 5, 3, 2);
  agents[0] = &refilled;
  const std::vector<GameRecord> records =
      play_batched(rules, std::span<Agent<KnightFight>* const>(agents), 11, 5, 3, 2, nullptr, 4);
  CHECK(records == together);
  // The games differ in length (the check needs that), so some ended and gave way.
  size_t shortest = SIZE_MAX, longest = 0;
  int64_t decisions = 0;
  for (const GameRecord& record : records) {
    shortest = std::min(shortest, record.actions.size());
    longest = std::max(longest, record.actions.size());
    decisions += record.decisions - 2;  // the 2 random opening plies are no agent's
  }
  REQUIRE(shortest < longest);
  CHECK(std::accumulate(refilled.sizes.begin(), refilled.sizes.end(), int64_t{0}) == decisions);
  CHECK(*std::max_element(refilled.sizes.begin(), refilled.sizes.end()) == 4);
  // Calls of fewer than 4 games only once no game is left to begin: within the last
  // games' span, no longer than the longest game.
  const auto short_calls = std::count_if(refilled.sizes.begin(), refilled.sizes.end(),
                                         [](int size) { return size < 4; });
  CHECK(static_cast<size_t>(short_calls) < longest);
  CHECK(std::is_sorted(refilled.sizes.begin() + (refilled.sizes.size() - short_calls),
                       refilled.sizes.end(), std::greater<>()));
  // With every game at once, the calls shrink from the first game's end on.
  CHECK(all_at_once.sizes.front() == 11);
  CHECK(all_at_once.sizes.size() == longest - 2);
  CHECK(refilled.sizes.size() > all_at_once.sizes.size());
}

}  // namespace
}  // namespace knightgym
