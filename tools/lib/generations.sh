#!/usr/bin/env bash
# Expert iteration's loop (Anthony, Tian and Barber, 2017), a generation at a time: the
# last kept network's search becomes the teacher (knightgym teach --teacher
# az:model=PARENT,sims=TEACHER_SIMS writes its visit distributions and root values), the
# next network starts from the parent's weights, learns those shards (TEACHER_STEPS steps)
# and goes on by its own self-play, all within MINUTES of wall time (tools/lib/taught_run.sh:
# each session's user and system seconds in OUT/gen-K.cpu); then it plays its parent
# (GATE_GAMES games at GATE_SIMS simulations, seeded, seats rotated) and is kept only if it
# scores more than half. A generation not kept leaves the parent in place for the next,
# which is seeded apart. PARENT is a TorchScript network (az:model's file, or `pretrained`:
# the game's shipped one); the training settings are the game's recipe (RECIPE.txt in
# env/games/<game>/recipes/, its teacher lines dropped), whose network size the parent
# must have. OUT/generations.csv holds one row per generation: its parent, its CPU seconds,
# the gate's score and half-width, and whether it was kept; OUT/best.pt is the last kept
# network. Run again, a stopped loop goes on where it stopped (teacher data, training or
# gate); GATE_GAMES=0 stops it after a generation's training, its gate left to a later run
# (on another machine: tools/gpu/generations.sh). TEACH_GAMES, OPENING_PLIES,
# SHARD_GAMES, THREADS, BATCH (games searched together on a thread, one network batch
# per round of simulations) and TEACHER_DEVICE (cpu or cuda) shape the teacher's run.
#   tools/lib/generations.sh GAME OUT PARENT GENERATIONS MINUTES [RECIPE]
set -euo pipefail
shopt -s inherit_errexit
usage="usage: tools/lib/generations.sh GAME OUT PARENT GENERATIONS MINUTES [RECIPE]"
game=${1:?$usage}
out=${2:?$usage}
parent=${3:?$usage}
generations=${4:?$usage}
minutes=${5:?$usage}
name=${game%%(*}
recipe=env/games/$name/recipes/${6:-$name}.txt
[[ -f $recipe ]] || { echo "no recipe $recipe" >&2; exit 1; }
build=${BUILD:-build}
python=${PYTHON:-/usr/bin/python3}
teacher_sims=${TEACHER_SIMS:-400}
teacher_device=${TEACHER_DEVICE:-cpu}
teacher_steps=${TEACHER_STEPS:-2000}
teach_games=${TEACH_GAMES:-1000}
opening_plies=${OPENING_PLIES:-2}
shard_games=${SHARD_GAMES:-64}
threads=${THREADS:-1}
batch=${BATCH:-32}
gate_games=${GATE_GAMES:-200}
gate_sims=${GATE_SIMS:-64}
mkdir -p "$out"
[[ $parent == pretrained ]] || parent=$(realpath "$parent")
[[ -f $out/generations.csv ]] ||
  echo "generation,parent,cpu_seconds,gate_score,gate_half_width,kept" > "$out/generations.csv"

# The score of the first agent of a `knightgym play` JSON, and its half-width.
score_of() {
  "$python" -c "import json, sys
agent = json.load(open(sys.argv[1]))['agents'][0]
print(agent['score'], agent['half_width'])" "$1"
}

for ((k = 1; k <= generations; k++)); do
  run=$out/gen-$k
  # A finished generation: its row is there; its parent was the kept one before it.
  if grep -q "^$k," "$out/generations.csv"; then
    row=$(grep "^$k," "$out/generations.csv")
    [[ ${row##*,} == true ]] && parent=$run/model.pt
    continue
  fi
  { grep '^[^#]' "$recipe" | grep -v -e '^teacher' -e '^init='; echo "init=$parent"; } \
    > "$run.settings"
  # The parent's search on one LibTorch thread per teaching thread.
  { echo "--teacher az:model=$parent,sims=$teacher_sims,threads=1,device=$teacher_device" \
      "--games $teach_games"
    echo "--threads $threads --batch $batch --opening-plies $opening_plies"
    echo "--shard-games $shard_games"
    echo "teacher_steps=$teacher_steps"; } > "$run.teachflags"
  tools/lib/taught_run.sh "$game" "$run" "$minutes" "$run.settings" "$run.teachflags" "$k" \
    > "$run.log" 2>&1
  if ((gate_games == 0)); then
    echo "generation $k trained; its gate is left to a run with GATE_GAMES > 0"
    exit 0
  fi
  [[ -f $run-gate.json ]] ||
    "$build/knightgym" play "$game" \
      --agents "az:model=$run/model.pt,sims=$gate_sims,az:model=$parent,sims=$gate_sims" \
      --games "$gate_games" --batch "$(( gate_games < 50 ? gate_games : 50 ))" --seed "$k" \
      --json "$run-gate.json" > /dev/null
  read -r score half_width <<< "$(score_of "$run-gate.json")"
  cpu=$(awk '{ s += $1 + $2 } END { print s }' "$run.cpu")
  kept=$(awk -v s="$score" 'BEGIN { print (s > 0.5) ? "true" : "false" }')
  echo "$k,$parent,$cpu,$score,$half_width,$kept" >> "$out/generations.csv"
  echo "generation $k: $score +- $half_width against its parent, kept: $kept"
  if [[ $kept == true ]]; then
    parent=$run/model.pt
    cp "$parent" "$out/best.pt.tmp" && mv "$out/best.pt.tmp" "$out/best.pt"
  fi
done
