// Teacher shards (training/teacher/teacher_shard.h): any bytes are refused with a message
// naming the problem, or read to a shard that writes back to the same bytes.
#include <stdexcept>
#include <string_view>

#include "tests/fuzz/fuzz_checks.h"
#include "training/teacher/teacher_shard.h"

using namespace knightgym;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  TeacherShard shard;
  try {
    shard = decode_shard(bytes, "input");
  } catch (const std::invalid_argument& error) {
    fuzz::require(std::string_view(error.what()).starts_with("input: "),
                  "a refusal that does not name the file: ", error.what());
    return 0;
  }
  fuzz::require(encode_shard(shard) == bytes, "a shard that does not write back to its bytes", "");
  return 0;
}
