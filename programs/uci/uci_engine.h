// A UCI engine (the Universal Chess Interface) over any agent spec (AgentConfig,
// agents/agent_kinds.h) for a game with the UCI capability (env/core/uci_game.h), speaking its
// engine variant: the variant name, FEN and move text (for Knightmate, Fairy-Stockfish's, as
// docs/rules/knightmate.md says). It reads commands from one stream and answers on
// another, so tests drive it in-process; `knightgym uci` runs it on stdin and stdout. A
// search runs in a worker thread, so `stop` and `isready` are answered while it runs;
// `go`, `setoption` and `ucinewgame` wait for it (finish_search). Commands, scores and the
// time rule: docs/agents.md, section UCI.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "agents/any_agent.h"

namespace knightgym {

class UciEngine {
 public:
  static constexpr std::string_view kDefaultAgent = "mcts:sims=800";
  // The cap on a search's simulations, also on `go nodes` and on a search bounded only by
  // time, depth or `stop`: it bounds the tree's memory (MCTS keeps about 2 KB per
  // simulation in a chess variant).
  static constexpr int64_t kMaxSims = 1'000'000;
  // Kept back from the clock on every move for the pipes and the GUI, in ms.
  static constexpr int64_t kMoveOverheadMs = 50;
  // Longer times in `go` (about 35 years) are read as this one, so that a deadline in
  // the clock's nanoseconds cannot overflow.
  static constexpr int64_t kMaxTimeMs = int64_t{1} << 40;

  // The agent's random stream is seeded once, so a whole session replays from `seed`. The
  // game is `game_spec`, or if that is empty the first registered game with the UCI
  // capability. Throws std::invalid_argument for a bad agent or game spec, or a game no
  // UCI engine plays.
  explicit UciEngine(std::ostream& out, std::string_view agent_spec = kDefaultAgent,
                     uint64_t seed = 0, std::string_view game_spec = "");
  ~UciEngine();  // stops a search, after its bestmove is written
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  // The longest line read (a whole game's moves take a few KB); a longer one is ignored
  // with a message, its bytes read and dropped.
  static constexpr size_t kMaxLineBytes = 1 << 20;

  // Runs the commands read from `in` until `quit` or the end of the input. At the end of
  // the input a bounded search finishes and writes its bestmove; `go infinite` is stopped.
  void run(std::istream& in);

  // The time for one move under `go wtime/btime ...`, in ms: a 30th of the time left (or
  // its share over `movestogo` moves, if fewer) plus half the increment, never more than
  // the time left less kMoveOverheadMs, and at least 1.
  static int64_t clock_budget_ms(int64_t time_left, int64_t increment, int64_t moves_to_go);

 private:
  using Clock = std::chrono::steady_clock;
  using Tokens = std::vector<std::string>;

  bool handle(const Tokens& command);  // false after `quit`
  void identify();
  void set_option(const Tokens& command);
  void set_position(const Tokens& command);
  void go(const Tokens& command);
  void search(std::unique_ptr<AnyState> state, SearchLimits limits, bool infinite,
              Clock::time_point start);
  // Waits for the running search, if any, to write its bestmove, as Stockfish does before
  // `go`, `setoption` and `ucinewgame`: the commands after it wait their turn instead of
  // being dropped. A search under `go infinite` ends only with `stop`, so it is stopped.
  void finish_search();
  void stop_search();                 // sets the stop flag and waits for the bestmove
  void say(const std::string& line);  // one line, flushed; safe from both threads

  std::ostream& out_;
  std::mutex out_mutex_;
  std::shared_ptr<const AnyGame> game_;
  UciInfo uci_;
  std::string agent_spec_;
  uint64_t seed_;
  std::unique_ptr<AnyAgent> agent_;
  std::unique_ptr<AnyState> position_;
  std::thread worker_;
  std::atomic<bool> stop_{false};
  bool infinite_ = false;  // the last `go` was `go infinite`
};

}  // namespace knightgym
