// The real Fairy-Stockfish, run as a child process and spoken to in UCI over pipes, set to
// Knightmate: the independent reference for our move generator (perft) and FEN writer.
// Debian's fairy-stockfish 11.1 is the version the tests and benchmarks were written on.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace knightgym::reference {

class FairyStockfish {
 public:
  // Starts the binary named by $KNIGHTGYM_FAIRY_STOCKFISH, else /usr/games/fairy-stockfish,
  // else `fairy-stockfish` on PATH, and sets the variant to knightmate. Throws
  // std::runtime_error if it cannot be started or does not answer as expected.
  FairyStockfish();
  ~FairyStockfish();
  FairyStockfish(const FairyStockfish&) = delete;
  FairyStockfish& operator=(const FairyStockfish&) = delete;

  const std::string& path() const { return path_; }

  // `go perft depth` (depth >= 1) on the position `fen`: the count below each legal move,
  // keyed by its UCI text, and the total.
  std::map<std::string, uint64_t> perft_divide(const std::string& fen, int depth);
  uint64_t perft(const std::string& fen, int depth);

  // The FEN Fairy-Stockfish writes (`d`) after playing the UCI `moves` from `fen`. It
  // stops silently at the first illegal move.
  std::string fen_after(const std::string& fen, const std::vector<std::string>& moves);

 private:
  uint64_t go_perft(const std::string& fen, int depth, std::map<std::string, uint64_t>* divide);
  std::string current_fen();  // `d`, read up to its end
  void send(const std::string& line);
  // The next line of output; throws if the process has closed it (exited or crashed).
  std::string read_line();
  std::string read_until_prefix(const std::string& prefix);
  // Reaps the exited process and throws what happened, with how it ended.
  [[noreturn]] void fail_dead(const std::string& what);
  void stop();  // quit, close the pipes, reap the process

  std::string path_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  FILE* from_child_ = nullptr;
};

}  // namespace knightgym::reference
