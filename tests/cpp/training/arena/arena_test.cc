// Every search beats the random agent in at least 90% of 100 seat-rotated games of every
// game (seeded, so the counts are fixed), through the arena that `knightgym play` uses.
// In the 4-player modes the search plays one seat against three random agents and beats
// them when it ranks above all three. Batched series ([arena_batches], small enough for
// the thread sanitizer) share their chunks between the threads and give each series'
// records in order, the same on any thread count.
#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "env/registry/registry.h"
#include "training/arena/arena.h"

namespace knightgym {
namespace {

constexpr int kGames = 100;

int games_beating_random(const std::string& game_spec, const std::string& search) {
  const auto game = load_game(game_spec);
  const int players = game->info().num_players;
  std::vector<std::shared_ptr<const AgentFactory>> agents{
      std::make_shared<AgentFactory>(search, game)};
  const auto random = std::make_shared<AgentFactory>("random", game);
  for (int seat = 1; seat < players; ++seat) agents.push_back(random);
  const auto records = play_arena(*game, agents, {kGames, 2, 1});
  int beaten = 0;
  for (const GameRecord& record : records) {
    float search_return = -2, best_random = -2;
    for (int seat = 0; seat < players; ++seat) {
      float& slot = record.agent_of_seat[seat] == 0 ? search_return : best_random;
      slot = std::max(slot, record.returns[seat]);
    }
    beaten += search_return > best_random;
  }
  return beaten;
}

// The simulations a search needs to beat random in every game at its default rules: 64,
// or more where a game's board is large or its wins are far off.
int sims_for(std::string_view game) {
  if (game == "knightmate") return 128;
  if (game == "knights_challenge") return 200;
  return 64;
}

void check_beats_random(const std::string& search) {
  for (const GameEntry& entry : registered_games()) {
    const std::string spec = search + (search.find(':') == std::string::npos ? ":" : ",") +
                             "sims=" + std::to_string(sims_for(entry.name));
    const int beaten = games_beating_random(std::string(entry.name), spec);
    INFO(spec << " on " << entry.name << ": " << beaten << " of " << kGames);
    CHECK(beaten >= kGames * 9 / 10);
  }
}

TEST_CASE("mcts beats random in 90% of games of every game", "[arena]") {
  check_beats_random("mcts");
}

TEST_CASE("PUCT search beats random in 90% of games of every game", "[arena]") {
  check_beats_random("az:search=puct,rollouts=1");
}

TEST_CASE("Gumbel search beats random in 90% of games of every game", "[arena]") {
  check_beats_random("az:search=gumbel,rollouts=1");
}

}  // namespace
}  // namespace knightgym

namespace knightgym {
namespace {

TEST_CASE("scores: wins above 0, first places at the highest return, shared or not",
          "[arena_scores]") {
  // Four seats, agent 0 in seat 0, agent 1 in the others (as one network against three
  // copies of a search): 2nd place with a positive return is a win but no first place.
  const auto game = [](std::vector<int> agents, std::vector<float> returns) {
    GameRecord record;
    record.agent_of_seat = std::move(agents);
    record.returns = std::move(returns);
    return record;
  };
  const std::vector<GameRecord> records = {
      game({0, 1, 1, 1}, {1.0f, -1.0f, -1.0f / 3, 1.0f / 3}),  // agent 0 first
      game({0, 1, 1, 1}, {1.0f / 3, 1.0f, -1.0f, -1.0f / 3}),  // agent 0 second
      game({1, 0, 1, 1}, {0.5f, 0.5f, -0.5f, -0.5f}),          // first shared
  };
  const auto scores = score_agents(records, 2);
  CHECK(scores[0].games == 3);
  CHECK(scores[0].wins == 3);
  CHECK(scores[0].firsts == 2);
  CHECK(scores[1].firsts == 2);  // the second game's, and the shared one
}

TEST_CASE("scores: a tally added a part at a time equals the scores of all at once",
          "[arena_scores]") {
  const auto game = load_game("tailten");
  const std::vector<std::shared_ptr<const AgentFactory>> agents = {
      std::make_shared<const AgentFactory>("random", game),
      std::make_shared<const AgentFactory>("greedy", game)};
  const std::vector<GameRecord> all = play_arena(*game, agents, {.games = 30, .seed = 3});
  ScoreTally tally(2);
  for (size_t first = 0; first < all.size(); first += 7)
    tally.add(std::span(all).subspan(first, std::min<size_t>(7, all.size() - first)));
  const std::vector<AgentScore> parts = tally.scores(), whole = score_agents(all, 2);
  for (int a = 0; a < 2; ++a) {
    CHECK(parts[a].games == whole[a].games);
    CHECK(parts[a].wins == whole[a].wins);
    CHECK(parts[a].firsts == whole[a].firsts);
    CHECK(parts[a].score == Approx(whole[a].score));
    CHECK(parts[a].half_width == Approx(whole[a].half_width));
  }
  // And the parts are the series' own games: played from `first` on, they are the same.
  const std::vector<GameRecord> tail =
      play_arena(*game, agents, {.games = 9, .threads = 2, .seed = 3, .first = 21});
  CHECK(tail == std::vector<GameRecord>(all.begin() + 21, all.end()));
}

}  // namespace
}  // namespace knightgym

namespace knightgym {
namespace {

TEST_CASE("batched series: chunks on any threads, each series' records in order",
          "[arena_batches]") {
  const auto game = load_game("knight_fight(max_turns=40)");
  const auto agent = [&](const char* spec) { return std::make_shared<AgentFactory>(spec, game); };
  // Chunks of 2 games: the second series' start at game 3, cutting its blocks.
  constexpr int64_t kBatch = 2;
  const std::vector<Series> series = {{{agent("mcts:sims=4"), agent("random")}, 1, 0, 5},
                                      {{agent("greedy"), agent("mcts:sims=4")}, 2, 3, 3}};
  std::vector<std::vector<GameRecord>> alone;
  for (const Series& s : series)
    alone.push_back(play_arena_in_batches(
        *game, s.agents, {.games = s.games, .threads = 1, .seed = s.seed, .first = s.first},
        {.batch = kBatch}));
  REQUIRE(alone[0].size() == 5);
  // A chunk is play_games_together's games.
  CHECK(play_games_together(*game, series[0].agents, 2, 2, 1) ==
        std::vector<GameRecord>(alone[0].begin() + 2, alone[0].begin() + 4));
  for (const int threads : {1, 3}) {
    INFO(threads << " threads");
    std::vector<size_t> order;
    int64_t finished = 0;
    play_series_in_batches(
        *game, series, {.batch = kBatch}, threads,
        [&](size_t s, std::vector<GameRecord> records) {
          order.push_back(s);
          CHECK(records == alone[s]);
        },
        [&](int64_t games) {
          CHECK(games >= finished);
          finished = games;
        });
    CHECK(order == std::vector<size_t>{0, 1});
    CHECK(finished == 8);
  }
  const auto& agents = series[0].agents;
  CHECK_THROWS_WITH(play_arena_in_batches(*game, agents, {.games = 4}, {.batch = 0}),
                    Catch::Contains("batch must be at least 1"));
  CHECK_THROWS_WITH(play_arena_in_batches(*game, agents, {.games = 4}, {.batch = 4, .chunk = 3}),
                    Catch::Contains("chunk (3) must be 0 or at least the batch (4)"));
  CHECK_THROWS_WITH(play_arena_in_batches(*game, agents, {.games = 4, .threads = 0}, {.batch = 2}),
                    Catch::Contains("threads must be in 1..1024, got 0"));
  CHECK_THROWS_WITH(play_arena(*game, agents, {.games = 4, .threads = 1025}),
                    Catch::Contains("threads must be in 1..1024, got 1025"));
  // An exception from progress stops the run and comes back.
  CHECK_THROWS_WITH(play_arena_in_batches(*game, agents, {.games = 40, .threads = 2}, {.batch = 2},
                                          [](int64_t) { throw std::runtime_error("stop"); }),
                    "stop");
}

TEST_CASE("refilled chunks: B games of C in play, the same on any threads", "[arena_batches]") {
  const auto game = load_game("knight_fight(max_turns=40)");
  const std::vector<std::shared_ptr<const AgentFactory>> agents{
      std::make_shared<AgentFactory>("mcts:sims=4", game),
      std::make_shared<AgentFactory>("random", game)};
  const ArenaOptions options{.games = 10, .threads = 1, .seed = 4, .first = 2};
  // Chunks of 4 games (the last of 2), 3 of them in play.
  const std::vector<GameRecord> refilled =
      play_arena_in_batches(*game, agents, options, {.batch = 3, .chunk = 4});
  REQUIRE(refilled.size() == 10);
  std::vector<GameRecord> chunks;
  for (const int64_t first : {2, 6, 10}) {
    const std::vector<GameRecord> chunk = play_games_together(
        *game, agents, first, std::min<int64_t>(4, 12 - first), 4, 0, nullptr, 3);
    chunks.insert(chunks.end(), chunk.begin(), chunk.end());
  }
  CHECK(refilled == chunks);
  CHECK(refilled != play_arena_in_batches(*game, agents, options, {.batch = 4}));  // all at once
  CHECK(play_arena_in_batches(*game, agents, {.games = 10, .threads = 3, .seed = 4, .first = 2},
                              {.batch = 3, .chunk = 4}) == refilled);
  // A chunk of the batch's size starts its games together: the games of batches alone.
  CHECK(play_arena_in_batches(*game, agents, options, {.batch = 4, .chunk = 4}) ==
        play_arena_in_batches(*game, agents, options, {.batch = 4}));
}

}  // namespace
}  // namespace knightgym
