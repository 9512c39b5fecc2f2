#include "programs/cli/ray_relay_channel.h"

#include <cstring>
#include <mutex>

#include "util/json_reader.h"
#include "util/json_writer.h"

namespace knightgym::cli {
namespace {

std::string start_of(const std::string& address, int actors, const std::string& game_spec,
                     const std::string& settings) {
  JsonWriter start;
  start.begin_object().key("run").value("train").key("address").value(address).key("actors");
  if (actors > 0)
    start.value(actors);
  else
    start.null();
  start.key("game").value(game_spec).key("settings").value(settings).end_object();
  return start.text();
}

}  // namespace

RayRelayChannel::RayRelayChannel(const std::string& address, int actors,
                                 const std::string& game_spec, const std::string& settings,
                                 const std::atomic<bool>& stop)
    : relay_(start_of(address, actors, game_spec, settings), stop) {
  if (!relay_.started().empty())
    actors_ = static_cast<int>(parse_json(relay_.started()).at("actors").as_int(1));
}

void RayRelayChannel::publish(int64_t version, std::string weights) {
  std::lock_guard lock(relay_.mutex());
  relay_.send('P', little_endian(version) + weights);
}

void RayRelayChannel::request(int64_t number) {
  std::lock_guard lock(relay_.mutex());
  relay_.send('R', little_endian(number));
}

std::string RayRelayChannel::receive(int64_t number) {
  std::lock_guard lock(relay_.mutex());
  relay_.send('G', little_endian(number));
  const std::optional<Frame> chunk = relay_.next('C');
  return chunk ? chunk->payload : "";  // "": the run is stopping
}

std::vector<double> RayRelayChannel::actor_rates(double seconds) {
  std::lock_guard lock(relay_.mutex());
  std::string bytes(8, '\0');
  std::memcpy(bytes.data(), &seconds, 8);  // a little-endian double, as x86 and ARM hold it
  relay_.send('A', bytes);
  std::vector<double> rates;
  const std::optional<Frame> answer = relay_.next('A');
  if (!answer) return rates;
  const JsonValue list = parse_json(answer->payload);
  for (const JsonValue& rate : list.as_array()) rates.push_back(rate.as_double());
  return rates;
}

}  // namespace knightgym::cli
