// knightgym play: seat-rotated games between agents, with each agent's score and its 95%
// interval, draws, truncations and game lengths, as JSON (--json FILE) printed as Markdown
// by knightgym.play. Games run on --threads threads (default: every core), one position
// at a time per agent, or with --batch B in chunks of B games played together, every
// agent deciding for all its games in play at once (one network batch per round of
// simulations), the chunks shared by the threads; with --chunk C, chunks of C games, B of
// them in play and a finished game's place taken by the chunk's next, so that batches
// stay full where the games' lengths differ. Either way the results depend on the seed
// (and B and C), not on the threads; the JSON records B and C. --record FILE writes every game's
// moves as JSON lines (training/arena/game_record_file.h).
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent_kinds.h"
#include "env/registry/registry.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/cli/markdown_report.h"
#include "training/arena/arena.h"
#include "training/arena/game_record_file.h"
#include "training/balance/statistics.h"
#include "util/atomic_file.h"
#include "util/json_writer.h"
#include "util/output_lock.h"

namespace knightgym::cli {
namespace {

constexpr int64_t kPartGames = 1 << 14;  // games played, scored and written at a time

}  // namespace

int play_command(Args& args) {
  args.expect_positional(1);
  const auto game = load_game(args.positional()[0]);
  const std::string agent_list = args.get_string("agents", "");
  if (agent_list.empty()) throw std::invalid_argument("--agents SPEC[,SPEC...] is required");
  ArenaOptions options;
  options.games = args.get_int("games", 100, 1);
  options.threads = args.get_threads("threads", hardware_threads());
  options.seed = static_cast<uint64_t>(args.get_int("seed", 0, 0));
  const int64_t batch = args.get_int("batch", 0, 1);        // 0: not given, each game on its own
  const int64_t chunk_games = args.get_int("chunk", 0, 1);  // 0: not given, chunks of B
  if (chunk_games > 0 && batch == 0)
    throw std::invalid_argument(
        "--chunk C needs --batch B: a chunk's games are played B at a time");
  if (batch > 0) check_batching({batch, chunk_games});
  const std::string json = args.get_string("json", "");
  const std::string record_file = args.get_string("record", "");
  if (args.has("record") && record_file.empty())
    throw std::invalid_argument("--record FILE: an empty path");
  args.finish();
  // Held to the end: another writer, or a path that cannot be written, is refused here,
  // before the first game.
  const std::vector<OutputLock> outputs = lock_files({record_file, json});

  const std::vector<std::string> specs = split_agent_specs(agent_list);
  std::vector<std::shared_ptr<const AgentFactory>> agents;
  for (const std::string& spec : specs)
    agents.push_back(std::make_shared<const AgentFactory>(spec, game));

  std::vector<std::string> full_specs;
  for (const auto& agent : agents) full_specs.push_back(agent->config().spec);

  // Played and scored a part at a time, the records streamed to their file, so that
  // memory does not grow with --games. Parts of whole chunks group the games exactly as
  // one run of them all would: the results are the same.
  const int64_t per_chunk = chunk_games > 0 ? chunk_games : std::max<int64_t>(batch, 1);
  const int64_t part_games = (kPartGames + per_chunk - 1) / per_chunk * per_chunk;
  const bool terminal = isatty(STDERR_FILENO);
  ScoreTally tally(static_cast<int>(agents.size()));
  std::optional<AtomicFileWriter> records_out;
  if (!record_file.empty()) records_out.emplace(record_file);
  int64_t draws = 0, truncated = 0, decisions = 0;
  for (int64_t first = 0; first < options.games; first += part_games) {
    ArenaOptions part = options;
    part.first = first;
    part.games = std::min(part_games, options.games - first);
    const auto progress = [&](int64_t done) {
      if (terminal)
        std::fprintf(stderr, "\r%lld/%lld games", static_cast<long long>(first + done),
                     static_cast<long long>(options.games));
    };
    const std::vector<GameRecord> records =
        batch > 0 ? play_arena_in_batches(*game, agents, part, {batch, chunk_games}, progress)
                  : play_arena(*game, agents, part, progress);
    tally.add(records);
    for (const GameRecord& record : records) {
      bool all_zero = true;
      for (const float r : record.returns) all_zero = all_zero && r == 0;
      draws += all_zero;
      truncated += record.truncated;
      decisions += record.decisions;
    }
    if (records_out) records_out->append(game_record_lines(*game, records, full_specs, first, 0));
  }
  if (terminal) std::fputs("\n", stderr);
  if (records_out) records_out->commit();
  const std::vector<AgentScore> scores = tally.scores();

  JsonWriter out;
  out.begin_object().key("game").value(game->spec()).key("players").value(game->info().num_players);
  out.key("games").value(options.games).key("seed").value(options.seed);
  out.key("batch").value(batch).key("chunk").value(chunk_games);
  out.key("draws").value(draws).key("truncated").value(truncated);
  out.key("mean_length").value(static_cast<double>(decisions) / options.games);
  out.key("records");
  if (record_file.empty())
    out.null();
  else
    out.value(record_file);
  out.key("agents").begin_array();
  for (size_t a = 0; a < agents.size(); ++a) {
    const AgentScore& s = scores[a];
    // First places: a seat with the highest return, shared or not (Wilson 95%).
    const Interval firsts = wilson_interval(s.firsts, s.games);
    out.begin_object().key("name").value(specs[a]).key("spec").value(full_specs[a]);
    out.key("games").value(s.games).key("wins").value(s.wins).key("draws").value(s.draws);
    out.key("losses").value(s.losses).key("firsts").value(s.firsts);
    out.key("firsts_low").value(firsts.low).key("firsts_high").value(firsts.high);
    out.key("score").value(s.score).key("half_width").value(s.half_width).end_object();
  }
  const std::string text = out.end_array().end_object().text() + "\n";
  if (json.empty()) return print_markdown_report_of("knightgym.play", text);
  write_file_atomically(json, text);
  return print_markdown_report("knightgym.play", json);
}

}  // namespace knightgym::cli
