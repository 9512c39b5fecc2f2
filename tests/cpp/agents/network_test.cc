// The LibTorch networks behind the Evaluator interface (built with KNIGHTGYM_TORCH):
// masking, shapes, batches equal to rows alone, a saved model loaded back, bad models
// refused, network agents batched like the others, and one network evaluated by several
// threads at once, each on one intra-op thread, giving the games of one thread.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/any_agent.h"
#include "agents/network_agreement.h"
#include "agents/pretrained.h"
#include "agents/torch_evaluator.h"
#include "env/registry/registry.h"
#include "tests/cpp/agents/agent_checks.h"
#include "tests/cpp/test_files.h"
#include "training/arena/arena.h"
#include "util/binary_io.h"
#include "util/json_reader.h"

namespace knightgym {
namespace {

TEST_CASE("act_batch plays the actions of act() in turn with a network", "[agents]") {
  check_act_batch_equals_act("az:sims=16,model=resnet,blocks=1,channels=8");
  check_act_batch_equals_act("az:sims=16,search=puct,model=resnet,blocks=1,channels=8,noise=0.25");
}

TEST_CASE("the torch evaluator masks illegal actions and answers per player", "[agents]") {
  for (const char* spec : {"knights_challenge", "knightmate"}) {
    const auto game = load_game(spec);
    const GameInfo& info = game->info();
    auto net = TorchEvaluator::create(info, game->spec(), {2, 16}, 1, "cpu");
    const int n = 5;
    std::vector<float> observations(n * info.observation_shape.size());
    std::vector<uint8_t> masks(n * info.num_actions);
    auto state = game->new_initial_state(1);
    for (int row = 0; row < n; ++row) {
      state->observe(state->current_player(),
                     observations.data() + row * info.observation_shape.size());
      state->legal_mask(masks.data() + row * info.num_actions);
      state->apply_action(state->legal_actions()[0]);
    }
    std::vector<float> priors(n * info.num_actions), values(n * info.num_players);
    net->evaluate(n, observations.data(), masks.data(), priors.data(), values.data());
    for (int row = 0; row < n; ++row) {
      float sum = 0;
      for (int a = 0; a < info.num_actions; ++a) {
        const float p = priors[row * info.num_actions + a];
        if (!masks[row * info.num_actions + a]) REQUIRE(p == 0.0f);
        sum += p;
      }
      CHECK(sum == Approx(1.0f));
      for (int p = 0; p < info.num_players; ++p) {
        CHECK(values[row * info.num_players + p] >= -1.0f);
        CHECK(values[row * info.num_players + p] <= 1.0f);
      }
    }
    // One row alone gets the same answer as in the batch.
    std::vector<float> one_prior(info.num_actions), one_value(info.num_players);
    net->evaluate(1, observations.data() + 2 * info.observation_shape.size(),
                  masks.data() + 2 * info.num_actions, one_prior.data(), one_value.data());
    for (int a = 0; a < info.num_actions; ++a)
      CHECK(one_prior[a] == Approx(priors[2 * info.num_actions + a]).margin(1e-6));
  }
}

TEST_CASE("bfloat16 inference answers as float32 up to rounding on every shipped network",
          "[agents]") {
  const std::vector<PretrainedModel> models = read_manifest(models_directory());
  REQUIRE(models.size() >= 5);
  for (const PretrainedModel& model : models) {
    const auto game = load_game(model.game);
    auto float32 = TorchEvaluator::load(model.path(), game->info(), game->spec(), "cpu", 1);
    auto bfloat16 = TorchEvaluator::load(model.path(), game->info(), game->spec(), "cpu", 1,
                                         Precision::kBFloat16);
    const NetworkAgreement a = network_agreement(*game, *float32, *bfloat16, 64, 5);
    INFO(model.name << ": largest prior difference " << a.largest_prior_difference << ", value "
                    << a.largest_value_difference << " (mean " << a.mean_value_difference
                    << "), same best action in " << a.same_best_action << " of 64");
    CHECK(a.positions == 64);
    CHECK(a.illegal_priors == 0);
    CHECK(a.largest_prior_difference > 0);  // bfloat16 did run: float32 would equal exactly
    CHECK(a.within_rounding());
  }
}

TEST_CASE("network agreement finds a network that answers otherwise", "[agents]") {
  const auto game = load_game("tailten");
  const GameInfo& info = game->info();
  auto shipped =
      TorchEvaluator::load(pretrained_model_path(game->spec()), info, game->spec(), "cpu", 1);
  auto fresh = TorchEvaluator::create(info, game->spec(), {1, 8}, 2, "cpu", 1);
  // Batches of 1 to 64 answer as one batch of all, up to float32's rounding.
  const NetworkAgreement same = network_agreement(*game, *shipped, *shipped, 40, 3);
  CHECK(same.largest_prior_difference < 1e-5f);
  CHECK(same.same_best_action == 40);
  CHECK(same.within_rounding());
  const NetworkAgreement differ = network_agreement(*game, *shipped, *fresh, 40, 3);
  INFO("largest prior difference " << differ.largest_prior_difference << ", same best action in "
                                   << differ.same_best_action << " of 40");
  CHECK(differ.largest_prior_difference > 0.06f);
  CHECK_FALSE(differ.within_rounding());
}

TEST_CASE("float16 inference needs CUDA: refused by name on the CPU", "[agents]") {
  const auto game = load_game("tailten");
  CHECK_THROWS_WITH(
      TorchEvaluator::create(game->info(), game->spec(), {1, 8}, 1, "cpu", 0, Precision::kFloat16),
      Catch::Contains("precision float16 needs a CUDA device"));
  CHECK_THROWS_WITH(precision_named("half"),
                    Catch::Contains("precision 'half': expected float32, bfloat16 or float16"));
  CHECK(precision_named("bfloat16") == Precision::kBFloat16);
}

TEST_CASE("a saved network loads back, and bad model files are refused", "[agents]") {
  const auto game = load_game("knight_fight");
  const GameInfo& info = game->info();
  const std::filesystem::path dir = testing::temporary_dir("network_files");
  const std::string path = (dir / "net.pt").string();
  auto net = TorchEvaluator::create(info, game->spec(), {1, 8}, 7, "cpu");
  net->save(path);
  auto loaded = TorchEvaluator::load(path, info, game->spec(), "cpu");

  std::vector<float> observation(info.observation_shape.size());
  std::vector<uint8_t> mask(info.num_actions);
  const auto state = game->new_initial_state(3);
  state->observe(0, observation.data());
  state->legal_mask(mask.data());
  std::vector<float> p1(info.num_actions), p2(info.num_actions), v1(2), v2(2);
  net->evaluate(1, observation.data(), mask.data(), p1.data(), v1.data());
  loaded->evaluate(1, observation.data(), mask.data(), p2.data(), v2.data());
  CHECK(p1 == p2);
  CHECK(v1 == v2);
  // The az agent takes it by path.
  CHECK_NOTHROW(AgentFactory("az:sims=4,model=" + path, game).make(0)->act(*state));

  const auto other = load_game("knight_fight(double_erase=forced)");
  CHECK_THROWS_WITH(TorchEvaluator::load(path, other->info(), other->spec(), "cpu"),
                    Catch::Contains("was made for knight_fight(double_erase=optional"));
  const std::string garbage = (dir / "garbage.pt").string();
  std::ofstream(garbage) << "not a model";
  CHECK_THROWS_WITH(TorchEvaluator::load(garbage, info, game->spec(), "cpu"),
                    Catch::Contains("is not a TorchScript module: not a ZIP archive"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("az:model=pretrained plays the network shipped for the game and refuses others",
          "[agents][pretrained]") {
  const auto game = load_game("knight_fight");
  const std::string dir = testing::temporary_dir("pretrained_networks");
  const auto net = TorchEvaluator::create(game->info(), game->spec(), {1, 8}, 5, "cpu");
  net->save(dir + "/kf.pt");
  std::ofstream(dir + "/manifest.json")
      << R"({"networks": {"kf": {"file": "kf.pt", "game": ")" << game->spec() << "\"}}}";
  unsetenv("KNIGHTGYM_MODELS");
  set_models_directory(dir);
  const auto state = game->new_initial_state(3);
  // The shipped network plays exactly as the same file given by its path.
  const AgentFactory shipped("az:sims=8,model=pretrained", game);
  const AgentFactory by_path("az:sims=8,model=" + dir + "/kf.pt", game);
  CHECK(shipped.config().spec.find("model=pretrained") != std::string::npos);
  const auto agent = shipped.make(4);
  CHECK(agent->act(*state) == by_path.make(4)->act(*state));
  CHECK(agent->last_report().sims == 8);

  const auto other = load_game("knight_fight(double_erase=forced)");
  CHECK_THROWS_WITH(
      AgentFactory("az:model=pretrained", other),
      Catch::Contains("no shipped network for " + other->spec()) && Catch::Contains(game->spec()));
  // rules=any: the game's network plays its other rules, by name or by path, as the same
  // network; never another game's.
  const auto any_state = other->new_initial_state(3);
  const AgentFactory any("az:sims=8,model=pretrained,rules=any", other);
  const AgentFactory any_by_path("az:sims=8,rules=any,model=" + dir + "/kf.pt", other);
  CHECK(any.make(4)->act(*any_state) == any_by_path.make(4)->act(*any_state));
  const auto tailten = load_game("tailten");
  CHECK_THROWS_WITH(AgentFactory("az:rules=any,model=" + dir + "/kf.pt", tailten),
                    Catch::Contains("was made for " + game->spec() + ", not tailten"));

  // Which network played: the shipped one by its file name, a path as given, each once,
  // with the hash of its bytes.
  const std::vector<NetworkUsed> used =
      networks_used({"az:model=pretrained", "mcts:sims=4", "az:model=" + dir + "/kf.pt,rules=any"},
                    {game->spec(), other->spec()});
  REQUIRE(used.size() == 2);
  CHECK(used[0].file == dir + "/kf.pt");
  CHECK(used[1].file == "kf.pt");
  CHECK(used[0].fnv1a == used[1].fnv1a);
  std::ifstream bytes(dir + "/kf.pt", std::ios::binary);
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(fnv1a(std::string(
                    std::istreambuf_iterator<char>(bytes), std::istreambuf_iterator<char>()))));
  CHECK(used[1].fnv1a == hash);
  CHECK(networks_used({"mcts:sims=4", "random"}, {game->spec()}).empty());
  const JsonValue json = parse_json(networks_json(used));
  REQUIRE(json.as_array().size() == 2);
  CHECK(json.as_array()[1].at("file").as_string() == "kf.pt");
  CHECK(json.as_array()[1].at("fnv1a").as_string() == hash);
  set_models_directory("");
}

TEST_CASE("a network's batched games are the same on 1 and 2 threads", "[agents]") {
  const auto game = load_game("knight_fight(max_turns=40)");
  for (const char* spec : {"az:sims=16,model=resnet,blocks=1,channels=8",
                           "az:sims=16,model=resnet,blocks=1,channels=8,threads=1"}) {
    INFO(spec);
    const std::vector<std::shared_ptr<const AgentFactory>> agents{
        std::make_shared<AgentFactory>(spec, game),
        std::make_shared<AgentFactory>("mcts:sims=8", game)};
    const auto play = [&](int threads) {
      return play_arena_in_batches(*game, agents, {.games = 8, .threads = threads, .seed = 3},
                                   {.batch = 2});
    };
    CHECK(play(2) == play(1));
  }
}

TEST_CASE("workers take one intra-op thread each, and the default comes back", "[agents]") {
  const NetworkBackend& backend = torch_network_backend();
  const auto on_a_new_thread = [&] {
    int threads = 0;
    std::thread([&] { threads = backend.intra_op_threads(); }).join();
    return threads;
  };
  const int before = backend.intra_op_threads();
  const int other = 3;  // a default that is not the workers'
  backend.set_intra_op_threads(other);
  CHECK(on_a_new_thread() == other);
  {
    const NetworkThreadShare share(2);
    CHECK(on_a_new_thread() == 1);
  }
  CHECK(backend.intra_op_threads() == other);
  CHECK(on_a_new_thread() == other);
  {
    const NetworkThreadShare alone(1);  // one worker keeps the default
    CHECK(on_a_new_thread() == other);
  }
  backend.set_intra_op_threads(before);
}

}  // namespace
}  // namespace knightgym
