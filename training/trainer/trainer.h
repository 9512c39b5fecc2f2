// AlphaZero-style training of one game: self-play with batched search over the network
// being trained, a replay buffer, and the learner, which draws `ratio` training samples
// per self-play decision. Self-play's games come from a GameSource: played on a thread
// beside the learner's with a copy of the network a round behind (overlap=true,
// overlapped_self_play.h), between its steps on this thread, or by actors on a cluster
// (training/distributed/actor_games.h), with everything else the same. With a teacher, the run
// first learns from a strong player's games (teacher= and teacher_steps=, expert
// iteration's first half: training/teacher/teacher_set.h), then goes on by self-play.
// Periodic evaluation plays the network (with `eval_sims` simulations) against the best
// network so far and against fixed baselines; metrics go to metrics.csv, checkpoints are
// atomic and kept `keep` deep, and a run resumes from the newest checkpoint that loads
// (run_directory.h). Over many rule sets (the `rules` setting, rule_sets.h) each self-play
// game draws its rules, evaluations share their games among the rule sets, and the network
// records them all.
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
#include "agents/pretrained.h"
#include "training/arena/batched_match.h"
#include "training/learner/learner.h"
#include "training/selfplay/replay_buffer.h"
#include "training/teacher/teacher_set.h"
#include "training/trainer/game_source.h"
#include "training/trainer/overlapped_self_play.h"
#include "training/trainer/run_directory.h"
#include "training/trainer/run_summary.h"
#include "training/trainer/streams.h"
#include "training/trainer/symmetry.h"
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
    // The first "best" is the network the run starts from, for the first evaluation to beat.
    if (!std::filesystem::exists(dir_.file("best.pt"))) learner_.export_model(dir_.file("best.pt"));
    // metrics.csv holds exactly the rows written up to the checkpoint restored: a run that
    // starts over starts a fresh file. A row is written before the checkpoint of its
    // iteration, with the same counters; every row written after a checkpoint follows at
    // least one optimizer step on a teacher's data, which advances the steps, or one
    // self-play step, which advances the decisions (run() checkpoints only iterations that
    // another follows). So the rows up to a checkpoint are those with at most its steps
    // and decisions.
    metrics_ = std::make_unique<MetricsLog>(
        dir_.file("metrics.csv"), columns(),
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
  const std::vector<Evaluation>& last_evaluation() const { return evaluation_; }
  Learner& learner() { return learner_; }
  const Learner& learner() const { return learner_; }

  // Trains until a limit or `stop`; then writes a checkpoint and model.pt, and (unless
  // stopped) evaluates once more. Returns false if it was stopped. Self-play games come
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
    Period period;
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
      if (config_.eval_seconds > 0 && config_.eval_games > 0 &&
          now - last_eval >= config_.eval_seconds && !done()) {
        evaluate();
        last_eval = elapsed();
      }
      if (now - last_log >= config_.log_seconds) {
        log_row(period, now, *source);
        period = Period{};
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
    if (!stopped && config_.eval_games > 0) evaluate();
    // Training time: the last evaluation's not.
    log_row(period, counters_.milliseconds / 1000.0, *source);
    checkpoint();
    write_file_atomically(dir_.file("summary.json"),
                          run_summary_json(game_spec_, counters_, evaluation_, !stopped));
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

  // What one metrics row sums up.
  struct Period {
    double start = 0;
    int64_t steps = 0, games = 0, game_decisions = 0;
    double policy = 0, value = 0, entropy = 0;
    // Recorded decisions that came in, and their staleness (weighted by decisions).
    int64_t positions = 0, staleness_sum = 0, staleness_max = 0;
    void add(const Losses& l) {
      ++steps;
      policy += l.policy, value += l.value, entropy += l.entropy;
    }
    void add_game(const Trajectory<G>& game, int64_t staleness) {
      ++games;
      game_decisions += game.plies;
      positions += game.size();
      staleness_sum += staleness * game.size();
      staleness_max = std::max(staleness_max, staleness);
    }
  };

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
        refill_replay(path);
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
      const auto best = TorchEvaluator::load(path, info_, game_spec_, device_);
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

  void evaluate() {
    AzConfig search = config_.search;
    search.sims = config_.eval_sims;
    search.dirichlet_fraction = 0;
    const uint64_t round = static_cast<uint64_t>(counters_.eval_rounds++);
    evaluation_.clear();
    // Opponent 0 is the best network, opponent 1 + b baseline b. Over many rule sets the
    // games are shared among them in turn, each rule set's agents seeded apart.
    const auto seed = [&](Stream stream, uint64_t index, int rule_set) {
      const uint64_t base = stream_seed(config_.seed, stream, index);
      return rule_set == 0 ? base : derive_seed(base, static_cast<uint64_t>(rule_set));
    };
    // make_opponent(rule set, its seed) -> a std::unique_ptr to an Agent<G> of that rule set.
    const auto play = [&](const std::string& name, int opponent, const auto& make_opponent) {
      const uint64_t index = evaluation_index(round, opponent);
      std::vector<GameRecord> records;
      for (int r = 0; r < rules_.size(); ++r) {
        const int64_t games = share(config_.eval_games, r);
        if (games == 0) continue;
        AzAgent<G> candidate(rules_[r], search, learner_.evaluator(),
                             seed(Stream::kEvaluationCandidate, round, r));
        const auto other = make_opponent(r, seed(Stream::kEvaluationOpponent, index, r));
        Agent<G>* agents[2] = {&candidate, other.get()};
        for (GameRecord& record : play_batched(rules_[r], std::span<Agent<G>* const>(agents, 2),
                                               games, seed(Stream::kEvaluationGames, index, r)))
          records.push_back(std::move(record));
      }
      evaluation_.push_back({name, score_agents(records, 2)[0]});
    };
    {
      std::shared_ptr<Evaluator> best =
          TorchEvaluator::load(dir_.file("best.pt"), info_, game_spec_, device_);
      play("best", 0, [&](int r, uint64_t agent_seed) {
        return std::make_unique<AzAgent<G>>(rules_[r], search, best, agent_seed);
      });
    }
    for (int b = 0; b < static_cast<int>(config_.baselines.size()); ++b) {
      const AgentConfig agent = read_agent_config(config_.baselines[b]);
      play(config_.baselines[b], 1 + b, [&](int r, uint64_t agent_seed) {
        return make_agent(rules_[r], agent, share_for_game(agent, info_, rules_.spec(r)),
                          agent_seed);
      });
    }
    if (evaluation_.front().score.score >= config_.gate) {
      learner_.export_model(dir_.file("best.pt"));
      ++counters_.generation;
    }
    fresh_evaluation_ = true;
  }

  // Rule set r's share of `games` games: as even as whole games allow, rotating seats
  // within each where games are a multiple of 2 x the rule sets.
  int64_t share(int64_t games, int r) const {
    const int64_t sets = rules_.size();
    return games * (r + 1) / sets - games * r / sets;
  }

  void checkpoint() {
    // The replay sample first: a checkpoint never lacks the one written for it.
    if (config_.kept_replay > 0)
      write_shard(RunDirectory::replay_sample(dir_.checkpoint(counters_.steps)), replay_sample());
    learner_.save_checkpoint(dir_.checkpoint(counters_.steps), counters_);
    learner_.export_model(dir_.file("model.pt"));
    dir_.prune(config_.keep);
  }

  // The newest whole games of the replay window holding at most kept_replay decisions.
  TeacherShard replay_sample() const {
    const auto& games = buffer_.games();
    auto first = games.end();  // the oldest game kept
    for (int64_t left = config_.kept_replay; first != games.begin() && (first - 1)->size() <= left;)
      left -= (--first)->size();
    TeacherShard shard{game_spec_, "self-play", info_.num_players, info_.num_actions, {}};
    for (auto game = first; game != games.end(); ++game) {
      const std::string& rules = rules_.spec(game->rule_set);
      shard.games.push_back(to_teacher_game(rules_[game->rule_set], *game, game - first,
                                            rules == game_spec_ ? "" : rules));
    }
    return shard;
  }

  // Refills the replay window from the sample kept with `checkpoint`, if it is there and
  // whole; without it, self-play refills the window.
  void refill_replay(const std::string& checkpoint) {
    const std::string path = RunDirectory::replay_sample(checkpoint);
    if (!std::filesystem::exists(path)) return;
    try {
      const TeacherShard shard = read_shard(path, game_spec_);
      for (const TeacherGame& game : shard.games)
        buffer_.add(to_trajectory(rules_, shard, game, path));
      std::fprintf(log_, "replay window refilled with %lld decisions from %s\n",
                   static_cast<long long>(buffer_.size()), path.c_str());
    } catch (const std::invalid_argument& error) {
      std::fprintf(log_, "skipping %s\n", error.what());
    }
  }

  std::vector<std::string> columns() const {
    std::vector<std::string> out = {"step",
                                    "samples",
                                    "decisions",
                                    "games",
                                    "seconds",
                                    "replay",
                                    "policy_loss",
                                    "value_loss",
                                    "entropy",
                                    "game_length",
                                    "selfplay_pos_per_s",
                                    "evaluations_per_s",
                                    "generation",
                                    "holdout_policy_loss",
                                    "holdout_top1",
                                    "score_vs_best"};
    for (const std::string& baseline : config_.baselines) out.push_back("score_vs_" + baseline);
    // Later columns, after the baselines': a resumed run of before them reads on
    // (MetricsLog).
    for (const char* column :
         {"learner_steps_per_s", "staleness", "staleness_max", "actor_pos_per_s"})
      out.push_back(column);
    return out;
  }

  void log_row(const Period& p, double now, GameSource<G>& source) {
    const auto number = [](double value, const char* format = "%.4f") {
      char text[32];
      std::snprintf(text, sizeof text, format, value);
      return std::string(text);
    };
    const double seconds = std::max(1e-9, now - p.start);
    const int64_t decisions = counters_.decisions - last_decisions_;
    const int64_t evaluations = counters_.evaluations - last_evaluations_;
    last_decisions_ = counters_.decisions;
    last_evaluations_ = counters_.evaluations;
    const double steps = static_cast<double>(std::max<int64_t>(1, p.steps));
    std::vector<std::string> row = {
        std::to_string(counters_.steps),
        std::to_string(counters_.samples),
        std::to_string(counters_.decisions),
        std::to_string(counters_.games),
        number(now, "%.1f"),
        std::to_string(buffer_.size()),
        p.steps ? number(p.policy / steps) : "",
        p.steps ? number(p.value / steps) : "",
        p.steps ? number(p.entropy / steps) : "",
        p.games ? number(static_cast<double>(p.game_decisions) / p.games, "%.1f") : "",
        number(decisions / seconds, "%.1f"),
        number(evaluations / seconds, "%.1f"),
        std::to_string(counters_.generation)};
    // While learning from a teacher: agreement with it on the held-out games.
    if (teacher_ && teacher_->holdout_decisions() > 0) {
      const Agreement agreement = holdout_agreement(*learner_.evaluator());
      row.push_back(number(agreement.policy_loss));
      row.push_back(number(agreement.top1));
      // Past its data's worth, a network learns the training games by heart: the one that
      // agreed best with the held-out games is kept apart from the latest.
      if (agreement.policy_loss < best_holdout_loss_) {
        best_holdout_loss_ = agreement.policy_loss;
        learner_.export_model(dir_.file("teacher_best.pt"));
      }
    } else {
      row.insert(row.end(), {"", ""});
    }
    for (size_t i = 0; i <= config_.baselines.size(); ++i)
      row.push_back(fresh_evaluation_ && i < evaluation_.size() ? number(evaluation_[i].score.score)
                                                                : "");
    fresh_evaluation_ = false;
    row.push_back(number(p.steps / seconds, "%.2f"));
    row.push_back(p.positions ? number(static_cast<double>(p.staleness_sum) / p.positions, "%.1f")
                              : "");
    row.push_back(p.positions ? std::to_string(p.staleness_max) : "");
    std::string rates;  // each actor's, ';' between them
    for (const double rate : source.actor_rates(seconds))
      rates += (rates.empty() ? "" : ";") + number(rate, "%.1f");
    row.push_back(rates);
    metrics_->append(row);
    if (p.steps) last_policy_loss_ = p.policy / steps;
    last_speed_ = decisions / seconds;
  }

  std::string status() const {
    char text[160];
    int n = std::snprintf(text, sizeof text, "step %lld | loss %.3f | %.0f pos/s",
                          static_cast<long long>(counters_.steps), last_policy_loss_, last_speed_);
    for (const Evaluation& e : evaluation_)
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
  std::vector<Evaluation> evaluation_;
  bool fresh_evaluation_ = false;
  int64_t last_decisions_ = 0, last_evaluations_ = 0;
  double last_policy_loss_ = 0, last_speed_ = 0;
  double best_holdout_loss_ = std::numeric_limits<double>::infinity();  // teacher_best.pt's
  std::vector<float> observations_, policies_, values_, scratch_;
  std::vector<uint8_t> masks_, mask_scratch_;
};

}  // namespace knightgym
