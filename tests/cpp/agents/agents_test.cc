// Agents: specs, the greedy agent's choices, batched search equal to searches run alone,
// the counts of a timed evaluator (the self-play benchmark's).
// The LibTorch networks have their own tests (network_test.cc).
#include <algorithm>
#include <barrier>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/any_agent.h"
#include "agents/timed_evaluator.h"
#include "env/core/heuristic.h"
#include "env/registry/game_list.h"
#include "env/registry/typed_code.h"
#include "tests/cpp/agents/agent_checks.h"
#include "tests/cpp/agents/hash_evaluator.h"

namespace knightgym {
namespace {

TEST_CASE("agent specs: kinds, parameters, canonical form", "[agents]") {
  CHECK(read_agent_config("random").spec == "random");
  const AgentConfig mcts = read_agent_config("mcts:sims=400,c=2");
  CHECK(mcts.kind() == "mcts");
  CHECK(std::get<MctsConfig>(mcts.settings).sims == 400);
  CHECK(std::get<MctsConfig>(mcts.settings).c == 2.0);
  CHECK(mcts.spec == "mcts:sims=400,c=2,rollouts=1,solve=true");
  CHECK(read_agent_config("mcts(sims=400,c=2)").spec == mcts.spec);
  const AgentConfig az = read_agent_config("az:sims=8,search=puct,noise=0.25");
  CHECK_FALSE(std::get<AzKind::Config>(az.settings).search.gumbel);
  CHECK(std::get<AzKind::Config>(az.settings).search.dirichlet_fraction == 0.25f);
  CHECK(az.spec.find("dirichlet_alpha=0.3,") != std::string::npos);

  CHECK_THROWS_WITH(read_agent_config("alphabeta"),
                    Catch::Contains("unknown agent 'alphabeta'") && Catch::Contains("mcts"));
  CHECK_THROWS_WITH(read_agent_config("mcts:depth=3"),
                    Catch::Contains("depth") && Catch::Contains("sims"));
  CHECK_THROWS_WITH(read_agent_config("mcts:sims=0"), Catch::Contains("sims"));
  CHECK_THROWS_WITH(read_agent_config("az:search=minimax"), Catch::Contains("gumbel, puct"));
  CHECK_THROWS_WITH(read_agent_config("mcts:c=x"), Catch::Contains("expected a number"));

  CHECK(split_agent_specs("mcts:sims=400,c=2,random") ==
        std::vector<std::string>{"mcts:sims=400,c=2", "random"});
  CHECK(split_agent_specs("mcts(sims=4,c=2),greedy,az:sims=8") ==
        std::vector<std::string>{"mcts(sims=4,c=2)", "greedy", "az:sims=8"});
  CHECK_THROWS_WITH(split_agent_specs("random,,greedy"), Catch::Contains("empty agent"));
  // Refusals of long inputs quote only their start.
  const std::string many = std::string(100000, 'r') + ",,greedy";
  CHECK_THROWS_WITH(split_agent_specs(many),
                    Catch::Contains("empty agent in '" + std::string(60, 'r') + "...'"));
  CHECK_THROWS_WITH(read_agent_config(std::string(60000, 'a')),
                    Catch::Contains("'" + std::string(60, 'a') + "...'"));
  for (const std::string& text : {many, std::string(60000, 'a'), "mcts:sims=" + many}) {
    try {
      text == many ? (void)split_agent_specs(text) : (void)read_agent_config(text);
      FAIL("accepted");
    } catch (const std::invalid_argument& error) {
      CHECK(std::string(error.what()).size() < 400);
    }
  }
}

TEST_CASE("the agent factory checks specs and states", "[agents]") {
  const auto fight = load_game("knight_fight");
  const auto tailten = load_game("tailten");
  CHECK_THROWS_WITH(AgentFactory("mcts:sims=-1", fight), Catch::Contains("sims"));
#if KNIGHTGYM_TORCH
  CHECK_THROWS_WITH(AgentFactory("az:model=/nonexistent/net.pt", fight),
                    Catch::Contains("no such file"));
  CHECK_THROWS_WITH(AgentFactory("az:model=resnet,device=tpu", fight), Catch::Contains("tpu"));
#endif
  const auto agent = AgentFactory("random", fight).make(1);
  const auto other = tailten->new_initial_state(0);
  CHECK_THROWS_WITH(agent->act(*other),
                    Catch::Contains("tailten") && Catch::Contains("knight_fight"));
  auto state = fight->new_initial_state(0);
  while (!state->is_terminal()) state->apply_action(agent->act(*state));
  CHECK_THROWS_WITH(agent->act(*state), Catch::Contains("over"));
}

TEST_CASE("greedy takes the best tally and breaks ties at random", "[agents]") {
  const KnightFight game;
  Rng rng(3);
  std::set<Action> chosen_at_start;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    KnightFight::State state;
    game.init(state, rng);
    GreedyAgent<KnightFight> greedy(game, seed);
    while (!game.terminal(state)) {
      const int player = game.current_player(state);
      Action legal[KnightFight::kMaxActions];
      const int n = game.legal_actions(state, legal);
      float best = -1e9f;
      for (int i = 0; i < n; ++i) {
        KnightFight::State next = state;
        game.apply(next, legal[i]);
        if (!game.terminal(next)) best = std::max(best, heuristic_value(game, next, player));
      }
      const Action action = greedy.act(state);
      KnightFight::State next = state;
      game.apply(next, action);
      if (!game.terminal(next)) REQUIRE(heuristic_value(game, next, player) == best);
      game.apply(state, action);
    }
  }
  // From one position with tied best moves, different seeds pick different ones.
  const Tailten tailten;
  Tailten::State start;
  tailten.init(start, rng);
  for (uint64_t seed = 0; seed < 40; ++seed)
    chosen_at_start.insert(GreedyAgent<Tailten>(tailten, seed).act(start));
  CHECK(chosen_at_start.size() > 5);
}

TEST_CASE("greedy tallies of each game", "[agents]") {
  const Knightmate knightmate;
  Rng rng(0);
  Knightmate::State chess;
  knightmate.init(chess, rng);
  CHECK(heuristic_value(knightmate, chess, 0) == 0.0f);
  // 1. e4 d5 2. exd5: White is a pawn up.
  for (const char* move : {"e2e4", "d7d5", "e4d5"})
    knightmate.apply(chess, knightmate.string_to_action(chess, move));
  CHECK(heuristic_value(knightmate, chess, 0) == 1.0f);
  CHECK(heuristic_value(knightmate, chess, 1) == -1.0f);

  const Tailten tailten;
  Tailten::State t;
  tailten.init(t, rng);
  Action legal[Tailten::kMaxActions];
  REQUIRE(tailten.legal_actions(t, legal) > 0);
  tailten.apply(t, legal[0]);
  // One ringfort: one kingdom and one territory for Red against none.
  CHECK(heuristic_value(tailten, t, 0) == -100.0f + 1.0f);
}

template <Game G>
std::vector<typename G::State> positions(const G& game, int count) {
  std::vector<typename G::State> out;
  Rng rng(8);
  while (static_cast<int>(out.size()) < count) {
    typename G::State state;
    game.init(state, rng);
    for (int ply = 0; ply < 3 * static_cast<int>(out.size()) % 40 && !game.terminal(state); ++ply)
      game.apply(state, sample_legal_action(game, state, rng));
    if (!game.terminal(state)) out.push_back(state);
  }
  return out;
}

template <Game G>
void check_batched_equals_alone(const G& game, Evaluator& evaluator, AzConfig config) {
  const auto roots = positions(game, 12);
  std::vector<uint64_t> seeds;
  for (size_t i = 0; i < roots.size(); ++i) seeds.push_back(100 + i);
  SearchBatch<G> together(game, config, evaluator);
  together.run(roots, seeds.data());
  SearchBatch<G> alone(game, config, evaluator);
  const int actions = game.info().num_actions;
  for (size_t i = 0; i < roots.size(); ++i) {
    alone.run(std::span(&roots[i], 1), &seeds[i]);
    INFO(G::kName << " root " << i);
    REQUIRE(alone.search(0).best_action() == together.search(i).best_action());
    std::vector<float> a(actions), b(actions);
    alone.search(0).policy(a.data());
    together.search(i).policy(b.data());
    REQUIRE(a == b);
    REQUIRE(alone.search(0).report().value == together.search(i).report().value);
  }
}

TEST_CASE("a batched search equals the same search alone", "[agents]") {
  const auto check = [](const auto& game) {
    HashEvaluator evaluator(game.info());
    for (const bool gumbel : {false, true}) {
      for (const int leaves : {1, 4}) {
        AzConfig config;
        config.gumbel = gumbel;
        config.sims = 24;
        config.leaves = leaves;
        config.dirichlet_fraction = 0.25f;
        INFO((gumbel ? "gumbel" : "puct") << " leaves " << leaves);
        check_batched_equals_alone(game, evaluator, config);
      }
    }
  };
  // Every game of the list at its default rules, and Knights Challenge with 3 players.
  Games::for_each([&]<Game G>() {
    INFO(G::kName);
    const auto loaded = load_game(G::kName);
    check(typed_rules<G>(*loaded));
  });
  const auto three = load_game("knights_challenge(mode=ffa3)");
  check(typed_rules<KnightsChallenge>(*three));
}

TEST_CASE("act_batch plays the actions of act() in turn", "[agents]") {
  for (const char* spec :
       {"az:sims=16", "az:sims=16,search=puct,noise=0.25", "mcts:sims=50", "greedy", "random"})
    check_act_batch_equals_act(spec);
}

#if !KNIGHTGYM_TORCH
TEST_CASE("without LibTorch, network agents are refused with the reason", "[agents][notorch]") {
  const auto game = load_game("tailten");
  CHECK_THROWS_WITH(AgentFactory("az:model=resnet", game), Catch::Contains("LibTorch"));
  CHECK_THROWS_WITH(AgentFactory("az:model=net.pt", game), Catch::Contains("LibTorch"));
  CHECK_NOTHROW(AgentFactory("az:model=uniform", game));
}
#endif

// Answers as the uniform evaluator once `callers` calls are inside it at once: calls made
// together overlap by construction, whatever the scheduling.
class MeetingEvaluator final : public Evaluator {
 public:
  MeetingEvaluator(const GameInfo& info, int callers) : inner_(info), meeting_(callers) {}
  const GameInfo& info() const override { return inner_.info(); }
  void evaluate(int n, const float* observations, const uint8_t* masks, float* priors,
                float* values) override {
    inner_.evaluate(n, observations, masks, priors, values);
    meeting_.arrive_and_wait();
  }

 private:
  UniformEvaluator inner_;
  std::barrier<> meeting_;
};

TEST_CASE("a timed evaluator counts its calls and rows; the meter counts overlapping calls once",
          "[agents]") {
  const Tailten game;
  const GameInfo info = game.info();
  MeetingEvaluator together(info, 2);
  UniformEvaluator alone(info);
  BusyMeter meter;
  TimedEvaluator a(together, meter), b(together, meter), c(alone, meter);
  std::vector<float> observations(3 * info.observation_shape.size());
  std::vector<uint8_t> masks(3 * info.num_actions, 1);
  const auto call = [&](TimedEvaluator& timed, int n) {
    std::vector<float> priors(3 * info.num_actions), values(3 * info.num_players);
    timed.evaluate(n, observations.data(), masks.data(), priors.data(), values.data());
  };
  {
    std::jthread other([&] { call(b, 3); });
    call(a, 2);
  }
  CHECK(a.calls() == 1);
  CHECK(a.rows() == 2);
  CHECK(b.rows() == 3);
  // The two calls overlapped: the meter holds each, and less than their sum.
  const int64_t together_ns = meter.nanoseconds();
  CHECK(together_ns >= std::max(a.nanoseconds(), b.nanoseconds()));
  CHECK(together_ns < a.nanoseconds() + b.nanoseconds());
  call(c, 1);  // alone: its whole time adds
  CHECK(c.calls() == 1);
  CHECK(meter.nanoseconds() - together_ns >= c.nanoseconds());
}

}  // namespace
}  // namespace knightgym
