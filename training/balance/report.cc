#include "training/balance/report.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <filesystem>

#include "util/atomic_file.h"
#include "util/json_writer.h"

namespace knightgym {
namespace {

const char* decision_name(SprtDecision decision) {
  switch (decision) {
    case SprtDecision::kAcceptH0:
      return "H0";
    case SprtDecision::kAcceptH1:
      return "H1";
    case SprtDecision::kContinue:
      break;
  }
  return "undecided";
}

void write_interval(JsonWriter& json, const char* low, const char* high, Interval interval) {
  json.key(low).value(interval.low).key(high).value(interval.high);
}

void write_rule_set(JsonWriter& json, const RuleSetResult& rule_set, const Difference* versus,
                    const std::vector<std::string>& agent_specs) {
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
    json.key("mean_return").value(seat.mean_return);
    json.key("ranks").array(seat.ranks).end_object();
  }
  json.end_array();

  json.key("first_seat_advantage").begin_object();
  json.key("mean").value(f.advantage.mean);
  write_interval(json, "low", "high", f.advantage.interval());
  json.key("std_error").value(f.advantage.std_error);
  json.key("game_std_error").value(f.advantage_game_std_error);
  json.key("block_sd").value(f.advantage.sd).end_object();
  json.key("balance").value(f.balance);
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
    json.begin_object().key("decision").value(decision_name(state.decision));
    json.key("llr").value(state.llr).key("lower").value(state.lower);
    json.key("upper").value(state.upper).key("games").value(f.games).end_object();
  } else {
    json.null();
  }
  json.key("vs_first");
  if (versus) {
    json.begin_object().key("difference").value(versus->value);
    write_interval(json, "low", "high", versus->interval());
    json.key("std_error").value(versus->std_error);
    json.key("significant").value(versus->significant).end_object();
  } else {
    json.null();
  }
  json.end_object();
}

// printf into a std::string.
std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* pattern, ...) {
  va_list args, copy;
  va_start(args, pattern);
  va_copy(copy, args);
  std::string text(std::max(0, std::vsnprintf(nullptr, 0, pattern, copy)), '\0');
  va_end(copy);
  std::vsnprintf(text.data(), text.size() + 1, pattern, args);
  va_end(args);
  return text;
}

std::string percent(double rate) { return format("%.1f%%", 100 * rate); }

std::string table_row(const std::vector<std::string>& cells) {
  std::string row = "|";
  for (const std::string& cell : cells) row.append(" ").append(cell).append(" |");
  return row + "\n";
}

std::string table_header(const std::vector<std::string>& names) {
  std::string rule = "|";
  for (size_t i = 0; i < names.size(); ++i) rule += "---|";
  return table_row(names) + rule + "\n";
}

std::string rate_with_interval(int64_t count, int64_t games, Interval interval) {
  return format("%.1f%% (%.1f-%.1f)", 100.0 * count / games, 100 * interval.low,
                100 * interval.high);
}

std::string signed_with_interval(double value, Interval interval) {
  return format("%+.3f (%+.3f, %+.3f)", value, interval.low, interval.high);
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
  json.key("games_per_rule_set").value(options.games);
  json.key("threads").value(options.threads);
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
  json.key("fairest").value(result.fairest).key("seconds").value(result.seconds);
  json.key("rule_sets").begin_array();
  for (size_t r = 0; r < result.rule_sets.size(); ++r)
    write_rule_set(json, result.rule_sets[r], r > 0 ? &result.comparisons[r] : nullptr,
                   result.agent_specs);
  json.end_array().end_object();
  return json.text() + "\n";
}

std::string balance_markdown(const BalanceResult& result) {
  const BalanceOptions& options = result.options;
  const auto& sets = result.rule_sets;
  // A sweep over Knights Challenge's mode mixes 2, 3 and 4 players.
  int players = 0;
  for (const RuleSetResult& rule_set : sets) players = std::max(players, rule_set.figures.players);
  std::string md = "# Balance: " + options.game + "\n\nAgents:";
  for (const std::string& spec : result.agent_specs) md.append(" `").append(spec).append("`");
  md += format("\n\nAt most %lld games per rule set, seed %llu, %.0f s.",
               static_cast<long long>(options.games), static_cast<unsigned long long>(options.seed),
               result.seconds);
  if (options.sprt)
    md += format(
        " Sequential test of the first seat's advantage: H0 %+.3f against H1 %+.3f, "
        "alpha %.3g, beta %.3g, a look every %lld games.",
        options.sprt->a0, options.sprt->a1, options.sprt->alpha, options.sprt->beta,
        static_cast<long long>(options.check_every));
  md +=
      "\n\nRates with Wilson 95% intervals. The first seat's advantage is its mean return "
      "minus the mean of all seats' (two players: P(seat 0 wins) - P(seat 1 wins)), with a "
      "95% interval over blocks of games from one start. Balance is 1 minus the largest "
      "difference between two seats' win rates.\n\n## Seats\n\n";

  std::vector<std::string> header{"rule set", "games"};
  for (int s = 0; s < players; ++s) header.push_back(format("seat %d wins", s));
  for (const char* name : {"draws", "first-seat advantage", "balance", "decisive", "truncated"})
    header.emplace_back(name);
  md += table_header(header);
  for (const RuleSetResult& rule_set : sets) {
    const RuleSetFigures& f = rule_set.figures;
    std::vector<std::string> cells{rule_set_label(rule_set.rules), std::to_string(f.games)};
    for (const SeatFigures& seat : f.seats)
      cells.push_back(rate_with_interval(seat.wins, f.games, seat.win));
    cells.resize(2 + players, "-");
    cells.push_back(rate_with_interval(f.seats[0].draws, f.games, f.seats[0].draw));
    cells.push_back(signed_with_interval(f.advantage.mean, f.advantage.interval()));
    cells.push_back(format("%.3f", f.balance));
    cells.push_back(percent(static_cast<double>(f.decisive) / f.games));
    cells.push_back(percent(static_cast<double>(f.truncated) / f.games));
    md += table_row(cells);
  }
  md += format("\nFairest: **%s** (balance %.3f).\n",
               rule_set_label(sets[result.fairest].rules).c_str(),
               sets[result.fairest].figures.balance);

  if (sets.size() > 1) {
    md += format("\n## Compared with %s\n\n", rule_set_label(sets.front().rules).c_str());
    md += table_header({"rule set", "advantage difference (95%)", "significant"});
    for (size_t r = 1; r < sets.size(); ++r) {
      const Difference& d = result.comparisons[r];
      md += table_row({rule_set_label(sets[r].rules), signed_with_interval(d.value, d.interval()),
                       d.significant ? "yes" : "no"});
    }
  }

  if (options.sprt) {
    md += "\n## Sequential test\n\n";
    md += table_header({"rule set", "decision", "LLR", "bounds", "games"});
    for (const RuleSetResult& rule_set : sets) {
      const SprtState& state = rule_set.sprt->state;
      md += table_row({rule_set_label(rule_set.rules), decision_name(state.decision),
                       format("%.2f", state.llr), format("[%.2f, %.2f]", state.lower, state.upper),
                       std::to_string(rule_set.figures.games)});
    }
  }

  md += "\n## Outcomes\n\n";
  md += table_header({"rule set", "natural draws", "truncated (drawn)",
                      "advantage std. error: paired / per game",
                      "pentanomial 0-2 (agent 0 per pair)"});
  for (const RuleSetResult& rule_set : sets) {
    const RuleSetFigures& f = rule_set.figures;
    std::string pentanomial = f.pentanomial ? "" : "-";
    if (f.pentanomial)
      for (const int64_t count : *f.pentanomial)
        pentanomial.append(pentanomial.empty() ? "" : " ").append(std::to_string(count));
    md += table_row({rule_set_label(rule_set.rules), std::to_string(f.natural_draws),
                     format("%lld (%lld)", static_cast<long long>(f.truncated),
                            static_cast<long long>(f.truncated_draws)),
                     format("%.4f / %.4f", f.advantage.std_error, f.advantage_game_std_error),
                     pentanomial});
  }

  md += "\n## Game length (decisions)\n\n";
  header = {"rule set", "mean", "sd", "min"};
  for (const double q : kLengthPercentiles) header.push_back(format("p%.0f", q));
  header.emplace_back("max");
  md += table_header(header);
  for (const RuleSetResult& rule_set : sets) {
    const LengthFigures& length = rule_set.figures.length;
    std::vector<std::string> cells{rule_set_label(rule_set.rules),
                                   format("%.1f", length.decisions.mean),
                                   format("%.1f", length.decisions.sd), format("%.0f", length.min)};
    for (const double value : length.percentiles) cells.push_back(format("%.0f", value));
    cells.push_back(format("%.0f", length.max));
    md += table_row(cells);
  }

  if (players >= 3) {
    md +=
        "\n## Ranks\n\nShare of games each seat finished at each rank (ties share the "
        "better rank).\n\n";
    header = {"rule set", "seat"};
    for (int r = 1; r <= players; ++r) header.push_back(format("rank %d", r));
    md += table_header(header);
    for (const RuleSetResult& rule_set : sets)
      for (int s = 0; s < rule_set.figures.players; ++s) {
        std::vector<std::string> cells{rule_set_label(rule_set.rules), std::to_string(s)};
        for (const int64_t count : rule_set.figures.seats[s].ranks)
          cells.push_back(percent(static_cast<double>(count) / rule_set.figures.games));
        cells.resize(2 + players, "-");
        md += table_row(cells);
      }
  }

  if (result.agent_specs.size() > 1) {
    md +=
        "\n## Agents\n\nScores per block with 95% intervals; Bradley-Terry Elo (mean 0) "
        "from every pair of seats held by different agents.\n\n";
    md += table_header({"rule set", "agent", "games", "wins", "draws", "losses", "score", "Elo"});
    for (const RuleSetResult& rule_set : sets)
      for (size_t a = 0; a < result.agent_specs.size(); ++a) {
        const AgentFigures& agent = rule_set.figures.agents[a];
        const Interval score = agent.score.interval();
        md += table_row({rule_set_label(rule_set.rules),
                         format("`%s`", result.agent_specs[a].c_str()), std::to_string(agent.games),
                         std::to_string(agent.wins), std::to_string(agent.draws),
                         std::to_string(agent.losses),
                         format("%.1f%% (%.1f-%.1f)", 100 * agent.score.mean, 100 * score.low,
                                100 * score.high),
                         format("%+.0f +- %.0f", agent.elo, kZ95 * agent.elo_error)});
      }
  }

  md += "\n## Rule sets in full\n\n";
  for (const RuleSetResult& rule_set : sets)
    md +=
        format("- %s: `%s`\n", rule_set_label(rule_set.rules).c_str(), rule_set.rules.spec.c_str());
  return md;
}

void write_balance_files(const std::string& directory, const BalanceResult& result) {
  std::filesystem::create_directories(directory);
  const std::filesystem::path dir(directory);
  write_file_atomically((dir / "balance.json").string(), balance_json(result));
  write_file_atomically((dir / "balance.md").string(), balance_markdown(result));
}

}  // namespace knightgym
