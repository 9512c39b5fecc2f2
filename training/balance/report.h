// A balance run's files: balance.json (every figure) and balance.md (the tables).
#pragma once

#include <string>

#include "training/balance/balance.h"

namespace knightgym {

// "double_erase=forced, mirror_on_moves=true", or "default rules" without a sweep.
std::string rule_set_label(const RuleSet& rules);

std::string balance_json(const BalanceResult& result);
std::string balance_markdown(const BalanceResult& result);

// Writes DIR/balance.json and DIR/balance.md (creating DIR), each atomically.
void write_balance_files(const std::string& directory, const BalanceResult& result);

}  // namespace knightgym
