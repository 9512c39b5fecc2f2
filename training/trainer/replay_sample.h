// The replay sample a training checkpoint carries (checkpoints/step-N.replay): the
// newest whole games of the replay window, at most `kept_replay` decisions, as a teacher
// shard, so that a resumed run refills its window rather than waiting for self-play.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "training/selfplay/replay_buffer.h"
#include "training/selfplay/rule_sets.h"
#include "training/teacher/teacher_set.h"
#include "training/teacher/teacher_shard.h"

namespace knightgym {

// The newest whole games of `buffer` holding at most `decisions` decisions.
template <Game G>
TeacherShard replay_sample(const ReplayBuffer<G>& buffer, const RuleSets<G>& rules,
                           const std::string& game_spec, const GameInfo& info, int64_t decisions) {
  const auto& games = buffer.games();
  auto first = games.end();  // the oldest game kept
  for (int64_t left = decisions; first != games.begin() && (first - 1)->size() <= left;)
    left -= (--first)->size();
  TeacherShard shard{game_spec, "self-play", info.num_players, info.num_actions, {}};
  for (auto game = first; game != games.end(); ++game) {
    const std::string& spec = rules.spec(game->rule_set);
    shard.games.push_back(
        to_teacher_game(rules[game->rule_set], *game, game - first, spec == game_spec ? "" : spec));
  }
  return shard;
}

// Refills `buffer` from the sample at `path`, if it is there and whole; one that does not
// read is named in `log` and skipped (self-play refills the window then).
template <Game G>
void refill_replay(ReplayBuffer<G>& buffer, const RuleSets<G>& rules, const std::string& path,
                   const std::string& game_spec, std::FILE* log) {
  if (!std::filesystem::exists(path)) return;
  try {
    const TeacherShard shard = read_shard(path, game_spec);
    for (const TeacherGame& game : shard.games) buffer.add(to_trajectory(rules, shard, game, path));
    std::fprintf(log, "replay window refilled with %lld decisions from %s\n",
                 static_cast<long long>(buffer.size()), path.c_str());
  } catch (const std::invalid_argument& error) {
    std::fprintf(log, "skipping %s\n", error.what());
  }
}

}  // namespace knightgym
