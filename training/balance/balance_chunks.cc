#include "training/balance/balance_chunks.h"

#include <algorithm>
#include <iterator>
#include <span>
#include <stdexcept>

#include "env/registry/registry.h"
#include "util/run_threads.h"

namespace knightgym {
namespace {

// Unbatched chunks hold at most this many games: few enough to share the threads' work
// evenly between the sequential test's looks, enough that a chunk's tally costs little
// beside its games.
constexpr int64_t kGamesPerChunk = 20;

void check_options(const BalanceOptions& options) {
  const int64_t k = static_cast<int64_t>(options.agents.size());
  if (k == 0) throw std::invalid_argument("balance: at least one agent is needed");
  if (options.games < 1 || options.games % k != 0)
    throw std::invalid_argument("balance: games (" + std::to_string(options.games) +
                                ") must be a positive multiple of the number of agents (" +
                                std::to_string(k) + "), so each plays every seat equally");
  check_run_threads("balance: threads", options.threads);
  if (options.batch < 0 || options.batch % k != 0)
    throw std::invalid_argument("balance: batch (" + std::to_string(options.batch) +
                                ") must be 0 or a positive multiple of the number of agents (" +
                                std::to_string(k) + ")");
  if (options.chunk != 0 && options.batch == 0)
    throw std::invalid_argument("balance: chunk (" + std::to_string(options.chunk) +
                                ") needs a batch: it is the games of a chunk played B at a time");
  if (options.chunk != 0 && (options.chunk < options.batch || options.chunk % k != 0))
    throw std::invalid_argument(
        "balance: chunk (" + std::to_string(options.chunk) + ") must be 0 or at least the batch (" +
        std::to_string(options.batch) + ") and a multiple of the number of agents (" +
        std::to_string(k) + ")");
  if (options.opening_plies < 0)
    throw std::invalid_argument("balance: opening_plies must be at least 0");
  if (options.check_every < 1)
    throw std::invalid_argument("balance: check_every must be at least 1");
  if (options.sprt) check_sprt_settings(*options.sprt);
}

// Looks fall every `check_every` games rounded up to whole blocks. Unbatched chunks
// divide that span, so the schedule does not depend on the chunks.
ChunkLayout chunk_layout(const BalanceOptions& options) {
  const int64_t k = static_cast<int64_t>(options.agents.size());
  const int64_t look = (options.check_every + k - 1) / k * k;
  ChunkLayout layout;
  if (options.batch > 0) {
    layout.chunk_games = options.chunk > 0 ? options.chunk : options.batch;
  } else {
    layout.chunk_games = k;
    for (int64_t size = k; size <= std::max(k, kGamesPerChunk); size += k)
      if (look % size == 0) layout.chunk_games = size;
  }
  layout.chunks = (options.games + layout.chunk_games - 1) / layout.chunk_games;
  layout.look_chunks = (look + layout.chunk_games - 1) / layout.chunk_games;
  return layout;
}

}  // namespace

BalanceChunkPlayer::BalanceChunkPlayer(const BalanceOptions& options) : options_(options) {
  check_options(options_);
  layout_ = chunk_layout(options_);
  grid_ = expand_grid(options_.game, options_.sweeps);
  // Every agent spec is checked against every rule set before the first game.
  for (const RuleSet& rules : grid_) {
    const auto game = load_game(rules.spec);
    agents_.emplace_back();
    for (const std::string& spec : options_.agents)
      agents_.back().push_back(std::make_shared<const AgentFactory>(spec, game));
  }
}

std::vector<std::string> BalanceChunkPlayer::agent_specs() const {
  std::vector<std::string> specs;
  for (const auto& factory : agents_.front()) specs.push_back(factory->config().spec);
  return specs;
}

int BalanceChunkPlayer::players(int rule_set) const {
  return agents_.at(rule_set).front()->game().info().num_players;
}

std::vector<GameRecord> BalanceChunkPlayer::records(int rule_set, int64_t chunk,
                                                    const std::atomic<bool>* stop) const {
  if (rule_set < 0 || rule_set >= static_cast<int>(grid_.size()) || chunk < 0 ||
      chunk >= layout_.chunks)
    throw std::invalid_argument("balance: no chunk " + std::to_string(chunk) + " of rule set " +
                                std::to_string(rule_set) + " (there are " +
                                std::to_string(grid_.size()) + " rule sets of " +
                                std::to_string(layout_.chunks) + " chunks)");
  const Agents& agents = agents_[rule_set];
  const AnyGame& game = agents.front()->game();
  const int64_t first = chunk * layout_.chunk_games;
  const int64_t games = std::min(layout_.chunk_games, options_.games - first);
  if (options_.batch > 0)
    return play_games_together(game, agents, first, games, options_.seed, options_.opening_plies,
                               stop, options_.batch);
  std::vector<GameRecord> records;
  for (int64_t g = first; g < first + games; ++g) {
    if (stop && *stop) throw std::runtime_error("balance: stopped");
    records.push_back(play_game(game, agents, g, options_.seed, options_.opening_plies));
  }
  return records;
}

RuleSetTally BalanceChunkPlayer::play(int rule_set, int64_t chunk,
                                      const std::atomic<bool>* stop) const {
  const std::vector<GameRecord> played = records(rule_set, chunk, stop);
  const int k = static_cast<int>(agents_[rule_set].size());
  RuleSetTally tally(players(rule_set), k);
  for (size_t block = 0; block < played.size(); block += k)
    tally.add_block(std::span<const GameRecord>(played).subspan(block, k));
  return tally;
}

std::vector<GameRecord> BalanceChunkPlayer::first_games(int rule_set, int64_t count) const {
  std::vector<GameRecord> out;
  count = std::min(count, options_.games);
  for (int64_t chunk = 0; static_cast<int64_t>(out.size()) < count; ++chunk) {
    std::vector<GameRecord> played = records(rule_set, chunk, nullptr);
    const int64_t keep = std::min<int64_t>(count - static_cast<int64_t>(out.size()),
                                           static_cast<int64_t>(played.size()));
    out.insert(out.end(), std::make_move_iterator(played.begin()),
               std::make_move_iterator(played.begin() + keep));
  }
  return out;
}

}  // namespace knightgym
