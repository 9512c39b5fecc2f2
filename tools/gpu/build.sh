#!/usr/bin/env bash
# The knightgym CLI built on a GPU machine (the device tool's: PyTorch with CUDA in its
# python3, reaching no index) against that PyTorch's LibTorch, into BUILD (build-gpu), on
# every core; the log goes to OUT/build.log. CARRIED/eigen holds Debian's Eigen as a prefix.
#   tools/gpu/build.sh CARRIED OUT
set -euo pipefail
usage="usage: tools/gpu/build.sh CARRIED OUT"
carried=$(realpath -m "${1:?$usage}")
out=$(realpath -m "${2:?$usage}")
build=${BUILD:-build-gpu}
mkdir -p "$out"
[[ -f $build/build.ninja ]] ||
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPython_EXECUTABLE="$(command -v python3)" \
    -DEigen3_DIR="$carried/eigen/share/eigen3/cmake" -DKNIGHTGYM_TESTS=OFF \
    -DKNIGHTGYM_PYTHON=OFF -DKNIGHTGYM_WERROR=OFF > "$out/build.log"
cmake --build "$build" -j "$(nproc)" --target knightgym_cli >> "$out/build.log"
