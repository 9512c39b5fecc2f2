// An iteration run's progress on disk: it reads back as written, to the last bit of its
// sums; a damaged, reframed, oversized or foreign file is refused by name, as is a run of
// other options (naming them), though not one whose recipe differs only in comments and
// spacing; the table quotes what needs quoting.
#include <catch2/catch.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "tests/cpp/test_files.h"
#include "training/iteration/iteration_state.h"
#include "util/atomic_file.h"

using namespace knightgym;

namespace {

const std::string kRun = R"({"game":"tailten","parent":"pretrained","seed":1})";

IterationState sample_state() {
  IterationState state;
  state.run = kRun;
  GenerationState first;
  first.generation = 1;
  first.parent = "pretrained";
  first.parent_fnv1a = "0123456789abcdef";
  first.phase = GenerationPhase::kDone;
  first.teach_seconds = 12.345678901234567;
  first.train_seconds = 1.0 / 3;
  first.gate.results.count = 3;
  first.gate.results.sum = 1.0 / 3;
  first.gate.results.squares = 2.0 / 3;
  first.gate.wins = 1;
  first.gate.draws = 1;
  first.gate.losses = 1;
  first.decision = GateDecision::kKeep;
  first.truncated = true;
  GenerationState second;
  second.generation = 2;
  second.parent = "gen-1";
  second.parent_fnv1a = "fedcba9876543210";
  second.phase = GenerationPhase::kTrain;
  state.generations = {first, second};
  return state;
}

}  // namespace

TEST_CASE("iteration state: it reads back as written, to the last bit") {
  const std::string path = testing::temporary_dir("iteration_state") + "/iterate.json";
  const IterationState state = sample_state();
  save_iteration_state(path, state);
  CHECK(load_iteration_state(path, kRun) == state);
  // The options may be written with other spacing or member order: compared as JSON.
  CHECK(load_iteration_state(path, R"({"seed": 1, "game": "tailten", "parent": "pretrained"})")
            .generations == state.generations);
}

TEST_CASE("iteration state: damaged, reframed, oversized or foreign files are refused") {
  const std::string dir = testing::temporary_dir("iteration_state_bad");
  const std::string path = dir + "/iterate.json";
  save_iteration_state(path, sample_state());
  const std::string good = *read_file(path);
  const auto refused = [&](const std::string& bytes, const std::string& words) {
    write_file_atomically(path, bytes);
    CHECK_THROWS_WITH(load_iteration_state(path, kRun), Catch::Contains(words));
  };
  std::string flipped = good;
  const size_t wins = flipped.find("\"wins\": 1");
  REQUIRE(wins != std::string::npos);
  flipped[wins + 8] = '2';
  refused(flipped, "damaged (its hash does not match its state)");
  refused(good.substr(0, good.size() - 5), "its frame is wrong");
  refused("{}", "its frame is wrong");
  refused("", "its frame is wrong");
  write_file_atomically(path, good);
  CHECK_THROWS_WITH(load_iteration_state(path, R"({"game":"tailten","parent":"x.pt","seed":2})"),
                    Catch::Contains("a run of other options (parent, seed)"));
  CHECK_THROWS_WITH(load_iteration_state(dir + "/none.json", kRun),
                    Catch::Contains("cannot be read"));
  std::filesystem::resize_file(path, 17u << 20);
  CHECK_THROWS_WITH(load_iteration_state(path, kRun),
                    Catch::Contains("more than an iteration run's state"));
}

TEST_CASE("iteration state: a recipe's comments and spacing are not options") {
  const std::string path = testing::temporary_dir("iteration_state_recipe") + "/iterate.json";
  IterationState state = sample_state();
  // As runs before settings_lines recorded it: the recipe's text whole.
  state.run = R"({"game":"tailten","settings":"# a recipe\nsims = 8\n\ngames=4  # few\n"})";
  save_iteration_state(path, state);
  const IterationState resumed =
      load_iteration_state(path, R"({"game":"tailten","settings":"sims=8\ngames=4\n"})");
  CHECK(resumed.generations == state.generations);
  CHECK_THROWS_WITH(
      load_iteration_state(path, R"({"game":"tailten","settings":"sims=8\ngames=5\n"})"),
      Catch::Contains("a run of other options (settings)"));
}

TEST_CASE("iteration state: a hashed file whose figures disagree is refused by name") {
  const std::string path = testing::temporary_dir("iteration_state_sums") + "/iterate.json";
  IterationState state = sample_state();
  state.generations[0].gate.wins = 5;  // five wins in three games
  save_iteration_state(path, state);
  CHECK_THROWS_WITH(load_iteration_state(path, kRun),
                    Catch::Contains("do not add up to its games"));
  state = sample_state();
  state.generations[1].generation = 3;
  save_iteration_state(path, state);
  CHECK_THROWS_WITH(load_iteration_state(path, kRun), Catch::Contains("out of order"));
}

TEST_CASE("iteration state: the table has a row per generation, quoted where needed") {
  IterationState state = sample_state();
  state.generations[0].parent = "runs/a,b \"x\".pt";
  GateOptions gate;
  const std::string csv = generations_csv(state, gate);
  CHECK(csv.starts_with("generation,parent,parent_fnv1a,phase,"));
  CHECK(csv.find("\n1,\"runs/a,b \"\"x\"\".pt\",0123456789abcdef,done,12.3,0.3,3,1,1,1,") !=
        std::string::npos);
  CHECK(csv.find(",keep,true\n") != std::string::npos);
  CHECK(
      csv.find("\n2,gen-1,fedcba9876543210,train,0.0,0.0,0,0,0,0,0.5000,0.000,undecided,false\n") !=
      std::string::npos);
}
