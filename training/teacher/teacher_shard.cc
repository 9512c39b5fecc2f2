#include "training/teacher/teacher_shard.h"

#include <cmath>
#include <optional>
#include <stdexcept>

#include "util/atomic_file.h"
#include "util/binary_io.h"
#include "util/text.h"

namespace knightgym {
namespace {

constexpr std::string_view kMagic = "KGTEACH1";
constexpr uint32_t kOldestFormat = 1;
constexpr uint32_t kMostPlayers = 64, kMostActions = 1 << 20;  // far above every game's

}  // namespace

int64_t TeacherShard::decisions() const {
  int64_t total = 0;
  for (const TeacherGame& game : games) total += static_cast<int64_t>(game.decisions.size());
  return total;
}

std::string encode_shard(const TeacherShard& shard) {
  BinaryWriter out;
  out.put_raw(kMagic);
  out.put(kTeacherShardFormat);
  out.put_text(shard.game_spec);
  out.put_text(shard.teacher);
  out.put(static_cast<uint32_t>(shard.num_players));
  out.put(static_cast<uint32_t>(shard.num_actions));
  out.put(static_cast<uint32_t>(shard.games.size()));
  for (const TeacherGame& game : shard.games) {
    if (game.returns.size() != static_cast<size_t>(shard.num_players))
      throw std::logic_error("a teacher game with returns for another number of players");
    out.put(game.index);
    out.put(game.start_seed);
    out.put_text(game.rules);
    out.put(static_cast<uint8_t>(game.truncated));
    for (const float r : game.returns) out.put(r);
    out.put(static_cast<uint32_t>(game.decisions.size()));
    for (const TeacherDecision& decision : game.decisions) {
      out.put_text(decision.state);
      out.put(decision.value);
      out.put(static_cast<uint32_t>(decision.policy.size()));
      for (const auto& [action, probability] : decision.policy) {
        out.put(static_cast<int32_t>(action));
        out.put(probability);
      }
    }
  }
  out.put_hash();
  return std::move(out.bytes());
}

void write_shard(const std::string& path, const TeacherShard& shard) {
  write_file_atomically(path, encode_shard(shard));
}

TeacherShard decode_shard(std::string_view bytes, const std::string& where,
                          const std::string& game_spec) {
  BinaryReader in(bytes, where);
  in.open(kMagic, "knightgym teacher shard");
  const uint32_t format = in.get<uint32_t>();
  if (format < kOldestFormat || format > kTeacherShardFormat)
    in.fail("format " + std::to_string(format) + ", but this build reads formats " +
            std::to_string(kOldestFormat) + " to " + std::to_string(kTeacherShardFormat));
  in.check_hash();

  TeacherShard shard;
  shard.game_spec = in.get_text();
  shard.teacher = in.get_text();
  if (!game_spec.empty() && shard.game_spec != game_spec)
    in.fail("holds games of " + excerpt(shard.game_spec) + ", not of " + excerpt(game_spec));
  const uint32_t players = in.get<uint32_t>(), actions = in.get<uint32_t>();
  if (players < 1 || players > kMostPlayers || actions < 1 || actions > kMostActions)
    in.fail(std::to_string(players) + " players and " + std::to_string(actions) +
            " actions, outside 1.." + std::to_string(kMostPlayers) + " and 1.." +
            std::to_string(kMostActions));
  shard.num_players = static_cast<int>(players);
  shard.num_actions = static_cast<int>(actions);
  const uint32_t games = in.get_count(21);
  shard.games.resize(games);
  for (TeacherGame& game : shard.games) {
    game.index = in.get<int64_t>();
    game.start_seed = in.get<uint64_t>();
    if (format >= 2) game.rules = in.get_text();
    const uint8_t truncated = in.get<uint8_t>();
    if (truncated > 1) in.fail("a truncated flag of " + std::to_string(truncated));
    game.truncated = truncated == 1;
    game.returns.resize(shard.num_players);
    for (float& r : game.returns) r = in.get<float>();
    game.decisions.resize(in.get_count(12));
    for (TeacherDecision& decision : game.decisions) {
      decision.state = in.get_text();
      decision.value = in.get<float>();
      if (!std::isnan(decision.value) && !(decision.value >= -1 && decision.value <= 1))
        in.fail("a value of " + std::to_string(decision.value) + ", neither NaN nor in [-1, 1]");
      decision.policy.resize(in.get_count(8));
      for (auto& [action, probability] : decision.policy) {
        action = in.get<int32_t>();
        probability = in.get<float>();
        if (action < 0 || action >= shard.num_actions)
          in.fail("an action " + std::to_string(action) + " outside [0, " +
                  std::to_string(shard.num_actions) + ")");
        // A NaN here would poison every network that learns from the shard.
        if (!(probability >= 0 && probability <= 1))
          in.fail("a probability of " + std::to_string(probability) + " for action " +
                  std::to_string(action) + ", not in [0, 1]");
      }
    }
  }
  in.close("last game");
  return shard;
}

TeacherShard read_shard(const std::string& path, const std::string& game_spec) {
  const std::optional<std::string> bytes = read_file(path);
  if (!bytes) throw std::invalid_argument(path + ": cannot read it (or it is no regular file)");
  return decode_shard(*bytes, path, game_spec);
}

}  // namespace knightgym
