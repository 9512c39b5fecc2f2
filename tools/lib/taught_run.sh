#!/usr/bin/env bash
# One training run that may learn from a teacher first, on a budget of MINUTES of wall time
# in all. With TEACH (a file of `knightgym teach` flags and a teacher_steps=N line, #
# comments allowed) the teacher's data is made first, in RUN.teach, and the run then trains
# (teacher=RUN.teach and teacher_steps=N added to SETTINGS) for what is left of MINUTES, so
# that runs with and without a teacher have the same time. The settings used are RUN.txt
# (SETTINGS and seed=SEED), the training minutes RUN.minutes, each session's user and
# system seconds RUN.cpu. Run again, a stopped run goes on where it stopped (teacher data
# or training).
#   tools/lib/taught_run.sh GAME RUN MINUTES SETTINGS [TEACH] [SEED]
set -euo pipefail
game=${1:?usage: tools/lib/taught_run.sh GAME RUN MINUTES SETTINGS [TEACH] [SEED]}
run=${2:?}
minutes=${3:?}
settings=${4:?}
teach=${5:-}
seed=${6:-0}
build=${BUILD:-build}
timed=(/usr/bin/time -a -o "$run.cpu" -f "%U %S")

if [[ -f "$run/config.json" ]]; then
  # RUN.minutes: the training's share of MINUTES, written when the run started
  exec "${timed[@]}" "$build/knightgym" train "$game" --out "$run" \
    --minutes "$(cat "$run.minutes" 2> /dev/null || echo "$minutes")" --resume
fi
{ cat "$settings"; echo "seed=$seed"; } > "$run.txt"
train_minutes=$minutes
if [[ -n "$teach" ]]; then
  start=$SECONDS
  again=()
  # a teach run, or one per rule set (teach --rules)
  [[ -f "$run.teach/teach.txt" || -f "$run.teach/rules-000/teach.txt" ]] && again=(--resume)
  # shellcheck disable=SC2046  # the file holds flags, split on purpose
  "${timed[@]}" "$build/knightgym" teach "$game" $(grep '^--' "$teach") --seed "$seed" \
    --out "$run.teach" "${again[@]}"
  train_minutes=$(awk -v m="$minutes" -v s=$((SECONDS - start)) 'BEGIN { print m - s / 60 }')
  { echo "teacher=$run.teach"; grep '^teacher_steps=' "$teach"; } >> "$run.txt"
fi
echo "$train_minutes" > "$run.minutes"
exec "${timed[@]}" "$build/knightgym" train "$game" --out "$run" --minutes "$train_minutes" \
  --config "$run.txt"
