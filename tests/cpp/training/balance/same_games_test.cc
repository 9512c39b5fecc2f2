// Rule sets that played the same games, seats permuted, are recognised as one sample;
// games merely alike in their counts are not.
#include <catch2/catch.hpp>

#include <random>

#include "tests/cpp/training/balance/game_records.h"
#include "training/balance/same_games.h"

using namespace knightgym;
using testing::record;

namespace {

// Seeded three-seat games of one agent and varied length; `order` says which seat of the
// game each of these seats held (a permutation: the same games, seats renamed).
RuleSetFigures three_seat_games(int games, uint64_t seed, std::vector<int> order = {0, 1, 2}) {
  std::mt19937_64 rng(seed);
  std::vector<GameRecord> records;
  for (int g = 0; g < games; ++g) {
    const std::vector<float> returns{static_cast<float>(rng() % 3), static_cast<float>(rng() % 3),
                                     static_cast<float>(rng() % 3)};
    std::vector<float> seated(3);
    for (int s = 0; s < 3; ++s) seated[s] = returns[order[s]];
    records.push_back(record(seated, {0, 0, 0}, 20 + static_cast<int>(rng() % 30)));
  }
  return measure_rule_set(records, 3, 1);
}

}  // namespace

TEST_CASE("the same games with the seats permuted are one sample", "[balance]") {
  const GamesFingerprint games = fingerprint(three_seat_games(200, 1));
  const GamesFingerprint mirrored = fingerprint(three_seat_games(200, 1, {2, 0, 1}));
  const GamesFingerprint others = fingerprint(three_seat_games(200, 2));
  // This rule set's seat s played as the other's seats[s].
  CHECK(same_games(mirrored, games) == std::vector<int>{2, 0, 1});
  CHECK(same_games(games, games) == std::vector<int>{0, 1, 2});
  CHECK(same_games(others, games).empty());

  const std::vector<GamesFingerprint> sweep{games, others, mirrored, games};
  const std::vector<SameGamesAs> matches = match_same_games(sweep);
  REQUIRE(matches.size() == 4);
  CHECK(matches[0].rule_set == -1);
  CHECK(matches[1].rule_set == -1);
  CHECK(matches[2].rule_set == 0);
  CHECK(matches[2].seats == std::vector<int>{2, 0, 1});
  CHECK(matches[3].rule_set == 0);  // the first that played them
  CHECK(matches[3].seats == std::vector<int>{0, 1, 2});
}

TEST_CASE("games alike in their counts alone are not the same games", "[balance]") {
  // Swapped outcomes, but other lengths: another sample.
  GamesFingerprint a = fingerprint(three_seat_games(200, 1));
  GamesFingerprint b = fingerprint(three_seat_games(200, 1, {1, 0, 2}));
  b.length_sd += 1e-9;
  CHECK(same_games(b, a).empty());
  // Too few games, or games all of one length, are never called the same.
  const GamesFingerprint few = fingerprint(three_seat_games(kLeastGamesToMatch - 1, 1));
  CHECK(same_games(few, few).empty());
  a.length_sd = 0;
  CHECK(same_games(a, a).empty());
  // Other numbers of seats.
  GamesFingerprint two = fingerprint(three_seat_games(200, 1));
  two.seats.pop_back();
  CHECK(same_games(two, fingerprint(three_seat_games(200, 1))).empty());
}
