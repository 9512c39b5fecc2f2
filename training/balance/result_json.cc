#include "training/balance/result_json.h"

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/agent_kinds.h"
#include "util/atomic_file.h"
#include "util/json_writer.h"

namespace knightgym {
namespace {

void write_interval(JsonWriter& json, const char* low, const char* high, Interval interval) {
  json.key(low).value(interval.low).key(high).value(interval.high);
}

// Rule set r of a result, with its verdict, its balance against the fairest's and (past the
// first) its comparison with the first.
void write_rule_set(JsonWriter& json, const BalanceResult& result, size_t r) {
  const RuleSetResult& rule_set = result.rule_sets[r];
  const AdvantageVerdict& verdict = result.verdicts[r];
  const RuleSetComparison* versus = r > 0 ? &result.comparisons[r] : nullptr;
  const std::vector<std::string>& agent_specs = result.agent_specs;
  const RuleSetFigures& f = rule_set.figures;
  const double n = static_cast<double>(f.games);
  json.begin_object();
  json.key("label").value(rule_set_label(rule_set.rules)).key("spec").value(rule_set.rules.spec);
  json.key("values").begin_object();
  for (const auto& [key, value] : rule_set.rules.values) json.key(key).value(value);
  json.end_object();
  json.key("players").value(f.players).key("games").value(f.games);
  json.key("blocks").value(f.blocks).key("block_games").value(f.block_games);
  json.key("seconds").value(rule_set.seconds);

  json.key("seats").begin_array();
  for (size_t s = 0; s < f.seats.size(); ++s) {
    const SeatFigures& seat = f.seats[s];
    json.begin_object().key("seat").value(static_cast<int>(s));
    json.key("wins").value(seat.wins).key("draws").value(seat.draws);
    json.key("losses").value(seat.losses);
    json.key("win_rate").value(seat.wins / n);
    write_interval(json, "win_low", "win_high", seat.win);
    json.key("draw_rate").value(seat.draws / n);
    write_interval(json, "draw_low", "draw_high", seat.draw);
    json.key("loss_rate").value(seat.losses / n);
    write_interval(json, "loss_low", "loss_high", seat.loss);
    if (seat.win_share) {
      json.key("win_share").value(seat.win_share->mean);
      write_interval(json, "win_share_low", "win_share_high", seat.win_share_sequence);
    }
    json.key("mean_return").value(seat.mean_return);
    json.key("ranks").array(seat.ranks).end_object();
  }
  json.end_array();

  json.key("first_seat_advantage").begin_object();
  json.key("mean").value(f.advantage.mean);
  write_interval(json, "low", "high", f.advantage_sequence);
  write_interval(json, "fixed_low", "fixed_high", f.advantage.interval());
  json.key("std_error").value(f.advantage.std_error);
  json.key("game_std_error").value(f.advantage_game_std_error);
  json.key("block_sd").value(f.advantage.sd);
  json.key("p_value")
      .value(verdict.p_nonzero)
      .key("adjusted_p_value")
      .value(verdict.adjusted_nonzero);
  json.key("p_even").value(verdict.p_even).key("adjusted_p_even").value(verdict.adjusted_even);
  json.end_object();
  json.key("verdict").value(verdict_name(verdict.verdict));
  json.key("balance").value(f.balance);
  write_interval(json, "balance_low", "balance_high", result.fairness.balance[r]);
  json.key("as_fair_p_value").value(result.fairness.p_values[r]);
  json.key("as_fair").value(result.fairness.as_fair[r]);
  json.key("decisive").value(f.decisive).key("decisiveness").value(f.decisive / n);
  json.key("natural_draws").value(f.natural_draws).key("truncated").value(f.truncated);
  json.key("truncated_draws").value(f.truncated_draws);

  const LengthFigures& length = f.length;
  json.key("length").begin_object();
  json.key("mean").value(length.decisions.mean).key("sd").value(length.decisions.sd);
  json.key("min").value(length.min).key("max").value(length.max);
  json.key("percentiles").begin_object();
  for (size_t i = 0; i < kLengthPercentiles.size(); ++i)
    json.key(std::to_string(static_cast<int>(kLengthPercentiles[i]))).value(length.percentiles[i]);
  json.end_object();
  json.key("histogram").begin_object().key("start").value(length.bin_start);
  json.key("width").value(length.bin_width).key("counts").array(length.histogram);
  json.end_object().end_object();

  json.key("agents").begin_array();
  for (size_t a = 0; a < f.agents.size(); ++a) {
    const AgentFigures& agent = f.agents[a];
    json.begin_object().key("spec").value(agent_specs[a]).key("games").value(agent.games);
    json.key("wins").value(agent.wins).key("draws").value(agent.draws);
    json.key("losses").value(agent.losses).key("score").value(agent.score.mean);
    write_interval(json, "score_low", "score_high", agent.score.interval());
    json.key("elo").value(agent.elo).key("elo_error").value(agent.elo_error).end_object();
  }
  json.end_array();
  json.key("pentanomial");
  if (f.pentanomial)
    json.array(std::vector<int64_t>(f.pentanomial->begin(), f.pentanomial->end()));
  else
    json.null();

  json.key("sprt");
  if (rule_set.sprt) {
    const SprtState& state = rule_set.sprt->state;
    json.begin_object().key("decision").value(sprt_decision_name(state.decision));
    json.key("llr").value(state.llr).key("lower").value(state.lower);
    json.key("upper").value(state.upper).key("games").value(f.games).end_object();
  } else {
    json.null();
  }
  json.key("vs_first");
  if (versus) {
    json.begin_object().key("difference").value(versus->difference.value);
    write_interval(json, "low", "high", versus->difference.interval);
    json.key("p_value").value(versus->difference.p_value);
    json.key("adjusted_p_value").value(versus->adjusted_p_value);
    json.key("significant").value(versus->significant).end_object();
  } else {
    json.null();
  }
  json.key("same_games_as");
  const SameGamesAs& same = result.same_games[r];
  if (same.rule_set >= 0)
    json.begin_object()
        .key("rule_set")
        .value(same.rule_set)
        .key("seats")
        .array(same.seats)
        .end_object();
  else
    json.null();
  json.end_object();
}

}  // namespace

std::string rule_set_label(const RuleSet& rules) {
  if (rules.values.empty()) return "default rules";
  std::string label;
  for (const auto& [key, value] : rules.values)
    label.append(label.empty() ? "" : ", ").append(key).append("=").append(value);
  return label;
}

std::string balance_json(const BalanceResult& result) {
  const BalanceOptions& options = result.options;
  JsonWriter json;
  json.begin_object().key("game").value(options.game);
  json.key("agents").array(result.agent_specs);
  std::vector<std::string> specs;
  for (const RuleSetResult& rule_set : result.rule_sets) specs.push_back(rule_set.rules.spec);
  json.key("networks").raw(networks_json(networks_used(result.agent_specs, specs)));
  json.key("games_per_rule_set").value(options.games);
  json.key("threads").value(options.threads);
  json.key("batch").value(options.batch).key("chunk_games").value(result.chunk_games);
  json.key("opening_plies").value(options.opening_plies);
  json.key("seed").value(static_cast<int64_t>(options.seed));
  json.key("check_every").value(options.check_every);
  json.key("sweeps").begin_array();
  for (const Sweep& sweep : options.sweeps)
    json.begin_object().key("key").value(sweep.key).key("values").array(sweep.values).end_object();
  json.end_array();
  json.key("sprt");
  if (options.sprt)
    json.begin_object()
        .key("a0")
        .value(options.sprt->a0)
        .key("a1")
        .value(options.sprt->a1)
        .key("alpha")
        .value(options.sprt->alpha)
        .key("beta")
        .value(options.sprt->beta)
        .end_object();
  else
    json.null();
  json.key("statistics").begin_object();
  json.key("intervals").value("confidence sequences at 95%, valid however the run stopped");
  json.key("tuned_blocks").value(result.tuned_blocks).key("family_alpha").value(kFamilyAlpha);
  json.key("correction").value("holm").key("even_margin").value(kEvenMargin).end_object();
  json.key("fairest").value(result.fairness.fairest).key("seconds").value(result.seconds);
  json.key("rule_sets").begin_array();
  for (size_t r = 0; r < result.rule_sets.size(); ++r) write_rule_set(json, result, r);
  json.end_array().end_object();
  return json.text() + "\n";
}

std::string progress_path(const std::string& directory) {
  return (std::filesystem::path(directory) / "balance.progress").string();
}

void refuse_a_finished_run(const std::string& directory) {
  const std::filesystem::path result = std::filesystem::path(directory) / "balance.json";
  if (std::filesystem::exists(result) && !std::filesystem::exists(progress_path(directory)))
    throw std::invalid_argument(result.string() +
                                ": a finished run is there, without the progress to extend it; "
                                "delete it, or choose another directory, to play again");
}

void write_balance_json(const std::string& directory, const BalanceResult& result) {
  std::filesystem::create_directories(directory);
  write_file_atomically((std::filesystem::path(directory) / "balance.json").string(),
                        balance_json(result));
}

}  // namespace knightgym
