#include "programs/engines/fairy_stockfish.h"

#include <charconv>
#include <stdexcept>

namespace knightgym::engines {
namespace {

// Returned as a prvalue, so the non-movable process is built in place.
UciProcess start(const std::string& path) {
  try {
    return UciProcess({path}, "Fairy-Stockfish");
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(error.what() + engine_install_hint("fairy-stockfish"));
  }
}

}  // namespace

FairyStockfish::FairyStockfish(const UciInfo& game)
    : path_(engine_program("fairy-stockfish")), process_(start(path_)) {
  const std::string variant(game.variant);
  process_.send("uci");
  process_.read_until_prefix("uciok");
  process_.send("setoption name UCI_Variant value " + variant);
  set_position("startpos", {});
  if (current_fen() != game.start_fen)
    throw std::runtime_error("Fairy-Stockfish (" + path_ + ") does not play " + variant);
}

std::map<std::string, uint64_t> FairyStockfish::perft_divide(const std::string& fen, int depth) {
  std::map<std::string, uint64_t> divide;
  set_position(fen, {});
  go_perft(depth, &divide);
  return divide;
}

uint64_t FairyStockfish::perft(const std::string& fen, int depth) {
  set_position(fen, {});
  return go_perft(depth, nullptr);
}

std::vector<std::string> FairyStockfish::legal_moves(const std::string& fen,
                                                     const std::vector<std::string>& moves) {
  std::map<std::string, uint64_t> divide;
  set_position(fen, moves);
  go_perft(1, &divide);
  std::vector<std::string> legal;
  for (const auto& [move, count] : divide) legal.push_back(move);
  return legal;
}

std::string FairyStockfish::fen_after(const std::string& fen,
                                      const std::vector<std::string>& moves) {
  set_position(fen, moves);
  return current_fen();
}

std::string FairyStockfish::bestmove(const std::string& fen, const std::vector<std::string>& moves,
                                     int64_t nodes) {
  set_position(fen, moves);
  process_.send("go nodes " + std::to_string(nodes));
  // "bestmove MOVE" or "bestmove MOVE ponder REPLY".
  const std::string line = process_.read_until_prefix("bestmove ");
  return line.substr(9, line.find(' ', 9) - 9);
}

void FairyStockfish::set_position(const std::string& fen, const std::vector<std::string>& moves) {
  std::string command = fen == "startpos" ? "position startpos" : "position fen " + fen;
  if (!moves.empty()) command += " moves";
  for (const std::string& move : moves) {
    command += ' ';
    command += move;
  }
  process_.send(command);
}

// The answer is a line "move: count" per legal move, then "Nodes searched: total", with
// empty lines around; anything else means we are out of step with the process.
uint64_t FairyStockfish::go_perft(int depth, std::map<std::string, uint64_t>* divide) {
  if (depth < 1) throw std::invalid_argument("perft depth must be at least 1");
  process_.send("go perft " + std::to_string(depth));
  uint64_t sum = 0;
  for (;;) {
    const std::string line = process_.read_line();
    if (line.empty()) continue;
    const size_t colon = line.find(": ");
    uint64_t count = 0;
    const char* end = line.data() + line.size();
    if (colon == std::string::npos ||
        std::from_chars(line.data() + colon + 2, end, count).ptr != end)
      throw std::runtime_error("Fairy-Stockfish: unexpected perft output '" + line + "'");
    if (line.starts_with("Nodes searched: ")) {
      if (count != sum)
        throw std::runtime_error("Fairy-Stockfish: perft moves add up to " + std::to_string(sum) +
                                 ", not the total " + line);
      return count;
    }
    sum += count;
    if (divide) (*divide)[line.substr(0, colon)] = count;
  }
}

// `isready` is answered after `d` has printed everything, so no line of it is left over.
std::string FairyStockfish::current_fen() {
  process_.send("d");
  process_.send("isready");
  const std::string fen = process_.read_until_prefix("Fen: ").substr(5);
  process_.read_until_prefix("readyok");
  return fen;
}

}  // namespace knightgym::engines
