#include "training/iteration/gate.h"

#include <stdexcept>

namespace knightgym {

void check_gate_options(const GateOptions& options) {
  if (options.max_games < 0)
    throw std::invalid_argument("gate games: " + std::to_string(options.max_games) +
                                ", not 0 or more");
  if (options.chunk_games < 2 || options.chunk_games % 2 != 0)
    throw std::invalid_argument("gate batch: " + std::to_string(options.chunk_games) +
                                ", not an even number of 2 or more (each look needs as many "
                                "games in each seat)");
  if (options.max_games % options.chunk_games != 0)
    throw std::invalid_argument("gate games: " + std::to_string(options.max_games) +
                                ", not a multiple of the gate batch " +
                                std::to_string(options.chunk_games));
  if (options.sims < 1)
    throw std::invalid_argument("gate sims: " + std::to_string(options.sims) + ", not 1 or more");
  check_sprt_settings(options.sprt);
}

double GateTally::score() const {
  return results.count == 0 ? 0.5 : (results.sum / results.count + 1) / 2;
}

void add_gate_games(GateTally& tally, std::span<const GameRecord> records) {
  for (const GameRecord& record : records) {
    double sum = 0;
    int seats = 0;
    for (size_t seat = 0; seat < record.agent_of_seat.size(); ++seat) {
      if (record.agent_of_seat[seat] != 0) continue;
      sum += record.returns[seat];
      ++seats;
    }
    const double result = sum / seats;
    tally.results.add(result);
    tally.wins += result > 0;
    tally.draws += result == 0;
    tally.losses += result < 0;
  }
}

GateVerdict gate_verdict(const GateOptions& options, const GateTally& tally) {
  GateVerdict verdict;
  verdict.sprt = sprt_state(options.sprt, tally.games(), tally.results.sum, tally.results.squares);
  if (verdict.sprt.decision == SprtDecision::kAcceptH1) {
    verdict.decision = GateDecision::kKeep;
  } else if (verdict.sprt.decision == SprtDecision::kAcceptH0) {
    verdict.decision = GateDecision::kDiscard;
  } else if (tally.games() >= options.max_games) {
    verdict.truncated = true;
    verdict.decision = verdict.sprt.llr > 0 ? GateDecision::kKeep : GateDecision::kDiscard;
  }
  return verdict;
}

const char* gate_decision_name(GateDecision decision) {
  switch (decision) {
    case GateDecision::kKeep:
      return "keep";
    case GateDecision::kDiscard:
      return "discard";
    case GateDecision::kUndecided:
      break;
  }
  return "undecided";
}

std::string gate_agent(const std::string& model, const GateOptions& options,
                       const std::string& device) {
  return "az:model=" + model + ",sims=" + std::to_string(options.sims) + ",device=" + device;
}

std::vector<GameRecord> play_gate_chunk(const AnyGame& game,
                                        const std::shared_ptr<const AgentFactory>& child,
                                        const std::shared_ptr<const AgentFactory>& parent,
                                        const GateOptions& options, int64_t chunk, uint64_t seed) {
  ArenaOptions arena;
  arena.games = options.chunk_games;
  arena.first = chunk * options.chunk_games;
  arena.seed = seed;
  arena.threads = 1;
  return play_arena_in_batches(game, {child, parent}, arena, {.batch = options.chunk_games});
}

}  // namespace knightgym
