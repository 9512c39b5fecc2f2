// The JSON reader (util/json_reader.h), which reads every structured file of the project:
// any bytes are refused with a short message naming the line and column, or read to a
// value whose one-line text reads back to the same value. Its time is linear
// (fuzz_time.h): an accepted object grown eight-fold with renamed keys (which must read
// back to those members), any other accepted document as an array of eight copies, a
// refused text repeated.
#include <stdexcept>
#include <string>

#include "tests/fuzz/fuzz_checks.h"
#include "tests/fuzz/fuzz_time.h"
#include "util/json_reader.h"
#include "util/json_writer.h"

using namespace knightgym;

namespace {

// Reads `text`, checking a refusal's message; returns whether it was accepted.
bool read(const std::string& text, JsonValue* out = nullptr) {
  try {
    JsonValue value = parse_json(text);
    if (out) *out = std::move(value);
    return true;
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    fuzz::require(message.starts_with("JSON, line "), "a refusal without its line: ", message);
    fuzz::require_short(message);
    return false;
  }
}

// An accepted document eight times over: an object's members under renamed keys, any
// other value as the items of an array.
std::string grown(const JsonValue& value) {
  JsonWriter json;
  const bool object = value.kind() == JsonValue::Kind::kObject;
  object ? json.begin_object() : json.begin_array();
  for (int copy = 0; copy < fuzz::kGrowth; ++copy) {
    if (!object) {
      json.raw(value.text());
      continue;
    }
    for (const auto& [key, member] : value.as_object()) {
      std::string renamed(1, 'r');  // (GCC 12 misreads "r" + ... as overlap)
      renamed += std::to_string(copy);
      renamed += '_';
      renamed += key;
      json.key(renamed).raw(member.text());
    }
  }
  object ? json.end_object() : json.end_array();
  return json.text();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(fuzz::text_of(data, size));
  JsonValue value;
  std::string larger;
  if (read(text, &value)) {
    const std::string line = value.text();
    fuzz::require(line.find('\n') == std::string::npos, "a value's text of several lines");
    JsonValue again;
    fuzz::require(read(line, &again) && again == value,
                  "a value's text does not read back: ", line.substr(0, 200));
    larger = grown(value);
    JsonValue read_larger;
    // Eight copies nest one deeper, which a document at the deepest level may not.
    if (read(larger, &read_larger) && value.kind() == JsonValue::Kind::kObject)
      fuzz::require(read_larger.as_object().size() == fuzz::kGrowth * value.as_object().size(),
                    "the grown object reads back to other members");
  } else {
    for (int copy = 0; copy < fuzz::kGrowth; ++copy) larger += text;
  }
  fuzz::require_linear("parse_json", text, larger, [](const std::string& t) { read(t); });
  return 0;
}
