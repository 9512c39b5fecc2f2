#!/usr/bin/env bash
# The checks and runs for a lent GPU machine (the device tool's: PyTorch with CUDA in its
# python3, 16 cores, no network), as phases run in the order given, in one call or over
# several calls (their state stays in WORK while the machine is held):
#
#   tools/gpu/run.sh [--dry-run] CARRIED OUT PHASE [PHASE ...]
#   tools/gpu/run.sh --help
#
# CARRIED holds what the machine lacks: eigen/ (Debian's Eigen as a prefix), bin/fairy-
# stockfish (for the teacher and matches phases) and wheels/ (the pure-Python packages, for the
# check phase). OUT is what comes back: summary.txt (each phase's log and results), the
# phases' archives (*.tar.gz) and details.tar.gz (every other file: logs, tables, the GPU's
# load). --dry-run prints the commands that the phases would run and runs none; it needs no
# GPU. Each phase builds what it needs first (a build made earlier is only brought up to
# date), then:
#
#   build           builds the knightgym CLI into BUILD against that PyTorch's LibTorch
#   check           builds the Python modules too, runs the tests that need LibTorch, then
#                   tools/gpu/sb3_cuda.py GAME (MaskablePPO on CUDA against a network's search)
#   selfplay-bench  checks the shipped networks in each precision (network-check), times the
#                   forward pass of a 6 x 64 network for the first of GAMES in each precision
#                   (search-bench), then self-play of GAMES (selfplay-bench)
#   teach-bench     times search at the first arm's network size, then SELFPLAY_SECONDS of
#                   self-play by its network (a fresh one before the train phase)
#   teach           the teacher of GAME's recipe makes its data on every core
#   train           trains one network per arm of ARMS on that data at once, supervised only
#   matches         plays each arm's best network against each agent of OPPONENTS
#   teach-train     teach-bench, teach, train and matches, in that order
#   generations     one generation of `knightgym iterate` per line of GENERATIONS_PLAN, all
#                   at once, each gate left to a later run elsewhere
#   balance         the balance report's runs of BALANCE_PLAN, played by networks on the GPU,
#                   in order, until BALANCE_SECONDS have passed
#
# The settings, environment variables (default after the =):
#   every phase     BUILD=build-gpu WORK=/tmp/knightgym-gpu PYTHON=python3
#                   DEVICE=cuda (cpu: a phase tried on the CPU first, with short times)
#   check           GAME
#   selfplay-bench  GAMES= (every game, and no forward pass) SECONDS_PER_CELL=3
#                   THREADS=1,4,8,16 (on the CPU 1,2) BATCH=256 (on the CPU each game's)
#   teach-bench, teach, train, matches
#                   GAME RECIPE=<GAME's name> (env/games/<game>/recipes/RECIPE.txt, .teach)
#                   ARMS=conv:1 ("HEAD:SEED[:BLOCKSxCHANNELS] ...": policy head, seed, and
#                   the network's size, else the recipe's)
#   teach-bench     BENCH_BATCHES=64,256,1024,4096 SELFPLAY_SECONDS=30 SELFPLAY_GAMES=1024
#   teach           SEED=3 TEACH_GAMES= (the recipe's --games) TEACH_SECONDS=0 (no limit;
#                   else stopped then, with whole shards written) FRESH_TEACH= (1: afresh,
#                   else an earlier call's data is resumed)
#   train           TRAIN_MINUTES=2, or STEPS (that many steps instead)
#   matches         SIMS=256 OPPONENTS="uci:nodes=10 uci:nodes=100" MATCH_GAMES=200
#                   MATCH_SECONDS=150 (each match stopped then)
#   generations     GENERATIONS_PLAN (lines: GAME RECIPE THREADS TEACH_GAMES SHARD_GAMES
#                   TEACHER_SIMS TEACHER_STEPS) GENERATIONS_MINUTES (each line's in all)
#                   TEACHER_DEVICE=DEVICE TRAIN_DEVICE=cpu
#   balance         BALANCE_PLAN (lines: NAME BATCH THREADS) BALANCE_SECONDS (the phase's
#                   time, its build included)
#
# For example (tools/gpu/README.md says more):
#   GAME=tailten tools/gpu/run.sh .device "$OUT" check
#   GAME=knightmate FRESH_TEACH=1 STEPS=4547 tools/gpu/run.sh .device "$OUT" teach train
#   GAMES=tailten DEVICE=cpu BUILD=build SECONDS_PER_CELL=0.2 \
#     tools/gpu/run.sh .device out/gpu selfplay-bench
# shellcheck disable=SC2317  # the phase_* functions run by name, from the phases asked for
# shellcheck disable=SC2154  # work, out, python, carried, device, cores, failed: set by lib.sh
set -euo pipefail
shopt -s inherit_errexit
# What the phases share. (shellcheck follows it where both files are checked together, as
# `make lint` and `shellcheck tools/gpu/*.sh` do.)
# shellcheck source=tools/gpu/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

phase_names=(build check selfplay-bench teach-bench teach train matches teach-train generations
  balance)

# The settings of each phase (the help above lists them); checked in check_settings.
game=${GAME:-}
recipe=env/games/${game%%(*}/recipes/${RECIPE:-${game%%(*}}
read -ra games <<< "${GAMES:-}"
seconds_per_cell=${SECONDS_PER_CELL:-3}
arms=${ARMS:-conv:1}
bench_batches=${BENCH_BATCHES:-64,256,1024,4096}
selfplay_seconds=${SELFPLAY_SECONDS:-30}
selfplay_games=${SELFPLAY_GAMES:-1024}
seed=${SEED:-3}
teach_games=${TEACH_GAMES:-}
teach_seconds=${TEACH_SECONDS:-0}
fresh_teach=${FRESH_TEACH:-}
train_minutes=${TRAIN_MINUTES:-2}
steps=${STEPS:-0}
sims=${SIMS:-256}
opponents=${OPPONENTS:-uci:nodes=10 uci:nodes=100}
match_games=${MATCH_GAMES:-200}
match_seconds=${MATCH_SECONDS:-150}
generations_plan=${GENERATIONS_PLAN:-}
generations_minutes=${GENERATIONS_MINUTES:-}
train_device=${TRAIN_DEVICE:-cpu}
balance_plan=${BALANCE_PLAN:-}
balance_seconds=${BALANCE_SECONDS:-}

# --- build and check ---

phase_build() {
  build_targets knightgym_cli
}

# The carried wheels go to a folder of their own on PYTHONPATH: the machine's python3 is
# itself a virtual environment's, which a nested one would not see. Each pytest worker gets
# one OpenMP thread: eight workers with torch's default threads each did not end in 8
# minutes on the H100 (docs/api.md).
phase_check() {
  local packages=$work/packages tests=$out/check-tests.log line
  run "$python" -m pip install -q --no-index --no-deps --target "$packages" \
    "$carried"/wheels/*.whl || die "check: the carried wheels did not install"
  export PYTHONPATH=$packages${PYTHONPATH:+:$PYTHONPATH}
  build_targets _knightgym _knightgym_torch knightgym_cli
  local tested=(env OMP_NUM_THREADS=1 "PYTHONPATH=$build/python:$PYTHONPATH" "$python")
  run -a "$tests" -e "$tests" "${tested[@]}" -m pytest tests/python -q -p no:cacheprovider \
    -n 8 -m needs_networks || fail "check: a test that needs networks failed"
  log "tests that need networks: $(last_line "$tests")"
  run -a "$tests" -e "$tests" "${tested[@]}" -m pytest tests/python/test_sb3.py \
    tests/python/test_env_copies.py -q -p no:cacheprovider -n 8 \
    -k "native or maskable or square or copy or snapshot" || fail "check: an SB3 test failed"
  log "SB3 and copies tests: $(last_line "$tests")"
  line=$(run -e "$out/sb3_cuda.log" "${tested[@]}" tools/gpu/sb3_cuda.py "$game") ||
    fail "check: tools/gpu/sb3_cuda.py failed (OUT/sb3_cuda.log)"
  log "$line"
}

# --- selfplay-bench ---

# The shipped networks checked against float32 on the CPU in each precision the device has
# (float16 is refused on the CPU), with CUDA graphs where the build has them; the forward
# pass in each precision, and on CUDA in half precision without graphs too; then self-play in
# that half precision, the GPU's load sampled every 200 ms.
phase_selfplay_bench() {
  local cli=$build/knightgym threads batch=() precisions half eager=() precision variant
  build_targets knightgym_cli
  if [[ $device == cuda ]]; then
    run -o "$out/device.txt" nvidia-smi --query-gpu=name,driver_version,memory.total \
      --format=csv,noheader || fail "selfplay-bench: nvidia-smi failed"
    threads=${THREADS:-1,4,8,16}
    batch=(--batch "${BATCH:-256}")
    precisions=(float32 float16 bfloat16)
    half=float16
    eager=("$half --no-cuda-graphs")
  else
    lscpu | sed -n 's/^Model name: *//p' | write "$out/device.txt"
    threads=${THREADS:-1,2}
    [[ -z ${BATCH:-} ]] || batch=(--batch "$BATCH")
    precisions=(float32 bfloat16)
    half=bfloat16
  fi
  for precision in "${precisions[@]}"; do
    run -o "$out/check-$precision.md" "$cli" network-check --device "$device" \
      --precision "$precision" ||
      fail "selfplay-bench: a network in $precision answers beyond rounding (OUT/check-$precision.md)"
  done
  if ((${#games[@]})); then
    for precision in "${precisions[@]}" "${eager[@]}"; do
      read -ra variant <<< "$precision"
      run -o "$out/forward-${precision// /}.md" "$cli" search-bench "${games[0]}" \
        --device "$device" --precision "${variant[@]}" --blocks 6 --channels 64 \
        --batch 256,1024,4096 --threads 1 --seconds 1 --repeat 1 ||
        fail "selfplay-bench: search-bench in $precision failed"
    done
  fi
  sample_gpu selfplay-bench 200
  run -o "$out/selfplay.md" "$cli" selfplay-bench "${games[@]}" --device "$device" \
    --precision "$half" --threads "$threads" "${batch[@]}" --seconds "$seconds_per_cell" \
    --repeat 3 --json "$out/selfplay.json" || fail "selfplay-bench: selfplay-bench failed"
  stop_sampling
  log_files "$out/device.txt" "$out"/check-*.md "$out"/forward-*.md "$out/selfplay.md"
}

# --- teach-bench, teach, train, matches: a game taught by its recipe's teacher ---

# An arm's run folder's name, and its settings beyond the recipe's, one a line.
arm_name() {
  local head seed size
  IFS=: read -r head seed size <<< "$1"
  echo "$head${size:+-$size}-seed$seed"
}
arm_settings() {
  local head seed size
  IFS=: read -r head seed size <<< "$1"
  echo "policy_head=$head"
  echo "seed=$seed"
  [[ -z $size ]] || printf 'blocks=%s\nchannels=%s\n' "${size%x*}" "${size#*x}"
}

# The settings of FILE (key=value lines) with those of SETTINGS in place of its own.
settings_over() {
  # shellcheck disable=SC2046  # one -e ^KEY= per key of SETTINGS
  grep -v -e "^#" $(sed 's/=.*//; s/^/-e ^/; s/$/=/' <<< "$2") "$1"
  echo "$2"
}

# The network an arm's run keeps: the one of its lowest held-out loss, else its last (no
# games held out, or not trained yet: then a path that is not there).
arm_network() {
  local run
  run=$work/$(arm_name "$1")
  if [[ -f $run/teacher_best.pt ]] || ((dry_run)); then
    echo "$run/teacher_best.pt"
  else
    echo "$run/model.pt"
  fi
}

# search-bench on DEVICE at the first arm's size, then self-play there by the first arm's
# network once trained, else a fresh one of its size, SELFPLAY_GAMES games at once
# (positions/s in OUT/selfplay-metrics.csv).
phase_teach_bench() {
  local settings blocks channels model init='' first=${arms%% *}
  build_targets knightgym_cli
  settings=$(settings_over "$recipe.txt" "$(arm_settings "$first")")
  blocks=$(sed -n 's/^blocks=//p' <<< "$settings")
  channels=$(sed -n 's/^channels=//p' <<< "$settings")
  run -o "$out/search-bench.md" -e "$out/search-bench.md" "$build/knightgym" search-bench \
    "$game" --device "$device" --blocks "$blocks" --channels "$channels" \
    --batch "$bench_batches" --threads 1 --seconds 1 --repeat 2 ||
    fail "teach-bench: search-bench failed"
  log_files "$out/search-bench.md"
  model=$(arm_network "$first")
  [[ -f $model ]] && init=$'\n'"init=$model"
  run rm -rf "$work/selfplay"
  settings_over <(grep -v "^teacher" <<< "$settings") "games=$selfplay_games
log_seconds=5
match_games=0$init" | write "$work/selfplay.txt"
  sample_gpu teach-bench 5000
  run -o "$out/selfplay.log" -e "$out/selfplay.log" env OMP_NUM_THREADS=2 "$build/knightgym" \
    train "$game" --device "$device" --out "$work/selfplay" \
    --minutes "$(awk "BEGIN { print $selfplay_seconds / 60 }")" --config "$work/selfplay.txt" ||
    fail "teach-bench: self-play failed"
  stop_sampling
  log "self-play, $selfplay_games games at once${init:+ (trained network)}: $(last_line \
    "$work/selfplay/metrics.csv")"
  [[ ! -f $work/selfplay/metrics.csv ]] || cp "$work/selfplay/metrics.csv" \
    "$out/selfplay-metrics.csv"
}

# The recipe's teacher (RECIPE.teach's flag lines, TEACH_GAMES in place of its --games) on
# every core, into WORK/teach; exit status 124 or 143 is TEACH_SECONDS's stop.
phase_teach() {
  local start=$SECONDS again=() limit=() flags i status=0
  build_targets knightgym_cli
  if [[ -n $fresh_teach ]]; then
    run rm -rf "$work/teach"
  elif [[ -f $work/teach/teach.txt ]]; then
    again=(--resume)
  fi
  ((teach_seconds > 0)) && limit=(timeout -s TERM "$teach_seconds")
  read -ra flags <<< "$(grep '^--' "$recipe.teach" | tr '\n' ' ')"
  for i in "${!flags[@]}"; do
    [[ ${flags[i]} == --games && -n $teach_games ]] && flags[i + 1]=$teach_games
  done
  run -o "$out/teach.txt" -e "$out/teach.log" "${limit[@]}" "$build/knightgym" teach "$game" \
    "${flags[@]}" --threads "$cores" --seed "$seed" --out "$work/teach" "${again[@]}" ||
    status=$?
  [[ $status == 0 || $status == 124 || $status == 143 ]] || die "teach failed ($status)"
  log "teach: $((SECONDS - start)) s, $(last_line "$out/teach.log")"
  ((dry_run)) || log "teacher data: $(du -sh "$work/teach" | cut -f1)," \
    "$(find "$work/teach" -name '*.kgt' | wc -l) shards"
}

# One network per arm on the teacher's data, all at once on DEVICE, each for TRAIN_MINUTES
# or STEPS; each run keeps the network of its lowest held-out loss (teacher_best.pt). Each
# arm's networks, metrics and settings come back in OUT/runs.tar.gz.
phase_train() {
  local limits=(--minutes "$train_minutes") pids=() arm name start i
  build_targets knightgym_cli
  ((steps > 0)) && limits=(--steps "$steps")
  for arm in $arms; do
    name=$(arm_name "$arm")
    run rm -rf "$work/$name"
    settings_over "$recipe.txt" "$(arm_settings "$arm")
teacher=$work/teach
teacher_steps=1000000000" | write "$work/$name.txt"
    run -b -o "$out/$name.log" -e "$out/$name.log" env OMP_NUM_THREADS=2 "$build/knightgym" \
      train "$game" --device "$device" --out "$work/$name" "${limits[@]}" \
      --config "$work/$name.txt"
    pids+=("$pid")
  done
  start=$SECONDS
  sample_gpu train 5000
  for i in "${!pids[@]}"; do wait_for "${pids[i]}" || fail "train: an arm failed"; done
  stop_sampling
  log "train: $((SECONDS - start)) s for $arms"
  for arm in $arms; do
    name=$(arm_name "$arm")
    run mkdir -p "$out/runs/$name"
    run cp "$work/$name"/{model.pt,teacher_best.pt,metrics.csv,config.json} \
      "$out/runs/$name/" 2> /dev/null || true
    log "$name: $(last_line "$work/$name/metrics.csv")"
  done
  ((dry_run)) || log "columns: $(head -1 "$work/$(arm_name "${arms%% *}")/metrics.csv" || true)"
  # One file: the device tool brings back only so many.
  run tar -C "$out" -czf "$out/runs.tar.gz" runs && run rm -rf "$out/runs"
}

# Each arm's network searching SIMS simulations on DEVICE against each opponent, all at
# once, each match stopped after MATCH_SECONDS; the matches' JSON in OUT/matches.tar.gz.
phase_matches() {
  local start=$SECONDS pids=() arm opponent match result i
  build_targets knightgym_cli
  run mkdir -p "$out/matches"
  for arm in $arms; do
    for opponent in $opponents; do
      match=$(arm_name "$arm")-vs-${opponent//[:=,]/-}
      run -b -o "$out/matches/$match.log" -e "$out/matches/$match.log" timeout -s TERM \
        "$match_seconds" "$build/knightgym" play "$game" \
        --agents "az:model=$(arm_network "$arm"),sims=$sims,device=$device,$opponent" \
        --games "$match_games" --batch "$match_games" --seed 1 --json "$out/matches/$match.json"
      pids+=("$pid")
    done
  done
  sample_gpu matches 5000
  for i in "${!pids[@]}"; do wait_for "${pids[i]}" || fail "matches: a match failed or stopped"; done
  stop_sampling
  log "matches: $((SECONDS - start)) s"
  for result in "$out"/matches/*.json; do
    [[ -f $result ]] || continue
    log "$(basename "$result" .json): $("$python" -c "import json, sys
r = json.load(open(sys.argv[1]))['agents'][0]
print(f\"{100 * r['score']:.1f}% +- {100 * r['half_width']:.1f}% of {r['games']} \"
      f\"({r['wins']}-{r['draws']}-{r['losses']})\")" "$result")"
  done
  run tar -C "$out" -czf "$out/matches.tar.gz" matches && run rm -rf "$out/matches"
}

# --- generations ---

# One generation of expert iteration per line of GENERATIONS_PLAN, all at once: the game's
# shipped network's search teaches its child (`knightgym iterate`) on THREADS threads,
# SHARD_GAMES games batched per thread, its network on TEACHER_DEVICE (the machine's
# processor evaluates small networks five times slower than the VM's, docs/benchmarks.md),
# and the child trains on TRAIN_DEVICE for GENERATIONS_MINUTES in all, its teacher
# included. The gate is left to a machine that goes on (--gate-games 0). Each line's
# folder comes back as OUT/RECIPE.tar.gz with what going on needs (its newest checkpoint,
# the networks, the metrics, the settings; not the teacher's shards) and its log.
# The teacher's last line of progress ("N/M games, ...") in a log of `knightgym iterate`.
teacher_progress() {
  [[ -f $1 ]] || return 0
  tr '\r' '\n' < "$1" | grep -a '/[0-9]* games, ' | tail -1 || true
}

phase_generations() {
  local spec recipe_name threads games_taught shard_games teacher_sims teacher_steps
  local dir=$work/generations pids=() names=() i generation newest iterate
  local teacher_device=${TEACHER_DEVICE:-$device}
  build_targets knightgym_cli
  run mkdir -p "$dir"
  while read -r spec recipe_name threads games_taught shard_games teacher_sims teacher_steps; do
    [[ -z $spec || $spec == \#* ]] && continue
    run rm -rf "${dir:?}/$recipe_name"
    iterate=("$build/knightgym" iterate "$spec" --out "$dir/$recipe_name" --parent pretrained
      --generations 1 --minutes "$generations_minutes"
      --config "env/games/${spec%%(*}/recipes/$recipe_name.txt" --teacher-sims "$teacher_sims"
      --teacher-steps "$teacher_steps" --teach-games "$games_taught"
      --shard-games "$shard_games" --threads "$threads" --batch "$shard_games"
      --teacher-device "$teacher_device" --device "$train_device")
    run -b -o "$dir/$recipe_name.log" -e "$dir/$recipe_name.log" env OMP_NUM_THREADS=1 \
      "${iterate[@]}" --gate-games 0
    pids+=("$pid") names+=("$recipe_name")
    log "$recipe_name: $spec, teacher" \
      "az:model=pretrained,sims=$teacher_sims,device=$teacher_device on $threads threads," \
      "$games_taught games, then $teacher_steps steps on $train_device," \
      "$generations_minutes minutes in all; its gate, with the archive unpacked into DIR:" \
      "$(quote "${iterate[@]/#$dir/DIR}") --resume"
  done < "$generations_plan"
  for i in "${!pids[@]}"; do wait_for "${pids[i]}" || fail "${names[i]} failed"; done
  for recipe_name in "${names[@]}"; do
    generation=$dir/$recipe_name/gen-1
    log "$recipe_name: teacher $(teacher_progress "$dir/$recipe_name.log"); last row:" \
      "$(last_line "$generation/train/metrics.csv")"
    # Resuming reads the newest checkpoint: the older ones stay behind, as do the shards.
    newest=$(find "$generation/train/checkpoints" -maxdepth 1 -name '*.ckpt' -printf '%f\n' \
      2> /dev/null | sed 's/\.ckpt$//' | sort | tail -1 || true)
    [[ -z $newest ]] ||
      run find "$generation/train/checkpoints" -type f ! -name "$newest.*" -delete
    run tar -C "$dir" -czf "$out/$recipe_name.tar.gz" --exclude='*.kgt' "$recipe_name" \
      "$recipe_name.log"
  done
  ((dry_run)) || log "columns: $(head -1 "$dir/${names[0]}/gen-1/train/metrics.csv" || true)"
}

# --- balance ---

# The balance report's runs of BALANCE_PLAN, in order, each `balance_report.py run` with
# its line's batch and threads and the networks on DEVICE, until BALANCE_SECONDS (counted
# from the phase's start, its build included) have passed; one network thread per core,
# as OpenMP's own threads crowd the searches' (docs/benchmarks.md). What was played comes
# back as OUT/balance.tar.gz: finished results, and the progress of a run cut short (saved
# as its time ran out; it goes on only on a GPU).
phase_balance() {
  local deadline=$((SECONDS + balance_seconds)) played=$work/balance name batch threads
  local left status
  build_targets knightgym_cli
  run mkdir -p "$played"
  sample_gpu balance 10000
  while read -r name batch threads; do
    [[ -z $name || $name == \#* ]] && continue
    left=$((deadline - SECONDS))
    ((left > 30)) || { log "$name: no time left" && continue; }
    log "$name: batch $batch, $threads threads, at most $left s"
    status=0
    run -a "$out/balance.log" -e "$played/$name.err" timeout "$left" env OMP_NUM_THREADS=1 \
      "$python" tools/reports/balance_report.py run --build "$build" --out "$played" \
      --device "$device" --batch "$batch" --threads "$threads" --only "$name" || status=$?
    ((status == 0)) || fail "$name: stopped ($status)"
    # timeout signals the whole group: the CLI saves the games it folded, then exits.
    while ! ((dry_run)) && pgrep -f -- "--out $played/$name " > /dev/null; do sleep 1; done
    log "$name: $(last_line "$played/$name.err")"
  done < "$balance_plan"
  stop_sampling
  run tar -czf "$out/balance.tar.gz" -C "$played" .
  ((dry_run)) || log "played: $(cd "$played" && find . -name balance.json | sort | tr '\n' ' ')"
}

# --- the call ---

# Each phase's settings, checked before anything runs, so that a mistake costs no device
# time.
check_settings() {
  local phase fields
  for phase; do
    case $phase in
      check)
        [[ -n $game ]] || usage_error "the check phase needs GAME"
        ;;
      teach-bench | teach | train | matches)
        [[ -n $game ]] || usage_error "the $phase phase needs GAME"
        [[ -f $recipe.txt && -f $recipe.teach ]] ||
          usage_error "the $phase phase finds no recipe $recipe.txt and .teach"
        ;;
      generations)
        [[ -n $generations_minutes ]] || usage_error "the generations phase needs" \
          "GENERATIONS_MINUTES"
        [[ -f $generations_plan ]] || usage_error "the generations phase needs" \
          "GENERATIONS_PLAN, a file ('$generations_plan' is none)"
        while read -ra fields; do
          [[ ${#fields[@]} == 0 || ${fields[0]} == \#* ]] && continue
          [[ ${#fields[@]} == 7 ]] ||
            usage_error "$generations_plan: '${fields[*]}' is not 7 fields"
          [[ -f env/games/${fields[0]%%(*}/recipes/${fields[1]}.txt ]] || usage_error \
            "$generations_plan: no recipe env/games/${fields[0]%%(*}/recipes/${fields[1]}.txt"
        done < "$generations_plan"
        ;;
      balance)
        [[ $balance_seconds =~ ^[0-9]+$ ]] || usage_error "the balance phase needs" \
          "BALANCE_SECONDS, a whole number"
        [[ -f $balance_plan ]] || usage_error "the balance phase needs BALANCE_PLAN, a" \
          "file ('$balance_plan' is none)"
        while read -ra fields; do
          [[ ${#fields[@]} == 0 || ${fields[0]} == \#* || ${#fields[@]} == 3 ]] ||
            usage_error "$balance_plan: '${fields[*]}' is not 3 fields"
        done < "$balance_plan"
        ;;
    esac
  done
}

case ${1:-} in
  -h | --help)
    show_help
    exit 0
    ;;
  --dry-run)
    dry_run=1
    shift
    ;;
esac
if (($# < 3)); then
  show_help >&2
  exit 2
fi
phases=()
for phase in "${@:3}"; do
  known=0
  for name in "${phase_names[@]}"; do [[ $phase == "$name" ]] && known=1; done
  ((known)) || usage_error "no phase '$phase'; the phases are: ${phase_names[*]}"
  if [[ $phase == teach-train ]]; then
    phases+=(teach-bench teach train matches)
  else
    phases+=("$phase")
  fi
done
# The paths given are taken from where the script was called; it then works in the
# repository's root (where the device tool calls it), as its commands name the
# repository's files from there.
[[ -z $generations_plan ]] || generations_plan=$(realpath -m "$generations_plan")
[[ -z $balance_plan ]] || balance_plan=$(realpath -m "$balance_plan")
gpu_setup "$1" "$2"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
check_settings "${phases[@]}"
gpu_start "${phases[@]}"
for phase in "${phases[@]}"; do
  start=$SECONDS
  log "--- $phase"
  "phase_${phase//-/_}"
  log "--- $phase: $((SECONDS - start)) s"
done
exit "$failed"
