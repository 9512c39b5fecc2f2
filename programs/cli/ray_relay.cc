#include "programs/cli/ray_relay.h"

#include <stdexcept>

#include "programs/cli/python_package.h"
#include "util/json_writer.h"

namespace knightgym::cli {

namespace {

PythonChild start_relay() {
  const std::string python = venv_python();
  if (python.empty())
    throw std::invalid_argument("--ray needs the Python module, which this build lacks");
  return PythonChild(python, python_package_dir(), "knightgym.ray_relay", {}, "the Ray relay");
}

}  // namespace

RayRelay::RayRelay(const std::string& start, const std::atomic<bool>& stop)
    : child_(start_relay()), stop_(stop) {
  child_.send('S', start);
  try {
    if (const std::optional<Frame> answer = next('S')) started_ = answer->payload;
  } catch (const std::runtime_error& error) {
    throw std::invalid_argument(error.what());
  }
}

void RayRelay::send(char kind, std::string_view payload) { child_.send(kind, payload); }

std::optional<Frame> RayRelay::next(char kind, char or_kind) {
  std::optional<Frame> frame = child_.receive(stop_);
  if (!frame) return std::nullopt;
  if (frame->kind == 'E') throw std::runtime_error("the Ray relay: " + frame->payload);
  if (frame->kind != kind && (or_kind == 0 || frame->kind != or_kind))
    throw std::runtime_error(std::string("the Ray relay answered with a frame of kind '") +
                             frame->kind + "', not '" + kind + "'");
  return frame;
}

std::string little_endian(int64_t value) {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(static_cast<uint64_t>(value) >> (8 * i));
  return bytes;
}

ChunkRunner relay_runner(RayRelay& relay) {
  return [&relay](int rule_set, int64_t first, int64_t count,
                  const std::function<void(const RuleSetTally&)>& consume) {
    std::lock_guard lock(relay.mutex());
    JsonWriter window;
    window.begin_object().key("rule_set").value(rule_set).key("first").value(first);
    window.key("count").value(count).end_object();
    relay.send('W', window.text());
    // T: a chunk's serialized tally, in chunk order; D: the window's end.
    while (const std::optional<Frame> frame = relay.next('T', 'D')) {
      if (frame->kind == 'D') return;
      consume(RuleSetTally::parse(frame->payload));
    }
  };
}

}  // namespace knightgym::cli
