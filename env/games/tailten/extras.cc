// Tailten's extras (env/core/extras.h): the score, which the returns only sign.
#include <array>
#include <span>
#include <string>
#include <vector>

#include "env/games/tailten/tailten.h"
#include "util/json_writer.h"

namespace knightgym {
namespace {

std::vector<int> both(const std::array<int, 2>& values) { return {values[0], values[1]}; }

std::string score(const Tailten& game, const Tailten::State& state) {
  const Tailten::Score score = game.score(state);
  JsonWriter out;
  out.begin_object();
  out.key("kingdoms").array(both(score.kingdoms));
  out.key("territory").array(both(score.territory));
  out.key("match_points").array(both(score.match_points));
  out.key("winner").value(score.winner);
  return out.end_object().text();
}

constexpr StateExtra<Tailten> kExtras[] = {
    {"score",
     "{'kingdoms': [red, blue], 'territory': [red, blue], 'match_points': [red, blue], "
     "'winner': 0, 1 or -1 for a draw} of this position (final once the game is over).",
     &score},
};

}  // namespace

std::span<const StateExtra<Tailten>> Tailten::extras() { return kExtras; }

}  // namespace knightgym
