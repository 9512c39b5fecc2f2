// What every game's rule tests need, written once for any game of the contract
// (env/core/game.h): a game from its spec, a fresh state, the legal actions as actions or as
// sorted names, a line of play that must be legal move by move, returns, observations and
// rejected state texts. Each game's test adds only what is its own (boards, squares, planes).
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "env/core/game.h"
#include "env/core/params.h"
#include "env/core/perft.h"
#include "env/core/rng.h"
#include "env/registry/registry.h"

namespace knightgym::testing {

using Strings = std::vector<std::string>;

inline Strings sorted(Strings items) {
  std::sort(items.begin(), items.end());
  return items;
}

// Names in one line for a failure message, "(none)" for no names.
inline std::string joined(const Strings& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ' ';
    out += name;
  }
  return out.empty() ? std::string("(none)") : out;
}

// Perft (env/core/perft.h) of an independent reference game, a copyable value whose
// `legal(game)` lists the actions of the player to move (none once over) and whose
// `play(game, action)` applies one: the reference side of each game's known perft counts.
template <class Reference, class Legal, class Play>
uint64_t reference_perft(const Reference& game, int depth, const Legal& legal, const Play& play) {
  if (depth == 0) return 1;
  const auto actions = legal(game);
  if (depth == 1) return actions.size();
  uint64_t leaves = 0;
  for (const auto& action : actions) {
    Reference child = game;
    play(child, action);
    leaves += reference_perft(child, depth - 1, legal, play);
  }
  return leaves;
}

// The known perft counts of the start of `spec` (seed 0) at depths 1, 2, ...: the engine's
// counts (env/core/perft.h, on the typed game and through the registry) and the
// reference's, from `reference` at the same start, must all be them.
template <Game G, class Reference, class Legal, class Play>
void check_known_perft(std::string_view spec, const Reference& reference,
                       const std::vector<uint64_t>& known, const Legal& legal, const Play& play) {
  ParamReader reader(parse_spec(spec));
  const G game(G::read_params(reader));
  typename G::State start;
  Rng rng(0);
  game.init(start, rng);
  const std::unique_ptr<AnyState> registered = load_game(spec)->new_initial_state(0);
  for (int depth = 1; depth <= static_cast<int>(known.size()); ++depth) {
    INFO(spec << " at depth " << depth);
    CHECK(perft(game, start, depth) == known[depth - 1]);
    CHECK(registered->perft(depth) == known[depth - 1]);
    CHECK(reference_perft(reference, depth, legal, play) == known[depth - 1]);
  }
}

// The game of a spec such as "knight_fight(layout=identity)"; unknown keys fail.
template <Game G>
G game_from_spec(std::string_view spec) {
  ParamReader reader(parse_spec(spec));
  const G game(G::read_params(reader));
  reader.finish();
  return game;
}

template <Game G>
typename G::State new_state(const G& game, uint64_t seed = 0) {
  typename G::State s{};
  Rng rng(seed);
  game.init(s, rng);
  return s;
}

// The legal actions in the order legal_actions lists them.
template <Game G>
std::vector<Action> legal(const G& game, const typename G::State& s) {
  std::vector<Action> out(G::kMaxActions);
  out.resize(static_cast<size_t>(game.legal_actions(s, out.data())));
  return out;
}

// The legal actions as their strings, sorted.
template <Game G>
Strings legal_names(const G& game, const typename G::State& s) {
  Strings out;
  for (const Action action : legal(game, s)) out.push_back(game.action_to_string(s, action));
  return sorted(out);
}

// Applies the named actions in turn, each required to be legal where it is played.
template <Game G>
void play(const G& game, typename G::State& s, std::initializer_list<std::string_view> line) {
  for (const std::string_view name : line) {
    INFO("action " << name << " in " << game.serialize(s));
    const Action action = game.string_to_action(s, name);
    const std::vector<Action> allowed = legal(game, s);
    REQUIRE(std::find(allowed.begin(), allowed.end(), action) != allowed.end());
    game.apply(s, action);
  }
}

// The returns, required to sum to zero as the contract says.
template <Game G>
std::vector<float> returns(const G& game, const typename G::State& s) {
  std::vector<float> out(static_cast<size_t>(game.info().num_players), 99.0f);
  game.returns(s, out.data());
  REQUIRE(std::accumulate(out.begin(), out.end(), 0.0f) == Approx(0.0f).margin(1e-6));
  return out;
}

// The observation from `player`'s side, over a buffer filled with -1 so that entries the
// game forgets to write show.
template <Game G>
std::vector<float> observe(const G& game, const typename G::State& s, int player) {
  std::vector<float> out(static_cast<size_t>(game.info().observation_shape.size()), -1.0f);
  game.observe(s, player, out.data());
  return out;
}

// Requires deserialize to refuse `text` with the common prefix and a message naming `why`.
template <Game G>
void require_state_rejected(const G& game, const std::string& text, const std::string& why) {
  INFO("text: " << text);
  REQUIRE_THROWS_AS(game.deserialize(text), std::invalid_argument);
  REQUIRE_THROWS_WITH(game.deserialize(text),
                      Catch::Contains("cannot read state") && Catch::Contains(why));
}

}  // namespace knightgym::testing
