// Training config files (training/trainer/train_config.h): whatever read_train_config
// accepts has a canonical text that reads back to itself.
#include <stdexcept>

#include "tests/fuzz/fuzz_checks.h"
#include "training/trainer/train_config.h"

using namespace knightgym;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TrainConfig config;
  try {
    config = read_train_config(TrainingDefaults{}, fuzz::text_of(data, size));
  } catch (const std::invalid_argument&) {
    return 0;
  }
  fuzz::require(read_train_config(TrainingDefaults{}, config.spec).spec == config.spec,
                "the canonical settings do not read back:\n", config.spec);
  return 0;
}
