// Self-play on several threads: the same games whatever the thread count, one group the
// games of a single SelfPlay, too many threads refused, a failure on a worker rethrown.
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "env/registry/game_list.h"
#include "tests/cpp/agents/hash_evaluator.h"
#include "training/selfplay/parallel_self_play.h"

namespace knightgym {
namespace {

template <Game G>
bool same_games(const std::vector<Trajectory<G>>& a, const std::vector<Trajectory<G>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const Trajectory<G>& x = a[i];
    const Trajectory<G>& y = b[i];
    if (x.size() != y.size() || x.plies != y.plies || x.rule_set != y.rule_set ||
        x.truncated != y.truncated || x.returns != y.returns || x.policy_begin != y.policy_begin ||
        x.policy_actions != y.policy_actions || x.policy_probs != y.policy_probs ||
        x.root_values != y.root_values)
      return false;
    for (int s = 0; s < x.size(); ++s)
      if (std::memcmp(&x.states[s], &y.states[s], sizeof x.states[s]) != 0) return false;
  }
  return true;
}

AzConfig small_search() {
  AzConfig config;
  config.sims = 8;
  return config;
}

// `steps` steps of `games` games in groups of `group` on `threads` threads, each thread
// with an evaluator of its own; the finished games in the order handed over.
template <Game G>
std::vector<Trajectory<G>> played(const RuleSets<G>& rules, int games, int group, int threads,
                                  int steps) {
  std::vector<std::unique_ptr<HashEvaluator>> evaluators;
  std::vector<Evaluator*> each;
  for (int t = 0; t < threads; ++t)
    each.push_back(evaluators.emplace_back(new HashEvaluator(rules[0].info())).get());
  ParallelSelfPlay<G> self_play(rules, small_search(), each, games, group, 17, 4);
  std::vector<Trajectory<G>> finished;
  for (int s = 0; s < steps; ++s)
    self_play.step([&](Trajectory<G>&& game) { finished.push_back(std::move(game)); });
  return finished;
}

TEST_CASE("parallel self-play plays the same games on any number of threads",
          "[parallel_self_play]") {
  const std::shared_ptr<const AnyGame> game = load_game("knight_fight(max_turns=60)");
  const RuleSets<KnightFight> rules(typed_rules<KnightFight>(*game), game->spec(),
                                    {{"double_erase", {"optional", "forced", "off"}}});
  const auto one = played(rules, 9, 2, 1, 40);
  REQUIRE(one.size() >= 9);
  bool several_rule_sets = false;
  for (const auto& t : one) several_rule_sets = several_rule_sets || t.rule_set != one[0].rule_set;
  CHECK(several_rule_sets);
  CHECK(same_games(one, played(rules, 9, 2, 2, 40)));
  CHECK(same_games(one, played(rules, 9, 2, 5, 40)));
  // Another grouping searches other batches with other streams: other games.
  CHECK_FALSE(same_games(one, played(rules, 9, 3, 1, 40)));
}

TEST_CASE("parallel self-play in one group plays a single SelfPlay's games",
          "[parallel_self_play]") {
  const Tailten game;
  const RuleSets<Tailten> rules(game, "tailten");
  HashEvaluator evaluator(game.info());
  SelfPlay<Tailten> alone(rules, small_search(), evaluator, 6, 17, 4);
  std::vector<Trajectory<Tailten>> expected;
  for (int s = 0; s < 120; ++s)
    alone.step([&](Trajectory<Tailten>&& t) { expected.push_back(std::move(t)); });
  REQUIRE_FALSE(expected.empty());
  CHECK(same_games(expected, played(rules, 6, 0, 1, 120)));
  CHECK(same_games(expected, played(rules, 6, 6, 1, 120)));
}

TEST_CASE("parallel self-play counts every group's decisions and games", "[parallel_self_play]") {
  const Tailten game;
  const RuleSets<Tailten> rules(game, "tailten");
  HashEvaluator a(game.info()), b(game.info());
  Evaluator* each[] = {&a, &b};
  ParallelSelfPlay<Tailten> self_play(rules, small_search(), each, 5, 2, 3, 4);
  int64_t handed = 0;
  for (int s = 0; s < 25; ++s) self_play.step([&](Trajectory<Tailten>&&) { ++handed; });
  CHECK(self_play.decisions() == 25 * 5);
  CHECK(self_play.finished_games() == handed);
  CHECK(self_play.evaluations() > 0);
  CHECK(self_play.threads() == 2);
}

TEST_CASE("parallel self-play refuses more threads than groups", "[parallel_self_play]") {
  const Tailten game;
  const RuleSets<Tailten> rules(game, "tailten");
  HashEvaluator a(game.info()), b(game.info()), c(game.info());
  Evaluator* each[] = {&a, &b, &c};
  CHECK_THROWS_WITH(ParallelSelfPlay<Tailten>(rules, small_search(), each, 4, 2, 1),
                    Catch::Contains("on 3 threads: 4 games in groups of 2 make 2 groups"));
  CHECK_THROWS_AS(
      ParallelSelfPlay<Tailten>(rules, small_search(), std::span<Evaluator* const>(), 4, 2, 1),
      std::invalid_argument);
}

// Fails on its first call.
class FailingEvaluator final : public Evaluator {
 public:
  explicit FailingEvaluator(const GameInfo& info) : info_(info) {}
  const GameInfo& info() const override { return info_; }
  void evaluate(int, const float*, const uint8_t*, float*, float*) override {
    throw std::runtime_error("the network failed");
  }

 private:
  GameInfo info_;
};

TEST_CASE("parallel self-play rethrows a worker's failure after the step", "[parallel_self_play]") {
  const Tailten game;
  const RuleSets<Tailten> rules(game, "tailten");
  HashEvaluator fine(game.info());
  FailingEvaluator failing(game.info());
  Evaluator* each[] = {&fine, &failing};
  ParallelSelfPlay<Tailten> self_play(rules, small_search(), each, 4, 2, 1);
  int handed = 0;
  CHECK_THROWS_WITH(self_play.step([&](Trajectory<Tailten>&&) { ++handed; }), "the network failed");
  CHECK(handed == 0);
}

}  // namespace
}  // namespace knightgym
