// How long parse_spec takes: linear in its input (fuzz_time.h). The input is parsed as it
// is and then grown eight-fold: an accepted spec's parameter list repeated with renamed
// keys (which must parse to exactly the repeated list), a refused input repeated. Every
// refusal's message stays short, whatever the input's size.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "env/core/params.h"
#include "tests/fuzz/fuzz_checks.h"
#include "tests/fuzz/fuzz_time.h"

using namespace knightgym;

namespace {

// Parses `text`, checking the refusal's message, and returns whether it was accepted.
bool parse(const std::string& text, Spec* out = nullptr) {
  try {
    Spec spec = parse_spec(text);
    if (out) *out = std::move(spec);
    return true;
  } catch (const std::invalid_argument& error) {
    fuzz::require_short(error.what());
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(fuzz::text_of(data, size));
  Spec spec;
  std::string larger;
  if (parse(text, &spec) && !spec.params.empty()) {
    Spec repeated{spec.name, {}};
    for (int copy = 0; copy < fuzz::kGrowth; ++copy)
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
    for (int copy = 0; copy < fuzz::kGrowth; ++copy) larger += text;
  }
  fuzz::require_linear("parse_spec", text, larger, [](const std::string& t) { parse(t); });
  return 0;
}
