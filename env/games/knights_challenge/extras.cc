// Knights Challenge's extras (env/core/extras.h): the tallies, which the returns only
// rank, and the side of each player.
#include <span>
#include <string>
#include <vector>

#include "env/games/knights_challenge/knights_challenge.h"
#include "util/json_writer.h"

namespace knightgym {
namespace {

std::string tallies(const KnightsChallenge& game, const KnightsChallenge::State& state) {
  std::vector<int> tally(static_cast<size_t>(game.num_sides()));
  game.tallies(state, tally.data());
  return JsonWriter().array(tally).text();
}

std::string sides(const KnightsChallenge& game, const KnightsChallenge::State&) {
  std::vector<int> side;
  for (int player = 0; player < game.info().num_players; ++player)
    side.push_back(game.side_of_player(player));
  return JsonWriter().array(side).text();
}

constexpr StateExtra<KnightsChallenge> kExtras[] = {
    {"tallies",
     "The tally of each side in this position (camp knights, lines, captures, camp bonuses): "
     "one per colour in ffa4, ffa3 and duel; one per alliance or team (colours 0 and 2, then "
     "1 and 3) in alliance2 and team4.",
     &tallies},
    {"sides", "The side of each player, the index into tallies(state).", &sides},
};

}  // namespace

std::span<const StateExtra<KnightsChallenge>> KnightsChallenge::extras() { return kExtras; }

}  // namespace knightgym
