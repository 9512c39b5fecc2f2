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
};

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
  // The engine's move in the position `fen` within the budget, as it wrote it ("(none)"
  // or "0000" where it has none); once `limits` time out (a stop, a deadline) the engine
  // is told to stop and answers at once. Throws std::runtime_error if the engine dies,
  // stays silent for the timeout, or does not answer within the timeout after the budget.
  std::string best_move(const std::string& fen, const SearchLimits& limits = {});

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
