#!/usr/bin/env bash
# One training run that may learn from a teacher first, on a budget of MINUTES of wall time
# in all. With TEACH (a file of `knightgym teach` flags and a teacher_steps=N line, #
# comments allowed) the teacher's data is made first, in RUN.teach, and the run then trains
# (teacher=RUN.teach and teacher_steps=N added to SETTINGS) for what is left of MINUTES, so
# that runs with and without a teacher have the same time (a teacher that leaves nothing is
# an error). The settings used are RUN.txt (SETTINGS and seed=SEED), the training minutes
# RUN.minutes, each session's user and system seconds RUN.cpu. Run again, a stopped run
# goes on where it stopped (teacher data or training).
#   tools/lib/taught_run.sh GAME RUN MINUTES SETTINGS [TEACH] [SEED]
set -euo pipefail
usage="usage: tools/lib/taught_run.sh GAME RUN MINUTES SETTINGS [TEACH] [SEED]"
game=${1:?$usage}
run=${2:?$usage}
minutes=${3:?$usage}
settings=${4:?$usage}
teach=${5:-}
seed=${6:-0}
build=${BUILD:-build}
# RUN.cpu: one line of user and system seconds a session (-q: no line about its exit status)
timed=(/usr/bin/time -q -a -o "$run.cpu" -f "%U %S")
awk -v m="$minutes" 'BEGIN { exit !(m ~ /^[0-9]*\.?[0-9]+$/ && m > 0) }' ||
  { echo "MINUTES must be a number above 0, not '$minutes'" >&2; exit 1; }
[[ -z $teach || -f $teach ]] || { echo "no teacher file $teach" >&2; exit 1; }

if [[ -f "$run/config.json" ]]; then
  # RUN.minutes: the training's share of MINUTES, written when the run started
  exec "${timed[@]}" "$build/knightgym" train "$game" --out "$run" \
    --minutes "$(cat "$run.minutes" 2> /dev/null || echo "$minutes")" --resume
fi
{ cat "$settings"; echo "seed=$seed"; } > "$run.txt"
train_minutes=$minutes
if [[ -n "$teach" ]]; then
  start=$(date +%s.%N)
  again=()
  # a teach run, or one per rule set (teach --rules)
  [[ -f "$run.teach/teach.txt" || -f "$run.teach/rules-000/teach.txt" ]] && again=(--resume)
  # shellcheck disable=SC2046  # the file holds flags, split on purpose
  "${timed[@]}" "$build/knightgym" teach "$game" $(grep '^--' "$teach") --seed "$seed" \
    --out "$run.teach" "${again[@]}"
  train_minutes=$(awk -v m="$minutes" -v a="$start" -v b="$(date +%s.%N)" \
    'BEGIN { print m - (b - a) / 60 }')
  awk -v m="$train_minutes" 'BEGIN { exit !(m > 0) }' ||
    { echo "the teacher's data took all of the $minutes minutes: none is left to train" >&2
      exit 1; }
  { echo "teacher=$run.teach"; grep '^teacher_steps=' "$teach"; } >> "$run.txt"
fi
echo "$train_minutes" > "$run.minutes"
exec "${timed[@]}" "$build/knightgym" train "$game" --out "$run" --minutes "$train_minutes" \
  --config "$run.txt"
