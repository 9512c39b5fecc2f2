// Tallies: chunk by chunk equals all at once, a tally crosses processes exactly, and a
// malformed tally is refused by name. Runs cut into chunks: the chunks played anywhere
// and in any order (a runner standing in for Ray, which has its own Python test) give the
// run's figures to the last bit, --batch gives the same games on any thread count, and a
// run resumed from its progress file equals the unbroken run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "agents/agent_kinds.h"
#include "tests/cpp/test_files.h"
#include "tests/cpp/training/balance/game_records.h"
#include "training/balance/balance.h"
#include "training/balance/balance_chunks.h"
#include "training/balance/progress_file.h"
#include "training/balance/result_json.h"

using namespace knightgym;
using testing::record;

namespace {

// Seeded blocks of two 2-player games between two agents, with thirds in the returns so
// that the floating-point sums round.
std::vector<GameRecord> random_blocks(int blocks, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<GameRecord> records;
  for (int b = 0; b < blocks; ++b)
    for (int g = 0; g < 2; ++g) {
      const float r = static_cast<float>(static_cast<int>(rng() % 7) - 3) / 3;
      // Drawn one at a time, in a fixed order (a call's arguments are computed in an
      // order of the compiler's choosing).
      const bool truncated = rng() % 10 == 0;
      const int length = static_cast<int>(rng() % 90) + 5;
      records.push_back(record({r, -r}, {g, 1 - g}, length, truncated));
    }
  return records;
}

RuleSetTally tally_of(const std::vector<GameRecord>& records, size_t first, size_t last) {
  RuleSetTally tally(2, 2);
  for (size_t g = first; g < last; g += 2)
    tally.add_block(std::span<const GameRecord>(records).subspan(g, 2));
  return tally;
}

// balance.json without what may differ between runs of the same games: the timings and
// the thread count.
std::string without_timings(std::string json) {
  for (const char* key : {"\"seconds\": ", "\"threads\": "})
    for (size_t at; (at = json.find(key)) != std::string::npos;)
      json.erase(at, json.find_first_of(",}", at) - at);
  return json;
}

}  // namespace

TEST_CASE("a tally of chunks folded in order is the tally of all the games", "[balance]") {
  const auto records = random_blocks(300, 5);
  const RuleSetTally all = tally_of(records, 0, records.size());
  RuleSetTally folded(2, 2);
  for (size_t first = 0; first < records.size(); first += 40)
    folded.merge(tally_of(records, first, std::min(records.size(), first + 40)));
  // Counts agree exactly, sums to rounding; the figures agree too.
  CHECK(folded.games == all.games);
  CHECK(folded.lengths == all.lengths);
  CHECK(folded.pentanomial == all.pentanomial);
  CHECK(folded.seats[0].ranks == all.seats[0].ranks);
  CHECK(folded.block_advantage.sum == Approx(all.block_advantage.sum));
  const RuleSetFigures a = measure(all, all.blocks), b = measure(folded, folded.blocks);
  CHECK(a.advantage.mean == Approx(b.advantage.mean));
  CHECK(a.advantage.sd == Approx(b.advantage.sd));
  CHECK(a.length.percentiles == b.length.percentiles);
  CHECK(a.agents[0].elo == Approx(b.agents[0].elo));
  // The same figures as from the records themselves.
  const RuleSetFigures c = measure_rule_set(records, 2, 2);
  CHECK(c.advantage.mean == Approx(a.advantage.mean));
  CHECK(c.length.histogram == a.length.histogram);

  // Merging refuses a tally of another shape.
  CHECK_THROWS_WITH(folded.merge(RuleSetTally(3, 1)), Catch::Contains("3 players"));
}

TEST_CASE("length percentiles from the histogram are numpy's", "[balance]") {
  // numpy.percentile([5, 5, 9, 20, 21, 40], [5, 25, 50, 75, 95]).
  std::vector<GameRecord> records;
  for (const int length : {20, 5, 40, 9, 21, 5}) records.push_back(record({1, -1}, {0, 0}, length));
  const RuleSetFigures f = measure_rule_set(records, 2, 1);
  CHECK(f.length.percentiles[0] == Approx(5.0));
  CHECK(f.length.percentiles[1] == Approx(6.0));
  CHECK(f.length.percentiles[2] == Approx(14.5));
  CHECK(f.length.percentiles[3] == Approx(20.75));
  CHECK(f.length.percentiles[4] == Approx(35.25));
  CHECK(f.length.min == 5);
  CHECK(f.length.max == 40);
  CHECK(f.length.decisions.mean == Approx(100.0 / 6));
}

namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a tally crosses a process exactly, and a malformed one is refused", "[balance]") {
  const auto records = random_blocks(50, 11);
  const RuleSetTally tally = tally_of(records, 0, records.size());
  const std::string text = tally.serialize();
  CHECK(text.front() == '{');
  CHECK(RuleSetTally::parse(text) == tally);  // to the last bit
  CHECK(RuleSetTally::parse(RuleSetTally(4, 1).serialize()) == RuleSetTally(4, 1));

  CHECK_THROWS_WITH(RuleSetTally::parse(""), Catch::StartsWith("a balance tally: JSON"));
  // The whitespace-separated format before JSON (knightgym-tally-1) is retired.
  CHECK_THROWS_WITH(RuleSetTally::parse("knightgym-tally-1 2 2 6 3 6 0 0 0 4 0 2"),
                    Catch::StartsWith("a balance tally: JSON, line 1"));
  CHECK_THROWS_WITH(RuleSetTally::parse(text.substr(0, text.size() / 2)),
                    Catch::StartsWith("a balance tally: JSON, line 1"));
  CHECK_THROWS_WITH(RuleSetTally::parse(text + " 7"), Catch::Contains("text after the document"));
  CHECK_THROWS_WITH(RuleSetTally::parse(replaced(text, "\"players\": 2", "\"players\": 99999")),
                    Catch::Contains("players: 99999 is not an integer in [1, 64]"));
  CHECK_THROWS_WITH(RuleSetTally::parse(replaced(text, "\"wins\": ", "\"wins\": -")),
                    Catch::Contains("seats[0].wins: -"));
  CHECK_THROWS_WITH(RuleSetTally::parse(replaced(text, "\"ranks\": [", "\"ranks\": [1, ")),
                    Catch::Contains("seats[0].ranks: expected 2 items, found 3"));
  // Counts too large to add up without overflow are refused by name.
  CHECK_THROWS_WITH(
      RuleSetTally::parse(replaced(text, "\"blocks\": 50", "\"blocks\": 9223372036854775807")),
      Catch::Contains("blocks: 9223372036854775807 is not an integer in [0, 72057594037927936]"));
  // One game more than the blocks hold.
  CHECK_THROWS_WITH(RuleSetTally::parse(replaced(text, "\"games\": 100", "\"games\": 101")),
                    Catch::Contains("blocks times agents"));

  // A bad block changes nothing.
  RuleSetTally before = tally;
  CHECK_THROWS_WITH(before.add_block(std::span<const GameRecord>(records).subspan(0, 1)),
                    Catch::Contains("a block of 1 games"));
  const std::vector<GameRecord> three_seats{record({1, 0, -1}, {0, 1, 0}, 5),
                                            record({1, 0, -1}, {1, 0, 1}, 5)};
  CHECK_THROWS_WITH(before.add_block(three_seats), Catch::Contains("3 returns for 2 players"));
  CHECK(before == tally);
}

TEST_CASE("shared first places are split: each seat's share of the first places", "[balance]") {
  // Four seats, one agent: seats 0 and 1 share first; seat 0 alone; a draw; three share.
  const std::vector<GameRecord> games{
      record({1, 1, 0, 0}, {0, 0, 0, 0}, 9), record({1, 0, 0, 0}, {0, 0, 0, 0}, 9),
      record({0, 0, 0, 0}, {0, 0, 0, 0}, 9), record({1, 1, 1, 0}, {0, 0, 0, 0}, 9)};
  RuleSetTally tally(4, 1);
  for (const GameRecord& game : games) tally.add_block(std::span<const GameRecord>(&game, 1));
  CHECK(tally.seats[0].shared == std::vector<int64_t>{1, 1, 1});
  CHECK(tally.seats[1].shared == std::vector<int64_t>{0, 1, 1});
  CHECK(tally.seats[2].shared == std::vector<int64_t>{0, 0, 1});
  const RuleSetFigures f = measure(tally, tally.blocks);
  // Win rates count a shared first place for each seat (6 wins in 3 decisive games); the
  // shares split it, and add up to the games with a winner.
  CHECK(f.seats[0].wins + f.seats[1].wins + f.seats[2].wins + f.seats[3].wins == 6);
  const std::vector<double> expected{(1 + 1.0 / 2 + 1.0 / 3) / 4, (1.0 / 2 + 1.0 / 3) / 4,
                                     1.0 / 3 / 4, 0};
  double shares = 0;
  for (int s = 0; s < 4; ++s) {
    REQUIRE(f.seats[s].win_share);
    CHECK(f.seats[s].win_share->mean == Approx(expected[s]));
    CHECK(f.seats[s].win_share_sequence.low <= expected[s]);
    CHECK(f.seats[s].win_share_sequence.high >= expected[s]);
    CHECK(f.seats[s].win_share_sequence.low >= 0);
    CHECK(f.seats[s].win_share_sequence.high <= 1);
    shares += f.seats[s].win_share->mean;
  }
  CHECK(shares == Approx(3.0 / 4));
  CHECK(RuleSetTally::parse(tally.serialize()) == tally);

  // Written before shares were counted (no "shared"): unknown with more than two seats,
  // and so after merging with such a tally; with two seats every win was won alone.
  std::string before = tally.serialize();
  for (size_t at; (at = before.find(", \"shared\": [")) != std::string::npos;)
    before.erase(at, before.find(']', at) + 1 - at);
  const RuleSetTally old = RuleSetTally::parse(before);
  CHECK_FALSE(old.shares_counted);
  CHECK_FALSE(measure(old, old.blocks).seats[0].win_share);
  RuleSetTally merged = tally;
  merged.merge(old);
  CHECK_FALSE(merged.shares_counted);
  const RuleSetTally two = tally_of(random_blocks(20, 3), 0, 40);
  std::string two_before = two.serialize();
  for (size_t at; (at = two_before.find(", \"shared\": [")) != std::string::npos;)
    two_before.erase(at, two_before.find(']', at) + 1 - at);
  CHECK(RuleSetTally::parse(two_before) == two);
  CHECK(measure(two, two.blocks).seats[0].win_share->mean ==
        Approx(static_cast<double>(two.seats[0].wins) / two.games));
  // Shares that do not add up to the wins are refused by name.
  CHECK_THROWS_WITH(RuleSetTally::parse(replaced(tally.serialize(), "\"shared\": [1, 1, 1]",
                                                 "\"shared\": [2, 1, 1]")),
                    Catch::Contains("wins, alone and shared, do not add up"));
}

TEST_CASE("a run's chunks played anywhere, in any order, give the same figures", "[balance]") {
  BalanceOptions options;
  options.game = "knight_fight(max_turns=40)";
  options.sweeps = {parse_sweep("double_erase=optional,off")};
  options.agents = {"mcts:sims=4", "random"};
  options.games = 130;
  options.seed = 9;
  options.threads = 2;
  const BalanceResult local = run_balance(options);
  CHECK(local.chunk_games == 20);
  CHECK(local.rule_sets[1].figures.games == 130);

  // Another player (another process, as a Ray worker is) plays each window of chunks
  // backwards; the tallies cross as text.
  const BalanceChunkPlayer elsewhere(options);
  int64_t played = 0;
  const ChunkRunner backwards = [&](int rule_set, int64_t first, int64_t count,
                                    const std::function<void(const RuleSetTally&)>& consume) {
    std::vector<std::string> texts(count);
    for (int64_t i = count - 1; i >= 0; --i)
      texts[i] = elsewhere.play(rule_set, first + i).serialize();
    for (const std::string& text : texts) consume(RuleSetTally::parse(text));
    played += count;
  };
  options.threads = 1;
  const BalanceResult remote = run_balance(options, {}, backwards);
  CHECK(played == 2 * 7);
  CHECK(without_timings(balance_json(remote)) == without_timings(balance_json(local)));

  // A runner that hands back too few chunks is an error, not a short result.
  const ChunkRunner lazy_runner = [](int, int64_t, int64_t,
                                     const std::function<void(const RuleSetTally&)>&) {};
  CHECK_THROWS_WITH(run_balance(options, {}, lazy_runner),
                    Catch::Contains("the runner handed back 0 of"));
}

TEST_CASE("batched chunks: the same games on any thread count, bad batches refused", "[balance]") {
  BalanceOptions options;
  options.game = "tailten";
  options.agents = {"mcts:sims=8", "mcts:sims=2"};
  options.games = 48;
  options.batch = 16;
  options.seed = 4;
  options.sprt = SprtSettings{};
  options.check_every = 20;  // looks after every 2 chunks of 16
  options.threads = 1;
  const BalanceResult one = run_balance(options);
  options.threads = 2;
  const BalanceResult two = run_balance(options);
  const RuleSetFigures& a = one.rule_sets[0].figures;
  const RuleSetFigures& b = two.rule_sets[0].figures;
  CHECK(one.chunk_games == 16);
  CHECK(a.games == 48);
  CHECK(a.advantage.mean == b.advantage.mean);
  CHECK(a.length.histogram == b.length.histogram);
  CHECK(a.agents[0].score.mean == b.agents[0].score.mean);
  CHECK(a.agents[0].score.mean > 0.5);  // the stronger search wins, batched as alone

  // Chunks as long as the batch start every game at once: the games above. Longer
  // chunks keep `batch` games in play, refilled as games end: other games (the agents'
  // streams run through more of them), the same on any thread count.
  options.chunk = 16;
  CHECK(without_timings(balance_json(run_balance(options))) == without_timings(balance_json(two)));
  options.batch = 8;
  options.chunk = 24;
  const BalanceResult refilled = run_balance(options);
  CHECK(refilled.chunk_games == 24);
  CHECK(refilled.rule_sets[0].figures.games == 48);
  options.threads = 1;
  CHECK(without_timings(balance_json(run_balance(options))) ==
        without_timings(balance_json(refilled)));
  CHECK(refilled.rule_sets[0].figures.agents[0].score.mean > 0.5);
  options.chunk = 6;
  CHECK_THROWS_WITH(run_balance(options),
                    Catch::Contains("chunk (6) must be 0 or at least the batch (8) and a "
                                    "multiple of the number of agents (2)"));
  options.chunk = 25;
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("chunk (25)"));
  options.batch = 0;
  options.chunk = 24;
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("chunk (24) needs a batch"));
  options.chunk = 0;

  options.batch = 15;
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("batch (15) must be 0 or a positive "
                                                          "multiple of the number of agents (2)"));
  options.batch = -2;
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("batch (-2)"));
  const BalanceChunkPlayer player([&] {
    BalanceOptions good = options;
    good.batch = 16;
    return good;
  }());
  CHECK(player.layout().chunks == 3);
  CHECK_THROWS_WITH(player.play(0, 3), Catch::Contains("no chunk 3 of rule set 0"));
  CHECK_THROWS_WITH(player.play(1, 0), Catch::Contains("no chunk 0 of rule set 1"));
}

TEST_CASE("a run resumed from its progress file equals the unbroken run", "[balance]") {
  BalanceOptions options;
  options.game = "knight_fight(max_turns=40)";
  options.sweeps = {parse_sweep("mirror_on_moves=true,false")};
  options.agents = {"mcts:sims=4"};
  options.games = 100;
  options.seed = 6;
  options.sprt = SprtSettings{-0.05, 0.05, 0.05, 0.05};
  options.check_every = 40;
  const BalanceResult unbroken = run_balance(options);
  const std::string dir = testing::temporary_dir("balance_resume");
  options.progress_file = dir + "/balance.progress";

  // Stopped in the second rule set: the first one's tally is on disk.
  int64_t seen = 0;
  CHECK_THROWS_AS(run_balance(options,
                              [&](const BalanceProgress& p) {
                                if (p.rule_set == 1 && p.games_done > seen + 20) throw 1;
                                if (p.rule_set == 0) seen = p.games_done;
                              }),
                  int);
  REQUIRE(std::filesystem::exists(options.progress_file));
  const std::string before = testing::read_bytes(options.progress_file);
  // Without --resume the file is refused and left as it is.
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("holds a run's progress"));
  CHECK(testing::read_bytes(options.progress_file) == before);
  options.resume = true;
  CHECK(without_timings(balance_json(run_balance(options))) ==
        without_timings(balance_json(unbroken)));

  // Stopped by the flag in the first rule set: what was folded is saved, and the run
  // resumed from it equals the unbroken one.
  std::filesystem::remove(options.progress_file);
  std::atomic<bool> stop{false};
  int64_t folded = 0;
  CHECK_THROWS_WITH(
      run_balance(
          options,
          [&](const BalanceProgress& p) {
            folded = p.games_done;
            if (p.games_done >= 40) stop = true;
          },
          {}, &stop),
      Catch::Contains("balance: stopped after") && Catch::Contains("--resume goes on"));
  CHECK(folded >= 40);
  REQUIRE(std::filesystem::exists(options.progress_file));
  const BalanceChunkPlayer chunks(options);
  int64_t saved_games = 0;
  for (const SavedRuleSet& rule_set :
       load_progress(options.progress_file,
                     progress_identity(options, chunks.agent_specs(), 20, chunks.grid()))
           .rule_sets)
    saved_games += rule_set.tally.games;
  CHECK(saved_games == folded);
  stop = false;
  CHECK(without_timings(balance_json(run_balance(options, {}, {}, &stop))) ==
        without_timings(balance_json(unbroken)));

  // Resumed in the middle of a rule set, between two looks: chunks 0 to 2 of the first
  // rule set played by hand, as a run saves them.
  const BalanceChunkPlayer player(options);
  const std::string identity = progress_identity(options, player.agent_specs(), 20, player.grid());
  RuleSetTally three(2, 1);
  for (int64_t chunk = 0; chunk < 3; ++chunk) three.merge(player.play(0, chunk));
  save_progress(options.progress_file, identity, {options.games, options.games, {{3, 1.5, three}}});
  const BalanceResult resumed = run_balance(options);
  CHECK(without_timings(balance_json(resumed)) == without_timings(balance_json(unbroken)));
  CHECK(resumed.rule_sets[0].seconds >= 1.5);

  // Another run's progress, or a damaged file, is refused by name.
  BalanceOptions other = options;
  other.seed = 7;
  CHECK_THROWS_WITH(run_balance(other), Catch::Contains("a run with other options"));
  testing::write_bytes(options.progress_file, before.substr(0, before.size() / 2));
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("balance.progress: JSON, line 1"));
  testing::write_bytes(options.progress_file,
                       replaced(before, "\"seconds\": ", "\"seconds\": \"soon\", \"was\": "));
  CHECK_THROWS_WITH(run_balance(options),
                    Catch::Contains("rule_sets[0].seconds: expected a number, found a string"));
  testing::write_bytes(options.progress_file, "something else\n");
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("not a balance run's progress"));
  testing::write_bytes(options.progress_file, "{\"format\": \"a recipe\"}");
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("not a balance run's progress"));
}

TEST_CASE("a balance run's progress of the text format before JSON is refused", "[balance]") {
  const std::string path = testing::temporary_dir("balance_progress_1") + "/balance.progress";
  const std::string identity = "{\"game\": \"knight_fight\", \"seed\": 1}";
  testing::write_bytes(path, "knightgym-balance-progress-1\n" + identity + "\n1\n3 0x1.8p+0\n");
  CHECK_THROWS_WITH(load_progress(path, identity),
                    Catch::Contains("balance.progress: not a balance run's progress (not JSON"));
}

TEST_CASE("random openings vary the games of an engine that plays one game", "[balance]") {
  // Fairy-Stockfish at a fixed node count plays the same game every time from one start.
  BalanceOptions options;
  options.game = "knightmate";
  options.agents = {"uci:nodes=1"};
  options.games = 8;
  const RuleSetFigures same = run_balance(options).rule_sets[0].figures;
  CHECK(same.length.min == same.length.max);
  CHECK((same.seats[0].wins == 8 || same.seats[1].wins == 8 || same.seats[0].draws == 8));

  options.opening_plies = 4;
  const RuleSetFigures varied = run_balance(options).rule_sets[0].figures;
  CHECK(varied.length.min < varied.length.max);
  CHECK(varied.length.min >= 4);  // the random plies count as decisions
  // Seeded: the same games again on any thread count.
  options.threads = 2;
  CHECK(run_balance(options).rule_sets[0].figures.length.histogram == varied.length.histogram);
  // Batched chunks draw the same openings (the engine then plays them with its hash
  // shared between the games of a batch, so not the same games).
  options.batch = 8;
  const RuleSetFigures batched = run_balance(options).rule_sets[0].figures;
  CHECK(batched.length.min < batched.length.max);

  options.opening_plies = -1;
  CHECK_THROWS_WITH(run_balance(options), Catch::Contains("opening_plies must be at least 0"));
}

TEST_CASE("a run's progress names the bytes of its networks: a network shipped anew is refused",
          "[balance]") {
  const std::string dir = testing::temporary_dir("balance_networks");
  const std::string network = dir + "/network.pt", progress = dir + "/balance.progress";
  testing::write_bytes(network, "the weights of one network");
  BalanceOptions options;
  options.game = "knight_fight";
  const std::vector<RuleSet> grid = expand_grid(options.game, {});
  const std::vector<std::string> az = {read_agent_config("az:sims=2,model=" + network).spec};
  const std::string before = progress_identity(options, az, 10, grid);
  save_progress(progress, before, {});
  CHECK(load_progress(progress, before).rule_sets.empty());
  testing::write_bytes(network, "the weights of another");
  const std::string after = progress_identity(options, az, 10, grid);
  CHECK(after != before);
  CHECK_THROWS_WITH(load_progress(progress, after),
                    Catch::Contains("a run with other options (networks)"));
  // Agents that load no network name none.
  const std::string mcts = progress_identity(options, {"mcts:sims=4"}, 10, grid);
  CHECK_THAT(mcts, Catch::Contains("\"networks\": []"));
}

TEST_CASE("a run resumed with more games is extended, its sequences tuned as at its start",
          "[balance]") {
  BalanceOptions options;
  options.game = "knight_fight(max_turns=40)";
  options.sweeps = {{"mirror_on_moves", {"true", "false"}}};
  options.agents = {"random"};
  options.games = 200;
  options.seed = 3;
  BalanceOptions longer = options;
  longer.games = 400;
  const BalanceResult unbroken = run_balance(longer);

  const std::string dir = testing::temporary_dir("balance_extend");
  options.progress_file = longer.progress_file = dir + "/balance.progress";
  const BalanceResult first = run_balance(options);
  CHECK(first.tuned_blocks == 200);
  // The finished run's progress stays; a plain run there is refused, and so is a
  // shorter one.
  REQUIRE(std::filesystem::exists(options.progress_file));
  CHECK_THROWS_WITH(run_balance(longer), Catch::Contains("--resume goes on"));
  longer.resume = true;
  BalanceOptions shorter = longer;
  shorter.games = 100;
  CHECK_THROWS_WITH(run_balance(shorter), Catch::Contains("extended, not shortened"));

  const BalanceResult extended = run_balance(longer);
  CHECK(extended.tuned_blocks == 200);  // as at its start
  CHECK(unbroken.tuned_blocks == 400);
  for (size_t r = 0; r < 2; ++r) {
    const RuleSetFigures &e = extended.rule_sets[r].figures, &u = unbroken.rule_sets[r].figures;
    CHECK(e.games == 400);
    // The same games: every count and sum; only the sequences' tuning differs.
    CHECK(e.seats[0].wins == u.seats[0].wins);
    CHECK(e.advantage.mean == u.advantage.mean);
    CHECK(e.advantage.sd == u.advantage.sd);
    CHECK(e.advantage_sequence.low != u.advantage_sequence.low);
    CHECK(e.advantage_sequence.low == mean_sequence(e.advantage, {200}).low);
  }
  // Resumed again with the same games: the same result.
  CHECK(without_timings(balance_json(run_balance(longer))) ==
        without_timings(balance_json(extended)));

  // A run whose last chunk was short cannot be extended: that chunk would change.
  std::filesystem::remove(options.progress_file);
  BalanceOptions odd = options;
  odd.games = 190;
  odd.batch = 20;
  run_balance(odd);
  odd.games = 400;
  odd.resume = true;
  CHECK_THROWS_WITH(run_balance(odd), Catch::Contains("ends in a short chunk"));
}
