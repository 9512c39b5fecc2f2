#!/usr/bin/env bash
# An A/B comparison at equal wall time: every arm of the folder ARMS (ARM.txt: training
# settings; ARM.teach, where there is one: the teacher's `knightgym teach` flags and
# teacher_steps) trained on GAME with seeds 1 and 2, all runs at once so that each gets the
# same share of the machine for MINUTES of wall time (tools/lib/taught_run.sh: an arm with
# a teacher makes its data first and trains for what is left; each session's user and
# system seconds are in RUN.cpu). Then one gauntlet of the final networks at 64
# simulations against fixed agents (FIELD), and each network against mcts:sims=800 unless
# TARGET_GAMES is 0 (tools/lib/compare_arms_report.py prints the table). Where games are
# costly, APART=1 plays each network against the field alone (RUN-ladder.json, to be
# merged with the field's round robin: python -m knightgym.ladder merge). A stopped
# comparison goes on: runs and matches already there are resumed or kept.
#   tools/lib/compare_arms.sh ARMS GAME OUT [MINUTES] [LADDER_GAMES] [TARGET_GAMES]
set -euo pipefail
usage="usage: tools/lib/compare_arms.sh ARMS GAME OUT [MINUTES] [LADDER_GAMES] [TARGET_GAMES]"
arms=${1:?$usage}
game=${2:?$usage}
out=${3:?$usage}
minutes=${4:-30}
ladder=${5:-20}
target=${6:-200}
build=${BUILD:-build}
field=${FIELD:-random,mcts:sims=100,mcts:sims=400,mcts:sims=800}
[[ -d $arms ]] || { echo "no folder of arms $arms" >&2; exit 1; }
compgen -G "$arms/*.txt" > /dev/null || { echo "no arms (ARM.txt) in $arms" >&2; exit 1; }
mkdir -p "$out"

pids=()
logs=()
agents=()
for config in "$arms"/*.txt; do
  arm=$(basename "$config" .txt)
  for seed in 1 2; do
    teach=()
    [[ -f "$arms/$arm.teach" ]] && teach=("$arms/$arm.teach")
    tools/lib/taught_run.sh "$game" "$out/$arm-seed$seed" "$minutes" "$config" "${teach[@]:-}" \
      "$seed" > "$out/$arm-seed$seed.log" 2>&1 &
    pids+=($!)
    logs+=("$out/$arm-seed$seed.log")
    agents+=("az:model=$out/$arm-seed$seed/model.pt,sims=64")
  done
done
failed=0
for i in "${!pids[@]}"; do  # every run waited for; each that failed named, with its last line
  wait "${pids[i]}" || { echo "${logs[i]}: $(tail -n 1 "${logs[i]}")" >&2; failed=1; }
done
(( failed == 0 )) || exit 1

if [[ -n ${APART:-} ]]; then  # each network against the field alone: RUN-ladder.json
  for agent in "${agents[@]}"; do
    run=$(dirname "${agent#az:model=}")
    [[ -f "$run-ladder.json" ]] ||
      "$build/knightgym" ladder "$game" --agents "$agent,$field" --schedule gauntlet \
        --challengers 1 --games "$ladder" --batch "$ladder" --seed 1 --json "$run-ladder.json" \
        > /dev/null
  done
else
  list=$(IFS=,; echo "${agents[*]}")
  [[ -f "$out/ladder.json" ]] ||
    "$build/knightgym" ladder "$game" --agents "$list,$field" \
      --schedule gauntlet --challengers ${#agents[@]} --games "$ladder" --batch "$ladder" \
      --seed 1 --json "$out/ladder.json"
fi
(( target > 0 )) || exit 0
for agent in "${agents[@]}"; do
  run=$(dirname "${agent#az:model=}")
  [[ -f "$run-target.json" ]] ||
    "$build/knightgym" play "$game" --agents "$agent,mcts:sims=800" --games "$target" \
      --batch "$(( target < 50 ? target : 50 ))" --seed 1 --json "$run-target.json"
done
