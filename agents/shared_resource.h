// What the agents of one spec share in one game: made once by their kind's share() and
// handed to every agent made from it. A network (Evaluator) or a pool of engine processes
// (ExternalEnginePool); null where the agents share nothing.
#pragma once

namespace knightgym {

class SharedResource {
 public:
  virtual ~SharedResource() = default;
};

}  // namespace knightgym
