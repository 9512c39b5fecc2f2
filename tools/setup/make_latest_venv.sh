#!/usr/bin/env bash
# .venv-latest for make latest: a clean venv over Debian's Python (none of its packages)
# with the newest release of every package that .venv-torch2 is made of, the names of
# tools/setup/python_requirements_torch2.in without their pins. pip resolves them together, then
# each is raised to its newest without dependencies, so that an exact pin of another
# package (ray[rllib]'s of gymnasium) holds none back. The versions it got are printed.
set -euo pipefail
venv=${1:-.venv-latest}
mapfile -t names < <(sed -e 's/#.*//' -e 's/[=<>~!].*//' -e '/^[[:space:]]*$/d' \
  "$(dirname "$0")/python_requirements_torch2.in")
rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
pip() { "$venv/bin/python" -m pip --quiet --disable-pip-version-check "$@"; }
pip install --upgrade pip "${names[@]}"
pip install --upgrade --no-deps "${names[@]%%\[*}"  # the names without their extras
"$venv/bin/python" -m pip list --disable-pip-version-check --format freeze
