#!/usr/bin/env bash
# The rating ladders of docs/strength.md: every game's agents in a round robin, the JSON
# of each into OUT (default out/strength), then the Markdown tables on standard output.
# The ladders are each game's studies' strength.ladders (env/games/<game>/studies.json,
# tools/lib/studies.py; games in the registry's order): NAME (OUT/NAME.json), the game spec,
# games per pair, and agents to add to the searches below (Knightmate: Fairy-Stockfish).
# A ladder whose JSON is there already is not played again, so a stopped run resumes.
#   tools/reports/strength_ladders.sh [OUT] [THREADS]
set -euo pipefail
out=${1:-out/strength}
threads=${2:-2}
build=${BUILD:-build}
python=${PYTHON:-/usr/bin/python3}
studies() { "$python" "$(dirname "$0")/../lib/studies.py" --build "$build" "$@"; }
mkdir -p "$out"

searches="random,greedy,mcts:sims=100,mcts:sims=400,mcts:sims=1600"
ladder() {  # NAME GAME AGENTS GAMES
  local json="$out/$1.json"
  [[ -f "$json" ]] && return
  "$build/knightgym" ladder "$2" --agents "$3" --games "$4" --threads "$threads" --seed 1 \
    --json "$json" > /dev/null
}
listed=$(studies games --with strength.ladders)
for game in $listed; do
  rows=$(studies get "$game" strength.ladders name spec games extra_agents)
  mapfile -t rows <<< "$rows"
  for row in "${rows[@]}"; do
    IFS=$'\t' read -r name spec games extra <<< "$row"
    ladder "$name" "$spec" "$searches${extra:+,$extra}" "$games"
  done
done

PYTHONPATH="$build/python" "$python" -m knightgym.ladder report "$out"/*.json
