#!/usr/bin/env bash
# The sample-efficiency comparison of docs/training.md: every arm of tools/ab/ (a training
# settings file each) trained on Tailten with seeds 1 and 2, all runs at once so that each
# gets the same share of the machine, for MINUTES of wall time; then one ladder of the
# final networks against fixed agents. Runs already there resume (--resume), so a
# stopped comparison goes on.
#   tools/ab_runs.sh [OUT] [MINUTES] [GAMES]
set -euo pipefail
out=${1:-out/ab}
minutes=${2:-30}
games=${3:-20}
build=${BUILD:-build}
game=tailten
mkdir -p "$out"

pids=()
agents=()
for config in tools/ab/*.txt; do
  arm=$(basename "$config" .txt)
  for seed in 1 2; do
    run="$out/$arm-seed$seed"
    # The processor time of each session of the run, user and system seconds, in RUN.cpu.
    timed=(/usr/bin/time -a -o "$run.cpu" -f "%U %S")
    if [[ -f "$run/config.txt" ]]; then
      "${timed[@]}" "$build/knightgym" train "$game" --out "$run" --minutes "$minutes" --resume \
        > "$run.log" 2>&1 &
    else
      { cat "$config"; echo "seed=$seed"; } > "$out/$arm-seed$seed.txt"
      "${timed[@]}" "$build/knightgym" train "$game" --out "$run" --minutes "$minutes" \
        --config "$out/$arm-seed$seed.txt" > "$run.log" 2>&1 &
    fi
    pids+=($!)
    agents+=("az:model=$run/model.pt,sims=64")
  done
done
for pid in "${pids[@]}"; do wait "$pid"; done

# Every network against each other and the fixed agents: a gauntlet of challengers.
list=$(IFS=,; echo "${agents[*]}")
"$build/knightgym" ladder "$game" --agents "$list,random,mcts:sims=100,mcts:sims=400" \
  --schedule gauntlet --challengers ${#agents[@]} --games "$games" --batch "$games" --seed 1 \
  --json "$out/ladder.json"
