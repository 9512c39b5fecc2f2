#!/usr/bin/env bash
# The sample-efficiency comparison of docs/training.md: every arm of this folder (a
# training settings file each) trained on GAME (Tailten in docs/training.md) with seeds 1
# and 2, all runs at once for MINUTES of wall time, then one ladder of the final networks
# against fixed agents (tools/lib/compare_arms.sh, with no teacher and no target matches).
# Runs already there resume, so a stopped comparison goes on.
#   tools/experiments/sample_efficiency/run.sh GAME [OUT] [MINUTES] [GAMES]
set -euo pipefail
game=${1:?usage: tools/experiments/sample_efficiency/run.sh GAME [OUT] [MINUTES] [GAMES]}
exec env FIELD=random,mcts:sims=100,mcts:sims=400 \
  tools/lib/compare_arms.sh "$(dirname "$0")" "$game" "${2:-out/ab}" "${3:-30}" "${4:-20}" 0
