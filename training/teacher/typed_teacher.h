// The teacher's typed code for a game (env/registry/typed_code.h): a series of teacher
// games played a batch at a time, one agent deciding for every game in play at once; and
// the seeds and decisions that a game played alone shares with it.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "agents/agent_adapter.h"
#include "env/core/rng.h"
#include "env/registry/typed_code.h"
#include "training/teacher/teacher_shard.h"

namespace knightgym {

// The opening's stream of game `index`, the same played alone or together.
inline Rng teacher_opening_rng(uint64_t seed, int64_t index) {
  return Rng(derive_seed(seed ^ 0x0be17ull, static_cast<uint64_t>(index)));
}

inline uint64_t teacher_start_seed(uint64_t seed, int64_t index) {
  return derive_seed(seed ^ 0x7eac4e7ull, static_cast<uint64_t>(index));
}

// One decision as a shard holds it: the teacher's visit shares and root value, or the one
// move of a teacher that reports none (an engine).
inline TeacherDecision teacher_decision(std::string state, Action action,
                                        const SearchReport& report) {
  TeacherDecision decision;
  decision.state = std::move(state);
  decision.value = report.sims > 0 ? report.value : std::numeric_limits<float>::quiet_NaN();
  decision.policy = report.visit_shares;
  if (decision.policy.empty()) decision.policy.emplace_back(action, 1.0f);
  return decision;
}

// Games first .. first + count - 1 with at most `slots` of them in play: each round the
// teacher decides every game in play with one act_batch (whichever seat is to move), and a
// game that ends gives its place to the next one not yet begun, so the batches stay full
// whatever the games' lengths. The rounds depend on nothing but the arguments: a game's
// decisions on `slots` and the games beside it, never on a thread. None if `stop` was set.
template <Game G>
std::vector<TeacherGame> play_teacher_games_typed(const G& rules, Agent<G>& teacher, int64_t first,
                                                  int64_t count, int64_t slots, uint64_t seed,
                                                  int opening_plies,
                                                  const std::atomic<bool>* stop) {
  using State = typename G::State;
  std::vector<TeacherGame> games(count);
  std::vector<State> states(count);
  Action legal[G::kMaxActions];
  const auto begin = [&](int64_t g) {
    games[g].index = first + g;
    games[g].start_seed = teacher_start_seed(seed, first + g);
    Rng rng(games[g].start_seed);
    rules.init(states[g], rng);
    Rng opening = teacher_opening_rng(seed, first + g);
    for (int ply = 0; ply < opening_plies && !rules.terminal(states[g]); ++ply) {
      const int legal_count = rules.legal_actions(states[g], legal);
      rules.apply(states[g], legal[opening.below(static_cast<uint32_t>(legal_count))]);
    }
  };
  SearchLimits limits;
  limits.stop = stop;
  std::vector<int64_t> in_play;  // in the order their slots were filled
  std::vector<State> batch;
  std::vector<Action> actions;
  std::vector<SearchReport> reports;
  for (int64_t next = 0;;) {
    for (; static_cast<int64_t>(in_play.size()) < slots && next < count; ++next) {
      begin(next);
      if (!rules.terminal(states[next])) in_play.push_back(next);
    }
    if (in_play.empty()) break;
    if (stop && *stop) return {};
    batch.clear();
    for (const int64_t g : in_play) batch.push_back(states[g]);
    actions.resize(batch.size());
    reports.resize(batch.size());
    teacher.act_batch(std::span<const State>(batch), actions.data(), limits, reports.data());
    for (size_t i = 0; i < in_play.size(); ++i) {
      const int64_t g = in_play[i];
      games[g].decisions.push_back(
          teacher_decision(rules.serialize(states[g]), actions[i], reports[i]));
      rules.apply(states[g], actions[i]);
    }
    std::erase_if(in_play, [&](int64_t g) { return rules.terminal(states[g]); });
  }
  const int players = rules.info().num_players;
  for (int64_t g = 0; g < count; ++g) {
    games[g].returns.resize(players);
    rules.returns(states[g], games[g].returns.data());
    games[g].truncated = rules.truncated(states[g]);
  }
  return games;
}

struct TypedTeacher {
  // play_teacher_games_typed on the game's typed rules, with an agent made for the game.
  std::vector<TeacherGame> (*play_together)(const AnyGame& game, AnyAgent& teacher, int64_t first,
                                            int64_t count, int64_t slots, uint64_t seed,
                                            int opening_plies, const std::atomic<bool>* stop);

  template <Game G>
  static TypedTeacher of() {
    return {[](const AnyGame& game, AnyAgent& teacher, int64_t first, int64_t count, int64_t slots,
               uint64_t seed, int opening_plies, const std::atomic<bool>* stop) {
      return play_teacher_games_typed(typed_rules<G>(game), typed_agent<G>(teacher), first, count,
                                      slots, seed, opening_plies, stop);
    }};
  }
};

}  // namespace knightgym
