// `knightgym network-check`: how closely the shipped networks answer on a device, in a
// precision, with or without CUDA graphs, as float32 on the CPU does
// (agents/network_agreement.h). Exit status 1 when one answers beyond rounding.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/network.h"
#include "agents/network_agreement.h"
#include "agents/pretrained.h"
#include "env/registry/registry.h"
#include "programs/cli/args.h"
#include "programs/cli/commands.h"

namespace knightgym::cli {

int network_check_command(Args& args) {
  const std::string device = args.get_string("device", "cpu");
  const Precision precision = precision_named(args.get_string("precision", "float32"));
  set_cuda_graphs(!args.get_switch("no-cuda-graphs"));
  const int positions = static_cast<int>(args.get_int("positions", 256, 1));
  const auto seed = static_cast<uint64_t>(args.get_int("seed", 1, 0));
  args.finish();

  const std::vector<PretrainedModel> shipped = read_manifest(models_directory());
  std::vector<PretrainedModel> models;
  for (const std::string& name : args.positional()) {
    const auto found = std::find_if(shipped.begin(), shipped.end(),
                                    [&](const PretrainedModel& m) { return m.name == name; });
    if (found == shipped.end())
      throw std::invalid_argument("network '" + name +
                                  "': not shipped (knightgym list --agents "
                                  "lists the shipped networks)");
    models.push_back(*found);
  }
  if (models.empty()) models = shipped;

  // Every network loaded on both sides before any work, so that a bad setting (float16 on
  // the CPU, a device this build lacks) is refused first.
  struct Pair {
    const PretrainedModel& model;
    std::shared_ptr<const AnyGame> game;
    std::shared_ptr<Evaluator> reference, candidate;
  };
  std::vector<Pair> pairs;
  for (const PretrainedModel& model : models) {
    auto game = load_game(model.game);
    auto reference = load_network(model.path(), game->info(), model.game, "cpu", 1);
    auto candidate = load_network(model.path(), game->info(), model.game, device, 1, precision);
    pairs.push_back({model, std::move(game), std::move(reference), std::move(candidate)});
  }

  std::printf(
      "knightgym network-check: the shipped networks on %s in %s%s against float32 on the "
      "CPU, %d positions of random play (seed %llu), called in batches of 1 to 64\n\n",
      device.c_str(), precision_name(precision), cuda_graphs_heading(device).c_str(), positions,
      static_cast<unsigned long long>(seed));
  std::printf(
      "| network | largest prior difference | largest value difference | mean value difference "
      "| same best action | illegal priors | within rounding |\n"
      "|---|--:|--:|--:|--:|--:|---|\n");
  bool all_within = true;
  for (const Pair& pair : pairs) {
    const NetworkAgreement a =
        network_agreement(*pair.game, *pair.reference, *pair.candidate, positions, seed);
    all_within = all_within && a.within_rounding();
    std::printf("| %s | %.4f | %.4f | %.4f | %d of %d | %d | %s |\n", pair.model.name.c_str(),
                a.largest_prior_difference, a.largest_value_difference, a.mean_value_difference,
                a.same_best_action, a.positions, a.illegal_priors,
                a.within_rounding() ? "yes" : "**no**");
    std::fflush(stdout);
  }
  return all_within ? 0 : 1;
}

}  // namespace knightgym::cli
