#include "training/trainer/run_summary.h"

#include "util/json_writer.h"

namespace knightgym {

namespace {

void write_counters(JsonWriter& json, const TrainingCounters& c) {
  json.begin_object().key("steps").value(c.steps).key("samples").value(c.samples);
  json.key("games").value(c.games).key("decisions").value(c.decisions);
  json.key("evaluations").value(c.evaluations);
  json.key("seconds").value(static_cast<double>(c.milliseconds) / 1000.0);
  json.key("match_rounds").value(c.match_rounds).key("generation").value(c.generation);
  json.key("chunks").value(c.chunks).end_object();
}

void write_match_round(JsonWriter& json, const std::vector<MatchResult>& round) {
  json.begin_array();
  for (const MatchResult& e : round) {
    json.begin_object().key("opponent").value(e.opponent).key("games").value(e.score.games);
    json.key("wins").value(e.score.wins).key("draws").value(e.score.draws);
    json.key("losses").value(e.score.losses).key("score").value(e.score.score);
    json.key("half_width").value(e.score.half_width).end_object();
  }
  json.end_array();
}

}  // namespace

std::string counters_json(const TrainingCounters& counters) {
  JsonWriter json;
  write_counters(json, counters);
  return json.text();
}

std::string match_round_json(const std::vector<MatchResult>& round) {
  JsonWriter json;
  write_match_round(json, round);
  return json.text();
}

std::string run_summary_json(const std::string& game_spec, const TrainingCounters& counters,
                             const std::vector<MatchResult>& round, bool finished) {
  JsonWriter json;
  json.begin_object().key("game").value(game_spec).key("finished").value(finished);
  json.key("counters");
  write_counters(json, counters);
  json.key("last_match_round");
  write_match_round(json, round);
  return json.end_object().text() + "\n";
}

}  // namespace knightgym
