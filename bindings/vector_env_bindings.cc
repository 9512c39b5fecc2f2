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

// The actions as int32 [num_envs], copied into `buffer` (also an int32 array: while C++
// steps without the GIL, another thread may write the caller's array, and C++ must apply
// the actions it checked). Raises TypeError or ValueError. Range and legality are C++'s
// to check, except for a value that int32 cannot hold: that is an error here unless the
// environment's episode has ended (needs_reset), where the step ignores its action or
// refuses it with its own message.
const Action* checked_action_array(const py::handle& actions, int num_envs, int num_actions,
                                   const uint8_t* needs_reset, std::vector<Action>& buffer) {
  const py::array array = py::array::ensure(actions);
  if (!array) throw py::type_error("actions must be an array of integers");
  const char kind = array.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw py::type_error("actions must be integers, got dtype " +
                         py::str(array.dtype()).cast<std::string>());
  if (array.ndim() != 1 || array.shape(0) != num_envs)
    throw py::value_error("actions must have shape (" + std::to_string(num_envs) + ",), got " +
                          shape_string(array));
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
      throw py::value_error("env " + std::to_string(i) + ": action " +
                            py::str(array[py::int_(i)]).cast<std::string>() +
                            " is out of range [0, " + std::to_string(num_actions) + ")");
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

  py::tuple reset(std::optional<uint64_t> seed, const py::object& mask) {
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

  std::shared_ptr<AnyGame> game() const {
    const Serialised::Guard guard(lock_, name_);
    return std::const_pointer_cast<AnyGame>(env_->game().shared_from_this());
  }
  std::unique_ptr<AnyState> state(int i) const {
    const Serialised::Guard guard(lock_, name_);
    return env_->state(i);
  }
  int num_envs() const {
    const Serialised::Guard guard(lock_, name_);
    return env_->num_envs();
  }
  uint64_t seed() const {
    const Serialised::Guard guard(lock_, name_);
    return env_->seed();
  }
  std::string autoreset_mode() const {
    const Serialised::Guard guard(lock_, name_);
    return std::string(autoreset_name(env_->autoreset()));
  }
  std::string finished_mask() const {
    const Serialised::Guard guard(lock_, name_);
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

// The options every batch is made with, from Python's values; bad names raise ValueError.
VectorEnvOptions env_options(int num_envs, int num_threads, std::optional<uint64_t> seed,
                             const std::string& autoreset_mode, const std::string& finished_mask) {
  return {.num_envs = num_envs,
          .num_threads = num_threads,
          .seed = seed,
          .autoreset = parse_autoreset(autoreset_mode),
          .finished_mask = parse_finished_mask(finished_mask)};
}

class PyVectorEnv : public PyEnvBatch {
 public:
  explicit PyVectorEnv(const std::string& spec, const VectorEnvOptions& options)
      : PyVectorEnv(load_game(std::string_view(spec))->make_vector_env(options)) {}

  // What pickle keeps: the arguments that make an equal env, and its snapshot.
  py::tuple pickled() const {
    const py::dict values = snapshot();
    const Serialised::Guard guard(lock_, name_);
    return py::make_tuple(env_->game().spec(), env_->num_envs(), env_->num_threads(),
                          autoreset_name(env_->autoreset()),
                          finished_mask_name(env_->finished_mask()), values);
  }

  int num_threads() const {
    const Serialised::Guard guard(lock_, name_);
    return env_->num_threads();
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
  PyOpponentEnv(const std::string& spec, const std::string& opponent,
                const VectorEnvOptions& options, int learner_seat)
      : PyOpponentEnv(make(spec, opponent, options, learner_seat), opponent, learner_seat) {}

  // What pickle keeps: the arguments that make an equal env, and its snapshot.
  py::tuple pickled() const {
    const py::dict values = snapshot();
    const Serialised::Guard guard(lock_, name_);
    return py::make_tuple(env_->game().spec(), env_->num_envs(), opponent_,
                          autoreset_name(env_->autoreset()),
                          finished_mask_name(env_->finished_mask()), learner_seat_, values);
  }

 private:
  PyOpponentEnv(std::shared_ptr<AnyOpponentEnv> env, std::string opponent, int learner_seat)
      : PyEnvBatch(env, "OpponentEnv", "seat", env->seats()),
        env_(std::move(env)),
        opponent_(std::move(opponent)),
        learner_seat_(learner_seat) {}

  static std::shared_ptr<AnyOpponentEnv> make(const std::string& spec, const std::string& opponent,
                                              const VectorEnvOptions& options, int learner_seat) {
    std::shared_ptr<const AnyGame> game = load_game(std::string_view(spec));
    py::gil_scoped_release release;  // an az opponent may load a network
    return make_opponent_env(std::move(game), opponent, options, learner_seat);
  }

  std::shared_ptr<AnyOpponentEnv> env_;
  std::string opponent_;
  int learner_seat_;
};

}  // namespace

void init_vector_env(py::module_& m) {
  py::class_<PyEnvBatch>(
      m, "EnvBatch",
      "A batch of environments stepped in C++ (the GIL released while it steps). Calls "
      "from several threads are serialised: each method runs whole, one at a time. The "
      "arrays returned are read-only views of the C++ buffers and always show the latest "
      "step's or reset's results: copy them if another thread may step in the meantime. "
      "A call that re-enters the env from inside one of its own calls (a callback on the "
      "same thread) raises RuntimeError.")
      .def("reset", &PyEnvBatch::reset, py::arg("seed") = py::none(), py::arg("mask") = py::none())
      .def("step", &PyEnvBatch::step, py::arg("actions"))
      .def("sample_actions", &PyEnvBatch::sample_actions)
      .def("state", &PyEnvBatch::state, py::arg("index"))
      .def("last_observations", &PyEnvBatch::last_observations,
           "The observations the latest step or reset returned (the same read-only views).")
      .def("snapshot", &PyEnvBatch::snapshot,
           "Everything the environments hold, as values (a dict: the seed, each state as the "
           "game's text, the random streams, the outputs): what pickle and deepcopy carry.")
      .def("restore", &PyEnvBatch::restore, py::arg("snapshot"),
           "Sets the environments to a snapshot of an env of the same game and options. "
           "ValueError naming what does not fit, and nothing changed, otherwise. An "
           "OpponentEnv's opponent is made anew, seeded as a reset with the snapshot's seed "
           "seeds it.")
      .def_property_readonly("game", &PyEnvBatch::game)
      .def_property_readonly("num_envs", &PyEnvBatch::num_envs)
      .def_property_readonly("seed", &PyEnvBatch::seed)
      .def_property_readonly("autoreset_mode", &PyEnvBatch::autoreset_mode)
      .def_property_readonly("finished_mask", &PyEnvBatch::finished_mask);

  py::class_<PyOpponentEnv, PyEnvBatch>(
      m, "OpponentEnv",
      "The learner's seat against a C++ agent. Calls from several threads are serialised; "
      "the returned arrays are views that show the latest step's results (EnvBatch).")
      .def(py::init([](const std::string& spec, int num_envs, const std::string& opponent,
                       std::optional<uint64_t> seed, const std::string& autoreset_mode,
                       const std::string& finished_mask, std::optional<int> seat) {
             return std::make_unique<PyOpponentEnv>(
                 spec, opponent, env_options(num_envs, 1, seed, autoreset_mode, finished_mask),
                 seat.value_or(-1));
           }),
           py::arg("spec"), py::arg("num_envs"), py::arg("opponent"), py::arg("seed"),
           py::arg("autoreset_mode"), py::arg("finished_mask"), py::arg("seat"))
      .def(py::pickle([](const PyOpponentEnv& env) { return env.pickled(); },
                      [](const py::tuple& t) {
                        if (t.size() != 7) throw py::value_error("OpponentEnv: bad pickle");
                        const py::dict snapshot = t[6];
                        auto env = std::make_unique<PyOpponentEnv>(
                            t[0].cast<std::string>(), t[2].cast<std::string>(),
                            env_options(t[1].cast<int>(), 1, snapshot["seed"].cast<uint64_t>(),
                                        t[3].cast<std::string>(), t[4].cast<std::string>()),
                            t[5].cast<int>());
                        env->restore(snapshot);
                        return env;
                      }));

  py::class_<PyVectorEnv, PyEnvBatch>(
      m, "VectorEnv",
      "N environments of one game, every seat played by the caller, stepped on num_threads "
      "threads (1 to min(num_envs, 256); ValueError otherwise). Calls from several threads "
      "are serialised; the returned arrays are views that show the latest step's results "
      "(EnvBatch).")
      .def(py::init([](const std::string& spec, int num_envs, int num_threads,
                       std::optional<uint64_t> seed, const std::string& autoreset_mode,
                       const std::string& finished_mask) {
             return std::make_unique<PyVectorEnv>(
                 spec, env_options(num_envs, num_threads, seed, autoreset_mode, finished_mask));
           }),
           py::arg("spec"), py::arg("num_envs"), py::arg("num_threads"), py::arg("seed"),
           py::arg("autoreset_mode"), py::arg("finished_mask"))
      .def(py::pickle([](const PyVectorEnv& env) { return env.pickled(); },
                      [](const py::tuple& t) {
                        if (t.size() != 6) throw py::value_error("VectorEnv: bad pickle");
                        const py::dict snapshot = t[5];
                        auto env = std::make_unique<PyVectorEnv>(
                            t[0].cast<std::string>(),
                            env_options(t[1].cast<int>(), t[2].cast<int>(),
                                        snapshot["seed"].cast<uint64_t>(), t[3].cast<std::string>(),
                                        t[4].cast<std::string>()));
                        env->restore(snapshot);
                        return env;
                      }))
      .def_property_readonly("num_threads", &PyVectorEnv::num_threads);
}

}  // namespace knightgym::python
