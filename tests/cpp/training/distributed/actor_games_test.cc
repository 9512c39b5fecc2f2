// A distributed run without a cluster: actors in this process behind a ChunkChannel.
// An actor plays the same chunk the same way every time and refuses bad weights; the
// trainer takes each chunk once, in order, and ends with the same network whether one
// actor answers in order or three answer out of order; a run stopped while it waits for
// a chunk writes a checkpoint, and the resumed run asks for the chunks after it.
#include <catch2/catch.hpp>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "env/registry/game_list.h"
#include "tests/cpp/test_files.h"
#include "training/distributed/actor_games.h"
#include "training/distributed/self_play_actor.h"
#include "training/trainer/trainer.h"

namespace knightgym {
namespace {

using Catch::Matchers::Contains;
using testing::read_bytes;
using testing::temporary_dir;

const std::string kSpec = "tailten(first_player=0,ringforts=30,max_turns=200)";

TrainConfig tiny_config() {
  return read_train_config(
      training_defaults<Tailten>(),
      "blocks=1\nchannels=8\ngames=4\nsims=4\nbatch=32\nmin_replay=64\nratio=1\n"
      "match_seconds=0\nmatch_games=0\nlog_seconds=1\ncheckpoint_seconds=1000\n"
      "chunk_games=6\nchunks_ahead=3\npublish_steps=4\n");
}

std::string fresh_weights(const Tailten& game, const TrainConfig& config) {
  return Learner(game.info(), kSpec, config.net, 1, {}, "cpu").model_bytes();
}

// Actors in this process. Requests wait until a receive; then they are played, all of
// them, by the actors in turn, the newest request first if `reverse` (answers out of
// order, as on a cluster), each with the weights it was asked with.
class LoopbackChannel final : public ChunkChannel {
 public:
  LoopbackChannel(const Tailten& game, const TrainConfig& config, int actors, bool reverse)
      : reverse_(reverse) {
    for (int i = 0; i < actors; ++i)
      actors_.push_back(std::make_unique<SelfPlayActor<Tailten>>(game, kSpec, config, "cpu", 1));
  }

  void publish(int64_t version, std::string weights) override {
    weights_ = {version, std::make_shared<const std::string>(std::move(weights))};
    ++published;
  }
  void request(int64_t number) override {
    asked.push_back(number);
    waiting_.push_back({number, weights_});
  }
  std::string receive(int64_t number) override {
    ++receives;
    if (stop_at && receives == stop_at) {
      *stop = true;
      return "";
    }
    while (!waiting_.empty()) {
      const auto [n, weights] = reverse_ ? waiting_.back() : waiting_.front();
      reverse_ ? waiting_.pop_back() : waiting_.pop_front();
      SelfPlayActor<Tailten>& actor = *actors_[turn_++ % actors_.size()];
      if (actor.version() != weights.first) actor.set_weights(weights.first, *weights.second);
      done_[n] = actor.play(n).bytes;
    }
    const auto found = done_.find(number);
    REQUIRE(found != done_.end());
    std::string bytes = std::move(found->second);
    done_.erase(found);
    return bytes;
  }
  std::vector<double> actor_rates(double) override {
    return std::vector<double>(actors_.size(), 1.0);
  }

  std::vector<int64_t> asked;
  int published = 0, receives = 0;
  int stop_at = 0;  // the receive that stops the run, if any
  std::atomic<bool>* stop = nullptr;

 private:
  using Weights = std::pair<int64_t, std::shared_ptr<const std::string>>;
  bool reverse_;
  std::vector<std::unique_ptr<SelfPlayActor<Tailten>>> actors_;
  Weights weights_;
  std::deque<std::pair<int64_t, Weights>> waiting_;
  std::map<int64_t, std::string> done_;
  size_t turn_ = 0;
};

TEST_CASE("self-play actor: a chunk is the same games every time; bad weights are refused",
          "[distributed]") {
  const Tailten game;
  const TrainConfig config = tiny_config();
  SelfPlayActor<Tailten> actor(game, kSpec, config, "cpu", 1);
  REQUIRE_THROWS_WITH(actor.play(0), Contains("before any weights"));
  REQUIRE_THROWS_WITH(actor.set_weights(3, "not a network"),
                      Contains("weights of version 3 is not a TorchScript module"));
  CHECK(actor.version() == -1);
  actor.set_weights(5, fresh_weights(game, config));
  CHECK(actor.version() == 5);

  const auto decode = [&](const PlayedChunk& played) {
    return decode_chunk<Tailten>(played.bytes, "chunk", kSpec, game.info());
  };
  const auto a = decode(actor.play(2)), b = decode(actor.play(2)), c = decode(actor.play(3));
  REQUIRE(a.games.size() == 6);
  CHECK(a.version == 5);
  CHECK(a.decisions == b.decisions);
  CHECK(a.decisions != c.decisions);
  for (size_t g = 0; g < a.games.size(); ++g) {
    REQUIRE(a.games[g].size() == b.games[g].size());
    CHECK(std::memcmp(a.games[g].states.data(), b.games[g].states.data(),
                      a.games[g].states.size() * sizeof(Tailten::State)) == 0);
    CHECK(a.games[g].policy_probs == b.games[g].policy_probs);
  }
}

TEST_CASE("actor games: one actor in order and three out of order train the same network",
          "[distributed]") {
  const Tailten game;
  const TrainConfig config = tiny_config();
  std::atomic<bool> stop{false};
  std::vector<std::string> models;
  std::vector<TrainingCounters> counters;
  for (const auto& [actors, reverse] : {std::pair{1, false}, {3, true}}) {
    const std::string dir = temporary_dir("actor_games");
    LoopbackChannel channel(game, config, actors, reverse);
    ActorGames<Tailten> source(game, kSpec, config, channel);
    Trainer<Tailten> trainer(game, kSpec, config, "cpu", dir, false, stderr);
    REQUIRE(trainer.run({0, 40}, stop, &source));
    counters.push_back(trainer.counters());
    counters.back().milliseconds = 0;  // the one counter that is the clock's
    models.push_back(read_bytes(dir + "/model.pt"));
    // Each chunk asked for once, in order, chunks_ahead beyond the last one taken.
    const int64_t taken = trainer.counters().chunks;
    REQUIRE(taken >= 3);
    for (size_t i = 0; i < channel.asked.size(); ++i) CHECK(channel.asked[i] == int64_t(i));
    CHECK(static_cast<int64_t>(channel.asked.size()) == taken + config.chunks_ahead - 1);
    CHECK(trainer.counters().games == taken * config.chunk_games);
    // Weights go out at the start and every publish_steps steps after, at most.
    CHECK(channel.published >= 2);
    CHECK(channel.published <= 1 + 40 / config.publish_steps);
  }
  CHECK(counters[0] == counters[1]);
  CHECK(models[0] == models[1]);
}

TEST_CASE("actor games: a run stopped while it waits resumes with the chunks after its own",
          "[distributed]") {
  const Tailten game;
  const TrainConfig config = tiny_config();
  const std::string dir = temporary_dir("actor_games_stop");
  std::atomic<bool> stop{false};
  int64_t taken = 0;
  {
    LoopbackChannel channel(game, config, 2, false);
    channel.stop_at = 4;
    channel.stop = &stop;
    ActorGames<Tailten> source(game, kSpec, config, channel);
    Trainer<Tailten> trainer(game, kSpec, config, "cpu", dir, false, stderr);
    REQUIRE_FALSE(trainer.run({0, 1000}, stop, &source));  // stopped, with a checkpoint
    taken = trainer.counters().chunks;
    CHECK(taken == 3);
  }
  stop = false;
  LoopbackChannel channel(game, config, 2, false);
  ActorGames<Tailten> source(game, kSpec, config, channel);
  Trainer<Tailten> trainer(game, kSpec, config, "cpu", dir, true, stderr);
  CHECK(trainer.counters().chunks == taken);
  REQUIRE(trainer.run({0, trainer.counters().steps + 10}, stop, &source));
  REQUIRE(!channel.asked.empty());
  CHECK(channel.asked.front() == taken);
}

// A channel that hands back the wrong chunk.
class WrongChunk final : public ChunkChannel {
 public:
  WrongChunk(const Tailten& game, const TrainConfig& config)
      : actor_(game, kSpec, config, "cpu", 1) {}
  void publish(int64_t version, std::string weights) override {
    actor_.set_weights(version, weights);
  }
  void request(int64_t) override {}
  std::string receive(int64_t number) override { return actor_.play(number + 1).bytes; }
  std::vector<double> actor_rates(double) override { return {}; }

 private:
  SelfPlayActor<Tailten> actor_;
};

TEST_CASE("actor games: a chunk that comes back under another number stops the run",
          "[distributed]") {
  const Tailten game;
  const TrainConfig config = tiny_config();
  WrongChunk channel(game, config);
  ActorGames<Tailten> source(game, kSpec, config, channel);
  Trainer<Tailten> trainer(game, kSpec, config, "cpu", temporary_dir("actor_games_wrong"), false,
                           stderr);
  std::atomic<bool> stop{false};
  REQUIRE_THROWS_WITH(trainer.run({0, 10}, stop, &source),
                      Contains("self-play chunk 0 came back as chunk 1"));
}

}  // namespace
}  // namespace knightgym
