// Training runs: settings, symmetries, batched matches, a run's files, resume after
// SIGKILL at random moments (also mid-write) and after SIGTERM, and a short run on a tiny
// setting that learns to beat random play.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "agents/random_agent.h"
#include "env/core/sample.h"
#include "env/registry/game_list.h"
#include "env/registry/registry.h"
#include "tests/cpp/test_files.h"
#include "training/trainer/trainer.h"
#include "util/atomic_file.h"
#include "util/text.h"

namespace knightgym {
namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using testing::lines_of;
using testing::read_bytes;
using testing::temporary_dir;
using testing::write_bytes;

// What the policy's loss can still fall on a teacher's decisions: its cross-entropy above
// the teacher's entropy.
template <Game G>
double loss_above_teacher(const G& game, TeacherSet<G>& set, Evaluator& evaluator) {
  const Agreement agreement = measure_agreement(game, set.train(), evaluator, 256, 64);
  return agreement.policy_loss - agreement.entropy;
}

// A model file is an ordinary network that az:model= plays: a legal move.
void check_plays_legally(const std::string& model, const std::shared_ptr<const AnyGame>& game) {
  const AgentFactory az("az:model=" + model + ",sims=8", game);
  const auto state = game->new_initial_state(3);
  const Action action = az.make(1)->act(*state);
  const std::vector<Action> legal = state->legal_actions();
  CHECK(std::find(legal.begin(), legal.end(), action) != legal.end());
}

// ---------------------------------------------------------------------------- settings

TEST_CASE("train settings: per-game defaults, overrides, and errors that name the key",
          "[trainer]") {
  const TrainConfig kf = read_train_config(training_defaults<KnightFight>(), "");
  CHECK(kf.net.blocks == 2);
  CHECK(kf.search.sims == 16);
  CHECK(read_train_config(training_defaults<Tailten>(), "").net.blocks == 4);
  // A byte-order mark before key=value lines or JSON reads as without it.
  CHECK(read_train_config(training_defaults<Tailten>(),
                          "\xEF\xBB\xBF"
                          "blocks=3\n")
            .net.blocks == 3);
  CHECK(read_train_config(training_defaults<Tailten>(), "\xEF\xBB\xBF{\"blocks\": 5}").net.blocks ==
        5);
  CHECK(kf.search.gumbel);
  CHECK(kf.baselines == std::vector<std::string>{"mcts:sims=200"});
  CHECK(read_train_config(training_defaults<Knightmate>(), "").net.channels == 64);
  CHECK(read_train_config(training_defaults<Knightmate>(), "").net.policy_channels == 2);
  CHECK(kf.net.policy_channels == 4);

  const TrainConfig c = read_train_config(
      training_defaults<Tailten>(),
      "# a comment\n  sims = 8  \nsearch=puct\nbaselines=[random,mcts:sims=10,c=2]\n\n");
  CHECK(c.search.sims == 8);
  CHECK_FALSE(c.search.gumbel);
  CHECK(c.baselines == std::vector<std::string>{"random", "mcts:sims=10,c=2"});
  CHECK_THAT(c.spec, Contains("\"sims\": 8, \"search\": \"puct\""));
  CHECK_THAT(c.spec, Contains("\"augment\": true"));
  CHECK(read_train_config(training_defaults<Tailten>(), c.spec).spec ==
        c.spec);  // the spec reads back
  // The same settings as a JSON object; a list of baselines.
  const TrainConfig from_json = read_train_config(
      training_defaults<Tailten>(),
      " {\"sims\": 8, \"search\": \"puct\", \"baselines\": [\"random\", \"mcts:sims=10,c=2\"]}");
  CHECK(from_json.search.sims == 8);
  CHECK_FALSE(from_json.search.gumbel);
  CHECK(from_json.baselines == c.baselines);
  CHECK(read_train_config(training_defaults<Tailten>(), "{\"augment\": false}").augment == false);
  REQUIRE_THROWS_WITH(
      read_train_config(training_defaults<Tailten>(), "{\"sims\": 8, \"sims\": 9}"),
      Contains("training settings: JSON, line 1") && Contains("'sims' appears twice"));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "{\"sims\": {\"n\": 8}}"),
                      Contains("sims: expected a string, number, boolean or list of strings"));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "{\"simz\": 3}"),
                      Contains("unknown parameter 'simz'"));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "{\"lr\": -1}"),
                      Contains("lr"));

  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "simz=3"),
                      Contains("unknown parameter 'simz'"));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "sims"),
                      Contains("line 1 ('sims')"));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "sims=1\nsims=2"),
                      Contains("'sims' twice"));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "lr=-1"), Contains("lr"));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "baselines=mtcs"),
                      Contains("unknown agent"));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "baselines=az:model=resnet"),
                      Contains("untrained network"));
  // Match rounds number their opponents in a fixed range (streams.h).
  std::string many = "baselines=random";
  for (int b = 1; b < kMaxBaselines; ++b) many += ",random";
  CHECK(static_cast<int>(read_train_config(training_defaults<Tailten>(), many).baselines.size()) ==
        kMaxBaselines);
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), many + ",random"),
                      Contains("at most 63 fixed opponents"));
  // Playout cap randomization and value targets.
  const TrainConfig capped = read_train_config(training_defaults<Tailten>(),
                                               "fast_sims=8\nfull_fraction=0.25\nq_weight=0.25");
  CHECK(capped.playout_cap.fast_sims == 8);
  CHECK(capped.playout_cap.full_fraction == 0.25);
  CHECK(capped.q_weight == 0.25);
  CHECK(read_train_config(training_defaults<Tailten>(), "").q_weight == 0.5);
  CHECK(read_train_config(training_defaults<Tailten>(), "").playout_cap.fast_sims == 0);
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "sims=16\nfast_sims=16"),
                      Contains("fewer simulations than sims=16"));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "full_fraction=0"),
                      Contains("full_fraction"));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "q_weight=1.5"),
                      Contains("q_weight"));
  // The self-play horizon: none by default, never negative.
  CHECK(read_train_config(training_defaults<Tailten>(), "").horizon == 0);
  CHECK(read_train_config(training_defaults<Tailten>(), "horizon=200").horizon == 200);
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "horizon=-1"),
                      Contains("horizon"));
}

// -------------------------------------------------------------------------- symmetries

template <Game G>
std::vector<float> observe(const G& game, const typename G::State& s, int player) {
  std::vector<float> out(game.info().observation_shape.size());
  game.observe(s, player, out.data());
  return out;
}

template <Game G>
std::vector<uint8_t> mask_of(const G& game, const typename G::State& s) {
  std::vector<uint8_t> out(game.info().num_actions);
  game.legal_mask(s, out.data());
  return out;
}

// Checks that symmetry k maps (observation, mask) of s to those of `image`, the state
// the same symmetry makes of s.
template <Game G>
void check_image(const G& game, int k, const typename G::State& s, const typename G::State& image) {
  const GameInfo info = game.info();
  for (int player = 0; player < info.num_players; ++player) {
    std::vector<float> obs = observe(game, s, player), policy(info.num_actions, 0.0f);
    std::vector<uint8_t> mask = mask_of(game, s);
    for (int a = 0; a < info.num_actions; ++a) policy[a] = mask[a] ? float(a) : 0.0f;
    std::vector<float> scratch(std::max(info.num_actions, 100));
    std::vector<uint8_t> mask_scratch(info.num_actions);
    apply_symmetry<G>(k, info, obs.data(), mask.data(), policy.data(), scratch.data(),
                      mask_scratch.data());
    REQUIRE(obs == observe(game, image, player));
    REQUIRE(mask == mask_of(game, image));
    for (int a = 0; a < info.num_actions; ++a)
      if (policy[Symmetries<G>::action(k, a)] != 0.0f)
        REQUIRE(policy[Symmetries<G>::action(k, a)] == float(a));
  }
}

template <Game G>
void check_permutations() {
  const GameInfo info = G().info();
  const Shape& s = info.observation_shape;
  std::set<std::vector<int>> distinct;
  for (int k = 0; k < Symmetries<G>::kCount; ++k) {
    std::vector<int> cells, actions;
    for (int c = 0; c < s.height * s.width; ++c) cells.push_back(Symmetries<G>::cell(k, c));
    for (int a = 0; a < info.num_actions; ++a) actions.push_back(Symmetries<G>::action(k, a));
    REQUIRE(std::set<int>(cells.begin(), cells.end()).size() == cells.size());
    REQUIRE(std::set<int>(actions.begin(), actions.end()).size() == actions.size());
    distinct.insert(cells);
  }
  REQUIRE(static_cast<int>(distinct.size()) == Symmetries<G>::kCount);
}

TEST_CASE("symmetries: Tailten's eight keep its rules (observations and masks follow)",
          "[trainer]") {
  check_permutations<Tailten>();
  const Tailten game;
  const auto transform = [](int k, tailten::Squares squares) {
    tailten::Squares out = 0;
    for (; squares; squares &= squares - 1)
      out |= tailten::square_bit(dihedral_cell(k, tailten::kSize, std::countr_zero(squares)));
    return out;
  };
  Rng rng(11);
  for (int g = 0; g < 20; ++g) {
    Tailten::State s;
    game.init(s, rng);
    while (!game.terminal(s)) {
      for (int k = 0; k < 8; ++k) {
        Tailten::State image = s;
        image.forts = {transform(k, s.forts[0]), transform(k, s.forts[1])};
        image.legal = transform(k, s.legal);
        check_image(game, k, s, image);
        // The rules from the image agree with the image of the rules.
        Tailten::State next = s, next_image = image;
        const Action a = sample_legal_action(game, s, rng);
        game.apply(next, a);
        game.apply(next_image, Symmetries<Tailten>::action(k, a));
        REQUIRE(next_image.forts[0] == transform(k, next.forts[0]));
        REQUIRE(next_image.legal == transform(k, next.legal));
      }
      game.apply(s, sample_legal_action(game, s, rng));
    }
  }
}

TEST_CASE("symmetries: Knight Fight's mirror keeps its rules on the mirrored layout", "[trainer]") {
  check_permutations<KnightFight>();
  Rng rng(12);
  for (int g = 0; g < 20; ++g) {
    KnightFight::Params params;
    params.random_layout = false;
    std::iota(params.layout.begin(), params.layout.end(), uint8_t{0});
    for (int i = 99; i > 0; --i) std::swap(params.layout[i], params.layout[rng.below(i + 1)]);
    KnightFight::Params mirrored = params;
    for (int square = 0; square < 100; ++square)
      mirrored.layout[dihedral_cell(4, 10, square)] = params.layout[square];
    const KnightFight game(params), mirror(mirrored);
    KnightFight::State s, image;
    game.init(s, rng);
    mirror.init(image, rng);
    while (!game.terminal(s)) {
      REQUIRE_FALSE(mirror.terminal(image));
      check_image(game, 1, s, image);
      const Action a = sample_legal_action(game, s, rng);
      game.apply(s, a);
      mirror.apply(image, Symmetries<KnightFight>::action(1, a));
    }
    REQUIRE(mirror.terminal(image));
  }
}

// ---------------------------------------------------------------------- batched match

TEST_CASE("batched match: seats rotate, games finish, the seed decides", "[trainer]") {
  ParamReader reader(parse_spec("knights_challenge(mode=ffa3)"));
  const KnightsChallenge game(KnightsChallenge::read_params(reader));
  const auto play = [&](uint64_t seed) {
    RandomAgent<KnightsChallenge> a(game, 1), b(game, 2);
    Agent<KnightsChallenge>* agents[2] = {&a, &b};
    return play_batched(game, std::span<Agent<KnightsChallenge>* const>(agents, 2), 6, seed);
  };
  const auto records = play(5);
  REQUIRE(records.size() == 6);
  for (size_t g = 0; g < records.size(); ++g) {
    REQUIRE(records[g].agent_of_seat.size() == 3);
    for (int seat = 0; seat < 3; ++seat)
      REQUIRE(records[g].agent_of_seat[seat] == static_cast<int>((seat + g) % 2));
    REQUIRE(records[g].decisions > 0);
    float sum = 0;
    for (const float r : records[g].returns) sum += r;
    REQUIRE(sum == Approx(0.0f).margin(1e-6));
  }
  const auto again = play(5);
  for (size_t g = 0; g < records.size(); ++g) REQUIRE(again[g].returns == records[g].returns);
}

// ----------------------------------------------------------------------- run in-process

TrainConfig tiny_config(int checkpoint_seconds = 1, const std::string& more = "") {
  return read_train_config(
      training_defaults<Tailten>(),
      "blocks=1\nchannels=8\ngames=8\nsims=4\nbatch=32\nmin_replay=64\nwindow=2000\n"
      "match_seconds=0\nmatch_games=4\nmatch_sims=2\nbaselines=random\nkeep=2\nlog_seconds=1\n"
      "checkpoint_seconds=" +
          std::to_string(checkpoint_seconds) + "\n" + more);
}

// The evaluator's priors and values on the observations of a random Tailten game's first
// 16 positions.
std::vector<float> outputs_on_a_game(Evaluator& evaluator) {
  const Tailten game;
  const GameInfo info = game.info();
  const int n = 16, size = info.observation_shape.size();
  std::vector<float> observations(static_cast<size_t>(n) * size);
  std::vector<uint8_t> masks(static_cast<size_t>(n) * info.num_actions);
  Rng rng(5);
  Tailten::State s;
  game.init(s, rng);
  for (int row = 0; row < n && !game.terminal(s); ++row) {
    game.observe(s, game.current_player(s), &observations[static_cast<size_t>(row) * size]);
    game.legal_mask(s, &masks[static_cast<size_t>(row) * info.num_actions]);
    game.apply(s, sample_legal_action(game, s, rng));
  }
  std::vector<float> out(static_cast<size_t>(n) * (info.num_actions + info.num_players));
  evaluator.evaluate(n, observations.data(), masks.data(), out.data(),
                     out.data() + static_cast<size_t>(n) * info.num_actions);
  return out;
}

TEST_CASE("trainer: a run writes its files, and resumes from its newest checkpoint", "[trainer]") {
  const Tailten game;
  const std::string spec = "tailten(first_player=0,ringforts=30,max_turns=200)";
  const std::string dir = temporary_dir("trainer_run");
  std::atomic<bool> stop{false};
  {
    Trainer<Tailten> trainer(game, spec, tiny_config(), "cpu", dir, false, stderr);
    REQUIRE(trainer.run({0, 20}, stop));
    CHECK(trainer.counters().steps == 20);
    CHECK(trainer.counters().samples == 20 * 32);
    REQUIRE(trainer.last_match_round().size() == 2);  // the best, then random
    CHECK(trainer.last_match_round()[1].opponent == "random");
    CHECK(trainer.last_match_round()[1].score.games == 4);
  }
  for (const char* file : {"config.json", "model.pt", "best.pt", "metrics.csv"})
    REQUIRE(fs::is_regular_file(dir + "/" + file));
  CHECK(RunDirectory(dir).read_config() ==
        std::pair<std::string, std::string>(spec, tiny_config().spec));
  {  // An earlier version's config.txt (key=value lines) is no run any more.
    const std::string old_run = temporary_dir("trainer_config_txt");
    write_bytes(old_run + "/config.txt", "game=" + spec + "\n");
    CHECK_FALSE(RunDirectory::holds_run(old_run));
    CHECK_THROWS_WITH(RunDirectory(old_run).read_config(), Catch::Contains("no config.json"));
  }
  RunDirectory run(dir);
  REQUIRE(run.checkpoints().size() <= 2);
  REQUIRE(run.checkpoints().front() == run.checkpoint(20));
  const auto rows = lines_of(dir + "/metrics.csv");
  REQUIRE(rows.size() >= 2);
  CHECK(rows.front().rfind("step,samples,decisions,games,seconds", 0) == 0);
  CHECK(rows.back().rfind("20,640,", 0) == 0);

  // A row past the checkpoint (as if killed after logging it) is cut on resume.
  std::ofstream(dir + "/metrics.csv", std::ios::app) << "25,800,1,1,1,1,1,1,1,1,1,1,0,,\n26,8";
  {
    Trainer<Tailten> trainer(game, spec, tiny_config(), "cpu", dir, true, stderr);
    CHECK(trainer.counters().steps == 20);
    REQUIRE(trainer.run({0, 30}, stop));
    CHECK(trainer.counters().steps == 30);
  }
  const auto resumed = lines_of(dir + "/metrics.csv");
  for (const std::string& row : resumed) {
    CHECK(row.rfind("25,", 0) != 0);
    CHECK(row.rfind("26,8", 0) != 0);
  }
  CHECK(resumed.back().rfind("30,960,", 0) == 0);
  REQUIRE(run.checkpoints().front() == run.checkpoint(30));

  // A line among the rows kept that is no row is named, and nothing changes: the rows
  // after it are not dropped without a word.
  std::string damaged;
  for (size_t i = 0; i < resumed.size(); ++i) damaged += resumed[i] + (i == 1 ? "\n12,x\n" : "\n");
  write_bytes(dir + "/metrics.csv", damaged);
  REQUIRE_THROWS_WITH(Trainer<Tailten>(game, spec, tiny_config(), "cpu", dir, true, stderr),
                      Contains("metrics.csv' line 3 is not a row of this run"));
  CHECK(read_bytes(dir + "/metrics.csv") == damaged);

  // Another game's run is not resumed.
  REQUIRE_THROWS_WITH(Trainer<Tailten>(game, "tailten(first_player=1,ringforts=30,max_turns=200)",
                                       tiny_config(), "cpu", dir, true, stderr),
                      Contains("trains " + spec));
}

// The values of `column` in metrics.csv's rows that have one (a period in which no game
// came in has no staleness).
std::vector<double> column_values(const std::string& dir, const std::string& column) {
  const auto rows = lines_of(dir + "/metrics.csv");
  const std::vector<std::string_view> header = split(rows.front(), ',');
  const auto at = std::find(header.begin(), header.end(), column);
  REQUIRE(at != header.end());
  std::vector<double> out;
  for (size_t r = 1; r < rows.size(); ++r) {
    const std::string cell(split(rows[r], ',').at(static_cast<size_t>(at - header.begin())));
    if (!cell.empty()) out.push_back(std::stod(cell));
  }
  return out;
}

TEST_CASE("trainer: self-play beside the learner plays the same games in every run, a round behind",
          "[trainer]") {
  const Tailten game;
  const std::string spec = "tailten(first_player=0,ringforts=30,max_turns=200)";
  const std::atomic<bool> stop{false};
  // Counters, the network's outputs and the rows' staleness after 150 steps (the
  // first games end after about 40 decisions; the first 37 steps are trained on them).
  const auto train = [&](const std::string& name, const std::string& overlap) {
    const std::string dir = temporary_dir(name);
    Trainer<Tailten> trainer(game, spec, tiny_config(1, "overlap=" + overlap), "cpu", dir, false,
                             stderr);
    REQUIRE(trainer.run({0, 150}, stop));
    return std::tuple(trainer.counters(), outputs_on_a_game(*trainer.learner().evaluator()),
                      column_values(dir, "staleness"));
  };
  const auto [counters_a, outputs_a, staleness_a] = train("trainer_overlap_a", "true");
  const auto [counters_b, outputs_b, staleness_b] = train("trainer_overlap_b", "true");
  CHECK(counters_a.decisions == counters_b.decisions);
  CHECK(counters_a.games == counters_b.games);
  CHECK(counters_a.evaluations == counters_b.evaluations);
  CHECK(outputs_a == outputs_b);
  // The games came from the weights a round before once the learner had begun.
  REQUIRE_FALSE(staleness_a.empty());
  CHECK(*std::max_element(staleness_a.begin(), staleness_a.end()) > 0);
  const auto [counters_c, outputs_c, staleness_c] = train("trainer_overlap_off", "false");
  REQUIRE_FALSE(staleness_c.empty());
  CHECK(*std::max_element(staleness_c.begin(), staleness_c.end()) == 0);
  CHECK(outputs_c != outputs_a);
}

TEST_CASE("trainer: self-play on several threads plays the games of one thread", "[trainer]") {
  const Tailten game;
  const std::string spec = "tailten(first_player=0,ringforts=30,max_turns=200)";
  const std::atomic<bool> stop{false};
  const auto train = [&](const std::string& settings, int threads) {
    const std::string dir =
        temporary_dir("trainer_threads_" + std::to_string(threads) + "_" + settings.substr(0, 10));
    Trainer<Tailten> trainer(game, spec,
                             tiny_config(1, settings + "\nselfplay_batch=3\nselfplay_threads=" +
                                                std::to_string(threads)),
                             "cpu", dir, false, stderr);
    REQUIRE(trainer.run({0, 120}, stop));
    return std::pair(trainer.counters(), outputs_on_a_game(*trainer.learner().evaluator()));
  };
  // With and without overlap, and in bfloat16 too, the games do not depend on the threads.
  for (const auto& [settings, threads] : {std::pair<std::string, int>{"overlap=true", 3},
                                          {"overlap=false", 3},
                                          {"selfplay_precision=bfloat16", 2}}) {
    INFO(settings);
    const auto [counters_1, outputs_1] = train(settings, 1);
    const auto [counters_t, outputs_t] = train(settings, threads);
    CHECK(counters_1.games == counters_t.games);
    CHECK(counters_1.decisions == counters_t.decisions);
    CHECK(counters_1.evaluations == counters_t.evaluations);
    CHECK(outputs_1 == outputs_t);
  }
  const std::string fp16_run = temporary_dir("trainer_fp16") + "/run";
  REQUIRE_THROWS_WITH(Trainer<Tailten>(game, spec, tiny_config(1, "selfplay_precision=float16"),
                                       "cpu", fp16_run, false, stderr),
                      Contains("selfplay_precision=float16 needs a CUDA device"));
  CHECK_FALSE(std::filesystem::exists(fp16_run));  // refused before anything is written
  // 8 games in groups of 3 make 3 groups: a fourth thread would have none.
  REQUIRE_THROWS_WITH(tiny_config(1, "selfplay_batch=3\nselfplay_threads=4"),
                      Contains("selfplay_threads") && Contains("make 3 groups, fewer than 4"));
}

TEST_CASE("trainer: after a resume, metrics.csv holds exactly the rows up to its checkpoint",
          "[trainer]") {
  const Tailten game;
  const std::string spec = "tailten(first_player=0,ringforts=30,max_turns=200)";
  const std::string dir = temporary_dir("trainer_metrics");
  const std::string metrics = dir + "/metrics.csv";
  std::atomic<bool> stop{false};
  // A row as the trainer writes it, with these step and decisions.
  const auto row = [](int64_t step, int64_t decisions) {
    return std::to_string(step) + "," + std::to_string(step * 32) + "," +
           std::to_string(decisions) + ",1,1.0,1,1,1,1,1,1,1,0,,\n";
  };
  { Trainer<Tailten> fresh(game, spec, tiny_config(), "cpu", dir, false, stderr); }
  const std::string header = read_bytes(metrics);
  REQUIRE(lines_of(metrics).size() == 1);

  // Killed before its first checkpoint, having written rows (at step 0): resumed, it
  // starts over, and so does metrics.csv.
  std::ofstream(metrics, std::ios::app) << row(0, 8) << row(0, 16) << "0,0,2";
  {
    Trainer<Tailten> trainer(game, spec, tiny_config(), "cpu", dir, true, stderr);
    CHECK(trainer.counters().steps == 0);
    CHECK(read_bytes(metrics) == header);
    REQUIRE(trainer.run({0, 10}, stop));
  }
  const std::string written = read_bytes(metrics);
  const auto lines = lines_of(metrics);
  REQUIRE(lines.size() >= 2);
  CHECK(lines.back().rfind("10,320,", 0) == 0);
  const int64_t decisions = std::stoll(std::string(split(lines.back(), ',')[2]));

  // Rows written after the checkpoint (step 10): at its step but past its decisions (a
  // period logged before the next training step), then past its step, then half a row.
  std::ofstream(metrics, std::ios::app)
      << row(10, decisions + 8) << row(11, decisions + 16) << "12,384,";
  {
    Trainer<Tailten> trainer(game, spec, tiny_config(), "cpu", dir, true, stderr);
    CHECK(trainer.counters().steps == 10);
    CHECK(trainer.counters().decisions == decisions);
    CHECK(read_bytes(metrics) == written);  // every row of the run, and nothing else
  }
}

// The evaluator's priors and values at the first decisions of a seeded Tailten game.
std::vector<float> answers(Evaluator& net) {
  const Tailten game;
  const GameInfo info = game.info();
  constexpr int kRows = 4;
  std::vector<float> observations(kRows * info.observation_shape.size());
  std::vector<uint8_t> masks(kRows * info.num_actions);
  Rng rng(3);
  Tailten::State s;
  game.init(s, rng);
  for (int row = 0; row < kRows; ++row) {
    game.observe(s, game.current_player(s), &observations[row * info.observation_shape.size()]);
    game.legal_mask(s, &masks[row * info.num_actions]);
    game.apply(s, sample_legal_action(game, s, rng));
  }
  std::vector<float> out(kRows * (info.num_actions + info.num_players));
  net.evaluate(kRows, observations.data(), masks.data(), out.data(),
               out.data() + kRows * info.num_actions);
  return out;
}

// The same network's answers, one of them from a loaded model, which infers with its
// batch norms folded into the convolutions (agents/torch_evaluator.h): equal but for
// rounding.
bool same_answers(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i] - b[i]) > 1e-5f) return false;
  return true;
}

TEST_CASE("trainer: init starts from a network's weights; snapshots follow the training time",
          "[trainer]") {
  const Tailten game;
  const GameInfo info = game.info();
  const std::string spec = "tailten(first_player=0,ringforts=30,max_turns=200)";
  const std::string first = temporary_dir("trainer_init_from"), dir = temporary_dir("trainer_init");
  std::atomic<bool> stop{false};
  {
    Trainer<Tailten> trainer(game, spec, tiny_config(), "cpu", first, false, stderr);
    REQUIRE(trainer.run({0, 10}, stop));
  }
  const auto from = TorchEvaluator::load(first + "/model.pt", info, spec, "cpu");
  const auto with = [](const std::string& settings,
                       const std::string& net = "blocks=1\nchannels=8\n") {
    return read_train_config(training_defaults<Tailten>(),
                             net +
                                 "games=8\nsims=4\nbatch=32\nmin_replay=64\n"
                                 "match_seconds=0\nmatch_games=0\ncheckpoint_seconds=1000\n" +
                                 settings);
  };
  {
    Trainer<Tailten> trainer(game, spec, with("init=" + first + "/model.pt\nsnapshot_seconds=1\n"),
                             "cpu", dir, false, stderr);
    CHECK(same_answers(answers(*trainer.learner().evaluator()), answers(*from)));
    REQUIRE(trainer.run({0.05, 0}, stop));  // 3 seconds
  }
  // Snapshot 0 is the network the run started from; the others fall on whole seconds.
  RunDirectory run(dir);
  REQUIRE(fs::is_regular_file(run.snapshot(0)));
  CHECK(answers(*TorchEvaluator::load(run.snapshot(0), info, spec, "cpu")) == answers(*from));
  for (const auto& entry : fs::directory_iterator(dir + "/snapshots")) {
    const std::string name = entry.path().filename().string();
    INFO(name);
    CHECK(name.size() == std::string("seconds-0000000.pt").size());
    CHECK(std::stoi(name.substr(8, 7)) <= 3);
  }
  // The first weights must fit: the file, the game and the network's shape.
  // A refused init writes no run: the directory can start one afterwards.
  const auto refused = [&](const std::string& init, const std::string& net,
                           const std::string& why) {
    const std::string bad = temporary_dir("init_bad");
    REQUIRE_THROWS_WITH(
        Trainer<Tailten>(game, spec, with("init=" + init, net), "cpu", bad, false, stderr),
        Contains(why));
    CHECK_FALSE(RunDirectory::holds_run(bad));
  };
  const std::string net = "blocks=1\nchannels=8\n";
  refused(first + "/none.pt", net, "init '" + first + "/none.pt': no such file");
  refused(first + "/config.json", net, "not a TorchScript module");
  refused(first + "/model.pt", "blocks=1\nchannels=16\n",
          "has no tensor 'stem_w' of this network's shape (1 blocks x 16 channels)");
  refused(first + "/model.pt", "blocks=0\nchannels=8\n", "is a larger network than 0 blocks x 8");
  REQUIRE_THROWS_WITH(Trainer<Tailten>(game, "tailten(first_player=1,ringforts=30,max_turns=200)",
                                       with("init=" + first + "/model.pt"), "cpu",
                                       temporary_dir("init_other"), false, stderr),
                      Contains("is a network for " + spec));
}

TEST_CASE("trainer: learning from a teacher's shards lowers the loss, then self-play goes on",
          "[trainer][learning]") {
  const Tailten game;
  const std::string spec = "tailten(first_player=0,ringforts=30,max_turns=200)";
  const auto any_game = load_game(spec);
  const std::string shards = temporary_dir("trainer_teacher_shards");
  const std::atomic<bool> no_stop{false};
  TeacherOptions teacher;
  teacher.teacher = "mcts:sims=64";
  teacher.games = 12;
  teacher.shard_games = 4;
  teacher.threads = 2;
  teacher.opening_plies = 2;
  generate_teacher_data(*any_game, teacher, shards, false, nullptr, no_stop);

  const std::string dir = temporary_dir("trainer_teacher");
  const auto config = [&](const std::string& more, int teacher_steps = 400) {
    return read_train_config(training_defaults<Tailten>(),
                             "blocks=1\nchannels=16\ngames=8\nsims=4\nbatch=32\nmin_replay=64\n"
                             "match_seconds=0\nmatch_games=0\nlog_seconds=1\nteacher_holdout=0.25\n"
                             "lr=0.003\nteacher_steps=" +
                                 std::to_string(teacher_steps) + "\n" + more);
  };
  TeacherSet<Tailten> set(game, shards, spec, 0);
  const auto loss = [&](Evaluator& evaluator) { return loss_above_teacher(game, set, evaluator); };
  double before = 0;
  std::atomic<bool> stop{false};
  {
    Trainer<Tailten> trainer(game, spec, config("teacher=" + shards), "cpu", dir, false, stderr);
    before = loss(*trainer.learner().evaluator());
    REQUIRE(trainer.run({0, 400}, stop));
    CHECK(trainer.counters().steps == 400);
    CHECK(trainer.counters().decisions == 0);  // no self-play yet
  }
  const auto model = TorchEvaluator::load(dir + "/model.pt", game.info(), spec, "cpu");
  const double after = loss(*model);
  INFO("policy loss above the teacher's entropy " << before << " -> " << after);
  CHECK(after < 0.7 * before);
  // The rows show the held-out agreement while the teacher is learned from.
  const auto rows = lines_of(dir + "/metrics.csv");
  REQUIRE(rows.size() >= 2);
  CHECK_THAT(rows[0], Contains("holdout_policy_loss,holdout_top1"));
  CHECK(split(rows.back(), ',')[13] != "");
  // teacher_best.pt is the network of the row with the lowest held-out policy loss.
  double lowest = std::numeric_limits<double>::infinity();
  for (size_t row = 1; row < rows.size(); ++row)
    lowest = std::min(lowest, std::stod(std::string(split(rows[row], ',')[13])));
  TeacherSet<Tailten> held_out(game, shards, spec, 0.25);
  const auto best = TorchEvaluator::load(dir + "/teacher_best.pt", game.info(), spec, "cpu");
  CHECK_THAT(
      held_out.holdout_agreement(RuleSets<Tailten>(game, spec).games(), *best, 64, 32).policy_loss,
      Catch::Matchers::WithinAbs(lowest, 1e-3));
  check_plays_legally(dir + "/model.pt", any_game);
  // A damaged teacher_best.pt is skipped on resume and replaced by the next measurement.
  write_bytes(dir + "/teacher_best.pt", "not a network");
  {
    Trainer<Tailten> trainer(game, spec, config("teacher=" + shards, 405), "cpu", dir, true,
                             stderr);
    REQUIRE(trainer.run({0, 405}, stop));
  }
  CHECK_NOTHROW(TorchEvaluator::load(dir + "/teacher_best.pt", game.info(), spec, "cpu"));
  // Resumed past teacher_steps, the run goes on by self-play.
  {
    Trainer<Tailten> trainer(game, spec, config("teacher=" + shards), "cpu", dir, true, stderr);
    REQUIRE(trainer.run({0, 410}, stop));
    CHECK(trainer.counters().decisions > 0);
    CHECK(trainer.counters().steps == 410);
  }
  // A teacher that is not there writes no run.
  const std::string refused = temporary_dir("trainer_teacher_refused");
  REQUIRE_THROWS_WITH(
      Trainer<Tailten>(game, spec, config("teacher=" + refused), "cpu", refused, false, stderr),
      Contains("holds no teacher shards"));
  CHECK_FALSE(RunDirectory::holds_run(refused));
  // ... and makes nothing in a run folder given apart from it.
  const std::string out = temporary_dir("trainer_teacher_refused_out") + "/run";
  REQUIRE_THROWS_WITH(
      Trainer<Tailten>(game, spec, config("teacher=" + refused), "cpu", out, false, stderr),
      Contains("holds no teacher shards"));
  CHECK_FALSE(fs::exists(out));
  REQUIRE_THROWS_WITH(Trainer<Tailten>(game, spec, tiny_config(), "cpu", out, true, stderr),
                      Contains("no"));
  CHECK_FALSE(fs::exists(out));
  REQUIRE_THROWS_WITH(read_train_config(training_defaults<Tailten>(), "teacher=" + shards),
                      Contains("teacher and teacher_steps go together"));
}

TEST_CASE(
    "trainer: a generation: the parent network's search teaches the child that starts "
    "from its weights",
    "[trainer][learning]") {
  const Tailten game;
  const std::string spec = "tailten(first_player=0,ringforts=30,max_turns=200)";
  const auto any_game = load_game(spec);
  const std::string parent_run = temporary_dir("generation_parent");
  const auto config = [&](const std::string& more) {
    return read_train_config(training_defaults<Tailten>(),
                             "blocks=1\nchannels=16\ngames=8\nsims=4\nbatch=32\nmin_replay=64\n"
                             "match_seconds=0\nmatch_games=0\nlog_seconds=1\nlr=0.003\n" +
                                 more);
  };
  std::atomic<bool> stop{false};
  {
    Trainer<Tailten> trainer(game, spec, config(""), "cpu", parent_run, false, stderr);
    REQUIRE(trainer.run({0, 20}, stop));
  }
  const std::string parent = parent_run + "/model.pt";
  // The parent's search teaches: every decision holds its visit shares and root value.
  const std::string shards = temporary_dir("generation_shards");
  TeacherOptions teacher;
  teacher.teacher = "az:model=" + parent + ",sims=16";
  teacher.games = 8;
  teacher.shard_games = 4;
  teacher.threads = 2;
  teacher.opening_plies = 2;
  generate_teacher_data(*any_game, teacher, shards, false, nullptr, stop);
  int64_t decisions = 0, spread = 0;
  for (const TeacherShard& shard : read_teacher_data(shards, spec)) {
    CHECK(shard.teacher.starts_with("az:model=" + parent));
    for (const TeacherGame& played : shard.games)
      for (const TeacherDecision& decision : played.decisions) {
        ++decisions;
        spread += decision.policy.size() > 1;
        float total = 0;
        for (const auto& [action, share] : decision.policy) total += share;
        CHECK_THAT(total, Catch::Matchers::WithinAbs(1.0, 1e-4));
        CHECK((decision.value >= -1.0f && decision.value <= 1.0f));  // a root value, not NaN
      }
  }
  INFO(spread << " of " << decisions << " decisions visit more than one move");
  CHECK(spread > decisions / 2);
  // The child starts from the parent and learns its search's choices.
  TeacherSet<Tailten> set(game, shards, spec, 0);
  const auto parent_net = TorchEvaluator::load(parent, game.info(), spec, "cpu");
  const std::string child_run = temporary_dir("generation_child");
  {
    Trainer<Tailten> trainer(
        game, spec, config("init=" + parent + "\nteacher=" + shards + "\nteacher_steps=200\n"),
        "cpu", child_run, false, stderr);
    REQUIRE(trainer.run({0, 200}, stop));
  }
  const auto child = TorchEvaluator::load(child_run + "/model.pt", game.info(), spec, "cpu");
  const double before = loss_above_teacher(game, set, *parent_net);
  const double after = loss_above_teacher(game, set, *child);
  INFO("policy loss above the parent's search " << before << " -> " << after);
  CHECK(after < 0.9 * before);  // 0.171 -> 0.135 when written
  // Shards of another game or cut short are refused, naming them.
  REQUIRE_THROWS_WITH(TeacherSet<Tailten>(game, shards,
                                          "tailten(first_player=1,ringforts=30,"
                                          "max_turns=200)",
                                          0),
                      Contains("not of tailten(first_player=1"));
  const std::string shard = shards + "/shard-000001.kgt";
  const std::string bytes = read_bytes(shard);
  write_bytes(shard, bytes.substr(0, bytes.size() / 2));
  REQUIRE_THROWS_WITH(TeacherSet<Tailten>(game, shards, spec, 0),
                      Contains(shard + ": damaged or truncated"));
}

TEST_CASE(
    "trainer: Fairy-Stockfish's scored moves and values teach a network with a conv policy "
    "head",
    "[trainer][learning]") {
  const Knightmate game;
  const auto any_game = load_game("knightmate");
  const std::string spec = any_game->spec();
  const std::string shards = temporary_dir("trainer_engine_teacher");
  TeacherOptions teacher;
  teacher.teacher = "uci:nodes=200,multipv=3,tie=10";
  teacher.games = 6;
  teacher.shard_games = 3;
  teacher.threads = 2;
  teacher.opening_plies = 2;
  const std::atomic<bool> no_stop{false};
  generate_teacher_data(*any_game, teacher, shards, false, nullptr, no_stop);
  // The engine's value and its scored moves, read back from the shards.
  int64_t spread = 0;
  for (const TeacherShard& shard : read_teacher_data(shards, spec))
    for (const TeacherGame& played : shard.games)
      for (const TeacherDecision& decision : played.decisions) {
        CHECK(decision.value >= -1.0f);
        CHECK(decision.value <= 1.0f);
        REQUIRE(decision.policy.size() <= 3);
        spread += decision.policy.size() > 1;
      }
  CHECK(spread > 0);

  const std::string dir = temporary_dir("trainer_engine_taught");
  const TrainConfig config =
      read_train_config(training_defaults<Knightmate>(),
                        "blocks=1\nchannels=16\npolicy_head=conv\nbatch=32\nmatch_seconds=0\n"
                        "match_games=0\nteacher_holdout=0\nteacher_steps=300\nlr=0.003\nteacher=" +
                            shards);
  CHECK(config.net.policy_head == PolicyHead::kConv);
  TeacherSet<Knightmate> set(game, shards, spec, 0);
  const auto loss = [&](Evaluator& evaluator) { return loss_above_teacher(game, set, evaluator); };
  double before = 0;
  std::atomic<bool> stop{false};
  {
    Trainer<Knightmate> trainer(game, spec, config, "cpu", dir, false, stderr);
    before = loss(*trainer.learner().evaluator());
    REQUIRE(trainer.run({0, 300}, stop));
  }
  const auto model = TorchEvaluator::load(dir + "/model.pt", game.info(), spec, "cpu");
  const double after = loss(*model);
  INFO("policy loss above the teacher's entropy " << before << " -> " << after);
  CHECK(after < 0.8 * before);
  check_plays_legally(dir + "/model.pt", any_game);
}

TEST_CASE("trainer: one network over a grid of rule sets plays each and records them",
          "[trainer][rules]") {
  const auto base = load_game("double_duel(max_turns=6)");
  const DoubleDuel& game = typed_rules<DoubleDuel>(*base);
  const std::string dir = temporary_dir("trainer_rules");
  const TrainConfig config = read_train_config(
      training_defaults<DoubleDuel>(),
      "blocks=1\nchannels=8\ngames=8\nsims=4\nbatch=32\nmin_replay=64\nwindow=2000\n"
      "match_seconds=0\nmatch_games=4\nmatch_sims=2\nbaselines=random\nkeep=2\nlog_seconds=1\n"
      "checkpoint_seconds=1\nrules=neighbor_attack=false,true\n");
  CHECK(sweeps_text(config.rules) == "neighbor_attack=false,true");
  std::atomic<bool> stop{false};
  {
    Trainer<DoubleDuel> trainer(game, base->spec(), config, "cpu", dir, false, stderr);
    REQUIRE(trainer.run({0, 30}, stop));
    REQUIRE(trainer.last_match_round().size() == 2);
    CHECK(trainer.last_match_round()[1].score.games == 4);  // two of each rule set
  }
  const std::string attack = load_game("double_duel(max_turns=6,neighbor_attack=true)")->spec();
  const std::string other = load_game("double_duel(max_turns=6,switch_move=true)")->spec();
  // The network plays both rule sets, and refuses others by name.
  for (const std::string& spec : {base->spec(), attack})
    CHECK_NOTHROW(TorchEvaluator::load(dir + "/model.pt", game.info(), spec, "cpu"));
  CHECK_THROWS_WITH(TorchEvaluator::load(dir + "/model.pt", game.info(), other, "cpu"),
                    Contains("was trained over 2 rule sets, not " + other) && Contains(attack));
  // The replay kept with a checkpoint names each game's rules where they are not the
  // run's game, and a resumed run refills its window from it.
  const RunDirectory run(dir);
  const TeacherShard kept = read_shard(RunDirectory::replay_sample(run.checkpoints().front()));
  std::set<std::string> rules;
  for (const TeacherGame& played : kept.games) rules.insert(played.rules);
  CHECK(rules == std::set<std::string>{"", attack});
  {
    Trainer<DoubleDuel> trainer(game, base->spec(), config, "cpu", dir, true, stderr);
    CHECK(trainer.replay_decisions() > 0);
    REQUIRE(trainer.run({0, 34}, stop));
  }
}

TEST_CASE("trainer: a run goes on from its kept state in a fresh directory", "[trainer]") {
  // What a run keeps for another machine (docs/training.md): its settings, the newest
  // checkpoint with its replay sample, and the best network; nothing else.
  const Tailten game;
  const std::string spec = "tailten(first_player=0,ringforts=30,max_turns=200)";
  const std::string dir = temporary_dir("trainer_kept_from");
  std::atomic<bool> stop{false};
  {
    Trainer<Tailten> trainer(game, spec, tiny_config(), "cpu", dir, false, stderr);
    REQUIRE(trainer.run({0, 20}, stop));
  }
  RunDirectory run(dir);
  const std::string newest = run.checkpoints().front();
  REQUIRE(fs::is_regular_file(RunDirectory::replay_sample(newest)));
  CHECK(fs::file_size(RunDirectory::replay_sample(newest)) < 2'000'000);
  const std::string kept = temporary_dir("trainer_kept");
  fs::create_directories(kept + "/checkpoints");
  for (const std::string& file :
       {std::string("config.json"), std::string("best.pt"),
        "checkpoints/" + fs::path(newest).filename().string(),
        "checkpoints/" + fs::path(RunDirectory::replay_sample(newest)).filename().string()})
    fs::copy_file(dir + "/" + file, kept + "/" + file);
  Trainer<Tailten> trainer(game, spec, tiny_config(), "cpu", kept, true, stderr);
  CHECK(trainer.counters().steps == 20);
  CHECK(trainer.replay_decisions() >= 64);  // min_replay: it trains at once
  REQUIRE(trainer.run({0, 25}, stop));
  CHECK(trainer.counters().steps == 25);
  // Older checkpoints' samples go with them.
  for (const auto& entry : fs::directory_iterator(dir + "/checkpoints")) {
    const std::string name = entry.path().string();
    if (name.ends_with(".replay")) CHECK(fs::exists(name.substr(0, name.size() - 7) + ".ckpt"));
  }
}

TEST_CASE("trainer: the newest checkpoint that loads wins; torn or damaged ones are set aside",
          "[trainer]") {
  const Tailten game;
  const std::string spec = "tailten(first_player=0,ringforts=30,max_turns=200)";
  const std::string dir = temporary_dir("trainer_torn");
  std::atomic<bool> stop{false};
  Trainer<Tailten>(game, spec, tiny_config(), "cpu", dir, false, stderr).run({0, 10}, stop);
  RunDirectory run(dir);
  // What a kill in the middle of writing step 11 leaves: its temporary, half written (its
  // writer's pid past any pid_max, so no live process's); and a newer checkpoint that is
  // torn (as after a disk fault).
  const std::string bytes = read_bytes(run.checkpoint(10));
  std::ofstream(run.checkpoint(11) + ".tmp99999999", std::ios::binary)
      << bytes.substr(0, bytes.size() / 3);
  // A replay sample whose checkpoint a kill never let be written.
  const std::string orphan = RunDirectory::replay_sample(run.checkpoint(7));
  std::ofstream(orphan, std::ios::binary) << "orphan";
  // A live process's write in progress (the test's parent's pid): never swept away.
  const std::string live = run.checkpoint(99) + ".tmp" + std::to_string(getppid());
  std::ofstream(live, std::ios::binary) << "in progress";
  std::ofstream(run.checkpoint(12), std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  // And a newer one whole but for one flipped bit in the middle (a tensor's bytes).
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x10;
  std::ofstream(run.checkpoint(13), std::ios::binary) << flipped;
  {
    Trainer<Tailten> resumed(game, spec, tiny_config(), "cpu", dir, true, stderr);
    CHECK(resumed.counters().steps == 10);
    // The two that do not load are set aside, out of pruning's count.
    CHECK(fs::exists(run.checkpoint(13) + ".damaged"));
    CHECK(fs::exists(run.checkpoint(12) + ".damaged"));
    const std::vector<std::string> listed = run.checkpoints();  // step 0's too, if slow
    REQUIRE(listed.front() == run.checkpoint(10));
    CHECK(std::find(listed.begin(), listed.end(), run.checkpoint(12)) == listed.end());
    REQUIRE(resumed.run({0, 11}, stop));
  }
  CHECK_FALSE(fs::exists(run.checkpoint(11) + ".tmp99999999"));  // swept away
  CHECK(fs::exists(live));
  CHECK_FALSE(fs::exists(orphan));
  // keep=2: the newest written and the one the run went on from, not the damaged ones.
  CHECK(run.checkpoints() == std::vector<std::string>{run.checkpoint(11), run.checkpoint(10)});
}

// ------------------------------------------------------------------- the CLI, killed

// Runs `knightgym train` in a child process with stdout and stderr to `log`.
pid_t start_training(const std::vector<std::string>& args, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> argv{const_cast<char*>(KNIGHTGYM_CLI), const_cast<char*>("train")};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(KNIGHTGYM_CLI, argv.data());
    _exit(127);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST_CASE("train CLI: SIGKILL at random moments, then --resume, loses at most a period",
          "[trainer]") {
  const std::string dir = temporary_dir("cli_kill");
  const std::string config = dir + ".cfg", log = dir + ".log";
  std::ofstream(config) << tiny_config().spec;
  fs::remove(log);
  const std::vector<std::string> first = {"tailten", "--out",    dir,   "--steps",
                                          "100000",  "--config", config};
  const std::vector<std::string> again = {"tailten", "--out", dir, "--steps", "100000", "--resume"};
  Rng rng(3);
  int64_t last_steps = -1;
  const auto newest_steps = [&] {
    RunDirectory run(dir);
    if (run.checkpoints().empty()) return int64_t{-1};
    Learner learner(Tailten().info(), "tailten(first_player=0,ringforts=30,max_turns=200)",
                    NetConfig{1, 8}, 0, {}, "cpu");
    return learner.load_checkpoint(run.checkpoints().front()).steps;
  };
  for (int round = 0; round < 5; ++round) {
    const pid_t pid = start_training(round == 0 ? first : again, log);
    // Once the run has written a checkpoint of its own, kill it at a random moment of the
    // next second or so: often while it writes a file (one a second, a few ms each).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (newest_steps() <= last_steps && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::this_thread::sleep_for(std::chrono::milliseconds(rng.below(1300)));
    kill(pid, SIGKILL);
    REQUIRE(wait_for(pid) == 128 + SIGKILL);
    // Whatever the kill interrupted, the newest checkpoint loads, and steps only grow.
    const int64_t steps = newest_steps();
    REQUIRE(steps > last_steps);
    last_steps = steps;
  }
  REQUIRE(last_steps > 0);
  // A last run ends by itself, a few steps on.
  const pid_t pid = start_training(
      {"tailten", "--out", dir, "--steps", std::to_string(last_steps + 5), "--resume"}, log);
  REQUIRE(wait_for(pid) == 0);
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    REQUIRE_FALSE(is_atomic_temporary(entry.path().filename().string()));
  // Every row whole, and none left from a killed session past the checkpoint it resumed
  // from: the steps and the decisions never go back.
  int64_t step = 0, decisions = 0;
  const auto rows = lines_of(dir + "/metrics.csv");
  for (size_t r = 1; r < rows.size(); ++r) {
    INFO(rows[r]);
    REQUIRE(std::count(rows[r].begin(), rows[r].end(), ',') == 20);  // 21 columns with one baseline
    const std::vector<std::string_view> cells = split(rows[r], ',');
    REQUIRE(std::stoll(std::string(cells[0])) >= step);
    REQUIRE(std::stoll(std::string(cells[2])) >= decisions);
    step = std::stoll(std::string(cells[0]));
    decisions = std::stoll(std::string(cells[2]));
  }
}

TEST_CASE("train CLI: SIGTERM and SIGHUP save a checkpoint and exit; bad flags are refused",
          "[trainer]") {
  const std::string dir = temporary_dir("cli_term");
  const std::string config = dir + ".cfg", log = dir + ".log";
  std::ofstream(config) << tiny_config(1000).spec;
  fs::remove(log);
  const pid_t pid =
      start_training({"tailten", "--out", dir, "--minutes", "10", "--config", config}, log);
  // Once the run has said it starts (its stop handlers are in place by then; a signal
  // before them, on a slow or loaded machine, would end the process as signals do).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (read_bytes(log).find("; run in " + dir) == std::string::npos &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  kill(pid, SIGTERM);
  REQUIRE(wait_for(pid) == 128 + SIGTERM);
  REQUIRE(RunDirectory(dir).checkpoints().size() == 1);
  CHECK_THAT(read_bytes(log),
             Contains("stopped by signal 15: checkpoint written; --resume continues"));

  const auto exit_code = [&](const std::vector<std::string>& args) {
    return wait_for(start_training(args, log));
  };
  CHECK(exit_code({"tailten", "--out", dir, "--minutes", "1"}) == 1);  // a run is there
  CHECK(exit_code({"tailten", "--out", dir + "_new"}) == 1);           // no limit
  CHECK(exit_code({"tailten", "--out", dir, "--steps", "1", "--resume", "--config", config}) == 1);
  CHECK(exit_code({"nosuchgame", "--out", dir + "_new", "--steps", "1"}) == 1);
  const std::string all = read_bytes(log);
  CHECK_THAT(all, Contains("already holds a run"));
  CHECK_THAT(all, Contains("give --minutes M or --steps S"));
  CHECK_THAT(all, Contains("--config is for new runs"));

  // SIGHUP (the terminal closed) stops a resumed run the same way.
  fs::remove(log);
  const pid_t resumed =
      start_training({"tailten", "--out", dir, "--minutes", "10", "--resume"}, log);
  while (read_bytes(log).find("; run in " + dir) == std::string::npos &&
         std::chrono::steady_clock::now() < deadline + std::chrono::seconds(120))
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  kill(resumed, SIGHUP);
  REQUIRE(wait_for(resumed) == 128 + SIGHUP);
  CHECK_THAT(read_bytes(log), Contains("stopped by signal 1: checkpoint written"));
}

TEST_CASE("train CLI: --print-config writes a settings file that reads back", "[trainer]") {
  const std::string path = temporary_dir("print_config") + ".cfg";
  fs::remove(path);
  const pid_t pid = start_training({"knightmate", "--print-config"}, path);
  REQUIRE(wait_for(pid) == 0);
  const std::string text = read_bytes(path);
  CHECK_THAT(text, Contains("channels=64"));
  CHECK_THAT(text, Contains("policy_head=conv"));  // Knightmate's, the A/B's winner
  CHECK_THAT(text, Contains("# residual blocks of the network"));
  REQUIRE(read_train_config(training_defaults<Knightmate>(), text).spec ==
          read_train_config(training_defaults<Knightmate>(), "").spec);
}

// -------------------------------------------------------------------- it learns

TEST_CASE("trainer: a short run on a tiny setting learns to beat random play",
          "[trainer][learning]") {
  const Tailten game;
  const std::string spec = "tailten(first_player=0,ringforts=30,max_turns=200)";
  const std::string dir = temporary_dir("trainer_learns");
  const TrainConfig config =
      read_train_config(training_defaults<Tailten>(),
                        "blocks=2\nchannels=16\ngames=32\nsims=16\nbatch=128\nmin_replay=500\n"
                        "match_seconds=0\nmatch_games=0\ncheckpoint_seconds=1000\n");
  std::atomic<bool> stop{false};
  Trainer<Tailten> trainer(game, spec, config, "cpu", dir, false, stderr);
  REQUIRE(trainer.run({0, 1000}, stop));

  // The trained network against the untrained one (best.pt is still generation 0), each
  // with 8 simulations, and each against random.
  AzConfig search = config.search;
  search.sims = 8;
  const auto score = [&](std::shared_ptr<Evaluator> net, Agent<Tailten>& opponent) {
    AzAgent<Tailten> agent(game, search, std::move(net), 7);
    Agent<Tailten>* agents[2] = {&agent, &opponent};
    return score_agents(play_batched(game, std::span<Agent<Tailten>* const>(agents, 2), 64, 9),
                        2)[0]
        .score;
  };
  RandomAgent<Tailten> random(game, 1);
  const double trained = score(trainer.learner().evaluator(), random);
  const double untrained =
      score(TorchEvaluator::load(dir + "/best.pt", game.info(), spec, "cpu"), random);
  INFO("trained " << trained << ", untrained " << untrained);
  CHECK(trained >= 0.8);
  CHECK(trained >= untrained + 0.2);
}

}  // namespace
}  // namespace knightgym
