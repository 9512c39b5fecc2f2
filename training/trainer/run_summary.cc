#include "training/trainer/run_summary.h"

#include "util/json_writer.h"

namespace knightgym {

std::string run_summary_json(const std::string& game_spec, const TrainingCounters& counters,
                             const std::vector<Evaluation>& evaluation, bool finished) {
  const TrainingCounters& c = counters;
  JsonWriter json;
  json.begin_object().key("game").value(game_spec).key("finished").value(finished);
  json.key("counters").begin_object().key("steps").value(c.steps).key("samples").value(c.samples);
  json.key("games").value(c.games).key("decisions").value(c.decisions);
  json.key("evaluations").value(c.evaluations);
  json.key("seconds").value(static_cast<double>(c.milliseconds) / 1000.0);
  json.key("eval_rounds").value(c.eval_rounds).key("generation").value(c.generation);
  json.key("chunks").value(c.chunks).end_object();
  json.key("evaluation").begin_array();
  for (const Evaluation& e : evaluation) {
    json.begin_object().key("opponent").value(e.opponent).key("games").value(e.score.games);
    json.key("wins").value(e.score.wins).key("draws").value(e.score.draws);
    json.key("losses").value(e.score.losses).key("score").value(e.score.score);
    json.key("half_width").value(e.score.half_width).end_object();
  }
  return json.end_array().end_object().text() + "\n";
}

}  // namespace knightgym
