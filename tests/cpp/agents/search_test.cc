// The searches on positions with a known answer: Knightmate mates in 1 and 2 (positions
// from random games that Fairy-Stockfish scored "mate 1" / "mate 2"), and, for every game,
// end positions from seeded random play where the mover can force a win and not every
// move does so; plus the search contracts: masks with one legal action, two simulations,
// Sequential Halving's schedule and sigma(completed Q).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "agents/az_agent.h"
#include "agents/gumbel.h"
#include "agents/mcts_agent.h"
#include "agents/random_variates.h"
#include "env/core/heuristic.h"
#include "env/games/knightmate/fen.h"
#include "env/registry/typed_code.h"

namespace knightgym {
namespace {

Knightmate knightmate_from(const std::string& fen) {
  Knightmate::Params params;
  params.start = knightmate::parse_fen(fen);
  return Knightmate(params);
}

template <Game G>
typename G::State initial(const G& game) {
  typename G::State state;
  Rng rng(0);
  game.init(state, rng);
  return state;
}

// Whether `player` can force a return of 1 (a win; first place) within `depth` decisions,
// every other player playing against it.
template <Game G>
bool forced_win(const G& game, const typename G::State& state, int player, int depth) {
  if (game.terminal(state)) {
    float returns[kMaxPlayers];
    game.returns(state, returns);
    return returns[player] == 1.0f;
  }
  if (depth == 0) return false;
  Action legal[G::kMaxActions];
  const int n = game.legal_actions(state, legal);
  const bool mover = game.current_player(state) == player;
  for (int i = 0; i < n; ++i) {
    typename G::State next = state;
    game.apply(next, legal[i]);
    if (forced_win(game, next, player, depth - 1) == mover) return mover;
  }
  return !mover;
}

template <Game G>
bool wins_by(const G& game, const typename G::State& state, Action action, int depth) {
  const int player = game.current_player(state);
  typename G::State next = state;
  game.apply(next, action);
  return forced_win(game, next, player, depth - 1);
}

// The mates: each position's first move is checked by the rules, not against a list.
constexpr const char* kMatesIn1[] = {
    "m7/r2Bpmbp/1R1r4/p1p3k1/5Kp1/1PP2PPP/1M3R2/8 w - - 5 46",
    "m5B1/6km/8/1pp3P1/p1p4P/1r1P4/2q2RK1/3bb3 b - - 0 68",
    "2Rrk3/1m2p3/q2r4/1p1b2m1/1K2pQ1b/8/1P5P/5R2 b - - 2 53",
};
constexpr const char* kMatesIn2[] = {
    "2m3mr/3Bp2p/rp5b/p1p1P3/4k1p1/1PP3PP/M2B1P2/R3K2R w - - 1 31",
    "1m2k1r1/5pm1/1p1p2p1/1rp1pMP1/pq2PP1p/7P/2PP2R1/M1bbKB2 b - - 3 44",
    "m5m1/6k1/6P1/1pp4P/p1P4K/4r3/1qR4b/3b4 b - - 8 77",
};

TEST_CASE("mcts mates in 1 in Knightmate", "[search]") {
  for (const char* fen : kMatesIn1) {
    INFO(fen);
    const Knightmate game = knightmate_from(fen);
    const auto state = initial(game);
    REQUIRE_FALSE(game.terminal(state));
    MctsAgent<Knightmate> mcts(game, {.sims = 400}, 1);
    const Action action = mcts.act(state);
    INFO(game.action_to_string(state, action));
    CHECK(wins_by(game, state, action, 1));
  }
}

TEST_CASE("mcts mates in 2 in Knightmate", "[search]") {
  for (const char* fen : kMatesIn2) {
    INFO(fen);
    const Knightmate game = knightmate_from(fen);
    const auto state = initial(game);
    // No mate in 1 here: the search must see through a reply.
    Action legal[Knightmate::kMaxActions];
    const int n = game.legal_actions(state, legal);
    for (int i = 0; i < n; ++i) REQUIRE_FALSE(wins_by(game, state, legal[i], 1));
    MctsAgent<Knightmate> mcts(game, {.sims = 20000}, 1);
    const Action action = mcts.act(state);
    INFO(game.action_to_string(state, action));
    CHECK(wins_by(game, state, action, 3));
    CHECK(mcts.last_report().value == 1.0f);  // proven, not estimated
  }
}

TEST_CASE("AlphaZero searches mate in 1 with the uniform evaluator", "[search]") {
  for (const bool gumbel : {false, true}) {
    for (const char* fen : kMatesIn1) {
      INFO(fen << (gumbel ? " gumbel" : " puct"));
      const Knightmate game = knightmate_from(fen);
      const auto state = initial(game);
      auto evaluator = std::make_shared<UniformEvaluator>(game.info());
      AzConfig config;
      config.gumbel = gumbel;
      config.sims = 200;
      // Gumbel searches only the sampled top-k; with flat priors, consider every move.
      config.considered = 256;
      AzAgent<Knightmate> az(game, config, evaluator, 3);
      CHECK(wins_by(game, state, az.act(state), 1));
    }
  }
}

// Positions from seeded random games of `game` where the mover can force a win within
// `depth` decisions but some legal move does not.
template <Game G>
std::vector<typename G::State> decisive_positions(const G& game, int depth, int wanted) {
  std::vector<typename G::State> found;
  Rng rng(11);
  for (int g = 0; g < 4000 && static_cast<int>(found.size()) < wanted; ++g) {
    std::vector<typename G::State> history;
    typename G::State state;
    game.init(state, rng);
    while (!game.terminal(state)) {
      history.push_back(state);
      game.apply(state, sample_legal_action(game, state, rng));
    }
    // The last few positions before the end.
    const int from = std::max(0, static_cast<int>(history.size()) - 4);
    for (int i = static_cast<int>(history.size()) - 1; i >= from; --i) {
      const auto& s = history[i];
      Action legal[G::kMaxActions];
      const int n = game.legal_actions(s, legal);
      int winning = 0;
      for (int a = 0; a < n; ++a) winning += wins_by(game, s, legal[a], depth);
      if (winning > 0 && winning < n) {
        found.push_back(s);
        break;
      }
    }
  }
  return found;
}

template <Game G>
void check_finds_wins(const G& game, int depth) {
  const auto positions = decisive_positions(game, depth, 8);
  REQUIRE(positions.size() >= 4);
  for (size_t i = 0; i < positions.size(); ++i) {
    INFO(G::kName << " position " << i << "\n" << game.render(positions[i]));
    MctsAgent<G> mcts(game, {.sims = 3000}, i);
    CHECK(wins_by(game, positions[i], mcts.act(positions[i]), depth));
  }
}

// Knightmate's random games end by the turn limit, not in positions to win: its mates
// are the tests above.
TEST_CASE("mcts plays the winning move in end positions of the games random play ends",
          "[search]") {
  SECTION("knight_fight") { check_finds_wins(KnightFight(), 3); }
  SECTION("double_duel") { check_finds_wins(DoubleDuel(), 3); }
  SECTION("tailten") { check_finds_wins(Tailten(), 3); }
  SECTION("knights_challenge duel") {
    KnightsChallenge::Params params;
    params.mode = KnightsChallenge::Mode::kDuel;
    check_finds_wins(KnightsChallenge(params), 1);
  }
  SECTION("knights_challenge ffa4") { check_finds_wins(KnightsChallenge(), 1); }
}

// Positions where the mover has a single legal action, from seeded random play.
template <Game G>
std::vector<typename G::State> forced_positions(const G& game, int wanted) {
  std::vector<typename G::State> found;
  Rng rng(5);
  for (int g = 0; g < 500 && static_cast<int>(found.size()) < wanted; ++g) {
    typename G::State state;
    game.init(state, rng);
    while (!game.terminal(state) && static_cast<int>(found.size()) < wanted) {
      Action legal[G::kMaxActions];
      if (game.legal_actions(state, legal) == 1) found.push_back(state);
      game.apply(state, sample_legal_action(game, state, rng));
    }
  }
  return found;
}

TEST_CASE("PUCT and Gumbel play the only legal action, with 2 simulations", "[search]") {
  const DoubleDuel game;  // pawn fills and forced steps give single legal actions
  const auto positions = forced_positions(game, 20);
  REQUIRE(positions.size() == 20);
  auto evaluator = std::make_shared<UniformEvaluator>(game.info());
  for (const bool gumbel : {false, true}) {
    for (const int sims : {1, 2, 16}) {
      AzConfig config;
      config.gumbel = gumbel;
      config.sims = sims;
      config.dirichlet_fraction = 0.25f;
      AzAgent<DoubleDuel> az(game, config, evaluator, 9);
      for (const auto& state : positions) {
        Action legal[DoubleDuel::kMaxActions];
        game.legal_actions(state, legal);
        CHECK(az.act(state) == legal[0]);
      }
    }
  }
}

TEST_CASE("with 2 simulations a search plays a legal action and its policy is on the mask",
          "[search]") {
  {
    using G = KnightsChallenge;
    const auto loaded = load_game("knights_challenge");
    const G& game = typed_rules<G>(*loaded);
    auto evaluator = std::make_shared<UniformEvaluator>(game.info());
    Rng rng(2);
    typename G::State state;
    game.init(state, rng);
    for (const bool gumbel : {false, true}) {
      AzConfig config;
      config.gumbel = gumbel;
      config.sims = 2;
      SearchBatch<G> batch(game, config, *evaluator);
      const uint64_t seed = 4;
      for (int ply = 0; ply < 50 && !game.terminal(state); ++ply) {
        batch.run(std::span(&state, 1), &seed);
        std::vector<uint8_t> mask(game.info().num_actions);
        game.legal_mask(state, mask.data());
        std::vector<float> policy(game.info().num_actions);
        batch.search(0).policy(policy.data());
        float sum = 0;
        for (int a = 0; a < game.info().num_actions; ++a) {
          if (!mask[a]) REQUIRE(policy[a] == 0.0f);
          sum += policy[a];
        }
        REQUIRE(sum == Approx(1.0f));
        const Action action = batch.search(0).best_action();
        REQUIRE(mask[action] == 1);
        REQUIRE(batch.search(0).report().sims == 2);
        game.apply(state, action);
      }
    }
  }
}

TEST_CASE("Sequential Halving's schedule of root visits", "[search]") {
  // m = 4, n = 12: each of 4 actions once, then the best 2 three times each, twice over.
  CHECK(gumbel::considered_visits(4, 12) == std::vector<int>{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4});
  CHECK(gumbel::considered_visits(1, 3) == std::vector<int>{0, 1, 2});
  // m = 16, n = 2: two of the sixteen are tried.
  CHECK(gumbel::considered_visits(16, 2) == std::vector<int>{0, 0});
  // n = 64, m = 16 (log2 m = 4): 16 x 1, then 8 x 2, 4 x 4, 2 x 8 ... until 64.
  const auto schedule = gumbel::considered_visits(16, 64);
  REQUIRE(schedule.size() == 64);
  CHECK(std::count(schedule.begin(), schedule.begin() + 16, 0) == 16);
  CHECK(std::vector<int>(schedule.begin() + 16, schedule.begin() + 20) ==
        std::vector<int>{1, 1, 1, 1});
}

TEST_CASE("sigma of completed Q values", "[search]") {
  // Two visited children (q 1 and -1, 3 and 1 visits), one unvisited: its completed value
  // mixes the raw value 0.5 with the prior-weighted q of the visited ones.
  const float q[] = {1.0f, -1.0f, 0.0f};
  const int visits[] = {3, 1, 0};
  const float prior[] = {0.5f, 0.25f, 0.25f};
  float out[3];
  gumbel::completed_q(3, q, visits, prior, 0.5f, {50.0f, 0.1f}, out);
  const float weighted = (0.5f * 1 - 0.25f * 1) / 0.75f;  // 1/3
  const float mixed = (0.5f + 4 * weighted) / 5;          // 11/30
  const float scale = (50.0f + 3) * 0.1f;
  CHECK(out[0] == Approx(scale));  // the best is rescaled to 1
  CHECK(out[1] == Approx(0.0f));   // the worst to 0
  CHECK(out[2] == Approx(scale * (mixed + 1) / 2));
}

TEST_CASE("random variates: Dirichlet draws sum to 1, gamma has its mean", "[search]") {
  Rng rng(1);
  float weights[10];
  for (int draw = 0; draw < 100; ++draw) {
    dirichlet(rng, 0.3, 10, weights);
    float sum = 0;
    for (const float w : weights) {
      REQUIRE(w >= 0.0f);
      sum += w;
    }
    REQUIRE(sum == Approx(1.0f));
  }
  for (const double shape : {0.3, 1.0, 4.0}) {
    double mean = 0;
    for (int i = 0; i < 20000; ++i) mean += gamma_variate(rng, shape) / 20000;
    CHECK(mean == Approx(shape).epsilon(0.05));
  }
}

// Knight Fight's value from its score-difference plane, for the observer: values are
// relative (values[0] is the observer's), so a search that reads them right plays for its
// own score.
class ScoreEvaluator final : public Evaluator {
 public:
  explicit ScoreEvaluator(const GameInfo& info) : uniform_(info) {}
  const GameInfo& info() const override { return uniform_.info(); }
  void evaluate(int n, const float* observations, const uint8_t* masks, float* priors,
                float* values) override {
    uniform_.evaluate(n, observations, masks, priors, values);
    const int size = info().observation_shape.size();
    const int plane = info().observation_shape.height * info().observation_shape.width;
    for (int row = 0; row < n; ++row) {
      const float difference =
          observations[row * size + KnightFight::kPlaneScoreDifference * plane];
      values[2 * row] = std::tanh(difference);  // increasing: keeps the order of tallies
      values[2 * row + 1] = -values[2 * row];
    }
  }

 private:
  UniformEvaluator uniform_;
};

TEST_CASE("values are read relative to the observer", "[search]") {
  // Gumbel with every root action considered, one visit each and no noise: the choice is
  // the child with the best value for the mover, i.e. greedy's choice.
  const KnightFight game;
  ScoreEvaluator evaluator(game.info());
  Rng rng(4);
  int checked = 0;
  for (int g = 0; g < 30; ++g) {
    KnightFight::State state;
    game.init(state, rng);
    while (!game.terminal(state)) {
      const int player = game.current_player(state);
      Action legal[KnightFight::kMaxActions];
      const int n = game.legal_actions(state, legal);
      float best = -1e9f, worst = 1e9f;
      bool ends = false;
      for (int i = 0; i < n; ++i) {
        KnightFight::State next = state;
        game.apply(next, legal[i]);
        ends = ends || game.terminal(next);
        best = std::max(best, heuristic_value(game, next, player));
        worst = std::min(worst, heuristic_value(game, next, player));
      }
      if (!ends && best > worst) {
        AzConfig config;
        config.sims = n;
        config.considered = 256;
        config.gumbel_scale = 0;
        SearchBatch<KnightFight> batch(game, config, evaluator);
        const uint64_t seed = 1;
        batch.run(std::span(&state, 1), &seed);
        KnightFight::State next = state;
        game.apply(next, batch.search(0).best_action());
        REQUIRE(heuristic_value(game, next, player) == best);
        ++checked;
      }
      game.apply(state, sample_legal_action(game, state, rng));
    }
  }
  CHECK(checked > 50);
}

TEST_CASE("virtual loss is undone and every simulation is counted once", "[search]") {
  {
    using G = KnightsChallenge;
    const auto loaded = load_game("knights_challenge(mode=ffa3)");
    const G& game = typed_rules<G>(*loaded);
    UniformEvaluator evaluator(game.info());
    for (const bool gumbel : {false, true}) {
      AzConfig config;
      config.gumbel = gumbel;
      config.sims = 64;
      config.leaves = 8;
      SearchBatch<G> batch(game, config, evaluator);
      Rng rng(1);
      typename G::State state;
      game.init(state, rng);
      const uint64_t seed = 2;
      batch.run(std::span(&state, 1), &seed);
      const Tree& tree = batch.search(0).tree();
      CHECK(tree[0].visits == 64 + 1);  // the root's own evaluation, then 64 simulations
      int children_visits = 0;
      for (int32_t i = 0; i < tree.size(); ++i) {
        REQUIRE(tree[i].in_flight == 0);
        REQUIRE(tree[i].pending == 0);
      }
      for (int c = 0; c < tree[0].num_children; ++c)
        children_visits += tree[tree[0].first_child + c].visits;
      CHECK(children_visits == 64);
    }
  }
}

}  // namespace
}  // namespace knightgym
