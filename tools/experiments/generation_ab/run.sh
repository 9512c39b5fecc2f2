#!/usr/bin/env bash
# Continuing self-play against one more generation, at the same processor time: from a
# kept run (knightgym keep, e.g. kept/NAME), the arm `selfplay` resumes it for MINUTES
# more of wall time, and the arm `generation` is one generation of `knightgym iterate`
# from its network (teacher data from its search, then the child's training, for
# MINUTES in all; the game's recipe, or RECIPE, and TEACH_GAMES, SHARD_GAMES,
# TEACHER_SIMS, TEACHER_STEPS for its teacher), both at once with one thread each, so
# each gets the same share of the machine (each session's user and system seconds:
# OUT/selfplay.cpu, OUT/generation.cpu). Then, seeded and seats rotated, at 64 simulations: each arm's network
# against the parent and against REFERENCE (default mcts:sims=800), GAMES games each, and
# the two arms against each other; OUT/NAME.json each, and a table. Run again, a stopped
# comparison goes on.
#   tools/experiments/generation_ab/run.sh GAME OUT KEPT MINUTES [GAMES]
set -euo pipefail
shopt -s inherit_errexit
usage="usage: tools/experiments/generation_ab/run.sh GAME OUT KEPT MINUTES [GAMES]"
game=${1:?$usage}
out=${2:?$usage}
kept=${3:?$usage}
minutes=${4:?$usage}
games=${5:-200}
build=${BUILD:-build}
python=${PYTHON:-/usr/bin/python3}
reference=${REFERENCE:-mcts:sims=800}
mkdir -p "$out"
parent=$(realpath "$out")/parent.pt
[[ -f $parent ]] || cp "$kept/model.pt" "$parent"

# The kept run's training minutes so far (its last metrics row), and MINUTES more.
[[ -d $out/selfplay ]] || cp -r "$kept" "$out/selfplay"
[[ -f $out/selfplay.minutes ]] ||
  awk -F, -v m="$minutes" 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "seconds") c = i }
    END { print $c / 60 + m }' "$kept/metrics.csv" > "$out/selfplay.minutes"
/usr/bin/time -a -o "$out/selfplay.cpu" -f "%U %S" "$build/knightgym" train "$game" \
  --out "$out/selfplay" --minutes "$(cat "$out/selfplay.minutes")" --resume \
  > "$out/selfplay.log" 2>&1 &
selfplay=$!
name=${game%%(*}
again=()
[[ -f $out/generation/iterate.json ]] && again=(--resume)
# The gate is left out (--gate-games 0): the matches below play the child instead.
/usr/bin/time -a -o "$out/generation.cpu" -f "%U %S" "$build/knightgym" iterate "$game" \
  --out "$out/generation" --parent "$parent" --minutes "$minutes" \
  --config "${RECIPE:-env/games/$name/recipes/$name.txt}" --teach-games "${TEACH_GAMES:-1000}" \
  --shard-games "${SHARD_GAMES:-64}" --teacher-sims "${TEACHER_SIMS:-400}" \
  --teacher-steps "${TEACHER_STEPS:-2000}" --gate-games 0 "${again[@]}" \
  > "$out/generation.log" 2>&1
wait "$selfplay"
child=$out/generation/gen-1/train/model.pt

play() {  # NAME AGENT AGENT
  [[ -f $out/$1.json ]] ||
    "$build/knightgym" play "$game" --agents "$2,$3" --games "$games" \
      --batch "$(( games < 50 ? games : 50 ))" --seed 1 --json "$out/$1.json" > /dev/null
}
net() { echo "az:model=$1,sims=64"; }
play selfplay-vs-parent "$(net "$out/selfplay/model.pt")" "$(net "$parent")"
play generation-vs-parent "$(net "$child")" "$(net "$parent")"
play selfplay-vs-reference "$(net "$out/selfplay/model.pt")" "$reference"
play generation-vs-reference "$(net "$child")" "$reference"
play generation-vs-selfplay "$(net "$child")" "$(net "$out/selfplay/model.pt")"
play parent-vs-reference "$(net "$parent")" "$reference"

"$python" - "$out" "$reference" << 'EOF'
import json
import sys

out, reference = sys.argv[1], sys.argv[2]


def cpu(path):
    with open(path) as f:
        return sum(float(x) for line in f for x in line.split())


def score(name):
    with open(f"{out}/{name}.json") as f:
        agent = json.load(f)["agents"][0]
    return f"{100 * agent['score']:.1f}% ± {100 * agent['half_width']:.1f}%"


print(f"| arm | CPU minutes | against the parent | against {reference} |")
print("|---|--:|--:|--:|")
print(f"| parent | | | {score('parent-vs-reference')} |")
for arm, time in [("selfplay", "selfplay.cpu"), ("generation", "generation.cpu")]:
    print(f"| {arm} | {cpu(f'{out}/{time}') / 60:.1f} | {score(arm + '-vs-parent')} "
          f"| {score(arm + '-vs-reference')} |")
print(f"\ngeneration against selfplay: {score('generation-vs-selfplay')}")
EOF
