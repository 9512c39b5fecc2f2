// knightgym uci: a UCI engine on stdin and stdout (programs/uci/uci_engine.h) for a game
// with the UCI capability, for GUIs, cutechess-cli and matches against Fairy-Stockfish.
#include <iostream>
#include <stdexcept>
#include <string>

#include "programs/cli/args.h"
#include "programs/cli/commands.h"
#include "programs/uci/uci_engine.h"

namespace knightgym::cli {

int uci_command(Args& args) {
  args.expect_positional(0);
  const std::string agent = args.get_string("agent", std::string(UciEngine::kDefaultAgent));
  const auto seed = static_cast<uint64_t>(args.get_int("seed", 0, 0));
  const std::string game = args.get_string("game", "");
  args.finish();
  UciEngine engine(std::cout, agent, seed, game);
  engine.run(std::cin);
  return 0;
}

}  // namespace knightgym::cli
