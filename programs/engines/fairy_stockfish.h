// The real Fairy-Stockfish, run as a child process and spoken to in UCI over pipes, set to
// the variant of a game that has the UCI capability (env/core/uci_game.h): the independent
// reference for that game's move generator (perft), FEN writer and UCI engine. Debian's
// fairy-stockfish 11.1 is the version the tests and benchmarks were written on.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "env/core/uci_game.h"
#include "util/uci_process.h"

namespace knightgym::engines {

class FairyStockfish {
 public:
  // Starts the binary named by $KNIGHTGYM_FAIRY_STOCKFISH, else /usr/games/fairy-stockfish,
  // else `fairy-stockfish` on PATH, and sets its UCI_Variant to the game's. Throws
  // std::runtime_error if it cannot be started, or if its start position for the variant
  // is not the game's start FEN.
  explicit FairyStockfish(const UciInfo& game);

  const std::string& path() const { return path_; }

  // Below, a position is `fen` (a FEN, or "startpos") followed by the UCI `moves`.
  // Fairy-Stockfish stops silently at the first illegal move.

  // `go perft depth` (depth >= 1) on the position `fen`: the count below each legal move,
  // keyed by its UCI text, and the total.
  std::map<std::string, uint64_t> perft_divide(const std::string& fen, int depth);
  uint64_t perft(const std::string& fen, int depth);

  // The legal moves of a position in UCI text, sorted (`go perft 1`).
  std::vector<std::string> legal_moves(const std::string& fen,
                                       const std::vector<std::string>& moves);

  // The FEN Fairy-Stockfish writes (`d`) for a position.
  std::string fen_after(const std::string& fen, const std::vector<std::string>& moves);

  // Its move after `go nodes N` on a position, "(none)" if the game is over.
  std::string bestmove(const std::string& fen, const std::vector<std::string>& moves,
                       int64_t nodes);

 private:
  void set_position(const std::string& fen, const std::vector<std::string>& moves);
  // `go perft depth` on the position set last.
  uint64_t go_perft(int depth, std::map<std::string, uint64_t>* divide);
  std::string current_fen();  // `d`, read up to its end

  std::string path_;
  UciProcess process_;
};

}  // namespace knightgym::engines
