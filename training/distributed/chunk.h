// A self-play chunk: the games of one numbered piece of a distributed run's self-play,
// played by an actor with one version of the network, and the bytes it travels in from
// the actor to the learner (training/distributed/actor_games.h).
//
// Chunk N holds the games that self-play seeded from the run's seed and N plays with the
// weights of version V (the learner's step when they were published): the same games
// wherever and however often it is played, so a chunk played again after its actor died
// is the one that was lost.
//
// The bytes, little-endian, between processes of one build (raw states: not a file
// format to keep):
//
//   "KGCHUNK1"  u32 format  str game spec  u32 sizeof(State)  u32 num_players
//   i64 number  i64 version  i64 decisions  i64 evaluations  f64 seconds
//   u32 games, each:
//     u8 truncated  i32 plies  u32 rule set (its index in the run's, rule_sets.h)
//     f32 returns[num_players]  u32 n (recorded decisions)
//     State states[n]  i32 policy_begin[n + 1]  f32 root_values[n * num_players]
//     u32 m  i32 actions[m]  f32 probabilities[m]
//   u64 FNV-1a hash of every byte before it
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "training/selfplay/trajectory.h"
#include "util/binary_io.h"

namespace knightgym {

inline constexpr uint32_t kChunkFormat = 2;
inline constexpr std::string_view kChunkMagic = "KGCHUNK1";

template <Game G>
struct SelfPlayChunk {
  int64_t number = 0;       // its place in the run: its games' seeds come from it
  int64_t version = 0;      // the weights that played it: the learner's step then
  int64_t decisions = 0;    // every decision of its games, recorded or not
  int64_t evaluations = 0;  // network evaluations of its searches
  double seconds = 0;       // what the actor took to play it
  std::vector<Trajectory<G>> games;
};

template <Game G>
std::string encode_chunk(const SelfPlayChunk<G>& chunk, const std::string& game_spec,
                         int num_players) {
  BinaryWriter out;
  out.put_raw(kChunkMagic);
  out.put(kChunkFormat);
  out.put_text(game_spec);
  out.put(static_cast<uint32_t>(sizeof(typename G::State)));
  out.put(static_cast<uint32_t>(num_players));
  out.put(chunk.number), out.put(chunk.version), out.put(chunk.decisions);
  out.put(chunk.evaluations), out.put(chunk.seconds);
  out.put(static_cast<uint32_t>(chunk.games.size()));
  for (const Trajectory<G>& game : chunk.games) {
    out.put(static_cast<uint8_t>(game.truncated));
    out.put(static_cast<int32_t>(game.plies));
    out.put(static_cast<uint32_t>(game.rule_set));
    out.put_array(game.returns.data(), game.returns.size());
    out.put(static_cast<uint32_t>(game.size()));
    out.put_array(game.states.data(), game.states.size());
    out.put_array(game.policy_begin.data(), game.policy_begin.size());
    out.put_array(game.root_values.data(), game.root_values.size());
    out.put(static_cast<uint32_t>(game.policy_actions.size()));
    out.put_array(game.policy_actions.data(), game.policy_actions.size());
    out.put_array(game.policy_probs.data(), game.policy_probs.size());
  }
  out.put_hash();
  return std::move(out.bytes());
}

// Reads a chunk back; throws std::invalid_argument naming `where` and the problem: not a
// chunk, another format, another game or build (the state's size), damaged, or values
// that no self-play writes (policies outside [0, 1], values outside [-1, 1], a rule set
// outside the run's `rule_sets`).
template <Game G>
SelfPlayChunk<G> decode_chunk(std::string_view bytes, const std::string& where,
                              const std::string& game_spec, const GameInfo& info,
                              int rule_sets = 1) {
  using State = typename G::State;
  BinaryReader in(bytes, where);
  in.open(kChunkMagic, "self-play chunk");
  const uint32_t format = in.get<uint32_t>();
  if (format != kChunkFormat)
    in.fail("chunk format " + std::to_string(format) + ", but this build reads format " +
            std::to_string(kChunkFormat));
  in.check_hash();
  const std::string spec = in.get_text();
  if (spec != game_spec) in.fail("holds games of " + spec + ", not of " + game_spec);
  const uint32_t state_size = in.get<uint32_t>(), players = in.get<uint32_t>();
  if (state_size != sizeof(State) || players != static_cast<uint32_t>(info.num_players))
    in.fail("written by another build (states of " + std::to_string(state_size) + " bytes, here " +
            std::to_string(sizeof(State)) + ")");
  SelfPlayChunk<G> chunk;
  chunk.number = in.get<int64_t>(), chunk.version = in.get<int64_t>();
  chunk.decisions = in.get<int64_t>(), chunk.evaluations = in.get<int64_t>();
  chunk.seconds = in.get<double>();
  const auto in_range = [](float x, float low, float high) { return x >= low && x <= high; };
  chunk.games.resize(in.get_count(13 + 4 * players));
  for (Trajectory<G>& game : chunk.games) {
    const uint8_t truncated = in.get<uint8_t>();
    if (truncated > 1) in.fail("a truncated flag of " + std::to_string(truncated));
    game.truncated = truncated == 1;
    game.plies = in.get<int32_t>();
    const uint32_t rule_set = in.get<uint32_t>();
    if (rule_set >= static_cast<uint32_t>(rule_sets))
      in.fail("a game of rule set " + std::to_string(rule_set) + ", but the run has " +
              std::to_string(rule_sets));
    game.rule_set = static_cast<int>(rule_set);
    game.returns.resize(players);
    in.get_array(game.returns.data(), players);
    const uint32_t n = in.get_count(sizeof(State));
    if (game.plies < static_cast<int32_t>(n))
      in.fail("a game of " + std::to_string(game.plies) + " plies with " + std::to_string(n) +
              " recorded decisions");
    game.states.resize(n);
    in.get_array(game.states.data(), n);
    game.policy_begin.resize(n + 1);
    in.get_array(game.policy_begin.data(), n + 1);
    game.root_values.resize(static_cast<size_t>(n) * players);
    in.get_array(game.root_values.data(), game.root_values.size());
    const uint32_t m = in.get_count(8);
    game.policy_actions.resize(m);
    in.get_array(game.policy_actions.data(), m);
    game.policy_probs.resize(m);
    in.get_array(game.policy_probs.data(), m);
    if (game.policy_begin.front() != 0 || game.policy_begin.back() != static_cast<int32_t>(m))
      in.fail("policies that do not cover their actions");
    for (uint32_t i = 0; i < n; ++i)
      if (game.policy_begin[i] > game.policy_begin[i + 1]) in.fail("policies out of order");
    for (uint32_t p = 0; p < m; ++p)
      if (game.policy_actions[p] < 0 || game.policy_actions[p] >= info.num_actions ||
          !in_range(game.policy_probs[p], 0, 1))
        in.fail("a policy entry (action " + std::to_string(game.policy_actions[p]) +
                ", probability " + std::to_string(game.policy_probs[p]) + ") out of range");
    for (const float v : game.root_values)
      if (!in_range(v, -1, 1)) in.fail("a root value of " + std::to_string(v));
    for (const float r : game.returns)
      if (!in_range(r, -1, 1)) in.fail("a return of " + std::to_string(r));
  }
  in.close("last game");
  return chunk;
}

}  // namespace knightgym
