// Balance runs: the figures of hand-made games (outcomes, ranks, advantage, balance,
// lengths) for 2, 3 and 4 players; the seats of real 3- and 4-player tournaments; the
// grid of rule sets; the sequential test's stop; independence from the thread count;
// balance.json as the run's only file (Python renders balance.md from it).
#include <catch2/catch.hpp>

#include <filesystem>
#include <iterator>
#include <map>

#include "agents/any_agent.h"
#include "env/registry/registry.h"
#include "tests/cpp/test_files.h"
#include "tests/cpp/training/balance/game_records.h"
#include "training/balance/balance.h"
#include "training/balance/result_json.h"

using namespace knightgym;
using testing::record;

TEST_CASE("a two-player rule set's figures", "[balance]") {
  // One agent: blocks of one game.
  const std::vector<GameRecord> games{record({1, -1}, {0, 0}, 10), record({1, -1}, {0, 0}, 20),
                                      record({-1, 1}, {0, 0}, 30), record({0, 0}, {0, 0}, 40),
                                      record({0, 0}, {0, 0}, 50, true)};
  const RuleSetFigures f = measure_rule_set(games, 2, 1);
  CHECK(f.games == 5);
  CHECK(f.blocks == 5);
  CHECK(f.seats[0].wins == 2);
  CHECK(f.seats[0].losses == 1);
  CHECK(f.seats[0].draws == 2);
  CHECK(f.seats[1].wins == 1);
  CHECK(f.seats[1].losses == 2);
  // Rates' intervals are confidence sequences, tuned at the 5 games.
  CHECK(f.seats[0].win.low == Approx(rate_sequence(2, 5, {5}).low));
  CHECK(f.seats[0].win.low < wilson_interval(2, 5).low);
  CHECK(f.advantage_sequence.low < f.advantage.interval().low);
  CHECK(f.seats[0].ranks == std::vector<int64_t>{4, 1});  // draws share rank 1
  // Advantage: mean of r_0 = (1 + 1 - 1 + 0 + 0) / 5 = P(win 0) - P(win 1).
  CHECK(f.advantage.mean == Approx(0.2));
  CHECK(f.balance == Approx(1 - (0.4 - 0.2)));
  CHECK(f.decisive == 3);
  CHECK(f.natural_draws == 1);
  CHECK(f.truncated == 1);
  CHECK(f.truncated_draws == 1);
  CHECK(f.length.decisions.mean == 30);
  CHECK(f.length.min == 10);
  CHECK(f.length.max == 50);
  CHECK(f.length.percentiles[2] == 30);  // the median
  int64_t counted = 0;
  for (const int64_t count : f.length.histogram) counted += count;
  CHECK(counted == 5);
  CHECK(f.agents.size() == 1);
  CHECK(f.agents[0].elo == 0);
  CHECK_FALSE(f.pentanomial);
}

TEST_CASE("pairs of two agents: the paired score, the pentanomial and the ratings", "[balance]") {
  // Blocks of two: agent 0 in seat 0, then in seat 1, from one start.
  const std::vector<GameRecord> games{
      record({1, -1}, {0, 1}, 5), record({-1, 1}, {1, 0}, 5),   // agent 0: 2 points
      record({1, -1}, {0, 1}, 5), record({1, -1}, {1, 0}, 5),   // 1 point (seat 0 won both)
      record({0, 0}, {0, 1}, 5),  record({1, -1}, {1, 0}, 5),   // 1/2 point
      record({-1, 1}, {0, 1}, 5), record({1, -1}, {1, 0}, 5)};  // 0 points
  const RuleSetFigures f = measure_rule_set(games, 2, 2);
  CHECK(f.blocks == 4);
  REQUIRE(f.pentanomial);
  CHECK(*f.pentanomial == std::array<int64_t, 5>{1, 1, 1, 0, 1});
  CHECK(f.agents[0].score.samples == 4);
  CHECK(f.agents[0].score.mean == Approx((1 + 0.5 + 0.25 + 0) / 4));
  CHECK(f.agents[0].wins == 3);
  CHECK(f.agents[0].draws == 1);
  CHECK(f.agents[0].losses == 4);
  // Agent 0 scored 3.5 of 8: below agent 1.
  CHECK(f.agents[0].elo < 0);
  CHECK(f.agents[0].elo == Approx(-f.agents[1].elo));
  // Seat 0 won 5 of 8, lost 2: advantage 3/8, over 4 blocks.
  CHECK(f.advantage.mean == Approx(3.0 / 8));
  CHECK(f.advantage.samples == 4);
  CHECK_THROWS_WITH(measure_rule_set({games.begin(), games.begin() + 3}, 2, 2),
                    Catch::Contains("whole blocks of 2"));
}

TEST_CASE("three- and four-player outcomes and ranks", "[balance]") {
  // Knights Challenge returns: (sides below - sides above) / (sides - 1).
  const std::vector<GameRecord> ffa4{
      record({1, 0, 0, -1}, {0, 0, 0, 0}, 100),                    // 18, 10, 10, 8: ranks 1 2 2 4
      record({-1, 1.f / 3, 1.f / 3, 1.f / 3}, {0, 0, 0, 0}, 100),  // three share first
      record({0, 0, 0, 0}, {0, 0, 0, 0}, 100, true)};              // all equal: a truncated draw
  const RuleSetFigures f = measure_rule_set(ffa4, 4, 1);
  CHECK(f.seats[0].ranks == std::vector<int64_t>{2, 0, 0, 1});
  CHECK(f.seats[1].ranks == std::vector<int64_t>{2, 1, 0, 0});
  CHECK(f.seats[2].ranks == std::vector<int64_t>{2, 1, 0, 0});
  CHECK(f.seats[3].ranks == std::vector<int64_t>{2, 0, 0, 1});
  CHECK(f.seats[0].wins == 1);
  CHECK(f.seats[1].wins == 1);  // shared first place wins
  CHECK(f.seats[1].losses == 1);
  CHECK(f.seats[3].wins == 1);
  CHECK(f.seats[3].losses == 1);
  for (const SeatFigures& seat : f.seats) CHECK(seat.draws == 1);
  // Advantage: r_0 - mean of returns, the returns summing to 0 here.
  CHECK(f.advantage.mean == Approx(0.0).margin(1e-6));  // (1 - 1 + 0) / 3
  CHECK(f.balance == Approx(1.0));                      // every seat won one game
  CHECK(f.truncated_draws == 1);

  // Teams: both members of the winning team win and share rank 1; the losers share rank 3.
  const RuleSetFigures team = measure_rule_set(
      {record({1, -1, 1, -1}, {0, 1, 0, 1}, 50), record({1, -1, 1, -1}, {1, 0, 1, 0}, 50)}, 4, 2);
  CHECK(team.seats[0].wins == 2);
  CHECK(team.seats[2].wins == 2);
  CHECK(team.seats[1].losses == 2);
  CHECK(team.seats[0].ranks == std::vector<int64_t>{2, 0, 0, 0});
  CHECK(team.seats[3].ranks == std::vector<int64_t>{0, 0, 2, 0});
  CHECK(team.balance == 0);
  CHECK(team.advantage.mean == Approx(1.0));
  CHECK(team.agents[0].wins == 1);
  CHECK(team.agents[1].wins == 1);
}

TEST_CASE("real 3- and 4-player tournaments seat every agent equally", "[balance]") {
  for (const auto& [spec, players] : {std::pair{"knights_challenge(mode=ffa3,max_turns=60)", 3},
                                      std::pair{"knights_challenge(mode=ffa4,max_turns=60)", 4}}) {
    const auto game = load_game(spec);
    std::vector<std::shared_ptr<const AgentFactory>> agents;
    for (const char* agent : {"random", "greedy", "mcts:sims=2"})
      agents.push_back(std::make_shared<const AgentFactory>(agent, game));
    ArenaOptions options;
    options.games = 12;
    options.threads = 2;
    const auto records = play_arena(*game, agents, options);
    std::map<std::pair<int, int>, int> seated;  // (seat, agent) -> games
    for (const GameRecord& r : records) {
      REQUIRE(static_cast<int>(r.returns.size()) == players);
      for (int s = 0; s < players; ++s) ++seated[{s, r.agent_of_seat[s]}];
    }
    INFO(spec);
    for (int s = 0; s < players; ++s)
      for (int a = 0; a < 3; ++a) CHECK(seated[{s, a}] == 4);
    const RuleSetFigures f = measure_rule_set(records, players, 3);
    int64_t wins = 0;
    for (int s = 0; s < players; ++s) {
      int64_t ranked = 0;
      for (const int64_t count : f.seats[s].ranks) ranked += count;
      CHECK(ranked == 12);
      CHECK(f.seats[s].wins + f.seats[s].draws + f.seats[s].losses == 12);
      CHECK(f.seats[s].wins == f.seats[s].ranks[0] - f.seats[s].draws);
      wins += f.seats[s].wins;
    }
    CHECK(wins >= 12 - f.seats[0].draws);  // every game without a draw has a winner
    // Games played in chunks (as the sequential test plays them) equal one series.
    options.first = 6;
    options.games = 6;
    const auto tail = play_arena(*game, agents, options);
    for (int g = 0; g < 6; ++g) {
      CHECK(tail[g].returns == records[6 + g].returns);
      CHECK(tail[g].agent_of_seat == records[6 + g].agent_of_seat);
    }
  }
}

TEST_CASE("sweeps expand to a grid of loaded rule sets", "[balance]") {
  const auto grid = expand_grid(
      "knight_fight(max_turns=80)",
      {parse_sweep("double_erase=optional,forced,off"), parse_sweep("mirror_on_moves=true,false")});
  REQUIRE(grid.size() == 6);
  CHECK(grid[0].spec == load_game("knight_fight(max_turns=80)")->spec());
  CHECK(rule_set_label(grid[1]) == "double_erase=optional, mirror_on_moves=false");
  CHECK(rule_set_label(grid[5]) == "double_erase=off, mirror_on_moves=false");
  CHECK(grid[5].spec == load_game("knight_fight(double_erase=off,mirror_on_moves=false,"
                                  "max_turns=80)")
                            ->spec());
  CHECK(rule_set_label(expand_grid("tailten", {}).front()) == "default rules");
  // A sweep may override a parameter of the base spec; bracketed values keep commas.
  CHECK(expand_grid("tailten(first_player=1)", {parse_sweep("first_player=0")})[0].spec ==
        load_game("tailten")->spec());
  CHECK(parse_sweep("safe_squares=[f5,g8],none").values ==
        std::vector<std::string>{"[f5,g8]", "none"});

  CHECK_THROWS_WITH(expand_grid("knight_fight", {parse_sweep("double_erase=sometimes")}),
                    Catch::Contains("sometimes"));
  CHECK_THROWS_WITH(expand_grid("knight_fight", {parse_sweep("colour=red")}),
                    Catch::Contains("colour"));
  CHECK_THROWS_WITH(
      expand_grid("knight_fight", {parse_sweep("max_turns=5"), parse_sweep("max_turns=6")}),
      Catch::Contains("twice"));
  CHECK_THROWS_WITH(parse_sweep("max_turns"), Catch::Contains("KEY=V1,V2"));
  CHECK_THROWS_WITH(parse_sweep("max_turns=5,,6"), Catch::Contains("empty value"));
  CHECK_THROWS_WITH(parse_sweep("max_turns=5,5"), Catch::Contains("twice"));
  CHECK(parse_sprt("a1=0.1,beta=0.2").a1 == 0.1);
  CHECK(parse_sprt("").alpha == 0.05);
  CHECK_THROWS_WITH(parse_sprt("a2=0.1"), Catch::Contains("a2"));
  CHECK_THROWS_WITH(parse_sprt("a0=0.2,a1=0.1"), Catch::Contains("a0 must be below a1"));
}

TEST_CASE("a balance run: the sequential test stops, threads change nothing", "[balance]") {
  BalanceOptions options;
  options.game = "knight_fight";
  options.agents = {"mcts:sims=8"};
  options.games = 2000;
  options.threads = 2;
  options.seed = 3;
  options.sprt = SprtSettings{0.0, 0.05, 0.05, 0.05};
  options.check_every = 50;
  // Knight Fight's first seat wins about 58% against itself: H1, long before 2000 games.
  const BalanceResult result = run_balance(options);
  const RuleSetResult& rules = result.rule_sets.front();
  REQUIRE(rules.sprt);
  CHECK(rules.sprt->state.decision == SprtDecision::kAcceptH1);
  CHECK(rules.figures.games < 2000);
  CHECK(rules.figures.games % 50 == 0);
  CHECK(rules.sprt->state.llr >= rules.sprt->state.upper);

  options.threads = 1;
  const BalanceResult one_thread = run_balance(options);
  CHECK(one_thread.rule_sets.front().figures.games == rules.figures.games);
  CHECK(one_thread.rule_sets.front().figures.advantage.mean == rules.figures.advantage.mean);
  CHECK(one_thread.rule_sets.front().figures.length.decisions.mean ==
        rules.figures.length.decisions.mean);

  // A progress callback that throws stops the run, threads and all.
  struct Stop {};
  CHECK_THROWS_AS(run_balance(options, [](const BalanceProgress&) { throw Stop{}; }), Stop);

  options.games = 3;
  options.agents = {"random", "greedy"};
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("multiple of the number of agents"));
  options.games = 4;
  options.agents = {"mcts:sims=0"};
  CHECK_THROWS(run_balance(options));
  options.agents = {};
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("at least one agent"));
}

TEST_CASE("a balance run writes balance.json alone", "[balance]") {
  BalanceOptions options;
  options.game = "knight_fight(max_turns=20)";
  options.agents = {"random"};
  options.games = 4;
  const BalanceResult result = run_balance(options);
  const std::string dir = testing::temporary_dir("balance_json") + "/out";
  write_balance_json(dir, result);
  const std::string json = testing::read_bytes(dir + "/balance.json");
  CHECK(json == balance_json(result));
  CHECK(json.rfind("{\"game\": \"knight_fight(max_turns=20)\", ", 0) == 0);
  CHECK(json.find("\"label\": \"default rules\"") != std::string::npos);
  // No balance.md: knightgym.balance renders it from balance.json.
  CHECK(std::distance(std::filesystem::directory_iterator(dir),
                      std::filesystem::directory_iterator()) == 1);
}
