// AlphaZero-style training of one game: self-play with batched search over the network
// being trained, a replay buffer, and the learner, which draws `ratio` training samples
// per self-play decision. Self-play's games come from a GameSource: played on a thread
// beside the learner's with a copy of the network a round behind (overlap=true,
// overlapped_self_play.h), between its steps on this thread, or by actors on a cluster
// (training/distributed/actor_games.h), with everything else the same. With a teacher, the run
// first learns from a strong player's games (teacher= and teacher_steps=, expert
// iteration's first half: training/teacher/teacher_set.h), then goes on by self-play.
// Periodic match rounds play the network against the best network so far and against
// fixed baselines (match_round.h); a row of metrics.csv sums up each period
// (metrics_row.h); checkpoints are atomic, kept `keep` deep, each with a sample of the
// replay window (replay_sample.h), and a run resumes from the newest checkpoint that
// loads (run_directory.h). This file is the loop that ties them together. Over many rule
// sets (the `rules` setting, rule_sets.h) each self-play game draws its rules, match rounds
// share their games among the rule sets, and the network records them all.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent_kinds.h"
#include "agents/network.h"
#include "agents/pretrained.h"
#include "training/arena/batched_match.h"
#include "training/learner/learner.h"
#include "training/selfplay/replay_buffer.h"
#include "training/teacher/teacher_set.h"
#include "training/trainer/augmentation.h"
#include "training/trainer/game_source.h"
#include "training/trainer/match_round.h"
#include "training/trainer/metrics_row.h"
#include "training/trainer/overlapped_self_play.h"
#include "training/trainer/replay_sample.h"
#include "training/trainer/run_directory.h"
#include "training/trainer/run_summary.h"
#include "training/trainer/streams.h"
#include "training/trainer/train_config.h"
#include "util/atomic_file.h"
#include "util/output_lock.h"
#include "util/progress.h"

namespace knightgym {

// When a run stops: after `minutes` of training in all (resumed runs count their earlier
// time) or `steps` optimizer steps, whichever comes first; 0 is no limit.
struct TrainLimits {
  double minutes = 0;
  int64_t steps = 0;
};

template <Game G>
class Trainer {
 public:
  // Starts a run in `dir` (from the weights of config.init, if given), or resumes the one
  // there (resume: its newest loadable checkpoint; a run killed before its first
  // checkpoint starts over). Holds `dir`'s OutputLock while it lives: a second writer is
  // refused (std::runtime_error naming the holder), as is a new run where one is.
  Trainer(const G& game, std::string game_spec, const TrainConfig& config, std::string device,
          const std::string& dir, bool resume, std::FILE* log)
      : info_(game.info()),
        game_spec_(std::move(game_spec)),
        config_(applying_threads(config)),
        rules_(game, game_spec_, config_.rules),
        device_(std::move(device)),
        dir_(dir),
        lock_(OutputLock::folder(dir)),
        log_(log),
        progress_(log),
        learner_(info_, game_spec_, config.net, stream_seed(config.seed, Stream::kLearnerInit, 0),
                 config.learner, device_, rules_.specs()),
        buffer_(config.window) {
    if (config_.selfplay_precision == Precision::kFloat16 && device_ == "cpu")
      throw std::invalid_argument(
          "selfplay_precision=float16 needs a CUDA device (--device cuda): the CPU's "
          "convolutions have none (bfloat16 runs there)");
    // Checked under the lock: a run started beside this one is not missed.
    if (!resume && RunDirectory::holds_run(dir))
      throw std::invalid_argument("'" + dir +
                                  "' already holds a run: resume it, or choose another folder");
    const bool restored = resume && restore();
    if (!restored && !config_.init.empty())
      learner_.load_weights(config_.init == "pretrained" ? pretrained_model_path(game_spec_)
                                                         : config_.init);
    if (learning_from_teacher()) {  // a teacher's data is learned from before self-play
      teacher_ = std::make_unique<TeacherSet<G>>(rules_, config_.teacher, config_.teacher_holdout);
      if (restored) restore_holdout_best();
    }
    dir_.create();  // only now: bad settings or a bad teacher leave nothing behind
    if (!resume) dir_.write_config(game_spec_, config_.spec);  // once the weights are there
    // The first "best" is the network the run starts from, for the first match round to beat.
    if (!std::filesystem::exists(dir_.file("best.pt"))) learner_.export_model(dir_.file("best.pt"));
    // metrics.csv holds exactly the rows written up to the checkpoint restored: a run that
    // starts over starts a fresh file. A row is written before the checkpoint of its
    // iteration, with the same counters; every row written after a checkpoint follows at
    // least one optimizer step on a teacher's data, which advances the steps, or one
    // self-play step, which advances the decisions (run() checkpoints only iterations that
    // another follows). So the rows up to a checkpoint are those with at most its steps
    // and decisions.
    metrics_ = std::make_unique<MetricsLog>(
        dir_.file("metrics.csv"), metrics_columns(config_.baselines),
        restored ? std::optional<MetricsBounds>(
                       {{"step", counters_.steps}, {"decisions", counters_.decisions}})
                 : std::nullopt);
    const Shape& s = info_.observation_shape;
    observations_.resize(static_cast<size_t>(config_.batch) * s.size());
    masks_.resize(static_cast<size_t>(config_.batch) * info_.num_actions);
    policies_.resize(static_cast<size_t>(config_.batch) * info_.num_actions);
    values_.resize(static_cast<size_t>(config_.batch) * info_.num_players);
    scratch_.resize(std::max(s.height * s.width, info_.num_actions));
    mask_scratch_.resize(info_.num_actions);
  }

  const TrainingCounters& counters() const { return counters_; }
  int64_t replay_decisions() const { return buffer_.size(); }
  const std::vector<MatchResult>& last_match_round() const { return last_match_round_; }
  Learner& learner() { return learner_; }
  const Learner& learner() const { return learner_; }

  // Trains until a limit or `stop`; then writes a checkpoint and model.pt, and (unless
  // stopped) plays a last match round. Returns false if it was stopped. Self-play games come
  // from `source`, or without one from self-play here (LocalSelfPlay).
  bool run(const TrainLimits& limits, const std::atomic<bool>& stop,
           GameSource<G>* source = nullptr) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    const double resumed_seconds = counters_.milliseconds / 1000.0;
    const auto elapsed = [&] {
      return resumed_seconds + std::chrono::duration<double>(Clock::now() - start).count();
    };
    const auto done = [&] {
      return stop || (limits.minutes > 0 && elapsed() >= limits.minutes * 60) ||
             (limits.steps > 0 && counters_.steps >= limits.steps);
    };
    const auto fraction = [&] {
      double f = 0;
      if (limits.minutes > 0) f = std::max(f, elapsed() / (limits.minutes * 60));
      if (limits.steps > 0) f = std::max(f, static_cast<double>(counters_.steps) / limits.steps);
      return f;
    };

    std::optional<LocalSelfPlay<G>> local;
    std::optional<OverlappedSelfPlay<G>> overlapped;
    if (!source && config_.overlap)
      source = &overlapped.emplace(rules_, config_, learner_, counters_);
    else if (!source)
      source = &local.emplace(rules_, config_, learner_, counters_);
    // Training samples per recorded decision: with playout cap randomization, the expected
    // share of decisions searched in full (the decisions counter holds them all).
    const double recorded_share =
        config_.playout_cap.fast_sims > 0 ? config_.playout_cap.full_fraction : 1.0;
    // A teacher's data is learned from first (its samples are not self-play's).
    const int64_t teacher_samples = static_cast<int64_t>(config_.teacher_steps) * config_.batch;
    Rng rng(stream_seed(config_.seed, Stream::kReplaySampling, counters_.steps));
    double last_log = elapsed(), last_eval = last_log, last_checkpoint = last_log;
    // Snapshots fall on multiples of snapshot_seconds of training; a fresh run's first is
    // the network it starts from.
    int64_t last_snapshot = counters_.milliseconds > 0 && config_.snapshot_seconds > 0
                                ? counters_.milliseconds / 1000 / config_.snapshot_seconds
                                : -1;
    TrainingPeriod<G> period;
    period.start = last_log;
    last_decisions_ = counters_.decisions;
    last_evaluations_ = counters_.evaluations;
    std::vector<Trajectory<G>> finished_games;
    // done() is asked once an iteration, so that the loop's last iteration is the one
    // that found it true; an iteration's checkpoint (the constructor's comment on
    // metrics.csv) is then never the last thing before the final row. Every iteration
    // takes an optimizer step (learning from the teacher) or a self-play step.
    for (bool finished = done(); !finished;) {
      if (learning_from_teacher()) {
        for (int k = 0; k < kTeacherStepsPerIteration && learning_from_teacher() && !done(); ++k)
          period.add(train_step(rng, teacher_->train()));
      } else {
        teacher_.reset();  // learned: its memory is self-play's now
        finished_games.clear();
        const SourceStep got = source->next(learner_, counters_, finished_games);
        for (Trajectory<G>& game : finished_games) {
          period.add_game(game, got.staleness);
          ++counters_.games;
          buffer_.add(std::move(game));
        }
        counters_.decisions += got.decisions;
        counters_.evaluations += got.evaluations;
        counters_.chunks += got.chunks;
        const int64_t due =
            teacher_samples +
            static_cast<int64_t>(
                config_.ratio *
                std::max(0.0, recorded_share * static_cast<double>(counters_.decisions) -
                                  config_.min_replay));
        while (buffer_.size() >= config_.min_replay && counters_.samples < due && !done()) {
          const Losses losses = train_step(rng, buffer_);
          period.add(losses);
        }
      }
      const double now = elapsed();
      counters_.milliseconds = static_cast<int64_t>(now * 1000);
      if (config_.match_seconds > 0 && config_.match_games > 0 &&
          now - last_eval >= config_.match_seconds && !done()) {
        play_matches();
        last_eval = elapsed();
      }
      if (now - last_log >= config_.log_seconds) {
        log_row(period, now, *source);
        period = TrainingPeriod<G>{};
        period.start = last_log = now;
        progress_.update(fraction(), now, status());
      }
      if (config_.snapshot_seconds > 0 &&
          static_cast<int64_t>(now) / config_.snapshot_seconds > last_snapshot) {
        last_snapshot = static_cast<int64_t>(now) / config_.snapshot_seconds;
        learner_.export_model(dir_.snapshot(last_snapshot * config_.snapshot_seconds));
      }
      finished = done();
      if (!finished && now - last_checkpoint >= config_.checkpoint_seconds) {
        checkpoint();
        last_checkpoint = now;
      }
    }
    counters_.milliseconds = static_cast<int64_t>(elapsed() * 1000);
    const bool stopped = stop;
    if (!stopped && config_.match_games > 0) play_matches();
    // Training time: the last match round's not.
    log_row(period, counters_.milliseconds / 1000.0, *source);
    checkpoint();
    write_file_atomically(dir_.file("summary.json"),
                          run_summary_json(game_spec_, counters_, last_match_round_, !stopped));
    progress_.update(stopped ? fraction() : 1.0, elapsed(), status());
    progress_.finish_line();
    return !stopped;
  }

 private:
  static constexpr int kTeacherStepsPerIteration = 16;  // between the periodic duties

  // `config`, its LibTorch threads set first: before the learner makes its first tensor,
  // or OpenMP starts a team of every core whose idle workers spin (sched_yield) beside
  // the run, a core's worth of system time on the VM.
  static const TrainConfig& applying_threads(const TrainConfig& config) {
    Learner::set_intra_op_threads(config.threads);
    return config;
  }
  static constexpr int kHoldoutBatches = 2;  // held-out rows measured per row

  // Whether a checkpoint was restored.
  bool restore() {
    const auto [spec, settings] = dir_.read_config();
    if (spec != game_spec_)
      throw std::invalid_argument("the run in '" + dir_.dir() + "' trains " + spec + ", not " +
                                  game_spec_);
    std::string why;
    std::vector<std::string> skipped;
    for (const std::string& path : dir_.checkpoints()) {
      try {
        counters_ = learner_.load_checkpoint(path);
        std::fprintf(log_, "resuming from %s (step %lld)\n", path.c_str(),
                     static_cast<long long>(counters_.steps));
        // Newer checkpoints that do not load are set aside, so that pruning counts only
        // those that do and never deletes the one the run goes on from.
        for (const std::string& bad : skipped) {
          dir_.set_aside(bad);
          std::fprintf(log_, "set aside as %s.damaged\n", bad.c_str());
        }
        refill_replay(buffer_, rules_, RunDirectory::replay_sample(path), game_spec_, log_);
        return true;
      } catch (const std::invalid_argument& error) {
        std::fprintf(log_, "skipping %s\n", error.what());
        why = error.what();
        skipped.push_back(path);
      }
    }
    if (!why.empty()) throw std::invalid_argument("no checkpoint loads; the newest: " + why);
    std::fprintf(log_, "no checkpoint in '%s' yet: starting over\n", dir_.dir().c_str());
    return false;
  }

  // teacher_best.pt's held-out loss, for a resumed run to beat; a file that does not load
  // is replaced by the next measurement.
  void restore_holdout_best() {
    const std::string path = dir_.file("teacher_best.pt");
    if (!std::filesystem::exists(path)) return;
    try {
      const auto best = load_network(path, info_, game_spec_, device_, 0);
      best_holdout_loss_ = holdout_agreement(*best).policy_loss;
    } catch (const std::invalid_argument& error) {
      std::fprintf(log_, "skipping %s\n", error.what());
    }
  }

  // The same held-out decisions at every call (measure_agreement's fixed draw).
  Agreement holdout_agreement(Evaluator& evaluator) {
    return teacher_->holdout_agreement(rules_.games(), evaluator, kHoldoutBatches * config_.batch,
                                       config_.batch);
  }

  bool learning_from_teacher() const {
    return !config_.teacher.empty() && counters_.steps < config_.teacher_steps;
  }

  Losses train_step(Rng& rng, ReplayBuffer<G>& source) {
    const int n = config_.batch;
    source.sample(rules_.games(), n, rng, observations_.data(), masks_.data(), policies_.data(),
                  values_.data(), static_cast<float>(config_.q_weight));
    if (config_.augment && Symmetries<G>::kCount > 1) {
      const int obs_size = info_.observation_shape.size();
      for (int row = 0; row < n; ++row)
        apply_symmetry<G>(static_cast<int>(rng.below(Symmetries<G>::kCount)), info_,
                          observations_.data() + static_cast<int64_t>(row) * obs_size,
                          masks_.data() + static_cast<int64_t>(row) * info_.num_actions,
                          policies_.data() + static_cast<int64_t>(row) * info_.num_actions,
                          scratch_.data(), mask_scratch_.data());
    }
    const Losses losses =
        learner_.train({n, observations_.data(), masks_.data(), policies_.data(), values_.data()});
    ++counters_.steps;
    counters_.samples += n;
    return losses;
  }

  // A match round (match_round.h); a network that scores `gate` against the best becomes
  // the best.
  void play_matches() {
    {
      const std::shared_ptr<Evaluator> best =
          load_network(dir_.file("best.pt"), info_, game_spec_, device_, 0);
      last_match_round_ = play_match_round(rules_, config_, info_, learner_.evaluator(), best,
                                           static_cast<uint64_t>(counters_.match_rounds++));
    }
    if (last_match_round_.front().score.score >= config_.gate) {
      learner_.export_model(dir_.file("best.pt"));
      ++counters_.generation;
    }
    fresh_match_round_ = true;
  }

  void checkpoint() {
    // The replay sample first: a checkpoint never lacks the one written for it.
    if (config_.kept_replay > 0)
      write_shard(RunDirectory::replay_sample(dir_.checkpoint(counters_.steps)),
                  replay_sample(buffer_, rules_, game_spec_, info_, config_.kept_replay));
    learner_.save_checkpoint(dir_.checkpoint(counters_.steps), counters_);
    learner_.export_model(dir_.file("model.pt"));
    dir_.prune(config_.keep);
  }

  void log_row(const TrainingPeriod<G>& p, double now, GameSource<G>& source) {
    const int64_t decisions = counters_.decisions - last_decisions_;
    const int64_t evaluations = counters_.evaluations - last_evaluations_;
    last_decisions_ = counters_.decisions;
    last_evaluations_ = counters_.evaluations;
    // While learning from a teacher: agreement with it on the held-out games.
    std::optional<Agreement> holdout;
    if (teacher_ && teacher_->holdout_decisions() > 0) {
      holdout = holdout_agreement(*learner_.evaluator());
      // Past its data's worth, a network learns the training games by heart: the one that
      // agreed best with the held-out games is kept apart from the latest.
      if (holdout->policy_loss < best_holdout_loss_) {
        best_holdout_loss_ = holdout->policy_loss;
        learner_.export_model(dir_.file("teacher_best.pt"));
      }
    }
    const double seconds = std::max(1e-9, now - p.start);
    metrics_->append(metrics_row(counters_, buffer_.size(), p, now, decisions, evaluations, holdout,
                                 fresh_match_round_ ? &last_match_round_ : nullptr,
                                 config_.baselines.size(), source.actor_rates(seconds)));
    fresh_match_round_ = false;
    if (p.steps) last_policy_loss_ = p.mean_policy_loss();
    last_speed_ = decisions / seconds;
  }

  std::string status() const {
    char text[160];
    int n = std::snprintf(text, sizeof text, "step %lld | loss %.3f | %.0f pos/s",
                          static_cast<long long>(counters_.steps), last_policy_loss_, last_speed_);
    for (const MatchResult& e : last_match_round_)
      if (n < static_cast<int>(sizeof text))
        n += std::snprintf(text + n, sizeof text - n, " | %s %.0f%%", e.opponent.c_str(),
                           100 * e.score.score);
    return text;
  }

  GameInfo info_;
  std::string game_spec_;
  TrainConfig config_;
  RuleSets<G> rules_;  // those self-play draws from: the game alone, or config.rules' grid
  std::string device_;
  RunDirectory dir_;
  OutputLock lock_;  // held while the run lives: one writer per run (it made dir_ if needed)
  std::FILE* log_;
  ProgressLine progress_;
  Learner learner_;
  ReplayBuffer<G> buffer_;
  std::unique_ptr<TeacherSet<G>> teacher_;  // while learning from a teacher
  TrainingCounters counters_;
  std::unique_ptr<MetricsLog> metrics_;
  std::vector<MatchResult> last_match_round_;
  bool fresh_match_round_ = false;
  int64_t last_decisions_ = 0, last_evaluations_ = 0;
  double last_policy_loss_ = 0, last_speed_ = 0;
  double best_holdout_loss_ = std::numeric_limits<double>::infinity();  // teacher_best.pt's
  std::vector<float> observations_, policies_, values_, scratch_;
  std::vector<uint8_t> masks_, mask_scratch_;
};

}  // namespace knightgym
