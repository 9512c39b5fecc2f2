// A training run's metrics.csv as a resumed run reads it (training/trainer/run_directory.h,
// MetricsLog): the input is the file, its first line the columns, the first column bounded
// by 1,000 as a checkpoint's step bounds it. A refusal names the file and leaves it as it
// was; whatever is accepted keeps the header and the input's first rows, in order, each
// within the bound, and appends after them.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_checks.h"
#include "training/trainer/run_directory.h"
#include "util/atomic_file.h"
#include "util/text.h"

using namespace knightgym;

constexpr int64_t kBound = 1000;  // the step of the checkpoint resumed from

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(fuzz::text_of(data, size));
  const auto [header, rows] = fuzz::first_line(input);
  std::vector<std::string> columns;
  for (const std::string_view cell : split(header, ',')) columns.emplace_back(cell);
  if (columns.empty() || columns.size() > 64) return 0;
  const std::string path = fuzz::scratch_dir() + "/metrics.csv";
  write_file_atomically(path, input);
  const MetricsBounds bounds = {{columns[0], kBound}};
  try {
    MetricsLog log(path, columns, bounds);
    log.append(std::vector<std::string>(columns.size(), "7"));
  } catch (const std::invalid_argument& error) {
    const std::string_view message = error.what();
    fuzz::require(message.starts_with("'" + path + "'"), "a refusal without the file: ", message);
    fuzz::require(read_file(path) == input, "a refusal that changed the file");
    return 0;
  }
  const std::string written = read_file(path).value_or("");
  const auto [kept_header, kept] = fuzz::first_line(written);
  fuzz::require(kept_header == header, "the header changed: ", kept_header);
  // The rows kept are the input's first rows, then the row appended.
  std::string_view from_input = rows, kept_rows = kept;
  while (!kept_rows.empty()) {
    const auto [row, rest] = fuzz::first_line(kept_rows);
    kept_rows = rest;
    if (kept_rows.empty()) {
      fuzz::require(row == join(std::vector<std::string>(columns.size(), "7"), ","),
                    "the appended row is not last: ", row);
      break;
    }
    const auto [original, after] = fuzz::first_line(from_input);
    from_input = after;
    fuzz::require(row == original, "a kept row that is not the input's next: ", row);
    const std::string step(split(row, ',')[0]);
    fuzz::require(std::stoll(step) <= kBound, "a kept row beyond the bound: ", row);
  }
  return 0;
}
