// Self-play chunks' bytes: games read back exactly as they were played, and every kind
// of bad input refused by name (not a chunk, damaged, another game or build, values no
// self-play writes).
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "agents/evaluator.h"
#include "env/registry/game_list.h"
#include "training/distributed/chunk.h"
#include "training/selfplay/self_play.h"

namespace knightgym {
namespace {

using Catch::Matchers::Contains;

const std::string kSpec = "knight_fight";

SelfPlayChunk<KnightFight> played_chunk(const KnightFight& game) {
  UniformEvaluator evaluator(game.info());
  AzConfig config;
  config.sims = 8;
  SelfPlay<KnightFight> self_play(game, config, evaluator, 3, 11, 4, {}, 0, 5);
  SelfPlayChunk<KnightFight> chunk{7, 120, 0, 0, 1.5, {}};
  while (!self_play.done())
    self_play.step([&](Trajectory<KnightFight>&& t) { chunk.games.push_back(std::move(t)); });
  chunk.decisions = self_play.decisions();
  chunk.evaluations = self_play.evaluations();
  return chunk;
}

TEST_CASE("chunk: the games read back exactly as played", "[chunk]") {
  const KnightFight game;
  const auto chunk = played_chunk(game);
  const auto back =
      decode_chunk<KnightFight>(encode_chunk(chunk, kSpec, 2), "chunk", kSpec, game.info());
  CHECK(back.number == 7);
  CHECK(back.version == 120);
  CHECK(back.decisions == chunk.decisions);
  CHECK(back.evaluations == chunk.evaluations);
  CHECK(back.seconds == 1.5);
  REQUIRE(back.games.size() == 5);
  for (size_t g = 0; g < back.games.size(); ++g) {
    const auto& a = chunk.games[g];
    const auto& b = back.games[g];
    REQUIRE(a.size() == b.size());
    CHECK(std::memcmp(a.states.data(), b.states.data(), a.states.size() * sizeof a.states[0]) == 0);
    CHECK(a.policy_begin == b.policy_begin);
    CHECK(a.policy_actions == b.policy_actions);
    CHECK(a.policy_probs == b.policy_probs);
    CHECK(a.root_values == b.root_values);
    CHECK(a.returns == b.returns);
    CHECK(a.plies == b.plies);
    CHECK(a.truncated == b.truncated);
  }
}

TEST_CASE("chunk: bad bytes are refused by name", "[chunk]") {
  const KnightFight game;
  auto chunk = played_chunk(game);
  const std::string bytes = encode_chunk(chunk, kSpec, 2);
  const auto decode = [&](const std::string& b, const std::string& spec = kSpec) {
    return decode_chunk<KnightFight>(b, "chunk 7", spec, game.info());
  };
  REQUIRE_THROWS_WITH(decode("KGTEACH1" + bytes.substr(8)),
                      Contains("chunk 7: not a self-play chunk"));
  REQUIRE_THROWS_WITH(decode(bytes.substr(0, 20)), Contains("damaged or truncated"));
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 1;
  REQUIRE_THROWS_WITH(decode(flipped), Contains("damaged"));
  REQUIRE_THROWS_WITH(
      decode(bytes, "knight_fight(layout=identity)"),
      Contains("holds games of knight_fight, not of knight_fight(layout=identity)"));
  // Values no search writes: a probability above 1, a root value outside [-1, 1].
  chunk.games[0].policy_probs[0] = 1.5f;
  REQUIRE_THROWS_WITH(decode(encode_chunk(chunk, kSpec, 2)), Contains("out of range"));
  chunk = played_chunk(game);
  chunk.games[1].root_values[0] = 2;
  REQUIRE_THROWS_WITH(decode(encode_chunk(chunk, kSpec, 2)), Contains("a root value of 2"));
}

}  // namespace
}  // namespace knightgym
