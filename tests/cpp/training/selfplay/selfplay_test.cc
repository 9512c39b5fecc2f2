// Self-play's games and the replay buffer: trajectories follow the rules and the
// search's policies, are reproducible from the seed, playout cap randomization records
// the full searches alone, a horizon ends games scored as truncated, and batches drawn
// from the buffer carry the right observation, mask, policy and value targets (the
// returns seen from the mover, mixed with the root values as asked); with a game budget,
// self-play plays exactly so many games.
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "env/core/sample.h"
#include "env/registry/game_list.h"
#include "training/selfplay/replay_buffer.h"
#include "training/selfplay/self_play.h"

namespace knightgym {
namespace {

template <Game G>
std::vector<Trajectory<G>> play(const G& game, bool gumbel, int games, uint64_t seed,
                                PlayoutCap cap = {}, int horizon = 0) {
  UniformEvaluator evaluator(game.info());
  AzConfig config;
  config.gumbel = gumbel;
  config.sims = 8;
  SelfPlay<G> self_play(game, config, evaluator, 6, seed, 4, cap, horizon);
  std::vector<Trajectory<G>> finished;
  while (static_cast<int>(finished.size()) < games)
    self_play.step([&](Trajectory<G>&& t) { finished.push_back(std::move(t)); });
  return finished;
}

template <Game G>
bool same_state(const typename G::State& a, const typename G::State& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST_CASE("self-play games follow the rules and the search's policy", "[selfplay]") {
  const Tailten game;
  for (const bool gumbel : {false, true}) {
    const auto games = play(game, gumbel, 12, 1);
    for (const auto& t : games) {
      REQUIRE(t.size() > 0);
      CHECK(t.plies == t.size());  // every decision recorded
      REQUIRE(t.returns.size() == 2);
      CHECK(t.returns[0] + t.returns[1] == 0.0f);
      REQUIRE(t.root_values.size() == 2 * t.states.size());
      for (int i = 0; i < t.size(); ++i) {  // zero-sum, as the returns
        CHECK(std::abs(t.root_values[2 * i]) <= 1.0f);
        CHECK(t.root_values[2 * i] + t.root_values[2 * i + 1] == Approx(0.0f).margin(1e-5));
      }
      for (int i = 0; i < t.size(); ++i) {
        std::vector<uint8_t> mask(game.info().num_actions);
        game.legal_mask(t.states[i], mask.data());
        float sum = 0;
        for (int32_t p = t.policy_begin[i]; p < t.policy_begin[i + 1]; ++p) {
          REQUIRE(mask[t.policy_actions[p]] == 1);
          sum += t.policy_probs[p];
        }
        REQUIRE(sum == Approx(1.0f));
        // The next state follows from this one by an action the policy gives mass to.
        bool follows = false;
        for (int32_t p = t.policy_begin[i]; p < t.policy_begin[i + 1]; ++p) {
          auto next = t.states[i];
          game.apply(next, t.policy_actions[p]);
          follows = follows || (i + 1 < t.size() ? same_state<Tailten>(next, t.states[i + 1])
                                                 : game.terminal(next));
        }
        REQUIRE(follows);
      }
    }
  }
}

TEST_CASE("playout cap randomization records the full searches alone", "[selfplay]") {
  const Tailten game;
  const auto games = play(game, true, 24, 2, PlayoutCap{2, 0.25});
  int64_t plies = 0, recorded = 0;
  for (const auto& t : games) {
    plies += t.plies;
    recorded += t.size();
    CHECK(t.root_values.size() == 2 * t.states.size());
  }
  INFO(recorded << " of " << plies << " decisions recorded");
  CHECK(recorded < plies);
  // The fixed seed's share; a quarter is expected.
  CHECK(static_cast<double>(recorded) / plies == Approx(0.25).margin(0.05));
  // Without the cap, the games are those of before it: no extra draws from the stream.
  const auto plain = play(game, true, 4, 2);
  const auto capped_full = play(game, true, 4, 2, PlayoutCap{0, 0.25});
  for (size_t g = 0; g < plain.size(); ++g)
    CHECK(plain[g].policy_probs == capped_full[g].policy_probs);
}

TEST_CASE("a horizon ends self-play games there, scored as the game scores a truncation",
          "[selfplay]") {
  // Knights Challenge's games last hundreds of moves; at the horizon its tally decides.
  KnightsChallenge::Params params;
  params.mode = KnightsChallenge::Mode::kDuel;
  const KnightsChallenge game(params);
  const int horizon = 60;
  const auto games = play(game, true, 6, 3, {}, horizon);
  int decided = 0;
  for (const auto& t : games) {
    CHECK(t.plies == horizon);
    CHECK(t.truncated);
    decided += t.returns[0] != 0;
    // Some move the search gave mass to in the last position leads to these returns.
    bool scored = false;
    const int last = t.size() - 1;
    for (int32_t p = t.policy_begin[last]; p < t.policy_begin[last + 1]; ++p) {
      auto end = t.states[last];
      game.apply(end, t.policy_actions[p]);
      REQUIRE_FALSE(game.terminal(end));
      end.end = End::kTruncated;
      float returns[2];
      game.returns(end, returns);
      scored = scored || (returns[0] == t.returns[0] && returns[1] == t.returns[1]);
    }
    CHECK(scored);
  }
  INFO(decided << " of " << games.size() << " games decided by the tally");
  CHECK(decided > 0);
}

TEST_CASE("self-play is reproducible from its seed", "[selfplay]") {
  const KnightFight game;
  const auto a = play(game, true, 8, 3);
  const auto b = play(game, true, 8, 3);
  REQUIRE(a.size() == b.size());
  for (size_t g = 0; g < a.size(); ++g) {
    REQUIRE(a[g].size() == b[g].size());
    for (int i = 0; i < a[g].size(); ++i)
      REQUIRE(same_state<KnightFight>(a[g].states[i], b[g].states[i]));
    REQUIRE(a[g].policy_probs == b[g].policy_probs);
  }
}

TEST_CASE("with a game budget, self-play plays exactly that many games and stops", "[selfplay]") {
  const KnightFight game;
  UniformEvaluator evaluator(game.info());
  AzConfig config;
  config.sims = 8;
  const auto play_budget = [&](int slots, int budget) {
    SelfPlay<KnightFight> self_play(game, config, evaluator, slots, 5, 4, {}, 0, budget);
    std::vector<Trajectory<KnightFight>> finished;
    int64_t plies = 0;
    while (!self_play.done())
      self_play.step([&](Trajectory<KnightFight>&& t) {
        plies += t.plies;
        finished.push_back(std::move(t));
      });
    CHECK(self_play.finished_games() == budget);
    CHECK(self_play.decisions() == plies);  // no game left half played
    return finished;
  };
  for (const auto& [slots, budget] : {std::pair{6, 10}, {6, 3}, {1, 2}}) {
    const auto games = play_budget(slots, budget);
    REQUIRE(static_cast<int>(games.size()) == budget);
    for (const auto& t : games) CHECK(t.returns.size() == 2);
    // The same games every time: the budget's games follow from the seed alone.
    const auto again = play_budget(slots, budget);
    for (size_t g = 0; g < games.size(); ++g) {
      REQUIRE(games[g].size() == again[g].size());
      REQUIRE(games[g].policy_probs == again[g].policy_probs);
    }
  }
}

template <Game G>
Trajectory<G> random_game(const G& game, uint64_t seed) {
  Rng rng(seed);
  Trajectory<G> t;
  typename G::State state;
  game.init(state, rng);
  std::vector<float> policy(game.info().num_actions);
  while (!game.terminal(state)) {
    std::vector<uint8_t> mask(game.info().num_actions);
    game.legal_mask(state, mask.data());
    const float share = 1.0f / static_cast<float>(std::count(mask.begin(), mask.end(), 1));
    for (size_t a = 0; a < policy.size(); ++a) policy[a] = mask[a] ? share : 0.0f;
    // A made-up root value per decision, distinct from the returns.
    const float root[3] = {0.01f * t.size(), -0.5f, 0.25f};
    t.add(state, policy, std::span<const float>(root, game.info().num_players));
    game.apply(state, sample_legal_action(game, state, rng));
  }
  t.returns.resize(game.info().num_players);
  game.returns(state, t.returns.data());
  return t;
}

TEST_CASE("the replay buffer keeps a window of whole games", "[selfplay]") {
  const Tailten game;
  ReplayBuffer<Tailten> buffer(100);
  int64_t added = 0;
  std::vector<int> sizes;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    auto t = random_game(game, seed);
    sizes.push_back(t.size());
    added += t.size();
    buffer.add(std::move(t));
    CHECK(buffer.added() == added);
    // The newest games that hold the window, and no older one.
    int64_t kept = 0;
    int games = 0;
    for (auto s = sizes.rbegin(); s != sizes.rend() && kept < 100; ++s) kept += *s, ++games;
    CHECK(buffer.size() == kept);
    CHECK(buffer.num_games() == games);
  }
  CHECK_THROWS_WITH(ReplayBuffer<Tailten>(0), Catch::Contains("at least 1"));
}

TEST_CASE("a drawn batch holds a decision's observation, mask, policy and returns", "[selfplay]") {
  KnightsChallenge::Params params;
  params.mode = KnightsChallenge::Mode::kFfa3;
  const KnightsChallenge game(params);
  const GameInfo info = game.info();
  const auto t = random_game(game, 7);
  ReplayBuffer<KnightsChallenge> buffer(1000000);
  buffer.add(Trajectory<KnightsChallenge>(t));
  const int batch = 64, obs_size = info.observation_shape.size();
  std::vector<float> observations(batch * obs_size), policies(batch * info.num_actions),
      values(batch * info.num_players);
  std::vector<uint8_t> masks(batch * info.num_actions);
  for (const float q_weight : {0.0f, 0.25f}) {
    Rng rng(1);
    buffer.sample(game, batch, rng, observations.data(), masks.data(), policies.data(),
                  values.data(), q_weight);
    std::vector<float> expected(obs_size);
    for (int row = 0; row < batch; ++row) {
      // Find the decision by its observation; then everything else must match it.
      int found = -1;
      for (int i = 0; i < t.size() && found < 0; ++i) {
        game.observe(t.states[i], game.current_player(t.states[i]), expected.data());
        if (std::equal(expected.begin(), expected.end(), observations.begin() + row * obs_size))
          found = i;
      }
      REQUIRE(found >= 0);
      const int mover = game.current_player(t.states[found]);
      for (int k = 0; k < 3; ++k) {
        const int player = (mover + k) % 3;
        REQUIRE(values[row * 3 + k] == Approx((1 - q_weight) * t.returns[player] +
                                              q_weight * t.root_values[found * 3 + player]));
      }
      float sum = 0;
      for (int a = 0; a < info.num_actions; ++a) {
        REQUIRE((policies[row * info.num_actions + a] > 0) ==
                (masks[row * info.num_actions + a] == 1));
        sum += policies[row * info.num_actions + a];
      }
      REQUIRE(sum == Approx(1.0f));
    }
  }
}

}  // namespace
}  // namespace knightgym
