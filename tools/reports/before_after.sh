#!/bin/bash
# Benchmarks of two builds, interleaved (before, after, before, ...), for a change that
# must not move them (docs/benchmarks.md, "Before and after"): the throughput tables of
# every game, perft, MCTS and AlphaZero search, and balance runs whose balance.json must
# be equal but for their timings. Run it on a quiet machine; it takes about 30 minutes.
#
#   tools/reports/before_after.sh BEFORE_BUILD AFTER_BUILD OUT [ROUNDS]
#
# BEFORE_BUILD and AFTER_BUILD are build folders (each with its knightgym and Python
# module), OUT gets one file per run; ROUNDS (default 5) bench runs per game and binary.
# BALANCE_GAMES (default 400) games per balance run.
set -euo pipefail
usage="usage: tools/reports/before_after.sh BEFORE_BUILD AFTER_BUILD OUT [ROUNDS]"
before=$(realpath "${1:?$usage}")/knightgym
after=$(realpath "${2:?$usage}")/knightgym
out=${3:?$usage}
rounds=${4:-5}
[[ $rounds =~ ^[1-9][0-9]*$ ]] ||
  { echo "ROUNDS must be a whole number above 0, not '$rounds'" >&2; exit 1; }
for binary in "$before" "$after"; do
  [[ -x $binary ]] || { echo "no $binary: give build folders" >&2; exit 1; }
done
mkdir -p "$out"
games=$("$after" list --names)
for round in $(seq "$rounds"); do
  for game in $games; do
    for side in before after; do
      binary=$before; [ "$side" = after ] && binary=$after
      "$binary" bench "$game" --steps 2000000 --repeat 3 --python /usr/bin/python3 \
        > "$out/bench_${side}_${game}_$round.txt" 2>&1
    done
  done
done
for round in 1 2; do
  "$before" perft-bench > "$out/perft_before_$round.txt" 2>&1
  "$after" perft-bench > "$out/perft_after_$round.txt" 2>&1
done
"$before" search-bench --threads 1 > "$out/search_before.txt" 2>&1
"$after" search-bench --threads 1 > "$out/search_after.txt" 2>&1
for game in $games; do
  for side in before after; do
    binary=$before; [ "$side" = after ] && binary=$after
    rm -rf "$out/balance_${side}_$game"
    "$binary" balance "$game" --agents mcts:sims=16 --games "${BALANCE_GAMES:-400}" \
      --threads 2 --seed 1 --out "$out/balance_${side}_$game" --no-plots > /dev/null
  done
  # Equal but for the timings.
  python3 - "$out/balance_before_$game/balance.json" "$out/balance_after_$game/balance.json" <<'PY'
import json, sys
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k != "seconds"}
    return [strip(v) for v in x] if isinstance(x, list) else x
before, after = (strip(json.load(open(path))) for path in sys.argv[1:])
print(sys.argv[2].split("/")[-2], "equal" if before == after else "DIFFERENT")
PY
done
