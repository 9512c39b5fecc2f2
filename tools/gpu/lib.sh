#!/usr/bin/env bash
# What the phases of tools/gpu/run.sh share, sourced by it: the settings every phase reads,
# the summary log, running a command (or, in a dry run, printing it instead), the one build
# recipe, the GPU's load sampled while a phase runs, and OUT packed for the trip back.
# Sourcing it runs nothing; run.sh calls gpu_setup, then gpu_start.

# Set to 1 by run.sh's --dry-run: every command is then printed, none is run, nothing is
# written.
dry_run=0

# The help: the comment block at the top of the script that sources this file, without its
# '#' marks (and without shellcheck's directives).
show_help() {
  sed -n '2,/^[^#]/ { /^# shellcheck/d; /^#/ { s/^# \{0,1\}//; p } }' "$0"
}

# A mistake in the call: what is wrong, then how to ask for the help; exit status 2.
usage_error() {
  echo "${0##*/}: $*" >&2
  echo "${0##*/} --help lists the phases and their settings." >&2
  exit 2
}

# The settings every phase reads, from the arguments CARRIED and OUT and the environment:
#   carried  what the machine lacks (eigen/, bin/fairy-stockfish, wheels/);
#   out      the folder that comes back;
#   build    BUILD, the build folder (default build-gpu);
#   work     WORK, where the phases keep their state while the machine is held;
#   device   DEVICE, cuda (the default) or cpu, to try a phase on the CPU first;
#   python   PYTHON, the machine's python3, whose PyTorch the build links;
#   cores    the machine's cores, all of which the build and the teacher use;
#   failed   1 once a step failed that the phases go on after (run.sh's exit status).
# Nothing is written here, so that a mistake found after it costs nothing.
gpu_setup() {
  carried=$(realpath -m "$1")
  out=$(realpath -m "$2")
  build=${BUILD:-build-gpu}
  work=$(realpath -m "${WORK:-/tmp/knightgym-gpu}")
  device=${DEVICE:-cuda}
  python=${PYTHON:-$(command -v python3 || echo python3)}
  cores=$(nproc)
  failed=0
  built=" "
  sampler=
  [[ $device == cuda || $device == cpu ]] || usage_error "DEVICE is cuda or cpu, not '$device'"
  # A dry run prints its commands here, on the output that run.sh was given, whatever a
  # command's own output would have been redirected to.
  exec 3>&1
}

# The start of the phases: OUT and WORK made, OUT packed whatever way the script ends (a
# SIGTERM from the device tool's time limit included), and the machine described.
gpu_start() {
  if ((dry_run)); then
    log "a dry run of: $*; nothing runs"
    return
  fi
  mkdir -p "$out" "$work"
  trap 'exit 143' TERM
  trap gpu_finish EXIT
  export KNIGHTGYM_FAIRY_STOCKFISH=$carried/bin/fairy-stockfish
  log "$("$python" -c "import sys, numpy, torch
gpu = torch.cuda.is_available() and torch.cuda.get_device_name(0)
print('python', sys.version.split()[0], 'torch', torch.__version__, 'numpy',
      numpy.__version__, 'cuda', gpu)" 2> /dev/null || echo "$python without torch"),\
 $cores cores; phases: $*"
}

gpu_finish() {
  stop_sampling
  pack_out || true
}

# A line of the summary, OUT/summary.txt, with the time, also on the output. In a dry run a
# comment among the printed commands.
log() {
  if ((dry_run)); then
    echo "# $*" >&3
  else
    echo "[$(date +%T)] $*" | tee -a "$out/summary.txt"
  fi
}

# A step that failed without stopping the phases: logged, and the exit status made 1.
fail() {
  log "$*"
  # shellcheck disable=SC2034  # read by run.sh: its exit status
  failed=1
}

# A step that the phases cannot go on after: logged, then exit status 1.
die() {
  log "$*"
  exit 1
}

# Each FILE appended to the summary as it is, and shown on the output.
log_files() {
  ((dry_run)) && return
  local file
  for file; do
    [[ -f $file ]] && tee -a "$out/summary.txt" < "$file"
  done
  return 0
}

# The last line of FILE as a terminal would show it (a progress bar's carriage returns
# taken as line ends); nothing where there is no FILE, as in a dry run.
last_line() {
  [[ -f $1 ]] || return 0
  tr '\r' '\n' < "$1" | grep -av '^$' | tail -1 || true
}

# Its arguments as one line that a shell reads back as the same words: plain words bare,
# the others in single quotes.
quote() {
  local word words=() plain='^[A-Za-z0-9_./:=,+@%-]+$'
  for word; do
    if [[ $word =~ $plain ]]; then
      words+=("$word")
    else
      words+=("'${word//\'/\'\\\'\'}'")
    fi
  done
  echo "${words[*]}"
}

# run [-o FILE | -a FILE] [-e FILE] [-b] COMMAND [ARG ...]
# COMMAND run with its output written to FILE (-o: afresh, -a: added at the end) and its
# errors to the -e FILE (the same FILE as -o or -a: both into it), in the background with
# -b (its process id then in $pid, for wait_for). In a dry run the command is printed, with
# its redirections, and not run. Environment settings go in as `env NAME=VALUE COMMAND`,
# so that the dry run shows them.
run() {
  local stdout='' append=0 stderr='' background=0 shown
  while (($#)); do
    case $1 in
      -o) stdout=$2 && shift 2 ;;
      -a) stdout=$2 append=1 && shift 2 ;;
      -e) stderr=$2 && shift 2 ;;
      -b) background=1 && shift ;;
      *) break ;;
    esac
  done
  if ((dry_run)); then
    shown=$(quote "$@")
    if [[ -n $stdout ]]; then
      shown+=" $( ((append)) && echo '>>' || echo '>') $(quote "$stdout")"
    fi
    if [[ -n $stderr && $stderr == "$stdout" ]]; then
      shown+=" 2>&1"
    elif [[ -n $stderr ]]; then
      shown+=" 2> $(quote "$stderr")"
    fi
    ((background)) && shown+=" &"
    echo "$shown" >&3
    pid=
    return 0
  fi
  if ((background)); then
    # In the background the function runs in a process of its own, which exec replaces
    # with the command: $! is then the command's own process id.
    redirect_and_exec "$stdout" "$append" "$stderr" "$@" &
    pid=$!
  else
    (redirect_and_exec "$stdout" "$append" "$stderr" "$@")
  fi
}

# run's last step, always in a process of its own.
redirect_and_exec() {
  local stdout=$1 append=$2 stderr=$3
  shift 3
  if [[ -n $stdout ]] && ((append)); then
    exec >> "$stdout"
  elif [[ -n $stdout ]]; then
    exec > "$stdout"
  fi
  if [[ -n $stderr && $stderr == "$stdout" ]]; then
    exec 2>&1
  elif [[ -n $stderr ]]; then
    exec 2> "$stderr"
  fi
  exec "$@"
}

# The exit status of a command that run -b started (none in a dry run).
wait_for() {
  ((dry_run)) || wait "$1"
}

# Standard input written to FILE; in a dry run printed as the here-document that would.
write() {
  if ((dry_run)); then
    {
      echo "cat > $(quote "$1") << 'EOF'"
      cat
      echo "EOF"
    } >&3
  else
    cat > "$1"
  fi
}

# The one build recipe: TARGETs of the project (knightgym_cli, the Python modules
# _knightgym and _knightgym_torch) built into BUILD against the LibTorch of the machine's
# PyTorch (CMakeLists.txt finds it through PYTHON's torch), on every core, the log in
# OUT/build.log. BUILD is configured only the first time, without the C++ tests, with
# CARRIED/eigen as Eigen, warnings not made errors (the machine's compiler and PyTorch are
# not the ones CI holds us to), and the Python module only where a Python target is asked
# for: that needs pybind11 importable by PYTHON, which the check phase installs from
# CARRIED/wheels first. A build already made (BUILD=build for a try on the CPU) is only
# brought up to date, and a target built earlier in this call is not built again.
build_targets() {
  local target todo=() python_module=OFF start=$SECONDS
  for target; do
    [[ $built == *" $target "* ]] || todo+=("$target")
    [[ $target == _knightgym* ]] && python_module=ON
  done
  ((${#todo[@]})) || return 0
  if [[ ! -f $build/build.ninja ]] || { [[ $python_module == ON ]] &&
    grep -qx 'KNIGHTGYM_PYTHON:BOOL=OFF' "$build/CMakeCache.txt"; }; then
    run -a "$out/build.log" -e "$out/build.log" cmake -S . -B "$build" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$python" \
      -DEigen3_DIR="$carried/eigen/share/eigen3/cmake" -DKNIGHTGYM_TESTS=OFF \
      -DKNIGHTGYM_PYTHON="$python_module" -DKNIGHTGYM_WERROR=OFF ||
      die "configuring $build failed: $(last_line "$out/build.log")"
  fi
  run -a "$out/build.log" -e "$out/build.log" cmake --build "$build" -j "$cores" \
    --target "${todo[@]}" || die "the build of ${todo[*]} failed (OUT/build.log)"
  built+="${todo[*]} "
  log "build of ${todo[*]} in $build: $((SECONDS - start)) s"
}

# The GPU's load (utilisation in %, memory in MiB), sampled every MILLISECONDS into
# OUT/gpu-NAME.csv until stop_sampling, where nvidia-smi is (in a dry run, always printed).
sample_gpu() {
  local name=$1 milliseconds=$2
  ((dry_run)) || command -v nvidia-smi > /dev/null || return 0
  run -b -a "$out/gpu-$name.csv" -e "$out/gpu-$name.csv" nvidia-smi \
    --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader,nounits \
    -lms "$milliseconds"
  sampler=$pid
}

stop_sampling() {
  [[ -z $sampler ]] || kill "$sampler" 2> /dev/null || true
  sampler=
}

# OUT packed for the trip back, which brings at most 8 files: summary.txt and the phases'
# archives (*.tar.gz) stay as they are, and every other file the phases wrote (logs,
# tables, the GPU's load) goes into OUT/details.tar.gz.
pack_out() {
  local files
  if ((dry_run)); then
    log "then OUT packed: summary.txt and the archives kept, the rest into details.tar.gz"
    return
  fi
  mapfile -t files < <(find "$out" -mindepth 1 -maxdepth 1 ! -name summary.txt \
    ! -name '*.tar.gz' -printf '%f\n' | sort)
  ((${#files[@]})) || return 0
  tar -C "$out" -czf "$out/details.tar.gz" "${files[@]}" && (cd "$out" && rm -rf "${files[@]}")
}
