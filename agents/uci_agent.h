// The uci agent: plays through an external UCI engine, Fairy-Stockfish by default, with a
// budget per move (nodes, time or depth), in any game that a UCI engine plays
// (env/core/uci_game.h), sending the game since its last irreversible move so that the
// engine sees repetitions coming. With multipv > 1 it reports the engine's scored moves
// as its policy and its best score as its value: a teacher's targets (knightgym teach).
// Each agent takes an engine process from its spec's pool when it first moves and gives
// it back when it is destroyed, so games played at once each have a process and games
// played one after another reuse them. The engine searches with one thread and starts
// every game with an empty hash table, so with a node or depth budget a game's moves do
// not depend on the thread count or on the games before it.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/external_engine.h"
#include "env/core/params.h"
#include "env/core/rng.h"
#include "env/core/uci_game.h"

namespace knightgym {

template <Game G>
requires UciGame<G>
class UciAgent final : public Agent<G> {
 public:
  UciAgent(const G& game, std::shared_ptr<ExternalEnginePool> pool, uint64_t seed)
      : game_(game),
        pool_(std::move(pool)),
        spread_(pool_->config().spread),
        tie_(pool_->config().tie),
        rng_(seed) {}
  ~UciAgent() override {
    if (engine_) pool_->release(std::move(engine_));
  }

  // The engine's move, checked: a dead or silent engine, or a move that is not legal
  // here, throws std::runtime_error naming the engine and the position. The spec's budget
  // bounds the search; a stop or deadline in `limits` ends it earlier (UCI's stop). With
  // tie > 0 the move is drawn from those the engine scored within tie of its best.
  Action act(const typename G::State& state, const SearchLimits& limits = {}) override {
    const std::string position = game_.uci_position(state);
    EngineAnswer answer;
    try {
      if (!engine_) engine_ = pool_->acquire(G::kUciVariant);
      answer = engine_->search(position, limits);
    } catch (const std::runtime_error& error) {
      engine_.reset();  // broken: stopped (killed if it lingers), never reused
      throw std::runtime_error("uci agent, position " + position + ": " + error.what());
    }
    Action legal[G::kMaxActions];
    const int count = game_.legal_actions(state, legal);
    const auto action_of = [&](const std::string& move) {
      for (int i = 0; i < count; ++i)
        if (game_.action_to_string(state, legal[i]) == move) return legal[i];
      const std::string program = engine_->program();
      engine_.reset();
      throw std::runtime_error("uci agent: the engine (" + program + ") played '" + move +
                               "', which is not a legal move in position " + position);
    };
    const Action best = action_of(answer.best_move);
    report(answer, action_of);
    return tie_ > 0 && report_.visit_shares.size() > 1 ? draw_among_ties() : best;
  }

  // The engine's nodes, depth and value (its best score as the mover's expected return),
  // and as the policy its scored moves weighted by exp(-(best - score) / spread); an
  // engine that scores nothing reports no simulations and its one move.
  SearchReport last_report() const override { return report_; }

 private:
  template <class ActionOf>
  void report(const EngineAnswer& answer, const ActionOf& action_of) {
    report_ = {};
    orderings_.clear();
    report_.depth = answer.depth;
    if (answer.lines.empty() || answer.lines[0].move.empty()) {
      report_.visit_shares.emplace_back(action_of(answer.best_move), 1.0f);
      return;
    }
    report_.sims = std::max<int64_t>(answer.nodes, 1);
    report_.value = answer.lines[0].score.value();
    // Lines of an unfinished iteration may be out of order: weigh from the best of them.
    double best = answer.lines[0].score.ordering();
    for (const EngineLine& line : answer.lines)
      if (!line.move.empty()) best = std::max(best, line.score.ordering());
    double total = 0;
    for (const EngineLine& line : answer.lines) {
      if (line.move.empty()) continue;  // a rank the engine skipped
      const double weight = std::exp((line.score.ordering() - best) / spread_);
      report_.visit_shares.emplace_back(action_of(line.move), static_cast<float>(weight));
      orderings_.push_back(line.score.ordering());
      total += weight;
    }
    for (auto& [action, share] : report_.visit_shares) share = static_cast<float>(share / total);
  }

  // A move drawn uniformly from the scored moves within tie of the best score (which is
  // the engine's best move unless its last iteration was cut short).
  Action draw_among_ties() {
    const double floor = *std::max_element(orderings_.begin(), orderings_.end()) - tie_;
    const auto tied = [floor](double ordering) { return ordering >= floor; };
    const auto ties =
        static_cast<uint32_t>(std::count_if(orderings_.begin(), orderings_.end(), tied));
    uint32_t pick = ties > 1 ? rng_.below(ties) : 0;
    for (size_t i = 0;; ++i)
      if (tied(orderings_[i]) && pick-- == 0) return report_.visit_shares[i].first;
  }

  const G& game_;
  std::shared_ptr<ExternalEnginePool> pool_;
  std::unique_ptr<ExternalEngine> engine_;  // from the pool, for this agent's games
  double spread_;
  int tie_;
  Rng rng_;
  SearchReport report_;
  std::vector<double> orderings_;  // the score of each move of report_.visit_shares
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
    c.multipv = r.get_int("multipv", c.multipv, 1, 256,
                          "moves the engine scores (MultiPV); the agent reports them as its "
                          "policy, the teacher data's target");
    c.spread = r.get_int("spread", c.spread, 1, 100000,
                         "centipawns: the reported policy weighs each scored move by "
                         "exp(-(best - score) / spread)");
    c.tie = r.get_int("tie", c.tie, 0, 100000,
                      "centipawns: play a move drawn at random from those scored within tie of "
                      "the best (0: the engine's best move); needs multipv > 1");
    if (c.nodes == 0 && c.movetime == 0 && c.depth == 0)
      r.fail("nodes", "no budget per move: set nodes, movetime or depth");
    if (c.tie > 0 && c.multipv < 2)
      r.fail("tie", "ties are among scored moves: set multipv above 1");
  }
  static std::shared_ptr<SharedResource> share(const Config& config, const GameInfo&,
                                               const std::string&) {
    return std::make_shared<ExternalEnginePool>(config);
  }
  template <Game G>
  static std::unique_ptr<Agent<G>> make(const G& game, const Config&,
                                        const std::shared_ptr<SharedResource>& shared,
                                        uint64_t seed) {
    if constexpr (UciGame<G>) {
      // share() above made it, so it is a pool.
      return std::make_unique<UciAgent<G>>(
          game, std::static_pointer_cast<ExternalEnginePool>(shared), seed);
    } else {
      throw std::invalid_argument("uci agent: " + std::string(G::kName) +
                                  " has no UCI variant for an engine to play "
                                  "(env/core/uci_game.h)");
    }
  }
};

}  // namespace knightgym
