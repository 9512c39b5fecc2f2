#!/usr/bin/env bash
# One generation of expert iteration (tools/lib/generations.sh) for several games at once on
# the device tool's machine: the CLI built there (tools/gpu/build.sh),
# then for each line of PLAN, all at once, the game's shipped network's search teaches its
# child on THREADS threads, SHARD_GAMES games batched per thread, its network on
# TEACHER_DEVICE (default cuda: that machine's processor evaluates small networks five
# times slower than the VM's, docs/benchmarks.md), and the child trains on the CPU for
# MINUTES in all, its teacher included. The gate is left to the machine that goes on
# (GATE_GAMES=0). PLAN's lines, # comments allowed:
#   GAME RECIPE THREADS TEACH_GAMES SHARD_GAMES TEACHER_SIMS TEACHER_STEPS
# Each game's loop folder comes back as OUT/RECIPE.tar.gz with all that going on needs (the
# newest checkpoint, the networks, the metrics, the teacher's settings and CPU seconds;
# not its shards) and its log: unpacked as DIR, `tools/lib/generations.sh GAME DIR/RECIPE
# pretrained 1 MINUTES RECIPE` plays its gate on any machine. Tried on the CPU first with short times.
#   tools/gpu/generations.sh CARRIED OUT PLAN MINUTES
set -euo pipefail
usage="usage: tools/gpu/generations.sh CARRIED OUT PLAN MINUTES"
carried=$(realpath -m "${1:?$usage}")
out=$(realpath -m "${2:?$usage}")
plan=$(realpath "${3:?$usage}")
minutes=${4:?$usage}
build=${BUILD:-build-gpu}
work=${WORK:-/tmp/knightgym-generations}
device=${TEACHER_DEVICE:-cuda}
mkdir -p "$out" "$work"
log() { echo "[$(date +%T)] $*" | tee -a "$out/summary.txt"; }

BUILD=$build tools/gpu/build.sh "$carried" "$out"

pids=() recipes=()
while read -r game recipe threads teach_games shard_games sims steps; do
  [[ -z $game || $game == \#* ]] && continue
  rm -rf "${work:?}/$recipe"
  OMP_NUM_THREADS=1 TEACHER_DEVICE=$device BATCH=$shard_games BUILD=$build THREADS=$threads \
    TEACH_GAMES=$teach_games SHARD_GAMES=$shard_games TEACHER_SIMS=$sims TEACHER_STEPS=$steps \
    GATE_GAMES=0 \
    tools/lib/generations.sh "$game" "$work/$recipe" pretrained 1 "$minutes" "$recipe" \
    > "$work/$recipe.log" 2>&1 &
  pids+=($!) recipes+=("$recipe")
  log "$recipe: $game, teacher az:model=pretrained,sims=$sims,device=$device on $threads threads," \
    "$teach_games games, then $steps steps, $minutes minutes in all"
done < "$plan"
failed=0
for i in "${!pids[@]}"; do wait "${pids[i]}" || { failed=1; log "${recipes[i]} failed"; }; done

for recipe in "${recipes[@]}"; do
  run=$work/$recipe/gen-1
  log "$recipe: teacher $(tr '\r' '\n' < "$run.log" | grep -a '/[0-9]* games, ' | tail -1 || true);" \
    "last row: $(tail -1 "$run/metrics.csv" 2> /dev/null)"
  # The newest checkpoint is the one resuming reads; the older ones and the shards stay.
  newest=$(find "$run/checkpoints" -maxdepth 1 -name '*.ckpt' -printf '%f\n' 2> /dev/null |
    sed 's/\.ckpt$//' | sort | tail -1 || true)
  [[ -z $newest ]] || find "$run/checkpoints" -type f ! -name "$newest.*" -delete
  tar -C "$work" -czf "$out/$recipe.tar.gz" --exclude='*.kgt' "$recipe" "$recipe.log"
done
head -1 "$work/${recipes[0]}/gen-1/metrics.csv" >> "$out/summary.txt" 2> /dev/null || true
exit $failed
