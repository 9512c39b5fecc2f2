// knightgym._knightgym_torch.Training and SelfPlayActor: a training run (training/trainer/),
// with self-play here or from actors through a channel object, and a distributed run's
// actor (training/distributed/), for knightgym.training and knightgym.training_ray.
#include <pybind11/stl.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/training_bindings.h"
#include "training/trainer/run_summary.h"
#include "training/trainer/typed_training.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

// A ChunkChannel whose methods are a Python object's (knightgym.training_ray.RayChannel),
// called with the GIL held; what they raise goes on up through the run.
class PythonChannel final : public ChunkChannel {
 public:
  explicit PythonChannel(py::object channel) : channel_(std::move(channel)) {}

  void publish(int64_t version, std::string weights) override {
    py::gil_scoped_acquire gil;
    channel_.attr("publish")(version, py::bytes(weights));
  }
  void request(int64_t number) override {
    py::gil_scoped_acquire gil;
    channel_.attr("request")(number);
  }
  std::string receive(int64_t number) override {
    py::gil_scoped_acquire gil;
    return channel_.attr("receive")(number).cast<std::string>();
  }
  std::vector<double> actor_rates(double seconds) override {
    py::gil_scoped_acquire gil;
    return channel_.attr("actor_rates")(seconds).cast<std::vector<double>>();
  }

 private:
  py::object channel_;
};

// A run of any game: Trainer<G> behind one face.
class Training {
 public:
  Training(const std::string& game_spec, const std::string& out, const std::string& settings,
           const std::string& device, bool resume, bool verbose)
      : game_(load_game(game_spec)),
        quiet_(verbose ? nullptr : std::fopen("/dev/null", "w"), &std::fclose),
        log_(verbose ? stderr : quiet_.get()) {
    // Read before the directory is made: bad settings leave nothing behind.
    const TrainConfig config = read_train_config(
        game_->training_defaults(), resume ? RunDirectory(out).read_config().second : settings);
    settings_ = config.spec;
    run_ = make_trainer(*game_, config, device, out, resume, log_);
  }

  bool run(double minutes, int64_t steps, const py::object& channel) {
    std::optional<PythonChannel> actors;
    if (!channel.is_none()) actors.emplace(channel);
    py::gil_scoped_release release;  // taken back before `actors` goes
    std::lock_guard lock(running_);  // one run at a time; a second caller waits
    return run_->run({minutes, steps}, stop_, actors ? &*actors : nullptr);
  }
  // For good: a run() after it returns at once (resume the run in a new Training).
  void stop() { stop_ = true; }

  // The getters wait for a run() in another thread to end.
  py::object counters() const {
    return from_json(counters_json(locked([&] { return run_->counters(); })));
  }
  py::object last_match_round() const {
    return from_json(match_round_json(locked([&] { return run_->last_match_round(); })));
  }
  const std::string& game() const { return game_->spec(); }
  const std::string& settings() const { return settings_; }
  int64_t parameters() const {
    return locked([&] { return run_->parameters(); });
  }

 private:
  // f() once no run() is going on, without the GIL meanwhile.
  template <class F>
  auto locked(F&& f) const -> decltype(f()) {
    py::gil_scoped_release release;
    std::lock_guard lock(running_);
    return f();
  }

  std::shared_ptr<const AnyGame> game_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> quiet_;  // where a quiet run's log goes
  std::FILE* log_;
  std::string settings_;
  std::unique_ptr<AnyTrainer> run_;
  std::atomic<bool> stop_{false};
  mutable std::mutex running_;
};

// A distributed run's actor: chunks of any game.
class Actor {
 public:
  Actor(const std::string& game_spec, const std::string& settings, const std::string& device,
        int threads)
      : game_(load_game(game_spec)) {
    const TrainConfig config = read_train_config(game_->training_defaults(), settings);
    actor_ = make_self_play_actor(*game_, config, device, threads);
  }

  int64_t version() const {
    py::gil_scoped_release release;
    std::lock_guard lock(mutex_);
    return actor_->version();
  }
  void set_weights(int64_t version, const std::string& weights) {
    py::gil_scoped_release release;
    std::lock_guard lock(mutex_);
    actor_->set_weights(version, weights);
  }
  py::tuple play(int64_t number) {
    PlayedChunk played;
    {
      py::gil_scoped_release release;
      std::lock_guard lock(mutex_);
      played = actor_->play(number);
    }
    return py::make_tuple(py::bytes(played.bytes), played.decisions, played.seconds);
  }

 private:
  std::shared_ptr<const AnyGame> game_;
  std::unique_ptr<AnySelfPlayActor> actor_;
  mutable std::mutex mutex_;  // one call at a time
};

}  // namespace

void init_training(py::module_& m) {
  py::class_<Training>(m, "Training",
                       "A training run in a directory (knightgym train): self-play here, or "
                       "from actors through a channel (knightgym.training_ray).")
      .def(py::init<const std::string&, const std::string&, const std::string&, const std::string&,
                    bool, bool>(),
           py::arg("game"), py::arg("out"), py::arg("settings") = "", py::arg("device") = "cpu",
           py::arg("resume") = false, py::arg("verbose") = true,
           "Starts a run of `game` in `out` with `settings` (a JSON object or key=value lines over "
           "the game's "
           "defaults), or resumes the run there (its own settings). Raises ValueError naming "
           "a bad setting, a run of another game, or checkpoints that do not load.")
      .def("run", &Training::run, py::arg("minutes") = 0.0, py::arg("steps") = 0,
           py::arg("channel") = py::none(),
           "Trains until `minutes` of training or `steps` optimizer steps (0: no limit) or "
           "stop(); writes a checkpoint and model.pt. Self-play games come from `channel` "
           "(publish, request, receive, actor_rates), or are played here. Releases the GIL; "
           "returns False if stopped.")
      .def("stop", &Training::stop,
           "Ends run() at its next iteration, with a checkpoint; thread-safe. A later run() "
           "returns at once: a new Training with resume=True goes on.")
      .def_property_readonly("counters", &Training::counters)
      .def_property_readonly("last_match_round", &Training::last_match_round)
      .def_property_readonly("game", &Training::game)
      .def_property_readonly("settings", &Training::settings,
                             "Every setting of the run, one key=value per line.")
      .def_property_readonly("parameters", &Training::parameters);

  py::class_<Actor>(m, "SelfPlayActor",
                    "A distributed run's self-play actor: plays numbered chunks of games with "
                    "the weights it was last given (training/distributed/).")
      .def(py::init<const std::string&, const std::string&, const std::string&, int>(),
           py::arg("game"), py::arg("settings"), py::arg("device") = "cpu", py::arg("threads") = 1)
      .def_property_readonly("version", &Actor::version,
                             "The version of the weights held; -1 before the first.")
      .def("set_weights", &Actor::set_weights, py::arg("version"), py::arg("weights"),
           "Plays with these weights (a TorchScript network's bytes) from now on. Raises "
           "ValueError naming the problem, keeping the weights it had.")
      .def("play", &Actor::play, py::arg("number"),
           "Chunk `number` with the weights held: (bytes, decisions, seconds). Releases the "
           "GIL.");
}

}  // namespace knightgym::python
