// The self-play channel of `knightgym train --ray ADDRESS` (training/distributed/
// actor_games.h's ChunkChannel) over the Ray relay (ray_relay.h): the learner stays in
// the program, and the relay's actors on the cluster play its chunks. Compiled into the
// program with LibTorch only.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "programs/cli/ray_relay.h"
#include "training/distributed/actor_games.h"

namespace knightgym::cli {

class RayRelayChannel final : public ChunkChannel {
 public:
  // The relay connected to the cluster at `address`, with `actors` actors started there
  // (0: one per CPU of the cluster) for the run of `game_spec` with `settings`
  // (canonical: TrainConfig::spec); throws as RayRelay does.
  RayRelayChannel(const std::string& address, int actors, const std::string& game_spec,
                  const std::string& settings, const std::atomic<bool>& stop);

  int actors() const { return actors_; }

  void publish(int64_t version, std::string weights) override;
  void request(int64_t number) override;
  std::string receive(int64_t number) override;
  std::vector<double> actor_rates(double seconds) override;

 private:
  RayRelay relay_;
  int actors_ = 0;
};

}  // namespace knightgym::cli
