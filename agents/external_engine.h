// External UCI engines for the uci agent (agents/uci_agent.h): one engine process set up
// for a variant and a budget per move, and the pool that the agents of one spec share in
// one game, so that games played one after another reuse a process and games played at
// once each have their own. Nothing here knows a game.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "agents/shared_resource.h"
#include "util/uci_process.h"

namespace knightgym {

struct UciAgentConfig {
  std::string engine = "fairy-stockfish";  // util/uci_process.h: engine_program
  int nodes = 1000;                        // per move; 0: no node limit
  int movetime = 0;                        // milliseconds per move; 0: none
  int depth = 0;                           // plies per move; 0: none
  int hash = 16;                           // MB
  int timeout = 30;  // seconds without a word after which the engine counts as hung
  int multipv = 1;   // moves the engine scores (its MultiPV option)
  int spread = 100;  // centipawns: how the reported policy weighs the scored moves
  int tie = 0;       // centipawns: play any scored move this close to the best, at random
};

// An engine's score for the side to move: centipawns, or a mate in `mate` moves (> 0:
// the mover mates; < 0: the mover is mated) where mate is not 0.
struct EngineScore {
  int centipawns = 0;
  int mate = 0;

  // The score on one scale for comparing moves: a mate is worth more than any
  // centipawns, a quicker one more.
  double ordering() const;
  // The mover's expected return in [-1, 1]: a mate is +-1; centipawns go through the
  // logistic of the Elo scale, 2 / (1 + 10^(-cp/400)) - 1, so 400 cp is a 10:1 favourite.
  float value() const;
};

// One of the engine's scored moves (its MultiPV lines, best first).
struct EngineLine {
  std::string move;
  EngineScore score;
};

// What a search ended with: the move the engine chose and, from its last `info` lines,
// the scored moves, the nodes searched and the depth reached.
struct EngineAnswer {
  std::string best_move;  // as the engine wrote it ("(none)" or "0000" where it has none)
  std::vector<EngineLine> lines;
  int64_t nodes = 0;
  int depth = 0;
};

// The value of a UCI `info` line for `answer`: the line's score and first move stored at
// its multipv rank (a score that is only a bound does not replace an exact one), its
// nodes and depth kept. Exposed for tests; lines that are not `info` are ignored.
void read_info_line(const std::string& line, EngineAnswer& answer);

class ExternalEngine {
 public:
  // Starts the engine and checks that it speaks UCI. Throws std::runtime_error naming
  // the engine if it cannot be started or does not answer.
  explicit ExternalEngine(const UciAgentConfig& config);

  // Sets the variant (UCI_Variant), one search thread and the hash size, unless this
  // variant is set already; throws if the engine does not offer the variant.
  void set_variant(std::string_view variant);
  // Clears what earlier games left in the engine (its hash table), so that a game's
  // moves depend on that game alone.
  void new_game();
  // The engine's search of `position` (the arguments of UCI's `position` command: "fen
  // F moves m1 m2 ..." or "startpos ...") within the budget; once `limits` time out (a
  // stop, a deadline) the engine is told to stop and answers at once. Throws
  // std::runtime_error if the engine dies, stays silent for the timeout, or does not
  // answer within the timeout after the budget.
  EngineAnswer search(const std::string& position, const SearchLimits& limits = {});

  const std::string& program() const { return program_; }

 private:
  void sync();  // isready, then wait for readyok

  UciAgentConfig config_;
  std::string program_;
  UciProcess process_;
  std::vector<std::string> variants_;  // offered by the engine's UCI_Variant option
  bool has_variant_option_ = false;
  std::string variant_;  // set last
};

class ExternalEnginePool final : public SharedResource {
 public:
  // Starts one engine at once, so that a missing or broken engine shows before play.
  explicit ExternalEnginePool(UciAgentConfig config);

  // An engine for a new game in `variant`: an idle one, else a new process.
  std::unique_ptr<ExternalEngine> acquire(std::string_view variant);
  // Back to the idle list, for the next game.
  void release(std::unique_ptr<ExternalEngine> engine);

  const UciAgentConfig& config() const { return config_; }

 private:
  const UciAgentConfig config_;
  std::mutex mutex_;  // guards idle_
  std::vector<std::unique_ptr<ExternalEngine>> idle_;
};

}  // namespace knightgym
