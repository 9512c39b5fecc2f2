// Teacher shards (training/teacher/teacher_shard.h): any bytes are refused with a message
// naming the problem, or read to a shard that writes back to the same bytes (one of an
// older format writes as the current one, which reads back to the same shard).
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
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
  const std::string written = encode_shard(shard);
  uint32_t format = 0;
  std::memcpy(&format, data + 8, sizeof format);  // after the magic, as decode read it
  if (format == kTeacherShardFormat)
    fuzz::require(written == bytes, "a shard that does not write back to its bytes", "");
  else
    fuzz::require(encode_shard(decode_shard(written, "rewritten")) == written,
                  "an older shard that does not read back as the current format", "");
  return 0;
}
