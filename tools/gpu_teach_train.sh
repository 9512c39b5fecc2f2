#!/usr/bin/env bash
# Knightmate taught by Fairy-Stockfish on a GPU machine (the device tool's: PyTorch with
# CUDA in its python3, 16 cores, reaching no index), in one call of a few minutes:
#   1. builds the knightgym CLI against that PyTorch's LibTorch;
#   2. has Fairy-Stockfish make teacher data on every core for TEACH_SECONDS (knightgym
#      teach, stopped by SIGTERM with whole shards written);
#   3. trains one network per arm of ARMS ("HEAD:SEED ...", policy_head and seed) on that
#      data at once on the GPU, each for TRAIN_MINUTES, supervised only (the held-out
#      agreement with the teacher in each run's metrics.csv);
#   4. copies each arm's model, metrics and settings, the logs and a summary to OUT.
# CARRIED holds what the machine lacks: eigen/ (Debian's Eigen as a prefix) and
# bin/fairy-stockfish. Tried on the CPU first with DEVICE=cpu and short times.
#   tools/gpu_teach_train.sh CARRIED OUT
set -euo pipefail
carried=$(realpath "$1")
out=$(realpath "$2")
teach_seconds=${TEACH_SECONDS:-150}
train_minutes=${TRAIN_MINUTES:-4.5}
arms=${ARMS:-conv:1 conv:2 dense:1 dense:2}
device=${DEVICE:-cuda}
teacher=${TEACHER:-uci:nodes=1000,multipv=4,tie=20}
net=${NET:-blocks=6 channels=64 policy_channels=2}
build=${BUILD:-build-gpu}
work=${WORK:-/tmp/knightgym-gpu}
cores=$(nproc)
mkdir -p "$out" "$work"
export KNIGHTGYM_FAIRY_STOCKFISH=$carried/bin/fairy-stockfish
log() { echo "[$(date +%T)] $*" | tee -a "$out/summary.txt"; }

python=$(command -v python3)
log "$($python -c "import torch; print('torch', torch.__version__, 'cuda', \
torch.cuda.is_available() and torch.cuda.get_device_name(0))"), $cores cores"
start=$SECONDS
[[ -f $build/build.ninja ]] ||
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$python" \
    -DEigen3_DIR="$carried/eigen/share/eigen3/cmake" -DKNIGHTGYM_TESTS=OFF \
    -DKNIGHTGYM_PYTHON=OFF > "$out/build.log"
cmake --build "$build" -j "$cores" --target knightgym_cli >> "$out/build.log"
log "build: $((SECONDS - start)) s"

start=$SECONDS
again=()
[[ -f $work/teach/teach.txt ]] && again=(--resume)
[[ -n ${FRESH_TEACH:-} ]] && { rm -rf "$work/teach"; again=(); }
status=0
timeout -s TERM "$teach_seconds" "$build/knightgym" teach knightmate --teacher "$teacher" \
  --games 1000000 --threads "$cores" --opening-plies 4 --seed 2 --shard-games 64 \
  --out "$work/teach" "${again[@]}" > "$out/teach.txt" 2> "$out/teach.log" || status=$?
# 124: timeout's own code, after the signal stopped the run with whole shards written
[[ $status == 0 || $status == 124 || $status == 143 ]] || { log "teach failed ($status)"; exit 1; }
log "teach: $((SECONDS - start)) s, $(tail -1 "$out/teach.log")"
du -sh "$work/teach" | tee -a "$out/summary.txt"

pids=()
for arm in $arms; do
  head=${arm%%:*} seed=${arm#*:} run=$work/$head-seed$seed
  rm -rf "$run"
  tr ' ' '\n' <<< "$net
policy_head=$head seed=$seed teacher=$work/teach teacher_steps=1000000000
teacher_holdout=0.02 batch=1024 lr=1e-3 eval_games=0 threads=1 log_seconds=20
checkpoint_seconds=60" > "$run.txt"
  OMP_NUM_THREADS=2 "$build/knightgym" train knightmate --device "$device" --out "$run" \
    --minutes "$train_minutes" --config "$run.txt" > "$out/$head-seed$seed.log" 2>&1 &
  pids+=($!)
done
start=$SECONDS
# The GPU's load while they train, every 20 s.
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv -l 20 \
    > "$out/gpu.csv" 2>&1 &
  sampler=$!
fi
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[[ -n ${sampler:-} ]] && kill "$sampler"
log "train: $((SECONDS - start)) s for $arms (failed: $failed)"
for arm in $arms; do
  name=${arm%%:*}-seed${arm#*:}
  mkdir -p "$out/$name"
  cp "$work/$name.txt" "$out/$name/settings.txt"
  cp "$work/$name/model.pt" "$work/$name/metrics.csv" "$out/$name/" 2> /dev/null || true
  log "$name: $(tail -1 "$work/$name/metrics.csv" 2> /dev/null)"
done
tar -C "$out" -czf "$out/runs.tar.gz" $(cd "$out" && ls -d */) && rm -rf "$out"/*/
head -1 "$work/$(set -- $arms; echo "${1%%:*}-seed${1#*:}")/metrics.csv" >> "$out/summary.txt" || true
exit $failed
