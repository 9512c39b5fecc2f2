#include "training/arena/game_record_file.h"

#include <algorithm>

#include "util/json_writer.h"

namespace knightgym {

std::string game_record_line(const AnyGame& game, const GameRecord& record,
                             std::span<const std::string> agent_specs, int64_t index,
                             int opening_plies) {
  JsonWriter json;
  json.begin_object().key("spec").value(game.spec()).key("seed").value(record.start_seed);
  json.key("game").value(index).key("agents").begin_array();
  for (const int agent : record.agent_of_seat) json.value(agent_specs[agent]);
  json.end_array();
  json.key("opening_plies").value(std::min<int64_t>(opening_plies, record.decisions));
  json.key("moves").begin_array();
  auto state = game.new_initial_state(record.start_seed);
  for (const Action action : record.actions) {
    json.value(state->action_to_string(action));
    state->apply_action(action);
  }
  json.end_array().key("returns").array(record.returns);
  json.key("truncated").value(record.truncated).end_object();
  return json.text();
}

std::string game_record_lines(const AnyGame& game, std::span<const GameRecord> records,
                              std::span<const std::string> agent_specs, int64_t first,
                              int opening_plies) {
  std::string out;
  for (size_t i = 0; i < records.size(); ++i)
    out += game_record_line(game, records[i], agent_specs, first + static_cast<int64_t>(i),
                            opening_plies) +
           "\n";
  return out;
}

}  // namespace knightgym
