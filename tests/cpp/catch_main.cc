// The tests' main: Catch2's, with the LibTorch network backend set first where the build
// has one (as the knightgym program does).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#if KNIGHTGYM_TORCH
#include "agents/torch_evaluator.h"
#endif

int main(int argc, char** argv) {
#if KNIGHTGYM_TORCH
  knightgym::use_torch_networks();
#endif
  return Catch::Session().run(argc, argv);
}
