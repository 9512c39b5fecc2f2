// Training over many rule sets (training/selfplay/rule_sets.h): the grid of a `rules`
// setting, self-play that draws a rule set for each game and plays it by those rules,
// batches whose observations tell each row's rules, teacher data from a folder of runs (a
// run per rule set), and the files that carry each game's rule set (teacher shards of
// format 2, self-play chunks), each refusing rules outside the run's by name.
#include <catch2/catch.hpp>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "agents/evaluator.h"
#include "env/registry/game_list.h"
#include "env/registry/registry.h"
#include "tests/cpp/test_files.h"
#include "training/distributed/chunk.h"
#include "training/selfplay/self_play.h"
#include "training/teacher/teacher_data.h"
#include "training/teacher/teacher_set.h"
#include "util/binary_io.h"

namespace knightgym {
namespace {

using Catch::Matchers::Contains;
using testing::temporary_dir;

const std::string kBase = "double_duel(max_turns=40)";
const std::vector<Sweep> kNeighborAttack = {{"neighbor_attack", {"false", "true"}}};

const DoubleDuel& typed(const std::string& spec, std::shared_ptr<const AnyGame>& keep) {
  keep = load_game(spec);
  return typed_rules<DoubleDuel>(*keep);
}

RuleSets<DoubleDuel> neighbor_attack_rules(std::shared_ptr<const AnyGame>& keep) {
  const DoubleDuel& base = typed(kBase, keep);
  return RuleSets<DoubleDuel>(base, keep->spec(), kNeighborAttack);
}

std::vector<Trajectory<DoubleDuel>> play(const RuleSets<DoubleDuel>& rules, int games,
                                         uint64_t seed) {
  UniformEvaluator evaluator(rules[0].info());
  AzConfig config;
  config.sims = 4;
  SelfPlay<DoubleDuel> self_play(rules, config, evaluator, 6, seed, 4);
  std::vector<Trajectory<DoubleDuel>> finished;
  while (static_cast<int>(finished.size()) < games)
    self_play.step([&](Trajectory<DoubleDuel>&& t) { finished.push_back(std::move(t)); });
  return finished;
}

TEST_CASE("rule grids: sweeps as text, their size, and rule sets made twice refused", "[rules]") {
  const std::vector<Sweep> sweeps =
      parse_sweeps(" neighbor_attack=false,true ; switch_move=true,false");
  REQUIRE(sweeps.size() == 2);
  CHECK(sweeps[1].key == "switch_move");
  CHECK(sweeps[1].values == std::vector<std::string>{"true", "false"});
  CHECK(sweeps_text(sweeps) == "neighbor_attack=false,true;switch_move=true,false");
  CHECK(parse_sweeps(sweeps_text(sweeps)).size() == 2);
  CHECK(parse_sweeps("  ").empty());
  CHECK(grid_size(sweeps) == 4);
  CHECK(grid_size({}) == 1);
  CHECK_THROWS_WITH(parse_sweeps("neighbor_attack=false,true;"), Contains("expected KEY=V1,V2"));
  CHECK_THROWS_WITH(parse_sweeps("switch_move=true,true"), Contains("'true' appears twice"));
  CHECK_THROWS_WITH(expand_grid("double_duel", parse_sweeps("max_turns=200,0200")),
                    Contains("makes double_duel(") && Contains("twice"));
  CHECK_THROWS_WITH(expand_grid("double_duel", parse_sweeps("no_such_rule=1,2")),
                    Contains("no_such_rule"));
}

TEST_CASE("rule sets: a grid's games by index and spec; one network's shapes only", "[rules]") {
  std::shared_ptr<const AnyGame> keep;
  const DoubleDuel& base = typed(kBase, keep);
  const RuleSets<DoubleDuel> rules(
      base, keep->spec(),
      {{"neighbor_attack", {"false", "true"}}, {"switch_move", {"false", "true"}}});
  REQUIRE(rules.size() == 4);
  CHECK(rules.spec(0) == keep->spec());  // every value is the base's
  CHECK(rules.spec(3).find("neighbor_attack=true,switch_move=true") != std::string::npos);
  CHECK(rules[3].params().neighbor_attack);
  CHECK(rules[3].params().switch_move);
  CHECK_FALSE(rules[1].params().neighbor_attack);
  CHECK(rules[1].params().switch_move);
  CHECK(rules[2].params().max_turns == 40);  // the base's other rules stay
  CHECK(rules.index_of(rules.spec(2)) == 2);
  CHECK(rules.index_of("double_duel") == -1);

  Rng rng(5);
  std::set<int> drawn;
  for (int i = 0; i < 200; ++i) drawn.insert(rules.draw(rng));
  CHECK(drawn == std::set<int>{0, 1, 2, 3});
  // One rule set draws nothing: a run of its game alone plays the games it played before.
  const RuleSets<DoubleDuel> alone(base, keep->spec(), {});
  REQUIRE(alone.size() == 1);
  Rng a(9), b(9);
  CHECK(alone.draw(a) == 0);
  CHECK(a.next() == b.next());

  std::shared_ptr<const AnyGame> challenge;
  const auto& duel = typed_rules<KnightsChallenge>(*(challenge = load_game("knights_challenge")));
  CHECK_THROWS_WITH(
      RuleSets<KnightsChallenge>(duel, challenge->spec(), parse_sweeps("mode=ffa4,duel")),
      Contains("one network cannot play both"));
}

TEST_CASE("self-play over rule sets: each game drawn, played and recorded by its rules",
          "[rules][selfplay]") {
  std::shared_ptr<const AnyGame> keep;
  const RuleSets<DoubleDuel> rules = neighbor_attack_rules(keep);
  const auto games = play(rules, 16, 3);
  std::set<int> seen;
  for (const Trajectory<DoubleDuel>& t : games) {
    REQUIRE((t.rule_set == 0 || t.rule_set == 1));
    seen.insert(t.rule_set);
    const DoubleDuel& game = rules[t.rule_set];
    // Every recorded decision follows from the one before by a legal move of its rules.
    for (int i = 0; i + 1 < t.size(); ++i) {
      Action legal[DoubleDuel::kMaxActions];
      const int n = game.legal_actions(t.states[i], legal);
      bool follows = false;
      for (int k = 0; k < n && !follows; ++k) {
        DoubleDuel::State next = t.states[i];
        game.apply(next, legal[k]);
        follows = std::memcmp(&next, &t.states[i + 1], sizeof next) == 0;
      }
      REQUIRE(follows);
    }
  }
  CHECK(seen == std::set<int>{0, 1});
  // The seed decides the draws and the games.
  const auto again = play(rules, 16, 3);
  REQUIRE(again.size() == games.size());
  for (size_t g = 0; g < games.size(); ++g) {
    CHECK(again[g].rule_set == games[g].rule_set);
    CHECK(again[g].size() == games[g].size());
  }
}

TEST_CASE("replay over rule sets: each row observed by its game's rules", "[rules][selfplay]") {
  std::shared_ptr<const AnyGame> keep;
  const RuleSets<DoubleDuel> rules = neighbor_attack_rules(keep);
  const GameInfo info = rules[0].info();
  for (const int rule_set : {0, 1}) {
    ReplayBuffer<DoubleDuel> buffer(100000);
    for (Trajectory<DoubleDuel>& t : play(rules, 12, 7))
      if (t.rule_set == rule_set) buffer.add(std::move(t));
    REQUIRE(buffer.size() > 0);
    const int rows = 16, planes = info.observation_shape.size();
    std::vector<float> observations(rows * planes), policies(rows * info.num_actions),
        values(rows * 2);
    std::vector<uint8_t> masks(rows * info.num_actions);
    Rng rng(1);
    buffer.sample(rules.games(), rows, rng, observations.data(), masks.data(), policies.data(),
                  values.data());
    const int plane = info.observation_shape.height * info.observation_shape.width;
    for (int row = 0; row < rows; ++row)
      CHECK(observations[row * planes + DoubleDuel::kPlaneNeighborAttack * plane] == rule_set);
  }
}

TEST_CASE("teacher data for many rule sets: a folder of runs, each game's rules kept",
          "[rules][teacher]") {
  std::shared_ptr<const AnyGame> keep;
  const RuleSets<DoubleDuel> rules = neighbor_attack_rules(keep);
  const std::string dir = temporary_dir("rules_teacher");
  const std::atomic<bool> no_stop{false};
  TeacherOptions options;
  options.teacher = "mcts:sims=4";
  options.games = 2;
  options.shard_games = 2;
  for (int r = 0; r < rules.size(); ++r)
    generate_teacher_data(*load_game(rules.spec(r)), options, dir + "/" + std::to_string(r), false,
                          nullptr, no_stop);
  CHECK(teacher_run_dirs(dir) == std::vector<std::string>{dir + "/0", dir + "/1"});
  CHECK(teacher_run_dirs(dir + "/1") == std::vector<std::string>{dir + "/1"});
  TeacherSet<DoubleDuel> set(rules, dir, 0);
  std::multiset<int> rule_sets;
  for (const Trajectory<DoubleDuel>& t : set.train().games()) rule_sets.insert(t.rule_set);
  CHECK(rule_sets == std::multiset<int>{0, 0, 1, 1});

  // A run of rules outside the run's is refused by name; so is a folder without runs.
  generate_teacher_data(*load_game("double_duel(max_turns=40,switch_move=true)"), options,
                        dir + "/2", false, nullptr, no_stop);
  CHECK_THROWS_WITH(TeacherSet<DoubleDuel>(rules, dir, 0),
                    Contains(dir + "/2' holds games of double_duel(") &&
                        Contains("switch_move=true") && Contains("not of one of the run's 2"));
  CHECK_THROWS_WITH(teacher_run_dirs(temporary_dir("rules_no_teacher")),
                    Contains("holds no teacher shards") && Contains("nor folders"));
}

TEST_CASE("files that carry a game's rule set: shards (format 1 still read) and chunks",
          "[rules][teacher][chunk]") {
  std::shared_ptr<const AnyGame> keep;
  const RuleSets<DoubleDuel> rules = neighbor_attack_rules(keep);
  const auto games = play(rules, 4, 11);
  TeacherShard shard{rules.spec(0), "self-play", 2, DoubleDuel::kNumActions, {}};
  for (size_t g = 0; g < games.size(); ++g) {
    const int r = games[g].rule_set;
    shard.games.push_back(
        to_teacher_game(rules[r], games[g], static_cast<int64_t>(g), r == 0 ? "" : rules.spec(r)));
  }
  const TeacherShard back = decode_shard(encode_shard(shard), "bytes");
  for (size_t g = 0; g < games.size(); ++g)
    CHECK(back.games[g].rules == (games[g].rule_set == 0 ? "" : rules.spec(1)));

  // A shard of format 1, written before games had rules, reads with none.
  BinaryWriter old;
  old.put_raw("KGTEACH1");
  old.put(uint32_t{1});
  old.put_text(rules.spec(0));
  old.put_text("mcts:sims=4");
  old.put(uint32_t{2}), old.put(uint32_t{DoubleDuel::kNumActions}), old.put(uint32_t{1});
  old.put(int64_t{0}), old.put(uint64_t{42}), old.put(uint8_t{0});
  old.put(1.0f), old.put(-1.0f);
  old.put(uint32_t{1});
  old.put_text(rules[0].serialize(games[0].states[0]));
  old.put(0.5f), old.put(uint32_t{1}), old.put(int32_t{3}), old.put(1.0f);
  old.put_hash();
  const TeacherShard first = decode_shard(old.bytes(), "format 1");
  REQUIRE(first.games.size() == 1);
  CHECK(first.games[0].rules.empty());
  CHECK(first.games[0].start_seed == 42);
  CHECK(first.games[0].decisions[0].value == 0.5f);

  SelfPlayChunk<DoubleDuel> chunk{1, 2, 0, 0, 0.5, games};
  const std::string bytes = encode_chunk(chunk, rules.spec(0), 2);
  const auto decoded =
      decode_chunk<DoubleDuel>(bytes, "chunk 1", rules.spec(0), rules[0].info(), rules.size());
  for (size_t g = 0; g < games.size(); ++g) CHECK(decoded.games[g].rule_set == games[g].rule_set);
  bool other_rules = false;
  for (const auto& t : games) other_rules |= t.rule_set == 1;
  REQUIRE(other_rules);  // the seed's draws
  CHECK_THROWS_WITH(decode_chunk<DoubleDuel>(bytes, "chunk 1", rules.spec(0), rules[0].info(), 1),
                    Contains("chunk 1: a game of rule set 1, but the run has 1"));
}

}  // namespace
}  // namespace knightgym
