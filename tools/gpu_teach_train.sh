#!/usr/bin/env bash
# A game taught by its recipe's teacher on a GPU machine (the device tool's: PyTorch with
# CUDA in its python3, 16 cores, reaching no index), in one call of a few minutes; the
# shipped Knightmate network's recipe (GAME knightmate) has Fairy-Stockfish teach:
#   1. builds the knightgym CLI against that PyTorch's LibTorch;
#   2. has the teacher of the recipe, env/games/<game>/recipes/RECIPE.teach (RECIPE: by
#      default the game's name), make its data on every core (SEED; stopped after
#      TEACH_SECONDS, if set, by SIGTERM with whole shards written);
#   3. trains one network per arm of ARMS ("HEAD:SEED ...", policy_head and seed) on that
#      data at once on the GPU with the recipe's settings, RECIPE.txt beside it,
#      supervised only, each for TRAIN_MINUTES or, if STEPS is set, that many steps (the
#      held-out agreement with the teacher in each run's metrics.csv);
#   4. writes the logs, the GPU's load and a summary to OUT, and each arm's model,
#      metrics and config in OUT/runs.tar.gz.
# CARRIED holds what the machine lacks: eigen/ (Debian's Eigen as a prefix) and
# bin/fairy-stockfish. Tried on the CPU first with DEVICE=cpu and short times.
#   tools/gpu_teach_train.sh CARRIED OUT GAME [RECIPE]
set -euo pipefail
usage="usage: tools/gpu_teach_train.sh CARRIED OUT GAME [RECIPE]"
carried=$(realpath "${1:?$usage}")
out=$(realpath "${2:?$usage}")
game=${3:?$usage}
name=${game%%(*}
recipe=env/games/$name/recipes/${4:-$name}
[[ -f $recipe.txt && -f $recipe.teach ]] || { echo "no recipe $recipe.txt and .teach" >&2; exit 1; }
teach_seconds=${TEACH_SECONDS:-0}
train_minutes=${TRAIN_MINUTES:-2}
steps=${STEPS:-0}
arms=${ARMS:-conv:1}
seed=${SEED:-2}
device=${DEVICE:-cuda}
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
limit=()
(( teach_seconds > 0 )) && limit=(timeout -s TERM "$teach_seconds")
status=0
# shellcheck disable=SC2046  # the recipe holds flags, split on purpose
"${limit[@]}" "$build/knightgym" teach "$game" $(grep '^--' "$recipe.teach") \
  --threads "$cores" --seed "$seed" --out "$work/teach" "${again[@]}" \
  > "$out/teach.txt" 2> "$out/teach.log" || status=$?
# 124 and 143: stopped at TEACH_SECONDS, with whole shards written
[[ $status == 0 || $status == 124 || $status == 143 ]] || { log "teach failed ($status)"; exit 1; }
log "teach: $((SECONDS - start)) s, $(tail -1 "$out/teach.log")"
du -sh "$work/teach" | tee -a "$out/summary.txt"

limits=(--minutes "$train_minutes")
(( steps > 0 )) && limits=(--steps "$steps")
pids=()
for arm in $arms; do
  name=${arm%%:*}-seed${arm#*:} run=$work/${arm%%:*}-seed${arm#*:}
  rm -rf "$run"
  { grep -v -e "^#" -e "^policy_head=" "$recipe.txt"; echo "policy_head=${arm%%:*}"
    echo "seed=${arm#*:}"
    echo "teacher=$work/teach"; echo "teacher_steps=1000000000"; } > "$run.txt"
  OMP_NUM_THREADS=2 "$build/knightgym" train "$game" --device "$device" --out "$run" \
    "${limits[@]}" --config "$run.txt" > "$out/$name.log" 2>&1 &
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
names=()
for arm in $arms; do
  name=${arm%%:*}-seed${arm#*:}
  names+=("$name")
  mkdir -p "$out/runs/$name"
  cp "$work/$name"/{model.pt,metrics.csv,config.json} "$out/runs/$name/" 2> /dev/null || true
  log "$name: $(tail -1 "$work/$name/metrics.csv" 2> /dev/null)"
done
head -1 "$work/${names[0]}/metrics.csv" >> "$out/summary.txt" || true
# One file: the device tool brings back only so many.
tar -C "$out" -czf "$out/runs.tar.gz" runs && rm -rf "$out/runs"
exit $failed
