#!/usr/bin/env bash
# The sample-efficiency comparison of docs/training.md: every arm of tools/ab/ (a training
# settings file each) trained on Tailten with seeds 1 and 2, all runs at once so that each
# gets the same share of the machine, for MINUTES of wall time; then one ladder of the
# final networks against fixed agents (tools/teacher_ab.sh runs it, with no teacher and no
# target matches). Runs already there resume (--resume), so a stopped comparison goes on.
#   tools/ab_runs.sh [OUT] [MINUTES] [GAMES]
exec env ARMS=tools/ab FIELD=random,mcts:sims=100,mcts:sims=400 \
  tools/teacher_ab.sh tailten "${1:-out/ab}" "${2:-30}" "${3:-20}" 0
