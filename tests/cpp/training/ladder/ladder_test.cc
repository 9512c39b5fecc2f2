// The rating ladder: the Elo fit recovers known ratings and the textbook interval, the
// anchor and schedules are as documented, bad options are refused before any game, and a
// small real ladder orders random, greedy and MCTS and does not depend on the threads,
// with or without batches.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "env/registry/registry.h"
#include "training/ladder/ladder.h"

namespace knightgym {
namespace {

using Catch::Contains;

double expected(double elo, double opponent) {
  return 1 / (1 + std::pow(10, (opponent - elo) / 400));
}

LadderPair pair_of(int first, int second, int64_t games, int64_t wins, int64_t draws = 0) {
  LadderPair pair{first, second, {}};
  pair.first_score.games = games;
  pair.first_score.wins = wins;
  pair.first_score.draws = draws;
  pair.first_score.losses = games - wins - draws;
  return pair;
}

// A million games at the expected score of the two ratings (rounded to whole wins).
LadderPair expected_pair(int first, int second, double first_elo, double second_elo) {
  constexpr int64_t kGames = 1000000;
  return pair_of(first, second, kGames, std::llround(expected(first_elo, second_elo) * kGames));
}

TEST_CASE("ladder: the fit recovers known ratings from their expected scores", "[ladder]") {
  const std::vector<double> truth = {0, 150, 400, 420};
  std::vector<LadderPair> pairs;
  for (const auto& [i, j] : ladder_pairs(4, LadderSchedule::kRoundRobin))
    pairs.push_back(expected_pair(i, j, truth[i], truth[j]));
  const std::vector<LadderRating> ratings = fit_ladder(4, pairs, 0, 0);
  for (int i = 0; i < 4; ++i) {
    INFO("agent " << i);
    CHECK(ratings[i].elo == Approx(truth[i]).margin(0.01));
    CHECK(ratings[i].games == 3000000);
  }
  CHECK(ratings[0].half_width == 0);
  // Anchored elsewhere, every rating shifts by the anchor's.
  const std::vector<LadderRating> shifted = fit_ladder(4, pairs, 2, 0);
  for (int i = 0; i < 4; ++i) CHECK(shifted[i].elo == Approx(truth[i] - 400).margin(0.01));
}

TEST_CASE("ladder: two agents get the textbook interval", "[ladder]") {
  // 400 games at score p = 3/4 for the second (a draw is half a win): the Elo difference
  // is 400 log10(p / (1 - p)), and the variance of the logistic strength difference is
  // 1 / (n p (1 - p)), in Elo times 400 / ln 10.
  const std::vector<LadderPair> pairs = {pair_of(0, 1, 400, 60, 80)};
  const std::vector<LadderRating> ratings = fit_ladder(2, pairs, 0, 0);
  const double p = 0.75;
  const double half = 1.959963984540054 * std::sqrt(1 / (400 * p * (1 - p))) * 400 / std::log(10);
  CHECK(ratings[1].elo == Approx(400 * std::log10(3.0)).epsilon(1e-9));
  CHECK(ratings[1].half_width == Approx(half).epsilon(1e-9));
  CHECK(ratings[1].score == Approx(p));
  CHECK(ratings[0].score == Approx(1 - p));
  // A clean sweep stays finite with the prior's virtual draws: 2 draws in 12 games.
  const double elo = fit_ladder(2, {pair_of(0, 1, 10, 0)}, 0, 2)[1].elo;
  CHECK(elo == Approx(400 * std::log10(11.0)).epsilon(1e-6));
}

TEST_CASE("ladder: schedules, anchor and refusals", "[ladder]") {
  CHECK(ladder_pairs(4, LadderSchedule::kRoundRobin) ==
        std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}});
  CHECK(ladder_pairs(4, LadderSchedule::kGauntlet) ==
        std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {0, 3}});
  // Two challengers play each other and everyone; the others do not meet.
  CHECK(ladder_pairs(4, LadderSchedule::kGauntlet, 2) ==
        std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}});
  CHECK_THROWS_WITH(parse_ladder_schedule("swiss"), Contains("unknown schedule 'swiss'"));

  const auto game = load_game("knight_fight");
  LadderOptions options;
  options.games = 2;
  options.agents = {"greedy", "random"};
  CHECK(run_ladder(game, options).anchor == 1);  // random, wherever it stands
  options.anchor = "greedy";
  CHECK(run_ladder(game, options).anchor == 0);
  options.anchor = "mcts";
  CHECK_THROWS_WITH(run_ladder(game, options), Contains("the anchor 'mcts' is not one of"));
  options.anchor = "";
  options.agents = {"random"};
  CHECK_THROWS_WITH(run_ladder(game, options), Contains("at least two agents"));
  options.agents = {"mcts:sims=8", "mcts(sims=8)"};
  CHECK_THROWS_WITH(run_ladder(game, options), Contains("listed twice"));
  options.agents = {"random", "minimax"};
  CHECK_THROWS_WITH(run_ladder(game, options), Contains("unknown agent 'minimax'"));
  options.agents = {"random", "greedy"};
  options.challengers = 2;
  CHECK_THROWS_WITH(run_ladder(game, options),
                    Contains("challengers must be from 1 to the agents less one (1), got 2"));
  options.challengers = 1;
  options.batch = -1;
  CHECK_THROWS_WITH(run_ladder(game, options), Contains("batch must be 0"));
  options.batch = 0;
  options.chunk = 4;
  CHECK_THROWS_WITH(run_ladder(game, options), Contains("ladder: chunk (4) needs a batch"));
  options.batch = 8;
  CHECK_THROWS_WITH(run_ladder(game, options),
                    Contains("chunk (4) must be 0 or at least the batch (8)"));
  options.batch = 2;
  options.threads = 0;
  CHECK_THROWS_WITH(run_ladder(game, options),
                    Contains("ladder: threads must be in 1..1024, got 0"));
}

TEST_CASE("ladder: random, greedy and MCTS in order, the same on any thread count", "[ladder]") {
  const auto game = load_game("tailten");
  LadderOptions options;
  options.agents = {"mcts:sims=100", "random", "greedy"};
  options.games = 40;
  options.seed = 3;
  const LadderResult one = run_ladder(game, options);
  REQUIRE(one.anchor == 1);
  CHECK(one.ratings[1].elo == 0);
  CHECK(one.ratings[2].elo > 0);
  CHECK(one.ratings[0].elo > one.ratings[2].elo);
  CHECK(one.pairs.size() == 3);
  for (const LadderPair& pair : one.pairs) CHECK(pair.first_score.games == 40);
  options.threads = 2;
  const LadderResult two = run_ladder(game, options);
  for (size_t i = 0; i < one.ratings.size(); ++i) CHECK(two.ratings[i].elo == one.ratings[i].elo);
  // In chunks of 8 games played together, the chunks of every pair shared by the threads.
  options.batch = 8;
  const LadderResult batched = run_ladder(game, options);
  options.threads = 1;
  const LadderResult batched_one = run_ladder(game, options);
  REQUIRE(batched.pairs.size() == 3);
  for (size_t p = 0; p < 3; ++p) {
    CHECK(batched.pairs[p].first_score.games == 40);
    CHECK(batched.pairs[p].first_score.wins == batched_one.pairs[p].first_score.wins);
    CHECK(batched.pairs[p].first_score.draws == batched_one.pairs[p].first_score.draws);
  }
  for (size_t i = 0; i < one.ratings.size(); ++i)
    CHECK(batched.ratings[i].elo == batched_one.ratings[i].elo);
  const std::string json = ladder_json(one);
  CHECK_THAT(json, Contains("\"anchor\": \"random\"") && Contains("\"first_wins\""));
  // No agent loads a network, and the ladder says so (a network's file and hash when one
  // does: networks_used, tests/cpp/agents/network_test.cc).
  CHECK_THAT(json, Contains("\"networks\": []"));
}

}  // namespace
}  // namespace knightgym
