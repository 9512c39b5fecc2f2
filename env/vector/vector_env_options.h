// How a vector env is made: its size, its threads and the seed of its streams. Apart
// from VectorEnv so that the type-erased faces (env/registry/any_game.h) name it without
// the whole vector env.
#pragma once

#include <cstdint>

namespace knightgym {

struct VectorEnvOptions {
  int num_envs = 1;
  int num_threads = 1;
  uint64_t seed = 0;
};

}  // namespace knightgym
