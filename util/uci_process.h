// A UCI engine run as a child process and spoken to over pipes, with a time limit on
// its silence: Fairy-Stockfish as the reference (programs/engines/), the engines the uci
// agent plays through (agents/uci_agent.h), and `knightgym uci` itself in the tests that
// make the two play each other. It knows no game.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace knightgym {

class UciProcess {
 public:
  // Starts argv[0] (looked up on PATH if it has no '/') with the arguments argv[1...];
  // `name` labels the process in errors. A process silent for `silence_limit` while a
  // line is awaited is killed, so that a hung engine fails a test rather than hangs it
  // (zero: wait forever). Throws std::runtime_error if it cannot start.
  UciProcess(const std::vector<std::string>& argv, std::string name,
             std::chrono::milliseconds silence_limit = {});
  ~UciProcess();  // quit, close the pipes, reap the process (killed if it lingers)
  UciProcess(const UciProcess&) = delete;
  UciProcess& operator=(const UciProcess&) = delete;

  // Throws std::runtime_error if the process has exited.
  void send(const std::string& line);
  // The next line of output; throws if the process has closed it (exited or crashed)
  // or stayed silent past the limit.
  std::string read_line();
  // Whether read_line() has something to read (a line, part of one, or the end of the
  // output) within `wait`, without reading it.
  bool has_output(std::chrono::milliseconds wait);
  std::string read_until_prefix(const std::string& prefix);

 private:
  // Reaps the exited process and throws what happened, with how it ended.
  [[noreturn]] void fail_dead(const std::string& what);
  void stop();

  std::string name_;
  std::string program_;
  std::chrono::milliseconds silence_limit_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string pending_;  // read from the process, not yet returned as lines
};

// The program of an engine name: "fairy-stockfish" is $KNIGHTGYM_FAIRY_STOCKFISH if set,
// else Debian's /usr/games/fairy-stockfish if it is there, else the name on PATH; any
// other name is itself (a path, or a program on PATH).
std::string engine_program(const std::string& engine);

// What to do when `engine` cannot be started: for fairy-stockfish, how to install or
// name it; empty for others.
std::string engine_install_hint(const std::string& engine);

}  // namespace knightgym
