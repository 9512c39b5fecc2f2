#!/usr/bin/env bash
# The balance report's runs played by networks, on the device tool's GPU machine: the CLI
# built there against its PyTorch (tools/gpu/build.sh), then each line of PLAN in order,
# `tools/reports/balance_report.py run --device cuda` with that line's batch and threads, until
# SECONDS (counted from the start, the build included) have passed. The networks evaluate
# on the GPU, many games batched per thread: that machine's processor evaluates small
# networks five times slower than the VM's (docs/benchmarks.md).
# What was played comes back as OUT/balance.tar.gz: finished results, and the progress of
# a run cut short (saved as its time ran out; it goes on only on a GPU), with OUT/log.txt.
# Unpacked into out/balance here, `tools/reports/balance_report.py summarize` takes it into the
# report. PLAN's lines, # comments allowed:
#   NAME BATCH THREADS
# Tried on the CPU first with DEVICE=cpu, BUILD=build and a short SECONDS.
#   tools/gpu/balance.sh CARRIED OUT PLAN SECONDS
set -euo pipefail
usage="usage: tools/gpu/balance.sh CARRIED OUT PLAN SECONDS"
carried=$(realpath -m "${1:?$usage}")
out=$(realpath -m "${2:?$usage}")
plan=$(realpath "${3:?$usage}")
seconds=${4:?$usage}
build=${BUILD:-build-gpu}
played=${PLAYED:-/tmp/knightgym-balance}
device=${DEVICE:-cuda}
deadline=$((SECONDS + seconds))
mkdir -p "$out" "$played"
log() { echo "[$(date +%T)] $*" | tee -a "$out/log.txt"; }

BUILD=$build tools/gpu/build.sh "$carried" "$out"
log "build: $SECONDS s"
sampler=
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader -l 10 \
    >> "$out/gpu.csv" 2>&1 &
  sampler=$!
fi

# One network thread per core: OpenMP's own threads crowd the searches' (docs/benchmarks.md).
export OMP_NUM_THREADS=1
status=0
while read -r name batch threads; do
  [[ -z $name || $name == \#* ]] && continue
  left=$((deadline - SECONDS))
  ((left > 30)) || { log "$name: no time left"; continue; }
  log "$name: batch $batch, $threads threads, at most $left s"
  timeout "$left" python3 tools/reports/balance_report.py run --build "$build" --out "$played" \
    --device "$device" --batch "$batch" --threads "$threads" --only "$name" \
    >> "$out/log.txt" 2> "$played/$name.err" || { status=$?; log "$name: stopped ($status)"; }
  # timeout signals the whole group: the CLI saves the games it folded, then exits.
  while pgrep -f -- "--out $played/$name " > /dev/null; do sleep 1; done
  tail -c 300 "$played/$name.err" | tr '\r' '\n' | tail -1 | tee -a "$out/log.txt"
done < "$plan"
[[ -z $sampler ]] || kill "$sampler"
tar -czf "$out/balance.tar.gz" -C "$played" .
log "played: $(cd "$played" && find . -name balance.json | sort | tr '\n' ' ')"
exit "$status"
