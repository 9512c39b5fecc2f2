// The debug checks (env/core/check.h): in Debug and sanitizer builds every game's apply
// refuses an illegal action, a finished state and a state that breaks one of the game's
// invariants, naming what is wrong, and KNIGHTGYM_CHECK fails with its message. Release builds
// compile the checks to nothing, and this test says so; CI's sanitizer run (`make sanitize`) runs
// it with the checks on.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "env/core/check.h"
#include "env/core/sample.h"
#include "env/registry/game_list.h"

namespace knightgym {
namespace {

using Catch::Contains;

template <Game G>
void check_refusals(const G& game, const std::function<void(typename G::State&)>& corrupt) {
  INFO(G::kName);
  Rng rng(7);
  typename G::State s;
  game.init(s, rng);
  // The first state with an illegal action (every Tailten hill is legal at the start).
  const int num_actions = game.info().num_actions;
  std::vector<uint8_t> mask(static_cast<size_t>(num_actions));
  Action illegal = num_actions;
  while (illegal == num_actions) {
    game.legal_mask(s, mask.data());
    illegal = static_cast<Action>(std::find(mask.begin(), mask.end(), 0) - mask.begin());
    if (illegal == num_actions) game.apply(s, sample_legal_action(game, s, rng));
  }
  const typename G::State before = s;
  CHECK_THROWS_WITH(
      game.apply(s, illegal),
      Contains(std::string(G::kName)) && Contains("illegal action " + std::to_string(illegal)));
  CHECK(std::memcmp(&s, &before, sizeof s) == 0);  // refused before anything changed

  typename G::State broken = s;
  corrupt(broken);
  CHECK_THROWS_WITH(game.apply(broken, sample_legal_action(game, s, rng)),
                    Contains("breaks an invariant"));

  while (!game.terminal(s)) {
    REQUIRE(game.broken_invariant(s) == nullptr);
    game.apply(s, sample_legal_action(game, s, rng));
  }
  CHECK(game.broken_invariant(s) == nullptr);
  CHECK_THROWS_WITH(game.apply(s, 0), Contains("apply on a finished state"));
}

TEST_CASE("KNIGHTGYM_CHECK runs its condition and fails only where the debug checks are on",
          "[debug_checks]") {
  int runs = 0;
  KNIGHTGYM_CHECK(++runs == 1, "counted");
  CHECK(runs == (kDebugChecks ? 1 : 0));
  if (kDebugChecks)
    CHECK_THROWS_WITH(KNIGHTGYM_CHECK(runs == 2, "the count is " + std::to_string(runs)),
                      Contains("debug check failed") && Contains("the count is 1"));
  else
    CHECK_NOTHROW(KNIGHTGYM_CHECK(runs == 2, "never built"));
}

// Only where the checks are compiled; elsewhere tests/CMakeLists.txt lists it as not run.
#ifdef KNIGHTGYM_DEBUG_CHECKS
TEST_CASE("debug checks refuse illegal actions, finished states and broken invariants",
          "[debug_checks]") {
  check_refusals<KnightFight>(KnightFight(), [](auto& s) { s.score[0] = -1; });
  check_refusals<Knightmate>(Knightmate(), [](auto& s) {
    s.position.colors[knightmate::kBlack] |= s.position.colors[knightmate::kWhite];
  });
  check_refusals<DoubleDuel>(DoubleDuel(), [](auto& s) { ++s.reserve[0]; });
  check_refusals<KnightsChallenge>(KnightsChallenge(), [](auto& s) { s.lost[0] = 9; });
  check_refusals<Tailten>(Tailten(), [](auto& s) {
    s.forts[0] |= tailten::square_bit(1);
    s.forts[1] |= tailten::square_bit(1);
  });
}
#endif

}  // namespace
}  // namespace knightgym
