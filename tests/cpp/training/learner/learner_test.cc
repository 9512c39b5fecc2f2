// The learner and its checkpoints: training lowers the loss on a fixed batch, a
// checkpoint round trip restores weights, optimizer moments and counters exactly, bad
// checkpoints (also those of another format) are refused by name and change nothing,
// exported models load as agents' networks, and atomic writes leave either the old file
// or the new one.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "env/core/sample.h"
#include "env/games/tailten/tailten.h"
#include "env/registry/registry.h"
#include "tests/cpp/test_files.h"
#include "training/learner/learner.h"
#include "util/atomic_file.h"
#include "util/binary_io.h"

namespace knightgym {
namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using testing::read_bytes;
using testing::temporary_dir;

// Positions of random Tailten games with a target policy (uniform over the legal
// actions) and target values (the game's result from the mover's side).
struct Batch {
  std::vector<float> observations, policies, values;
  std::vector<uint8_t> masks;
  int size = 0;

  Batch(const Tailten& game, int n, uint64_t seed) : size(n) {
    const GameInfo info = game.info();
    observations.resize(static_cast<size_t>(n) * info.observation_shape.size());
    masks.resize(static_cast<size_t>(n) * info.num_actions);
    policies.resize(static_cast<size_t>(n) * info.num_actions);
    values.resize(static_cast<size_t>(n) * info.num_players);
    Rng rng(seed);
    Tailten::State s;
    game.init(s, rng);
    for (int row = 0; row < n; ++row) {
      if (game.terminal(s)) game.init(s, rng);
      const int mover = game.current_player(s);
      game.observe(s, mover, &observations[row * info.observation_shape.size()]);
      uint8_t* mask = &masks[row * info.num_actions];
      game.legal_mask(s, mask);
      int legal = 0;
      for (int a = 0; a < info.num_actions; ++a) legal += mask[a];
      for (int a = 0; a < info.num_actions; ++a)
        policies[row * info.num_actions + a] = mask[a] ? 1.0f / legal : 0.0f;
      values[row * 2] = mover == 0 ? 0.5f : -0.5f;
      values[row * 2 + 1] = -values[row * 2];
      game.apply(s, sample_legal_action(game, s, rng));
    }
  }
  TrainingBatch view() const {
    return {size, observations.data(), masks.data(), policies.data(), values.data()};
  }
};

// The learner's network on the batch: priors then values, concatenated.
std::vector<float> outputs(Learner& learner, const Batch& batch, const GameInfo& info) {
  std::vector<float> out(static_cast<size_t>(batch.size) * (info.num_actions + info.num_players));
  learner.evaluator()->evaluate(batch.size, batch.observations.data(), batch.masks.data(),
                                out.data(), out.data() + batch.size * info.num_actions);
  return out;
}

const NetConfig kNet{1, 8};
const std::string kSpec = "tailten(first_player=0,ringforts=30,max_turns=200)";

TEST_CASE("learner: steps lower the loss of a fixed batch; entropy and losses are sane",
          "[learner]") {
  const Tailten game;
  const Batch batch(game, 64, 1);
  Learner learner(game.info(), kSpec, kNet, 7, LearnerConfig{1e-2, 1e-4, 1.0}, "cpu");
  const Losses first = learner.train(batch.view());
  Losses last = first;
  for (int i = 0; i < 60; ++i) last = learner.train(batch.view());
  CHECK(first.policy > 0);
  CHECK(first.entropy > 0);
  CHECK(first.entropy <= std::log(45.0) + 1e-6);
  CHECK(last.value < 0.5 * first.value);
  CHECK(last.policy < first.policy);
  CHECK(learner.num_parameters() > 0);
}

TEST_CASE("learner: a checkpoint restores weights, optimizer moments and counters exactly",
          "[learner]") {
  const Tailten game;
  const GameInfo info = game.info();
  const Batch batch(game, 32, 2), next(game, 32, 3);
  const std::string dir = temporary_dir("learner_round_trip");
  Learner a(info, kSpec, kNet, 1, {}, "cpu");
  for (int i = 0; i < 3; ++i) a.train(batch.view());
  const TrainingCounters counters{.steps = 3,
                                  .samples = 96,
                                  .games = 17,
                                  .decisions = 640,
                                  .evaluations = 5120,
                                  .milliseconds = 123456789012,
                                  .match_rounds = 2,
                                  .generation = 1};
  a.save_checkpoint(dir + "/a.ckpt", counters);

  Learner b(info, kSpec, kNet, 99, {}, "cpu");  // other weights until it loads
  REQUIRE(outputs(a, batch, info) != outputs(b, batch, info));
  REQUIRE(b.load_checkpoint(dir + "/a.ckpt") == counters);
  REQUIRE(outputs(a, batch, info) == outputs(b, batch, info));
  // The same next step: Adam's moments came back too, not only the weights.
  const Losses la = a.train(next.view()), lb = b.train(next.view());
  CHECK(la.policy == lb.policy);
  CHECK(outputs(a, batch, info) == outputs(b, batch, info));
  // A learner that has only the weights (fresh moments) takes another step.
  Learner c(info, kSpec, kNet, 5, {}, "cpu");
  c.load_checkpoint(dir + "/a.ckpt");
  Learner d(info, kSpec, kNet, 5, {}, "cpu");
  d.load_checkpoint(dir + "/a.ckpt");
  d.train(next.view());
  CHECK(outputs(a, batch, info) == outputs(d, batch, info));
  CHECK(outputs(c, batch, info) != outputs(d, batch, info));
}

TEST_CASE("learner: a compact checkpoint is half the bytes and goes on from its step, rounded",
          "[learner]") {
  const Tailten game;
  const GameInfo info = game.info();
  const Batch batch(game, 32, 2), next(game, 32, 3);
  const std::string dir = temporary_dir("learner_compact");
  Learner a(info, kSpec, NetConfig{2, 32}, 1, {}, "cpu");
  for (int i = 0; i < 3; ++i) a.train(batch.view());
  const TrainingCounters counters{.steps = 3, .samples = 96, .games = 4};
  a.save_checkpoint(dir + "/full.ckpt", counters);
  a.save_checkpoint(dir + "/compact.ckpt", counters, CheckpointPrecision::kCompact);
  const double ratio = static_cast<double>(fs::file_size(dir + "/compact.ckpt")) /
                       static_cast<double>(fs::file_size(dir + "/full.ckpt"));
  CHECK(ratio > 0.45);
  CHECK(ratio < 0.6);

  Learner b(info, kSpec, NetConfig{2, 32}, 99, {}, "cpu");
  REQUIRE(b.load_checkpoint(dir + "/compact.ckpt") == counters);
  // float16 weights: the outputs move by rounding, not more.
  const std::vector<float> exact = outputs(a, batch, info), rounded = outputs(b, batch, info);
  REQUIRE(exact != rounded);
  for (size_t i = 0; i < exact.size(); ++i) REQUIRE(std::abs(exact[i] - rounded[i]) < 0.02f);
  // The moments came back as float32 and are trained on: a step from the compact
  // checkpoint lands near the full one's, nearer than a step with fresh moments from the
  // same weights.
  Learner full(info, kSpec, NetConfig{2, 32}, 5, {}, "cpu");
  full.load_checkpoint(dir + "/full.ckpt");
  a.export_model(dir + "/model.pt");
  Learner fresh(info, kSpec, NetConfig{2, 32}, 5, {}, "cpu");
  fresh.load_weights(dir + "/model.pt");
  for (Learner* learner : {&full, &b, &fresh}) learner->train(next.view());
  const auto distance = [&](Learner& x, Learner& y) {
    const std::vector<float> u = outputs(x, batch, info), v = outputs(y, batch, info);
    double sum = 0;
    for (size_t i = 0; i < u.size(); ++i) sum += std::abs(u[i] - v[i]);
    return sum;
  };
  CHECK(distance(full, b) * 4 < distance(full, fresh));
}

TEST_CASE("learner: bad checkpoints are refused by name and change nothing", "[learner]") {
  const Tailten game;
  const GameInfo info = game.info();
  const Batch batch(game, 16, 4);
  const std::string dir = temporary_dir("learner_bad");
  Learner good(info, kSpec, kNet, 1, {}, "cpu");
  good.save_checkpoint(dir + "/good.ckpt", {.steps = 1});

  Learner learner(info, kSpec, kNet, 2, {}, "cpu");
  const std::vector<float> before = outputs(learner, batch, info);
  const auto refused = [&](const std::string& path, const std::string& why) {
    REQUIRE_THROWS_WITH(learner.load_checkpoint(path), Contains(why));
    REQUIRE(outputs(learner, batch, info) == before);
  };
  refused(dir + "/none.ckpt", "no such file");
  const std::string bytes = read_bytes(dir + "/good.ckpt");
  // The bytes followed by the trailer that a checkpoint ends with: the magic and their hash.
  const auto with_trailer = [](std::string body) {
    const uint64_t hash = fnv1a(body);
    return body.append("KGCKSUM1").append(reinterpret_cast<const char*>(&hash), sizeof hash);
  };
  std::ofstream(dir + "/truncated.ckpt", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  refused(dir + "/truncated.ckpt", "has no checksum");
  std::ofstream(dir + "/text.ckpt", std::ios::binary) << with_trailer("not a checkpoint");
  refused(dir + "/text.ckpt", "unreadable");
  // One flipped bit anywhere, even in a tensor's bytes, which the archive does not check.
  for (const size_t at : {bytes.size() / 2, size_t{100}, bytes.size() - 20}) {
    std::string flipped = bytes;
    flipped[at] ^= 0x01;
    std::ofstream(dir + "/flipped.ckpt", std::ios::binary) << flipped;
    refused(dir + "/flipped.ckpt", "damaged (its checksum does not match its bytes)");
  }
  // Without its checksum (cut there), a checkpoint is not trusted.
  std::ofstream(dir + "/unchecked.ckpt", std::ios::binary) << bytes.substr(0, bytes.size() - 16);
  refused(dir + "/unchecked.ckpt", "has no checksum (cut short, damaged or of a format before 5)");

  Learner wider(info, kSpec, NetConfig{1, 16}, 1, {}, "cpu");
  wider.save_checkpoint(dir + "/wider.ckpt", {});
  refused(dir + "/wider.ckpt", "1 blocks x 16 channels, not 1 x 8");
  Learner other(info, "tailten(first_player=1,ringforts=30,max_turns=200)", kNet, 1, {}, "cpu");
  other.save_checkpoint(dir + "/other.ckpt", {});
  refused(dir + "/other.ckpt", "is for tailten(first_player=1");
  // An archive of another format, checksummed as a checkpoint is: an exported model, which
  // has no "format" key (read as 1).
  good.export_model(dir + "/model.pt");
  std::ofstream(dir + "/model.ckpt", std::ios::binary)
      << with_trailer(read_bytes(dir + "/model.pt"));
  refused(dir + "/model.ckpt",
          "checkpoint '" + dir + "/model.ckpt': has format version 1, this build reads version 5");
}

TEST_CASE("learner: an exported model is the network, loadable as an evaluator", "[learner]") {
  const Tailten game;
  const GameInfo info = game.info();
  const Batch batch(game, 8, 5);
  const std::string dir = temporary_dir("learner_export");
  Learner learner(info, kSpec, kNet, 3, {}, "cpu");
  learner.train(batch.view());
  learner.export_model(dir + "/model.pt");
  auto loaded = TorchEvaluator::load(dir + "/model.pt", info, kSpec, "cpu");
  std::vector<float> out(static_cast<size_t>(batch.size) * (info.num_actions + 2));
  loaded->evaluate(batch.size, batch.observations.data(), batch.masks.data(), out.data(),
                   out.data() + batch.size * info.num_actions);
  const std::vector<float> expected = outputs(learner, batch, info);
  REQUIRE(out.size() == expected.size());
  for (size_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == Approx(expected[i]).margin(1e-6));
  REQUIRE_THROWS_WITH(TorchEvaluator::load(dir + "/model.pt", info, "tailten(other)", "cpu"),
                      Contains("was made for " + kSpec));
}

TEST_CASE("learner: bad settings and devices are refused", "[learner]") {
  const GameInfo info = Tailten().info();
  REQUIRE_THROWS_WITH(Learner(info, kSpec, kNet, 1, LearnerConfig{0, 0, 1}, "cpu"),
                      Contains("lr > 0"));
  REQUIRE_THROWS_WITH(Learner(info, kSpec, NetConfig{1, 0}, 1, {}, "cpu"), Contains("channels"));
  REQUIRE_THROWS_WITH(Learner(info, kSpec, kNet, 1, {}, "tpu"), Contains("device 'tpu'"));
}

TEST_CASE(
    "atomic files: a write replaces the file whole; a killed write leaves a "
    "temporary that readers can tell apart",
    "[learner]") {
  const std::string dir = temporary_dir("atomic");
  write_file_atomically(dir + "/f", "first");
  write_file_atomically(dir + "/f", "second, longer");
  REQUIRE(read_bytes(dir + "/f") == "second, longer");
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
  REQUIRE(files == 1);
  CHECK(is_atomic_temporary("step-000000010.ckpt.tmp12345"));
  CHECK(is_atomic_temporary("model.pt.tmp1"));
  CHECK_FALSE(is_atomic_temporary("step-000000010.ckpt"));
  CHECK_FALSE(is_atomic_temporary("model.pt.tmp"));
  CHECK_FALSE(is_atomic_temporary("x.tmpx1"));
  REQUIRE_THROWS_WITH(write_file_atomically(dir + "/missing/f", "x"),
                      Contains("cannot write '" + dir + "/missing/f' (open)"));
}

}  // namespace
}  // namespace knightgym
