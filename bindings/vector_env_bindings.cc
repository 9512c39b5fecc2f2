// The vector env: numpy views of the C++ buffers (no copies), the GIL released while
// C++ steps. The views are read-only and are overwritten by the next step or reset.
// Calls from several Python threads are serialised (bindings/serialised.h).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agents/opponent_env.h"
#include "bindings/bindings.h"
#include "bindings/serialised.h"
#include "env/registry/registry.h"

namespace py = pybind11;

namespace knightgym::python {
namespace {

// A read-only numpy view of `data` whose base keeps the environment alive.
template <class Env, class T>
py::array view(const std::shared_ptr<Env>& env, const T* data, std::vector<py::ssize_t> shape,
               const py::dtype& dtype) {
  py::capsule owner(new std::shared_ptr<Env>(env),
                    [](void* p) { delete static_cast<std::shared_ptr<Env>*>(p); });
  py::array array(dtype, shape, {}, data, owner);
  array.attr("setflags")(py::arg("write") = false);
  return array;
}

std::string shape_string(const py::array& array) {
  std::string out = "(";
  for (py::ssize_t d = 0; d < array.ndim(); ++d)
    out += (d ? ", " : "") + std::to_string(array.shape(d));
  return out + (array.ndim() == 1 ? ",)" : ")");
}

std::string dtype_error(const py::array& array) {
  return "actions must be integers, got dtype " + py::str(array.dtype()).cast<std::string>();
}

void check_shape(const py::array& array, int num_envs) {
  if (array.ndim() != 1 || array.shape(0) != num_envs)
    throw py::value_error("actions must have shape (" + std::to_string(num_envs) + ",), got " +
                          shape_string(array));
}

[[noreturn]] void out_of_range(int env, const py::handle& action, int num_actions) {
  throw py::value_error("env " + std::to_string(env) + ": action " + shortened(action) +
                        " is out of range [0, " + std::to_string(num_actions) + ")");
}

// Actions that numpy holds in no integer dtype because some are too wide for 64 bits
// ([2**70] * n, which it makes objects, or [2**63, -1], which it makes floats): still
// integers, each read as the integer it is (integer_or_none), so that one too wide for an
// Action is out of range like any other. Anything but integers, and an array of another
// dtype, is `array`'s dtype TypeError.
const Action* wide_actions(const py::handle& actions, const py::array& array, int num_envs,
                           int num_actions, const uint8_t* needs_reset,
                           std::vector<Action>& buffer) {
  if (py::isinstance<py::array>(actions) && array.dtype().kind() != 'O')
    throw py::type_error(dtype_error(array));
  py::array objects;
  try {
    objects = py::module_::import("numpy")
                  .attr("asarray")(actions, py::arg("dtype") = "object")
                  .cast<py::array>();
  } catch (const py::error_already_set&) {
    throw py::type_error(dtype_error(array));
  }
  const py::list items = objects.attr("ravel")().attr("tolist")();
  std::vector<py::int_> integers;
  for (const py::handle item : items) {
    std::optional<py::int_> integer = integer_or_none(item);
    if (!integer) throw py::type_error(dtype_error(array));
    integers.push_back(std::move(*integer));
  }
  check_shape(objects, num_envs);
  buffer.resize(num_envs);
  for (int i = 0; i < num_envs; ++i) {
    int overflow = 0;
    const long long a = PyLong_AsLongLongAndOverflow(integers[i].ptr(), &overflow);
    const bool fits = overflow == 0 && a >= std::numeric_limits<Action>::min() &&
                      a <= std::numeric_limits<Action>::max();
    if (!fits && !needs_reset[i]) out_of_range(i, integers[i], num_actions);
    buffer[i] = fits ? static_cast<Action>(a) : 0;
  }
  return buffer.data();
}

// The actions as int32 [num_envs], copied into `buffer` (also an int32 array: while C++
// steps without the GIL, another thread may write the caller's array, and C++ must apply
// the actions it checked). Raises TypeError or ValueError. Range and legality are C++'s
// to check, except for a value that int32 cannot hold, however wide (wide_actions): that
// is an error here unless the environment's episode has ended (needs_reset), where the
// step ignores its action or refuses it with its own message.
const Action* checked_action_array(const py::handle& actions, int num_envs, int num_actions,
                                   const uint8_t* needs_reset, std::vector<Action>& buffer) {
  const py::array array = py::array::ensure(actions);
  if (!array) throw py::type_error("actions must be an array of integers");
  const char kind = array.dtype().kind();
  if (kind != 'i' && kind != 'u')
    return wide_actions(actions, array, num_envs, num_actions, needs_reset, buffer);
  check_shape(array, num_envs);
  buffer.resize(num_envs);
  if (array.dtype().is(py::dtype::of<int32_t>()) && (array.flags() & py::array::c_style)) {
    std::memcpy(buffer.data(), array.data(), sizeof(Action) * static_cast<size_t>(num_envs));
    return buffer.data();
  }
  const auto wide = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
  for (py::ssize_t i = 0; i < wide.shape(0); ++i) {
    const int64_t a = wide.at(i);
    const bool fits = a >= std::numeric_limits<Action>::min() &&
                      a <= std::numeric_limits<Action>::max() && !(kind == 'u' && a < 0);
    if (!fits && !needs_reset[i])
      out_of_range(static_cast<int>(i), py::int_(py::object(array[py::int_(i)])), num_actions);
    buffer[i] = fits ? static_cast<Action>(a) : 0;
  }
  return buffer.data();
}

// The chosen environments of a reset as bytes, from a bool (or 0/1 integer) array of
// shape (num_envs,). Raises TypeError or ValueError.
void read_reset_mask(const py::handle& mask, int num_envs, std::vector<uint8_t>& out) {
  const py::array array = py::array::ensure(mask);
  if (!array) throw py::type_error("the reset mask must be an array of booleans");
  const char kind = array.dtype().kind();
  if (kind != 'b' && kind != 'i' && kind != 'u')
    throw py::type_error("the reset mask must be booleans, got dtype " +
                         py::str(array.dtype()).cast<std::string>());
  if (array.ndim() != 1 || array.shape(0) != num_envs)
    throw py::value_error("the reset mask must have shape (" + std::to_string(num_envs) +
                          ",), got " + shape_string(array));
  const auto wide = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
  out.resize(num_envs);
  for (int i = 0; i < num_envs; ++i) {
    const int64_t v = wide.at(i);
    if (v != 0 && v != 1)
      throw py::value_error("the reset mask must hold 0 or 1, got " + std::to_string(v) +
                            " at env " + std::to_string(i));
    out[i] = static_cast<uint8_t>(v);
  }
}

// A snapshot's array under `key` as a flat vector of T (any shape: the batch checks the
// sizes). Raises ValueError naming the key when it is missing or not numbers.
template <class T>
std::vector<T> snapshot_array(const py::dict& snapshot, const char* key) {
  if (!snapshot.contains(key))
    throw py::value_error(std::string("snapshot: missing '") + key + "'");
  py::array_t<T, py::array::c_style | py::array::forcecast> array;
  try {
    array = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(snapshot[key]);
  } catch (const py::error_already_set&) {
  }
  if (!array)
    throw py::value_error(std::string("snapshot: '") + key + "' must be an array of numbers");
  return std::vector<T>(array.data(), array.data() + array.size());
}

py::dict snapshot_to_python(const EnvSnapshot& s) {
  py::dict out;
  out["seed"] = s.seed;
  out["fresh"] = s.fresh;
  out["states"] = s.states;
  out["streams"] = py::array_t<uint64_t>(s.streams.size(), s.streams.data());
  out["observations"] = py::array_t<float>(s.observations.size(), s.observations.data());
  out["rewards"] = py::array_t<float>(s.rewards.size(), s.rewards.data());
  out["terminated"] = py::array_t<uint8_t>(s.terminated.size(), s.terminated.data());
  out["truncated"] = py::array_t<uint8_t>(s.truncated.size(), s.truncated.data());
  out["has_final"] = py::array_t<uint8_t>(s.has_final.size(), s.has_final.data());
  out["final_observations"] =
      py::array_t<float>(s.final_observations.size(), s.final_observations.data());
  out["final_masks"] = py::array_t<uint8_t>(s.final_masks.size(), s.final_masks.data());
  return out;
}

EnvSnapshot snapshot_from_python(const py::handle& value) {
  if (!py::isinstance<py::dict>(value)) throw py::type_error("snapshot: must be a dict");
  const auto snapshot = py::reinterpret_borrow<py::dict>(value);
  EnvSnapshot out;
  try {
    out.seed = snapshot["seed"].cast<uint64_t>();
    out.fresh = snapshot["fresh"].cast<bool>();
    out.states = snapshot["states"].cast<std::vector<std::string>>();
  } catch (const py::error_already_set&) {
    throw py::value_error(
        "snapshot: 'seed' (an integer), 'fresh' (a bool) and 'states' (a "
        "list of strings) are needed");
  } catch (const py::cast_error&) {
    throw py::value_error(
        "snapshot: 'seed' must be an integer, 'fresh' a bool and 'states' a "
        "list of strings");
  }
  out.streams = snapshot_array<uint64_t>(snapshot, "streams");
  out.observations = snapshot_array<float>(snapshot, "observations");
  out.rewards = snapshot_array<float>(snapshot, "rewards");
  out.terminated = snapshot_array<uint8_t>(snapshot, "terminated");
  out.truncated = snapshot_array<uint8_t>(snapshot, "truncated");
  out.has_final = snapshot_array<uint8_t>(snapshot, "has_final");
  out.final_observations = snapshot_array<float>(snapshot, "final_observations");
  out.final_masks = snapshot_array<uint8_t>(snapshot, "final_masks");
  return out;
}

// One binding for every batch of environments (AnyEnvBatch: the vector env and the
// opponent env): reset, step and sample_actions over views made once. `info` holds the
// one array that differs, who moves (the vector env) or the learner's seat, and with
// same-step auto-reset, where an episode ended on the step, Gymnasium's final_obs and
// final_info (its returns), each with its "_" mask. Every method and property takes the
// object's lock (bindings/serialised.h): calls from several threads run one at a time.
class PyEnvBatch {
 public:
  PyEnvBatch(std::shared_ptr<AnyEnvBatch> env, const char* name, const char* info_key,
             const int32_t* info_data)
      : name_(name), env_(std::move(env)), info_key_(info_key), actions_(env_->num_envs()) {
    const GameInfo& info = env_->game().info();
    const Shape& shape = info.observation_shape;
    const py::ssize_t n = env_->num_envs();
    const std::vector<py::ssize_t> observation_shape = {n, shape.channels, shape.height,
                                                        shape.width};
    const std::vector<py::ssize_t> mask_shape = {n, info.num_actions};
    observation_ = view(env_, env_->observations(), observation_shape, py::dtype::of<float>());
    action_mask_ = view(env_, env_->masks(), mask_shape, py::dtype::of<bool>());
    rewards_ = env_->reward_width() == 1
                   ? view(env_, env_->rewards(), {n}, py::dtype::of<float>())
                   : view(env_, env_->rewards(), {n, env_->reward_width()}, py::dtype::of<float>());
    terminated_ = view(env_, env_->terminated(), {n}, py::dtype::of<bool>());
    truncated_ = view(env_, env_->truncated(), {n}, py::dtype::of<bool>());
    info_array_ = view(env_, info_data, {n}, py::dtype::of<int32_t>());
    if (env_->autoreset() == Autoreset::kSameStep) {
      final_observation_ =
          view(env_, env_->final_observations(), observation_shape, py::dtype::of<float>());
      final_mask_ = view(env_, env_->final_masks(), mask_shape, py::dtype::of<bool>());
      has_final_ = view(env_, env_->has_final(), {n}, py::dtype::of<bool>());
    }
  }

  py::tuple reset(const py::object& given_seed, const py::object& mask) {
    const std::optional<uint64_t> seed = checked_seed(given_seed);
    const Serialised::Guard guard(lock_, name_);
    const uint8_t* chosen = nullptr;
    if (!mask.is_none()) {
      read_reset_mask(mask, env_->num_envs(), chosen_);
      chosen = chosen_.data();
    }
    {
      py::gil_scoped_release release;
      env_->reset(seed, chosen);
    }
    py::dict info;
    info[info_key_] = info_array_;
    return py::make_tuple(observations(), info);
  }

  py::tuple step(const py::handle& actions) {
    const Serialised::Guard guard(lock_, name_);
    const Action* data = checked_action_array(
        actions, env_->num_envs(), env_->game().info().num_actions, env_->needs_reset(), actions_);
    {
      py::gil_scoped_release release;
      env_->step(data);
    }
    return py::make_tuple(observations(), rewards_, terminated_, truncated_, step_info());
  }

  py::array_t<int32_t> sample_actions() {
    const Serialised::Guard guard(lock_, name_);
    py::array_t<int32_t> out(env_->num_envs());
    Action* data = out.mutable_data();
    {
      py::gil_scoped_release release;
      env_->sample_actions(data);
    }
    return out;
  }

  std::unique_ptr<AnyState> state(int i) const {
    const Serialised::Guard guard(lock_, name_);
    return env_->state(i);
  }
  uint64_t seed() const {
    const Serialised::Guard guard(lock_, name_);
    return env_->seed();
  }

  // What the env is made with, fixed for its life: read without the lock, like the views.
  std::shared_ptr<AnyGame> game() const {
    return std::const_pointer_cast<AnyGame>(env_->game().shared_from_this());
  }
  std::string spec() const { return env_->game().spec(); }
  int num_envs() const { return env_->num_envs(); }
  int num_players() const { return env_->game().info().num_players; }
  int num_actions() const { return env_->game().info().num_actions; }
  py::tuple observation_shape() const {
    const Shape& shape = env_->game().info().observation_shape;
    return py::make_tuple(shape.channels, shape.height, shape.width);
  }
  std::string autoreset_mode() const { return std::string(autoreset_name(env_->autoreset())); }
  std::string finished_mask() const {
    return std::string(finished_mask_name(env_->finished_mask()));
  }

  // The observations the latest step or reset returned (the same views).
  py::dict last_observations() const {
    const Serialised::Guard guard(lock_, name_);
    return observations();
  }

  py::dict snapshot() const {
    const Serialised::Guard guard(lock_, name_);
    return snapshot_to_python(env_->snapshot());
  }
  void restore(const py::handle& snapshot) {
    const Serialised::Guard guard(lock_, name_);
    env_->restore(snapshot_from_python(snapshot));
  }

 protected:
  mutable Serialised lock_;  // one call at a time
  const char* name_;         // "VectorEnv" or "OpponentEnv", for errors

 private:
  py::dict observations() const {
    py::dict out;
    out["observation"] = observation_;
    out["action_mask"] = action_mask_;
    return out;
  }

  py::dict step_info() const {
    py::dict info;
    info[info_key_] = info_array_;
    const uint8_t* has_final = env_->has_final();
    if (env_->autoreset() == Autoreset::kSameStep &&
        std::any_of(has_final, has_final + env_->num_envs(), [](uint8_t f) { return f != 0; })) {
      py::dict final_obs, final_info;
      final_obs["observation"] = final_observation_;
      final_obs["action_mask"] = final_mask_;
      final_info["returns"] = rewards_;
      final_info["_returns"] = has_final_;
      info["final_obs"] = final_obs;
      info["_final_obs"] = has_final_;
      info["final_info"] = final_info;
      info["_final_info"] = has_final_;
    }
    return info;
  }

  std::shared_ptr<AnyEnvBatch> env_;
  const char* info_key_;
  std::vector<Action> actions_;
  std::vector<uint8_t> chosen_;
  py::array observation_, action_mask_, rewards_, terminated_, truncated_, info_array_;
  py::array final_observation_, final_mask_, has_final_;  // same-step auto-reset only
};

// The most environments an env takes: 2**24 of the smallest game are already gigabytes of
// observations. The threads' own limits are the C++ env's (kMaxThreads, num_envs).
constexpr int kMostEnvs = 1 << 24;

// The options every batch is made with; bad names raise ValueError.
VectorEnvOptions env_options(int num_envs, int num_threads, std::optional<uint64_t> seed,
                             const std::string& autoreset_mode, const std::string& finished_mask) {
  return {.num_envs = num_envs,
          .num_threads = num_threads,
          .seed = seed,
          .autoreset = parse_autoreset(autoreset_mode),
          .finished_mask = parse_finished_mask(finished_mask)};
}

// The options from the values Python gives, checked in this order (checks.cc): num_envs
// an integer in [1, kMostEnvs], num_threads one that fits an int (the env checks it
// against num_envs and kMaxThreads), the seed, the names.
VectorEnvOptions python_options(const py::handle& num_envs, const py::handle& num_threads,
                                const py::handle& seed, const std::string& autoreset_mode,
                                const std::string& finished_mask) {
  const int envs =
      checked_integer("num_envs", num_envs, py::int_(1), py::int_(kMostEnvs)).cast<int>();
  const int threads = checked_integer("num_threads", num_threads, py::int_(1),
                                      py::int_(std::numeric_limits<int>::max()))
                          .cast<int>();
  return env_options(envs, threads, checked_seed(seed), autoreset_mode, finished_mask);
}

class PyVectorEnv : public PyEnvBatch {
 public:
  PyVectorEnv(std::shared_ptr<const AnyGame> game, const VectorEnvOptions& options)
      : PyVectorEnv(game->make_vector_env(options)) {}

  // What pickle keeps: the arguments that make an equal env, and its snapshot.
  py::tuple pickled() const {
    const py::dict values = snapshot();
    return py::make_tuple(spec(), num_envs(), num_threads(), autoreset_mode(), finished_mask(),
                          values);
  }

  int num_threads() const { return env_->num_threads(); }  // fixed: no lock

  std::string repr() const {
    return "<knightgym.VectorEnv " + spec() + " x" + std::to_string(num_envs()) + ", " +
           std::to_string(num_threads()) + " threads>";
  }

 private:
  explicit PyVectorEnv(std::shared_ptr<AnyVectorEnv> env)
      : PyEnvBatch(env, "VectorEnv", "current_player", env->current_player()),
        env_(std::move(env)) {}

  std::shared_ptr<AnyVectorEnv> env_;
};

// The single-agent view: the learner's seat against a C++ agent (agents/opponent_env.h).
class PyOpponentEnv : public PyEnvBatch {
 public:
  PyOpponentEnv(std::shared_ptr<const AnyGame> game, const std::string& opponent,
                const VectorEnvOptions& options, int learner_seat)
      : PyOpponentEnv(make(std::move(game), opponent, options, learner_seat), opponent,
                      learner_seat) {}

  // What pickle keeps: the arguments that make an equal env, and its snapshot.
  py::tuple pickled() const {
    const py::dict values = snapshot();
    return py::make_tuple(spec(), num_envs(), opponent_, autoreset_mode(), finished_mask(),
                          learner_seat_, values);
  }

  const std::string& opponent() const { return opponent_; }  // fixed: no lock

  std::string repr() const {
    return "<knightgym.OpponentEnv " + spec() + " x" + std::to_string(num_envs()) + " against " +
           opponent_ + ">";
  }

 private:
  PyOpponentEnv(std::shared_ptr<AnyOpponentEnv> env, std::string opponent, int learner_seat)
      : PyEnvBatch(env, "OpponentEnv", "seat", env->seats()),
        env_(std::move(env)),
        opponent_(std::move(opponent)),
        learner_seat_(learner_seat) {}

  static std::shared_ptr<AnyOpponentEnv> make(std::shared_ptr<const AnyGame> game,
                                              const std::string& opponent,
                                              const VectorEnvOptions& options, int learner_seat) {
    py::gil_scoped_release release;  // an az opponent may load a network
    return make_opponent_env(std::move(game), opponent, options, learner_seat);
  }

  std::shared_ptr<AnyOpponentEnv> env_;
  std::string opponent_;
  int learner_seat_;  // -1: rotated across the environments
};

}  // namespace

void init_vector_env(py::module_& m) {
  m.attr("MOST_ENVS") = kMostEnvs;

  py::class_<PyEnvBatch>(
      m, "EnvBatch",
      "What VectorEnv and OpponentEnv share: N environments of one game in C++, their "
      "outputs read-only numpy views of the C++ buffers.\n\n"
      "reset(seed=None, mask=None) -> (obs, info); step(actions) -> (obs, rewards, "
      "terminated, truncated, info), with obs = {'observation': float32 [N, C, H, W], "
      "'action_mask': bool [N, A]}, terminated and truncated bool [N].\n\n"
      "The arrays are views: no copy is made, and the next step() or reset() overwrites "
      "them. Copy what you need to keep (np.copy).\n\n"
      "An env pickles and deep-copies (SB3's SubprocVecEnv, Ray, copy.deepcopy): the copy "
      "holds the same states, random streams and last outputs and goes on exactly as the "
      "original would; an OpponentEnv's opponent is a new agent of its spec, seeded as a "
      "reset with the env's seed seeds it. snapshot() and restore(snapshot) are that copy "
      "as values, taken from one env and set on another of the same game and options.\n\n"
      "A seed, here and in make(), is an integer in [0, 2**64 - 1] (not a bool, a float or "
      "a string); anything else is a TypeError or ValueError naming `seed`.\n\n"
      "Auto-reset (autoreset_mode, Gymnasium's names): 'next_step' (default): the step that "
      "ends an episode returns its final observation and its rewards; the next step ignores "
      "that environment's action and returns the first observation of a new episode. "
      "'same_step': the step that ends an episode returns its rewards and flags with the "
      "first observation of the next episode; the final observation and mask are in "
      "info['final_obs'] and the returns in info['final_info']['returns'], each beside a "
      "bool mask (info['_final_obs'], ...) of the environments they belong to. 'disabled': "
      "an ended episode stays ended until reset(mask=...) restarts it; a step is refused "
      "while one is ended.\n\n"
      "A finished episode's action mask is all True by default (finished_mask='all'), so "
      "that a masked softmax over it stays finite; 'none' gives the all-False mask of the "
      "game's rules.\n\n"
      "Calls from several threads are serialised: each method runs whole, one at a time "
      "(the GIL released while C++ steps), and the arrays always show the latest step's or "
      "reset's results: copy them if another thread may step in the meantime. A call that "
      "re-enters the env from inside one of its own calls (a callback on the same thread) "
      "raises RuntimeError.")
      .def("reset", &PyEnvBatch::reset, py::arg("seed") = py::none(), py::arg("mask") = py::none(),
           "Starts new episodes: everywhere, or where `mask` (bool [N]) is True, leaving the "
           "other environments as they are. A seed re-derives the streams of the environments "
           "it resets. The first reset after make() without a seed gives each stream its first "
           "episode (the one make() started).")
      .def("step", &PyEnvBatch::step, py::arg("actions"),
           "Applies one integer action per environment (ignored where it auto-resets). An "
           "integer out of range, however wide, is a ValueError naming the environment and the "
           "action; a float or bool dtype a TypeError.")
      .def("sample_actions", &PyEnvBatch::sample_actions,
           "A uniformly random legal action per environment, int32 [N] (seeded).")
      .def("state", &PyEnvBatch::state, py::arg("index"),
           "A copy of environment `index`'s current state, as a single State.")
      .def("last_observations", &PyEnvBatch::last_observations,
           "The observations the latest step or reset returned (the same read-only views).")
      .def("snapshot", &PyEnvBatch::snapshot,
           "Everything the environments hold, as values (a dict: the seed, each state as the "
           "game's text, the random streams, the last outputs): what pickle and deepcopy "
           "carry.")
      .def("restore", &PyEnvBatch::restore, py::arg("snapshot"),
           "Sets the environments to a snapshot of an env of the same game and options; "
           "ValueError naming what does not fit, and nothing changed, otherwise. An "
           "OpponentEnv's opponent is made anew, seeded as a reset with the snapshot's seed "
           "seeds it.")
      .def_property_readonly("seed", &PyEnvBatch::seed,
                             "The seed the environments' streams were last derived from (drawn "
                             "from the operating system's entropy when the env was made with "
                             "seed=None).")
      .def_property_readonly("game", &PyEnvBatch::game)
      .def_property_readonly("spec", &PyEnvBatch::spec,
                             "The game's spec, every parameter spelled out.")
      .def_property_readonly("num_envs", &PyEnvBatch::num_envs)
      .def_property_readonly("num_players", &PyEnvBatch::num_players)
      .def_property_readonly("num_actions", &PyEnvBatch::num_actions)
      .def_property_readonly("observation_shape", &PyEnvBatch::observation_shape, "(C, H, W)")
      .def_property_readonly("autoreset_mode", &PyEnvBatch::autoreset_mode)
      .def_property_readonly("finished_mask", &PyEnvBatch::finished_mask);

  py::class_<PyOpponentEnv, PyEnvBatch>(
      m, "OpponentEnv",
      "N environments in which the learner plays one seat and a built-in C++ agent plays the "
      "others: a single-agent vector env. Environment i gives the learner seat i mod "
      "num_players (info['seat']), so the seats are rotated across the batch, or `seat` in "
      "every environment.\n\n"
      "The observation and mask are from the learner's seat, rewards float32 [N] (the "
      "learner's return when its game ends, else 0). After each learner action the opponent "
      "moves until it is the learner's turn again; it decides for all environments together "
      "(one network batch per simulation round for az opponents). A reset of every "
      "environment with a seed also reseeds the opponent, so that the seed decides the whole "
      "trajectory.\n\n"
      "`params`, (key, value) texts, are set over the spec's parameters (knightgym.make's "
      "keywords). Calls from several threads are serialised (EnvBatch).")
      .def(py::init([](const std::string& spec, const py::object& num_envs,
                       const std::string& opponent, const py::object& seed,
                       const std::string& autoreset_mode, const std::string& finished_mask,
                       const py::object& seat, const SpecParams& params) {
             VectorEnvOptions options =
                 python_options(num_envs, py::int_(1), seed, autoreset_mode, finished_mask);
             const int learner_seat =
                 seat.is_none() ? -1
                                : checked_integer("seat", seat, py::int_(0),
                                                  py::int_(std::numeric_limits<int>::max()))
                                      .cast<int>();
             return std::make_unique<PyOpponentEnv>(load_game(spec_with(spec, params)), opponent,
                                                    options, learner_seat);
           }),
           py::arg("spec"), py::arg("num_envs") = 1, py::arg("opponent") = "random",
           py::arg("seed") = py::none(), py::arg("autoreset_mode") = "next_step",
           py::arg("finished_mask") = "all", py::arg("seat") = py::none(), py::kw_only(),
           py::arg("params") = SpecParams{})
      .def_property_readonly("opponent", &PyOpponentEnv::opponent, "The opponent's agent spec.")
      .def("__repr__", &PyOpponentEnv::repr)
      .def(py::pickle([](const PyOpponentEnv& env) { return env.pickled(); },
                      [](const py::tuple& t) {
                        if (t.size() != 7) throw py::value_error("OpponentEnv: bad pickle");
                        const py::dict snapshot = t[6];
                        auto env = std::make_unique<PyOpponentEnv>(
                            load_game(t[0].cast<std::string>()), t[2].cast<std::string>(),
                            env_options(t[1].cast<int>(), 1, snapshot["seed"].cast<uint64_t>(),
                                        t[3].cast<std::string>(), t[4].cast<std::string>()),
                            t[5].cast<int>());
                        env->restore(snapshot);
                        return env;
                      }));

  py::class_<PyVectorEnv, PyEnvBatch>(
      m, "VectorEnv",
      "N environments of one game, stepped together by a pool of C++ threads (num_threads, "
      "1 to min(num_envs, 256); ValueError otherwise), every seat played by the caller: "
      "rewards float32 [N, num_players], info = {'current_player': int32 [N]} (-4, "
      "OpenSpiel's terminal player id, where the episode has ended). A finished episode's "
      "observation is seen by the player who ended it.\n\n"
      "`params`, (key, value) texts, are set over the spec's parameters (knightgym.make's "
      "keywords). Calls from several threads are serialised (EnvBatch).")
      .def(py::init([](const std::string& spec, const py::object& num_envs,
                       const py::object& num_threads, const py::object& seed,
                       const std::string& autoreset_mode, const std::string& finished_mask,
                       const SpecParams& params) {
             VectorEnvOptions options =
                 python_options(num_envs, num_threads, seed, autoreset_mode, finished_mask);
             return std::make_unique<PyVectorEnv>(load_game(spec_with(spec, params)), options);
           }),
           py::arg("spec"), py::arg("num_envs") = 1, py::arg("num_threads") = 1,
           py::arg("seed") = py::none(), py::arg("autoreset_mode") = "next_step",
           py::arg("finished_mask") = "all", py::kw_only(), py::arg("params") = SpecParams{})
      .def_property_readonly("num_threads", &PyVectorEnv::num_threads)
      .def("__repr__", &PyVectorEnv::repr)
      .def(py::pickle([](const PyVectorEnv& env) { return env.pickled(); },
                      [](const py::tuple& t) {
                        if (t.size() != 6) throw py::value_error("VectorEnv: bad pickle");
                        const py::dict snapshot = t[5];
                        auto env = std::make_unique<PyVectorEnv>(
                            load_game(t[0].cast<std::string>()),
                            env_options(t[1].cast<int>(), t[2].cast<int>(),
                                        snapshot["seed"].cast<uint64_t>(), t[3].cast<std::string>(),
                                        t[4].cast<std::string>()));
                        env->restore(snapshot);
                        return env;
                      }));
}

}  // namespace knightgym::python
