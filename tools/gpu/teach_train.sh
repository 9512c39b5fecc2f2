#!/usr/bin/env bash
# A game taught by its recipe's teacher on a GPU machine (the device tool's: PyTorch with
# CUDA in its python3, 16 cores, reaching no index), in phases, run in the order PHASES
# names them (default: build bench teach train eval), in one call of a few minutes or
# over several (their state stays in WORK, on the machine while it is held):
#   build  the knightgym CLI against that PyTorch's LibTorch;
#   teach  the teacher of the recipe, env/games/<game>/recipes/RECIPE.teach (RECIPE: by
#          default the game's name), makes its data on every core (SEED; TEACH_GAMES in
#          place of the recipe's --games; stopped after TEACH_SECONDS, if set, by SIGTERM
#          with whole shards written; an earlier call's data is resumed);
#   train  one network per arm of ARMS ("HEAD:SEED[:BLOCKSxCHANNELS] ...": policy_head,
#          seed and the network's size, else the recipe's) on that data at once on the GPU
#          with the recipe's settings, RECIPE.txt beside it, supervised only, each for
#          TRAIN_MINUTES or, if STEPS is set, that many steps; each run keeps the network
#          of its lowest held-out loss (teacher_best.pt, trainer.h);
#   eval   each arm's teacher_best.pt, searching SIMS simulations on the GPU, against each
#          opponent of OPPONENTS (agent specs), EVAL_GAMES games each, all at once, each
#          match stopped after EVAL_SECONDS;
#   bench  search-bench on the GPU (evaluations/s) at BENCH_BATCHES for the first arm's
#          network size, and SELFPLAY_SECONDS of self-play with SELFPLAY_GAMES games at
#          once (positions/s in its metrics.csv) by the first arm's network once trained,
#          else a fresh one of its size;
# and writes the logs, the GPU's load and a summary to OUT, each arm's networks, metrics
# and config in OUT/runs.tar.gz, the matches' JSON in OUT/eval.tar.gz.
# CARRIED holds what the machine lacks: eigen/ (Debian's Eigen as a prefix) and
# bin/fairy-stockfish. Tried on the CPU first with DEVICE=cpu and short times.
#   tools/gpu/teach_train.sh CARRIED OUT GAME [RECIPE]
# shellcheck disable=SC2317  # the phase_* functions run by name, from PHASES (at the end)
set -euo pipefail
usage="usage: tools/gpu/teach_train.sh CARRIED OUT GAME [RECIPE]"
carried=$(realpath -m "${1:?$usage}")
out=$(realpath -m "${2:?$usage}")
game=${3:?$usage}
name=${game%%(*}
recipe=env/games/$name/recipes/${4:-$name}
[[ -f $recipe.txt && -f $recipe.teach ]] || { echo "no recipe $recipe.txt and .teach" >&2; exit 1; }
phases=${PHASES:-build bench teach train eval}
teach_seconds=${TEACH_SECONDS:-0}
train_minutes=${TRAIN_MINUTES:-2}
steps=${STEPS:-0}
arms=${ARMS:-conv:1}
seed=${SEED:-3}
sims=${SIMS:-256}
opponents=${OPPONENTS:-uci:nodes=10 uci:nodes=100}
eval_games=${EVAL_GAMES:-200}
eval_seconds=${EVAL_SECONDS:-150}
bench_batches=${BENCH_BATCHES:-64,256,1024,4096}
selfplay_seconds=${SELFPLAY_SECONDS:-30}
selfplay_games=${SELFPLAY_GAMES:-1024}
device=${DEVICE:-cuda}
build=${BUILD:-build-gpu}
work=${WORK:-/tmp/knightgym-gpu}
cores=$(nproc)
mkdir -p "$out" "$work"
export KNIGHTGYM_FAIRY_STOCKFISH=$carried/bin/fairy-stockfish
log() { echo "[$(date +%T)] $*" | tee -a "$out/summary.txt"; }
# An arm's run folder's name, and its settings beyond the recipe's, one per line.
arm_name() {
  local head seed size
  IFS=: read -r head seed size <<< "$1"
  echo "$head${size:+-$size}-seed$seed"
}
arm_settings() {
  local head seed size
  IFS=: read -r head seed size <<< "$1"
  echo "policy_head=$head"
  echo "seed=$seed"
  [[ -z $size ]] || printf 'blocks=%s\nchannels=%s\n' "${size%x*}" "${size#*x}"
}
# The settings of FILE (key=value lines) with those of SETTINGS in place of its own.
settings_over() {
  # shellcheck disable=SC2046  # one -e ^KEY= per key of SETTINGS
  grep -v -e "^#" $(sed 's/=.*//; s/^/-e ^/; s/$/=/' <<< "$2") "$1"
  echo "$2"
}
# The GPU's load every 5 s while a phase runs on it.
sample_gpu() {
  command -v nvidia-smi > /dev/null || return 0
  nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader -l 5 \
    >> "$out/gpu.csv" 2>&1 &
  sampler=$!
}
stop_sampling() { [[ -z ${sampler:-} ]] || kill "$sampler"; sampler=; }

# The first arm's settings over the recipe's.
first_arm_settings() { settings_over "$recipe.txt" "$(arm_settings "${arms%% *}")"; }

phase_build() {
  local start=$SECONDS
  BUILD=$build tools/gpu/build.sh "$carried" "$out"
  log "build: $((SECONDS - start)) s"
}

phase_teach() {
  local start=$SECONDS again=() limit=() flags status=0
  [[ -f $work/teach/teach.txt ]] && again=(--resume)
  [[ -n ${FRESH_TEACH:-} ]] && { rm -rf "$work/teach"; again=(); }
  (( teach_seconds > 0 )) && limit=(timeout -s TERM "$teach_seconds")
  read -ra flags <<< "$(grep '^--' "$recipe.teach")"
  for i in "${!flags[@]}"; do  # the recipe's --games gives way to TEACH_GAMES
    [[ ${flags[i]} == --games && -n ${TEACH_GAMES:-} ]] && flags[i + 1]=$TEACH_GAMES
  done
  "${limit[@]}" "$build/knightgym" teach "$game" "${flags[@]}" \
    --threads "$cores" --seed "$seed" --out "$work/teach" "${again[@]}" \
    > "$out/teach.txt" 2> "$out/teach.log" || status=$?
  # 124 and 143: stopped at TEACH_SECONDS, with whole shards written
  [[ $status == 0 || $status == 124 || $status == 143 ]] || { log "teach failed ($status)"; exit 1; }
  log "teach: $((SECONDS - start)) s, $(tail -1 "$out/teach.log" | tr '\r' '\n' | tail -1)"
  log "teacher data: $(du -sh "$work/teach" | cut -f1), $(find "$work/teach" -name '*.kgt' | wc -l) shards"
}

phase_train() {
  local limits=(--minutes "$train_minutes") pids=() start name run first
  (( steps > 0 )) && limits=(--steps "$steps")
  for arm in $arms; do
    run=$work/$(arm_name "$arm")
    rm -rf "$run"
    settings_over "$recipe.txt" "$(arm_settings "$arm")
teacher=$work/teach
teacher_steps=1000000000" > "$run.txt"
    OMP_NUM_THREADS=2 "$build/knightgym" train "$game" --device "$device" --out "$run" \
      "${limits[@]}" --config "$run.txt" > "$out/$(arm_name "$arm").log" 2>&1 &
    pids+=($!)
  done
  start=$SECONDS
  sample_gpu
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  stop_sampling
  log "train: $((SECONDS - start)) s for $arms (failed: $failed)"
  mkdir -p "$out/runs"
  for arm in $arms; do
    name=$(arm_name "$arm")
    mkdir -p "$out/runs/$name"
    cp "$work/$name"/{model.pt,teacher_best.pt,metrics.csv,config.json} "$out/runs/$name/" \
      2> /dev/null || true
    log "$name: $(tail -1 "$work/$name/metrics.csv" 2> /dev/null)"
  done
  first=$(arm_name "${arms%% *}")
  head -1 "$work/$first/metrics.csv" >> "$out/summary.txt" || true
  # One file: the device tool brings back only so many.
  tar -C "$out" -czf "$out/runs.tar.gz" runs && rm -rf "$out/runs"
}

phase_eval() {
  local start=$SECONDS pids=() model match
  mkdir -p "$out/eval"
  for arm in $arms; do
    model=$work/$(arm_name "$arm")/teacher_best.pt
    [[ -f $model ]] || model=${model%/*}/model.pt  # no games held out
    for opponent in $opponents; do
      match=$(arm_name "$arm")-vs-${opponent//[:=,]/-}
      timeout -s TERM "$eval_seconds" "$build/knightgym" play "$game" \
        --agents "az:model=$model,sims=$sims,device=$device,$opponent" --games "$eval_games" \
        --batch "$eval_games" --seed 1 --json "$out/eval/$match.json" \
        > "$out/eval/$match.log" 2>&1 &
      pids+=($!)
    done
  done
  sample_gpu
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  stop_sampling
  log "eval: $((SECONDS - start)) s (failed or stopped: $failed)"
  for result in "$out"/eval/*.json; do
    [[ -f $result ]] || continue
    log "$(basename "$result" .json): $($python -c "import json, sys
r = json.load(open(sys.argv[1]))['agents'][0]
print(f\"{100 * r['score']:.1f}% +- {100 * r['half_width']:.1f}% of {r['games']} \"
      f\"({r['wins']}-{r['draws']}-{r['losses']})\")" "$result")"
  done
  tar -C "$out" -czf "$out/eval.tar.gz" eval && rm -rf "$out/eval"
}

phase_bench() {
  local settings blocks channels start=$SECONDS run model init=
  settings=$(first_arm_settings)
  blocks=$(sed -n 's/^blocks=//p' <<< "$settings")
  channels=$(sed -n 's/^channels=//p' <<< "$settings")
  "$build/knightgym" search-bench "$game" --device "$device" --blocks "$blocks" \
    --channels "$channels" --batch "$bench_batches" --threads 1 --seconds 1 --repeat 2 \
    > "$out/search-bench.md" 2>&1 || failed=1
  log "search-bench: $((SECONDS - start)) s"
  cat "$out/search-bench.md" >> "$out/summary.txt"
  start=$SECONDS
  run=$work/$(arm_name "${arms%% *}")
  model=$run/teacher_best.pt
  [[ -f $model ]] || model=$run/model.pt
  [[ -f $model ]] && init="
init=$model"
  rm -rf "$work/selfplay"
  settings_over <(grep -v "^teacher" <<< "$settings") "games=$selfplay_games
log_seconds=5
eval_games=0$init" > "$work/selfplay.txt"
  sample_gpu
  OMP_NUM_THREADS=2 "$build/knightgym" train "$game" --device "$device" --out "$work/selfplay" \
    --minutes "$(awk "BEGIN {print $selfplay_seconds / 60}")" --config "$work/selfplay.txt" \
    > "$out/selfplay.log" 2>&1 || failed=1
  stop_sampling
  log "self-play, $selfplay_games games at once${init:+ (trained network)}: $((SECONDS - start)) s"
  cp "$work/selfplay/metrics.csv" "$out/selfplay-metrics.csv" 2> /dev/null || true
}

python=$(command -v python3)
log "$($python -c "import torch; print('torch', torch.__version__, 'cuda', \
torch.cuda.is_available() and torch.cuda.get_device_name(0))" || true), $cores cores, phases: $phases"
failed=0
for phase in $phases; do
  declare -F "phase_$phase" > /dev/null || { log "no phase $phase"; exit 1; }
  "phase_$phase"
done
exit $failed
