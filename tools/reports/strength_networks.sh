#!/usr/bin/env bash
# The shipped networks' part of docs/strength.md, into OUT (default out/strength):
#   - the targets of issue 19: NAME-target*.json, `knightgym play` matches of the network
#     against mcts:sims=800 (Knightmate: at 256 simulations against Fairy-Stockfish at 1,
#     10, 100 and 1,000 nodes);
#   - NAME-networks.json, a gauntlet of the network at 16, 64 and 256 simulations against
#     the agents of tools/reports/strength_ladders.sh;
#   - NAME-time.json, a gauntlet of up to six of the training run's snapshots
#     (RUNS/NAME/snapshots, evenly spaced, at 64 simulations) against random, greedy and
#     MCTS, for the plot of Elo against training time (skipped when the run is not there);
#   - merged/NAME-networks.json and merged/NAME-time.json, each gauntlet merged with its
#     game's round robin of tools/reports/strength_ladders.sh (NAME.json in OUT, needed), the
#     tables of the first and OUT/elo_over_time.png of the second.
# The matches are each game's studies' (env/games/<game>/studies.json, tools/lib/studies.py;
# games in the registry's order): strength.targets (FILE, game spec, agents, and the
# divisor of TARGET) and strength.networks (NAME, game spec, the divisors of LADDER for
# its gauntlet and its snapshots' gauntlet, and agents to add to the field).
# Files already there are not made again, so a stopped run resumes. TARGET and LADDER are
# games per match and per pair; the costly matches of Knights Challenge and Knightmate
# play fewer (the studies' divisors).
#   tools/reports/strength_networks.sh [OUT] [RUNS] [TARGET] [LADDER]
set -euo pipefail
shopt -s inherit_errexit  # a failing command inside $(...) stops the script too
out=${1:-out/strength}
runs=${2:-runs}
target=${3:-400}
ladder=${4:-20}
build=${BUILD:-build}
python=${PYTHON:-/usr/bin/python3}
studies() { "$python" "$(dirname "$0")/../lib/studies.py" --build "$build" "$@"; }
mkdir -p "$out/merged"
net=az:model=pretrained

play() {  # FILE GAME AGENTS GAMES
  [[ -f "$out/$1" ]] && return
  "$build/knightgym" play "$2" --agents "$3" --games "$4" --batch "$(( $4 < 50 ? $4 : 50 ))" \
    --seed 1 --json "$out/$1" > "$out/${1%.json}.txt"
}
gauntlet() {  # FILE GAME CHALLENGERS AGENTS GAMES
  [[ -f "$out/$1" ]] && return
  "$build/knightgym" ladder "$2" --agents "$4" --schedule gauntlet --challengers "$3" \
    --games "$5" --batch "$5" --seed 1 --json "$out/$1" > /dev/null
}
field="random,greedy,mcts:sims=100,mcts:sims=400,mcts:sims=1600"
nets="$net,sims=16,$net,sims=64,$net,sims=256"
snapshots() {  # NAME: up to six of the run's snapshots, every k-th from the first, as agents
  local files
  files=$(ls "$runs/$1/snapshots/"*.pt 2>/dev/null) || return 0
  local every=$(( ($(wc -l <<< "$files") + 5) / 6 ))
  awk -v k="$every" 'NR % k == 1 % k' <<< "$files" | sed 's/^/az:model=/; s/$/,sims=64/' |
    paste -sd,
}
over_time() {  # NAME GAME GAMES
  local agents
  agents=$(snapshots "$1")
  [[ -z "$agents" ]] && return
  local count
  count=$(tr ',' '\n' <<< "$agents" | grep -c '^az:')
  gauntlet "$1-time.json" "$2" "$count" "$agents,random,greedy,mcts:sims=100,mcts:sims=400" "$3"
}

rows() {  # KEY FIELD...: the rows of every game's studies' KEY, tab-separated fields
  local game listed text
  listed=$(studies games --with "$1")
  for game in $listed; do
    text=$(studies get "$game" "$@")
    echo "$text"
  done
}
targets=$(rows strength.targets file spec agents games_divisor)
mapfile -t targets <<< "$targets"
for row in "${targets[@]}"; do
  IFS=$'\t' read -r file spec agents divisor <<< "$row"
  play "$file" "$spec" "$agents" "$(( target / divisor ))"
done
networks=$(rows strength.networks name spec gauntlet_games_divisor time_games_divisor \
  extra_agents)
mapfile -t networks <<< "$networks"
for row in "${networks[@]}"; do
  IFS=$'\t' read -r name spec gauntlet_divisor time_divisor extra <<< "$row"
  gauntlet "$name-networks.json" "$spec" 3 "$nets,$field${extra:+,$extra}" \
    "$(( ladder / gauntlet_divisor ))"
  over_time "$name" "$spec" "$(( ladder / time_divisor ))"
done

# Each gauntlet merged with its game's round robin (tools/reports/strength_ladders.sh, NAME.json),
# so that the networks and snapshots are rated on the round robin's scale; then the
# tables and the plot of Elo against training time.
ladder_py() { PYTHONPATH="$build/python" "$python" -m knightgym.ladder "$@"; }
shopt -s nullglob  # no NAME-time.json where no game's run is there
for gauntlet in "$out"/*-networks.json "$out"/*-time.json; do
  name=$(basename "$gauntlet" .json)
  game=${name%-*}
  if [[ ! -f "$out/$game.json" ]]; then
    echo "$gauntlet: no round robin $out/$game.json to merge it with" >&2
    exit 1
  fi
  ladder_py merge "$out/merged/$name.json" "$out/$game.json" "$gauntlet"
done
ladder_py report "$out"/merged/*-networks.json
times=("$out"/merged/*-time.json)
(( ${#times[@]} == 0 )) || ladder_py time-plot "$out/elo_over_time.png" "${times[@]}"
