// The balance command's strings (training/balance/balance.h, agents/agent_kinds.h): the
// first line is a game spec, then lines "sweep KEY=V1,V2", "sprt a0=..,a1=..", and
// "agents SPEC,SPEC". Accepted sweeps expand to a grid whose every rule set loads and
// names its values; accepted test settings are ordered; a list splits into specs that
// join back to it.
#include <stdexcept>

#include "agents/agent_kinds.h"
#include "tests/fuzz/fuzz_checks.h"
#include "training/balance/balance.h"
#include "util/text.h"

using namespace knightgym;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto [game, rest_of_input] = fuzz::first_line(fuzz::text_of(data, size));
  std::vector<Sweep> sweeps;
  size_t grid = 1;
  std::string_view rest = rest_of_input;
  while (!rest.empty()) {
    const auto [line, after] = fuzz::first_line(rest);
    rest = after;
    const size_t space = line.find(' ');
    if (space == std::string_view::npos) continue;
    const std::string_view what = line.substr(0, space);
    const std::string value(line.substr(space + 1));
    try {
      if (what == "sweep") {
        sweeps.push_back(parse_sweep(value));
        fuzz::require(!sweeps.back().values.empty(), "a sweep without values: ", value);
        grid *= sweeps.back().values.size();
      } else if (what == "sprt") {
        const SprtSettings sprt = parse_sprt(value);
        fuzz::require(sprt.a0 < sprt.a1, "accepted a0 >= a1: ", value);
      } else if (what == "agents") {
        const std::vector<std::string> specs = split_agent_specs(value);
        fuzz::require(join(specs, ",") == value || specs.empty(),
                      "the split does not join back: ", value);
      }
    } catch (const std::invalid_argument&) {
    }
  }
  if (grid > 64) return 0;  // a grid loads every rule set: keep inputs fast
  std::vector<RuleSet> rule_sets;
  try {
    rule_sets = expand_grid(std::string(game), sweeps);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  fuzz::require(rule_sets.size() == grid, "the grid's size is not the product of its sweeps'");
  for (const RuleSet& rules : rule_sets) {
    fuzz::require(load_game(rules.spec)->spec() == rules.spec,
                  "a rule set's spec is not canonical: ", rules.spec);
    fuzz::require(rules.values.size() == sweeps.size(), "a rule set without its values");
  }
  return 0;
}
