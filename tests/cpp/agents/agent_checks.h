// Checks of agents shared by the tests with and without LibTorch (agents_test.cc,
// network_test.cc).
#pragma once

#include <string>

namespace knightgym {

// Agents of `spec` answer a batch of Tailten positions with act_batch exactly as act()
// answers each in turn.
void check_act_batch_equals_act(const std::string& spec);

}  // namespace knightgym
