#!/usr/bin/env bash
# Runs every fuzz target of a KNIGHTGYM_FUZZ build (`make fuzz`): first once over its
# committed regression inputs (tests/fuzz/regressions/NAME), then for SECONDS under
# libFuzzer, from the seed corpus (tests/fuzz/corpus/NAME, read only) into a working
# corpus in the build folder (kept between runs). Prints a table of executions and new
# inputs per target; exits non-zero if any target crashed, naming the input it saved
# (BUILD/fuzz/crashes/), which then goes into tests/fuzz/regressions/NAME. Coverage is
# libFuzzer's count of code edges reached. SEED fixes libFuzzer's random choices, so that
# a run from the same corpus tries the same inputs first (CI's runs differ only in how
# far they get); 0, the default, lets libFuzzer pick a new seed every run.
#
#   tools/ci/run_fuzzers.sh BUILD SECONDS [SEED]
set -euo pipefail

build=$1
seconds=$2
seed=${3:-0}
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$build/fuzz"
mkdir -p "$work/crashes"
failed=()
rows=()
for binary in "$build"/tests/fuzz/*_fuzzer; do
  name=$(basename "$binary" _fuzzer)
  corpus="$work/corpus/$name"
  log="$work/$name.log"
  mkdir -p "$corpus"
  regressions=("$root/tests/fuzz/regressions/$name"/*)
  status=0
  if [[ -e "${regressions[0]}" ]]; then
    "$binary" -runs=0 "${regressions[@]}" > "$log" 2>&1 || status=$?
  fi
  if [[ $status -eq 0 ]]; then
    "$binary" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -max_len=4096 \
      -print_final_stats=1 -seed="$seed" -artifact_prefix="$work/crashes/$name-" \
      "$corpus" "$root/tests/fuzz/corpus/$name" >> "$log" 2>&1 || status=$?
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  added=$(grep -o 'stat::new_units_added: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  edges=$(grep -o 'DONE *cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  result=ok
  if [[ $status -ne 0 ]]; then
    result="FAILED (status $status; $log)"
    failed+=("$name")
  fi
  rows+=("$(printf '| %-16s | %11s | %9s | %8s | %s |' "$name" "${runs:--}" "${added:--}" \
    "${edges:--}" "$result")")
done
printf '\n%s seconds per target, seed %s\n\n| %-16s | %11s | %9s | %8s | %s |\n|---|--:|--:|--:|---|\n' \
  "$seconds" "$seed" target executions "new units" coverage result
printf '%s\n' "${rows[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "crashed: ${failed[*]}; the inputs are in $work/crashes/" >&2
  exit 1
fi
