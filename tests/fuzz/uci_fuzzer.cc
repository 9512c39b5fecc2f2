// The UCI engine's input lines (programs/uci): any script is answered without a fault,
// and every `go` before a `quit` gets exactly one bestmove, a legal move or "(none)" at
// the end of a game. The engine plays `random`, whose answer does not wait for its
// bounds; lines that would set another agent are left out (agent specs have their own
// target), so that no input asks for a long search.
#include <sstream>
#include <string>

#include "programs/uci/uci_engine.h"
#include "tests/fuzz/fuzz_checks.h"
#include "util/text.h"

using namespace knightgym;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string script;
  int goes = 0;
  std::string_view rest = fuzz::text_of(data, size);
  bool quit = false;
  while (!rest.empty() && !quit) {
    const auto [line, after] = fuzz::first_line(rest);
    rest = after;
    const std::vector<std::string_view> words = split_words(line);
    if (words.size() > 1 && words[0] == "setoption") continue;
    if (!words.empty() && words[0] == "go") ++goes;
    quit = !words.empty() && words[0] == "quit";
    script.append(line).append("\n");
  }
  std::ostringstream out;
  {
    UciEngine engine(out, "random", 1);
    std::istringstream in(script);
    engine.run(in);
  }
  int bestmoves = 0;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) bestmoves += line.starts_with("bestmove ");
  fuzz::require(bestmoves == goes, std::to_string(goes), " go commands got ",
                std::to_string(bestmoves), " bestmoves");
  return 0;
}
