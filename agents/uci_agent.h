// The uci agent: plays through an external UCI engine, Fairy-Stockfish by default, with a
// budget per move (nodes, time or depth), in any game that a UCI engine plays
// (env/core/uci_game.h). Each agent takes an engine process from its spec's pool when it
// first moves and gives it back when it is destroyed, so games played at once each have a
// process and games played one after another reuse them. The engine searches with one
// thread and starts every game with an empty hash table, so with a node or depth budget
// a game's moves do not depend on the thread count or on the games before it.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "agents/agent.h"
#include "agents/external_engine.h"
#include "env/core/params.h"
#include "env/core/uci_game.h"

namespace knightgym {

template <Game G>
requires UciGame<G>
class UciAgent final : public Agent<G> {
 public:
  UciAgent(const G& game, std::shared_ptr<ExternalEnginePool> pool)
      : game_(game), pool_(std::move(pool)) {}
  ~UciAgent() override {
    if (engine_) pool_->release(std::move(engine_));
  }

  // The engine's move, checked: a dead or silent engine, or a move that is not legal
  // here, throws std::runtime_error naming the engine and the position. The spec's budget
  // bounds the search; a stop or deadline in `limits` ends it earlier (UCI's stop).
  Action act(const typename G::State& state, const SearchLimits& limits = {}) override {
    const std::string fen = game_.fen(state);
    std::string move;
    try {
      if (!engine_) engine_ = pool_->acquire(G::kUciVariant);
      move = engine_->best_move(fen, limits);
    } catch (const std::runtime_error& error) {
      engine_.reset();  // broken: stopped (killed if it lingers), never reused
      throw std::runtime_error("uci agent, position " + fen + ": " + error.what());
    }
    Action legal[G::kMaxActions];
    const int count = game_.legal_actions(state, legal);
    for (int i = 0; i < count; ++i)
      if (game_.action_to_string(state, legal[i]) == move) return legal[i];
    const std::string program = engine_->program();
    engine_.reset();
    throw std::runtime_error("uci agent: the engine (" + program + ") played '" + move +
                             "', which is not a legal move in position " + fen);
  }

 private:
  const G& game_;
  std::shared_ptr<ExternalEnginePool> pool_;
  std::unique_ptr<ExternalEngine> engine_;  // from the pool, for this agent's games
};

struct UciKind {
  static constexpr std::string_view kName = "uci";
  static constexpr std::string_view kSummary =
      "an external UCI engine, Fairy-Stockfish by default, with a budget per move (games "
      "with a UCI variant)";
  using Config = UciAgentConfig;
  static void read(ParamReader& r, Config& c) {
    c.engine = r.get_string("engine", c.engine,
                            "fairy-stockfish (from $KNIGHTGYM_FAIRY_STOCKFISH, /usr/games or "
                            "PATH), or the path or name of any UCI engine");
    c.nodes = r.get_int("nodes", c.nodes, 0, 2000000000, "nodes per move (0: no node limit)");
    c.movetime = r.get_int("movetime", c.movetime, 0, 86400000, "milliseconds per move (0: none)");
    c.depth = r.get_int("depth", c.depth, 0, 1000, "plies per move (0: none)");
    c.hash = r.get_int("hash", c.hash, 1, 65536, "hash table, MB");
    c.timeout = r.get_int("timeout", c.timeout, 1, 86400,
                          "seconds beyond movetime without a bestmove before the engine counts "
                          "as hung and is stopped");
    if (c.nodes == 0 && c.movetime == 0 && c.depth == 0)
      r.fail("nodes", "no budget per move: set nodes, movetime or depth");
  }
  static std::shared_ptr<SharedResource> share(const Config& config, const GameInfo&,
                                               const std::string&) {
    return std::make_shared<ExternalEnginePool>(config);
  }
  template <Game G>
  static std::unique_ptr<Agent<G>> make(const G& game, const Config&,
                                        const std::shared_ptr<SharedResource>& shared, uint64_t) {
    if constexpr (UciGame<G>) {
      // share() above made it, so it is a pool.
      return std::make_unique<UciAgent<G>>(game,
                                           std::static_pointer_cast<ExternalEnginePool>(shared));
    } else {
      throw std::invalid_argument("uci agent: " + std::string(G::kName) +
                                  " has no UCI variant for an engine to play "
                                  "(env/core/uci_game.h)");
    }
  }
};

}  // namespace knightgym
