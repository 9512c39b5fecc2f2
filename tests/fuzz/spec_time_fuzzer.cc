// How long parse_spec takes: linear in its input. The input is parsed as it is and then
// grown eight-fold: an accepted spec's parameter list repeated with renamed keys (which
// must parse to exactly the repeated list), a refused input repeated. The larger input may
// cost at most kFactor times the smaller's CPU time per byte, or kFloor, whichever is more:
// a generous budget that a linear parser meets even under the sanitizers on a loaded
// machine (CPU time of this thread, the least of several runs, so that waiting for a core
// does not count), and that a quadratic scan over hundreds of parameters or a backtracking
// bracket match misses. Every refusal's message stays short, whatever the input's size.
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "env/core/params.h"
#include "tests/fuzz/fuzz_checks.h"

using namespace knightgym;

namespace {

constexpr int kGrowth = 8;           // the larger input is this many copies of the smaller
constexpr double kFactor = 50;       // allowed growth of the time per byte
constexpr double kFloor = 0.05;      // seconds that any one parse may take regardless
constexpr size_t kMaxMessage = 300;  // characters of a refusal's message

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// Parses `text`, checking the refusal's message, and returns whether it was accepted.
bool parse(const std::string& text, Spec* out = nullptr) {
  try {
    Spec spec = parse_spec(text);
    if (out) *out = std::move(spec);
    return true;
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    fuzz::require(message.size() <= kMaxMessage, "a refusal's message of ",
                  std::to_string(message.size()), " characters: ", message.substr(0, 200));
    return false;
  }
}

// CPU seconds of one parse of `text`: the least over a few runs, each of enough parses to
// be measured (at least 20 microseconds).
double seconds_per_parse(const std::string& text) {
  double best = 1e9;
  for (int run = 0; run < 3; ++run) {
    int parses = 0;
    const double start = cpu_seconds();
    double elapsed = 0;
    do {
      parse(text);
      ++parses;
      elapsed = cpu_seconds() - start;
    } while (elapsed < 20e-6 && parses < 1000);
    best = std::min(best, elapsed / parses);
  }
  return best;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(fuzz::text_of(data, size));
  Spec spec;
  std::string larger;
  if (parse(text, &spec) && !spec.params.empty()) {
    Spec repeated{spec.name, {}};
    for (int copy = 0; copy < kGrowth; ++copy)
      for (const auto& [key, value] : spec.params) {
        std::string renamed = std::to_string(copy);  // (GCC 12 misreads "r" + ... as overlap)
        renamed.insert(renamed.begin(), 'r');
        renamed += '_';
        renamed += key;
        repeated.params.emplace_back(std::move(renamed), value);
      }
    larger = format_spec(repeated);
    Spec read;
    const bool fits = repeated.params.size() <= kMaxSpecParams && larger.size() <= kMaxSpecLength;
    fuzz::require(parse(larger, &read) == fits, "the repeated spec is ",
                  fits ? "refused" : "accepted beyond the bounds", ": ", larger.substr(0, 200));
    if (fits)
      fuzz::require(read.name == repeated.name && read.params == repeated.params,
                    "the repeated spec reads back otherwise: ", larger.substr(0, 200));
  } else {
    for (int copy = 0; copy < kGrowth; ++copy) larger += text;
  }
  if (text.empty()) return 0;
  const double small = seconds_per_parse(text), large = seconds_per_parse(larger);
  const double budget = std::max(
      kFloor, kFactor * small * static_cast<double>(larger.size()) / static_cast<double>(size));
  if (large > budget)
    fuzz::fail("parse_spec took ", std::to_string(large * 1e6), " us on ",
               std::to_string(larger.size()), " bytes, ", std::to_string(small * 1e6), " us on ",
               std::to_string(size), ": more than linear (budget ", std::to_string(budget * 1e6),
               " us)");
  return 0;
}
