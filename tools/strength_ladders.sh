#!/usr/bin/env bash
# The rating ladders of docs/strength.md: every game's agents in a round robin, the JSON
# of each into OUT (default out/strength), then the Markdown tables on standard output.
# A ladder whose JSON is there already is not played again, so a stopped run resumes.
#   tools/strength_ladders.sh [OUT] [THREADS]
set -euo pipefail
out=${1:-out/strength}
threads=${2:-2}
build=${BUILD:-build}
mkdir -p "$out"

searches="random,greedy,mcts:sims=100,mcts:sims=400,mcts:sims=1600"
ladder() {  # NAME GAME AGENTS GAMES
  local json="$out/$1.json"
  [[ -f "$json" ]] && return
  "$build/knightgym" ladder "$2" --agents "$3" --games "$4" --threads "$threads" --seed 1 \
    --json "$json" > /dev/null
}
ladder knight_fight knight_fight "$searches" 100
ladder tailten tailten "$searches" 100
ladder double_duel double_duel "$searches" 100
ladder knights_challenge_ffa4 "knights_challenge(mode=ffa4)" "$searches" 20
ladder knightmate knightmate \
  "$searches,uci:nodes=1,uci:nodes=10,uci:nodes=100,uci:nodes=1000" 40
ladder knights_challenge_duel "knights_challenge(mode=duel)" "$searches" 40  # the longest

PYTHONPATH="$build/python" "${PYTHON:-/usr/bin/python3}" -m knightgym.ladder report "$out"/*.json
