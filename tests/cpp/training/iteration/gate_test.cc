// The gate of expert iteration: the child's results are read from its seats however the
// seats rotate, the sequential test keeps a clearly stronger child and discards a
// clearly weaker one early, a test cut short at its games decides by the ratio's sign
// and says so, bad settings are refused by name, and the gate's chunks are the games of
// one unbroken series.
#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>
#include <vector>

#include "agents/agent_kinds.h"
#include "env/registry/registry.h"
#include "tests/cpp/training/balance/game_records.h"
#include "training/iteration/gate.h"

using namespace knightgym;
using testing::record;

namespace {

// `games` games of the child (agent 0) against its parent, seats alternating, the child's
// result in each given by `result(g)`.
GateTally tally_of(int games, double (*result)(int)) {
  std::vector<GameRecord> records;
  for (int g = 0; g < games; ++g) {
    const auto r = static_cast<float>(result(g));
    const bool child_first = g % 2 == 0;
    records.push_back(child_first ? record({r, -r}, {0, 1}, 10) : record({-r, r}, {1, 0}, 10));
  }
  GateTally tally;
  add_gate_games(tally, records);
  return tally;
}

}  // namespace

TEST_CASE("gate: the child's result is the mean return of its seats, in any seat") {
  GateTally tally;
  const std::vector<GameRecord> records = {
      record({-1, 1}, {1, 0}, 10),                // the child in seat 1 wins
      record({1, -1}, {1, 0}, 10),                // and loses
      record({0, 0}, {0, 1}, 10),                 // a draw
      record({1, -1, 1, -1}, {0, 1, 0, 1}, 10),   // four seats, the child in two: +1
      record({1, -1, -1, 1}, {0, 1, 0, 1}, 10)};  // its seats cancel: a draw
  add_gate_games(tally, records);
  CHECK(tally.games() == 5);
  CHECK(tally.wins == 2);
  CHECK(tally.draws == 2);
  CHECK(tally.losses == 1);
  CHECK(tally.results.sum == 1.0);
  CHECK(tally.score() == Approx(0.6));
}

TEST_CASE("gate: the sequential test keeps a stronger child and discards a weaker one early") {
  GateOptions options;  // H0: mean 0, H1: mean 0.1, alpha = beta = 0.05, 400 games at most
  const GateTally stronger = tally_of(64, [](int g) { return g % 4 == 3 ? -1.0 : 1.0; });
  const GateVerdict keep = gate_verdict(options, stronger);
  CHECK(keep.decision == GateDecision::kKeep);
  CHECK_FALSE(keep.truncated);
  CHECK(keep.sprt.llr >= keep.sprt.upper);

  const GateTally weaker = tally_of(64, [](int g) { return g % 4 == 3 ? 1.0 : -1.0; });
  CHECK(gate_verdict(options, weaker).decision == GateDecision::kDiscard);

  // Too few games to decide anything, however one-sided.
  CHECK(gate_verdict(options, tally_of(8, [](int) { return 1.0; })).decision ==
        GateDecision::kUndecided);
  CHECK(gate_verdict(options, GateTally{}).decision == GateDecision::kUndecided);
}

TEST_CASE("gate: cut short at its games, the test decides by the ratio's sign and says so") {
  GateOptions options;
  options.max_games = 32;
  // A child a little above the midpoint (a0 + a1) / 2 = 0.05: +3 in 32 games against
  // games that mostly cancel, undecided by either bound.
  const GateTally slightly_better = tally_of(
      32, [](int g) { return g < 3 ? 1.0 : (g % 2 == 0 ? 1.0 : -1.0) * (g < 31 ? 1.0 : 0.0); });
  const GateVerdict verdict = gate_verdict(options, slightly_better);
  REQUIRE(verdict.sprt.decision == SprtDecision::kContinue);
  CHECK(verdict.truncated);
  CHECK(verdict.decision == (verdict.sprt.llr > 0 ? GateDecision::kKeep : GateDecision::kDiscard));
  CHECK(verdict.sprt.llr > 0);

  const GateTally even = tally_of(32, [](int g) { return g % 2 == 0 ? 1.0 : -1.0; });
  const GateVerdict no_better = gate_verdict(options, even);
  CHECK(no_better.truncated);
  CHECK(no_better.decision == GateDecision::kDiscard);  // mean 0: below the midpoint

  options.max_games = 64;  // the same games, more to come: undecided
  CHECK(gate_verdict(options, even).decision == GateDecision::kUndecided);
}

TEST_CASE("gate: bad settings are refused by name") {
  const auto refused = [](GateOptions options, const std::string& words) {
    CHECK_THROWS_WITH(check_gate_options(options), Catch::Contains(words));
  };
  GateOptions odd;
  odd.chunk_games = 7;
  refused(odd, "gate batch: 7, not an even number");
  GateOptions ragged;
  ragged.max_games = 100;
  refused(ragged, "gate games: 100, not a multiple of the gate batch 40");
  GateOptions no_sims;
  no_sims.sims = 0;
  refused(no_sims, "gate sims: 0");
  GateOptions bounds;
  bounds.sprt.a1 = -0.1;
  CHECK_THROWS_AS(check_gate_options(bounds), std::invalid_argument);
  GateOptions none;
  none.max_games = 0;  // no gate: allowed
  CHECK_NOTHROW(check_gate_options(none));
}

TEST_CASE("gate: its chunks are the games of one unbroken series, the child first") {
  const auto game = load_game("tailten");
  const auto child = std::make_shared<const AgentFactory>("mcts:sims=4", game);
  const auto parent = std::make_shared<const AgentFactory>("random", game);
  GateOptions options;
  options.chunk_games = 4;
  std::vector<GameRecord> chunks = play_gate_chunk(*game, child, parent, options, 0, 7);
  const std::vector<GameRecord> second = play_gate_chunk(*game, child, parent, options, 1, 7);
  chunks.insert(chunks.end(), second.begin(), second.end());

  ArenaOptions arena;
  arena.games = 8;
  arena.seed = 7;
  const std::vector<GameRecord> series =
      play_arena_in_batches(*game, {child, parent}, arena, {.batch = 4});
  CHECK(chunks == series);
  CHECK(chunks[0].agent_of_seat[0] == 0);  // the child opens the first game
  CHECK(chunks[1].agent_of_seat[1] == 0);
  CHECK(gate_agent("m.pt", options, "cpu") == "az:model=m.pt,sims=64,device=cpu");
}
