// A balance run's data: balance.json, every figure. C++ writes only data; balance.md and the
// plots are drawn from this file by knightgym.balance in Python (docs/balance.md).
#pragma once

#include <string>

#include "training/balance/balance.h"

namespace knightgym {

// "double_erase=forced, mirror_on_moves=true", or "default rules" without a sweep.
std::string rule_set_label(const RuleSet& rules);

std::string balance_json(const BalanceResult& result);

// Writes DIR/balance.json (creating DIR) atomically.
void write_balance_json(const std::string& directory, const BalanceResult& result);

// DIR/balance.progress: where a run writing into DIR keeps its progress, kept beside
// balance.json once it is written, so that --resume with more games extends the run
// (progress_file.h).
std::string progress_path(const std::string& directory);

// Throws std::invalid_argument where DIR holds a finished run without its progress
// (balance.json alone, as runs wrote before they kept it): it cannot be extended, and a
// result is not written over unless its file is deleted first.
void refuse_a_finished_run(const std::string& directory);

}  // namespace knightgym
