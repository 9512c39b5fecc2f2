#!/usr/bin/env bash
# The teacher comparison of docs/training.md (issue 32): the arms of this folder's GAME
# folder (GAME's spec with ()=, made underscores: knights_challenge_mode_duel), with and
# without a teacher, at equal processor time (tools/lib/compare_arms.sh; FIELD and APART
# pass through to it). A stopped comparison goes on.
#   tools/experiments/teacher/run.sh GAME [OUT] [MINUTES] [LADDER_GAMES] [TARGET_GAMES]
set -euo pipefail
game=${1:?usage: tools/experiments/teacher/run.sh GAME [OUT] [MINUTES] [LADDER_GAMES] [TARGET_GAMES]}
name=${game//[()=,]/_}
name=${name%_}
exec tools/lib/compare_arms.sh "$(dirname "$0")/$name" "$game" "${2:-out/teacher_ab/$name}" \
  "${3:-30}" "${4:-20}" "${5:-200}"
