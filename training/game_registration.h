// A game that no list names, registered at run time with everything a program holds that
// plays games without training them (the Python module's core, the test CLI): the
// registry, the agents (agents/game_registration.h), the batched arena
// (training/arena/typed_matches.h) and the teacher (training/teacher/typed_teacher.h).
// A program that trains too calls register_game_for_training<G>()
// (training/trainer/typed_training.h) instead.
#pragma once

#include "agents/game_registration.h"
#include "training/arena/typed_matches.h"
#include "training/teacher/typed_teacher.h"

namespace knightgym {

template <Game G>
void register_game_for_play() {
  register_game_with_agents<G>();
  TypedCode<TypedMatches>::add<G>();
  TypedCode<TypedTeacher>::add<G>();
}

}  // namespace knightgym
