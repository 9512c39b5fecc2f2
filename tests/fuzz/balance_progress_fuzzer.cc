// A balance run's progress and tallies (training/balance/progress_file.h, tally.h), which
// `knightgym balance --resume` reads back: the input's first line is the run's identity
// (the options a progress file must match), the rest the file. Whatever is refused is
// refused with a message naming the file; whatever is read is saved again and reads back
// to the same rule sets, and every line that reads as a tally serializes to a text that
// reads back to the same tally.
#include <stdexcept>
#include <string>

#include "tests/fuzz/fuzz_checks.h"
#include "training/balance/progress_file.h"
#include "training/balance/tally.h"
#include "util/atomic_file.h"
#include "util/json_reader.h"

using namespace knightgym;

namespace {

bool same(const std::vector<SavedRuleSet>& a, const std::vector<SavedRuleSet>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].chunks_done != b[i].chunks_done || a[i].seconds != b[i].seconds ||
        !(a[i].tally == b[i].tally))
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto [identity, file] = fuzz::first_line(fuzz::text_of(data, size));
  std::string_view lines = file;
  while (!lines.empty()) {
    const auto [line, rest] = fuzz::first_line(lines);
    lines = rest;
    try {
      const RuleSetTally tally = RuleSetTally::parse(line);
      fuzz::require(RuleSetTally::parse(tally.serialize()) == tally,
                    "a tally that does not read back: ", tally.serialize().substr(0, 200));
    } catch (const std::invalid_argument&) {
    }
  }
  const std::string path = fuzz::scratch_dir() + "/balance.progress";
  write_file_atomically(path, std::string(file));
  SavedProgress saved;
  try {
    saved = load_progress(path, std::string(identity));
  } catch (const std::invalid_argument& error) {
    fuzz::require(std::string_view(error.what()).starts_with(path + ": "),
                  "a refusal that does not name the file: ", error.what());
    return 0;
  }
  // A run's identity is JSON (progress_identity); a file of text format 1 may hold
  // any line, which cannot be saved as JSON.
  try {
    parse_json(identity);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  save_progress(path, std::string(identity), saved);
  const SavedProgress again = load_progress(path, std::string(identity));
  fuzz::require(same(again.rule_sets, saved.rule_sets) && again.games == saved.games &&
                    again.tuned_blocks == saved.tuned_blocks,
                "the progress saved again reads back otherwise");
  return 0;
}
