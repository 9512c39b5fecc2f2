// Registers Nim (nim.h) while a program that trains loads (the test-game training module
// and command-line program), with everything it holds, the trainer included
// (training/trainer/typed_training.h).
#include "tests/games/nim/nim.h"
#include "training/trainer/typed_training.h"

namespace knightgym {
namespace {

const bool registered = (register_game_for_training<Nim>(), true);

}  // namespace
}  // namespace knightgym
