#include "training/balance/tally.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "util/json_reader.h"

namespace knightgym {
namespace {

// Bounds that keep a malformed text from asking for much memory, and its counts from
// overflowing where they are added up (a few, or 64 ranks, of kMostCount each).
constexpr int64_t kMostPlayers = 64, kMostAgents = 1024, kLongestGame = int64_t{1} << 24;
constexpr int64_t kMostCount = int64_t{1} << 56;

// A tally read from a file written before shared first places were counted: with two
// seats every win was won alone; with more, the shares are not known.
void without_counted_shares(RuleSetTally& tally) {
  tally.shares_counted = tally.players <= 2;
  if (!tally.shares_counted) return;
  for (RuleSetTally::Seat& seat : tally.seats)
    if (!seat.shared.empty()) seat.shared[0] = seat.wins;
}

void check_same_shape(const RuleSetTally& a, const RuleSetTally& b) {
  if (a.players != b.players || a.block_games != b.block_games)
    throw std::invalid_argument("RuleSetTally::merge: a tally of " + std::to_string(b.players) +
                                " players and " + std::to_string(b.block_games) +
                                " agents into one of " + std::to_string(a.players) +
                                " players and " + std::to_string(a.block_games) + " agents");
}

}  // namespace

double first_seat_advantage(const GameRecord& record) {
  double sum = 0;
  for (const float r : record.returns) sum += r;
  return record.returns[0] - sum / static_cast<double>(record.returns.size());
}

RuleSetTally::RuleSetTally(int num_players, int num_agents)
    : players(num_players), block_games(num_agents) {
  if (num_players < 1 || num_agents < 1)
    throw std::invalid_argument("RuleSetTally: need at least one player and one agent");
  seats.resize(players);
  for (Seat& seat : seats) {
    seat.ranks.assign(players, 0);
    seat.shared.assign(std::max(players - 1, 0), 0);
  }
  agents.resize(num_agents);
  points.assign(static_cast<size_t>(num_agents) * num_agents, 0);
}

void RuleSetTally::add_block(std::span<const GameRecord> block) {
  const int k = block_games;
  if (static_cast<int>(block.size()) != k)
    throw std::invalid_argument("RuleSetTally: a block of " + std::to_string(block.size()) +
                                " games; blocks have " + std::to_string(k));
  for (const GameRecord& record : block) {
    if (static_cast<int>(record.returns.size()) != players ||
        static_cast<int>(record.agent_of_seat.size()) != players)
      throw std::invalid_argument("RuleSetTally: a game with " +
                                  std::to_string(record.returns.size()) + " returns for " +
                                  std::to_string(players) + " players");
    for (const int agent : record.agent_of_seat)
      if (agent < 0 || agent >= k)
        throw std::invalid_argument("RuleSetTally: agent " + std::to_string(agent) + " of " +
                                    std::to_string(k));
    if (record.decisions < 0) throw std::invalid_argument("RuleSetTally: negative length");
  }

  double block_advantage_sum = 0;
  for (const GameRecord& record : block) {
    const float best = *std::max_element(record.returns.begin(), record.returns.end());
    const float worst = *std::min_element(record.returns.begin(), record.returns.end());
    const bool draw = best == worst;
    const auto firsts = std::count(record.returns.begin(), record.returns.end(), best);
    for (int s = 0; s < players; ++s) {
      Seat& seat = seats[s];
      const float r = record.returns[s];
      seat.draws += draw;
      seat.wins += !draw && r == best;
      if (!draw && r == best) ++seat.shared[firsts - 1];
      seat.losses += !draw && r < best;
      seat.return_sum += r;
      int above = 0;
      for (const float other : record.returns) above += other > r;
      ++seat.ranks[above];
    }
    truncated += record.truncated;
    truncated_draws += record.truncated && draw;
    natural_draws += !record.truncated && draw;
    decisive += !record.truncated && !draw;
    const double advantage = first_seat_advantage(record);
    game_advantage.add(advantage);
    block_advantage_sum += advantage;
    if (static_cast<size_t>(record.decisions) >= lengths.size())
      lengths.resize(record.decisions + 1, 0);
    ++lengths[record.decisions];
    for (size_t s = 0; s < record.returns.size(); ++s)
      for (size_t t = s + 1; t < record.returns.size(); ++t) {
        const int a = record.agent_of_seat[s], b = record.agent_of_seat[t];
        if (a == b) continue;
        const float rs = record.returns[s], rt = record.returns[t];
        points[a * k + b] += rs > rt ? 1 : rs == rt ? 0.5 : 0;
        points[b * k + a] += rt > rs ? 1 : rs == rt ? 0.5 : 0;
      }
  }
  block_advantage.add(block_advantage_sum / k);

  const std::vector<AgentScore> scores = score_agents(block, k);
  for (int a = 0; a < k; ++a) {
    Agent& agent = agents[a];
    agent.games += scores[a].games;
    agent.wins += scores[a].wins, agent.draws += scores[a].draws;
    agent.losses += scores[a].losses;
    if (scores[a].games > 0) agent.block_score.add(scores[a].score);
  }
  if (k == 2 && players == 2)
    ++pentanomial[std::clamp(static_cast<int>(std::lround(scores[0].score * 4)), 0, 4)];
  games += k;
  ++blocks;
}

void RuleSetTally::merge(const RuleSetTally& later) {
  check_same_shape(*this, later);
  games += later.games;
  blocks += later.blocks;
  for (int s = 0; s < players; ++s) {
    Seat& seat = seats[s];
    const Seat& other = later.seats[s];
    seat.wins += other.wins, seat.draws += other.draws, seat.losses += other.losses;
    seat.return_sum += other.return_sum;
    for (int r = 0; r < players; ++r) seat.ranks[r] += other.ranks[r];
    for (size_t j = 0; j < seat.shared.size(); ++j) seat.shared[j] += other.shared[j];
  }
  shares_counted = shares_counted && later.shares_counted;
  decisive += later.decisive, natural_draws += later.natural_draws;
  truncated += later.truncated, truncated_draws += later.truncated_draws;
  game_advantage.merge(later.game_advantage);
  block_advantage.merge(later.block_advantage);
  if (later.lengths.size() > lengths.size()) lengths.resize(later.lengths.size(), 0);
  for (size_t d = 0; d < later.lengths.size(); ++d) lengths[d] += later.lengths[d];
  for (int a = 0; a < block_games; ++a) {
    Agent& agent = agents[a];
    const Agent& other = later.agents[a];
    agent.games += other.games, agent.wins += other.wins;
    agent.draws += other.draws, agent.losses += other.losses;
    agent.block_score.merge(other.block_score);
  }
  for (size_t i = 0; i < points.size(); ++i) points[i] += later.points[i];
  for (size_t i = 0; i < pentanomial.size(); ++i) pentanomial[i] += later.pentanomial[i];
}

namespace {

void write_sums(JsonWriter& json, std::string_view key, const MomentSums& sums) {
  json.key(key).begin_object().key("count").value(sums.count);
  json.key("sum").exact(sums.sum).key("squares").exact(sums.squares).end_object();
}

const std::vector<JsonValue>& items(const JsonValue& array, size_t count) {
  const std::vector<JsonValue>& values = array.as_array();
  if (values.size() != count)
    array.fail("expected " + std::to_string(count) + " items, found " +
               std::to_string(values.size()));
  return values;
}

double finite(const JsonValue& number) {
  const double value = number.as_double();
  if (!std::isfinite(value)) number.fail("not a finite number");
  return value;
}

MomentSums sums_of(const JsonValue& json) {
  MomentSums sums;
  sums.count = json.at("count").as_int(0, kMostCount);
  sums.sum = finite(json.at("sum"));
  sums.squares = finite(json.at("squares"));
  if (sums.squares < 0) json.at("squares").fail("a negative sum of squares");
  return sums;
}

// What of a tally read from a file disagrees with the rest of it, or nullptr.
const char* inconsistency(const RuleSetTally& tally) {
  if (tally.games % tally.block_games != 0 || tally.games / tally.block_games != tally.blocks)
    return "games is not blocks times agents";
  int64_t counted = 0;
  for (const int64_t count : tally.lengths)
    if ((counted += count) > tally.games) break;
  if (counted != tally.games) return "the length histogram does not count every game";
  if (tally.game_advantage.count != tally.games) return "the games' advantage counts other games";
  if (tally.block_advantage.count != tally.blocks)
    return "the blocks' advantage counts other blocks";
  if (tally.decisive + tally.natural_draws + tally.truncated != tally.games)
    return "decisive games, draws and truncations do not add up to the games";
  if (tally.truncated_draws > tally.truncated) return "more truncated draws than truncated games";
  for (const RuleSetTally::Seat& seat : tally.seats) {
    int64_t ranked = 0;
    for (const int64_t count : seat.ranks) ranked += count;
    if (seat.wins + seat.draws + seat.losses != tally.games || ranked != tally.games)
      return "a seat's results do not add up to the games";
    int64_t shared = 0;
    for (const int64_t count : seat.shared) shared += count;
    if (tally.shares_counted && shared != seat.wins)
      return "a seat's wins, alone and shared, do not add up to its wins";
  }
  for (const double value : tally.points)
    if (value < 0) return "negative points";
  return nullptr;
}

}  // namespace

void RuleSetTally::write_json(JsonWriter& json) const {
  json.begin_object().key("players").value(players).key("block_games").value(block_games);
  json.key("games").value(games).key("blocks").value(blocks);
  json.key("decisive").value(decisive).key("natural_draws").value(natural_draws);
  json.key("truncated").value(truncated).key("truncated_draws").value(truncated_draws);
  json.key("seats").begin_array();
  for (const Seat& seat : seats) {
    json.begin_object().key("wins").value(seat.wins).key("draws").value(seat.draws);
    json.key("losses").value(seat.losses).key("return_sum").exact(seat.return_sum);
    json.key("ranks").array(seat.ranks);
    if (shares_counted) json.key("shared").array(seat.shared);
    json.end_object();
  }
  json.end_array();
  write_sums(json, "game_advantage", game_advantage);
  write_sums(json, "block_advantage", block_advantage);
  // The histogram sparsely: [length, games] for each length seen.
  json.key("lengths").begin_array();
  for (size_t d = 0; d < lengths.size(); ++d)
    if (lengths[d] > 0)
      json.begin_array().value(static_cast<int64_t>(d)).value(lengths[d]).end_array();
  json.end_array().key("agents").begin_array();
  for (const Agent& agent : agents) {
    json.begin_object().key("games").value(agent.games).key("wins").value(agent.wins);
    json.key("draws").value(agent.draws).key("losses").value(agent.losses);
    write_sums(json, "block_score", agent.block_score);
    json.end_object();
  }
  json.end_array().key("points").begin_array();
  for (const double value : points) json.exact(value);
  json.end_array();
  json.key("pentanomial").array(std::vector<int64_t>(pentanomial.begin(), pentanomial.end()));
  json.end_object();
}

RuleSetTally RuleSetTally::from_json(const JsonValue& json) {
  const int num_players = static_cast<int>(json.at("players").as_int(1, kMostPlayers));
  const int num_agents = static_cast<int>(json.at("block_games").as_int(1, kMostAgents));
  RuleSetTally tally(num_players, num_agents);
  const auto count = [&](const JsonValue& holder, std::string_view key) {
    return holder.at(key).as_int(0, kMostCount);
  };
  tally.games = count(json, "games");
  tally.blocks = count(json, "blocks");
  tally.decisive = count(json, "decisive");
  tally.natural_draws = count(json, "natural_draws");
  tally.truncated = count(json, "truncated");
  tally.truncated_draws = count(json, "truncated_draws");
  const std::vector<JsonValue>& seats = items(json.at("seats"), num_players);
  for (int s = 0; s < num_players; ++s) {
    Seat& seat = tally.seats[s];
    seat.wins = count(seats[s], "wins"), seat.draws = count(seats[s], "draws");
    seat.losses = count(seats[s], "losses");
    seat.return_sum = finite(seats[s].at("return_sum"));
    const std::vector<JsonValue>& ranks = items(seats[s].at("ranks"), num_players);
    for (int r = 0; r < num_players; ++r) seat.ranks[r] = ranks[r].as_int(0, kMostCount);
  }
  if (!seats[0].find("shared")) {
    without_counted_shares(tally);
  } else {
    for (int s = 0; s < num_players; ++s) {
      std::vector<int64_t>& shared = tally.seats[s].shared;
      const std::vector<JsonValue>& read = items(seats[s].at("shared"), shared.size());
      for (size_t j = 0; j < read.size(); ++j) shared[j] = read[j].as_int(0, kMostCount);
    }
  }
  tally.game_advantage = sums_of(json.at("game_advantage"));
  tally.block_advantage = sums_of(json.at("block_advantage"));
  for (const JsonValue& pair : json.at("lengths").as_array()) {
    const std::vector<JsonValue>& length_games = items(pair, 2);
    const int64_t length = length_games[0].as_int(0, kLongestGame);
    if (static_cast<size_t>(length) < tally.lengths.size()) pair.fail("lengths out of order");
    tally.lengths.resize(length + 1, 0);
    tally.lengths[length] = length_games[1].as_int(1, kMostCount);
  }
  const std::vector<JsonValue>& agents = items(json.at("agents"), num_agents);
  for (int a = 0; a < num_agents; ++a) {
    Agent& agent = tally.agents[a];
    agent.games = count(agents[a], "games"), agent.wins = count(agents[a], "wins");
    agent.draws = count(agents[a], "draws"), agent.losses = count(agents[a], "losses");
    agent.block_score = sums_of(agents[a].at("block_score"));
  }
  const std::vector<JsonValue>& points = items(json.at("points"), tally.points.size());
  for (size_t i = 0; i < points.size(); ++i) tally.points[i] = finite(points[i]);
  const std::vector<JsonValue>& pentanomial = items(json.at("pentanomial"), 5);
  for (size_t i = 0; i < 5; ++i) tally.pentanomial[i] = pentanomial[i].as_int(0, kMostCount);
  if (const char* problem = inconsistency(tally)) json.fail(problem);
  return tally;
}

std::string RuleSetTally::serialize() const {
  JsonWriter json;
  write_json(json);
  return json.text();
}

RuleSetTally RuleSetTally::parse(std::string_view text) {
  try {
    return from_json(parse_json(text));
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(std::string("a balance tally: ") + error.what());
  }
}

}  // namespace knightgym
