#!/usr/bin/env bash
# The sample-efficiency comparison of docs/training.md: every arm of tools/ab/ (a training
# settings file each) trained on GAME (Tailten in docs/training.md) with seeds 1 and 2, all
# runs at once so that each gets the same share of the machine, for MINUTES of wall time;
# then one ladder of the final networks against fixed agents (tools/teacher_ab.sh runs it,
# with no teacher and no target matches). Runs already there resume (--resume), so a
# stopped comparison goes on.
#   tools/ab_runs.sh GAME [OUT] [MINUTES] [GAMES]
set -euo pipefail
game=${1:?usage: tools/ab_runs.sh GAME [OUT] [MINUTES] [GAMES]}
exec env ARMS=tools/ab FIELD=random,mcts:sims=100,mcts:sims=400 \
  tools/teacher_ab.sh "$game" "${2:-out/ab}" "${3:-30}" "${4:-20}" 0
