#include "training/balance/tally.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace knightgym {
namespace {

constexpr std::string_view kMagic = "knightgym-tally-1";

// Whitespace-separated tokens: integers in decimal, doubles as C99 hexadecimal floats,
// which read back to the same bits.
class TokenWriter {
 public:
  explicit TokenWriter(std::string_view magic) : text_(magic) {}
  void integer(int64_t value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, " %" PRId64, value);
    text_ += buffer;
  }
  void real(double value) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, " %a", value);
    text_ += buffer;
  }
  void sums(const MomentSums& sums) {
    integer(sums.count);
    real(sums.sum);
    real(sums.squares);
  }
  std::string text() && { return std::move(text_); }

 private:
  std::string text_;
};

class TokenReader {
 public:
  explicit TokenReader(std::string_view text) : text_(text) {}

  std::string_view word(const char* what) {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    const size_t start = at_;
    while (at_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    if (start == at_) fail(std::string("it ends before ") + what);
    return text_.substr(start, at_ - start);
  }
  int64_t integer(const char* what, int64_t low = 0, int64_t high = INT64_MAX) {
    const std::string token(word(what));
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(token.c_str(), &end, 10);
    if (end != token.c_str() + token.size() || errno != 0 || value < low || value > high)
      fail(std::string(what) + " '" + token + "' is not an integer in [" + std::to_string(low) +
           ", " + std::to_string(high) + "]");
    return value;
  }
  double real(const char* what) {
    const std::string token(word(what));
    char* end = nullptr;
    const double value = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size() || !std::isfinite(value))
      fail(std::string(what) + " '" + token + "' is not a finite number");
    return value;
  }
  MomentSums sums(const char* what) {
    MomentSums sums;
    sums.count = integer(what);
    sums.sum = real(what);
    sums.squares = real(what);
    if (sums.squares < 0) fail(std::string(what) + ": a negative sum of squares");
    return sums;
  }
  void finish() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    if (at_ != text_.size()) fail("text follows the end");
  }
  [[noreturn]] static void fail(const std::string& problem) {
    throw std::invalid_argument("a balance tally: " + problem);
  }

 private:
  std::string_view text_;
  size_t at_ = 0;
};

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
  for (Seat& seat : seats) seat.ranks.assign(players, 0);
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
    for (int s = 0; s < players; ++s) {
      Seat& seat = seats[s];
      const float r = record.returns[s];
      seat.draws += draw;
      seat.wins += !draw && r == best;
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
  }
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

std::string RuleSetTally::serialize() const {
  TokenWriter out(kMagic);
  for (const int64_t value : {int64_t{players}, int64_t{block_games}, games, blocks, decisive,
                              natural_draws, truncated, truncated_draws})
    out.integer(value);
  for (const Seat& seat : seats) {
    out.integer(seat.wins), out.integer(seat.draws), out.integer(seat.losses);
    out.real(seat.return_sum);
    for (const int64_t count : seat.ranks) out.integer(count);
  }
  out.sums(game_advantage);
  out.sums(block_advantage);
  // The histogram sparsely: the number of lengths seen, then (length, games) pairs.
  out.integer(std::count_if(lengths.begin(), lengths.end(), [](int64_t n) { return n > 0; }));
  for (size_t d = 0; d < lengths.size(); ++d)
    if (lengths[d] > 0) out.integer(static_cast<int64_t>(d)), out.integer(lengths[d]);
  for (const Agent& agent : agents) {
    out.integer(agent.games), out.integer(agent.wins);
    out.integer(agent.draws), out.integer(agent.losses);
    out.sums(agent.block_score);
  }
  for (const double value : points) out.real(value);
  for (const int64_t count : pentanomial) out.integer(count);
  return std::move(out).text();
}

RuleSetTally RuleSetTally::parse(std::string_view text) {
  TokenReader in(text);
  if (in.word("the header") != kMagic)
    TokenReader::fail(std::string("it does not start with ") + std::string(kMagic));
  // Bounds that keep a malformed text from asking for much memory.
  constexpr int64_t kMostPlayers = 64, kMostAgents = 1024, kLongestGame = int64_t{1} << 24;
  const int num_players = static_cast<int>(in.integer("players", 1, kMostPlayers));
  const int num_agents = static_cast<int>(in.integer("agents", 1, kMostAgents));
  RuleSetTally tally(num_players, num_agents);
  tally.games = in.integer("games");
  tally.blocks = in.integer("blocks");
  tally.decisive = in.integer("decisive games");
  tally.natural_draws = in.integer("natural draws");
  tally.truncated = in.integer("truncated games");
  tally.truncated_draws = in.integer("truncated draws");
  for (Seat& seat : tally.seats) {
    seat.wins = in.integer("wins"), seat.draws = in.integer("draws");
    seat.losses = in.integer("losses");
    seat.return_sum = in.real("a return sum");
    for (int64_t& count : seat.ranks) count = in.integer("a rank count");
  }
  tally.game_advantage = in.sums("the games' advantage");
  tally.block_advantage = in.sums("the blocks' advantage");
  const int64_t seen = in.integer("the number of lengths", 0, kLongestGame);
  for (int64_t i = 0; i < seen; ++i) {
    const int64_t length = in.integer("a length", 0, kLongestGame);
    if (static_cast<size_t>(length) < tally.lengths.size())
      TokenReader::fail("lengths out of order");
    tally.lengths.resize(length + 1, 0);
    tally.lengths[length] = in.integer("a length's games", 1);
  }
  for (Agent& agent : tally.agents) {
    agent.games = in.integer("an agent's games"), agent.wins = in.integer("an agent's wins");
    agent.draws = in.integer("an agent's draws");
    agent.losses = in.integer("an agent's losses");
    agent.block_score = in.sums("an agent's scores");
  }
  for (double& value : tally.points) {
    value = in.real("points");
    if (value < 0) TokenReader::fail("negative points");
  }
  for (int64_t& count : tally.pentanomial) count = in.integer("a pentanomial count");
  in.finish();

  // The counts must agree with each other.
  int64_t counted = 0;
  for (const int64_t count : tally.lengths) counted += count;
  const auto check = [](bool holds, const char* what) {
    if (!holds) TokenReader::fail(what);
  };
  check(tally.games == tally.blocks * num_agents, "games is not blocks times agents");
  check(counted == tally.games, "the length histogram does not count every game");
  check(tally.game_advantage.count == tally.games, "the games' advantage counts other games");
  check(tally.block_advantage.count == tally.blocks, "the blocks' advantage counts other blocks");
  check(tally.decisive + tally.natural_draws + tally.truncated == tally.games,
        "decisive games, draws and truncations do not add up to the games");
  check(tally.truncated_draws <= tally.truncated, "more truncated draws than truncated games");
  for (const Seat& seat : tally.seats) {
    int64_t ranked = 0;
    for (const int64_t count : seat.ranks) ranked += count;
    check(seat.wins + seat.draws + seat.losses == tally.games && ranked == tally.games,
          "a seat's results do not add up to the games");
  }
  return tally;
}

}  // namespace knightgym
