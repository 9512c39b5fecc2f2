#!/usr/bin/env bash
# Runs every fuzz target of a KNIGHTGYM_FUZZ build (`make fuzz`): first once over its
# committed regression inputs (tests/fuzz/regressions/NAME), then for SECONDS under
# libFuzzer, from the seed corpus (tests/fuzz/corpus/NAME, read only) into a working
# corpus in the build folder (kept between runs). Prints a table of executions and new
# inputs per target; exits non-zero if any target crashed, naming the input it saved
# (BUILD/fuzz/crashes/), which then goes into tests/fuzz/regressions/NAME. Coverage is
# libFuzzer's count of code edges reached. SEED fixes libFuzzer's random choices, so that
# a run from the same corpus tries the same inputs first (CI's runs differ only in how
# far they get); 0, the default, lets libFuzzer pick a new seed every run. JOBS targets
# (default 1) run at a time, each on a core of its own.
#
#   tools/ci/run_fuzzers.sh BUILD SECONDS [SEED] [JOBS]
set -euo pipefail

build=$1
seconds=$2
seed=${3:-0}
jobs=${4:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$build/fuzz"
mkdir -p "$work/crashes"

# One target: its regression inputs, then SECONDS of fuzzing; its table row in
# $work/NAME.row and, if it failed, its name in $work/NAME.failed.
fuzz_target() {
  local binary=$1 name corpus log regressions status runs added edges result
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
  rm -f "$work/$name.failed"
  if [[ $status -ne 0 ]]; then
    result="FAILED (status $status; $log)"
    echo "$name" > "$work/$name.failed"
  fi
  printf '| %-16s | %11s | %9s | %8s | %s |\n' "$name" "${runs:--}" "${added:--}" \
    "${edges:--}" "$result" > "$work/$name.row"
}

binaries=("$build"/tests/fuzz/*_fuzzer)
for binary in "${binaries[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
  fuzz_target "$binary" &
done
wait

failed=()
rows=()
for binary in "${binaries[@]}"; do
  name=$(basename "$binary" _fuzzer)
  rows+=("$(cat "$work/$name.row")")
  if [[ -f "$work/$name.failed" ]]; then failed+=("$name"); fi
done
printf '\n%s seconds per target, seed %s\n\n| %-16s | %11s | %9s | %8s | %s |\n|---|--:|--:|--:|---|\n' \
  "$seconds" "$seed" target executions "new units" coverage result
printf '%s\n' "${rows[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "crashed: ${failed[*]}; the inputs are in $work/crashes/" >&2
  exit 1
fi
