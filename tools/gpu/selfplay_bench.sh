#!/usr/bin/env bash
# Issue 57's measurements in one call, for a lent GPU (about 15 minutes, so nothing here
# waits on a person): builds the knightgym CLI against the machine's PyTorch
# (tools/gpu/build.sh), then measures
#   - the forward pass of a 6 x 64 network for the first GAME at batches up to 4,096, in
#     each precision (search-bench; OUT/forward-PRECISION.md),
#   - self-play with each GAME's shipped network (every game's without GAMEs) on T threads
#     of B games each, in the device's half precision (selfplay-bench; OUT/selfplay.md and
#     OUT/selfplay.json),
#   - on CUDA, the GPU's utilisation as nvidia-smi samples it every 200 ms during the
#     self-play rows (OUT/utilization.csv),
# and names the device (OUT/device.txt). Issue 57's forward pass is Knightmate's:
#   tools/gpu/selfplay_bench.sh CARRIED OUT cuda knightmate knight_fight tailten double_duel
# Try it on the CPU first, on a build already made:
#   BUILD=build SECONDS_PER_CELL=0.2 tools/gpu/selfplay_bench.sh CARRIED OUT cpu tailten
#   tools/gpu/selfplay_bench.sh CARRIED OUT [cuda|cpu] [GAME...]
# THREADS and BATCH override the thread counts and the games per thread (defaults: on CUDA
# 1,4,8,16 threads of 256 games; on the CPU 1,2 threads of each game's self-play games).
set -euo pipefail
usage="usage: tools/gpu/selfplay_bench.sh CARRIED OUT [cuda|cpu] [GAME...]"
carried=$(realpath -m "${1:?$usage}")
out=$(realpath -m "${2:?$usage}")
device=${3:-cuda}
[[ $device == cuda || $device == cpu ]] || { echo "$usage" >&2; exit 2; }
games=("${@:4}")
build=${BUILD:-build-gpu}
seconds=${SECONDS_PER_CELL:-3}
mkdir -p "$out"
BUILD=$build tools/gpu/build.sh "$carried" "$out"
cli=$build/knightgym

if [[ $device == cuda ]]; then
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/device.txt"
  threads=${THREADS:-1,4,8,16}
  batch=(--batch "${BATCH:-256}")
  precisions="float32 float16 bfloat16"
  half=float16
else
  lscpu | sed -n 's/^Model name: *//p' > "$out/device.txt"
  threads=${THREADS:-1,2}
  batch=()
  precisions="float32 bfloat16"
  half=bfloat16
  [[ -n ${BATCH:-} ]] && batch=(--batch "$BATCH")
fi

for precision in $precisions; do
  [[ ${#games[@]} -gt 0 ]] || break
  "$cli" search-bench "${games[0]}" --device "$device" --precision "$precision" --blocks 6 \
    --channels 64 --batch 256,1024,4096 --threads 1 --seconds 1 --repeat 1 \
    > "$out/forward-$precision.md"
done

sampler=
if [[ $device == cuda ]]; then
  nvidia-smi --query-gpu=timestamp,utilization.gpu --format=csv,noheader,nounits -lms 200 \
    > "$out/utilization.csv" &
  sampler=$!
fi
"$cli" selfplay-bench "${games[@]}" --device "$device" --precision "$half" --threads "$threads" \
  "${batch[@]}" --seconds "$seconds" --repeat 3 --json "$out/selfplay.json" > "$out/selfplay.md"
[[ -n $sampler ]] && kill "$sampler"
cat "$out/device.txt" "$out"/forward-*.md "$out/selfplay.md" 2> /dev/null
