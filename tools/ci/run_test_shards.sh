#!/usr/bin/env bash
# Runs a test binary of this project (a Catch2 one with tests/cpp/catch_main.cc's --shard)
# in 4 x JOBS shards, JOBS processes at a time, over the test cases that SPEC selects (a
# Catch2 test spec; all of them without one). Prints each failed shard's output and exits
# non-zero if any failed; else one line. The make targets of the sanitizers run their
# tests so, on every core, where one process ran them on one.
#
#   tools/ci/run_test_shards.sh BINARY JOBS [SPEC]
set -euo pipefail

binary=$1
jobs=$2
spec=${3:-}
shards=$((4 * jobs))
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

run_shard() {
  local shard=$1
  if "$binary" --shard "$shard/$shards" ${spec:+"$spec"} > "$logs/$shard.log" 2>&1; then
    echo ok > "$logs/$shard.status"
  else
    echo failed > "$logs/$shard.status"
  fi
}

for ((shard = 1; shard <= shards; ++shard)); do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
  run_shard "$shard" &
done
wait

failed=0
for ((shard = 1; shard <= shards; ++shard)); do
  if [[ $(cat "$logs/$shard.status") != ok ]]; then
    echo "--- $binary, shard $shard/$shards:"
    cat "$logs/$shard.log"
    failed=$((failed + 1))
  fi
done
if ((failed > 0)); then
  echo "$binary: $failed of $shards shards failed" >&2
  exit 1
fi
echo "$binary: all $shards shards passed"
