// Teacher data: shards hold what the teacher did at every decision and read back to the
// same games; a run cut short and resumed, or played on more threads, writes the same
// bytes as one unbroken run; a truncated, damaged or foreign file is refused by name.
#include <sys/stat.h>
#include <algorithm>
#include <atomic>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>

#include "agents/random_agent.h"
#include "env/games/knight_fight/knight_fight.h"
#include "env/registry/registry.h"
#include "env/registry/typed_code.h"
#include "tests/cpp/test_files.h"
#include "training/teacher/teacher_data.h"
#include "training/teacher/typed_teacher.h"

namespace knightgym {
namespace {

using Catch::Contains;
using testing::read_bytes;
using testing::temporary_dir;
using testing::write_bytes;

const std::atomic<bool> kNoStop{false};

TeacherOptions small_options() {
  TeacherOptions options;
  options.teacher = "mcts:sims=16";
  options.games = 5;
  options.shard_games = 2;
  options.opening_plies = 2;
  options.seed = 7;
  return options;
}

TeacherRun generate(const AnyGame& game, const TeacherOptions& options, const std::string& dir,
                    bool resume = false) {
  return generate_teacher_data(game, options, dir, resume, nullptr, kNoStop);
}

TEST_CASE("teacher shards hold each decision's state, search policy, value and the result",
          "[teacher]") {
  const auto game = load_game("tailten(max_turns=30)");
  const std::string dir = temporary_dir("teacher_contents");
  const TeacherRun run = generate(*game, small_options(), dir);
  CHECK(run.games == 5);
  CHECK(run.shards == 3);  // 2 + 2 + 1 games
  const std::vector<TeacherShard> shards = read_teacher_data(dir, game->spec());
  REQUIRE(shards.size() == 3);
  int64_t decisions = 0, index = 0;
  for (const TeacherShard& shard : shards) {
    CHECK(shard.game_spec == game->spec());
    CHECK(shard.teacher.starts_with("mcts:sims=16,"));
    for (const TeacherGame& played : shard.games) {
      CHECK(played.index == index++);
      CHECK(std::accumulate(played.returns.begin(), played.returns.end(), 0.0f) == 0.0f);
      auto state = game->new_initial_state(played.start_seed);
      REQUIRE_FALSE(played.decisions.empty());
      for (const TeacherDecision& decision : played.decisions) {
        const auto here = game->deserialize_state(decision.state);
        CHECK(here->serialize() == decision.state);
        const std::vector<Action> legal = here->legal_actions();
        float total = 0;
        for (const auto& [action, probability] : decision.policy) {
          CHECK(std::find(legal.begin(), legal.end(), action) != legal.end());
          total += probability;
        }
        CHECK(std::abs(total - 1) < 1e-4);
        CHECK((decision.value >= -1 && decision.value <= 1));
      }
      // The last decision's most visited move ends the game as recorded.
      decisions += static_cast<int64_t>(played.decisions.size());
    }
  }
  CHECK(decisions == run.decisions);
  // Encoding is exact.
  CHECK(encode_shard(decode_shard(encode_shard(shards[1]), "bytes")) == encode_shard(shards[1]));
}

TEST_CASE("a teacher run resumed, or on more threads, writes the same shards", "[teacher]") {
  const auto game = load_game("knight_fight(max_turns=20)");
  TeacherOptions options = small_options();
  const std::string whole = temporary_dir("teacher_whole");
  generate(*game, options, whole);

  options.threads = 3;
  const std::string threaded = temporary_dir("teacher_threaded");
  generate(*game, options, threaded);

  const std::string cut = temporary_dir("teacher_cut");
  options.games = 3;  // its last shard is short, and is played again once there are more
  CHECK(generate(*game, options, cut).shards == 2);
  options.games = 5;
  CHECK(generate(*game, options, cut, true).games == 3);  // games 2, 3 and 4
  CHECK(generate(*game, options, cut, true).games == 0);  // nothing left

  for (const char* shard : {"/shard-000000.kgt", "/shard-000001.kgt", "/shard-000002.kgt"}) {
    CHECK(read_bytes(whole + shard) == read_bytes(threaded + shard));
    CHECK(read_bytes(whole + shard) == read_bytes(cut + shard));
  }
}

TEST_CASE(
    "a batched teacher run: the same shards on more threads or resumed, its games as "
    "played alone",
    "[teacher]") {
  const auto game = load_game("knight_fight(max_turns=20)");
  TeacherOptions options = small_options();
  options.games = 8;
  options.shard_games = 4;
  options.batch = 2;
  const std::string whole = temporary_dir("teacher_batched_whole");
  generate(*game, options, whole);
  CHECK_THAT(read_bytes(whole + "/teach.txt"), Contains("batch=2\n"));

  options.threads = 3;
  const std::string threaded = temporary_dir("teacher_batched_threaded");
  generate(*game, options, threaded);
  const std::string cut = temporary_dir("teacher_batched_cut");
  options.games = 5;  // its last shard and its last batch are short, and played again
  CHECK(generate(*game, options, cut).shards == 2);
  options.games = 8;
  CHECK(generate(*game, options, cut, true).games == 4);  // games 4 to 7
  for (const char* shard : {"/shard-000000.kgt", "/shard-000001.kgt"}) {
    CHECK(read_bytes(whole + shard) == read_bytes(threaded + shard));
    CHECK(read_bytes(whole + shard) == read_bytes(cut + shard));
  }

  // A game played together with others starts and opens as alone, and its every decision
  // is a legal move with the teacher's visit shares.
  const std::vector<TeacherShard> shards = read_teacher_data(whole, game->spec());
  const AgentFactory teacher(options.teacher, game);
  const TeacherGame alone =
      play_teacher_game(*game, teacher, 5, options.seed, options.opening_plies, nullptr);
  const TeacherGame& together = shards[1].games[1];
  REQUIRE(together.index == 5);
  CHECK(together.start_seed == alone.start_seed);
  CHECK(together.decisions[0].state == alone.decisions[0].state);
  for (const TeacherShard& shard : shards)
    for (const TeacherGame& played : shard.games)
      for (const TeacherDecision& decision : played.decisions) {
        const auto state = game->deserialize_state(decision.state);
        const std::vector<Action> legal = state->legal_actions();
        REQUIRE_FALSE(decision.policy.empty());
        for (const auto& [action, share] : decision.policy)
          CHECK(std::find(legal.begin(), legal.end(), action) != legal.end());
        CHECK((decision.value >= -1 && decision.value <= 1));
      }

  // Resumed with another batch, a run with games left is refused; a batch fits in a shard.
  options.batch = 4;
  options.games = 12;
  CHECK_THROWS_WITH(generate(*game, options, whole, true), Contains("other settings"));
  options.batch = 5;
  CHECK_THROWS_WITH(generate(*game, options, temporary_dir("teacher_batched_bad")),
                    Contains("batch must be in 1..shard_games (4), got 5"));

  // A run of the batches before (each seat's agent apart) is refused while games are left,
  // and resumed once whole, as there is nothing left to play.
  options.batch = 2;
  const std::string settings = read_bytes(whole + "/teach.txt");
  std::string earlier = settings;
  earlier.erase(earlier.find("batch_refill=true\n"), std::string("batch_refill=true\n").size());
  write_bytes(whole + "/teach.txt", earlier);
  CHECK_THROWS_WITH(generate(*game, options, whole, true),
                    Contains("was taught in batches of an earlier kind"));
  options.games = 8;
  CHECK(generate(*game, options, whole, true).games == 0);
}

// A teacher in every seat that plays at random and keeps, for each act_batch, how many
// games it decided and whether their movers differed.
class BatchSpy final : public Agent<KnightFight> {
 public:
  explicit BatchSpy(const KnightFight& game) : game_(game), random_(game, 3) {}
  Action act(const State& state, const SearchLimits& limits) override {
    return random_.act(state, limits);
  }
  void act_batch(std::span<const State> states, Action* out, const SearchLimits& limits,
                 SearchReport* reports) override {
    sizes.push_back(static_cast<int>(states.size()));
    mixed_movers |= std::any_of(states.begin(), states.end(), [&](const State& state) {
      return game_.current_player(state) != game_.current_player(states[0]);
    });
    Agent<KnightFight>::act_batch(states, out, limits, reports);
  }
  std::vector<int> sizes;
  bool mixed_movers = false;

 private:
  const KnightFight& game_;
  RandomAgent<KnightFight> random_;
};

TEST_CASE("batched teacher games keep every slot in play until no game is left to begin",
          "[teacher]") {
  const auto game = load_game("knight_fight(max_turns=20)");
  const KnightFight& rules = typed_rules<KnightFight>(*game);
  BatchSpy spy(rules);
  const std::vector<TeacherGame> games =
      play_teacher_games_typed(rules, spy, 10, 7, 3, 5, 2, nullptr);
  REQUIRE(games.size() == 7);
  int64_t decisions = 0;
  size_t longest = 0;
  for (size_t g = 0; g < games.size(); ++g) {
    CHECK(games[g].index == 10 + static_cast<int64_t>(g));
    CHECK_FALSE(games[g].decisions.empty());
    CHECK(games[g].returns.size() == 2);
    decisions += static_cast<int64_t>(games[g].decisions.size());
    longest = std::max(longest, games[g].decisions.size());
  }
  // One call a round decides every game in play, whoever is to move in each: 3 of them
  // until the last game has begun, fewer only in the last game's span.
  CHECK(std::accumulate(spy.sizes.begin(), spy.sizes.end(), int64_t{0}) == decisions);
  CHECK(*std::max_element(spy.sizes.begin(), spy.sizes.end()) == 3);
  const auto short_calls =
      std::count_if(spy.sizes.begin(), spy.sizes.end(), [](int n) { return n < 3; });
  CHECK(static_cast<size_t>(short_calls) < longest);
  CHECK(spy.sizes.size() < static_cast<size_t>(decisions) / 2);
  CHECK(spy.mixed_movers);
}

TEST_CASE("teacher runs refuse other settings and a second run in one directory", "[teacher]") {
  const auto game = load_game("tailten(max_turns=10)");
  TeacherOptions options = small_options();
  options.games = 1;
  const std::string dir = temporary_dir("teacher_settings");
  generate(*game, options, dir);
  CHECK_THROWS_WITH(generate(*game, options, dir), Contains("already holds a teacher run"));
  options.seed = 8;
  CHECK_THROWS_WITH(generate(*game, options, dir, true), Contains("other settings"));
  // Without its teach.txt, the shards are another run's: not overwritten nor mixed with.
  std::filesystem::remove(dir + "/teach.txt");
  const std::string shard = read_bytes(dir + "/shard-000000.kgt");
  CHECK_THROWS_WITH(generate(*game, options, dir),
                    Contains("holds teacher shards (shard-000000.kgt) but no teach.txt"));
  CHECK(read_bytes(dir + "/shard-000000.kgt") == shard);
  CHECK_FALSE(std::filesystem::exists(dir + "/teach.txt"));
  // A shard that is a FIFO is refused at once, not waited on.
  const std::string fifo_run = temporary_dir("teacher_fifo");
  options.games = 2;
  options.shard_games = 1;
  generate(*game, options, fifo_run);
  std::filesystem::remove(fifo_run + "/shard-000001.kgt");
  REQUIRE(mkfifo((fifo_run + "/shard-000001.kgt").c_str(), 0600) == 0);
  CHECK_THROWS_WITH(generate(*game, options, fifo_run, true),
                    Contains("shard-000001.kgt: cannot read it (or it is no regular file)"));
  options.games = 1;
  CHECK_THROWS_WITH(generate(*game, options, temporary_dir("teacher_none"), true),
                    Contains("no teacher run to resume"));
  options.threads = 0;
  CHECK_THROWS_WITH(generate(*game, options, temporary_dir("teacher_bad")),
                    Contains("threads must be in 1.."));
  CHECK_THROWS_WITH(read_teacher_data(temporary_dir("teacher_empty"), game->spec()),
                    Contains("holds no teacher shards"));
}

#if KNIGHTGYM_TORCH
TEST_CASE("a teacher run records its networks' hashes and is resumed only by the same bytes",
          "[teacher]") {
  const auto game = load_game("tailten(max_turns=6)");
  const std::string dir = temporary_dir("teacher_networks");
  const std::string network = dir + "/teacher.pt";
  write_bytes(network, read_bytes(std::string(KNIGHTGYM_MODELS_DIR) + "/tailten.pt"));
  TeacherOptions options = small_options();
  options.teacher = "az:model=" + network + ",sims=2,rules=any";
  options.games = 1;
  options.shard_games = 1;
  const std::string run = dir + "/run";
  generate(*game, options, run);
  const std::string settings = read_bytes(run + "/teach.txt");
  const size_t line = settings.find("\nnetworks=" + network + ":");
  REQUIRE(line != std::string::npos);
  CHECK(settings.size() == line + 1 + std::string("networks=").size() + network.size() + 18);

  // The file named in the teacher's spec shipped anew since: another teacher, refused while
  // games are left to play, and a whole run resumed, as there is nothing left to play.
  std::string other = settings;
  other.replace(settings.size() - 17, 16, "0123456789abcdef");
  write_bytes(run + "/teach.txt", other);
  CHECK(generate(*game, options, run, true).games == 0);
  options.games = 2;
  CHECK_THROWS_WITH(generate(*game, options, run, true),
                    Contains("was taught by other network files than the teacher's now: networks=" +
                             network + ":0123456789abcdef, not networks=" + network + ":"));
  // A run recorded before the hashes: refused, with the line to add if the file is unchanged.
  write_bytes(run + "/teach.txt", settings.substr(0, line + 1));
  CHECK_THROWS_WITH(generate(*game, options, run, true),
                    Contains("records no hash of the teacher's networks") &&
                        Contains("append the line networks=" + network + ":"));
  CHECK(read_bytes(run + "/teach.txt") == settings.substr(0, line + 1));  // unchanged
  write_bytes(run + "/teach.txt", settings);                              // the same bytes: resumed
  CHECK(generate(*game, options, run, true).games == 1);
}
#endif

TEST_CASE("a truncated, damaged or foreign shard is refused naming the file", "[teacher]") {
  const auto game = load_game("tailten(max_turns=10)");
  TeacherOptions options = small_options();
  options.games = 2;
  const std::string dir = temporary_dir("teacher_refused");
  generate(*game, options, dir);
  const std::string path = dir + "/shard-000000.kgt";
  const std::string bytes = read_bytes(path);
  REQUIRE(read_shard(path, game->spec()).games.size() == 2);

  write_bytes(path, bytes.substr(0, bytes.size() - 5));
  CHECK_THROWS_WITH(read_shard(path), Contains(path + ": damaged or truncated"));
  write_bytes(path, bytes.substr(0, 6));
  CHECK_THROWS_WITH(read_shard(path), Contains("not a knightgym teacher shard"));
  std::string damaged = bytes;
  damaged[damaged.size() / 2] ^= 0x40;
  write_bytes(path, damaged);
  CHECK_THROWS_WITH(read_shard(path), Contains("damaged or truncated"));
  write_bytes(path, "{\"spec\": \"tailten\"}\n");
  CHECK_THROWS_WITH(read_shard(path), Contains("not a knightgym teacher shard"));
  write_bytes(path, bytes);
  CHECK_THROWS_WITH(read_shard(path, "knight_fight"),
                    Contains("holds games of tailten(") && Contains("not of knight_fight"));
  CHECK_THROWS_WITH(read_shard(dir + "/missing.kgt"), Contains("cannot read it"));
}

TEST_CASE("a shard whose policy or value is not a number in range is refused", "[teacher]") {
  const auto game = load_game("tailten(max_turns=10)");
  const AgentFactory greedy("greedy", game);
  TeacherShard shard{game->spec(), "greedy", 2, game->info().num_actions, {}};
  shard.games.push_back(play_teacher_game(*game, greedy, 0, 1, 0, nullptr));
  REQUIRE(decode_shard(encode_shard(shard), "good.kgt").games.size() == 1);
  TeacherShard bad = shard;
  bad.games[0].decisions[0].policy[0].second = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(
      decode_shard(encode_shard(bad), "nan.kgt"),
      Contains("nan.kgt: ") && Contains("a probability of nan") && Contains("not in [0, 1]"));
  bad = shard;
  bad.games[0].decisions[0].value = 1.5f;
  CHECK_THROWS_WITH(decode_shard(encode_shard(bad), "value.kgt"),
                    Contains("a value of 1.5") && Contains("neither NaN nor in [-1, 1]"));
}

TEST_CASE("an engine teacher's decisions hold its one move", "[teacher]") {
  // A teacher that reports no search (greedy here, an external engine likewise) gives
  // its chosen move the whole policy, and no value.
  const auto game = load_game("tailten(max_turns=10)");
  const AgentFactory greedy("greedy", game);
  const TeacherGame played = play_teacher_game(*game, greedy, 0, 1, 0, nullptr);
  REQUIRE_FALSE(played.decisions.empty());
  for (const TeacherDecision& decision : played.decisions) {
    REQUIRE(decision.policy.size() == 1);
    CHECK(decision.policy[0].second == 1.0f);
    CHECK(std::isnan(decision.value));
  }
}

}  // namespace
}  // namespace knightgym
